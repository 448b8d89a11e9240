//! Games between playing levels, the puzzles' source (`poolshark puzzles games`): weaker
//! levels leave shots standing and miss the one move that saves, which is what a puzzle is.
//!
//! Game `index` of a run with `seed` is the same game on any machine: its levels and its
//! opening (one of the built-in 3-ply openings) come from the seed and the index, and every
//! move is the level's pick on one thread at its own node limit, from a fresh table, with its
//! random choices drawn from a generator seeded by the game.

use super::params::HASH_MB;
use crate::core::pdn::{result_text, PdnGame};
use crate::core::rng::SplitMix64;
use crate::core::{Game, GameResult};
use crate::search::level::{self, PlayLevel};
use crate::search::{Engine, Limits, SearchControl};

/// A game longer than this many plies stops unfinished (`*`).
pub const MAX_PLIES: usize = 200;

/// The levels of a run: from `low` to `high`, each side's drawn alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    pub low: PlayLevel,
    pub high: PlayLevel,
}

/// The generator of game `index` of the run with `seed`.
fn rng_of(seed: u64, index: u64) -> SplitMix64 {
    let mut r = SplitMix64::new(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    r.next_u64();
    r
}

/// Plays game `index` of the run with `seed` between two levels of `levels`, from one of
/// `openings` (non-empty).
pub fn play(
    engine: &mut Engine,
    seed: u64,
    index: u64,
    levels: Levels,
    openings: &[crate::core::Position],
) -> PdnGame {
    let mut rng = rng_of(seed, index);
    let span = u64::from(levels.high.get() - levels.low.get()) + 1;
    let pick = |rng: &mut SplitMix64| {
        PlayLevel::new(u64::from(levels.low.get()) + rng.next_u64() % span)
            .expect("within the run's levels")
    };
    let black = pick(&mut rng);
    let white = pick(&mut rng);
    let start = openings[(rng.next_u64() % openings.len() as u64) as usize];
    engine.clear();
    let mut game = Game::new(start);
    while game.result() == GameResult::Ongoing && game.moves().len() < MAX_PLIES {
        let lv = match game.position().side() {
            crate::core::Color::Black => black,
            crate::core::Color::White => white,
        };
        let out = level::search(
            engine,
            &game,
            lv,
            &Limits::default(),
            &SearchControl::new(),
            &mut rng,
            &mut |_| {},
        );
        let Some(mv) = out.best else { break };
        game.play(&mv);
    }
    let result = match game.result() {
        GameResult::Win(c) => result_text(Some(c)),
        GameResult::Draw(_) => result_text(None),
        GameResult::Ongoing => "*",
    };
    let tags = [
        ("Event", "poolshark level games".to_string()),
        ("Site", "poolshark".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", format!("{}", index + 1)),
        ("White", format!("level {white}")),
        ("Black", format!("level {black}")),
        ("Result", result.to_string()),
        ("GameType", "23".to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", crate::core::notation::write_fen(&start)),
        ("Seed", format!("{seed}")),
    ];
    PdnGame {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        start,
        moves: game.moves().to_vec(),
        times: Vec::new(),
        result: result.to_string(),
    }
}

/// A new engine for level games: one thread, a fixed table.
pub fn engine() -> Engine {
    Engine::new(HASH_MB, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_the_same_game_again_and_ends() {
        let openings = crate::openings::builtin();
        let levels = Levels {
            low: PlayLevel::new(1).unwrap(),
            high: PlayLevel::new(2).unwrap(),
        };
        let mut e = engine();
        let a = play(&mut e, 7, 3, levels, &openings);
        // Another game between, then the same again: the same moves.
        let _ = play(&mut e, 7, 4, levels, &openings);
        let b = play(&mut e, 7, 3, levels, &openings);
        assert_eq!(a, b);
        assert!(!a.moves.is_empty());
        assert!(a.result != "*" || a.moves.len() == MAX_PLIES);
        let c = play(&mut e, 8, 3, levels, &openings);
        assert_ne!(a.moves, c.moves);
    }
}
