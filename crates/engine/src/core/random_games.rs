//! Seeded random games: an endless, reproducible stream of legal positions for property tests
//! and tools that need varied positions (openings, middlegames and endings alike).

use crate::core::movegen::legal_moves;
use crate::core::position::Position;
use crate::core::rng::SplitMix64;

/// Positions of random games from the start position, each yielded before its random move.
/// A game starts again when it ends or after `max_plies` plies.
pub struct RandomPositions {
    pos: Position,
    rng: SplitMix64,
    ply: usize,
    max_plies: usize,
}

impl RandomPositions {
    pub fn new(seed: u64, max_plies: usize) -> RandomPositions {
        RandomPositions {
            pos: Position::start(),
            rng: SplitMix64::new(seed),
            ply: 0,
            max_plies,
        }
    }
}

impl Iterator for RandomPositions {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        let current = self.pos;
        let moves = legal_moves(&self.pos);
        self.ply += 1;
        if moves.is_empty() || self.ply > self.max_plies {
            self.pos = Position::start();
            self.ply = 0;
        } else {
            self.pos = self.pos.play(self.rng.pick(moves.as_slice()));
        }
        Some(current)
    }
}
