//! Move ordering: the hash move, then captures by size, then killers, then history.
//! Each search thread owns its own `Heuristics`.

use crate::core::moves::MAX_MOVES;
use crate::core::{Color, Move, MoveList, Position};
use crate::search::params::{SearchParams, PLY_SLOTS};
use arrayvec::ArrayVec;

/// Moves of one node as (index in the generated list, order score).
pub type Ordered = ArrayVec<(u8, i32), MAX_MOVES>;

/// Per-thread killer moves and history scores.
#[derive(Clone)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// `[side][from][to]`.
    history: Box<[[[i32; 32]; 32]; 2]>,
    history_max: i32,
    /// The largest bonus of one cut-off.
    bonus_max: i32,
}

const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;

impl Heuristics {
    /// History saturating at `history_max`, with a cut-off's bonus of depth squared capped
    /// at `history_bonus_max` (and at `history_max`, past which the scores would not
    /// saturate but swing ever wider).
    pub fn new(p: &SearchParams) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; PLY_SLOTS],
            history: Box::new([[[0; 32]; 32]; 2]),
            history_max: p.history_max,
            bonus_max: p.history_bonus_max.min(p.history_max),
        }
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
        let bonus = (depth * depth).min(self.bonus_max);
        self.update(side, mv, bonus);
        for m in tried.filter(|m| m != mv && !m.is_capture()) {
            self.update(side, &m, -bonus);
        }
    }

    /// The history score of `side`'s quiet move `mv`.
    pub fn history(&self, side: Color, mv: &Move) -> i32 {
        self.history[side as usize][mv.from.index()][mv.to.index()]
    }

    /// Reward (or with a negative bonus, penalise) `side`'s `mv`.
    fn update(&mut self, side: Color, mv: &Move, bonus: i32) {
        let h = &mut self.history[side as usize][mv.from.index()][mv.to.index()];
        // Gravity: scores saturate at +-history_max (the product in 64 bits: both factors
        // may be large at the ends of their ranges).
        let pull = i64::from(*h) * i64::from(bonus.abs()) / i64::from(self.history_max);
        *h += bonus - pull as i32;
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
            } else {
                self.history[side as usize][mv.from.index()][mv.to.index()]
            };
            out.push((i as u8, score));
        }
    }
}

/// Move the highest-scored remaining move to position `i` (selection sort, one step): the
/// first of the remaining moves with the highest score, swapped with the move at `i`.
///
/// Found in two passes, the highest score and then its first place, which the compiler turns
/// into vector code: one pass keeping the best so far is a chain of dependent compares, and
/// was 8% of `bench` (king endings have 30 moves and more).
#[inline]
pub fn pick_next(order: &mut [(u8, i32)], i: usize) {
    let rest = &order[i..];
    let Some(max) = rest.iter().map(|e| e.1).max() else {
        return;
    };
    let best = i + rest.iter().position(|e| e.1 == max).unwrap_or(0);
    order.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pick_next` orders a list exactly as the one-pass selection sort it replaced (the
    /// first best kept, the swap the same), ties and all: the search's node counts depend on
    /// it.
    #[test]
    fn pick_next_orders_as_the_one_pass_selection_sort() {
        fn reference(order: &mut [(u8, i32)], i: usize) {
            let mut best = i;
            for j in i + 1..order.len() {
                if order[j].1 > order[best].1 {
                    best = j;
                }
            }
            order.swap(i, best);
        }
        let mut rng = crate::core::rng::SplitMix64::new(9);
        for len in 0..70usize {
            for _ in 0..20 {
                // Few distinct scores, so that ties are common.
                let list: Vec<(u8, i32)> = (0..len)
                    .map(|k| (k as u8, (rng.next_u64() % 5) as i32 - 2))
                    .collect();
                let (mut a, mut b) = (list.clone(), list);
                for i in 0..len {
                    pick_next(&mut a, i);
                    reference(&mut b, i);
                    assert_eq!(a, b, "len {len} step {i}");
                }
            }
        }
        pick_next(&mut [], 0);
    }
    use crate::core::movegen;

    /// History scores stay within `history_max` however many cut-offs there are, at the
    /// ends of the parameters' ranges too (a bonus above the cap would make them swing
    /// ever wider, and a large score times a large bonus would overflow).
    #[test]
    fn history_saturates_at_the_ends_of_the_ranges() {
        let pos = Position::start();
        let moves = movegen::legal_moves(&pos);
        let (a, b) = (moves[0], moves[1]);
        for (history_max, history_bonus_max) in [(1, 100_000), (1_000_000, 100_000), (16_384, 1)] {
            let mut h = Heuristics::new(&SearchParams {
                history_max,
                history_bonus_max,
                ..SearchParams::default()
            });
            for _ in 0..2_000 {
                h.on_cutoff(pos.side(), 3, 64, &a, [b].into_iter());
                for m in [a, b] {
                    let s = h.history(pos.side(), &m);
                    assert!(
                        s.abs() <= history_max,
                        "{history_max}/{history_bonus_max}: {s}"
                    );
                }
            }
            assert!(h.history(pos.side(), &a) > 0 && h.history(pos.side(), &b) < 0);
        }
    }
}
