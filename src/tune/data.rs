//! Tuning data: positions as feature vectors from White's point of view, with White's score.

use crate::core::notation::parse_fen;
use crate::core::{Color, Position};
use crate::eval::features::features;
use crate::eval::weights::{self, Weights};

/// Feature vectors stored flat, `width` numbers a position, and each game's result.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub width: usize,
    pub features: Vec<f32>,
    /// White's score: 1, 0.5 or 0 (or anything between, for synthetic data).
    pub results: Vec<f32>,
}

impl Samples {
    pub fn new() -> Samples {
        Samples {
            width: weights::len(),
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

    /// Add a position with White's score; its features are taken under `w` (see
    /// `eval::features` for the two terms that depend on the weights).
    pub fn push(&mut self, pos: &Position, white_score: f32, w: &Weights) {
        let f = features(pos, w);
        let sign = if pos.side() == Color::White {
            1.0
        } else {
            -1.0
        };
        self.features.extend(f.iter().map(|x| x * sign));
        self.results.push(white_score);
    }
}

/// Read `FEN ; score` lines (blank lines and `#` comments skipped). An error names the line.
pub fn load(text: &str, w: &Weights) -> Result<Samples, String> {
    let mut out = Samples::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: String| format!("line {}: {m}", i + 1);
        let (fen, score) = line
            .split_once(';')
            .ok_or_else(|| err("expected 'FEN ; score'".into()))?;
        let pos = parse_fen(fen.trim()).map_err(|e| err(format!("bad FEN: {e}")))?;
        let score: f32 = score
            .trim()
            .parse()
            .ok()
            .filter(|s: &f32| (0.0..=1.0).contains(s))
            .ok_or_else(|| err(format!("'{}' is not a score from 0 to 1", score.trim())))?;
        out.push(&pos, score, w);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_load_and_bad_lines_are_named() {
        let w = Weights::handset();
        let s = load("B:W21-32:B1-12 ; 0.5\n\n# c\nW:W21-32:B1-12 ; 1\n", &w).unwrap();
        assert_eq!(s.len(), 2);
        // The start position: only the tempo, seen from White (Black to move: -1).
        assert_eq!(s.row(0)[16], -1.0);
        assert_eq!(s.row(1)[16], 1.0);
        assert!(load("B:W21-32:B1-12 ; 2", &w)
            .unwrap_err()
            .starts_with("line 1"));
        assert!(load("x\nB:W21-32:B1-12", &w)
            .unwrap_err()
            .starts_with("line 1"));
        assert!(load("B:W21-32:B1-12 ; 1\nB:W21-32:Bx ; 1", &w)
            .unwrap_err()
            .starts_with("line 2"));
    }
}
