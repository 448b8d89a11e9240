//! Finding a puzzle in a position, and proving its solution.
//!
//! 1. Screen: two lines at the finder's nodes. The best move must beat the second by a
//!    clear margin (a man, or a win against no win), and either win (`WIN_FROM`, the second
//!    not already winning) or hold (`HOLD_FROM`) where the others lose.
//! 2. Prove, step by step from the position, with a fresh table: at the solver's turn, two
//!    lines `PROOF_FACTOR` times deeper than the screen (or, with `TABLE_PIECES` pieces or
//!    fewer, every move looked up in the endgame tables, which must then cover it) must show
//!    one move that keeps the goal and every other short of it by the margin; the other side
//!    replies with its best defence (one deeper line, the tables' longest resistance).
//! 3. Stop where the point is made: for a win, the material gained (a man or more) with no
//!    capture pending, or a crowning that decides, or the game won, or the tables' win no
//!    longer needing one move; for a save, the solver's choice free again. Where the solver
//!    has several good moves before that, or the line grows past `MAX_SOLVER_MOVES`, there
//!    is no puzzle. The solution ends with the solver's move.
//!
//! The positions come without their game's history: a FEN holds no move counts, so the draw
//! counts start afresh, and a position whose verdict in the tables hangs on the 40-move count
//! (a cursed win, a blessed loss) or under the 13-move count (three kings against one) is
//! no puzzle. Every search is single-threaded at a node limit on a table of a fixed size,
//! cleared for each position: the same position gives the same puzzle on any machine.

use super::params::{
    Centimen, ALREADY_WON, CROWN_DECIDES, DECIDED, HASH_MB, HOLD_FROM, MAN, MARGIN,
    MAX_SOLVER_MOVES, PROOF_FACTOR, TABLE_PIECES, WIN_FROM,
};
use super::{balance, Goal};
use crate::core::game::lone_king_side;
use crate::core::{movegen, Game, Move, Position};
use crate::egdb::{Egdb, Wdl, Wdl50};
use crate::search::{Engine, Limits, Line, Score, SearchControl};
use std::sync::Arc;

/// A puzzle found and proved, before it is rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub position: Position,
    pub goal: Goal,
    pub solution: Vec<Move>,
    /// The endgame tables proved its first step.
    pub by_tables: bool,
}

/// Why a position is no puzzle (counted in the progress line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The screen found no move clearly better than the rest.
    Screen,
    /// The deeper proof did not hold, or the line never made its point.
    Proof,
    /// Few enough pieces for the tables, which do not cover it.
    NoTables,
    /// Its verdict hangs on the draw counts.
    Counts,
}

/// A finder: an engine of its own (one thread), the tables if any, its nodes.
pub struct Finder {
    engine: Engine,
    egdb: Option<Arc<Egdb>>,
    screen_nodes: u64,
}

/// What one step of the proof says of the solver's moves.
enum Step {
    /// One move keeps the goal, every other falls short by the margin.
    Only(Move),
    /// Several keep it.
    Several,
    /// None does.
    Lost,
}

/// A table verdict of a move for the side that plays it.
fn class(w: Wdl) -> Centimen {
    match w {
        Wdl::Win => DECIDED,
        Wdl::Draw => 0,
        Wdl::Loss => -DECIDED,
    }
}

/// A score as the finder weighs it: proved and table results far beyond any evaluation.
fn weight(s: Score) -> Centimen {
    if s.is_win() || s.is_db_win() {
        DECIDED
    } else if s.is_loss() || s.is_db_loss() {
        -DECIDED
    } else {
        s.0.clamp(-DECIDED + 1, DECIDED - 1)
    }
}

/// Whether `best` and `second` (weights) make a puzzle toward `goal` at its first step.
fn opens(goal: Goal, best: Centimen, second: Centimen) -> bool {
    best - second >= MARGIN
        && match goal {
            Goal::Win => best >= WIN_FROM && second < ALREADY_WON,
            Goal::Save => (HOLD_FROM..WIN_FROM).contains(&best),
        }
}

/// Whether `best` still keeps `goal` at a later step, the second short of it.
fn keeps(goal: Goal, best: Centimen) -> bool {
    match goal {
        Goal::Win => best >= WIN_FROM,
        Goal::Save => best >= HOLD_FROM,
    }
}

impl Finder {
    /// A finder whose screen searches `screen_nodes` a position, with `egdb` for the
    /// positions it covers.
    pub fn new(egdb: Option<Arc<Egdb>>, screen_nodes: u64) -> Finder {
        let mut engine = Engine::new(HASH_MB, 1);
        engine.egdb = egdb.clone();
        Finder {
            engine,
            egdb: egdb.filter(|db| db.max_pieces() > 0),
            screen_nodes,
        }
    }

    /// Lines of `game`'s position at `nodes`.
    fn lines(&self, game: &Game, nodes: u64, multipv: usize) -> Vec<Line> {
        let limits = Limits {
            nodes: Some(nodes),
            multipv,
            analyze: true,
            ..Limits::default()
        };
        self.engine
            .search(game, &limits, &SearchControl::new(), &mut |_| {})
            .lines
    }

    fn proof_nodes(&self) -> u64 {
        self.screen_nodes.saturating_mul(PROOF_FACTOR)
    }

    /// The tables cover `pos` (every group it and its successors need is in them).
    fn tables_for(&self, pos: &Position) -> Option<&Egdb> {
        self.egdb
            .as_deref()
            .filter(|db| pos.occupied().count() <= db.max_pieces())
    }

    /// The puzzle at `pos`, if there is one, or why not.
    pub fn examine(&mut self, pos: &Position) -> Result<Found, Miss> {
        let goal = self.screen(pos)?;
        self.prove(pos, goal)
    }

    /// 1. The screen: the goal a puzzle at `pos` would have.
    pub fn screen(&mut self, pos: &Position) -> Result<Goal, Miss> {
        if movegen::legal_moves(pos).len() < 2 || lone_king_side(pos).is_some() {
            return Err(Miss::Screen);
        }
        self.engine.clear();
        let lines = self.lines(&Game::new(*pos), self.screen_nodes, 2);
        let [best, second] = [0, 1].map(|k| lines.get(k).map_or(-DECIDED, |l| weight(l.score)));
        [Goal::Win, Goal::Save]
            .into_iter()
            .find(|&g| opens(g, best, second))
            .ok_or(Miss::Screen)
    }

    /// The solver's step at `game`'s position: by the tables where they cover it, else by
    /// the deeper search. `first` asks for the first step's test (`opens`). Also returns
    /// the best move's weight.
    fn step(&self, game: &Game, goal: Goal, first: bool) -> Result<(Step, Centimen), Miss> {
        let pos = game.position();
        let pieces = pos.occupied().count();
        if pieces <= TABLE_PIECES {
            let db = self.tables_for(pos).ok_or(Miss::NoTables)?;
            return table_step(db, pos, goal, first).map(|s| {
                let w = match s {
                    Step::Only(_) | Step::Several => match goal {
                        Goal::Win => DECIDED,
                        Goal::Save => 0,
                    },
                    Step::Lost => -DECIDED,
                };
                (s, w)
            });
        }
        let lines = self.lines(game, self.proof_nodes(), 2);
        let [best, second] = [0, 1].map(|k| lines.get(k).map_or(-DECIDED, |l| weight(l.score)));
        let mv = lines.first().and_then(|l| l.pv.first().copied());
        let step = match mv {
            None => Step::Lost,
            Some(_) if !keeps(goal, best) => Step::Lost,
            Some(_) if first && !opens(goal, best, second) => Step::Lost,
            Some(_) if best - second < MARGIN => Step::Several,
            Some(mv) => Step::Only(mv),
        };
        Ok((step, best))
    }

    /// The other side's best defence at `game`'s position.
    fn defence(&self, game: &Game) -> Option<Move> {
        let moves = movegen::legal_moves(game.position());
        if moves.len() == 1 {
            return Some(moves[0]);
        }
        let lines = self.lines(game, self.proof_nodes(), 1);
        lines.first().and_then(|l| l.pv.first().copied())
    }

    /// 2 and 3. The proof of a puzzle toward `goal` at `start`, and its solution.
    pub fn prove(&mut self, start: &Position, goal: Goal) -> Result<Found, Miss> {
        let solver = start.side();
        let base = balance(start, solver);
        self.engine.clear();
        let mut game = Game::new(*start);
        let mut solution: Vec<Move> = Vec::new();
        let mut solver_moves = 0;
        let mut crowned = false;
        let mut by_tables = false;
        loop {
            let pos = *game.position();
            let moves = movegen::legal_moves(&pos);
            if moves.is_empty() {
                // The side to move has lost (R16): the solver won, or the save failed.
                if pos.side() != solver && goal == Goal::Win {
                    break;
                }
                return Err(Miss::Proof);
            }
            if pos.side() != solver {
                let mv = self.defence(&game).ok_or(Miss::Proof)?;
                solution.push(mv);
                game.play(&mv);
                continue;
            }
            let first = solver_moves == 0;
            let quiet = !movegen::has_capture(&pos);
            if first && pos.occupied().count() <= TABLE_PIECES {
                let db = self.tables_for(&pos).ok_or(Miss::NoTables)?;
                let p = db.probe(&pos).ok_or(Miss::NoTables)?;
                if !counts_agree(p.wdl, p.wdl50) {
                    return Err(Miss::Counts);
                }
                by_tables = true;
            }
            let (step, eval) = if moves.len() == 1 && !first {
                (Step::Only(moves[0]), DECIDED)
            } else {
                self.step(&game, goal, first)?
            };
            let made = !first
                && quiet
                && match goal {
                    Goal::Win => {
                        (balance(&pos, solver) - base >= MAN && eval >= WIN_FROM)
                            || (crowned && eval >= CROWN_DECIDES)
                    }
                    Goal::Save => false,
                };
            let mv = match step {
                _ if made => break,
                Step::Only(mv) => mv,
                Step::Several if !first => break,
                Step::Several | Step::Lost => return Err(Miss::Proof),
            };
            if solver_moves == MAX_SOLVER_MOVES {
                return Err(Miss::Proof);
            }
            if !pos.kings().contains(mv.from) && Position::crowning_row(solver).contains(mv.to) {
                crowned = true;
            }
            solver_moves += 1;
            solution.push(mv);
            game.play(&mv);
        }
        // A win must have gained; a save ends where the solver's choice is free again.
        if goal == Goal::Win && !won_something(&game, start, base, crowned, by_tables) {
            return Err(Miss::Proof);
        }
        // The solution ends with the solver's move.
        if solution.len().is_multiple_of(2) {
            solution.pop();
        }
        if solution.is_empty() {
            return Err(Miss::Proof);
        }
        Ok(Found {
            position: *start,
            goal,
            solution,
            by_tables,
        })
    }
}

impl Finder {
    /// Prove a stored `solution` toward `goal` from `start` again, along its own line: each
    /// solver move (with a choice) the one move that keeps the goal, by the tables or by a
    /// search `PROOF_FACTOR` times the finder's nodes, every reply legal, and the point made
    /// at its end (for a win: the game, a man or more, a crowning, or the tables' win).
    pub fn verify(&mut self, start: &Position, goal: Goal, solution: &[Move]) -> Result<(), Miss> {
        let solver = start.side();
        let base = balance(start, solver);
        self.engine.clear();
        let mut game = Game::new(*start);
        let mut crowned = false;
        let mut by_tables = false;
        for (k, mv) in solution.iter().enumerate() {
            let pos = *game.position();
            let moves = movegen::legal_moves(&pos);
            if !moves.contains(mv) {
                return Err(Miss::Proof);
            }
            if k % 2 == 0 {
                if k == 0 && pos.occupied().count() <= TABLE_PIECES {
                    let db = self.tables_for(&pos).ok_or(Miss::NoTables)?;
                    let p = db.probe(&pos).ok_or(Miss::NoTables)?;
                    if !counts_agree(p.wdl, p.wdl50) {
                        return Err(Miss::Counts);
                    }
                    by_tables = true;
                }
                if moves.len() > 1 || k == 0 {
                    match self.step(&game, goal, k == 0)?.0 {
                        Step::Only(best) if best == *mv => {}
                        _ => return Err(Miss::Proof),
                    }
                }
                if !pos.kings().contains(mv.from) && Position::crowning_row(solver).contains(mv.to)
                {
                    crowned = true;
                }
            }
            game.play(mv);
        }
        if solution.len().is_multiple_of(2) {
            return Err(Miss::Proof);
        }
        // The point is judged after the other side's best reply, as the proof judged it.
        if goal == Goal::Win && !movegen::legal_moves(game.position()).is_empty() {
            let reply = self.defence(&game).ok_or(Miss::Proof)?;
            game.play(&reply);
            if !won_something(&game, start, base, crowned, by_tables) {
                return Err(Miss::Proof);
            }
        }
        Ok(())
    }
}

/// Whether the line played in `game` from `start` won something plain: the game, a man or
/// more, a crowning, or a win the tables proved.
fn won_something(
    game: &Game,
    start: &Position,
    base: Centimen,
    crowned: bool,
    by_tables: bool,
) -> bool {
    let solver = start.side();
    let pos = game.position();
    let over = movegen::legal_moves(pos).is_empty() && pos.side() != solver;
    over || by_tables || crowned || balance(pos, solver) - base >= MAN
}

/// The tables' verdict does not hang on the 40-move count.
fn counts_agree(wdl: Wdl, wdl50: Wdl50) -> bool {
    matches!(
        (wdl, wdl50),
        (Wdl::Win, Wdl50::Win) | (Wdl::Draw, Wdl50::Draw) | (Wdl::Loss, Wdl50::Loss)
    )
}

/// The solver's step by the tables: each move's verdict for the solver; one move keeping the
/// goal (a win; a draw for a save) where every other falls below it.
fn table_step(db: &Egdb, pos: &Position, goal: Goal, first: bool) -> Result<Step, Miss> {
    let mut verdicts: Vec<(Move, Centimen)> = Vec::new();
    for mv in movegen::legal_moves(pos).iter() {
        let after = pos.play(mv);
        let v = if movegen::legal_moves(&after).is_empty() {
            DECIDED
        } else {
            let p = db.probe(&after).ok_or(Miss::NoTables)?;
            if !counts_agree(p.wdl, p.wdl50) {
                return Err(Miss::Counts);
            }
            -class(p.wdl)
        };
        verdicts.push((*mv, v));
    }
    let best = verdicts.iter().map(|v| v.1).max().unwrap_or(-DECIDED);
    let want = match goal {
        Goal::Win => DECIDED,
        Goal::Save => 0,
    };
    if best != want {
        return Ok(Step::Lost);
    }
    let keeping: Vec<Move> = verdicts
        .iter()
        .filter(|v| v.1 == best)
        .map(|v| v.0)
        .collect();
    Ok(match keeping.as_slice() {
        [mv] => Step::Only(*mv),
        _ if first => Step::Lost,
        _ => Step::Several,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{parse_fen, parse_move};

    /// The shot of `themes`' test is found, proved, and proved again along its line; a
    /// quiet opening position is no puzzle.
    #[test]
    fn a_shot_is_found_and_proved_and_the_start_is_no_puzzle() {
        let pos = parse_fen("B:W17,18,19,20,21,22,27,28,29,30,32:B1,3,4,5,6,8,9,11,12,13").unwrap();
        let mut f = Finder::new(None, 20_000);
        let found = f.examine(&pos).expect("a puzzle");
        assert_eq!(found.goal, Goal::Win);
        let mut at = pos;
        let want: Vec<Move> = ["11-16", "20x11", "8x15x24x31"]
            .iter()
            .map(|m| {
                let mv = parse_move(&at, m).unwrap();
                at = at.play(&mv);
                mv
            })
            .collect();
        assert_eq!(found.solution, want);
        assert_eq!(f.verify(&pos, Goal::Win, &found.solution), Ok(()));
        // Stopped short of the capture, it proves nothing.
        assert_eq!(
            f.verify(&pos, Goal::Win, &found.solution[..1]),
            Err(Miss::Proof)
        );
        assert_eq!(f.examine(&Position::start()).err(), Some(Miss::Screen));
    }

    /// With few pieces the tables decide, and without them there is no proof.
    #[test]
    fn few_pieces_need_the_tables() {
        let pos = parse_fen("W:W9:B28,K30").unwrap();
        let mut f = Finder::new(None, 20_000);
        let verdict = f.screen(&pos).and_then(|g| f.prove(&pos, g));
        assert!(
            matches!(verdict, Err(Miss::NoTables) | Err(Miss::Screen)),
            "{verdict:?}"
        );
    }
}
