//! The command line: clap subcommands that call the library.

use clap::{Parser, Subcommand};
use poolshark::core::notation;
use poolshark::core::Game;
use poolshark::core::{movegen, Position};
use poolshark::perft;
use poolshark::search::{Engine, Limits, SearchControl};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "poolshark",
    version,
    about = "An engine for American Pool Checkers"
)]
struct Cli {
    /// Without a subcommand, poolshark speaks the Hub protocol (as `poolshark hub`).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Hub protocol on stdin/stdout (the default). Parameters: variant (pool),
    /// threads, tt-size (log2 of table entries), ponder, and book, book-ply, book-margin,
    /// which are declared now and take effect once the opening book exists. Logs go to
    /// stderr; set RUST_LOG=debug to see them.
    Hub,
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
        /// Moves played from the FEN first (Hub or PDN notation, space separated).
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Draw the board with square numbers, the side to move and the FEN; with --moves, also
    /// the game's result (`Result: ...`), draws by repetition and move counts included.
    Show {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// Moves played from the FEN first (Hub or PDN notation, space separated).
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Search a position and print the best move, with progress lines as the search deepens.
    /// Without a limit it thinks for 5 seconds.
    #[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime"])))]
    Analyze {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// Moves played from the FEN first (Hub or PDN notation, space separated). They count
        /// toward repetition and the 40- and 13-move rules.
        #[arg(long, default_value = "")]
        moves: String,
        /// Search to this depth (plies).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Search this many nodes.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Search this many seconds.
        #[arg(long, value_parser = parse_seconds)]
        movetime: Option<f64>,
        /// Search threads (Lazy SMP).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Transposition table size in MiB (rounded down to a power of two entries).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
        hash: u32,
    },
    /// Search a fixed set of positions to a fixed depth; the last line is `nodes <n> nps <n>`.
    /// With one thread the node count is the same every run.
    Bench {
        /// Depth for every position.
        #[arg(long, default_value_t = poolshark::bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=16384))]
        hash: u32,
    },
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds between 0 and 1000000"
        )),
    }
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
    let Some(command) = cli.command else {
        std::process::exit(poolshark::hub::run());
    };
    let result = match command {
        Command::Hub => std::process::exit(poolshark::hub::run()),
        Command::Perft {
            fen,
            depth,
            divide,
            threads,
        } => run_perft(&fen, depth, divide, threads as usize),
        Command::Moves { fen, moves } => read_game(&fen, &moves).map(|game| {
            let pos = game.position();
            for mv in movegen::legal_moves(pos).iter() {
                println!("{} {}", mv.hub(), notation::pdn_move(pos, mv));
            }
        }),
        Command::Show { fen, moves } => read_game(&fen, &moves).map(|game| {
            print!("{}", notation::diagram(game.position()));
            if !moves.trim().is_empty() {
                println!("Result: {}", game.result());
            }
        }),
        Command::Analyze {
            fen,
            moves,
            depth,
            nodes,
            movetime,
            threads,
            hash,
        } => run_analyze(
            &fen,
            &moves,
            depth,
            nodes,
            movetime,
            threads as usize,
            hash as usize,
        ),
        Command::Bench {
            depth,
            threads,
            hash,
        } => {
            let n = poolshark::bench::POSITIONS.len();
            let r = poolshark::bench::run(
                depth,
                threads as usize,
                hash as usize,
                &mut |i, fen, nodes| {
                    eprintln!("position {}/{n} nodes {nodes} fen {fen}", i + 1);
                },
            );
            println!("nodes {} nps {}", r.nodes, r.nps());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// The game after playing `moves` from the FEN.
fn read_game(fen: &str, moves: &str) -> Result<Game, ExitCode> {
    let mut game = Game::new(read_fen(fen)?);
    for text in moves.split_whitespace() {
        if let Err(e) = game.play_text(text) {
            eprintln!(
                "error: move '{text}' after {} moves: {e}",
                game.moves().len()
            );
            return Err(ExitCode::from(2));
        }
    }
    Ok(game)
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

fn run_analyze(
    fen: &str,
    moves: &str,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    threads: usize,
    hash_mb: usize,
) -> Result<(), ExitCode> {
    let game = read_game(fen, moves)?;
    let mut limits = Limits {
        depth,
        nodes,
        analyze: true,
        ..Limits::default()
    };
    limits.move_time = movetime.map(Duration::from_secs_f64);
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        limits.move_time = Some(Duration::from_secs(5));
    }
    let engine = Engine::new(hash_mb, threads);
    let control = SearchControl::new();
    let out = engine.search(&game, &limits, &control, &mut |info| {
        println!("info {}", info.hub_fields())
    });
    let pv: Vec<String> = out.pv.iter().map(|m| m.hub()).collect();
    match out.best {
        Some(mv) => {
            println!(
                "bestmove {} score {} depth {} nodes {} pv {}",
                mv.hub(),
                out.score.hub(),
                out.depth,
                out.nodes,
                pv.join(" ")
            );
        }
        None => {
            eprintln!("no legal move: {}", game.result());
            println!("bestmove none score {} depth 0 nodes 0 pv", out.score.hub());
        }
    }
    Ok(())
}
