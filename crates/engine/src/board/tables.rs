//! The endgame tables (`egdb`) as a board asks them (`board::Tables`): the verdict on the
//! position shown, for Black, with each legal move's (as lichess's tablebase panel), and
//! whether the tables cover it. The server's boards use this, and the static page's, over
//! the tables served with it (`crates/wasm`'s store).

use crate::board::protocol::{MoveVerdict, Verdict};
use crate::board::view::history_move;
use crate::core::{movegen, Color, Position};
use crate::egdb::{Wdl, Wdl50};

impl crate::board::Tables for crate::egdb::Egdb {
    fn verdict(&self, pos: &Position) -> Option<Verdict> {
        verdict(self, pos)
    }

    fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces()
    }

    fn table_move(&self, game: &crate::core::Game) -> Option<crate::core::Move> {
        crate::search::egdb::table_move(
            self,
            game.position(),
            game.counts(),
            &game.repetition_keys(),
        )
    }
}

/// The endgame tables' verdict on `pos` for Black, or None where no table covers it (or
/// its group is not read yet); its moves' verdicts where the tables answer for all of them.
fn verdict(egdb: &crate::egdb::Egdb, pos: &Position) -> Option<Verdict> {
    let probe = egdb.probe(pos)?;
    let flip = pos.side() == Color::White;
    let wdl = match (probe.wdl, flip) {
        (Wdl::Win, false) | (Wdl::Loss, true) => "win",
        (Wdl::Loss, false) | (Wdl::Win, true) => "loss",
        (Wdl::Draw, _) => "draw",
    };
    let wdl50 = match (probe.wdl50, flip) {
        (w, false) => w,
        (Wdl50::Win, true) => Wdl50::Loss,
        (Wdl50::CursedWin, true) => Wdl50::BlessedLoss,
        (Wdl50::Draw, true) => Wdl50::Draw,
        (Wdl50::BlessedLoss, true) => Wdl50::CursedWin,
        (Wdl50::Loss, true) => Wdl50::Win,
    };
    Some(Verdict {
        black: wdl,
        dtc: probe.dtc,
        black50: wdl50.name(),
        moves: move_verdicts(egdb, pos).unwrap_or_default(),
    })
}

/// Each legal move of `pos` with the tables' verdict for its mover, the best first; None
/// while a position one leads to is not answered (its group not read yet).
fn move_verdicts(egdb: &crate::egdb::Egdb, pos: &Position) -> Option<Vec<MoveVerdict>> {
    let mut out = Vec::new();
    for mv in movegen::legal_moves(pos).as_slice() {
        let after = pos.play(mv);
        // The side to move after it has no move: the mover has won (R16).
        let (result, result50, dtc) = if movegen::legal_moves(&after).is_empty() {
            ("win", "win", Some(0))
        } else {
            let p = egdb.probe(&after)?;
            let result = match p.wdl {
                Wdl::Win => "loss",
                Wdl::Loss => "win",
                Wdl::Draw => "draw",
            };
            let result50 = match p.wdl50 {
                Wdl50::Win => Wdl50::Loss,
                Wdl50::CursedWin => Wdl50::BlessedLoss,
                Wdl50::Draw => Wdl50::Draw,
                Wdl50::BlessedLoss => Wdl50::CursedWin,
                Wdl50::Loss => Wdl50::Win,
            };
            (result, result50.name(), p.dtc)
        };
        let shown = history_move(pos, mv);
        out.push(MoveVerdict {
            mv: shown.pdn,
            hub: shown.hub,
            path: shown.path,
            result,
            result50,
            dtc,
        });
    }
    // Quickest win, then draws, then the longest loss.
    out.sort_by_key(|m| match m.result {
        "win" => (0, i32::from(m.dtc.unwrap_or(0))),
        "draw" => (1, 0),
        _ => (2, -i32::from(m.dtc.unwrap_or(0))),
    });
    Some(out)
}
