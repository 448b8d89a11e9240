//! The evaluation as a feature vector: `evaluate(pos, w)` equals the dot product of
//! `w.to_vec()` and `features(pos, w)`, up to the integer rounding `evaluate` does (and its
//! clamp at `EVAL_LIMIT`, which sane weights never reach).
//!
//! The vector comes from the evaluation itself (`eval::terms`) run into the `Features` sink,
//! so the two cannot drift apart. The tuner computes it once per position and then fits the
//! weights by linear algebra alone. Two parts of the evaluation are not linear in the weights
//! and are taken as they stand under `w`: which side is ahead in material (for `trade_down`)
//! and the king endings (a drawn three-against-one scales everything down). Both rarely
//! change as weights move.

use super::{terms, Sink, FULL};
use crate::core::Position;
use crate::eval::weights::{Weights, LEN};

/// The sink for tuning: how many times each weight counts, as real numbers.
pub struct Features {
    f: [f32; LEN],
    late: [f32; LEN],
}

impl Default for Features {
    fn default() -> Self {
        Features {
            f: [0.0; LEN],
            late: [0.0; LEN],
        }
    }
}

impl Sink for Features {
    fn add(&mut self, i: usize, n: i32) {
        self.f[i] += n as f32;
    }
    fn add_ratio(&mut self, i: usize, n: i32, d: i32) {
        self.f[i] += n as f32 / d as f32;
    }
    fn add_late(&mut self, i: usize, n: i32) {
        self.late[i] += n as f32;
    }
    fn taper(&mut self, pieces: i32) {
        let phase = (FULL - pieces) as f32 / FULL as f32;
        for (x, l) in self.f.iter_mut().zip(&mut self.late) {
            *x += *l * phase;
            *l = 0.0;
        }
    }
    fn divide(&mut self, d: i32) {
        self.f.iter_mut().for_each(|x| *x /= d as f32);
    }
    fn negate(&mut self) {
        self.f.iter_mut().for_each(|x| *x = -*x);
    }
}

/// The features of `pos` from the side to move, in `weights::TERMS` order.
pub fn features(pos: &Position, w: &Weights) -> Vec<f32> {
    let mut sink = Features::default();
    terms(pos, w, &mut sink);
    sink.f.to_vec()
}

/// The dot product of weights and features.
pub fn dot(w: &[f32], f: &[f32]) -> f32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;
    use crate::eval::evaluate;

    /// Positions from random games, endings included.
    fn random_positions(n: usize) -> Vec<Position> {
        RandomPositions::new(11, usize::MAX).take(n).collect()
    }

    /// Weights with every value drawn from its range (a fixed xorshift sequence).
    fn random_weights(seed: u64) -> Weights {
        let mut x = seed | 1;
        let v: Vec<i32> = (0..LEN)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let r = &crate::eval::weights::term_at(i).range;
                r.start() + (x % (r.end() - r.start() + 1) as u64) as i32
            })
            .collect();
        Weights::from_vec(&v)
    }

    /// The two sinks agree: the play sum is the dot product of the weights and the features,
    /// up to the sum's rounding, under the shipped weights and weights from all over the
    /// ranges; and every value of the vector is used by some position, so each is checked.
    #[test]
    fn dot_of_features_is_the_evaluation() {
        let handset = Weights::handset();
        let mut other = handset.to_vec();
        // Non-zero values for every term, so each one is checked.
        for (i, x) in other.iter_mut().enumerate() {
            *x += (i as i32 * 5) % 13 + 1;
        }
        let mut fens = vec![
            "W:WK1,K2,K3:BK18",
            "W:WK1,K2,K3:BK14",
            "B:WK1,K2,K3:BK14",
            "W:WK1,K2:BK14",
            "W:W30,32,21:B1,3,12",
        ]
        .into_iter()
        .map(|s| crate::core::notation::parse_fen(s).unwrap())
        .collect::<Vec<_>>();
        fens.extend(random_positions(3000));
        let mut all = vec![handset, Weights::from_vec(&other), Weights::default()];
        all.extend((1..=8).map(random_weights));
        let mut used = [false; LEN];
        for w in all {
            let wf: Vec<f32> = w.to_vec().iter().map(|&x| x as f32).collect();
            for pos in &fens {
                let e = evaluate(pos, &w) as f32;
                let f = features(pos, &w);
                let d = dot(&wf, &f);
                f.iter().zip(&mut used).for_each(|(x, u)| *u |= *x != 0.0);
                if d.abs() >= crate::eval::EVAL_LIMIT as f32 {
                    // Clamped: the sum stops at the limit.
                    assert_eq!(e.abs(), crate::eval::EVAL_LIMIT as f32, "{pos:?}");
                    continue;
                }
                // evaluate rounds the runaway term per man, the late terms and the drawn
                // king ending once each.
                let slack = pos.men().count() as f32 + 2.0;
                assert!((e - d).abs() <= slack, "{pos:?}: eval {e} dot {d}\n{w:?}");
            }
        }
        let unused: Vec<&str> = (0..LEN)
            .filter(|&i| !used[i])
            .map(|i| crate::eval::weights::term_at(i).name)
            .collect();
        assert!(unused.is_empty(), "never counted: {unused:?}");
    }
}
