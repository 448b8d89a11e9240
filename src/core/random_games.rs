//! Seeded random games: an endless, reproducible stream of legal positions for property tests
//! and tools that need varied positions (openings, middlegames and endings alike).

use crate::core::movegen::legal_moves;
use crate::core::position::Position;

/// Positions of random games from the start position, each yielded before its random move.
/// A game starts again when it ends or after `max_plies` plies.
pub struct RandomPositions {
    pos: Position,
    seed: u64,
    ply: usize,
    max_plies: usize,
}

impl RandomPositions {
    pub fn new(seed: u64, max_plies: usize) -> RandomPositions {
        RandomPositions {
            pos: Position::start(),
            seed,
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
            self.seed = self
                .seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.pos = self
                .pos
                .play(&moves[(self.seed >> 33) as usize % moves.len()]);
        }
        Some(current)
    }
}
