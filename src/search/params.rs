//! Every tunable constant of the search, in one place, and the ply limits that size its
//! per-ply arrays.

use crate::core::rules::MAX_PIECES_PER_SIDE;

// Ply limits. Every cap on the plies from the root, and every array indexed by ply, derives
// from these: a change here resizes them all together.

/// Plies of full-width search from the root (`worker::search`); a node this deep goes to the
/// capture search. The iterations stop short of it (`max_depth`), which leaves a few plies
/// for the single-reply extensions of the deepest iteration.
pub const MAX_SEARCH_PLY: usize = 64;

/// How far the capture search may go past `MAX_SEARCH_PLY`. Every ply of it removes at least
/// one of the at most 2 x 12 pieces (R4), so a run of captures ends within 24 plies anyway;
/// the cap only guards against a mistake, and never cuts a real exchange short.
pub const CAPTURE_SEARCH_PLIES: usize = 32;

/// The deepest node of any search, in plies from the root.
pub const MAX_PLY: usize = MAX_SEARCH_PLY + CAPTURE_SEARCH_PLIES;

/// Entries of a per-ply array (principal variations, killers): one for each ply from 0 to
/// `MAX_PLY` inclusive. Every node, the deepest too, clears its own line, and a parent reads
/// its child's, one ply deeper.
pub const PLY_SLOTS: usize = MAX_PLY + 1;

/// Plies over which a proved win's score counts down from `Score::WIN`. It must exceed
/// `MAX_PLY`, and has room to spare: a transposition-table entry carries its distance from
/// the node where it was stored, so a win met through the table can lie further from the
/// root than any line the search walks.
pub const WIN_DISTANCE_PLIES: usize = 4 * MAX_SEARCH_PLY;

const _: () = assert!(CAPTURE_SEARCH_PLIES > 2 * MAX_PIECES_PER_SIDE as usize);
const _: () = assert!(WIN_DISTANCE_PLIES > MAX_PLY);

/// Search tunables. `SearchParams::default()` is what poolshark plays with.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Deepest iteration the driver starts (plies), below `MAX_SEARCH_PLY`.
    pub max_depth: u32,
    /// Aspiration windows start at this depth...
    pub aspiration_min_depth: u32,
    /// ...with this half-width (hundredths of a man), doubled on each failure.
    pub aspiration_delta: i32,
    /// Late-move reductions: only at this remaining depth or more...
    pub lmr_min_depth: i32,
    /// ...for quiet moves after this many have been searched...
    pub lmr_min_moves: usize,
    /// ...by `base + ln(depth) * ln(moves) / divisor` plies, rounded down.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    /// ProbCut: at this remaining depth or more, a search `probcut_reduction` plies shallower
    /// against `beta + probcut_margin` that fails high cuts the node.
    pub probcut_min_depth: i32,
    pub probcut_reduction: i32,
    pub probcut_margin: i32,
    /// Extend by one ply when the side to move has a single legal move.
    pub single_reply_extension: bool,
    /// History scores saturate at this magnitude.
    pub history_max: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            max_depth: 60,
            aspiration_min_depth: 5,
            aspiration_delta: 25,
            lmr_min_depth: 3,
            lmr_min_moves: 3,
            lmr_base: 0.5,
            lmr_divisor: 2.25,
            probcut_min_depth: 5,
            probcut_reduction: 4,
            probcut_margin: 80,
            single_reply_extension: true,
            history_max: 1 << 14,
        }
    }
}
