//! Zobrist keys: one random 64-bit number per (piece kind, square) and one for the side to
//! move, made at compile time by a fixed generator so keys are the same in every build.

use crate::core::bitboard::Bitboard;
use crate::core::square::{Color, Square};

/// Piece kinds as key table rows.
pub const WHITE_MAN: usize = 0;
pub const WHITE_KING: usize = 1;
pub const BLACK_MAN: usize = 2;
pub const BLACK_KING: usize = 3;

pub static PIECE_KEYS: [[u64; 32]; 4] = make_keys();
/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x6C62_272E_07BB_0142;

/// One step of the SplitMix64 generator: (next state, output).
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; 32]; 4] {
    let mut keys = [[0u64; 32]; 4];
    let mut state = 0x0123_4567_89AB_CDEFu64;
    let mut p = 0;
    while p < 4 {
        let mut s = 0;
        while s < 32 {
            let (next, value) = splitmix(state);
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
