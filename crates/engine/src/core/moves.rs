//! `Move`: origin, destination and captured set (docs/RULES.md R15), and `MoveList`.
//!
//! Two jump paths with the same origin, destination and captured set reach the same position,
//! so they are one move; equality on these three fields is move identity. Origin and
//! destination may be the same square (a circular capture). The landing squares in between
//! are not stored: `notation` rebuilds them when PDN text needs them.

use crate::core::bitboard::Bitboard;
use crate::core::square::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move as masks: origin, destination and the pieces it captures.
///
/// ```
/// use poolshark_engine::core::{movegen, Bitboard, Move, Position, Square};
/// let sq = |n| Square::from_number(n).unwrap();
/// let quiet = Move::quiet(sq(11), sq(15));
/// assert_eq!(quiet.hub(), "11-15");
/// assert!(!quiet.is_capture());
/// // 11-15 22-18: Black must take, 15x22 over 18.
/// let mut pos = Position::start().play(&quiet);
/// pos = pos.play(&Move::quiet(sq(22), sq(18)));
/// let moves = movegen::legal_moves(&pos);
/// let take = Move::capture(sq(15), sq(22), Bitboard::from_square(sq(18)));
/// assert_eq!(moves.as_slice(), [take]);
/// assert!(take.is_capture());
/// assert_eq!(take.hub(), "15x22x18");
/// assert_eq!(take.to_string(), "15x22x18");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub captured: Bitboard,
}

impl Move {
    #[inline]
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            captured: Bitboard::EMPTY,
        }
    }
    #[inline]
    pub const fn capture(from: Square, to: Square, captured: Bitboard) -> Move {
        Move { from, to, captured }
    }
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.captured.any()
    }
    /// Hub notation (docs/RULES.md R5): `11-15`, or `24x3x7x15` (from, to, captured ascending).
    pub fn hub(&self) -> String {
        if self.is_capture() {
            let mut s = format!("{}x{}", self.from, self.to);
            for sq in self.captured {
                s.push('x');
                s.push_str(&sq.number().to_string());
            }
            s
        } else {
            format!("{}-{}", self.from, self.to)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hub())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hub())
    }
}

/// Room for the longest move list of any position with at most 12 pieces a side. Quiet moves
/// stay under 12 kings x 13 squares (156; `tests/movegen.rs` checks the 13 and fills a board
/// with kings); distinct captures are far fewer in practice (the fuzz test in movegen looks
/// for the largest it can find). A list that would grow past this panics (`push`).
pub const MAX_MOVES: usize = 255;

// Move ordering and the transposition table name a move by its index in a list, in a `u8`,
// and the table keeps 0xFF for "no move" (`search::tt`), so every index stays below it.
const _: () = assert!(MAX_MOVES <= u8::MAX as usize);

#[cold]
#[inline(never)]
fn overflow() -> ! {
    panic!("more than {MAX_MOVES} legal moves in one position (MoveList is full)")
}

/// A fixed-capacity list of moves, on the stack.
#[derive(Clone, Default)]
pub struct MoveList(ArrayVec<Move, MAX_MOVES>);

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }
    #[inline]
    pub fn push(&mut self, mv: Move) {
        // Cannot overflow for a valid position (see MAX_MOVES). Were it ever to, a silently
        // shorter list would be a wrong rules answer, so fail loudly: the Hub and the board
        // catch a panic in the search and report it.
        if self.0.try_push(mv).is_err() {
            overflow();
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear()
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.0
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
    pub fn contains(&self, mv: &Move) -> bool {
        self.0.contains(mv)
    }
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.0.swap(a, b)
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.0[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
