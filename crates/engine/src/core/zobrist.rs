//! Zobrist keys: one random 64-bit number per (piece kind, square) and one for the side to
//! move, made at compile time by SplitMix64 from a fixed seed so keys are the same in every
//! build (and so is the bench's node count, which the table's keys steer).

use crate::core::bitboard::Bitboard;
use crate::core::rng::splitmix64;
use crate::core::rules::BOARD_SQUARES;
use crate::core::square::{Color, Square};

/// Piece kinds as key table rows.
pub const WHITE_MAN: usize = 0;
pub const WHITE_KING: usize = 1;
pub const BLACK_MAN: usize = 2;
pub const BLACK_KING: usize = 3;

pub static PIECE_KEYS: [[u64; BOARD_SQUARES]; 4] = make_keys();
/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x6C62_272E_07BB_0142;

const fn make_keys() -> [[u64; BOARD_SQUARES]; 4] {
    let mut keys = [[0u64; BOARD_SQUARES]; 4];
    let mut state = 0x0123_4567_89AB_CDEFu64;
    let mut p = 0;
    while p < 4 {
        let mut s = 0;
        while s < BOARD_SQUARES {
            let (next, value) = splitmix64(state);
            state = next;
            keys[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    keys
}

/// The key row for a colour's men or kings.
#[inline]
pub const fn piece_row(color: Color, king: bool) -> usize {
    match (color, king) {
        (Color::White, false) => WHITE_MAN,
        (Color::White, true) => WHITE_KING,
        (Color::Black, false) => BLACK_MAN,
        (Color::Black, true) => BLACK_KING,
    }
}

#[inline]
pub fn square_key(row: usize, sq: Square) -> u64 {
    PIECE_KEYS[row][sq.index()]
}

/// XOR of the keys of every square in `set` for one piece kind.
#[inline]
pub fn set_key(row: usize, set: Bitboard) -> u64 {
    set.iter().fold(0, |k, sq| k ^ PIECE_KEYS[row][sq.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_ones_the_bench_was_measured_with() {
        // The first and last keys of the table: a change here changes every hash, so the
        // table's hits, and so the bench's node count.
        assert_eq!(PIECE_KEYS[WHITE_MAN][0], 0x157A_3807_A48F_AA9D);
        assert_eq!(PIECE_KEYS[BLACK_KING][31], 0x1758_8716_E00D_3D10);
    }
}
