//! Puzzles: positions where the side to move has one move that wins (material, a crowning
//! that decides, the game) or one that saves it, every other move falling short by a clear
//! margin, with the forced line that shows it (docs/PUZZLES.md).
//!
//! `find` screens a position and proves a puzzle's solution step by step, by a search deeper
//! than the screen's and, with few pieces, by the endgame tables; `themes` names what the
//! solution does; `rating` rates it by which playing levels find it; `record` writes and
//! reads a puzzle as a PDN game. No I/O here: the command line (`poolshark puzzles`) reads
//! the games and writes the files.

pub mod find;
pub mod games;
pub mod glicko;
pub mod params;
pub mod practice;
pub mod rating;
pub mod record;
pub mod set;
pub mod themes;

use crate::core::{Color, Move, Position};
use params::{Centimen, KING, MAN};

/// What the solver is after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// One move wins: material, a crowning that decides, or the game.
    Win,
    /// One move saves the position: every other loses a man or more.
    Save,
}

/// A puzzle's id: the same position gives the same id (a hash of its FEN), 8 letters and
/// digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PuzzleId(String);

impl PuzzleId {
    /// The id of the puzzle at `pos`.
    pub fn of(pos: &Position) -> PuzzleId {
        // FNV-1a over the FEN: stable across builds (a Zobrist key is not meant to be).
        let fen = crate::core::notation::write_fen(pos);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in fen.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut id = String::with_capacity(8);
        for _ in 0..8 {
            id.push(char::from(DIGITS[(h % 36) as usize]));
            h /= 36;
        }
        PuzzleId(id)
    }

    /// An id as written in a `Puzzle` tag: 8 lower-case letters and digits.
    pub fn parse(text: &str) -> Option<PuzzleId> {
        let ok = text.len() == 8
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase());
        ok.then(|| PuzzleId(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PuzzleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A puzzle: the position to solve (the solver to move), its proved solution (the solver's
/// moves and the replies between them, ending with the solver's), what it is about and how
/// hard it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    pub id: PuzzleId,
    pub position: Position,
    pub goal: Goal,
    pub solution: Vec<Move>,
    pub themes: Vec<themes::Theme>,
    /// On the ladder's Elo scale (`rating`), a whole number.
    pub rating: u32,
}

impl Puzzle {
    /// The side that solves.
    pub fn solver(&self) -> Color {
        self.position.side()
    }
}

/// The material of `pos` for `side`, less the other side's: men 100, kings 150.
pub fn balance(pos: &Position, side: Color) -> Centimen {
    let worth = |c: Color| {
        let p = pos.pieces(c);
        let kings = (p & pos.kings()).count() as i32;
        let men = p.count() as i32 - kings;
        men * MAN + kings * KING
    };
    worth(side) - worth(side.flip())
}
