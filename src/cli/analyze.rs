//! The search commands: `analyze` (one position) and `bench` (the fixed bench set).

use super::args::{parse_seconds, EgdbArg, EngineArgs, PositionArgs};
use super::CliError;
use crate::search::{Limits, SearchControl};
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
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
}

impl AnalyzeArgs {
    /// Prints an `info` line per finished iteration, then the `bestmove` line.
    pub fn run(self) -> Result<(), CliError> {
        let weights = self.engine.weights.load()?;
        let game = self.position.game()?;
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.movetime.map(Duration::from_secs_f64),
            analyze: true,
            ..Limits::default()
        };
        if self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none() {
            limits.move_time = Some(DEFAULT_MOVE_TIME);
        }
        let mut engine = self.engine.search.engine()?;
        engine.weights = weights;
        engine.egdb = self.egdb.open(true)?;
        let control = SearchControl::new();
        let out = engine.search(&game, &limits, &control, &mut |info| {
            outln!("info {}", crate::hub::output::info_fields(info))
        });
        let pv: Vec<String> = out.pv.iter().map(|m| m.hub()).collect();
        match out.best {
            Some(mv) => {
                outln!(
                    "bestmove {} score {} depth {} nodes {} pv {}",
                    mv.hub(),
                    out.score.hub(),
                    out.depth,
                    out.nodes,
                    pv.join(" ")
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
    #[arg(long, default_value_t = crate::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
    /// Time the static evaluation instead (with --weights, that file's): prints `eval-ns <ns
    /// per call> patterns-ns <the built-in patterns'> gather-ns <ns per pattern window
    /// gather> gather-shifts-ns <the same without BMI2>` over random positions, and with a
    /// network file `nnue-scratch-ns <from scratch> nnue-cache-ns <through the cache>`.
    #[arg(long)]
    eval: bool,
}

impl BenchArgs {
    /// Prints progress per position on stderr, then `nodes <n> nps <n>`.
    pub fn run(self) -> Result<(), CliError> {
        let weights = self.engine.weights.load()?;
        if self.eval {
            let s = crate::bench::eval_speed(&weights);
            let mut line = format!(
                "eval-ns {:.1} patterns-ns {:.1} gather-ns {:.1} gather-shifts-ns {:.1}",
                s.eval, s.patterns, s.gather, s.shifts
            );
            if let Some((scratch, cached)) = s.network {
                line += &format!(" nnue-scratch-ns {scratch:.1} nnue-cache-ns {cached:.1}");
            }
            outln!("{line}");
            return Ok(());
        }
        let n = crate::bench::POSITIONS.len();
        let search = &self.engine.search;
        let r = crate::bench::run_with_egdb(
            self.depth,
            search.threads as usize,
            search.hash as usize,
            &weights,
            self.egdb.open(false)?,
            &mut |i, fen, nodes| {
                errln!("position {}/{n} nodes {nodes} fen {fen}", i + 1);
            },
        )
        .map_err(|e| search.table_error(e))?;
        outln!("nodes {} nps {}", r.nodes, r.nps());
        Ok(())
    }
}
