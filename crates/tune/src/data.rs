//! Tuning data: positions as feature vectors from White's point of view, with White's score
//! in the game, the score of the search made there (if any), and the target the fit aims at:
//! the game's score, or a blend of it and the search score (`Samples::blend`).

use crate::dataline;
use crate::dataset::{self, Data};
use crate::packed;
use crate::target;
use poolshark_engine::core::{Color, Position};
use poolshark_engine::eval::features::features;
use poolshark_engine::eval::weights::{self, Weights};
use std::path::Path;

/// Feature vectors stored flat, `width` numbers a position, and each game's result.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub width: usize,
    pub features: Vec<f32>,
    /// White's score: 1, 0.5 or 0 (or anything between, for synthetic data).
    pub results: Vec<f32>,
    /// The search score there, from White's side in hundredths of a man; NaN when none.
    pub search: Vec<f32>,
    /// What the fit aims at (White's expected score): the result unless `blend` changed it.
    pub targets: Vec<f32>,
    /// Each position's game (`dataline::game_hash`), where its line named one: the
    /// held-out split keeps a game's positions together.
    pub games: Vec<Option<u64>>,
}

impl Samples {
    pub fn new() -> Samples {
        Samples {
            width: weights::LEN,
            ..Samples::default()
        }
    }

    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The features of sample `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.features[i * self.width..(i + 1) * self.width]
    }

    /// Add a position with White's score and the search score there (White's side), if any;
    /// its features are taken under `w` (see `eval::features` for the two terms that depend
    /// on the weights).
    pub fn push(&mut self, pos: &Position, white_score: f32, search: Option<f32>, w: &Weights) {
        let f = features(pos, w);
        let sign = if pos.side() == Color::White {
            1.0
        } else {
            -1.0
        };
        self.features.extend(f.iter().map(|x| x * sign));
        self.results.push(white_score);
        self.search.push(search.unwrap_or(f32::NAN));
        self.targets.push(white_score);
        self.games.push(None);
    }

    /// Copy sample `i` of `other` to the end.
    pub fn push_from(&mut self, other: &Samples, i: usize) {
        self.features.extend_from_slice(other.row(i));
        self.results.push(other.results[i]);
        self.search.push(other.search[i]);
        self.targets.push(other.targets[i]);
        self.games.push(other.games[i]);
    }

    /// Aim at `target::blend` of each result and search score (both from White's side here,
    /// which the blend does not mind: turning both over turns the target over).
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for i in 0..self.len() {
            self.targets[i] = target::blend(self.results[i], self.search[i], lambda, k);
        }
    }
}

/// Read a tuning data file: text data lines (`load`) or a packed file (`tune::packed`),
/// each record as its training line. The error names the path.
pub fn read(path: &Path, w: &Weights) -> Result<Samples, String> {
    match dataset::read(path)?.0 {
        Data::Text(text) => load(&text, w).map_err(|e| format!("{}: {e}", path.display())),
        Data::Packed(f) => {
            let mut out = Samples::new();
            for r in &f.records {
                let d = packed::training_line(r, f.seed);
                out.push(&d.pos, d.white_score as f32, d.search.map(|s| s as f32), w);
                *out.games.last_mut().expect("just pushed") = d.game;
            }
            Ok(out)
        }
    }
}

/// Read data lines (`tune::dataline`), as `selfplay` writes them. Blank lines and `#`
/// comments are skipped. An error names the line.
pub fn load(text: &str, w: &Weights) -> Result<Samples, String> {
    let mut out = Samples::new();
    for (n, line) in dataline::numbered(text) {
        let d = dataline::parse(line).map_err(|e| format!("line {n}: {e}"))?;
        out.push(&d.pos, d.white_score as f32, d.search.map(|s| s as f32), w);
        *out.games.last_mut().expect("just pushed") = d.game;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::eval::weights::AT;

    #[test]
    fn lines_load_and_bad_lines_are_named() {
        let w = Weights::handset();
        let s = load("B:W21-32:B1-12 ; 0.5\n\n# c\nW:W21-32:B1-12 ; 1\n", &w).unwrap();
        assert_eq!(s.len(), 2);
        // The start position: only the tempo, seen from White (Black to move: -1).
        assert_eq!(s.row(0)[AT.tempo], -1.0);
        assert_eq!(s.row(1)[AT.tempo], 1.0);
        assert!(load("B:W21-32:B1-12 ; 2", &w)
            .unwrap_err()
            .starts_with("line 1"));
        assert!(load("x\nB:W21-32:B1-12", &w)
            .unwrap_err()
            .starts_with("line 1"));
        assert!(load("B:W21-32:B1-12 ; 1\nB:W21-32:Bx ; 1", &w)
            .unwrap_err()
            .starts_with("line 2"));
        for bad in ["B:W21-32:B1-12 ; 1 ; x", "B:W21-32:B1-12 ; 1 ; 5 ; 6 ; 7"] {
            assert!(load(bad, &w).unwrap_err().starts_with("line 1"), "{bad}");
        }
    }

    #[test]
    fn blend_mixes_the_result_and_the_search_score() {
        let w = Weights::handset();
        let text = "B:W21-32:B1-12 ; 1 ; 0\nB:W21-32:B1-12 ; 0 ; 400\nW:W21-32:B1-12 ; 0.5 ; -\n";
        let mut s = load(text, &w).unwrap();
        assert_eq!(s.targets, s.results);
        s.blend(1.0, 0.005);
        assert_eq!(s.targets, vec![1.0, 0.0, 0.5]);
        s.blend(0.0, 0.005);
        let win = 1.0 / (1.0 + (-2.0f32).exp());
        assert_eq!(s.targets[0], 0.5);
        assert!((s.targets[1] - win).abs() < 1e-6, "{:?}", s.targets);
        // No search score: the result, whatever lambda.
        assert_eq!(s.targets[2], 0.5);
        s.blend(0.25, 0.005);
        assert!((s.targets[0] - (0.25 + 0.75 * 0.5)).abs() < 1e-6);
        assert!((s.targets[1] - 0.75 * win).abs() < 1e-6);
    }
}
