//! Move ordering: the hash move, then captures by size, then killers, then (optionally) the
//! counter-move of the move just played, then history (optionally plus the continuation
//! history of the move just played). Each search thread owns its own `Heuristics`.

use crate::core::moves::MAX_MOVES;
use crate::core::{Color, Move, MoveList, Position};
use crate::search::params::{SearchParams, PLY_SLOTS};
use arrayvec::ArrayVec;

/// Moves of one node as (index in the generated list, order score).
pub type Ordered = ArrayVec<(u8, i32), MAX_MOVES>;

/// `[side][from][to]` of a move.
type SquareTable<T> = [[[T; 32]; 32]; 2];

/// Per-thread killer moves, counter-moves and history scores.
#[derive(Clone)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// The move played at each ply of the line being searched (`on_play`).
    played: Vec<Option<Move>>,
    /// `[side][from][to]`.
    history: Box<SquareTable<i32>>,
    /// The quiet move that last refuted each move of the other side, by that move's
    /// `[side][from][to]` (`SearchParams::countermove`; empty when off).
    counters: Vec<Option<Move>>,
    /// History by the move just played, one `[side][from][to]` table for each square the
    /// previous move went to (`SearchParams::continuation_history`; empty when off).
    continuation: Vec<SquareTable<i32>>,
    history_max: i32,
    /// The largest bonus of one cut-off.
    bonus_max: i32,
}

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const COUNTER: i32 = 1 << 25;

impl Heuristics {
    /// History saturating at `history_max`, with a cut-off's bonus of depth squared capped
    /// at `history_bonus_max`; counter-moves and continuation history as `p` says.
    pub fn new(p: &SearchParams) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; PLY_SLOTS],
            played: vec![None; PLY_SLOTS],
            history: Box::new([[[0; 32]; 32]; 2]),
            counters: if p.countermove {
                vec![None; 2 * 32 * 32]
            } else {
                Vec::new()
            },
            continuation: if p.continuation_history {
                vec![[[[0; 32]; 32]; 2]; 32]
            } else {
                Vec::new()
            },
            history_max: p.history_max,
            bonus_max: p.history_bonus_max,
        }
    }

    /// `mv` is being searched at `ply`: the moves of `ply + 1` answer it.
    #[inline]
    pub fn on_play(&mut self, ply: usize, mv: &Move) {
        self.played[ply] = Some(*mv);
    }

    /// The move played just before `ply` (none at the root).
    #[inline]
    fn previous(&self, ply: usize) -> Option<Move> {
        ply.checked_sub(1).and_then(|p| self.played[p])
    }

    /// Where in `counters` the answer to `side`'s move `mv` is kept.
    #[inline]
    fn counter_slot(side: Color, mv: &Move) -> usize {
        (side as usize * 32 + mv.from.index()) * 32 + mv.to.index()
    }

    /// The counter-move to the move that led to `ply` (`side` is to move there), if
    /// counter-moves are on.
    #[inline]
    fn counter(&self, side: Color, ply: usize) -> Option<Move> {
        if self.counters.is_empty() {
            return None;
        }
        let prev = self.previous(ply)?;
        self.counters[Self::counter_slot(side.flip(), &prev)]
    }

    pub fn is_killer(&self, ply: usize, mv: &Move) -> bool {
        self.killers[ply].contains(&Some(*mv))
    }

    /// A quiet move caused a cut-off: remember it, and reward it over the quiet moves tried
    /// before it (which are penalised).
    pub fn on_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        mv: &Move,
        tried: impl Iterator<Item = Move>,
    ) {
        if mv.is_capture() {
            return;
        }
        if self.killers[ply][0] != Some(*mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(*mv);
        }
        let prev = self.previous(ply);
        if let Some(prev) = prev.filter(|_| !self.counters.is_empty()) {
            self.counters[Self::counter_slot(side.flip(), &prev)] = Some(*mv);
        }
        let cont = prev
            .filter(|_| !self.continuation.is_empty())
            .map(|p| p.to.index());
        let bonus = (depth * depth).min(self.bonus_max);
        self.update(side, mv, cont, bonus);
        for m in tried.filter(|m| m != mv && !m.is_capture()) {
            self.update(side, &m, cont, -bonus);
        }
    }

    /// The history score of `side`'s quiet move `mv`.
    pub fn history(&self, side: Color, mv: &Move) -> i32 {
        self.history[side as usize][mv.from.index()][mv.to.index()]
    }

    /// Reward (or with a negative bonus, penalise) `side`'s `mv` in the history and, with
    /// `cont` (the previous move's destination), in the continuation history.
    fn update(&mut self, side: Color, mv: &Move, cont: Option<usize>, bonus: i32) {
        let max = self.history_max;
        // Gravity: scores saturate at +-history_max.
        let gravity = |h: &mut i32| *h += bonus - *h * bonus.abs() / max;
        gravity(&mut self.history[side as usize][mv.from.index()][mv.to.index()]);
        if let Some(to) = cont {
            gravity(&mut self.continuation[to][side as usize][mv.from.index()][mv.to.index()]);
        }
    }

    /// Order scores for `moves` into `out` (same order), the hash move (by index) first.
    pub fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        hash_index: Option<u8>,
        ply: usize,
        out: &mut Ordered,
    ) {
        let side = pos.side();
        let counter = self.counter(side, ply);
        let cont = self
            .previous(ply)
            .filter(|_| !self.continuation.is_empty())
            .map(|p| &self.continuation[p.to.index()][side as usize]);
        out.clear();
        for (i, mv) in moves.iter().enumerate() {
            let score = if hash_index == Some(i as u8) {
                HASH_MOVE
            } else if mv.is_capture() {
                let kings = (mv.captured & pos.kings()).count() as i32;
                CAPTURE + mv.captured.count() as i32 * 16 + kings * 8
            } else if self.killers[ply][0] == Some(*mv) {
                KILLER + 1
            } else if self.killers[ply][1] == Some(*mv) {
                KILLER
            } else if counter == Some(*mv) {
                COUNTER
            } else {
                let (f, t) = (mv.from.index(), mv.to.index());
                self.history[side as usize][f][t] + cont.map_or(0, |c| c[f][t])
            };
            out.push((i as u8, score));
        }
    }
}

/// Move the highest-scored remaining move to position `i` (selection sort, one step).
#[inline]
pub fn pick_next(order: &mut [(u8, i32)], i: usize) {
    let mut best = i;
    for j in i + 1..order.len() {
        if order[j].1 > order[best].1 {
            best = j;
        }
    }
    order.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen;

    /// The start position's moves, ordered at `ply` by `h`, as the moves in order.
    fn ordered(h: &Heuristics, pos: &Position, ply: usize) -> Vec<Move> {
        let moves = movegen::legal_moves(pos);
        let mut order = Ordered::new();
        h.score_moves(pos, &moves, None, ply, &mut order);
        for i in 0..order.len() {
            pick_next(&mut order, i);
        }
        order.iter().map(|&(i, _)| moves[i as usize]).collect()
    }

    fn with(countermove: bool, continuation_history: bool) -> Heuristics {
        Heuristics::new(&SearchParams {
            countermove,
            continuation_history,
            ..SearchParams::default()
        })
    }

    #[test]
    fn a_counter_move_comes_first_after_the_move_it_refuted_and_only_then() {
        let pos = Position::start();
        let moves = movegen::legal_moves(&pos);
        let (a, b) = (moves[0], moves[1]);
        // The other side's moves are stand-ins: the tables go by side and squares only.
        let answer = moves[moves.len() - 1];
        let favourite = moves[2];
        for on in [false, true] {
            let mut h = with(on, false);
            // A bigger history for another move (no move before ply 4 is known yet).
            h.on_cutoff(pos.side(), 4, 4, &favourite, std::iter::empty());
            // A cut-off at ply 1, after `a` at ply 0.
            h.on_play(0, &a);
            h.on_cutoff(pos.side(), 1, 1, &answer, std::iter::empty());
            // Ordered at ply 3 after `a` at ply 2: killers are kept by ply, so only the
            // counter-move can lift the answer over the favourite.
            h.on_play(2, &a);
            let first = ordered(&h, &pos, 3)[0];
            assert_eq!(
                first,
                if on { answer } else { favourite },
                "countermove {on}"
            );
            // After another move the counter-move does not apply.
            h.on_play(2, &b);
            assert_eq!(ordered(&h, &pos, 3)[0], favourite);
        }
    }

    #[test]
    fn continuation_history_orders_by_the_move_just_played() {
        let pos = Position::start();
        let moves = movegen::legal_moves(&pos);
        let a = moves[0];
        // The continuation history goes by where the previous move went.
        let b = *moves.iter().find(|m| m.to != a.to).unwrap();
        let (x, y) = (moves[5], moves[6]);
        // After `a`, `x` refutes twice (and `y`, tried before it, is penalised); after `b`,
        // the other way round, three times. The plain history then favours `y` overall.
        // Cut-offs at ply 1, ordering at ply 3 (killers are kept by ply).
        let trained = |continuation: bool| {
            let mut h = with(false, continuation);
            for (prev, cut, other, times) in [(a, x, y, 2), (b, y, x, 3)] {
                h.on_play(0, &prev);
                for _ in 0..times {
                    h.on_cutoff(pos.side(), 1, 4, &cut, [other].into_iter());
                }
            }
            h
        };
        let rank = |h: &Heuristics, m: Move, prev: Move| {
            let mut h = h.clone();
            h.on_play(2, &prev);
            ordered(&h, &pos, 3).iter().position(|&o| o == m).unwrap()
        };
        let h = trained(true);
        assert!(rank(&h, x, a) < rank(&h, y, a), "after a, x first");
        assert!(rank(&h, y, b) < rank(&h, x, b), "after b, y first");
        // Without it, only the plain history counts: y first whatever came before.
        let plain = trained(false);
        assert!(rank(&plain, y, a) < rank(&plain, x, a));
    }
}
