//! The puzzle set the board serves: `puzzles/puzzles.tsv`, built into the binary (and so into
//! the static page's WebAssembly), one puzzle a line, compact enough for a phone:
//!
//! `ID <tab> RATING <tab> FEN <tab> THEMES <tab> SOLUTION`
//!
//! themes separated by commas, the solution's moves in Hub notation separated by spaces.
//! `poolshark puzzles pack` writes it from the PDN of `make puzzles` (docs/PUZZLES.md); read
//! back, every line is checked (the id against the position, each move against the rules).
//! The set also chooses the next puzzle: near a rating, of a theme, not one played already.

use super::themes::Theme;
use super::{Goal, Puzzle, PuzzleId};
use crate::core::notation::{parse_fen, parse_hub_move, write_fen};
use crate::core::rng::SplitMix64;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The built-in set.
const BUILTIN: &str = include_str!("../../../../puzzles/puzzles.tsv");

/// How many of the puzzles nearest a rating the next one is drawn from.
const NEAREST: usize = 12;

/// The first puzzle of a streak is rated about this; each one solved asks for `STREAK_STEP`
/// more.
pub const STREAK_START: f64 = 600.0;
pub const STREAK_STEP: f64 = 60.0;

/// A set of puzzles.
#[derive(Debug, Default)]
pub struct PuzzleSet {
    puzzles: Vec<Puzzle>,
}

/// A puzzle as a line of the set.
pub fn line(p: &Puzzle) -> String {
    let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
    let moves: Vec<String> = p.solution.iter().map(|m| m.hub()).collect();
    format!(
        "{}\t{}\t{}\t{}\t{}\n",
        p.id,
        p.rating,
        write_fen(&p.position),
        themes.join(","),
        moves.join(" ")
    )
}

/// The puzzle of one line, checked.
fn parse_line(text: &str) -> Result<Puzzle, String> {
    let fields: Vec<&str> = text.split('\t').collect();
    let [id, rating, fen, themes, moves] = fields.as_slice() else {
        return Err(format!("{} fields, not 5", fields.len()));
    };
    let position = parse_fen(fen).map_err(|e| format!("FEN: {e}"))?;
    let id = PuzzleId::parse(id).ok_or_else(|| format!("'{id}' is no puzzle id"))?;
    if id != PuzzleId::of(&position) {
        return Err(format!("{id} is not the id of its position"));
    }
    let rating: u32 = rating
        .parse()
        .map_err(|_| format!("rating '{rating}' is no whole number"))?;
    let themes = themes
        .split(',')
        .filter(|t| !t.is_empty())
        .map(|t| Theme::parse(t).ok_or_else(|| format!("'{t}' is no theme")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut pos = position;
    let mut solution = Vec::new();
    for m in moves.split_whitespace() {
        let mv = parse_hub_move(&pos, m).map_err(|e| format!("move '{m}': {e}"))?;
        pos = pos.play(&mv);
        solution.push(mv);
    }
    if solution.len() % 2 != 1 {
        return Err("a solution ends with the solver's move".into());
    }
    let goal = if themes.contains(&Theme::DefensiveMove) {
        Goal::Save
    } else {
        Goal::Win
    };
    Ok(Puzzle {
        id,
        position,
        goal,
        solution,
        themes,
        rating,
    })
}

impl PuzzleSet {
    /// The set of a text of lines (`line`); the first bad line is an error naming it.
    pub fn parse(text: &str) -> Result<PuzzleSet, String> {
        let mut puzzles = Vec::new();
        for (k, l) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            puzzles.push(parse_line(l).map_err(|e| format!("line {}: {e}", k + 1))?);
        }
        Ok(PuzzleSet { puzzles })
    }

    /// The built-in set (parsed once).
    pub fn builtin() -> &'static PuzzleSet {
        static SET: OnceLock<PuzzleSet> = OnceLock::new();
        SET.get_or_init(|| PuzzleSet::parse(BUILTIN).expect("the built-in puzzle set reads"))
    }

    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<&Puzzle> {
        self.puzzles.get(index)
    }

    /// The index of the puzzle with id `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.puzzles.iter().position(|p| p.id.as_str() == id)
    }

    /// The next puzzle: of `theme` (any where None), not in `played` (unless every one of
    /// the theme is), drawn from the `NEAREST` rated nearest `rating`. None only where no
    /// puzzle has the theme.
    pub fn pick(
        &self,
        rating: f64,
        theme: Option<Theme>,
        played: &HashSet<usize>,
        rng: &mut SplitMix64,
    ) -> Option<usize> {
        let of_theme: Vec<usize> = (0..self.puzzles.len())
            .filter(|&i| theme.is_none_or(|t| self.puzzles[i].themes.contains(&t)))
            .collect();
        let fresh: Vec<usize> = of_theme
            .iter()
            .copied()
            .filter(|i| !played.contains(i))
            .collect();
        let mut pool = if fresh.is_empty() { of_theme } else { fresh };
        if pool.is_empty() {
            return None;
        }
        let away = |i: usize| (f64::from(self.puzzles[i].rating) - rating).abs();
        pool.sort_by(|&a, &b| away(a).total_cmp(&away(b)).then(a.cmp(&b)));
        pool.truncate(NEAREST);
        Some(*rng.pick(&pool))
    }

    /// The themes the set has puzzles of, in `themes::ALL`'s order.
    pub fn themes(&self) -> Vec<Theme> {
        super::themes::ALL
            .into_iter()
            .filter(|t| self.puzzles.iter().any(|p| p.themes.contains(t)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_set_reads_and_lines_read_back() {
        let set = PuzzleSet::builtin();
        assert!(!set.is_empty());
        for i in 0..set.len() {
            let p = set.get(i).unwrap();
            let again = parse_line(line(p).trim_end()).unwrap();
            assert_eq!(&again, p);
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let p = PuzzleSet::builtin().get(0).unwrap();
        let good = line(p);
        let bad = good.replacen(p.id.as_str(), "zzzzzzzz", 1);
        let e = PuzzleSet::parse(&format!("{good}{bad}")).unwrap_err();
        assert!(e.starts_with("line 2: zzzzzzzz is not the id"), "{e}");
        assert!(PuzzleSet::parse("a\tb").unwrap_err().contains("2 fields"));
    }

    #[test]
    fn picks_are_near_the_rating_of_the_theme_and_fresh() {
        let set = PuzzleSet::builtin();
        let mut rng = SplitMix64::new(1);
        let mut played = HashSet::new();
        for _ in 0..set.len().min(30) {
            let i = set.pick(1500.0, None, &played, &mut rng).unwrap();
            assert!(played.insert(i), "a puzzle played twice");
        }
        let t = set.themes()[0];
        let i = set
            .pick(1500.0, Some(t), &HashSet::new(), &mut rng)
            .unwrap();
        assert!(set.get(i).unwrap().themes.contains(&t));
        // The nearest ones: a pick for a low rating is rated no higher than one for a high.
        let low = set.pick(0.0, None, &HashSet::new(), &mut rng).unwrap();
        let high = set.pick(4000.0, None, &HashSet::new(), &mut rng).unwrap();
        assert!(set.get(low).unwrap().rating <= set.get(high).unwrap().rating);
    }
}
