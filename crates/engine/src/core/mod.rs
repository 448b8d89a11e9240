//! The rules core: squares, bitboards, positions, moves, attack tables, move generation,
//! Zobrist keys, notation (PDN games too: `pdn`), the game state with its draw counts and the game as a tree of moves (`tree`); the rules as constants
//! (`rules`) and the seeded random numbers (`rng`). No I/O, no threads.

pub mod attacks;
pub mod bitboard;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod position;
pub mod random_games;
pub mod rng;
pub mod rules;
pub mod square;
pub mod tree;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use game::{Game, GameResult};
pub use moves::{Move, MoveList};
pub use position::{Position, PositionError};
pub use square::{Color, Direction, Square};
