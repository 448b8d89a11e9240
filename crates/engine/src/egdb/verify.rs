//! Re-checking every stored value against its successors (`egdb verify`).
//!
//! Exact for the theoretical result and the dtc: a position is won when some move leads to a
//! lost position, lost when every move leads to a won one (or there is none), and its dtc is
//! the best move's (a zeroing move counts 1, a king move 1 more than its successor's). For the
//! R18 class the check is the local part of its definition: a win under R18 has a move to a
//! loss under R18, a loss under R18 has only moves to wins under R18, and a cursed win has no
//! zeroing move into a loss under R18 (the 80-ply bound itself is not local).
//! Positions whose successors lie in groups that are not present are skipped.

use crate::core::movegen;
use crate::core::position::Position;
use crate::egdb::index::flip;
use crate::egdb::value::{self, TERMINAL_LOSS};
use crate::egdb::{Tables, Wdl, Wdl50};
use rayon::prelude::*;

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub checked: u64,
    pub mismatches: u64,
    /// A few mismatching positions as FEN, for the message.
    pub examples: Vec<String>,
}

/// Check every present group.
pub fn verify(tables: &Tables) -> Report {
    verify_sample(tables, 1)
}

/// Check every `step`-th position of each present group (1: all of them).
pub fn verify_sample(tables: &Tables, step: u64) -> Report {
    let step = step.max(1);
    let mut report = Report::default();
    for g in tables.present() {
        let Some(values) = tables.plain(g) else {
            continue; // compressed: check tables from `Tables::load`
        };
        let (checked, bad): (u64, Vec<u64>) = (0..g.size().div_ceil(step))
            .into_par_iter()
            .map(|k| k * step)
            .map(
                |i| match check(tables, &g.position(i), values[i as usize]) {
                    None => (0, Vec::new()),
                    Some(true) => (1, Vec::new()),
                    Some(false) => (1, vec![i]),
                },
            )
            .reduce(
                || (0, Vec::new()),
                |mut a, b| {
                    a.0 += b.0;
                    a.1.extend(b.1);
                    a
                },
            );
        report.checked += checked;
        report.mismatches += bad.len() as u64;
        for i in bad
            .into_iter()
            .take(5usize.saturating_sub(report.examples.len()))
        {
            report
                .examples
                .push(crate::core::notation::write_fen(&g.position(i)));
        }
    }
    report
}

/// The position's value from its successors' stored values, compared with `stored`. None when
/// a successor's group is missing.
pub fn check(tables: &Tables, pos: &Position, stored: u16) -> Option<bool> {
    Some(expected(tables, pos)?.matches(stored))
}

/// What a position's successors say its value must be.
struct Expected {
    wdl: Wdl,
    dtc: u16,
    /// A move to a loss under R18 (zeroing or not), and one that is zeroing.
    to_loss50: bool,
    zeroing_to_loss50: bool,
    /// Every move leads to a win under R18.
    all_to_win50: bool,
    /// There is a king move (not zeroing): without one, the R18 class is exact.
    king_moves: bool,
}

impl Expected {
    fn matches(&self, stored: u16) -> bool {
        let Some(class) = value::class(stored) else {
            return false;
        };
        if value::wdl_of(class) != self.wdl {
            return false;
        }
        if self.wdl != Wdl::Draw && value::dtc(stored) != self.dtc {
            return false;
        }
        match class {
            Wdl50::Win => self.to_loss50,
            Wdl50::CursedWin => !self.zeroing_to_loss50,
            Wdl50::Loss => self.all_to_win50,
            Wdl50::BlessedLoss => self.king_moves || !self.all_to_win50,
            Wdl50::Draw => value::dtc(stored) == 0,
        }
    }
}

fn expected(tables: &Tables, pos: &Position) -> Option<Expected> {
    let moves = movegen::legal_moves(pos);
    if moves.is_empty() {
        return Some(Expected {
            wdl: Wdl::Loss,
            dtc: value::dtc(TERMINAL_LOSS),
            to_loss50: false,
            zeroing_to_loss50: false,
            all_to_win50: true,
            king_moves: false,
        });
    }
    let mut e = Expected {
        wdl: Wdl::Loss,
        dtc: 0,
        to_loss50: false,
        zeroing_to_loss50: false,
        all_to_win50: true,
        king_moves: false,
    };
    let mut win_dtc = u16::MAX;
    let mut loss_dtc = 0;
    for mv in moves.iter() {
        let child = flip(&pos.play_unhashed(mv));
        let v = tables.value(&child)?;
        let class = value::class(v)?;
        let zeroing = mv.is_capture() || !pos.kings().contains(mv.from);
        e.king_moves |= !zeroing;
        let plies = if zeroing { 1 } else { 1 + value::dtc(v) };
        match value::wdl_of(class) {
            Wdl::Loss => {
                e.wdl = Wdl::Win;
                win_dtc = win_dtc.min(plies);
            }
            Wdl::Draw => e.wdl = e.wdl.max(Wdl::Draw),
            Wdl::Win => loss_dtc = loss_dtc.max(plies),
        }
        if class == Wdl50::Loss {
            e.to_loss50 = true;
            e.zeroing_to_loss50 |= zeroing;
        }
        e.all_to_win50 &= class == Wdl50::Win;
    }
    e.dtc = match e.wdl {
        Wdl::Win => win_dtc,
        Wdl::Loss => loss_dtc,
        Wdl::Draw => 0,
    };
    Some(e)
}
