//! The capture search past the horizon: captures are forced in checkers, so it searches
//! every capture while there is one (no standing pat) and evaluates the quiet position
//! that ends each line.

use super::Worker;
use crate::core::{movegen, MoveList, Position};
use crate::eval::{self, Choice};
use crate::search::ordering::{pick_next, Ordered};
use crate::search::params::MAX_PLY;
use crate::search::score::Score;

impl Worker<'_> {
    /// The static evaluation of a quiet leaf: `eval::evaluate`, as `eval::choose` decides,
    /// with the network's positions scored through this thread's accumulator cache (the same
    /// number, found faster).
    #[inline]
    fn leaf_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        match eval::choose(pos, self.shared.weights) {
            Choice::Network(net) => self.nnue.evaluate(net, pos, ply),
            Choice::Hand => eval::hand(pos, self.shared.weights),
        }
    }

    /// Quiescence: captures are forced, so while the side to move can capture every capture
    /// is searched (no standing pat); otherwise the position is quiet and is evaluated.
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.visit();
        self.pv[ply].clear();
        if self.stopped {
            return Score::ZERO;
        }
        let mut captures = MoveList::new();
        movegen::generate_captures(pos, &mut captures);
        if captures.is_empty() || ply >= MAX_PLY {
            if captures.is_empty() && !movegen::has_quiet_move(pos) {
                return Score::loss_in(ply as i32);
            }
            self.leaves += 1;
            self.leaf_plies += ply as u64;
            return Score(self.leaf_eval(pos, ply));
        }
        // Filled in place: collecting into an `Ordered` returned it by value, a copy of its
        // whole 2 KB buffer at every capture node (4% of `bench` in `memmove`).
        let mut order = Ordered::new();
        for (i, m) in captures.iter().enumerate() {
            order.push((i as u8, m.captured.count() as i32));
        }
        let mut best = -Score::INFINITE;
        for i in 0..order.len() {
            pick_next(&mut order, i);
            let mv = captures[order[i].0 as usize];
            let score = -self.qsearch(&pos.play(&mv), -beta, -alpha, ply + 1);
            if self.stopped {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
