//! `Weights`: every number the evaluation uses, in one struct, in hundredths of a man. The
//! hand-set values are `Weights::default()`; a tuner will later fill the struct from a file.

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
}

impl Default for Weights {
    fn default() -> Self {
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
        }
    }
}
