//! A puzzle's rating before any player has tried it: how likely each of the 10 playing levels
//! is to play the whole solution, set against where the level stands on the ladder's Elo
//! scale (`params::LADDER`, docs/LEVELS.md), solved for the rating at which those chances are
//! the most likely (docs/PUZZLES.md, "Ratings").
//!
//! A level's chance of one move is exact, not sampled: its search (single-threaded, at its
//! node limit, on a fresh table) gives its lines, and `level::chances` says how often its
//! pick plays each. The chance of the solution is the product over the solver's moves (a
//! forced move counts 1). A level solving with chance `p` is taken as a player of the
//! level's rating scoring `p` against the puzzle, as Elo expects
//! `1 / (1 + 10^((R - E) / 400))`; the rating `R` is where the expected scores of the 10
//! levels sum to their chances (the maximum likelihood), kept within `RATING_REACH` of the
//! ladder's ends.

use super::params::{HASH_MB, LADDER, LEVEL_ONE, RATING_REACH};
use crate::core::{movegen, Game, Move, Position};
use crate::search::level::{self, PlayLevel};
use crate::search::{Engine, Limits, SearchControl};

/// Each level's chance (level 1 first) of playing every solver move of `solution` from
/// `start`, the replies between them as the solution has them.
pub fn level_chances(engine: &mut Engine, start: &Position, solution: &[Move]) -> [f64; 10] {
    let mut out = [1.0; 10];
    for (i, p) in out.iter_mut().enumerate() {
        let lv = PlayLevel::new(i as u64 + 1).expect("levels 1 to 10");
        let mut game = Game::new(*start);
        for (k, mv) in solution.iter().enumerate() {
            if k % 2 == 0 && movegen::legal_moves(game.position()).len() > 1 {
                engine.clear();
                let limits = lv.limits(&Limits::default());
                let lines = engine
                    .search(&game, &limits, &SearchControl::new(), &mut |_| {})
                    .lines;
                let chances = level::chances(&lines, lv.settings());
                let hit: f64 = lines
                    .iter()
                    .zip(&chances)
                    .filter(|(l, _)| l.pv.first() == Some(mv))
                    .map(|(_, c)| c)
                    .sum();
                *p *= hit;
            }
            game.play(mv);
        }
    }
    out
}

/// A new engine for rating: one thread, the finder's fixed table.
pub fn engine() -> Engine {
    Engine::new(HASH_MB, 1)
}

/// Elo's expected score of a player rated `player` against a puzzle rated `puzzle`.
fn expected(player: f64, puzzle: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((puzzle - player) / 400.0))
}

/// The rating at which the levels' expected scores sum to their `chances`, a whole number.
pub fn rating(chances: &[f64; 10]) -> u32 {
    let lo0 = LEVEL_ONE + LADDER[0] - RATING_REACH;
    let hi0 = LEVEL_ONE + LADDER[9] + RATING_REACH;
    let target: f64 = chances.iter().sum();
    // The expected total falls as the rating rises: bisect.
    let total = |r: f64| -> f64 { LADDER.iter().map(|&e| expected(LEVEL_ONE + e, r)).sum() };
    let (mut lo, mut hi) = (lo0, hi0);
    if total(lo) <= target {
        return lo0.round() as u32;
    }
    if total(hi) >= target {
        return hi0.round() as u32;
    }
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if total(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    ((lo + hi) / 2.0).round() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_every_level_solves_is_rated_at_the_bottom_and_none_at_the_top() {
        assert_eq!(rating(&[1.0; 10]), 400);
        assert_eq!(rating(&[0.0; 10]), 2814);
    }

    #[test]
    fn a_puzzle_half_the_levels_solve_sits_between_them() {
        let mut c = [0.0; 10];
        for x in c.iter_mut().skip(5) {
            *x = 1.0;
        }
        // Levels 6-10 solve, 1-5 fail: between level 5 (1486) and level 6 (1708).
        let r = rating(&c);
        assert!((1486..=1708).contains(&r), "{r}");
        // Harder when only the top level solves.
        c[5] = 0.0;
        c[6] = 0.0;
        assert!(rating(&c) > r);
    }

    #[test]
    fn ratings_rise_as_chances_fall() {
        let mut last = 0;
        for k in 0..=10 {
            let p = 1.0 - f64::from(k) / 10.0;
            let r = rating(&[p; 10]);
            assert!(r >= last, "{p}: {r} < {last}");
            last = r;
        }
    }
}
