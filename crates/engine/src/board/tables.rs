//! The endgame tables (`egdb`) as a board asks them (`board::Tables`): the verdict on the
//! position shown, for Black, and whether the tables cover it. The server's boards use this;
//! the browser has no tables.

use crate::board::protocol::Verdict;
use crate::core::{Color, Position};

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
/// its group is not read yet).
fn verdict(egdb: &crate::egdb::Egdb, pos: &Position) -> Option<Verdict> {
    use crate::egdb::{Wdl, Wdl50};
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
    })
}
