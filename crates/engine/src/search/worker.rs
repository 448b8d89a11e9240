//! One search thread: iterative deepening, the root search, alpha-beta (PVS) and the capture
//! quiescence, with the draw rules checked at every node.
//!
//! The transposition table key mixes in the draw counts where they can change a result: the
//! lone-king count (R19) always, since three kings against one is rare and every count
//! matters; the 40-move count (R18) once it is within `MAX_SEARCH_PLY` plies of the limit.
//! No line makes more than `MAX_SEARCH_PLY` non-capture moves (the capture search beyond
//! resets the count), so below that threshold the count cannot reach its limit inside any
//! subtree, and entries written at different low counts are interchangeable.

use crate::core::game::DrawCounts;
use crate::core::rng::splitmix64;
use crate::core::rules::{FORTY_MOVE_PLIES, LONE_KING_MOVES, REPETITIONS_FOR_DRAW};
use crate::core::{movegen, Move, MoveList, Position};
use crate::eval::{self, nnue, Choice, Weights};
use crate::search::ordering::{pick_next, Heuristics, Ordered};
use crate::search::params::{SearchParams, MAX_PLY, MAX_SEARCH_PLY, PLY_SLOTS};
use crate::search::score::Score;
use crate::search::time::Budget;
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{Line, SearchControl};
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Below this 40-move count, the count cannot matter within one search (see module docs).
const QUIET_COUNT_EXACT_FROM: u16 = (FORTY_MOVE_PLIES as usize - MAX_SEARCH_PLY) as u16;
/// The depth an entry of the endgame tables' result is stored at: above any search depth,
/// so it is always deep enough, and it tells such an entry from a search's.
const TABLE_DEPTH: i32 = crate::search::tt::MAX_DEPTH;
// A search starts below `MAX_SEARCH_PLY` plies and extends at most one ply per ply.
const _: () = assert!(TABLE_DEPTH > 2 * MAX_SEARCH_PLY as i32);

/// Whether what the tables say of a position under `counts`, which needs `stake` plies
/// without a capture or man move (`egdb::TableScore::stake`), holds for every position of
/// its table key. The key tells every lone-king count apart, and every 40-move count from
/// `QUIET_COUNT_EXACT_FROM` on; below that, the counts sharing a key leave at least
/// `FORTY_MOVE_PLIES - QUIET_COUNT_EXACT_FROM + 1` plies, so a result needing no more holds
/// for them all. (A deeper database win at a low count is not stored: at another count of
/// the same key it may be a draw.)
fn table_result_keys(counts: DrawCounts, stake: u32) -> bool {
    counts.lone_king_moves.is_some()
        || counts.quiet_king_plies >= QUIET_COUNT_EXACT_FROM
        || stake + u32::from(QUIET_COUNT_EXACT_FROM) <= FORTY_MOVE_PLIES + 1
}

/// Nodes between two looks at the clock and the shared stop flag.
const POLL_INTERVAL: u64 = 256;
/// Rows (remaining depth) and columns (move number) of the reduction table; larger values
/// share its last row or column.
const LMR_TABLE: usize = 64;

/// Quiet-move reductions in plies, by remaining depth and move number:
/// `lmr_base + ln(depth) ln(move) / lmr_divisor`, none for the first move or at depth 0.
pub struct Reductions([[i32; LMR_TABLE]; LMR_TABLE]);

impl Reductions {
    pub fn new(p: &SearchParams) -> Reductions {
        let mut table = [[0; LMR_TABLE]; LMR_TABLE];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (p.lmr_base + (d as f64).ln() * (m as f64).ln() / p.lmr_divisor) as i32;
            }
        }
        Reductions(table)
    }

    #[inline]
    fn get(&self, depth: i32, move_number: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(LMR_TABLE - 1)][move_number.min(LMR_TABLE - 1)]
    }
}

/// `COUNT_KEYS` holds first the keys of the lone king's counts (R19)...
const LONE_COUNT_KEYS: usize = 16;
/// ...then those of the 40-move counts from `QUIET_COUNT_EXACT_FROM` on (R18).
const QUIET_COUNT_KEYS: usize = 80;
// Every lone-king count up to the limit has a key, and so has every 40-move count that a
// search can meet from the threshold to the limit.
const _: () = assert!(LONE_KING_MOVES < LONE_COUNT_KEYS as u32);
const _: () = assert!(MAX_SEARCH_PLY < QUIET_COUNT_KEYS);
const _: () = assert!(FORTY_MOVE_PLIES as usize > MAX_SEARCH_PLY);

static COUNT_KEYS: [u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS] = make_count_keys();

const fn make_count_keys() -> [u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS] {
    let mut keys = [0u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS];
    let mut state = 0xC0FF_EE00_D15E_A5E5u64;
    let mut i = 0;
    while i < keys.len() {
        let (s, v) = splitmix64(state);
        state = s;
        keys[i] = v;
        i += 1;
    }
    keys
}

/// The table key of a position under its draw counts.
#[inline]
pub fn tt_key(pos: &Position, counts: DrawCounts) -> u64 {
    let mut key = pos.key();
    if let Some(n) = counts.lone_king_moves {
        key ^= COUNT_KEYS[(n as usize).min(LONE_KING_MOVES as usize)];
    }
    if counts.quiet_king_plies >= QUIET_COUNT_EXACT_FROM {
        let above = (counts.quiet_king_plies - QUIET_COUNT_EXACT_FROM) as usize;
        key ^= COUNT_KEYS[LONE_COUNT_KEYS + above.min(QUIET_COUNT_KEYS - 1)];
    }
    key
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

/// A node of the full-width search once its moves are generated: what the move loop
/// (`search_moves`) reads, for the node itself and for ProbCut's shallower look at it.
#[derive(Clone, Copy)]
struct Node<'n> {
    pos: &'n Position,
    counts: DrawCounts,
    moves: &'n MoveList,
    /// The table's best move, as an index into `moves`.
    hash_index: Option<u8>,
    /// The table key (`tt_key`).
    key: u64,
    depth: i32,
    ply: usize,
}

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

    /// Has the current position (not yet pushed) stood on the board before in a way that
    /// makes it a draw? Inside the search line one repetition is enough (the side that
    /// repeated can repeat again); against the game before the root it takes two (R17).
    fn is_repetition(&self, key: u64, counts: DrawCounts, ply: usize) -> bool {
        let len = self.keys.len();
        let reach = (counts.quiet_king_plies as usize).min(len);
        let mut seen = 0;
        let mut d = 4;
        while d <= reach {
            if self.keys[len - d] == key {
                if d <= ply {
                    return true;
                }
                seen += 1;
                // The current position is one more occurrence.
                if seen + 1 >= REPETITIONS_FOR_DRAW {
                    return true;
                }
            }
            d += 2;
        }
        false
    }

    /// Alpha-beta with principal variation search. Scores are from the side to move.
    fn search(
        &mut self,
        pos: &Position,
        counts: DrawCounts,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
    ) -> Score {
        let p = self.shared.params;
        let pv_node = beta.0 - alpha.0 > 1;
        self.pv[ply].clear();

        // 1. Count the node; give up if the search was stopped.
        self.visit();
        if self.stopped {
            return Score::ZERO;
        }

        // 2. Draw rules (R17-R19), never at the root. A side with no move has lost even
        //    when a count runs out (R16 comes first, as in the game).
        if ply > 0 {
            if counts.draw_reason().is_some() {
                return if movegen::count_moves(pos) == 0 {
                    Score::loss_in(ply as i32)
                } else {
                    Score::DRAW
                };
            }
            if self.is_repetition(pos.key(), counts, ply) {
                return Score::DRAW;
            }
            // 3. Mate-distance pruning: no result here beats a win already in hand.
            alpha = alpha.max(Score::loss_in(ply as i32));
            beta = beta.min(Score::win_in(ply as i32 + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. The horizon: resolve captures (a position the endgame tables cover goes on to
        //    them first).
        let in_tables = ply > 0 && pos.occupied().count() <= self.shared.egdb_pieces;
        let horizon = depth <= 0 || ply >= MAX_SEARCH_PLY;
        if horizon && !in_tables {
            return self.qsearch(pos, alpha, beta, ply);
        }

        // 5. Transposition table probe, before the tables: far cheaper than a table probe,
        //    and it holds what the tables said (step 5b). Such an entry is exact and always
        //    deep enough, so it is taken at any node, as the tables' own answer would be.
        let key = tt_key(pos, counts);
        let entry = self.shared.tt.probe(key);
        self.stats.tt_probes += 1;
        if let Some(e) = entry {
            self.stats.tt_hits += 1;
            let from_tables = e.depth >= TABLE_DEPTH && e.bound == Bound::Exact;
            // What the tables said stays in the table after they are switched off (the Hub's
            // egdb=false): a search without them does not take it.
            let usable = e.depth < TABLE_DEPTH || self.shared.egdb.is_some();
            if ply > 0 && usable && (from_tables || (!pv_node && e.depth >= depth)) {
                let s = e.score.from_tt(ply as i32);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        if in_tables {
            // 5b. Endgame tables: a position they cover, with no capture pending, is known.
            //     What they say goes into the table, where the draw counts cannot change it
            //     for another position of the same key (see `table_result_keys`).
            if let Some(db) = self.shared.egdb {
                self.stats.egdb_probes += 1;
                if let Some(t) = crate::search::egdb::probe(db, pos, counts, ply) {
                    if table_result_keys(counts, t.stake) {
                        let s = t.score.to_tt(ply as i32);
                        self.shared
                            .tt
                            .store(key, s, TABLE_DEPTH, Bound::Exact, None);
                    }
                    return t.score;
                }
            }
            // 5c. The horizon for a covered position with a capture pending.
            if horizon {
                return self.qsearch(pos, alpha, beta, ply);
            }
        }

        // 6. Generate moves; none means a loss (R16).
        let mut moves = MoveList::new();
        movegen::generate(pos, &mut moves);
        if moves.is_empty() {
            return Score::loss_in(ply as i32);
        }

        let node = Node {
            pos,
            counts,
            moves: &moves,
            hash_index: entry.and_then(|e| e.move_index),
            key,
            depth,
            ply,
        };

        // 7. ProbCut: a shallower search that clears beta by a margin predicts a cut-off.
        //    (No null move: zugzwang is everywhere in draughts.) It searches this node's
        //    moves again, with the key and hash move already in hand.
        if !pv_node && ply > 0 && depth >= p.probcut_min_depth && !beta.is_decisive() {
            let rbeta = beta + p.probcut_margin;
            if !rbeta.is_decisive() {
                let reduced = depth - p.probcut_reduction;
                let s = if reduced <= 0 {
                    self.qsearch(pos, rbeta - 1, rbeta, ply)
                } else {
                    self.search_moves(
                        Node {
                            depth: reduced,
                            ..node
                        },
                        rbeta - 1,
                        rbeta,
                    )
                };
                if self.stopped {
                    return Score::ZERO;
                }
                if s >= rbeta {
                    return s;
                }
            }
        }

        // 8. Extension: a forced move costs no depth.
        if moves.len() == 1 && p.single_reply_extension {
            depth += 1;
        }

        self.search_moves(Node { depth, ..node }, alpha, beta)
    }

    /// 9-11. The move loop: ordering, late-move reductions, PVS, and the table store.
    fn search_moves(&mut self, node: Node<'_>, mut alpha: Score, beta: Score) -> Score {
        let Node {
            pos,
            counts,
            moves,
            hash_index,
            key,
            depth,
            ply,
        } = node;
        let p = self.shared.params;
        let pv_node = beta.0 - alpha.0 > 1;
        let alpha_orig = alpha;
        let hash_index = hash_index.filter(|&i| (i as usize) < moves.len());
        let mut order = Ordered::new();
        self.heur
            .score_moves(pos, moves, hash_index, ply, &mut order);
        let mut best = -Score::INFINITE;
        let mut best_index: Option<usize> = None;
        let crowning = crate::core::Position::crowning_row(pos.side());
        // Multi-PV: a root search for a further line passes over the moves of earlier lines
        // (the first searched move then gets the full window, as the first move does).
        let excluding = ply == 0 && !self.excluded.is_empty();
        // Moves searched so far (all the moves before this one, unless some were passed over).
        let mut searched = 0;

        self.keys.push(pos.key());
        for i in 0..order.len() {
            pick_next(&mut order, i);
            let idx = order[i].0 as usize;
            let mv = moves[idx];
            if excluding && self.excluded.contains(&mv) {
                continue;
            }
            let next = depth - 1;
            let n = searched;
            searched += 1;
            let crowns = crowning.contains(mv.to) && !pos.kings().contains(mv.from);
            let quiet = !mv.is_capture() && !crowns && !self.heur.is_killer(ply, &mv);
            let child = pos.play(&mv);
            let child_counts = counts.after(pos, &mv, &child);
            self.shared.tt.prefetch(tt_key(&child, child_counts));

            // 9. Late-move reductions for quiet moves that are neither killers nor crownings.
            let mut r = 0;
            if quiet && depth >= p.lmr_min_depth && n >= p.lmr_min_moves {
                r = self.shared.reductions.get(depth, n);
                if pv_node {
                    r -= p.lmr_pv_less;
                }
                // The reduced search keeps at least one full-width ply; at depth 1 nothing
                // can be reduced.
                r = r.min(depth - 2).max(0);
            }

            // 10. Principal variation search.
            let mut score;
            if n == 0 {
                score = -self.search(&child, child_counts, -beta, -alpha, next, ply + 1);
            } else {
                score = -self.search(&child, child_counts, -alpha - 1, -alpha, next - r, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search(&child, child_counts, -alpha - 1, -alpha, next, ply + 1);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(&child, child_counts, -beta, -alpha, next, ply + 1);
                }
            }
            if self.stopped {
                self.keys.pop();
                return Score::ZERO;
            }

            if score > best {
                best = score;
                best_index = Some(idx);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        let tried = order[..i].iter().map(|&(j, _)| moves[j as usize]);
                        self.heur.on_cutoff(pos.side(), ply, depth, &mv, tried);
                        break;
                    }
                }
            }
        }
        self.keys.pop();

        // 11. Store the result (not in a search for a further multi-PV line, see `iterate`).
        if !self.excluded.is_empty() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best.to_tt(ply as i32),
            depth,
            bound,
            best_index.map(|i| i as u8),
        );
        best
    }

    /// The static evaluation of a quiet leaf: `eval::evaluate`, as `eval::choose` decides,
    /// with the network's positions scored through this thread's accumulator cache (the same
    /// number, found faster).
    #[inline]
    fn leaf_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        match eval::choose(pos, self.shared.weights) {
            Choice::Network(net) => self.nnue.evaluate(net, pos, ply),
            Choice::Hand => eval::hand(pos, self.shared.weights),
        }
    }

    /// Quiescence: captures are forced, so while the side to move can capture every capture
    /// is searched (no standing pat); otherwise the position is quiet and is evaluated.
    fn qsearch(&mut self, pos: &Position, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.visit();
        self.pv[ply].clear();
        if self.stopped {
            return Score::ZERO;
        }
        let mut captures = MoveList::new();
        movegen::generate_captures(pos, &mut captures);
        if captures.is_empty() || ply >= MAX_PLY {
            if captures.is_empty() && !movegen::has_quiet_move(pos) {
                return Score::loss_in(ply as i32);
            }
            self.leaves += 1;
            self.leaf_plies += ply as u64;
            return Score(self.leaf_eval(pos, ply));
        }
        // Filled in place: collecting into an `Ordered` returned it by value, a copy of its
        // whole 2 KB buffer at every capture node (4% of `bench` in `memmove`).
        let mut order = Ordered::new();
        for (i, m) in captures.iter().enumerate() {
            order.push((i as u8, m.captured.count() as i32));
        }
        let mut best = -Score::INFINITE;
        for i in 0..order.len() {
            pick_next(&mut order, i);
            let mv = captures[order[i].0 as usize];
            let score = -self.qsearch(&pos.play(&mv), -beta, -alpha, ply + 1);
            if self.stopped {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    /// The table is the formula, grows with depth and move number, never reduces the first
    /// move or depth 0, and clamps beyond its last row and column.
    #[test]
    fn reductions_follow_the_formula() {
        let p = SearchParams::default();
        let r = Reductions::new(&p);
        for d in 0..LMR_TABLE as i32 {
            assert_eq!(r.get(d, 0), 0);
            for m in 1..LMR_TABLE {
                let want = if d == 0 {
                    0
                } else {
                    (p.lmr_base + (d as f64).ln() * (m as f64).ln() / p.lmr_divisor) as i32
                };
                assert_eq!(r.get(d, m), want, "depth {d} move {m}");
                assert!(r.get(d, m) >= r.get(d, m - 1));
                if d > 0 {
                    assert!(r.get(d, m) >= r.get(d - 1, m));
                }
            }
        }
        assert_eq!(r.get(500, 900), r.get(63, 63));
    }

    #[test]
    fn table_keys_separate_counts_that_can_matter() {
        let pos = parse_fen("W:WK1,K2,K3:BK18").unwrap();
        let key = |quiet, lone| {
            tt_key(
                &pos,
                DrawCounts {
                    quiet_king_plies: quiet,
                    lone_king_moves: lone,
                },
            )
        };
        // Every lone-king count has its own key.
        let lone: Vec<u64> = (0..=LONE_KING_MOVES as u8)
            .map(|n| key(0, Some(n)))
            .collect();
        for i in 0..lone.len() {
            for j in i + 1..lone.len() {
                assert_ne!(lone[i], lone[j], "lone counts {i} and {j}");
            }
        }
        assert_ne!(key(0, Some(0)), key(0, None));
        // Low 40-move counts cannot reach 80 within one search: they share a key...
        assert_eq!(key(0, None), key(QUIET_COUNT_EXACT_FROM - 1, None));
        // ...and from the threshold on, each count has its own.
        let high: Vec<u64> = (QUIET_COUNT_EXACT_FROM..=FORTY_MOVE_PLIES as u16)
            .map(|c| key(c, None))
            .collect();
        for i in 0..high.len() {
            assert_ne!(high[i], key(0, None));
            for j in i + 1..high.len() {
                assert_ne!(high[i], high[j]);
            }
        }
        assert_eq!(
            QUIET_COUNT_EXACT_FROM as usize + MAX_SEARCH_PLY,
            FORTY_MOVE_PLIES as usize
        );
    }
}
