//! The command line: clap subcommands that call the library.

use clap::{Parser, Subcommand};
use poolshark::core::notation;
use poolshark::core::Game;
use poolshark::core::{movegen, Position};
use poolshark::eval::Weights;
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
    /// threads, tt-size (log2 of table entries), ponder, book, book-ply, book-margin, and
    /// eval-file (a weights file). The book is the built-in one, or the file in
    /// POOLSHARK_BOOK; POOLSHARK_BOOK_SEED fixes its random choices. Logs go to stderr; set
    /// RUST_LOG=debug to see them.
    Hub {
        /// Evaluation weights file (tuning/weights.txt format) instead of the built-in one.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
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
        #[arg(long)]
        moves: Option<String>,
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
        /// Evaluation weights file (tuning/weights.txt format) instead of the built-in one.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
    /// Play an engine-vs-engine match over the Hub protocol, refereed by poolshark's rules.
    /// Each opening is played twice with colours swapped. Prints a line per game and a summary
    /// with the Elo difference (95% interval from the game pairs), draw ratio, LOS, the
    /// pentanomial counts, each engine's time per move and the SPRT state. Before each game
    /// an engine has up to 60 s to answer `ping` after `new-game`; its clock starts after.
    Match(MatchArgs),
    /// Write self-play positions for evaluation tuning: `<FEN> ; <White's score>` per line.
    Selfplay {
        /// Games to play.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
        games: u32,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Output file.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Random plies after each opening, so games differ.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
        random_plies: u32,
        /// Seed for the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        concurrency: u16,
        /// Evaluation weights file (tuning/weights.txt format) instead of the built-in one.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
    /// Fit the evaluation weights to self-play results (Texel's method): fit the scaling
    /// constant K of sigmoid(K * eval) under the starting weights, then the weights by Adam on
    /// the mean squared error. Prints the loss on the data and on a held-out tenth after each
    /// epoch and writes the weights file. tuning/README.md gives the whole pipeline.
    Tune {
        /// `FEN ; White's score ; search score` lines, as `selfplay` writes them (the search
        /// score may be left out).
        #[arg(long)]
        data: std::path::PathBuf,
        /// Where to write the tuned weights.
        #[arg(long, default_value = "tuning/weights.txt")]
        out: std::path::PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        epochs: u32,
        /// Threads for the gradient (default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: Option<u16>,
        /// Starting weights (default: the built-in ones).
        #[arg(long)]
        start: Option<std::path::PathBuf>,
        /// Adam's step size (hundredths of a man) at the first epoch; it falls to a tenth.
        #[arg(long, default_value_t = 2.0)]
        learning_rate: f64,
        /// Fields kept at their starting values, comma separated (man and advance always
        /// are: they set the unit). E.g. `bridge,stuck_man` to measure what those add.
        #[arg(long, default_value = "")]
        fix: String,
        /// Pull toward the starting weights: l2 * (w - start)^2 added to the loss per weight.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Fit K again every this many epochs (0: keep the first fit).
        #[arg(long, default_value_t = 5)]
        refit_k: usize,
        /// Aim at LAMBDA * result + (1 - LAMBDA) * sigmoid(K * search score) where a line has
        /// a search score (1: the game results only). K is the one fitted to the results.
        #[arg(long, default_value_t = 1.0, value_parser = parse_unit_interval)]
        lambda: f64,
    },
    /// Tune the weights by playing games (SPSA): every pair perturbs all free weights by
    /// +-c at once, plays the + set against the - set from one opening with each colour,
    /// and moves the weights by the result. Reproducible: a run depends on its options, not
    /// on the threads. Writes the weights (also every 5% of the run, so a stopped run
    /// leaves its latest). tuning/README.md gives the pipeline.
    Spsa {
        /// Game pairs to play.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        pairs: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Starting weights (default: the built-in ones).
        #[arg(long)]
        start: Option<std::path::PathBuf>,
        /// Where to write the tuned weights.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        concurrency: u16,
        /// Pairs played against the same weights before updating them.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=4096))]
        batch: u16,
        /// Seed for the perturbations and the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies after each built-in opening.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
        random_plies: u32,
        /// Weights held besides man and lone_king_off_diagonal, comma separated.
        #[arg(long, default_value = "")]
        fix: String,
        /// a_end / c_end^2: the step at the end relative to the perturbation.
        #[arg(long, default_value_t = 0.002, value_parser = parse_unit_interval)]
        r_end: f64,
        /// The perturbation at the end, as a fraction of each starting value...
        #[arg(long, default_value_t = 0.1, value_parser = parse_unit_interval)]
        c_frac: f64,
        /// ...but at least this many hundredths of a man.
        #[arg(long, default_value_t = 4.0, value_parser = parse_seconds)]
        c_min: f64,
    },
    /// Print balanced openings, one FEN a line: every distinct position PLIES plies from the
    /// start scoring within MARGIN men at DEPTH (books/openings-3ply.txt is made this way).
    Openings {
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
        plies: u32,
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Largest score (men) kept, either side.
        #[arg(long, default_value_t = 0.5)]
        margin: f64,
    },
    /// The opening book: build one by searching, show a position's book moves, merge two.
    #[command(subcommand)]
    Book(BookCommand),
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
        /// Evaluation weights file (tuning/weights.txt format) instead of the built-in one.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Grow a book from the start position by dropout expansion: every move of a book
    /// position is searched, scores are minimaxed, and the cheapest line to deepen goes next.
    /// The book is saved after every position, so the build can be stopped (Ctrl-C) and run
    /// again to resume from --out.
    #[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes"])))]
    Build {
        /// Positions up to this many plies from the start are expanded.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=60))]
        plies: u32,
        /// Stop when the book holds this many positions.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        positions: u64,
        /// Nodes per searched move (the default limit: 20000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Depth per searched move.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
        hash: u32,
        /// The book file: read first if it exists (resume), written after every position.
        #[arg(long, default_value = "poolshark.book")]
        out: std::path::PathBuf,
    },
    /// List the book moves of a position, best first, with their scores (men, side to move).
    Show {
        /// Position as a PDN FEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// Moves played from the FEN first (Hub or PDN notation, space separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<std::path::PathBuf>,
    },
    /// Join two books into a third and minimax the scores again.
    Merge {
        a: std::path::PathBuf,
        b: std::path::PathBuf,
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

/// The options of `poolshark match`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("time_control").args(["tc", "movetime", "depth", "nodes"]).required(true).multiple(true)))]
struct MatchArgs {
    /// An engine command line (give two), e.g. `"poolshark hub"`.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Number of games (an odd number plays the last opening with one colour only).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Clock: base seconds + increment, e.g. `10+0.1`; `10+0.1,5+0.05` gives each engine
    /// its own. In every limit option, `-` leaves an engine to another one:
    /// `--depth 6,- --movetime -,0.1` (each engine needs exactly one limit).
    #[arg(long, allow_hyphen_values = true)]
    tc: Option<String>,
    /// Seconds per move (`1` or, per engine, `1,0.5`). A move that takes longer than
    /// 1.25 x this + 0.25 s loses on time.
    #[arg(long, allow_hyphen_values = true)]
    movetime: Option<String>,
    /// Fixed depth per move (`6` or, per engine, `6,4` or `6,-`).
    #[arg(long, allow_hyphen_values = true)]
    depth: Option<String>,
    /// Fixed nodes per move (`20000` or, per engine, `20000,5000` or `-,20000`).
    #[arg(long, allow_hyphen_values = true)]
    nodes: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// Openings file, one FEN a line (default: the built-in 3-ply set).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Write the games here as PDN, with each move's time as a `{time 0.102s}` comment.
    /// Each engine's stderr goes beside it (`NAME.engine1.log`, `NAME.engine2.log`);
    /// without --pdn, to the temporary directory (the match prints where).
    #[arg(long)]
    pdn: Option<std::path::PathBuf>,
    /// A Hub parameter: `1:NAME=VALUE` for engine 1 or 2, `NAME=VALUE` for both. An engine
    /// that answers `error` to it stops the match before the first game.
    #[arg(long = "param", value_parser = poolshark::arena::options::parse_param)]
    params: Vec<(Option<usize>, String, String)>,
    /// Stop when a sequential test decides: `"elo0=0 elo1=5 alpha=0.05 beta=0.05"`.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<poolshark::arena::stats::Sprt>,
    /// With --depth or --nodes: seconds to wait for a move before the engine forfeits.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    move_timeout: f64,
}

/// Each engine's limit from whichever limit options were given (see `arena::options`).
fn parse_time_controls(
    tc: Option<String>,
    movetime: Option<String>,
    depth: Option<String>,
    nodes: Option<String>,
) -> Result<[poolshark::arena::referee::TimeControl; 2], String> {
    use poolshark::arena::options::{parse_limits, LimitKind};
    let given: Vec<(LimitKind, &str)> = [
        (LimitKind::Clock, &tc),
        (LimitKind::MoveTime, &movetime),
        (LimitKind::Depth, &depth),
        (LimitKind::Nodes, &nodes),
    ]
    .into_iter()
    .filter_map(|(kind, text)| text.as_deref().map(|t| (kind, t)))
    .collect();
    parse_limits(&given)
}

/// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; missing ones take these values).
fn parse_sprt(s: &str) -> Result<poolshark::arena::stats::Sprt, String> {
    let mut t = poolshark::arena::stats::Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for item in s.split([' ', ',']).filter(|x| !x.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("'{item}' is not key=value"))?;
        let v: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| format!("'{item}': not a number"))?;
        match k {
            "elo0" => t.elo0 = v,
            "elo1" => t.elo1 = v,
            "alpha" if v > 0.0 && v < 0.5 => t.alpha = v,
            "beta" if v > 0.0 && v < 0.5 => t.beta = v,
            "alpha" | "beta" => return Err(format!("'{item}': must be between 0 and 0.5")),
            _ => return Err(format!("unknown SPRT key '{k}' (elo0, elo1, alpha, beta)")),
        }
    }
    if t.elo1 <= t.elo0 {
        return Err("elo1 must be greater than elo0".into());
    }
    Ok(t)
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds between 0 and 1000000"
        )),
    }
}

fn parse_unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
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
        Command::Hub { weights } => {
            let file = weights.map(|p| p.display().to_string()).unwrap_or_default();
            std::process::exit(poolshark::hub::run_with(&file))
        }
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
        Command::Show { fen, moves } => {
            read_game(&fen, moves.as_deref().unwrap_or("")).map(|game| {
                print!("{}", notation::diagram(game.position()));
                if moves.is_some() {
                    println!("Result: {}", game.result());
                }
            })
        }
        Command::Analyze {
            fen,
            moves,
            depth,
            nodes,
            movetime,
            threads,
            hash,
            weights,
        } => load_weights(weights.as_deref()).and_then(|w| {
            run_analyze(
                &fen,
                &moves,
                depth,
                nodes,
                movetime,
                threads as usize,
                hash as usize,
                w,
            )
        }),
        Command::Match(args) => run_match(args),
        Command::Selfplay {
            games,
            nodes,
            out,
            random_plies,
            seed,
            concurrency,
            weights,
        } => load_weights(weights.as_deref())
            .and_then(|w| run_selfplay(games, nodes, &out, random_plies, seed, concurrency, w)),
        Command::Tune {
            data,
            out,
            epochs,
            threads,
            start,
            learning_rate,
            fix,
            l2,
            refit_k,
            lambda,
        } => load_weights(start.as_deref()).and_then(|w| {
            let cfg = poolshark::tune::TuneConfig {
                epochs: epochs as usize,
                learning_rate,
                l2,
                refit_k,
                ..poolshark::tune::TuneConfig::default()
            };
            run_tune(
                &data,
                &out,
                threads,
                (w, start.as_deref()),
                cfg,
                &fix,
                lambda,
            )
        }),
        Command::Spsa {
            pairs,
            nodes,
            start,
            out,
            concurrency,
            batch,
            seed,
            random_plies,
            fix,
            r_end,
            c_frac,
            c_min,
        } => load_weights(start.as_deref()).and_then(|w| {
            let mut cfg = poolshark::tune::SpsaConfig::new(&w, pairs as usize, nodes);
            cfg.concurrency = concurrency as usize;
            cfg.batch = batch as usize;
            cfg.seed = seed;
            cfg.random_plies = random_plies;
            cfg.r_end = r_end;
            cfg.c_end = poolshark::tune::spsa::perturbations(&w, c_frac, c_min);
            hold_fields(&mut cfg.fixed, &fix).map_err(|e| {
                eprintln!("error: {e}");
                ExitCode::from(2)
            })?;
            run_spsa(&w, &cfg, &out, start.as_deref(), &fix, c_frac, c_min)
        }),
        Command::Openings {
            plies,
            depth,
            margin,
        } => {
            let margin = (margin * 100.0).round() as i32;
            let lines = poolshark::arena::openings::generate(plies, depth, margin, &mut |i, n| {
                if i % 50 == 0 || i == n {
                    eprintln!("searched {i}/{n}");
                }
            });
            for l in lines {
                println!("{l}");
            }
            Ok(())
        }
        Command::Book(cmd) => run_book(cmd),
        Command::Bench {
            depth,
            threads,
            hash,
            weights,
        } => load_weights(weights.as_deref()).map(|w| {
            let n = poolshark::bench::POSITIONS.len();
            let r = poolshark::bench::run(
                depth,
                threads as usize,
                hash as usize,
                &w,
                &mut |i, fen, nodes| {
                    eprintln!("position {}/{n} nodes {nodes} fen {fen}", i + 1);
                },
            );
            println!("nodes {} nps {}", r.nodes, r.nps());
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// The weights in `path`, or the built-in ones; a bad file is reported and exits with 2.
/// ` --fix LIST` for a command line written into a weights file, or nothing.
fn fix_flag(fix: &str) -> String {
    if fix.is_empty() {
        String::new()
    } else {
        format!(" --fix {fix}")
    }
}

/// ` --start FILE` for a command line written into a weights file, or nothing (built-in).
fn start_flag(start: Option<&std::path::Path>) -> String {
    start.map_or(String::new(), |p| format!(" --start {}", p.display()))
}

/// Mark the comma-separated weight names in `list` as held.
fn hold_fields(fixed: &mut [bool], list: &str) -> Result<(), String> {
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let r = poolshark::eval::weights::field_range(name)
            .ok_or_else(|| format!("--fix: no weight named '{name}'"))?;
        fixed[r].iter_mut().for_each(|f| *f = true);
    }
    Ok(())
}

fn load_weights(path: Option<&std::path::Path>) -> Result<Weights, ExitCode> {
    match path {
        None => Ok(Weights::default()),
        Some(p) => Weights::load(p).map_err(|e| {
            eprintln!("error: weights file {}: {e}", p.display());
            ExitCode::from(2)
        }),
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

#[allow(clippy::too_many_arguments)]
fn run_analyze(
    fen: &str,
    moves: &str,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    threads: usize,
    hash_mb: usize,
    weights: Weights,
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
    let mut engine = Engine::new(hash_mb, threads);
    engine.weights = weights;
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

fn run_match(args: MatchArgs) -> Result<(), ExitCode> {
    let MatchArgs {
        engines,
        games,
        tc,
        movetime,
        depth,
        nodes,
        concurrency,
        openings,
        pdn,
        params,
        sprt,
        move_timeout,
    } = args;
    use poolshark::arena::{self, client::EngineSpec};
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    if engines.len() != 2 {
        return Err(fail(format!(
            "give exactly two --engine options, not {}",
            engines.len()
        )));
    }
    let tc = parse_time_controls(tc, movetime, depth, nodes).map_err(fail)?;
    let openings = match openings {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
            arena::openings::parse(&text)
                .map_err(|(line, e)| fail(format!("{} line {line}: {e}", path.display())))?
        }
        None => arena::openings::builtin(),
    };
    let spec = |i: usize| EngineSpec {
        command: engines[i].clone(),
        params: params
            .iter()
            .filter(|(e, _, _)| e.is_none_or(|e| e == i))
            .map(|(_, k, v)| (k.clone(), v.clone()))
            .collect(),
        stderr_log: None,
    };
    let cfg = arena::MatchConfig {
        engines: [spec(0), spec(1)],
        games: games as usize,
        tc,
        concurrency: concurrency as usize,
        openings,
        pdn,
        sprt,
        move_timeout: Duration::from_secs_f64(move_timeout),
        event: "poolshark match".into(),
    };
    arena::run_match(&cfg, &mut |line| println!("{line}")).map_err(fail)?;
    Ok(())
}

fn run_selfplay(
    games: u32,
    nodes: u64,
    out: &std::path::Path,
    random_plies: u32,
    seed: u64,
    concurrency: u16,
    weights: Weights,
) -> Result<(), ExitCode> {
    use poolshark::arena::selfplay::{run, SelfplayConfig};
    use std::io::Write;
    let file = std::fs::File::create(out).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", out.display());
        ExitCode::from(2)
    })?;
    let mut writer = std::io::BufWriter::new(file);
    let cfg = SelfplayConfig {
        games: games as usize,
        nodes,
        random_plies,
        seed,
        concurrency: concurrency as usize,
        weights,
    };
    let start = Instant::now();
    let result = run(
        &cfg,
        &mut |text| writer.write_all(text.as_bytes()),
        &mut |g, lines| {
            if g % 10 == 0 || g == games as usize {
                eprintln!(
                    "games {g}/{games} positions {lines} time {:.1}s",
                    start.elapsed().as_secs_f64()
                );
            }
        },
    );
    match result.and_then(|n| writer.flush().map(|_| n)) {
        Ok(n) => {
            println!("games {games} positions {n} file {}", out.display());
            Ok(())
        }
        Err(e) => {
            eprintln!("error: writing {}: {e}", out.display());
            Err(ExitCode::from(1))
        }
    }
}

fn run_book(cmd: BookCommand) -> Result<(), ExitCode> {
    use poolshark::book::{build, tree, Book};
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    match cmd {
        BookCommand::Build {
            plies,
            positions,
            nodes,
            depth,
            threads,
            hash,
            out,
        } => {
            let mut book = if out.exists() {
                let book = Book::load(&out)
                    .map_err(|e| fail(format!("{}: {e} (not overwritten)", out.display())))?;
                eprintln!("resuming from {} ({} positions)", out.display(), book.len());
                book
            } else {
                Book::new()
            };
            let limits = Limits {
                depth,
                nodes: nodes.or(if depth.is_none() { Some(20_000) } else { None }),
                ..Limits::default()
            };
            let cfg = build::BuildConfig {
                plies,
                positions: positions as usize,
                limits,
                threads: threads as usize,
                hash_mb: hash as usize,
            };
            let start = Instant::now();
            let mut saved = Ok(());
            build::grow(&mut book, &cfg, &mut |book, p| {
                saved = book.save(&out);
                eprintln!(
                    "positions {} ply {} root {} time {:.1}s",
                    p.positions,
                    p.ply,
                    poolshark::search::Score(p.root_score).hub(),
                    start.elapsed().as_secs_f64()
                );
                saved.is_ok()
            });
            saved.map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
            book.save(&out)
                .map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
            println!(
                "positions {} bytes {} time {:.1}s file {}",
                book.len(),
                book.to_bytes().len(),
                start.elapsed().as_secs_f64(),
                out.display()
            );
        }
        BookCommand::Show { fen, moves, book } => {
            let game = read_game(&fen, &moves)?;
            let book = match book {
                Some(path) => Book::load(&path),
                None => Book::builtin(),
            }
            .map_err(|e| fail(e.to_string()))?;
            let pos = game.position();
            let moves = book.moves(pos);
            if moves.is_empty() {
                println!("no book moves");
            }
            for m in moves {
                println!(
                    "{} {} {}",
                    m.mv.hub(),
                    notation::pdn_move(pos, &m.mv),
                    poolshark::search::Score(m.score as i32).hub()
                );
            }
        }
        BookCommand::Merge { a, b, out } => {
            let load = |p: &std::path::Path| {
                Book::load(p).map_err(|e| fail(format!("{}: {e}", p.display())))
            };
            let merged = tree::merge(&load(&a)?, &load(&b)?, &Position::start());
            merged
                .save(&out)
                .map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
            println!("positions {} file {}", merged.len(), out.display());
        }
    }
    Ok(())
}

fn run_spsa(
    start: &Weights,
    cfg: &poolshark::tune::SpsaConfig,
    out: &std::path::Path,
    start_path: Option<&std::path::Path>,
    fix: &str,
    c_frac: f64,
    c_min: f64,
) -> Result<(), ExitCode> {
    use poolshark::eval::file;
    let t0 = Instant::now();
    let command = format!(
        "poolshark spsa --pairs {} --nodes {}{} --batch {} --seed {} --random-plies {} \
         --r-end {} --c-frac {c_frac} --c-min {c_min}{}",
        cfg.pairs,
        cfg.nodes,
        start_flag(start_path),
        cfg.batch,
        cfg.seed,
        cfg.random_plies,
        cfg.r_end,
        fix_flag(fix),
    );
    // Written whole to a temporary file and renamed over `out`, so `out` is never half
    // written.
    let save = |w: &Weights, note: &str| -> std::io::Result<()> {
        let tmp = out.with_extension("tmp");
        std::fs::write(
            &tmp,
            file::write(w, &format!("Tuned by `{command}`\n{note}")),
        )?;
        std::fs::rename(&tmp, out)
    };
    save(start, "(not started)").map_err(|e| {
        eprintln!("error: cannot write {}: {e}", out.display());
        ExitCode::from(2)
    })?;
    let mut openings = poolshark::arena::openings::builtin();
    if openings.is_empty() {
        openings.push(Position::start());
    }
    let every = (cfg.pairs / 20).max(1);
    let mut last_saved = 0;
    let mut save_error = None;
    let tuned = poolshark::tune::spsa::run(start, cfg, &openings, &mut |p| {
        if p.pairs_done / every > last_saved / every || p.pairs_done == cfg.pairs {
            last_saved = p.pairs_done;
            let w: Vec<i32> = p.theta.iter().map(|x| x.round() as i32).collect();
            eprintln!(
                "pairs {}/{} plus-score {:.1}% time {:.1}s weights {}",
                p.pairs_done,
                cfg.pairs,
                100.0 * p.plus_points / p.games.max(1) as f64,
                t0.elapsed().as_secs_f64(),
                w.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            let note = format!("after {} of {} pairs", p.pairs_done, cfg.pairs);
            if let Err(e) = save(&Weights::from_vec(&w), &note) {
                save_error.get_or_insert(e);
            }
        }
    });
    let note = format!(
        "{} pairs at {} nodes in {:.0} s.",
        cfg.pairs,
        cfg.nodes,
        t0.elapsed().as_secs_f64()
    );
    match save_error.map_or_else(|| save(&tuned, &note), Err) {
        Ok(()) => {
            println!(
                "pairs {} time {:.1}s out {}",
                cfg.pairs,
                t0.elapsed().as_secs_f64(),
                out.display()
            );
            Ok(())
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            Err(ExitCode::from(1))
        }
    }
}

fn run_tune(
    data: &std::path::Path,
    out: &std::path::Path,
    threads: Option<u16>,
    (start, start_path): (Weights, Option<&std::path::Path>),
    mut cfg: poolshark::tune::TuneConfig,
    fix: &str,
    lambda: f64,
) -> Result<(), ExitCode> {
    use poolshark::eval::file;
    use poolshark::tune;
    let epochs = cfg.epochs;
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    if let Some(t) = threads {
        // Only fails when a pool already exists, which it cannot here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t as usize)
            .build_global();
    }
    hold_fields(&mut cfg.fixed, fix).map_err(fail)?;
    let t0 = Instant::now();
    let text = std::fs::read_to_string(data)
        .map_err(|e| fail(format!("cannot read {}: {e}", data.display())))?;
    let all = tune::load(&text, &start).map_err(|e| fail(format!("{}: {e}", data.display())))?;
    if all.len() < 10 {
        return Err(fail(format!("{}: too few positions", data.display())));
    }
    // Every tenth position is held out, to see whether the fit generalises.
    let (mut train, mut held) = (tune::Samples::new(), tune::Samples::new());
    for i in 0..all.len() {
        let s = if i % 10 == 9 { &mut held } else { &mut train };
        s.push_from(&all, i);
    }
    let w0: Vec<f32> = start.to_vec().iter().map(|&x| x as f32).collect();
    eprintln!(
        "positions {} (held out {}) features {} loaded in {:.1}s",
        all.len(),
        held.len(),
        all.width,
        t0.elapsed().as_secs_f64()
    );
    // K is fitted to the game results; the search scores are then scaled by the same K.
    let k = tune::fit_k(&train, &w0);
    let searched = all.search.iter().filter(|s| !s.is_nan()).count();
    train.blend(lambda, k);
    held.blend(lambda, k);
    eprintln!(
        "K {k:.6} lambda {lambda} (search scores on {searched} positions) loss {:.6} held-out {:.6}",
        tune::loss(&train, &w0, k),
        tune::loss(&held, &w0, k)
    );
    let (tuned, k) = tune::tune(&train, &start, k, &cfg, &mut |epoch, w, k| {
        eprintln!(
            "epoch {epoch}/{epochs} K {k:.6} loss {:.6} held-out {:.6} time {:.1}s",
            tune::loss(&train, w, k),
            tune::loss(&held, w, k),
            t0.elapsed().as_secs_f64()
        );
    });
    let wt: Vec<f32> = tuned.to_vec().iter().map(|&x| x as f32).collect();
    let (lt, lh) = (tune::loss(&train, &wt, k), tune::loss(&held, &wt, k));
    let secs = t0.elapsed().as_secs_f64();
    let comment = format!(
        "Tuned by `poolshark tune --data {}{} --epochs {epochs} --learning-rate {} --l2 {} \
         --refit-k {} --lambda {lambda}{}`\n\
         on {} positions: K {k:.6}, loss {lt:.6}, held-out {lh:.6}, {secs:.0} s.",
        data.display(),
        start_flag(start_path),
        cfg.learning_rate,
        cfg.l2,
        cfg.refit_k,
        fix_flag(fix),
        all.len(),
    );
    std::fs::write(out, file::write(&tuned, &comment))
        .map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
    println!(
        "positions {} K {k:.6} loss {lt:.6} held-out {lh:.6} time {secs:.1}s out {}",
        all.len(),
        out.display()
    );
    Ok(())
}
