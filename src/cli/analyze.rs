//! The search commands: `analyze` (one position) and `bench` (the fixed bench set).

use super::args::{parse_seconds, EgdbArg, EngineArgs, PositionArgs};
use super::{input, CliError};
use poolshark_engine::core::rng::SplitMix64;
use poolshark_engine::search::level::{self, PlayLevel};
use poolshark_engine::search::{Limits, SearchControl};
use std::time::Duration;

/// How long `analyze` thinks when no limit is given.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The options of `poolshark analyze`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime"])))]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search this many seconds.
    #[arg(long, value_parser = parse_seconds)]
    movetime: Option<f64>,
    /// Search the N best moves, each with its own score and line: each `info` line then
    /// carries `multipv=K` after the depth, and `line K move M score S pv ...` lines come
    /// before `bestmove` (more than the legal moves: all of them). 1 is the usual search.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    multipv: u32,
    /// Play at level N (1 weakest to 10): search as that level does (its node limit and its
    /// lines, with --depth, --nodes or --movetime as further limits) and print its pick as
    /// `bestmove`, after the `line` lines it chose among. Without it, full strength.
    #[arg(long, value_name = "N", value_parser = PlayLevel::parse, conflicts_with = "multipv")]
    level: Option<PlayLevel>,
    /// With --level: the seed of its random choice (the same seed, the same pick, on one
    /// thread: a search on several ends differently from run to run, and so may the pick,
    /// so --seed with --threads above 1 is refused). Without it, a seed from the clock.
    #[arg(long, requires = "level")]
    seed: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
}

impl AnalyzeArgs {
    /// Prints an `info` line per finished iteration (per line with `--multipv`), then the
    /// `line` lines with `--multipv` and the `bestmove` line.
    pub fn run(self) -> Result<(), CliError> {
        let threads = self.engine.search.threads;
        if self.seed.is_some() && threads > 1 {
            return Err(input(format!(
                "--seed repeats a level's pick only on one thread: a search on {threads} threads \
                 ends differently from run to run, and so may the pick; give --threads 1, or \
                 leave --seed out"
            )));
        }
        let weights = self.engine.weights.load()?;
        let game = self.position.game()?;
        // A game the rules ended (a win, or a draw by R17-R19 with moves left) has nothing to
        // analyze: say so and why, and print the `bestmove none` line (status 0).
        let result = game.result();
        if result != poolshark_engine::core::game::GameResult::Ongoing {
            use poolshark_engine::search::score::Score;
            let score = match result {
                poolshark_engine::core::game::GameResult::Win(_) => Score::loss_in(0),
                _ => Score::DRAW,
            };
            errln!("the game is over: {result}; nothing to analyze");
            outln!("bestmove none score {} depth 0 nodes 0 pv", score.hub());
            return Ok(());
        }
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.movetime.map(Duration::from_secs_f64),
            analyze: true,
            multipv: self.multipv as usize,
            ..Limits::default()
        };
        let legal = poolshark_engine::core::movegen::legal_moves(game.position()).len();
        if self.multipv as usize > legal && legal > 0 {
            errln!(
                "--multipv {}: only {legal} legal move{}, searching {}",
                self.multipv,
                if legal == 1 { "" } else { "s" },
                if legal == 1 { "it" } else { "all of them" }
            );
        }
        if self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.level.is_none()
        {
            limits.move_time = Some(DEFAULT_MOVE_TIME);
        }
        if let Some(l) = self.level {
            limits = l.limits(&limits);
        }
        let mut engine = self.engine.search.engine()?;
        engine.weights = weights;
        engine.egdb = self.egdb.open(true)?;
        let control = SearchControl::new();
        let mut on_info = |info: &poolshark_engine::search::Info| {
            outln!("info {}", crate::hub::output::info_fields(info))
        };
        let out = match self.level {
            Some(l) => {
                let mut rng =
                    SplitMix64::new(self.seed.unwrap_or_else(poolshark_host::seeds::fresh));
                level::search(&engine, &game, l, &limits, &control, &mut rng, &mut on_info)
            }
            None => engine.search(&game, &limits, &control, &mut on_info),
        };
        let hub_line = |pv: &[poolshark_engine::core::Move]| -> String {
            pv.iter().map(|m| m.hub()).collect::<Vec<_>>().join(" ")
        };
        if limits.is_multipv() {
            for (k, line) in out.lines.iter().enumerate() {
                if let Some(mv) = line.pv.first() {
                    outln!(
                        "line {} move {} score {} pv {}",
                        k + 1,
                        mv.hub(),
                        line.score.hub(),
                        hub_line(&line.pv)
                    );
                }
            }
        }
        match out.best {
            Some(mv) => {
                outln!(
                    "bestmove {} score {} depth {} nodes {} pv {}",
                    mv.hub(),
                    out.score.hub(),
                    out.depth,
                    out.nodes,
                    hub_line(&out.pv)
                );
            }
            None => {
                errln!("no legal move: {}", game.result());
                outln!("bestmove none score {} depth 0 nodes 0 pv", out.score.hub());
            }
        }
        Ok(())
    }
}

/// The options of `poolshark bench` (its `--hash` defaults to 16: see `Command::Bench`).
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth for every position.
    #[arg(long, default_value_t = poolshark_engine::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
    /// Time the static evaluation instead (with --weights, that file's): prints `eval-ns <ns
    /// per call>` over random positions, and with a network (the built-in one or a file)
    /// `nnue-scratch-ns <from scratch> nnue-cache-ns <through the cache>`.
    #[arg(long)]
    eval: bool,
}

impl BenchArgs {
    /// Prints progress per position on stderr (with several threads, a line per thread: its
    /// nodes, the iterations it finished, its table hit rate), then `nodes <n> nps <n>`.
    pub fn run(self) -> Result<(), CliError> {
        let weights = self.engine.weights.load()?;
        if self.eval {
            let s = poolshark_engine::bench::eval_speed(&weights);
            let mut line = format!("eval-ns {:.1}", s.eval);
            if let Some((scratch, cached)) = s.network {
                line += &format!(" nnue-scratch-ns {scratch:.1} nnue-cache-ns {cached:.1}");
            }
            outln!("{line}");
            return Ok(());
        }
        let n = poolshark_engine::bench::POSITIONS.len();
        let search = &self.engine.search;
        let r = poolshark_engine::bench::run_with_egdb(
            self.depth,
            search.threads as usize,
            search.hash as usize,
            &weights,
            &search.params(),
            self.egdb.open(false)?,
            &mut |i, fen, out| {
                errln!("position {}/{n} nodes {} fen {fen}", i + 1, out.nodes);
                if out.threads.len() > 1 {
                    for (id, t) in out.threads.iter().enumerate() {
                        errln!("  {}", thread_line(id, t, out.nodes));
                    }
                }
            },
        )
        .map_err(|e| search.table_error(e))?;
        if r.threads.len() > 1 {
            for (id, t) in r.threads.iter().enumerate() {
                errln!("all positions {}", thread_line(id, t, r.nodes));
            }
        }
        outln!("nodes {} nps {}", r.nodes, r.nps());
        Ok(())
    }
}

/// One thread's counts on a `bench --threads` line: its nodes and share of all, the
/// iterations it finished, its transposition-table hit rate and its endgame-table probes.
fn thread_line(id: usize, t: &poolshark_engine::search::ThreadStats, all_nodes: u64) -> String {
    let pct = |a: u64, b: u64| {
        if b > 0 {
            100.0 * a as f64 / b as f64
        } else {
            0.0
        }
    };
    let depths: Vec<String> = t.depths.iter().map(u32::to_string).collect();
    format!(
        "thread {id} nodes {} ({:.1}%) tt-hits {:.1}% of {} probes egdb-probes {} depths {}",
        t.nodes,
        pct(t.nodes, all_nodes),
        pct(t.tt_hits, t.tt_probes),
        t.tt_probes,
        t.egdb_probes,
        depths.join(",")
    )
}
