//! Every tunable constant of the search, in one place.

/// Search tunables. `SearchParams::default()` is what poolshark plays with.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Deepest iteration the driver starts (plies).
    pub max_depth: u32,
    /// Aspiration windows start at this depth...
    pub aspiration_min_depth: u32,
    /// ...with this half-width (hundredths of a man), doubled on each failure.
    pub aspiration_delta: i32,
    /// Late-move reductions: only at this remaining depth or more...
    pub lmr_min_depth: i32,
    /// ...for quiet moves after this many have been searched...
    pub lmr_min_moves: usize,
    /// ...by `base + ln(depth) * ln(moves) / divisor` plies (in hundredths).
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
