//! The search: iterative deepening with aspiration windows and principal variation search,
//! a shared lock-free transposition table and Lazy SMP threads, with the draw rules
//! (repetition, R18, R19) applied inside the tree.
//!
//! `Engine::search` is the one entry point. It takes the game (position plus history, for
//! repetitions and the draw counts), the limits and a `SearchControl` (stop and ponder-hit
//! from another thread), reports each finished iteration through a callback, and returns an
//! `Outcome`. The search never prints.
//!
//! Multi-PV (`Limits::multipv`): the main thread searches the root once per line, each time
//! without the moves of the lines already found in that iteration, so that every line has its
//! own score and principal variation; helper threads search the one best line as usual. The
//! further lines leave no trace in the table or the move-ordering heuristics, so with one
//! thread line 1 is exactly what the single-line search finds at each depth.

pub mod egdb;
pub mod level;
pub mod ordering;
pub mod params;
pub mod score;
pub mod time;
pub mod tt;
mod worker;

use crate::core::{Game, Move};
use crate::eval::Weights;
use crate::time_source::Instant;
use params::SearchParams;
pub use score::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tt::{TableError, TranspositionTable};
pub use worker::{tt_key, ThreadStats};
use worker::{Shared, ThreadResult, Worker};

/// What bounds one search. Several limits may be set; the first reached ends the search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<Duration>,
    /// Time left on the engine's clock.
    pub time: Option<Duration>,
    /// Increment added before each move.
    pub inc: Duration,
    /// Moves to play before the clock is refilled, if the time control says.
    pub moves_to_go: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Analysis: search even a single legal move, and never stop early on a proved result.
    pub analyze: bool,
    /// Time to keep in hand on the clock for latency the search cannot see (pipes, waiting
    /// for a core); `None` is `time::OVERHEAD`.
    pub overhead: Option<Duration>,
    /// Lines to search: the best `multipv` root moves, each with its own score and line
    /// (capped at the number of legal moves). 0 and 1 both mean one line, the usual search.
    pub multipv: usize,
}

impl Limits {
    /// Whether the search is multi-PV (more than one line asked for, even if fewer moves are
    /// legal): then every `Info` names its line.
    pub fn is_multipv(&self) -> bool {
        self.multipv > 1
    }
}

/// Stop and ponder-hit requests from other threads, for one search.
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }
    /// Ask the running search to finish now; it returns its best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Mark the next (or current) search as a ponder search: no time limit until ponder-hit.
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::Relaxed);
    }
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: the ponder search becomes a normal one and
    /// its clock starts now.
    pub fn ponder_hit(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::Relaxed);
    }
    /// Restart the clock (at the start of a search). The stop flag is left alone: a stop
    /// sent by another thread just before the search got going must still end it. So a
    /// control serves one search; make a new one for the next.
    fn start(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
    fn clock_start(&self) -> Instant {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One finished iteration, for progress output.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    /// Mean ply of the leaves searched (the depth actually reached on average).
    pub mean_depth: f64,
    pub score: Score,
    /// Nodes of all threads.
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// In a multi-PV search, which line this is (1 is the best); `None` in the usual search.
    /// An iteration reports its lines in order, one `Info` each.
    pub multipv: Option<usize>,
}

impl Info {
    /// Millions of nodes per second.
    pub fn mnps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s / 1e6
        } else {
            0.0
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// None only when the side to move has no legal move (the game is lost).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// The lines of the last finished iteration, best first (one for the usual search; empty
    /// only without a legal move). The first is `score` and `pv`.
    pub lines: Vec<Line>,
    /// Each search thread's counts (empty when no thread searched: no legal move, or a
    /// database move at the root).
    pub threads: Vec<ThreadStats>,
}

/// One line of a multi-PV search: a root move's score and principal variation (which starts
/// with that move).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub score: Score,
    pub pv: Vec<Move>,
}

/// The most search threads an engine runs: four per core (at least 4, at most 256). Lazy
/// SMP gains nothing from more threads than cores, and past a few per core they only delay a
/// stop, since each must be scheduled to see it (256 threads on 2 cores took 2.7 s).
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (4 * cores).clamp(4, 256)
}

/// The engine: search settings, evaluation weights and the transposition table.
pub struct Engine {
    tt: TranspositionTable,
    threads: usize,
    pub params: SearchParams,
    pub weights: Weights,
    /// Endgame tables to probe (none: the search is as without them).
    pub egdb: Option<Arc<crate::egdb::Egdb>>,
}

impl Engine {
    /// An engine with a table of about `hash_mb` MiB (rounded down to a power of two
    /// entries) and `threads` search threads (capped at `max_threads`). Panics if the table
    /// cannot be had; front ends use `try_new`.
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine::try_new(hash_mb, threads).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `new`, or an error when the table is more than this machine allows (half its memory)
    /// or the allocator refuses it.
    pub fn try_new(hash_mb: usize, threads: usize) -> Result<Engine, TableError> {
        let tt = TranspositionTable::try_with_log2(TranspositionTable::log2_for_mb(hash_mb))?;
        let mut engine = Engine {
            tt,
            threads: 1,
            params: SearchParams::default(),
            weights: Weights::builtin(),
            egdb: None,
        };
        engine.set_threads(threads);
        Ok(engine)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Set the number of search threads, within 1 and `max_threads` (a larger number is
    /// capped, with a warning).
    pub fn set_threads(&mut self, threads: usize) {
        let max = max_threads();
        if threads > max {
            log::warn!("{threads} search threads asked for; using {max} (4 per core)");
        }
        self.threads = threads.clamp(1, max);
    }
    /// Resize the table to 2^`log2` entries (it is cleared). Panics if the memory cannot be
    /// had; front ends use `try_set_tt_log2`.
    pub fn set_tt_log2(&mut self, log2: u32) {
        if log2 != self.tt.log2_entries() {
            self.tt = TranspositionTable::with_log2(log2);
        }
    }
    /// Resize the table to 2^`log2` entries (it is cleared). If the memory cannot be had the
    /// old size stays (in the rare case it cannot be had back either, the smallest table):
    /// check `tt().log2_entries()`.
    pub fn try_set_tt_log2(&mut self, log2: u32) -> Result<(), TableError> {
        let old = self.tt.log2_entries();
        if log2 == old {
            return Ok(());
        }
        let err = match TranspositionTable::try_with_log2(log2) {
            Ok(tt) => {
                self.tt = tt;
                return Ok(());
            }
            Err(e @ TableError::TooLarge { .. }) => return Err(e),
            Err(e) => e,
        };
        log::debug!("{err}; freeing the old table and trying again");
        // Perhaps both tables do not fit at once: free the old one and try again.
        self.tt = TranspositionTable::with_log2(TranspositionTable::MIN_LOG2);
        match TranspositionTable::try_with_log2(log2) {
            Ok(tt) => {
                self.tt = tt;
                Ok(())
            }
            Err(e) => {
                if let Ok(tt) = TranspositionTable::try_with_log2(old) {
                    self.tt = tt;
                }
                Err(e)
            }
        }
    }
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.set_tt_log2(TranspositionTable::log2_for_mb(mb));
    }
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }
    /// Forget what earlier searches learnt (a new game). O(1): see `tt::TranspositionTable`.
    /// (The move-ordering histories and killers, and the network's accumulator caches, are
    /// made afresh for each search: nothing to forget.)
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Evaluate with `weights` from the next search on. The table is cleared when they
    /// differ from the weights in force: its scores are the old evaluation's, and a search
    /// that took them would mix the two.
    pub fn set_weights(&mut self, weights: Weights) {
        if weights != self.weights {
            self.weights = weights;
            self.clear();
        }
    }

    /// Search the current position of `game`. Progress goes to `on_info` after each
    /// iteration of the main thread.
    pub fn search(
        &self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        // The table's pages are faulted in on another thread since it was made; wait for
        // that before the clock starts, so this search never pays for it. A stop cuts the
        // wait short (the search then ends at once).
        let readiness = self.tt.readiness();
        while !readiness.wait_for(Duration::from_millis(10)) && !control.is_stopped() {}
        // Set-up that needs no clock comes before it starts: the attack tables (built once
        // per process) and the reduction table (once per search, shared by every thread).
        crate::core::attacks::init();
        let reductions = worker::Reductions::new(&self.params);
        // Each thread's accumulator cache for a network, sized and touched here; without a
        // network they stay empty.
        let net = self.weights.network();
        let mut caches: Vec<crate::eval::nnue::Cache> = (0..self.threads)
            .map(|_| crate::eval::nnue::Cache::new(params::PLY_SLOTS, net))
            .collect();
        self.tt.set_age_weight(self.params.tt_age_weight);
        control.start();
        self.tt.new_search();
        let root = *game.position();
        let root_moves = crate::core::movegen::legal_moves(&root);
        let start = Instant::now();
        if root_moves.is_empty() {
            return Outcome {
                best: None,
                ponder: None,
                score: Score::loss_in(0),
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: Vec::new(),
                lines: Vec::new(),
                threads: Vec::new(),
            };
        }
        // A database win at the root: play the move that converts it fastest, never into a
        // repetition (a search that must go on, analysis or pondering, searches with the
        // tables instead).
        let egdb = self.egdb.as_deref().filter(|db| db.max_pieces() > 0);
        if let Some(db) = egdb {
            let counts = game.counts();
            let searching = limits.analyze || limits.infinite || control.is_pondering();
            if !searching && root.occupied().count() <= db.max_pieces() {
                let history = game.repetition_keys();
                if let Some((mv, score)) = egdb::root_move(db, &root, counts, &history) {
                    let pv = egdb::extend_pv(db, &root, counts, &[mv]);
                    let info = Info {
                        depth: 1,
                        mean_depth: 1.0,
                        score,
                        nodes: 1,
                        time: start.elapsed(),
                        pv: pv.clone(),
                        multipv: limits.is_multipv().then_some(1),
                    };
                    on_info(&info);
                    return Outcome {
                        best: Some(mv),
                        ponder: pv.get(1).copied(),
                        score,
                        depth: 1,
                        nodes: 1,
                        time: start.elapsed(),
                        lines: vec![Line {
                            score,
                            pv: pv.clone(),
                        }],
                        pv,
                        threads: Vec::new(),
                    };
                }
            }
        }
        let mut max_depth = limits
            .depth
            .unwrap_or(self.params.max_depth)
            .clamp(1, self.params.max_depth);
        if root_moves.len() == 1 && !limits.analyze && !limits.infinite && !control.is_pondering() {
            max_depth = 1;
        }
        let multipv = limits.multipv.clamp(1, root_moves.len());
        let shared = Shared {
            tt: &self.tt,
            control,
            params: &self.params,
            weights: &self.weights,
            egdb,
            egdb_pieces: egdb.map_or(0, |db| db.max_pieces()),
            total_nodes: worker::Padded(AtomicU64::new(0)),
            budget: time::Budget::from_limits(limits, &self.params),
            node_limit: limits.nodes,
            max_depth,
            multipv,
            keep_going: limits.infinite,
            analyze: limits.analyze,
            reductions: &reductions,
            results: Mutex::new(vec![None; self.threads]),
            stats: Mutex::new(vec![ThreadStats::default(); self.threads]),
        };
        let history = game.repetition_keys();
        let counts = game.counts();
        // A principal variation into a position the tables decide goes on with their line.
        let full_pv = |pv: &[Move]| match egdb {
            Some(db) => egdb::extend_pv(db, &root, counts, pv),
            None => pv.to_vec(),
        };
        let mut main_result: Option<ThreadResult> = None;
        std::thread::scope(|scope| {
            let shared = &shared;
            let history = &history;
            let main_cache = caches.swap_remove(0);
            for (id, cache) in (1..self.threads).zip(caches) {
                let builder = std::thread::Builder::new().stack_size(8 << 20);
                let spawned = builder.spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, shared, root, counts, history, cache);
                    w.iterate(&mut |_| {});
                });
                if let Err(e) = spawned {
                    log::warn!("could not start search thread {id}: {e}");
                }
            }
            let mut w = Worker::new(0, shared, root, counts, history, main_cache);
            main_result = w.iterate(&mut |r: &ThreadResult| {
                let nodes = shared.total_nodes.load(Ordering::Relaxed);
                let time = start.elapsed();
                for (k, line) in r.lines.iter().enumerate() {
                    on_info(&Info {
                        depth: r.depth,
                        mean_depth: r.mean_depth,
                        score: line.score,
                        nodes,
                        time,
                        pv: full_pv(&line.pv),
                        multipv: limits.is_multipv().then_some(k + 1),
                    })
                }
            });
            control.stop();
        });
        let results = shared
            .results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        // With several lines, the answer is the main thread's, whose lines they are (the
        // helpers search only the best one).
        let best = if multipv > 1 {
            main_result
        } else {
            worker::pick_best(&results).or(main_result)
        };
        let nodes = shared.total_nodes.load(Ordering::Relaxed);
        let threads = shared.stats.into_inner().unwrap_or_else(|e| e.into_inner());
        match best {
            Some(r) => {
                let pv = full_pv(&r.pv);
                let lines = r
                    .lines
                    .iter()
                    .map(|l| Line {
                        score: l.score,
                        pv: full_pv(&l.pv),
                    })
                    .collect();
                Outcome {
                    best: pv.first().copied(),
                    ponder: pv.get(1).copied(),
                    score: r.score,
                    depth: r.depth,
                    nodes,
                    time: start.elapsed(),
                    pv,
                    lines,
                    threads,
                }
            }
            // Stopped before even depth 1 finished: any legal move beats none.
            None => Outcome {
                best: Some(root_moves[0]),
                ponder: None,
                score: Score::ZERO,
                depth: 0,
                nodes,
                time: start.elapsed(),
                pv: vec![root_moves[0]],
                lines: vec![Line {
                    score: Score::ZERO,
                    pv: vec![root_moves[0]],
                }],
                threads,
            },
        }
    }
}
