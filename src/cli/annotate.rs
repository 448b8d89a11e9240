//! `poolshark annotate`: review the games of a PDN file (`review`) and write them again with
//! a score after every move of the main line, marks on the moves that gave value away, and a
//! summary line per game; variations and comments are kept.

use super::args::{parse_seconds, EgdbArg, EngineArgs};
use super::{input, runtime, CliError};
use poolshark_engine::core::pdn::{self, move_number, ErrorKind, PdnError, PdnGame, TreeGame};
use poolshark_engine::review::marks::{BLUNDER_MEN, INACCURACY_MEN, MISTAKE_MEN};
use poolshark_engine::review::{self, Budget, ReviewControl};
use poolshark_host::files::FileError;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `annotate --help`: the marks and their thresholds, from their constants.
pub fn long_about() -> String {
    format!(
        "Review the games of a PDN file: search every position once and write the games \
         again as PDN, each move followed by `{{[%eval S]}}`, the score after it in men from \
         Black's side (99.xx a proved win, 89.xx a database win, 0.00 a draw the rules force). \
         A move that gives away {INACCURACY_MEN:.2} men or more is marked `?!`, {MISTAKE_MEN:.2} \
         or more `?`, {BLUNDER_MEN:.2} or more `??` (a man dropped in a level position), and so \
         is a win given up for a draw or a draw for a loss (`??`); a marked move's comment also \
         names the best move with its score: `{{[%eval -3.10] best 9-14 [%eval 0.05]}}`. The \
         best move, and a move that keeps a win, a loss or a proved draw, are never marked. \
         Prints a summary line per game, `game K: black inaccuracies I mistakes M blunders B \
         mean-loss L; white ...`, on stdout with --out, else on stderr. Without a limit each \
         position is searched with {} (the same review every run on one thread). docs/ANNOTATE.md gives the rules and measurements.",
        Budget::DEFAULT
    )
}

/// The options of `poolshark annotate`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime"])))]
pub struct AnnotateArgs {
    /// The PDN file of games to review.
    #[arg(long, value_name = "FILE")]
    pdn: PathBuf,
    /// Review only game K of the file (from 1), and write only it.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
    /// Search each position this many seconds.
    #[arg(long, value_parser = parse_seconds)]
    movetime: Option<f64>,
    /// Search each position to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Search each position this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
    /// Write the annotated games here (saved whole at the end) instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// A PDN error as annotate reports it: the file, the game, a bad move by its number and
/// text, and where it stands (`game 2: move 3... '22-17' (ply 4) at line 5, column 9: ...`).
fn pdn_error(path: &Path, e: PdnError) -> CliError {
    let (game, at) = (e.game, e.at);
    let place = format!("at line {}, column {}", at.line, at.column);
    let what = match e.kind {
        ErrorKind::BadMove { ply, text, error } => format!(
            "game {game}: move {} '{text}' (ply {ply}) {place}: {error}",
            move_number(ply)
        ),
        ErrorKind::AfterEnd { ply, text, end } => format!(
            "game {game}: move {} '{text}' (ply {ply}) {place} after the game ended ({end})",
            move_number(ply)
        ),
        _ => e.to_string(),
    };
    input(format!("{}: {what}", path.display()))
}

/// A game as read from the file at `path` (one open at the end is reviewed as it reads), or
/// why it cannot be.
fn game<G>(path: &Path, read: Result<pdn::Ending<G>, FileError>) -> Result<G, CliError> {
    let ending = read.map_err(|e| input(format!("cannot read {e}")))?;
    ending.game().map_err(|e| pdn_error(path, e))
}

/// The games of the PDN file to review, whole (variations and comments too), each with its
/// number in the file (from 1): every game, or game `only` alone (the others are skipped,
/// never built, so memory holds the one game whatever the file's size); and how many games
/// the file holds. The first error ends the reading.
fn read_games(
    path: &Path,
    only: Option<usize>,
) -> Result<(Vec<(usize, TreeGame)>, usize), CliError> {
    let lines = poolshark_host::files::lines(path, pdn::MAX_MOVETEXT)
        .map_err(|e| input(format!("cannot read {e}")))?;
    let mut games = Vec::new();
    let mut count = 0;
    match only {
        None => {
            for g in pdn::games(lines, pdn::TreeBuilder::default()) {
                count += 1;
                games.push((count, game(path, g)?));
            }
        }
        Some(k) => {
            for g in pdn::games(lines, pdn::Only::new(k, pdn::TreeBuilder::default())) {
                count += 1;
                games.extend(game(path, g)?.map(|g| (count, g)));
            }
        }
    }
    Ok((games, count))
}

impl AnnotateArgs {
    fn budget(&self) -> Budget {
        match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => Budget::Depth(d),
            (_, Some(n), _) => Budget::Nodes(n),
            (_, _, Some(s)) => Budget::MoveTime(Duration::from_secs_f64(s)),
            _ => Budget::DEFAULT,
        }
    }

    /// Reviews the chosen games with a progress bar on stderr, printing each game's summary
    /// line as it ends, then writes the annotated PDN.
    pub fn run(self) -> Result<(), CliError> {
        if let Some(out) = &self.out {
            // Saving the review over the games it reviews would replace them.
            if let (Ok(a), Ok(b)) = (out.canonicalize(), self.pdn.canonicalize()) {
                if a == b {
                    return Err(input(format!(
                        "--out {} is the --pdn file itself: write the review to another file",
                        out.display()
                    )));
                }
            }
            poolshark_host::files::check_output(out)
                .map_err(|e| input(format!("cannot write {e}")))?;
        }
        let weights = self.engine.weights.load()?;
        let only = self.game.map(|k| usize::try_from(k).unwrap_or(usize::MAX));
        let (chosen, count) = read_games(&self.pdn, only)?;
        if count == 0 {
            return Err(input(format!("{}: no games", self.pdn.display())));
        }
        if let (Some(k), true) = (self.game, chosen.is_empty()) {
            return Err(input(format!(
                "--game {k}: {} has {count} game{}",
                self.pdn.display(),
                if count == 1 { "" } else { "s" }
            )));
        }
        let mut engine = self.engine.search.engine()?;
        engine.weights = weights;
        engine.egdb = self.egdb.open(true)?;
        let budget = self.budget();
        let plies: usize = chosen
            .iter()
            .map(|(_, g)| g.tree.main_line().len() - 1)
            .sum();
        let bar = indicatif::ProgressBar::new(plies as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "annotate [{wide_bar}] {pos}/{len} moves, {msg}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        let mut text = String::new();
        let control = ReviewControl::new();
        for (n, (k, game)) in chosen.iter().enumerate() {
            bar.set_message(format!("game {}/{}", n + 1, chosen.len()));
            engine.clear();
            // The main line is reviewed; the variations are written back as they were.
            let main = PdnGame::from(game.clone());
            let mut notes = Vec::with_capacity(main.moves.len());
            let summary = review::review(&main.replay(), budget, &engine, &control, |ply| {
                notes.push(ply.note());
                bar.inc(1);
            });
            if !summary.complete {
                bar.finish_and_clear();
                return Err(runtime(format!("game {k}: the review stopped part way")));
            }
            let pdn = game.write_with_notes(&notes);
            let line = summary.line(*k);
            if self.out.is_some() {
                text.push_str(&pdn);
                bar.suspend(|| outln!("{line}"));
            } else {
                bar.suspend(|| {
                    out!("{pdn}");
                    errln!("{line}");
                });
            }
        }
        bar.finish_and_clear();
        if let Some(out) = &self.out {
            poolshark_host::files::save(out, text.as_bytes())
                .map_err(|e| runtime(format!("cannot write {e}")))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_numbered_in_pairs() {
        assert_eq!(move_number(1), "1.");
        assert_eq!(move_number(2), "1...");
        assert_eq!(move_number(5), "3.");
        assert_eq!(move_number(6), "3...");
    }
}
