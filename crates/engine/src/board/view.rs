//! The rules core's positions, moves and searches as the page gets them: a legal move
//! (`LegalMove`), a move played (`HistoryMove`), a side's name, the pieces, the draw counts
//! and how a game ended (`state`'s), a side's review summary, and a search iteration
//! (`SearchInfo`, an `info` message's).

use crate::board::protocol::{Counts, GameEnd, HistoryMove, LegalMove, SearchInfo, SideReport};
use crate::core::game::DrawReason;
use crate::core::rules::{FORTY_MOVE_PLIES, LONE_KING_MOVES};
use crate::core::{movegen, notation, Color, Game, GameResult, Move, Position};
use crate::review::SideSummary;
use std::collections::BTreeMap;

/// The reason a flag fall gives in `GameEnd` (and a saved game's `Termination`).
pub const TIME_FORFEIT: &str = "time forfeit";

/// A move played, as `history` and the tree's nodes show it.
pub fn history_move(before: &Position, mv: &Move) -> HistoryMove {
    let shown = legal_move(before, mv);
    HistoryMove {
        pdn: shown.pdn,
        hub: shown.hub,
        captured: shown.captured,
        path: shown.path,
    }
}

/// A side as the page names it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A legal move as the page gets it. Of several paths that take the same pieces (one move,
/// R15) the first is shown.
pub fn legal_move(pos: &Position, mv: &Move) -> LegalMove {
    let mut path = vec![mv.from.number()];
    if mv.is_capture() {
        let landing = notation::capture_paths(pos, mv).into_iter().next();
        path.extend(
            landing
                .unwrap_or_else(|| vec![mv.to])
                .iter()
                .map(|s| s.number()),
        );
    } else {
        path.push(mv.to.number());
    }
    LegalMove {
        hub: mv.hub(),
        pdn: notation::pdn_move(pos, mv),
        from: mv.from.number(),
        to: mv.to.number(),
        captured: mv.captured.into_iter().map(|s| s.number()).collect(),
        path,
    }
}

/// One search iteration from `root` as the page gets it (`info`).
pub fn search_info(root: &Position, info: &crate::search::Info) -> SearchInfo {
    let mut pos = *root;
    let mut pv_pdn = Vec::new();
    for mv in &info.pv {
        pv_pdn.push(notation::pdn_move(&pos, mv));
        pos = pos.play(mv);
    }
    let black = match root.side() {
        Color::Black => info.score,
        Color::White => -info.score,
    };
    SearchInfo {
        depth: info.depth,
        score: info.score.hub(),
        score_black: black.hub(),
        nodes: info.nodes,
        time: info.time.as_secs_f64(),
        pv: info.pv.iter().map(|m| m.hub()).collect(),
        pv_pdn,
        multipv: info.multipv,
    }
}

/// The legal moves of `pos` as the page gets them; none in a game that has `ended`, even
/// where the rules would still generate some (a draw by a count or by repetition).
pub fn legal_moves(pos: &Position, ended: bool) -> Vec<LegalMove> {
    if ended {
        return Vec::new();
    }
    movegen::legal_moves(pos)
        .iter()
        .map(|mv| legal_move(pos, mv))
        .collect()
}

/// The pieces of `pos` as the page gets them: by square number, `b` `w` for men and `B` `W`
/// for kings.
pub fn pieces(pos: &Position) -> BTreeMap<u8, &'static str> {
    let mut pieces = BTreeMap::new();
    for n in 1..=32u8 {
        let sq = crate::core::Square::from_number(n).expect("squares 1-32");
        if let Some((c, king)) = pos.piece_at(sq) {
            let p = match (c, king) {
                (Color::Black, false) => "b",
                (Color::White, false) => "w",
                (Color::Black, true) => "B",
                (Color::White, true) => "W",
            };
            pieces.insert(n, p);
        }
    }
    pieces
}

/// The draw rules' counts of `game` as the page gets them.
pub fn counts(game: &Game) -> Counts {
    let counts = game.counts();
    Counts {
        forty: u32::from(counts.quiet_king_plies),
        forty_limit: FORTY_MOVE_PLIES,
        // In plies like the 40-move count (two per lone king move), so that the page shows
        // both as moves the same way.
        thirteen: counts.lone_king_moves.map(|n| 2 * u32::from(n)),
        thirteen_limit: 2 * LONE_KING_MOVES,
    }
}

/// How `game` has ended, if it has: by the rules, or on time where `flag` (the side whose
/// flag fell at its last move) says so.
pub fn game_end(game: &Game, flag: Option<Color>) -> Option<GameEnd> {
    let (winner, reason) = match game.result() {
        GameResult::Ongoing => match flag {
            Some(loser) => (Some(color_name(loser.flip())), TIME_FORFEIT),
            None => return None,
        },
        // R16: the loser has no legal move, either because it has no piece left.
        GameResult::Win(c) if game.position().pieces(c.flip()).is_empty() => {
            (Some(color_name(c)), "no pieces left (R16)")
        }
        GameResult::Win(c) => (Some(color_name(c)), "no legal move (R16)"),
        GameResult::Draw(DrawReason::Repetition) => (None, "repetition (R17)"),
        GameResult::Draw(DrawReason::FortyMoveRule) => (None, "40-move rule (R18)"),
        GameResult::Draw(DrawReason::ThirteenMoveRule) => (None, "13-move rule (R19)"),
    };
    Some(GameEnd {
        winner,
        reason: reason.into(),
    })
}

/// A side's summary of a review as the page gets it.
pub fn side_report(s: &SideSummary) -> SideReport {
    let round = |x: f64, unit: f64| (x * unit).round() / unit;
    SideReport {
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
        moves: s.moves,
        mean_loss: round(s.mean_loss(), 100.0),
        accuracy: round(s.accuracy(), 10.0),
    }
}
