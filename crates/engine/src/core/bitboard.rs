//! `Bitboard`: a set of the 32 playable squares, one bit each (bit `i` is square `i + 1`).
//!
//! The board geometry that the shifts below rely on: the squares are numbered row by row from
//! White's far side (docs/RULES.md R2). Row `r` (0 = rank 8) holds bits `4r..4r+3`. On even rows
//! those bits sit on files b, d, f, h; on odd rows on files a, c, e, g. So one step toward
//! rank 1 is `+4` from every square, plus `+5` (even rows) or `+3` (odd rows) for the other
//! diagonal, and a jump is always `±7` or `±9`.

use crate::core::square::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
///
/// ```
/// use poolshark_engine::core::{Bitboard, Square};
/// let (one, eleven) = (Square::from_number(1).unwrap(), Square::from_number(11).unwrap());
/// let set = Bitboard::from_square(one) | Bitboard::from_square(eleven);
/// assert_eq!(set.0, 0b100_0000_0001);
/// assert_eq!(set.count(), 2);
/// assert!(set.contains(eleven));
/// assert_eq!(set.lsb(), one);
/// let numbers: Vec<u8> = set.iter().map(|s| s.number()).collect();
/// assert_eq!(numbers, [1, 11]);
/// assert_eq!(set & Bitboard::ROW_TOP, Bitboard::from_square(one));
/// assert_eq!(!Bitboard::EMPTY, Bitboard::ALL);
/// // A step shifts every square at once: 11 moves to 15 toward rank 1 and file a.
/// let fifteen = Square::from_number(15).unwrap();
/// assert_eq!(Bitboard::from_square(eleven).step_sw(), Bitboard::from_square(fifteen));
/// // Squares on the edge step off the board.
/// assert!(Bitboard::ROW_BOTTOM.step_sw().is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(u32::MAX);
    /// Rank 8: squares 1-4, where White men are crowned.
    pub const ROW_TOP: Bitboard = Bitboard(0x0000_000F);
    /// Rank 1: squares 29-32, where Black men are crowned.
    pub const ROW_BOTTOM: Bitboard = Bitboard(0xF000_0000);
    /// Rows 0, 2, 4, 6 (ranks 8, 6, 4, 2).
    pub const EVEN_ROWS: Bitboard = Bitboard(0x0F0F_0F0F);
    /// Rows 1, 3, 5, 7 (ranks 7, 5, 3, 1).
    pub const ODD_ROWS: Bitboard = Bitboard(0xF0F0_F0F0);
    /// The first square of every row (files b on even rows, a on odd rows).
    pub const COL0: Bitboard = Bitboard(0x1111_1111);
    /// The last square of every row (files h on even rows, g on odd rows).
    pub const COL3: Bitboard = Bitboard(0x8888_8888);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }
    /// The lowest square of a non-empty set.
    #[inline]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square::new(self.0.trailing_zeros() as u8)
    }
    /// The squares in ascending order.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }

    /// One step toward rank 8, up and to the left (file - 1).
    #[inline]
    pub const fn step_nw(self) -> Bitboard {
        Bitboard(
            ((self.0 & Self::EVEN_ROWS.0) >> 4)
                | ((self.0 & Self::ODD_ROWS.0 & !Self::COL0.0) >> 5),
        )
    }
    /// One step toward rank 8, up and to the right (file + 1).
    #[inline]
    pub const fn step_ne(self) -> Bitboard {
        Bitboard(
            ((self.0 & Self::EVEN_ROWS.0 & !Self::COL3.0) >> 3)
                | ((self.0 & Self::ODD_ROWS.0) >> 4),
        )
    }
    /// One step toward rank 1, down and to the left (file - 1).
    #[inline]
    pub const fn step_sw(self) -> Bitboard {
        Bitboard(
            ((self.0 & Self::EVEN_ROWS.0) << 4)
                | ((self.0 & Self::ODD_ROWS.0 & !Self::COL0.0) << 3),
        )
    }
    /// One step toward rank 1, down and to the right (file + 1).
    #[inline]
    pub const fn step_se(self) -> Bitboard {
        Bitboard(
            ((self.0 & Self::EVEN_ROWS.0 & !Self::COL3.0) << 5)
                | ((self.0 & Self::ODD_ROWS.0) << 4),
        )
    }

    /// A man's jump north-west, two steps at once: 9 bits down from any square off file a/b
    /// and off the top two rows, whatever the row parity.
    #[inline]
    pub const fn jump_nw(self) -> Bitboard {
        Bitboard((self.0 & !Self::COL0.0 & 0xFFFF_FF00) >> 9)
    }
    /// Two steps north-east: 7 bits down, from off file g/h and the top two rows.
    #[inline]
    pub const fn jump_ne(self) -> Bitboard {
        Bitboard((self.0 & !Self::COL3.0 & 0xFFFF_FF00) >> 7)
    }
    /// Two steps south-west: 7 bits up, from off file a/b and the bottom two rows.
    #[inline]
    pub const fn jump_sw(self) -> Bitboard {
        Bitboard((self.0 & !Self::COL0.0 & 0x00FF_FFFF) << 7)
    }
    /// Two steps south-east: 9 bits up, from off file g/h and the bottom two rows.
    #[inline]
    pub const fn jump_se(self) -> Bitboard {
        Bitboard((self.0 & !Self::COL3.0 & 0x00FF_FFFF) << 9)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct BitIter(u32);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::new(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Self {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s))
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let squares: Vec<u8> = self.iter().map(|s| s.number()).collect();
        write!(f, "Bitboard{squares:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::square::Direction;

    #[test]
    fn shifts_match_the_square_geometry() {
        for sq in Square::all() {
            let b = Bitboard::from_square(sq);
            for (dir, stepped) in [
                (Direction::NW, b.step_nw()),
                (Direction::NE, b.step_ne()),
                (Direction::SW, b.step_sw()),
                (Direction::SE, b.step_se()),
            ] {
                let expected = sq
                    .neighbour(dir)
                    .map_or(Bitboard::EMPTY, Bitboard::from_square);
                assert_eq!(stepped, expected, "{dir:?} from {}", sq.number());
            }
        }
    }

    #[test]
    fn jumps_are_two_steps() {
        for sq in Square::all() {
            let b = Bitboard::from_square(sq);
            assert_eq!(b.jump_nw(), b.step_nw().step_nw(), "{}", sq.number());
            assert_eq!(b.jump_ne(), b.step_ne().step_ne(), "{}", sq.number());
            assert_eq!(b.jump_sw(), b.step_sw().step_sw(), "{}", sq.number());
            assert_eq!(b.jump_se(), b.step_se().step_se(), "{}", sq.number());
        }
    }

    #[test]
    fn iterates_in_ascending_order() {
        let b: Bitboard = [5u8, 1, 32]
            .iter()
            .map(|&n| Square::from_number(n).unwrap())
            .collect();
        let v: Vec<u8> = b.iter().map(|s| s.number()).collect();
        assert_eq!(v, vec![1, 5, 32]);
        assert_eq!(b.count(), 3);
    }
}
