//! What the threads of one search share (the table, the control, the parameters, the node
//! count on a cache line of its own) and what each hands back: its last finished iteration
//! and its counts, and which thread's result is played (`pick_best`).

use super::Reductions;
use crate::core::Move;
use crate::eval::Weights;
use crate::search::params::SearchParams;
use crate::search::score::Score;
use crate::search::time::Budget;
use crate::search::tt::TranspositionTable;
use crate::search::{Line, SearchControl};
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;

/// A value on a cache line of its own: the counters every thread writes would otherwise
/// share a line with what the threads only read (the pointers in `Shared`), and each write
/// would cost the other cores a miss on that line.
#[repr(align(64))]
#[derive(Default)]
pub struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub params: &'a SearchParams,
    pub weights: &'a Weights,
    /// Endgame tables, and the most pieces they cover (0 without them).
    pub egdb: Option<&'a crate::egdb::Egdb>,
    pub egdb_pieces: u32,
    /// Nodes of all threads, flushed now and then by each.
    pub total_nodes: Padded<AtomicU64>,
    pub budget: Budget,
    pub node_limit: Option<u64>,
    pub max_depth: u32,
    /// Lines the main thread searches (1 to the number of legal moves); helpers search one.
    pub multipv: usize,
    /// Infinite: after the last iteration, wait for a stop instead of returning.
    pub keep_going: bool,
    pub analyze: bool,
    /// The late-move reductions, built once per search from `params`, before its clock.
    pub reductions: &'a Reductions,
    /// Each thread's last finished iteration.
    pub results: Mutex<Vec<Option<ThreadResult>>>,
    /// Each thread's counts, written when it ends.
    pub stats: Mutex<Vec<ThreadStats>>,
}

/// Where one thread's work went in a search: counts for `bench --threads`, never timings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreadStats {
    /// Nodes this thread searched.
    pub nodes: u64,
    /// The iterations it finished, in order (a helper skips some depths).
    pub depths: Vec<u32>,
    /// Transposition-table probes of the full-width search, and those that found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Endgame-table probes (after the transposition table missed).
    pub egdb_probes: u64,
}

/// A finished iteration of one thread.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    pub depth: u32,
    /// The best line's score and principal variation (`lines[0]`).
    pub score: Score,
    pub pv: Vec<Move>,
    pub mean_depth: f64,
    /// Every line searched, best first: one, or the main thread's multi-PV lines.
    pub lines: Vec<Line>,
}

/// The result to play: the deepest finished iteration of any thread (a proved win first;
/// thread 0 on ties), not blindly thread 0's.
pub fn pick_best(results: &[Option<ThreadResult>]) -> Option<ThreadResult> {
    let mut best: Option<&ThreadResult> = None;
    for r in results.iter().flatten() {
        if r.pv.is_empty() {
            continue;
        }
        best = match best {
            None => Some(r),
            Some(b) => {
                let better = if r.score.is_win() || b.score.is_win() {
                    r.score > b.score
                } else {
                    r.depth > b.depth || (r.depth == b.depth && r.score > b.score)
                };
                Some(if better { r } else { b })
            }
        };
    }
    best.cloned()
}
