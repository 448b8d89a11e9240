//! `poolshark puzzles`: make proved puzzles from games (`make`), check a puzzle file by
//! proving every solution again (`check`), and play the games between levels they are made
//! from (`games`). The finding, proving, themes and ratings are `poolshark_engine::puzzle`'s
//! (docs/PUZZLES.md); here are the files, the workers and the progress.

use super::args::EgdbArg;
use super::{input, runtime, CliError};
use poolshark_engine::core::pdn::{self, PdnGame};
use poolshark_engine::core::{Game, Position};
use poolshark_engine::egdb::Egdb;
use poolshark_engine::puzzle::find::{Finder, Miss};
use poolshark_engine::puzzle::games::{self, Levels};
use poolshark_engine::puzzle::{params, rating, themes, Puzzle, PuzzleId};
use poolshark_engine::search::level::PlayLevel;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// `make` proves each puzzle a second time along its own line at this many times its nodes,
/// as `check` does by default: a puzzle only a shallower search sees is left out.
const CHECK_TIMES: u64 = 2;

#[derive(clap::Subcommand)]
pub enum PuzzlesCommand {
    /// Find puzzles in the games of PDN files and write those proved, with their themes and
    /// ratings, as PDN: every position of every game's main line is screened, each
    /// candidate's solution proved step by step by a deeper search and, with 6 pieces or
    /// fewer, by the endgame tables (docs/PUZZLES.md). A position met twice is examined once.
    /// Prints `puzzles N positions P games G` at the end; progress on stderr.
    Make(MakeArgs),
    /// Prove every puzzle of a file again (its tags, its solution step by step, its
    /// themes and rating) and print `checked N puzzles` or each that fails (status 1).
    Check(CheckArgs),
    /// Play games between playing levels, the puzzles' source: game K of a run is the same
    /// game on any machine and any --threads (docs/PUZZLES.md).
    Games(GamesArgs),
    /// Write a puzzle file (PDN) in the board's compact form, one puzzle a line (the file
    /// built into the board: puzzles/puzzles.tsv). Prints `packed N puzzles`.
    Pack(PackArgs),
}

impl PuzzlesCommand {
    pub fn run(self) -> Result<(), CliError> {
        match self {
            PuzzlesCommand::Make(a) => a.run(),
            PuzzlesCommand::Check(a) => a.run(),
            PuzzlesCommand::Games(a) => a.run(),
            PuzzlesCommand::Pack(a) => a.run(),
        }
    }
}

/// The options of `puzzles make`.
#[derive(clap::Args)]
pub struct MakeArgs {
    /// PDN files of games (any: matches, annotated games, level games).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pdn: Vec<PathBuf>,
    /// Write the puzzles here (a file that is there is refused).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The screen's nodes a position; the proof searches ten times as many a step, and the
    /// second proof twenty times.
    #[arg(long, default_value_t = params::SCREEN_NODES, value_parser = clap::value_parser!(u64).range(1_000..=100_000_000))]
    nodes: u64,
    /// Positions examined at once (each on one thread); the puzzles are the same for any.
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    #[command(flatten)]
    egdb: EgdbArg,
}

fn default_threads() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// A pool of `threads` workers.
fn pool(threads: u64) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
        .map_err(|e| runtime(format!("cannot start {threads} threads: {e}")))
}

/// The games of the PDN files, in order; a file that cannot be read or is no PDN is bad
/// input, named with its place.
pub(super) fn read_games(paths: &[PathBuf]) -> Result<Vec<PdnGame>, CliError> {
    let mut out = Vec::new();
    for path in paths {
        let lines = poolshark_host::files::lines(path, pdn::MAX_MOVETEXT)
            .map_err(|e| input(format!("cannot read {e}")))?;
        for read in pdn::games(lines, pdn::TreeBuilder::default()) {
            let ending = read.map_err(|e| input(format!("cannot read {e}")))?;
            let tree = ending
                .game()
                .map_err(|e| input(format!("{}: {e}", path.display())))?;
            out.push(PdnGame::from(tree));
        }
    }
    Ok(out)
}

/// An output file that is not there yet, and can be written.
pub(super) fn fresh_output(out: &Path, inputs: &[PathBuf]) -> Result<(), CliError> {
    if out.exists() {
        return Err(input(format!(
            "--out {} is there already: remove it or name another file",
            out.display()
        )));
    }
    if inputs
        .iter()
        .any(|i| poolshark_host::files::same_output(out, i))
    {
        return Err(input(format!(
            "--out {} is one of the inputs",
            out.display()
        )));
    }
    poolshark_host::files::check_output(out).map_err(|e| input(format!("cannot write {e}")))
}

/// A progress bar on stderr.
fn bar(len: usize, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{what} [{{wide_bar}}] {{pos}}/{{len}} {{msg}}, ETA {{eta}}"
        ))
        .expect("a valid template"),
    );
    bar
}

/// The puzzle a found position makes: proved, then themed and rated.
fn finish(
    found: poolshark_engine::puzzle::find::Found,
    rater: &mut poolshark_engine::search::Engine,
) -> Puzzle {
    let chances = rating::level_chances(rater, &found.position, &found.solution);
    Puzzle {
        id: PuzzleId::of(&found.position),
        position: found.position,
        goal: found.goal,
        themes: themes::of(
            &found.position,
            found.goal,
            &found.solution,
            found.by_tables,
        ),
        solution: found.solution,
        rating: rating::rating(&chances),
    }
}

impl MakeArgs {
    fn run(self) -> Result<(), CliError> {
        fresh_output(&self.out, &self.pdn)?;
        let egdb: Option<Arc<Egdb>> = self.egdb.open(true)?;
        let games = read_games(&self.pdn)?;
        // Every position of every main line once, in the order met.
        let mut seen = HashSet::new();
        let mut positions: Vec<Position> = Vec::new();
        for g in &games {
            let game: Game = g.replay();
            for pos in game.positions() {
                if seen.insert(pos.key()) {
                    positions.push(*pos);
                }
            }
        }
        let found = AtomicUsize::new(0);
        let bar = bar(positions.len(), "puzzles");
        bar.set_message("positions, 0 puzzles");
        let nodes = self.nodes;
        let puzzles: Vec<Option<Puzzle>> = pool(self.threads)?.install(|| {
            positions
                .par_iter()
                .map_init(
                    || {
                        let checker = Finder::new(egdb.clone(), CHECK_TIMES * nodes);
                        (Finder::new(egdb.clone(), nodes), checker, rating::engine())
                    },
                    |(finder, checker, rater), pos| {
                        // Proved, then proved again deeper along its own line (`check`).
                        let made = finder
                            .examine(pos)
                            .ok()
                            .filter(|f| checker.verify(&f.position, f.goal, &f.solution).is_ok())
                            .map(|f| finish(f, rater));
                        if made.is_some() {
                            let n = found.fetch_add(1, Ordering::Relaxed) + 1;
                            bar.set_message(format!("positions, {n} puzzles"));
                        }
                        bar.inc(1);
                        made
                    },
                )
                .collect()
        });
        bar.finish_and_clear();
        let mut text = String::new();
        let mut count = 0;
        for p in puzzles.into_iter().flatten() {
            text.push_str(&p.to_pdn().write());
            count += 1;
        }
        poolshark_host::files::save(&self.out, text.as_bytes())
            .map_err(|e| runtime(format!("cannot write {e}")))?;
        outln!(
            "puzzles {count} positions {} games {}",
            positions.len(),
            games.len()
        );
        Ok(())
    }
}

/// The options of `puzzles check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The puzzle files.
    #[arg(num_args = 1.., required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// `make --nodes` of the puzzles: each step is proved again as `make` proved it the
    /// second time (at twenty times these nodes). More nodes check them deeper.
    #[arg(long, default_value_t = params::SCREEN_NODES, value_parser = clap::value_parser!(u64).range(1_000..=100_000_000))]
    nodes: u64,
    /// Puzzles checked at once.
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    #[command(flatten)]
    egdb: EgdbArg,
}

/// What is wrong with `p` when proved again along its solution, if anything.
fn recheck(
    p: &Puzzle,
    finder: &mut Finder,
    rater: &mut poolshark_engine::search::Engine,
) -> Option<String> {
    match finder.verify(&p.position, p.goal, &p.solution) {
        Ok(()) => {}
        Err(Miss::NoTables) => return Some("the endgame tables do not cover it".into()),
        Err(Miss::Counts) => return Some("its verdict hangs on the draw counts".into()),
        Err(_) => return Some("its solution is not proved again".into()),
    }
    let chances = rating::level_chances(rater, &p.position, &p.solution);
    let again = rating::rating(&chances);
    (again != p.rating).then(|| format!("its rating {} is not {again}", p.rating))
}

impl CheckArgs {
    fn run(self) -> Result<(), CliError> {
        let egdb = self.egdb.open(true)?;
        let games = read_games(&self.files)?;
        let mut puzzles = Vec::with_capacity(games.len());
        let mut ids = HashSet::new();
        for (k, g) in games.iter().enumerate() {
            let p = Puzzle::from_pdn(g).map_err(|e| input(format!("puzzle {}: {e}", k + 1)))?;
            if !ids.insert(p.id.clone()) {
                return Err(input(format!(
                    "puzzle {}: id {} is there twice",
                    k + 1,
                    p.id
                )));
            }
            puzzles.push(p);
        }
        let bar = bar(puzzles.len(), "check");
        let nodes = self.nodes;
        let faults: Vec<Option<String>> = pool(self.threads)?.install(|| {
            puzzles
                .par_iter()
                .map_init(
                    || {
                        (
                            Finder::new(egdb.clone(), CHECK_TIMES * nodes),
                            rating::engine(),
                        )
                    },
                    |(finder, rater), p| {
                        let r = recheck(p, finder, rater);
                        bar.inc(1);
                        r
                    },
                )
                .collect()
        });
        bar.finish_and_clear();
        let mut bad = 0;
        for (p, fault) in puzzles.iter().zip(&faults) {
            if let Some(why) = fault {
                bad += 1;
                outln!("puzzle {}: {why}", p.id);
            }
        }
        if bad > 0 {
            return Err(runtime(format!(
                "{bad} of {} puzzles failed the check",
                puzzles.len()
            )));
        }
        outln!("checked {} puzzles", puzzles.len());
        Ok(())
    }
}

/// The options of `puzzles games`.
#[derive(clap::Args)]
pub struct GamesArgs {
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Write them here as PDN (a file that is there is refused).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The weakest and strongest level, each side's drawn between them: `1-8`.
    #[arg(long, default_value = "1-8", value_parser = parse_levels)]
    levels: Levels,
    /// The run's seed: the same seed, the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games with `index % N == I` (from 0): `--shard I/N`.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Games played at once (each on one thread); the games are the same for any.
    #[arg(long, default_value_t = default_threads(), value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

fn parse_levels(s: &str) -> Result<Levels, String> {
    let (a, b) = s
        .split_once('-')
        .ok_or_else(|| format!("'{s}' is not two levels LOW-HIGH, such as 1-8"))?;
    let (low, high) = (PlayLevel::parse(a)?, PlayLevel::parse(b)?);
    if low > high {
        return Err(format!("'{s}': the first level is above the second"));
    }
    Ok(Levels { low, high })
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not I/N with I below N, such as 0/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

impl GamesArgs {
    fn run(self) -> Result<(), CliError> {
        fresh_output(&self.out, &[])?;
        let (i, n) = self.shard.unwrap_or((0, 1));
        let indices: Vec<u64> = (0..self.games).filter(|k| k % n == i).collect();
        let openings = poolshark_engine::openings::builtin();
        let bar = bar(indices.len(), "games");
        let (seed, levels) = (self.seed, self.levels);
        let played: Vec<PdnGame> = pool(self.threads)?.install(|| {
            indices
                .par_iter()
                .map_init(games::engine, |engine, &k| {
                    let g = games::play(engine, seed, k, levels, &openings);
                    bar.inc(1);
                    g
                })
                .collect()
        });
        bar.finish_and_clear();
        let text: String = played.iter().map(|g| g.write()).collect();
        poolshark_host::files::save(&self.out, text.as_bytes())
            .map_err(|e| runtime(format!("cannot write {e}")))?;
        outln!(
            "games {} plies {}",
            played.len(),
            played.iter().map(|g| g.moves.len()).sum::<usize>()
        );
        Ok(())
    }
}

/// The options of `puzzles pack`.
#[derive(clap::Args)]
pub struct PackArgs {
    /// The puzzle file (PDN, as `make` writes it).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write the compact form here (a file that is there is refused).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

impl PackArgs {
    fn run(self) -> Result<(), CliError> {
        fresh_output(&self.out, std::slice::from_ref(&self.file))?;
        let games = read_games(std::slice::from_ref(&self.file))?;
        let mut text = String::new();
        for (k, g) in games.iter().enumerate() {
            let p = Puzzle::from_pdn(g).map_err(|e| input(format!("puzzle {}: {e}", k + 1)))?;
            text.push_str(&poolshark_engine::puzzle::set::line(&p));
        }
        poolshark_host::files::save(&self.out, text.as_bytes())
            .map_err(|e| runtime(format!("cannot write {e}")))?;
        outln!("packed {} puzzles", games.len());
        Ok(())
    }
}
