//! The command line: clap subcommands that call the library.

use clap::{Parser, Subcommand};
use poolshark::core::notation;
use poolshark::core::{movegen, Position};
use poolshark::perft;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "poolshark",
    version,
    about = "An engine for American Pool Checkers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal-move tree, depth by depth (a move generator check).
    Perft {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// Deepest depth to count; every depth from 1 is printed.
        #[arg(long)]
        depth: u32,
        /// First print the count under each root move at the deepest depth.
        #[arg(long)]
        divide: bool,
        /// Threads to count with.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
    },
    /// List the legal moves: Hub notation, then PDN notation.
    Moves {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
    },
    /// Draw the board with square numbers, the side to move and the FEN.
    Show {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
    },
}

fn read_fen(text: &str) -> Result<Position, ExitCode> {
    notation::parse_fen(text).map_err(|e| {
        eprintln!("error: bad FEN '{text}': {e}");
        ExitCode::from(2)
    })
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft {
            fen,
            depth,
            divide,
            threads,
        } => run_perft(&fen, depth, divide, threads as usize),
        Command::Moves { fen } => read_fen(&fen).map(|pos| {
            for mv in movegen::legal_moves(&pos).iter() {
                println!("{} {}", mv.hub(), notation::pdn_move(&pos, mv));
            }
        }),
        Command::Show { fen } => read_fen(&fen).map(|pos| print!("{}", notation::diagram(&pos))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

fn run_perft(fen: &str, depth: u32, divide: bool, threads: usize) -> Result<(), ExitCode> {
    let pos = read_fen(fen)?;
    poolshark::core::attacks::init();
    if divide && depth > 0 {
        for (mv, n) in perft::divide(&pos, depth, threads) {
            println!("{} {}", mv.hub(), n);
        }
    }
    for d in 1..=depth {
        let t = Instant::now();
        let nodes = perft::perft_parallel(&pos, d, threads);
        let secs = t.elapsed().as_secs_f64();
        let mnps = if secs > 0.0 {
            nodes as f64 / secs / 1e6
        } else {
            0.0
        };
        println!("depth={d} nodes={nodes} time={secs:.3} mnps={mnps:.1}");
    }
    Ok(())
}
