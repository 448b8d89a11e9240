//! The opening book commands: `book build`, `book show` and `book merge`.

use super::args::{PositionArgs, SearchArgs};
use super::{input, CliError};
use poolshark_engine::book::{build, tree, Book};
use poolshark_engine::core::{notation, Position};
use poolshark_engine::search::{Limits, Score};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Nodes per searched move when `book build` is given neither `--nodes` nor `--depth`.
const DEFAULT_BUILD_NODES: u64 = 20_000;

#[derive(clap::Subcommand)]
pub enum BookCommand {
    /// Grow a book from the start position by dropout expansion: every move of a book
    /// position is searched, scores are minimaxed, and the cheapest line to deepen goes next.
    /// The book is saved after every position, so the build can be stopped (Ctrl-C) and run
    /// again to resume from --out.
    Build(BuildArgs),
    /// List the book moves of a position, best first, with their scores (men, side to move).
    Show(ShowArgs),
    /// Join two books into a third and minimax the scores again.
    Merge(MergeArgs),
}

impl BookCommand {
    pub fn run(self) -> Result<(), CliError> {
        match self {
            BookCommand::Build(a) => a.run(),
            BookCommand::Show(a) => a.run(),
            BookCommand::Merge(a) => a.run(),
        }
    }
}

/// The options of `poolshark book build`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes"])))]
pub struct BuildArgs {
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
    #[command(flatten)]
    search: SearchArgs,
    /// The book file: read first if it exists (resume), written after every position.
    #[arg(long, default_value = "poolshark.book")]
    out: PathBuf,
}

impl BuildArgs {
    /// Grows the book, saving `--out` after every position; progress goes to stderr.
    pub fn run(self) -> Result<(), CliError> {
        let out = &self.out;
        let cannot_write = |e: poolshark_host::files::FileError| input(format!("cannot write {e}"));
        // Before the build's first search, rather than at its first save.
        poolshark_host::files::check_output(out).map_err(cannot_write)?;
        let mut book = self.resume()?;
        let cfg = self.config();
        let start = Instant::now();
        let mut saved = Ok(());
        let grown = build::grow(&mut book, &cfg, &mut |book, p| {
            saved = poolshark_host::book::save(book, out);
            errln!(
                "positions {} ply {} root {} time {:.1}s",
                p.positions,
                p.ply,
                Score(p.root_score).hub(),
                start.elapsed().as_secs_f64()
            );
            saved.is_ok()
        });
        grown.map_err(|e| self.search.table_error(e))?;
        saved.map_err(cannot_write)?;
        poolshark_host::book::save(&book, out).map_err(cannot_write)?;
        outln!(
            "positions {} bytes {} time {:.1}s file {}",
            book.len(),
            book.to_bytes().len(),
            start.elapsed().as_secs_f64(),
            out.display()
        );
        Ok(())
    }
}

impl BuildArgs {
    /// The book in `--out` to resume from, or an empty one; a file that is not a book is an
    /// error, and is left as it is.
    fn resume(&self) -> Result<Book, CliError> {
        let out = &self.out;
        if !out.exists() {
            return Ok(Book::new());
        }
        let book = poolshark_host::book::load(out)
            .map_err(|e| input(format!("{}: {e} (not overwritten)", out.display())))?;
        errln!("resuming from {} ({} positions)", out.display(), book.len());
        Ok(book)
    }

    /// The build's settings: `--nodes`, `--depth`, or by default `DEFAULT_BUILD_NODES`.
    fn config(&self) -> build::BuildConfig {
        let default_nodes = self.depth.is_none().then_some(DEFAULT_BUILD_NODES);
        build::BuildConfig {
            plies: self.plies,
            positions: self.positions as usize,
            limits: Limits {
                depth: self.depth,
                nodes: self.nodes.or(default_nodes),
                ..Limits::default()
            },
            threads: self.search.threads as usize,
            hash_mb: self.search.hash as usize,
        }
    }
}

/// The options of `poolshark book show`.
#[derive(clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Book file (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
}

impl ShowArgs {
    /// Prints each book move a line: Hub notation, PDN notation, score; or `no book moves`.
    pub fn run(self) -> Result<(), CliError> {
        let game = self.position.game()?;
        let book = match &self.book {
            Some(path) => poolshark_host::book::load(path),
            None => Book::builtin(),
        }
        .map_err(|e| input(e.to_string()))?;
        let pos = game.position();
        let moves = book.moves(pos);
        if moves.is_empty() {
            outln!("no book moves");
        }
        for m in moves {
            outln!(
                "{} {} {}",
                m.mv.hub(),
                notation::pdn_move(pos, &m.mv),
                Score(m.score as i32).hub()
            );
        }
        Ok(())
    }
}

/// The options of `poolshark book merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    a: PathBuf,
    b: PathBuf,
    #[arg(long)]
    out: PathBuf,
}

impl MergeArgs {
    /// Writes the merged book to `--out` and prints `positions <n> file <path>`.
    pub fn run(self) -> Result<(), CliError> {
        let load = |p: &Path| {
            poolshark_host::book::load(p).map_err(|e| input(format!("{}: {e}", p.display())))
        };
        let merged = tree::merge(&load(&self.a)?, &load(&self.b)?, &Position::start());
        poolshark_host::book::save(&merged, &self.out)
            .map_err(|e| input(format!("cannot write {e}")))?;
        outln!("positions {} file {}", merged.len(), self.out.display());
        Ok(())
    }
}
