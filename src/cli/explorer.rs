//! The opening explorer's commands: `explorer build` makes its games file from PDN games
//! (`books/explorer.games`, built into the binary: scripts/make-explorer.sh), and `explorer
//! show` lists a position's moves as the board's explorer does.

use super::args::PositionArgs;
use super::puzzles::{fresh_output, read_games};
use super::{input, CliError};
use poolshark_engine::book::explorer::{self, GameSet, Outcome, MAX_PLIES};
use poolshark_engine::core::{notation, Position};
use poolshark_engine::search::Score;
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum ExplorerCommand {
    /// Write the explorer's games file from PDN games: a line a game, its result, then its
    /// first --plies moves. Games from another start than the usual one are left out (and
    /// counted). Ends with `explorer <games> games <plies> plies`.
    Build(BuildArgs),
    /// A position's explorer moves, a line each: Hub, PDN, the book's score (men, side to
    /// move; `-` off the book), then the games through it and how they ended:
    /// `games <n> black <n> draws <n> white <n>`.
    Show(ShowArgs),
}

impl ExplorerCommand {
    pub fn run(self) -> Result<(), CliError> {
        match self {
            ExplorerCommand::Build(a) => a.run(),
            ExplorerCommand::Show(a) => a.run(),
        }
    }
}

/// The options of `poolshark explorer build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// PDN files of games.
    #[arg(long, required = true, num_args = 1..)]
    pdn: Vec<PathBuf>,
    /// The games file to write (not one that is there).
    #[arg(long)]
    out: PathBuf,
    /// The moves kept of each game.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=MAX_PLIES as u64))]
    plies: u64,
    /// What the games are, in words (the file's `# about:` line, which the board shows).
    #[arg(long)]
    about: String,
}

impl BuildArgs {
    pub fn run(self) -> Result<(), CliError> {
        fresh_output(&self.out, &self.pdn)?;
        if self.about.trim().is_empty() || self.about.contains('\n') {
            return Err(input("--about: say what the games are, on one line"));
        }
        let games = read_games(&self.pdn)?;
        let start = Position::start();
        let mut kept = Vec::new();
        let mut other_start = 0;
        for g in games {
            if g.start != start {
                other_start += 1;
                continue;
            }
            let result = Outcome::from_pdn(&g.result).unwrap_or(Outcome::Unknown);
            kept.push((result, g.moves));
        }
        if kept.is_empty() {
            return Err(input("no game from the usual start in the PDN files"));
        }
        let text = GameSet::write(&kept, &self.about, self.plies as usize);
        // Read back as the board reads it before it is written.
        let set = GameSet::parse(&text).map_err(|e| input(e.to_string()))?;
        poolshark_host::files::save(&self.out, text.as_bytes())
            .map_err(|e| input(format!("cannot write {e}")))?;
        if other_start > 0 {
            errln!("left out {other_start} games from another start position");
        }
        outln!("explorer {} games {} plies", set.len(), self.plies);
        Ok(())
    }
}

/// The options of `poolshark explorer show`.
#[derive(clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
}

impl ShowArgs {
    pub fn run(self) -> Result<(), CliError> {
        let game = self.position.game()?;
        let pos = game.position();
        let moves = explorer::explore(explorer::builtin_book(), GameSet::builtin(), pos);
        if moves.is_empty() {
            outln!("no explorer moves");
        }
        for e in moves {
            let t = e.tally;
            outln!(
                "{} {} {} games {} black {} draws {} white {}",
                e.mv.hub(),
                notation::pdn_move(pos, &e.mv),
                e.score.map_or("-".into(), |s| Score(s as i32).hub()),
                t.games,
                t.black,
                t.draws,
                t.white
            );
        }
        Ok(())
    }
}
