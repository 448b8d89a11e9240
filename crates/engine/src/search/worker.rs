//! One search thread: iterative deepening, each iteration's root search in its aspiration
//! window and the further lines of a multi-PV search, the node count and the look at the
//! clock and the stop flag. The search itself is in steps, each in its own module: the
//! full-width search (`alpha_beta`), the capture search past the horizon (`quiescence`);
//! beside them the table key under the draw counts (`keys`), the late-move reductions
//! (`reductions`) and what the threads share and hand back (`shared`).

mod alpha_beta;
mod keys;
mod quiescence;
mod reductions;
mod shared;

pub use keys::tt_key;
pub use reductions::Reductions;
pub use shared::{pick_best, Padded, Shared, ThreadResult, ThreadStats};

use crate::core::game::DrawCounts;
use crate::core::{Move, Position};
use crate::eval::nnue;
use crate::search::ordering::Heuristics;
use crate::search::params::{MAX_SEARCH_PLY, PLY_SLOTS};
use crate::search::score::Score;
use crate::search::Line;
use std::sync::atomic::Ordering;

/// Nodes between two looks at the clock and the shared stop flag.
const POLL_INTERVAL: u64 = 256;

/// One thread of a search, with its own line of keys, principal variations, killers and
/// history; it shares only what `Shared` holds.
pub struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    root: Position,
    root_counts: DrawCounts,
    /// Keys of the game since the last irreversible move, then of the current line.
    keys: Vec<u64>,
    heur: Heuristics,
    pv: Vec<Vec<Move>>,
    /// Root moves left out of the current root search: the first moves of the lines already
    /// found in this iteration (multi-PV).
    excluded: Vec<Move>,
    nodes: u64,
    unflushed: u64,
    stopped: bool,
    leaf_plies: u64,
    leaves: u64,
    /// The network's accumulators for the leaves (used only when the weights have one).
    nnue: nnue::Cache,
    stats: ThreadStats,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        root: Position,
        counts: DrawCounts,
        history: &[u64],
        nnue: nnue::Cache,
    ) -> Worker<'a> {
        let p = shared.params;
        // One key for each full-width ply of the line.
        let mut keys = Vec::with_capacity(history.len() + MAX_SEARCH_PLY);
        keys.extend_from_slice(history);
        Worker {
            id,
            shared,
            root,
            root_counts: counts,
            keys,
            heur: Heuristics::new(p),
            pv: vec![Vec::new(); PLY_SLOTS],
            excluded: Vec::new(),
            nodes: 0,
            unflushed: 0,
            stopped: false,
            leaf_plies: 0,
            leaves: 0,
            nnue,
            stats: ThreadStats::default(),
        }
    }

    /// Count a node; now and then flush the count and look at the clock and the stop flag.
    #[inline]
    fn visit(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= POLL_INTERVAL {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let total = self
            .shared
            .total_nodes
            .fetch_add(self.unflushed, Ordering::Relaxed)
            + self.unflushed;
        self.unflushed = 0;
        let c = self.shared.control;
        if c.is_stopped() {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        let out_of_time =
            !c.is_pondering() && self.shared.budget.past_hard(c.clock_start().elapsed());
        if out_of_time || self.shared.node_limit.is_some_and(|n| total >= n) {
            self.stopped = true;
            c.stop();
        }
    }

    /// Iterative deepening. `report` gets each finished iteration (thread 0 only).
    pub fn iterate(&mut self, report: &mut dyn FnMut(&ThreadResult)) -> Option<ThreadResult> {
        let mut result: Option<ThreadResult> = None;
        let mut score = Score::ZERO;
        // Only the main thread searches several lines.
        let multipv = if self.id == 0 { self.shared.multipv } else { 1 };
        for depth in 1..=self.shared.max_depth {
            // 0. Lazy SMP: every other helper thread skips every other depth, so the threads
            //    spread over two depths at once.
            if self.id % 2 == 1 && depth > 2 && depth % 2 == 1 && depth < self.shared.max_depth {
                continue;
            }
            let (lp, lv) = (self.leaf_plies, self.leaves);
            // 1. The best line, as in the single-line search.
            score = self.aspiration(depth, score);
            if self.stopped {
                break;
            }
            let mut lines = vec![Line {
                score,
                pv: self.pv[0].clone(),
            }];
            // 2. Multi-PV: each further line is the best of the root moves not yet in a line,
            //    with its own aspiration window around its score of the last iteration. These
            //    searches read the table but leave no trace (no stores, the killers and
            //    history put back), so that line 1 of every iteration is exactly the
            //    single-line search's: asking for more lines never changes the best move.
            self.excluded.clear();
            let heur = (multipv > 1).then(|| self.heur.clone());
            while lines.len() < multipv {
                let Some(&first) = lines.last().and_then(|l| l.pv.first()) else {
                    break;
                };
                self.excluded.push(first);
                let k = lines.len();
                let last = result
                    .as_ref()
                    .and_then(|r| r.lines.get(k))
                    .map(|l| l.score);
                let s = self.aspiration(depth, last.unwrap_or(Score::INFINITE));
                if self.stopped {
                    break;
                }
                lines.push(Line {
                    score: s,
                    pv: self.pv[0].clone(),
                });
            }
            self.excluded.clear();
            if let Some(h) = heur {
                self.heur = h;
            }
            if self.stopped {
                break;
            }
            order_lines(&mut lines);
            // An iteration that reached no leaf (every line ended in a proof: a rule, a table,
            // a position with no move) reports its nominal depth, not 0.
            let leaves = self.leaves - lv;
            let r = ThreadResult {
                depth,
                score,
                pv: lines[0].pv.clone(),
                mean_depth: if leaves == 0 {
                    f64::from(depth)
                } else {
                    (self.leaf_plies - lp) as f64 / leaves as f64
                },
                lines,
            };
            if let Ok(mut all) = self.shared.results.lock() {
                all[self.id] = Some(r.clone());
            }
            self.stats.depths.push(depth);
            if self.id == 0 {
                self.flush();
                report(&r);
            }
            let stop = self.id == 0 && self.should_stop_after_iteration(depth, score);
            result = Some(r);
            if stop {
                break;
            }
        }
        self.flush();
        self.stats.nodes = self.nodes;
        if let Ok(mut all) = self.shared.stats.lock() {
            all[self.id] = self.stats.clone();
        }
        if self.id == 0 {
            // Infinite or pondering: hold the answer until told to stop (or ponder-hit ends a
            // ponder search whose work is done).
            let c = self.shared.control;
            while !c.is_stopped() && (self.shared.keep_going || c.is_pondering()) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            c.stop();
        }
        result
    }

    /// One root search to `depth` in an aspiration window around `last` (the score of the
    /// last iteration; a decisive score, or a depth below `aspiration_min_depth`, searches the
    /// full window), widened until the score falls inside. Meaningless once stopped.
    fn aspiration(&mut self, depth: u32, last: Score) -> Score {
        let p = self.shared.params;
        let mut delta = p.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= p.aspiration_min_depth && !last.is_decisive() {
            (Score(last.0 - delta), Score(last.0 + delta))
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        loop {
            let root = self.root;
            let s = self.search(&root, self.root_counts, alpha, beta, depth as i32, 0);
            if self.stopped {
                return last;
            }
            if s <= alpha {
                alpha = Score((s.0 - delta).max(-Score::INFINITE.0));
            } else if s >= beta {
                beta = Score((s.0 + delta).min(Score::INFINITE.0));
            } else {
                return s;
            }
            delta *= 2;
            if delta > p.aspiration_full_width {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }

    fn flush(&mut self) {
        self.shared
            .total_nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn should_stop_after_iteration(&self, depth: u32, score: Score) -> bool {
        let c = self.shared.control;
        if c.is_stopped() {
            return true;
        }
        if self.shared.keep_going || c.is_pondering() {
            return false;
        }
        // A proved result that the search has seen to the end will not change.
        if !self.shared.analyze && score.is_decisive() && depth as i32 > score.plies_to_end() + 2 {
            return true;
        }
        self.shared.budget.past_soft(c.clock_start().elapsed())
    }

    /// `mv` is the new best move at `ply`: the line there becomes `mv`, then the child's line.
    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }
}

/// Put lines 2.. in order of score, and show none above the line before it. A later line can
/// come out above an earlier one only through search instability (the table, reductions):
/// the earlier line's own search found every other move no better, so the later line is
/// shown at the earlier one's score. Line 1 stays the best line, as the single-line search
/// finds it.
fn order_lines(lines: &mut [Line]) {
    if lines.len() > 1 {
        lines[1..].sort_by_key(|l| std::cmp::Reverse(l.score));
    }
    for k in 1..lines.len() {
        if lines[k].score > lines[k - 1].score {
            lines[k].score = lines[k - 1].score;
        }
    }
}
