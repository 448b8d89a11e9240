//! `bench`: a fixed, varied set of positions searched to a fixed depth, from the opening to
//! king endings. With one thread the node count is the same every run; it changes only when
//! the search or evaluation changes, so commits quote it as `Bench: <nodes>`.

use crate::core::notation::parse_fen;
use crate::core::Game;
use crate::search::tt::TableError;
use crate::search::{Engine, Limits, Outcome, SearchControl, ThreadStats};
use crate::time_source::Instant;
use std::time::Duration;

/// The positions: openings, middlegames, endings with men and kings, king endings.
pub const POSITIONS: &[&str] = &[
    "B:W21-32:B1-12",
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
    "B:W17,18,21,24,25,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10",
    "B:W9,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12",
    "B:W13,22,24,27,28,29,30,31:B1,2,4,6,8,9,11,16",
    "B:W18,24,25,28,29,31,32:B1,2,3,5,6,10,12,13,21",
    "B:W12,21,22,23,24,27,28,29,30,31:B3,4,5,7,10,11,14",
    "B:W5,7,12,13,18,26,29,30:B3,6,10,16,20,23,25,28",
    "B:W8,10,11,12,15,19,25,28,29:B3,6,17,24,K31,K32",
    "B:WK1,8,15,16,20,25,27,29,31:B3,4,5,6,12,13,K30",
    "B:WK8,9,13,17,20,K23,24,27,30:B3,11,12,14,15",
    "B:W20,22,24,28,30:B5,6,7,11,21",
    "B:W9,22,26,28,32:B8,19",
    "B:WK7,21:B4,5,9,16,18,K28",
    "B:WK1,K2,K8,K13,20,29,30:B15,K19,24,28,K31",
    "B:WK4,K7,14,K16,17,K21,29:B1,K11,K18",
    "W:WK13,K17,K28:BK18",
    "B:WK1,K24,K32:BK17",
];

/// The default depth of `poolshark bench`.
pub const DEFAULT_DEPTH: u32 = 11;

/// The node count `poolshark bench` prints with its defaults (one thread, the built-in
/// evaluation, no endgame tables): the search's signature. A test runs the bench and
/// compares, so a change of behaviour cannot land unnoticed; a commit that changes it on
/// purpose updates this number and quotes it as `Bench: <nodes>`.
pub const SIGNATURE: u64 = 2_847_932;

pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
    /// Each thread's counts over all the positions (`depths`: every iteration it finished,
    /// position after position).
    pub threads: Vec<ThreadStats>,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Search every bench position to `depth` with a fresh table each, and add up the nodes.
/// `on_position` sees each position's index, FEN and search outcome as it finishes. An error
/// if the table of `hash_mb` cannot be had.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    weights: &crate::eval::Weights,
    on_position: &mut dyn FnMut(usize, &str, &Outcome),
) -> Result<BenchResult, TableError> {
    let params = crate::search::params::SearchParams::default();
    run_with_egdb(depth, threads, hash_mb, weights, &params, None, on_position)
}

/// `run` with these search parameters, the search probing endgame tables when given.
pub fn run_with_egdb(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    weights: &crate::eval::Weights,
    params: &crate::search::params::SearchParams,
    egdb: Option<std::sync::Arc<crate::egdb::Egdb>>,
    on_position: &mut dyn FnMut(usize, &str, &Outcome),
) -> Result<BenchResult, TableError> {
    let mut engine = Engine::try_new(hash_mb, threads)?;
    engine.weights = weights.clone();
    engine.params = params.clone();
    engine.egdb = egdb;
    let limits = Limits {
        depth: Some(depth),
        analyze: true,
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut threads: Vec<ThreadStats> = Vec::new();
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        engine.clear();
        let game = Game::new(parse_fen(fen).expect("bench positions are valid"));
        let control = SearchControl::new();
        let out = engine.search(&game, &limits, &control, &mut |_| {});
        nodes += out.nodes;
        if threads.len() < out.threads.len() {
            threads.resize(out.threads.len(), ThreadStats::default());
        }
        for (sum, t) in threads.iter_mut().zip(&out.threads) {
            sum.nodes += t.nodes;
            sum.depths.extend_from_slice(&t.depths);
            sum.tt_probes += t.tt_probes;
            sum.tt_hits += t.tt_hits;
            sum.egdb_probes += t.egdb_probes;
        }
        on_position(i, fen, &out);
    }
    Ok(BenchResult {
        nodes,
        time: start.elapsed(),
        threads,
    })
}

/// Random positions `eval_speed` times the evaluation on: from random games, openings to
/// endings.
pub const EVAL_POSITIONS: usize = 100_000;

/// What `eval_speed` measures, in nanoseconds per call.
pub struct EvalSpeed {
    /// `eval::evaluate` under the weights given (for a network: from scratch).
    pub eval: f64,
    /// With a network: `Network::evaluate` from scratch, and `nnue::Cache::evaluate` along
    /// the positions of random games in order (each at its ply in the game, every eighth
    /// one back at a shallower ply, as a search's leaves come).
    pub network: Option<(f64, f64)>,
}

/// The evaluation's speed (see `EvalSpeed`): the best of three passes over
/// `EVAL_POSITIONS` positions of random games.
pub fn eval_speed(weights: &crate::eval::Weights) -> EvalSpeed {
    use crate::core::Position;
    use std::hint::black_box;
    let positions: Vec<Position> = crate::core::random_games::RandomPositions::new(1, usize::MAX)
        .take(EVAL_POSITIONS)
        .collect();
    let time = |f: &mut dyn FnMut(&Position) -> i32| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let mut sum = 0i64;
                for p in &positions {
                    sum += f(black_box(p)) as i64;
                }
                black_box(sum);
                t.elapsed().as_secs_f64() * 1e9 / positions.len() as f64
            })
            .fold(f64::MAX, f64::min)
    };
    let eval = time(&mut |p| crate::eval::evaluate(p, weights));
    let network = weights.network().map(|net| {
        let scratch = time(&mut |p| net.evaluate(p));
        let mut cache = crate::eval::nnue::Cache::new(crate::search::params::PLY_SLOTS, Some(net));
        let (mut ply, mut n) = (0usize, 0usize);
        let start = Position::start();
        let cached = time(&mut |p| {
            n += 1;
            ply = if *p == start {
                0
            } else if n % 8 == 0 {
                ply.saturating_sub(3)
            } else {
                ply + 1
            };
            cache.evaluate(net, p, ply)
        });
        (scratch, cached)
    });
    EvalSpeed { eval, network }
}
