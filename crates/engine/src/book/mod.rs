//! The opening book: positions keyed by Zobrist key, each with its moves and their minimaxed
//! scores; loading, saving and choosing a move in play (`Policy`, shared by the Hub and the
//! board).
//!
//! `format` reads and writes the file (books/README.md), `build` grows a book by searching,
//! and `tree` walks a book from the start position (minimax, merge, checks). The default book,
//! `books/poolshark.book`, is compiled into the binary.

pub mod build;
pub mod format;
pub mod tree;

use crate::core::{movegen, Game, Move, Position};
use crate::files;
pub use format::BookError;
use std::collections::HashMap;
use std::path::Path;

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

    /// Read a book file (at most `files::Kind::Book`'s limit, a regular file only).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes =
            files::read(path, files::Kind::Book).map_err(|e| BookError::Io(e.to_string()))?;
        format::decode(&bytes)
    }

    /// Save the book atomically (`files::save`): an interrupted save leaves the old file
    /// whole, and a target that is not a regular file is refused.
    pub fn save(&self, path: &Path) -> Result<(), files::FileError> {
        files::save(path, &self.to_bytes())
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

/// The book for play: the file named by `POOLSHARK_BOOK`, else the built-in one. If it
/// cannot be read, say why on stderr and play without one (`None`: every move searched).
pub fn load_for_play() -> Option<Book> {
    let result = match std::env::var_os("POOLSHARK_BOOK") {
        Some(path) => Book::load(Path::new(&path)),
        None => Book::builtin(),
    };
    match result {
        Ok(book) => Some(book),
        Err(e) => {
            log::warn!("opening book: {e}; playing without a book");
            None
        }
    }
}

/// The generator for book choices (`core::rng`), seedable for tests.
pub use crate::core::rng::SplitMix64 as Rng;

/// The environment variable that seeds the book's choices.
pub const SEED_VAR: &str = "POOLSHARK_BOOK_SEED";

/// The seed `SEED_VAR` gives, if set; a value that is no number is an error naming it,
/// which `cli::main` reports before the Hub or the board starts.
pub fn env_seed() -> Result<Option<u64>, String> {
    crate::core::rng::seed_from_env(SEED_VAR)
}

/// The book's generator: seeded from `POOLSHARK_BOOK_SEED` if set, else from the clock. (A
/// bad value was refused at start: `env_seed`.)
pub fn rng_from_env() -> Rng {
    env_seed()
        .ok()
        .flatten()
        .map_or_else(Rng::from_clock, Rng::new)
}
