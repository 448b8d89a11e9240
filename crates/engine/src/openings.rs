//! Match openings: balanced start positions, so that games differ. The built-in set is
//! `books/openings-3ply.txt`: every distinct position three plies from the start that a
//! search scores within half a man, made by `poolshark openings` (see books/README.md).

use crate::core::notation::{parse_fen, write_fen, NotationError};
use crate::core::{movegen, Game, Position};
use crate::search::{Engine, Limits, SearchControl};
use std::collections::HashSet;

/// The built-in opening set, one FEN a line.
pub const BUILTIN: &str = include_str!("../../../books/openings-3ply.txt");

/// Read an openings file: one FEN a line; blank lines and lines starting with `#` are skipped.
pub fn parse(text: &str) -> Result<Vec<Position>, (usize, NotationError)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_fen(l.trim()).map_err(|e| (i + 1, e)))
        .collect()
}

/// The built-in openings.
pub fn builtin() -> Vec<Position> {
    parse(BUILTIN).expect("the built-in openings file is valid")
}

/// Every distinct position `plies` plies from the start whose score, searched to `depth`,
/// is within `margin` (hundredths of a man) of level, as FEN lines.
pub fn generate(
    plies: u32,
    depth: u32,
    margin: i32,
    on_progress: &mut dyn FnMut(usize, usize),
) -> Vec<String> {
    let mut frontier = vec![Position::start()];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for pos in &frontier {
            for mv in movegen::legal_moves(pos).iter() {
                let child = pos.play(mv);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    let engine = Engine::new(16, 1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut out = Vec::new();
    let total = frontier.len();
    for (i, pos) in frontier.iter().enumerate() {
        if movegen::legal_moves(pos).is_empty() {
            continue;
        }
        let outcome = engine.search(
            &Game::new(*pos),
            &limits,
            &SearchControl::new(),
            &mut |_| {},
        );
        if outcome.score.0.abs() <= margin {
            out.push(write_fen(pos));
        }
        on_progress(i + 1, total);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_set_is_valid_and_distinct() {
        let all = builtin();
        assert!(all.len() >= 50, "{}", all.len());
        let keys: HashSet<u64> = all.iter().map(|p| p.key()).collect();
        assert_eq!(keys.len(), all.len());
        assert!(all.iter().all(|p| !movegen::legal_moves(p).is_empty()));
    }

    #[test]
    fn parse_reports_the_bad_line() {
        let err = parse("# comment\nB:W21-32:B1-12\n\nX:W1:B2\n").unwrap_err();
        assert_eq!(err.0, 4);
    }
}
