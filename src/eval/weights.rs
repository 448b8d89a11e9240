//! `Weights`: every number the evaluation uses, in one struct, in hundredths of a man.
//!
//! The weights the engine plays with are data: `tuning/weights.txt`, embedded at build time
//! and read by `Weights::default()`. `Weights::handset()` keeps the original hand-set values
//! (also in `tuning/handset.txt`) so that a match can compare the two. `LAYOUT` names every
//! field and its length; the file format (`eval::file`) and the tuner (`tune`) both walk it.

use crate::eval::file::{self, WeightsError};
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub man: i32,
    /// About three men (pool kings fly, so they are worth a little less than in English
    /// checkers... and far more than a man).
    pub king: i32,
    /// When ahead in material: this much per piece traded off the board (24 at the start).
    pub trade_down: i32,
    /// By rows advanced (0 = own back row, 6 = one step from crowning), for each man.
    pub advance: [i32; 7],
    /// Each man still on its own back row, while the opponent has men to crown.
    pub back_rank_guard: i32,
    /// Each man on one of the four centre squares (14, 15, 18, 19).
    pub centre: i32,
    /// A man with a free path to the crowning row, scaled down the farther it is.
    pub runaway: i32,
    /// Per square a king can move to.
    pub king_mobility: i32,
    /// A king on the long diagonal (a1-h8).
    pub long_diagonal: i32,
    /// Three or more kings against a lone king off the long diagonal: a win is near.
    pub lone_king_off_diagonal: i32,
    /// A tempo (one move) of the side to move.
    pub tempo: i32,
    /// Like `advance`, but scaled by how far the game has gone: full weight with no pieces
    /// traded... none at the start, `(24 - pieces) / 24` of it later (tempo by phase).
    pub advance_late: [i32; 7],
    /// Extra value of a king, scaled by phase as `advance_late` (kings against men in the
    /// ending).
    pub king_late: i32,
    /// The bridge: both back-corner guards (1 and 3 for Black, 30 and 32 for White) in place
    /// while the opponent has men.
    pub bridge: i32,
    /// A man that cannot move: both forward squares taken (or off the board).
    pub stuck_man: i32,
    /// Per quiet step the men have (a man and an empty square ahead of it).
    pub man_mobility: i32,
    /// Per piece an enemy man could jump at once (an enemy man on one side, an empty square
    /// on the other), whoever is to move. Kings' long captures are not counted.
    pub en_prise: i32,
}

/// Every field in file and vector order: its name and how many numbers it holds.
pub const LAYOUT: &[(&str, usize)] = &[
    ("man", 1),
    ("king", 1),
    ("trade_down", 1),
    ("advance", 7),
    ("back_rank_guard", 1),
    ("centre", 1),
    ("runaway", 1),
    ("king_mobility", 1),
    ("long_diagonal", 1),
    ("lone_king_off_diagonal", 1),
    ("tempo", 1),
    ("advance_late", 7),
    ("king_late", 1),
    ("bridge", 1),
    ("stuck_man", 1),
    ("man_mobility", 1),
    ("en_prise", 1),
];

/// The number of values in `LAYOUT`.
pub fn len() -> usize {
    LAYOUT.iter().map(|(_, n)| n).sum()
}

/// Where the field `name` lies in `Weights::to_vec()`; None for an unknown name.
pub fn field_range(name: &str) -> Option<std::ops::Range<usize>> {
    let mut at = 0;
    for &(key, n) in LAYOUT {
        if key == name {
            return Some(at..at + n);
        }
        at += n;
    }
    None
}

/// The weights file built into the binary.
pub const BUILTIN: &str = include_str!("../../tuning/weights.txt");

impl Default for Weights {
    /// The built-in weights file. It is checked by a test, so it cannot fail here.
    fn default() -> Self {
        static BUILT: OnceLock<Weights> = OnceLock::new();
        BUILT
            .get_or_init(|| file::parse(BUILTIN).expect("tuning/weights.txt is valid"))
            .clone()
    }
}

impl Weights {
    /// The original hand-set values (`tuning/handset.txt`).
    pub fn handset() -> Weights {
        Weights {
            man: 100,
            king: 300,
            trade_down: 4,
            advance: [0, 2, 4, 7, 11, 16, 22],
            back_rank_guard: 8,
            centre: 6,
            runaway: 60,
            king_mobility: 2,
            long_diagonal: 12,
            lone_king_off_diagonal: 400,
            tempo: 3,
            advance_late: [0; 7],
            king_late: 0,
            bridge: 0,
            stuck_man: 0,
            man_mobility: 0,
            en_prise: 0,
        }
    }

    /// Read a weights file from disk (a regular file, at most `files::Kind::Weights`'s limit).
    pub fn load(path: &std::path::Path) -> Result<Weights, WeightsError> {
        let text =
            crate::files::read_to_string(path, crate::files::Kind::Weights).map_err(|e| {
                WeightsError::Io {
                    path: path.display().to_string(),
                    message: e.reason(),
                }
            })?;
        file::parse(&text)
    }

    /// All values in `LAYOUT` order.
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = vec![self.man, self.king, self.trade_down];
        v.extend_from_slice(&self.advance);
        v.extend_from_slice(&[
            self.back_rank_guard,
            self.centre,
            self.runaway,
            self.king_mobility,
            self.long_diagonal,
            self.lone_king_off_diagonal,
            self.tempo,
        ]);
        v.extend_from_slice(&self.advance_late);
        v.extend_from_slice(&[
            self.king_late,
            self.bridge,
            self.stuck_man,
            self.man_mobility,
            self.en_prise,
        ]);
        v
    }

    /// The weights from values in `LAYOUT` order (`v.len()` must be `len()`).
    pub fn from_vec(v: &[i32]) -> Weights {
        assert_eq!(v.len(), len(), "weights vector length");
        let arr7 = |i: usize| -> [i32; 7] { v[i..i + 7].try_into().expect("seven values") };
        Weights {
            man: v[0],
            king: v[1],
            trade_down: v[2],
            advance: arr7(3),
            back_rank_guard: v[10],
            centre: v[11],
            runaway: v[12],
            king_mobility: v[13],
            long_diagonal: v[14],
            lone_king_off_diagonal: v[15],
            tempo: v[16],
            advance_late: arr7(17),
            king_late: v[24],
            bridge: v[25],
            stuck_man: v[26],
            man_mobility: v[27],
            en_prise: v[28],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_ranges_tile_the_vector() {
        let mut at = 0;
        for &(name, n) in LAYOUT {
            assert_eq!(field_range(name), Some(at..at + n), "{name}");
            at += n;
        }
        assert_eq!(at, len());
        assert_eq!(field_range("nonsense"), None);
        let mut w = Weights::handset();
        w.king = 12345;
        assert_eq!(w.to_vec()[field_range("king").unwrap()], [12345]);
    }

    #[test]
    fn vector_round_trip() {
        let w = Weights::handset();
        assert_eq!(w.to_vec().len(), len());
        assert_eq!(Weights::from_vec(&w.to_vec()), w);
        let v: Vec<i32> = (0..len() as i32).collect();
        assert_eq!(Weights::from_vec(&v).to_vec(), v);
    }

    #[test]
    fn the_builtin_file_parses() {
        assert!(file::parse(BUILTIN).is_ok());
        let handset = include_str!("../../tuning/handset.txt");
        assert_eq!(file::parse(handset).unwrap(), Weights::handset());
    }
}
