//! The opening book: positions keyed by Zobrist key, each with its moves and their minimaxed
//! scores; loading, saving and choosing a move in play (`Policy`, shared by the Hub and the
//! board).
//!
//! `format` reads and writes the file (books/README.md), `build` grows a book by searching,
//! and `tree` walks a book from the start position (minimax, merge, checks). The default book,
//! `books/poolshark.book`, is compiled into the binary.

pub mod build;
pub mod explorer;
pub mod format;
pub mod tree;

use crate::core::{movegen, Game, Move, Position};
pub use format::BookError;
use std::collections::HashMap;

/// The book built into the binary (books/README.md says how it was made).
pub static DEFAULT_BOOK: &[u8] = include_bytes!("../../../../books/poolshark.book");

/// A book move and its score: hundredths of a man, from the side to move in the position
/// the move is played from, minimaxed through the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub score: i16,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: HashMap<u64, Vec<BookMove>>,
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }

    /// The built-in book.
    pub fn builtin() -> Result<Book, BookError> {
        format::decode(DEFAULT_BOOK)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        format::decode(bytes)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(self)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Add or replace a position's moves.
    pub fn insert(&mut self, key: u64, moves: Vec<BookMove>) {
        self.entries.insert(key, moves);
    }

    pub fn get(&self, key: u64) -> Option<&[BookMove]> {
        self.entries.get(&key).map(|v| v.as_slice())
    }

    pub fn get_mut(&mut self, key: u64) -> Option<&mut Vec<BookMove>> {
        self.entries.get_mut(&key)
    }

    pub fn contains(&self, key: u64) -> bool {
        self.entries.contains_key(&key)
    }

    /// Every entry, sorted by key (the file order).
    pub fn entries(&self) -> Vec<(u64, &[BookMove])> {
        let mut v: Vec<(u64, &[BookMove])> = self
            .entries
            .iter()
            .map(|(k, m)| (*k, m.as_slice()))
            .collect();
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    /// The book moves of `pos` that are legal there, best first. A key collision or a damaged
    /// entry can only drop moves, never yield an illegal one.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let Some(stored) = self.get(pos.key()) else {
            return Vec::new();
        };
        let legal = movegen::legal_moves(pos);
        let mut v: Vec<BookMove> = stored
            .iter()
            .filter(|m| legal.contains(&m.mv))
            .copied()
            .collect();
        v.sort_by_key(|m| std::cmp::Reverse(m.score));
        v
    }

    /// A move for play: one of the book moves scoring within `margin` hundredths of a man of
    /// the best, chosen at random. With margin 0 the best (the first of equals).
    pub fn pick(&self, pos: &Position, margin: i32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(pos);
        let best = moves.first()?.score as i32;
        let near: Vec<&BookMove> = moves
            .iter()
            .filter(|m| best - m.score as i32 <= margin)
            .collect();
        if margin == 0 {
            return Some(*near[0]);
        }
        Some(**rng.pick(&near))
    }
}

/// How play uses the book, for the Hub and the board alike: a book move while fewer than
/// `ply` moves follow the game's start position, chosen among those within `margin`
/// hundredths of a man of the best (`Book::pick`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub ply: u32,
    pub margin: u32,
}

impl Policy {
    /// Book moves for the first this many plies (the Hub's `book-ply` default).
    pub const PLY: u32 = 8;
    /// Among moves this near the best, in hundredths of a man (`book-margin`'s default).
    pub const MARGIN: u32 = 4;

    /// The book move for `game`'s position, if the policy and the book have one.
    pub fn pick(&self, book: &Book, game: &Game, rng: &mut Rng) -> Option<BookMove> {
        if game.moves().len() >= self.ply as usize {
            return None;
        }
        let m = book.pick(game.position(), self.margin as i32, rng)?;
        log::debug!("book move {} score {}", m.mv.hub(), m.score);
        Some(m)
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            ply: Policy::PLY,
            margin: Policy::MARGIN,
        }
    }
}

/// The generator for book choices (`core::rng`), seedable for tests.
pub use crate::core::rng::SplitMix64 as Rng;
