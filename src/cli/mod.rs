//! The command line: clap subcommands that parse their options and call the library.
//!
//! One file per command family: `position` (perft, moves, show), `analyze` (analyze,
//! bench), `annotate`, `arena` (match, stats, selfplay, openings), `tune` (tune, spsa), `learn`, `book`,
//! `data`, `egdb` and `serve`. Each
//! subcommand is an `Args` struct with a `run` method; the option groups several commands
//! share (`--fen`/`--moves`, `--threads`/`--hash`/`--weights`) are declared once in `args`
//! and flattened into them.
//!
//! # Errors and exit status
//!
//! A command fails with one [`CliError`], which `main` prints once to stderr as
//! `error: <message>`, its control characters escaped (`output::escape_controls`) and runs of
//! more than 20 digits cut (`poolshark_engine::echo::shorten_numbers`, clap's errors too). The exit
//! status says whose fault it was:
//! - **2, bad input**: the command line or what it names was rejected: a bad FEN, move,
//!   number or option (clap's own usage errors also exit with 2), a file that cannot be read
//!   or parsed, an output path that cannot be written.
//! - **1, runtime failure**: the input was fine but the work failed part way, for example
//!   writing the output after the run had started.
//!
//! Success is 0, and so is a stdout closed by its reader (`poolshark moves | head -1`): the
//! command stops quietly (see `output`). Without a subcommand (or with `hub`) poolshark speaks the Hub protocol and
//! exits with the Hub loop's status.

#[macro_use]
mod output;

mod analyze;
mod annotate;
mod arena;
mod args;
mod book;
mod data;
mod egdb;
mod explorer;
mod learn;
mod position;
mod puzzles;
mod serve;
mod tune;

use clap::{Parser, Subcommand};
use std::fmt;
use std::process::ExitCode;

/// `--version`: Cargo.toml's version and the commit built (build.rs; "unknown" outside git).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("POOLSHARK_COMMIT"),
    ")"
);

#[derive(Parser)]
#[command(
    name = "poolshark",
    version = VERSION,
    about = "An engine for American Pool Checkers"
)]
struct Cli {
    /// Without a subcommand, poolshark speaks the Hub protocol (as `poolshark hub`).
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Hub protocol on stdin/stdout (the default). `hub --help` lists the
    /// parameters.
    #[command(long_about = hub_long_about())]
    Hub(HubArgs),
    /// Count the leaf nodes of the legal-move tree, depth by depth (a move generator check).
    Perft(position::PerftArgs),
    /// List the legal moves: Hub notation, then PDN notation.
    Moves(position::MovesArgs),
    /// Draw the board with square numbers, the side to move and the FEN; with --moves, also
    /// the game's result (`Result: ...`), draws by repetition and move counts included.
    Show(position::ShowArgs),
    /// Search a position and print the best move, with progress lines as the search deepens.
    /// Without a limit it thinks for 5 seconds.
    Analyze(analyze::AnalyzeArgs),
    /// Review the games of a PDN file: search every position, write the games again with
    /// the score after each move (`{[%eval S]}`, men from Black's side) and `?!`/`?`/`??` on
    /// the moves that gave value away, naming the best move; a summary line per game.
    #[command(long_about = annotate::long_about())]
    Annotate(annotate::AnnotateArgs),
    /// Play an engine-vs-engine match over the Hub protocol, refereed by poolshark's rules.
    /// Each opening is played twice with colours swapped. Prints a line per game and a summary
    /// with the Elo difference (95% interval from the game pairs), draw ratio, LOS, the
    /// pentanomial counts, each engine's time per move and the SPRT state. Before each game
    /// an engine has up to 60 s to answer `ping` after `new-game`; its clock starts after.
    Match(arena::MatchArgs),
    /// A match's summary from its PDN files (e.g. the shards of `match --shard`), counted by
    /// game pairs: the lines `match` ends with. The `match:` line's seconds are the summed
    /// move times, and games whose pair is incomplete count in the score only (a `note:`
    /// line says how many). Games are read one at a time, so files of any size fit in
    /// memory; a game whose Result tag and movetext result disagree is an error naming it.
    Stats(arena::StatsArgs),
    /// Write self-play positions for evaluation tuning, one a line: `<FEN> ; <result> ;
    /// <search>`, the game's result for White (1, 0.5 or 0) and the search score there from
    /// White's side in hundredths of a man (`-` where nobody searched).
    Selfplay(arena::SelfplayArgs),
    /// Fit the evaluation weights to self-play results (Texel's method): fit the scaling
    /// constant K of sigmoid(K * eval) under the starting weights, then the weights by Adam on
    /// the mean squared error. Prints the loss on the data and on a held-out tenth after each
    /// epoch and writes the weights file. tuning/README.md gives the whole pipeline.
    Tune(tune::TuneArgs),
    /// Tune the weights by playing games (SPSA): every pair perturbs all free weights by
    /// +-c at once, plays the + set against the - set from one opening with each colour,
    /// and moves the weights by the result. Reproducible: a run depends on its options, not
    /// on the threads. Writes the weights (also every 5% of the run, so a stopped run
    /// leaves its latest). tuning/README.md gives the pipeline.
    #[command(after_help = spsa_after_help())]
    Spsa(tune::SpsaArgs),
    /// Fit the network evaluation to self-play data by Adam, on all cores. Prints the loss
    /// on the data and on the held-out games (a tenth) after each epoch, and writes the
    /// network (the format of tuning/network.bin, loaded by --weights or eval-file) and a
    /// checkpoint after each: the same command run again resumes, also with a larger
    /// --epochs.
    /// tuning/README.md gives the pipeline.
    Learn(learn::LearnArgs),
    /// Search the positions of a data file again, deeper than self-play did, and write each
    /// line with the new search score in place of the old: targets for `learn --lambda 0`
    /// (a fit that learns what a deeper search sees). Continues an --out that exists.
    Label(learn::LabelArgs),
    /// Training data sets: merge packed self-play shards into one set (with the endgame
    /// tables' values), convert text data to packed and back, say what a data file holds.
    #[command(subcommand)]
    Data(data::DataCommand),
    /// Print balanced openings, one FEN a line: every distinct position PLIES plies from the
    /// start scoring within MARGIN men at DEPTH (books/openings-3ply.txt is made this way).
    Openings(arena::OpeningsArgs),
    /// The opening book: build one by searching, show a position's book moves, merge two.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// The opening explorer: make its games file from PDN games, or list a position's
    /// moves with the book's scores and how the shipped games went.
    #[command(subcommand)]
    Explorer(explorer::ExplorerCommand),
    /// Search a fixed set of positions to a fixed depth; the last line is `nodes <n> nps <n>`.
    /// With one thread the node count is the same every run.
    // Bench keeps its smaller table (16 MiB), so its node count stays comparable.
    #[command(mut_arg("hash", |a| a.default_value("16")))]
    Bench(analyze::BenchArgs),
    /// Endgame tables: build them, probe a position, verify them.
    #[command(subcommand)]
    Egdb(egdb::EgdbCommand),
    /// Puzzles: make proved puzzles from games, check a puzzle file, play the games
    /// between levels they come from (docs/PUZZLES.md).
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Serve the board: a page to play and analyse in the browser, at the address printed
    /// (`poolshark board: http://127.0.0.1:8080/`). Each open board has its own game and
    /// engine (a table of --hash MiB); at most --max-connections at once, and their tables
    /// within --memory. Idle and silent clients are closed (docs/BOARD.md gives the limits).
    Serve(serve::ServeArgs),
}

/// The options of `poolshark hub`.
#[derive(clap::Args)]
struct HubArgs {
    #[command(flatten)]
    weights: args::WeightsArg,
}

impl HubArgs {
    /// Runs the Hub loop until `quit` or the end of input, then exits with its status.
    fn run(self) -> ! {
        let file = self
            .weights
            .weights
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        std::process::exit(crate::hub::run_with(&file))
    }
}

/// `poolshark hub --help`: the parameters come from their declarations (`Param::ALL`).
fn hub_long_about() -> String {
    format!(
        "Speak the Hub protocol on stdin/stdout (the default).\n\n\
         Parameters (set-param name=NAME value=VALUE):\n{}\n\n\
         The book is the built-in one, or the file in POOLSHARK_BOOK; POOLSHARK_BOOK_SEED \
         fixes its random choices. Logs go to stderr; set RUST_LOG=debug to see them.",
        crate::hub::params::help_lines().join("\n")
    )
}

/// The end of `poolshark spsa --help`: the search parameters `--search` takes, from their
/// declarations (`SearchParams::TUNABLES`).
fn spsa_after_help() -> String {
    format!(
        "Search parameters (--search NAME,...; also the Hub's search-params and \
         --search-params NAME:VALUE,...), with their ranges and defaults:\n{}",
        poolshark_engine::search::params::SearchParams::help_lines().join("\n")
    )
}

/// Why a command failed, and so its exit status (see the module notes).
#[derive(Debug)]
pub enum CliError {
    /// Bad input: exit status 2.
    Input(String),
    /// The work failed part way: exit status 1.
    Runtime(String),
}

impl CliError {
    /// The exit status for this error.
    pub fn status(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Runtime(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Runtime(m) => f.write_str(m),
        }
    }
}

/// Shorthand for a bad-input error (status 2).
fn input(message: impl Into<String>) -> CliError {
    CliError::Input(message.into())
}

/// Shorthand for a runtime error (status 1).
fn runtime(message: impl Into<String>) -> CliError {
    CliError::Runtime(message.into())
}

/// The command line parsed. A negative number is taken as a value everywhere
/// (`--movetime -1` gets the option's own error, not clap's "unexpected argument").
fn parse_command_line() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    fn negatives(c: clap::Command) -> clap::Command {
        c.allow_negative_numbers(true).mut_subcommands(negatives)
    }
    let matches = negatives(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// The whole program: parse the command line, run the command, print its error once.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // clap's own errors echo the value given: cut long numbers in them as in ours.
    let cli = parse_command_line().unwrap_or_else(|e| {
        let text = poolshark_engine::echo::shorten_numbers(&e.render().to_string());
        if e.use_stderr() {
            errln!("{}", text.trim_end_matches('\n'));
        } else {
            out!("{text}");
        }
        std::process::exit(e.exit_code());
    });
    // What the engine must know before it evaluates or makes a table (the instruction set
    // asked for, this machine's memory).
    poolshark_host::init();
    // The Hub and the board seed their random choices from the environment: a value that is
    // no seed is an error now, not a random seed taken without a word.
    if matches!(
        cli.command,
        None | Some(Command::Hub(_) | Command::Serve(_))
    ) {
        use poolshark_host::seeds::{env_seed, BOOK_SEED_VAR, LEVEL_SEED_VAR};
        for var in [LEVEL_SEED_VAR, BOOK_SEED_VAR] {
            if let Err(e) = env_seed(var) {
                errln!("error: {e}");
                std::process::exit(2);
            }
        }
    }
    let Some(command) = cli.command else {
        std::process::exit(crate::hub::run());
    };
    let result = match command {
        Command::Hub(a) => a.run(),
        Command::Perft(a) => a.run(),
        Command::Moves(a) => a.run(),
        Command::Show(a) => a.run(),
        Command::Analyze(a) => a.run(),
        Command::Annotate(a) => a.run(),
        Command::Match(a) => a.run(),
        Command::Stats(a) => a.run(),
        Command::Selfplay(a) => a.run(),
        Command::Tune(a) => a.run(),
        Command::Spsa(a) => a.run(),
        Command::Learn(a) => a.run(),
        Command::Label(a) => a.run(),
        Command::Data(c) => c.run(),
        Command::Openings(a) => a.run(),
        Command::Book(c) => c.run(),
        Command::Explorer(c) => c.run(),
        Command::Bench(a) => a.run(),
        Command::Egdb(c) => c.run(),
        Command::Puzzles(c) => c.run(),
        Command::Serve(a) => a.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!(
                "error: {}",
                output::escape_controls(&poolshark_engine::echo::shorten_numbers(&e.to_string()))
            );
            ExitCode::from(e.status())
        }
    }
}
