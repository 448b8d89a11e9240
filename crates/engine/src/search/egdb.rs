//! The endgame tables inside the search: the score of a position they cover under the draw
//! counts in force, and the move that converts a database win fastest at the root.
//!
//! A table value is for a fresh 40-move count (R18). With the count at `c`, a win is kept
//! only when its dtc fits in the `80 - c` plies left, and likewise a loss; cursed wins and
//! blessed losses are draws. (Exact at a fresh count; with a running count it trusts the dtc
//! line, which may pass through a win that is cursed at its own fresh count: a rare miss.)
//! Three kings against one with the 13-move count running use the lone-king table (R19).
//! Database wins score `89.xx` (`Score::db_win`), draws `0.00`; a side with no move left (its
//! last piece taken, or every piece blocked) has lost by the rules (R16), which is a proved
//! loss (`Score::loss_in`, `99.xx` for the winner), not a database one. The root shortcut
//! never plays into a position that has stood on the board before (the game's history since
//! the last capture or man move): the fastest conversion may be a repetition when the tables
//! came in during the ending. A principal variation that
//! ends in a position the tables decide goes on with their line (`extend_pv`): the winner
//! converting fastest, the loser holding out longest.

use crate::core::game::DrawCounts;
use crate::core::rules::FORTY_MOVE_PLIES;
use crate::core::{movegen, Move, Position};
use crate::egdb::{Egdb, Wdl, Wdl50};
use crate::search::score::Score;

/// The folder of endgame tables a front end uses when none is named (the Hub, analyze).
pub const DEFAULT_DIR: &str = "egdb";

/// The result and dtc of `pos` for its side to move under `counts`, if the tables cover it
/// (capture positions included).
fn value(db: &Egdb, pos: &Position, counts: DrawCounts) -> Option<(Wdl, i32)> {
    value_and_stake(db, pos, counts).map(|(w, dtc, _)| (w, dtc))
}

/// `value`, with the plies the result needs (`TableScore::stake`).
fn value_and_stake(db: &Egdb, pos: &Position, counts: DrawCounts) -> Option<(Wdl, i32, u32)> {
    let p = db.probe(pos)?;
    let dtc = i32::from(p.dtc.unwrap_or(0));
    if let Some(n) = counts.lone_king_moves {
        // Without the lone-king table (a damaged file), the main table would ignore R19.
        return db.probe_lone_king(pos, u32::from(n)).map(|w| (w, dtc, 0));
    }
    let left = FORTY_MOVE_PLIES.saturating_sub(u32::from(counts.quiet_king_plies)) as i32;
    // A win or loss under R18 needs its dtc, also where the count running now has already
    // made it a draw (at a lower count it is a win again).
    let stake = dtc.max(0) as u32;
    Some(match p.wdl50 {
        Wdl50::Win if dtc <= left => (Wdl::Win, dtc, stake),
        Wdl50::Loss if dtc <= left => (Wdl::Loss, dtc, stake),
        Wdl50::Win | Wdl50::Loss => (Wdl::Draw, 0, stake),
        _ => (Wdl::Draw, 0, 0),
    })
}

/// What the tables say of a position inside the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableScore {
    pub score: Score,
    /// The plies without a capture or man move the result needs under the 40-move count:
    /// the dtc of a win or loss under that rule (also when the count running now has
    /// already made it a draw), 0 for what is a draw at any count (the tables' draws, cursed
    /// wins, blessed losses) and under the lone-king count (R19), which the search's table
    /// key tells apart anyway.
    pub stake: u32,
}

/// The score of a position the tables cover with no capture pending (the search resolves
/// captures itself), `ply` plies from the root.
pub fn score(db: &Egdb, pos: &Position, counts: DrawCounts, ply: usize) -> Option<Score> {
    probe(db, pos, counts, ply).map(|t| t.score)
}

/// `score`, with the plies the result needs (`TableScore::stake`).
pub fn probe(db: &Egdb, pos: &Position, counts: DrawCounts, ply: usize) -> Option<TableScore> {
    if movegen::has_capture(pos) {
        return None;
    }
    let (w, dtc, stake) = value_and_stake(db, pos, counts)?;
    let score = match w {
        Wdl::Win => Score::db_win(ply as i32 + dtc),
        Wdl::Draw => Score::DRAW,
        Wdl::Loss if movegen::count_moves(pos) == 0 => Score::loss_in(ply as i32),
        Wdl::Loss => Score::db_loss(ply as i32 + dtc),
    };
    Some(TableScore { score, stake })
}

/// At a root the tables prove won: the move that keeps the win and reaches the next capture
/// or man move fastest, with its score (a proved win when it leaves the opponent no move).
/// `history`: the keys of the game's positions before the root that a move can repeat
/// (`Game::repetition_keys`); a move into one of them is never chosen.
/// None when the root is not a database win, or every winning move repeats (the search
/// then decides, with the repetition rule).
pub fn root_move(
    db: &Egdb,
    pos: &Position,
    counts: DrawCounts,
    history: &[u64],
) -> Option<(Move, Score)> {
    let (Wdl::Win, _) = value(db, pos, counts)? else {
        return None;
    };
    let seen = |next: &Position| history.contains(&next.key());
    let (mv, plies) = best_move(db, pos, counts, Wdl::Loss, &seen)?;
    let score = if plies == 0 {
        Score::win_in(1)
    } else {
        Score::db_win(plies)
    };
    Some((mv, score))
}

/// The tables' move at `pos` for its side to move, whatever the root's value: a win
/// converted fastest (`root_move`), a loss held out longest, a draw kept (the first move into
/// a draw, or at least into no loss). Moves into a position of `history` are not played
/// (as `root_move`). None where the tables do not cover the position or its moves.
pub fn table_move(db: &Egdb, pos: &Position, counts: DrawCounts, history: &[u64]) -> Option<Move> {
    let (root, _) = value(db, pos, counts)?;
    let seen = |next: &Position| history.contains(&next.key());
    match root {
        Wdl::Win => root_move(db, pos, counts, history).map(|(mv, _)| mv),
        Wdl::Loss => best_move(db, pos, counts, Wdl::Win, &seen).map(|(mv, _)| mv),
        Wdl::Draw => best_move(db, pos, counts, Wdl::Draw, &seen).map(|(mv, _)| mv),
    }
}

/// The move into a child of value `child` (for the child's side to move) that reaches the
/// next capture or man move soonest (the winner's choice: `child` a loss) or latest (the
/// loser's: `child` a win), with its plies to it: 0 for a move that leaves the opponent no
/// move, the soonest of all. Children for which `skip` is true are not played into.
fn best_move(
    db: &Egdb,
    pos: &Position,
    counts: DrawCounts,
    child: Wdl,
    skip: &dyn Fn(&Position) -> bool,
) -> Option<(Move, i32)> {
    let mut best: Option<(Move, i32)> = None;
    for mv in movegen::legal_moves(pos).iter() {
        let next = pos.play(mv);
        if skip(&next) {
            continue;
        }
        let next_counts = counts.after(pos, mv, &next);
        let Some((w, dtc)) = value(db, &next, next_counts) else {
            continue;
        };
        if w != child {
            continue;
        }
        let zeroing = mv.is_capture() || !pos.kings().contains(mv.from);
        let plies = if w == Wdl::Loss && movegen::count_moves(&next) == 0 {
            0
        } else if zeroing {
            1
        } else {
            1 + dtc
        };
        let better = match best {
            None => true,
            Some((_, b)) if child == Wdl::Loss => plies < b,
            Some((_, b)) => plies > b,
        };
        if better {
            best = Some((*mv, plies));
        }
    }
    best
}

/// The longest a database line added to a principal variation gets.
const LINE_PLIES: usize = 24;

/// `pv` from `root`, with the tables' line added where it ends in a database win or loss:
/// the winner converting fastest, the loser holding out longest, up to `LINE_PLIES` plies or
/// the end of the game.
pub fn extend_pv(db: &Egdb, root: &Position, counts: DrawCounts, pv: &[Move]) -> Vec<Move> {
    let (mut pos, mut counts) = (*root, counts);
    for mv in pv {
        let next = pos.play(mv);
        counts = counts.after(&pos, mv, &next);
        pos = next;
    }
    let mut line = pv.to_vec();
    let end = line.len() + LINE_PLIES;
    while line.len() < end {
        let mv = match value(db, &pos, counts) {
            Some((Wdl::Win, _)) => best_move(db, &pos, counts, Wdl::Loss, &|_| false),
            Some((Wdl::Loss, _)) => best_move(db, &pos, counts, Wdl::Win, &|_| false),
            _ => None,
        };
        let Some((mv, _)) = mv else {
            break;
        };
        let next = pos.play(&mv);
        counts = counts.after(&pos, &mv, &next);
        pos = next;
        line.push(mv);
    }
    line
}
