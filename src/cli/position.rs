//! The rules commands: `perft`, `moves` and `show`.

use super::args::{FenArg, PositionArgs};
use super::CliError;
use crate::perft;
use poolshark_engine::core::{movegen, notation};
use std::time::Instant;

/// The options of `poolshark perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    #[command(flatten)]
    fen: FenArg,
    /// Deepest depth to count; every depth from 1 is printed (depth 0 counts the position).
    #[arg(long)]
    depth: u32,
    /// First print the count under each root move at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// Threads to count with.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
}

impl PerftArgs {
    /// Prints `depth=<d> nodes=<n> time=<seconds> mnps=<M/s>` per depth, after the root
    /// moves' counts with `--divide`.
    pub fn run(self) -> Result<(), CliError> {
        let pos = self.fen.position()?;
        let threads = self.threads as usize;
        poolshark_engine::core::attacks::init();
        if self.divide && self.depth > 0 {
            for (mv, n) in perft::divide(&pos, self.depth, threads) {
                outln!("{} {}", mv.hub(), n);
            }
        }
        // Depth 0 is counted too when asked for alone (one node, the position itself); a
        // deeper count starts its lines at depth 1, as scripts expect.
        for d in self.depth.min(1)..=self.depth {
            let t = Instant::now();
            let nodes = perft::perft_parallel(&pos, d, threads);
            let secs = t.elapsed().as_secs_f64();
            let mnps = if secs > 0.0 {
                nodes as f64 / secs / 1e6
            } else {
                0.0
            };
            outln!("depth={d} nodes={nodes} time={secs:.3} mnps={mnps:.1}");
        }
        Ok(())
    }
}

/// The options of `poolshark moves`.
#[derive(clap::Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
}

impl MovesArgs {
    /// Prints each legal move a line: Hub notation, then PDN.
    pub fn run(self) -> Result<(), CliError> {
        let game = self.position.game()?;
        let pos = game.position();
        for mv in movegen::legal_moves(pos).iter() {
            outln!("{} {}", mv.hub(), notation::pdn_move(pos, mv));
        }
        Ok(())
    }
}

/// The options of `poolshark show`.
#[derive(clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
}

impl ShowArgs {
    /// Prints the diagram, and with `--moves` the game's result.
    pub fn run(self) -> Result<(), CliError> {
        let game = self.position.game()?;
        out!("{}", notation::diagram(game.position()));
        if self.position.moves.is_some() {
            outln!("Result: {}", game.result());
        }
        Ok(())
    }
}
