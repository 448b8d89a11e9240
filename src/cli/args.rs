//! Option groups that several commands share, declared once and flattened into each
//! command's `Args`, and the value parsers for numbers clap has no type for.

use super::{input, CliError};
use poolshark_engine::core::{notation, Game, Position};
use poolshark_engine::egdb::Egdb;
use poolshark_engine::eval::Weights;
use poolshark_engine::search::params::SearchParams;
use poolshark_engine::search::tt::TableError;
use poolshark_engine::search::Engine;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--fen`: the position a command starts from.
#[derive(clap::Args)]
pub struct FenArg {
    /// Position as a PDN FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    pub fen: String,
}

impl FenArg {
    /// The position, or a bad-input error that quotes the FEN.
    pub fn position(&self) -> Result<Position, CliError> {
        notation::parse_fen(&self.fen).map_err(|e| input(format!("bad FEN '{}': {e}", self.fen)))
    }
}

/// `--fen` and `--moves`: a game from a position and the moves played since.
#[derive(clap::Args)]
pub struct PositionArgs {
    #[command(flatten)]
    pub fen: FenArg,
    /// Moves played from the FEN first (Hub or PDN notation, space separated). They count
    /// toward repetition and the 40- and 13-move rules.
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The game after playing `--moves` from `--fen`.
    pub fn game(&self) -> Result<Game, CliError> {
        let mut game = Game::new(self.fen.position()?);
        for text in self.moves.as_deref().unwrap_or("").split_whitespace() {
            if let Err(e) = game.play_text(text) {
                return Err(input(format!(
                    "move '{text}' after {} moves: {e}",
                    game.moves().len()
                )));
            }
        }
        Ok(game)
    }
}

/// `--threads` and `--hash`: the search's resources.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table size in MiB (rounded down to a power of two entries).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Search parameters by name, for engine testing: NAME:VALUE pairs joined by commas, e.g.
    /// `lmr_divisor:2.5,probcut_margin:90` (`poolshark spsa --help` lists the names).
    #[arg(long, value_name = "NAME:VALUE,...", value_parser = parse_search_params)]
    pub search_params: Option<SearchParams>,
}

fn parse_search_params(text: &str) -> Result<SearchParams, String> {
    SearchParams::default().with_assignments(text)
}

impl SearchArgs {
    /// An engine with these resources and search parameters. A table larger than this
    /// machine allows (half its memory) or that cannot be allocated is bad input; more
    /// threads than 4 per core are capped, with a warning.
    pub fn engine(&self) -> Result<Engine, CliError> {
        let mut engine = Engine::try_new(self.hash as usize, self.threads as usize)
            .map_err(|e| self.table_error(e))?;
        engine.params = self.params();
        Ok(engine)
    }

    /// The search parameters: the defaults with `--search-params` applied.
    pub fn params(&self) -> SearchParams {
        self.search_params.clone().unwrap_or_default()
    }

    /// A table error as the CLI reports it, naming the option.
    pub fn table_error(&self, e: TableError) -> CliError {
        input(format!("--hash {}: {e}", self.hash))
    }
}

/// `--weights`: the evaluation weights.
#[derive(clap::Args)]
pub struct WeightsArg {
    /// Evaluation file instead of the built-in network: hand weights (tuning/weights.txt
    /// format) or a network (tuning/network.bin format, made by `learn`).
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

impl WeightsArg {
    /// The weights in the file, or the built-in ones.
    pub fn load(&self) -> Result<Weights, CliError> {
        load_weights(self.weights.as_deref())
    }
}

/// `--threads`, `--hash` and `--weights`: an engine as the search commands build it.
#[derive(clap::Args)]
pub struct EngineArgs {
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub weights: WeightsArg,
}

/// `--egdb`: endgame tables for the search to probe.
#[derive(clap::Args)]
pub struct EgdbArg {
    /// Endgame tables folder (made by `egdb build`) for the search to probe. Without it,
    /// analyze and the Hub use `egdb/` here if it exists; bench uses none.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
}

/// The folder of endgame tables used when none is named: `egdb/` in the working directory.
pub const DEFAULT_EGDB_DIR: &str = poolshark_engine::search::egdb::DEFAULT_DIR;

impl EgdbArg {
    /// The tables in `--egdb` (a folder that is not there is bad input), else, when
    /// `default` says so, those in `egdb/` if that folder exists; else none. Damaged files
    /// are left out with a warning.
    pub fn open(&self, default: bool) -> Result<Option<Arc<Egdb>>, CliError> {
        let dir = match &self.egdb {
            Some(d) => d.clone(),
            None if default && Path::new(DEFAULT_EGDB_DIR).is_dir() => DEFAULT_EGDB_DIR.into(),
            None => return Ok(None),
        };
        poolshark_host::egdb::open_lazy(&dir)
            .map(|db| Some(Arc::new(db)))
            .map_err(|e| input(format!("--egdb: {e}")))
    }

    /// As `open` with the default folder, but each group is read on a background thread
    /// when a search first reaches it, and probes find nothing until it is in: for timed
    /// play, where a move must never wait for a file (the Hub does the same).
    pub fn open_for_play(&self) -> Result<Option<Arc<Egdb>>, CliError> {
        let dir = match &self.egdb {
            Some(d) => d.clone(),
            None if Path::new(DEFAULT_EGDB_DIR).is_dir() => DEFAULT_EGDB_DIR.into(),
            None => return Ok(None),
        };
        poolshark_host::egdb::open_background(&dir)
            .map(|db| Some(Arc::new(db)))
            .map_err(|e| input(format!("--egdb: {e}")))
    }
}

/// The weights in `path`, or the built-in ones; a bad file is bad input.
pub fn load_weights(path: Option<&std::path::Path>) -> Result<Weights, CliError> {
    match path {
        None => Ok(Weights::builtin()),
        Some(p) => poolshark_host::weights::load(p)
            .map_err(|e| input(format!("weights file {}: {e}", p.display()))),
    }
}

/// A number of seconds, more than 0 and at most a million.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1.0e6 => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds more than 0 and at most 1000000"
        )),
    }
}

/// A finite number above 0 (a NaN or infinite step would write nonsense weights).
pub fn parse_positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number above 0")),
    }
}

/// A finite number, 0 or more.
pub fn parse_non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number, 0 or more")),
    }
}

/// A number from 0 to 1.
pub fn parse_unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}
