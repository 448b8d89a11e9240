//! The fit: a scaling constant `k` so that `sigmoid(k * eval)` best predicts the results under
//! the starting weights, then the weights by Adam over mini-batches of the mean squared error
//! (Texel's method), with `k` fitted again every few epochs. Weights are fitted as real
//! numbers and rounded at the end.
//!
//! The unit stays a hundredth of a man: `man` is held, and the sum of the `advance` table is
//! held too (each step is projected back onto it). Without that the advance table takes over
//! the man's value, and every weight grows in step while `k` shrinks, which leaves the
//! predictions alone but breaks the search's margins, which are in hundredths of a man.
//!
//! Every step ends with each weight moved back into its range (`weights::TERMS`), so the fit
//! never leaves the weights a file may hold.

use crate::data::Samples;
use crate::target::{self, sigmoid};
use poolshark_engine::core::rng::Xorshift64;
use poolshark_engine::eval::features::dot;
use poolshark_engine::eval::weights::{self, Weights, AT};
use rayon::prelude::*;

/// The tuner's settings.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub epochs: usize,
    /// Adam's step size, in hundredths of a man, at the first epoch; it falls linearly to a
    /// tenth of this by the last.
    pub learning_rate: f64,
    /// Positions per gradient step.
    pub batch: usize,
    /// Per value of `Weights::to_vec()`: true keeps it at its starting value.
    pub fixed: Vec<bool>,
    /// Seed for the order the positions are visited in.
    pub seed: u64,
    /// Fit `k` again after every this many epochs (0: never).
    pub refit_k: usize,
    /// Pull toward the starting weights: `l2 * (w - start)^2` per weight, in the loss units
    /// per (hundredth of a man)^2. It keeps weights the data says little about where they were.
    pub l2: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        let mut fixed = vec![false; weights::LEN];
        // `man` sets the unit (hundredths of a man); see the module notes.
        fixed[AT.man] = true;
        TuneConfig {
            epochs: 30,
            learning_rate: 2.0,
            batch: 16384,
            fixed,
            seed: 1,
            refit_k: 5,
            l2: 0.0,
        }
    }
}

/// The mean squared error of `sigmoid(k * w . features)` against the targets.
pub fn loss(s: &Samples, w: &[f32], k: f64) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..s.len())
        .into_par_iter()
        .map(|i| {
            let p = sigmoid(k * dot(w, s.row(i)) as f64);
            let e = s.targets[i] as f64 - p;
            e * e
        })
        .sum();
    total / s.len() as f64
}

/// The `k` that minimises the loss under `w` (`target::fit_k`).
pub fn fit_k(s: &Samples, w: &[f32]) -> f64 {
    target::fit_k(|k| loss(s, w, k))
}

/// Fit the weights from `start`, and `k` every `cfg.refit_k` epochs. `progress` sees each
/// finished epoch (1-based), the weights as they stand (unrounded) and `k`. Returns the
/// rounded weights and the final `k`.
pub fn tune(
    s: &Samples,
    start: &Weights,
    k: f64,
    cfg: &TuneConfig,
    progress: &mut dyn FnMut(usize, &[f32], f64),
) -> (Weights, f64) {
    let mut k = k;
    // The advance table's values: their sum is held (see the module notes).
    let advance: Vec<usize> = weights::field_range("advance")
        .expect("the advance table")
        .filter(|&j| !cfg.fixed[j])
        .collect();
    let width = s.width;
    let mut w: Vec<f32> = start.to_vec().iter().map(|&x| x as f32).collect();
    let (mut m, mut v) = (vec![0f64; width], vec![0f64; width]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut order: Vec<usize> = (0..s.len()).collect();
    // A fixed shuffle (Fisher-Yates), so a run is reproducible.
    let mut rng = Xorshift64::new(cfg.seed | 1);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut step = 0i32;
    for epoch in 1..=cfg.epochs {
        let frac = (epoch - 1) as f64 / cfg.epochs.max(2).saturating_sub(1) as f64;
        let lr = cfg.learning_rate * (1.0 - 0.9 * frac);
        for batch in order.chunks(cfg.batch.max(1)) {
            let mut grad = gradient(s, &w, k, batch);
            for (j, g) in grad.iter_mut().enumerate() {
                *g += 2.0 * cfg.l2 * (w[j] as f64 - start_sum(start, j) as f64);
            }
            step += 1;
            for j in 0..width {
                if cfg.fixed.get(j).copied().unwrap_or(false) {
                    continue;
                }
                m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
                v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
                let mh = m[j] / (1.0 - b1.powi(step));
                let vh = v[j] / (1.0 - b2.powi(step));
                w[j] -= (lr * mh / (vh.sqrt() + eps)) as f32;
            }
            let drift = advance.iter().map(|&j| w[j]).sum::<f32>()
                - advance.iter().map(|&j| start_sum(start, j)).sum::<f32>();
            for &j in &advance {
                w[j] -= drift / advance.len() as f32;
            }
            // Back into range (the projection's sum may then be off by what was cut).
            for (j, x) in w.iter_mut().enumerate() {
                *x = weights::clamp_value(j, *x as f64) as f32;
            }
        }
        if cfg.refit_k > 0 && epoch % cfg.refit_k == 0 {
            k = target::fit_k_between(|k| loss(s, &w, k), k / 1.5, k * 1.5);
        }
        progress(epoch, &w, k);
    }
    let rounded = Weights::from_reals(&w.iter().map(|&x| x as f64).collect::<Vec<_>>());
    (rounded, k)
}

fn start_sum(start: &Weights, j: usize) -> f32 {
    start.to_vec()[j] as f32
}

/// The gradient of the mean squared error over the positions in `batch`.
fn gradient(s: &Samples, w: &[f32], k: f64, batch: &[usize]) -> Vec<f64> {
    let width = s.width;
    let sum = batch
        .par_chunks(1024)
        .map(|chunk| {
            let mut g = vec![0f64; width];
            for &i in chunk {
                let f = s.row(i);
                let p = sigmoid(k * dot(w, f) as f64);
                // d/dw (r - p)^2 = -2 (r - p) p (1 - p) k f
                let scale = -2.0 * (s.targets[i] as f64 - p) * p * (1.0 - p) * k;
                for (gj, &fj) in g.iter_mut().zip(f) {
                    *gj += scale * fj as f64;
                }
            }
            g
        })
        .reduce(
            || vec![0f64; width],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        );
    sum.into_iter().map(|x| x / batch.len() as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::random_games::RandomPositions;
    use poolshark_engine::core::Position;

    /// Positions from random games (quiet ones: the data selfplay writes has no captures).
    fn positions(n: usize, seed: u64) -> Vec<Position> {
        RandomPositions::new(seed, 120)
            .filter(|p| !poolshark_engine::core::movegen::has_capture(p))
            .take(n)
            .collect()
    }

    fn as_f32(w: &Weights) -> Vec<f32> {
        w.to_vec().iter().map(|&x| x as f32).collect()
    }

    /// Results that are exactly the probabilities under `truth`: the best fit is `truth`.
    fn synthetic(truth: &Weights, k: f64, n: usize) -> Samples {
        let tw = as_f32(truth);
        let mut s = Samples::new();
        for pos in positions(n, 5) {
            s.push(&pos, 0.0, None, &Weights::handset());
            let i = s.len() - 1;
            s.targets[i] = sigmoid(k * dot(&tw, s.row(i)) as f64) as f32;
        }
        s
    }

    #[test]
    fn recovers_known_weights_from_synthetic_data() {
        let start = Weights::handset();
        let mut truth = start.clone();
        truth.king = 260;
        // The same sum as the hand-set table (62): the tuner holds it.
        truth.advance = [0, 5, 9, 4, 20, 10, 14];
        truth.centre = 15;
        truth.back_rank_guard = 2;
        truth.tempo = 10;
        truth.stuck_man = -12;
        let k = 0.01;
        let s = synthetic(&truth, k, 20_000);
        assert!((fit_k(&s, &as_f32(&truth)) - k).abs() < 2e-4);
        let cfg = TuneConfig {
            epochs: 150,
            learning_rate: 3.0,
            batch: 2048,
            ..TuneConfig::default()
        };
        let (got, k_got) = tune(&s, &start, k, &cfg, &mut |_, _, _| {});
        assert!((k_got - k).abs() < 2e-4, "k {k_got}");
        let l = loss(&s, &as_f32(&got), k);
        assert!(l < 1e-5, "loss {l}");
        assert!((got.king - truth.king).abs() <= 6, "{got:?}");
        for (name, a, b) in [
            ("centre", got.centre, truth.centre),
            ("tempo", got.tempo, truth.tempo),
            (
                "back_rank_guard",
                got.back_rank_guard,
                truth.back_rank_guard,
            ),
            ("stuck_man", got.stuck_man, truth.stuck_man),
        ] {
            assert!((a - b).abs() <= 2, "{name}: {a} vs {b}\n{got:?}");
        }
        for r in 0..7 {
            assert!(
                (got.advance[r] - truth.advance[r]).abs() <= 2,
                "advance {r}\n{got:?}"
            );
        }
    }

    /// Data that wants `tempo` far beyond its range: the fit stops at the range's end, and
    /// every epoch's weights are in range.
    #[test]
    fn the_fit_keeps_every_weight_in_its_range() {
        let start = Weights::handset();
        let mut truth = as_f32(&start);
        truth[AT.tempo] = 400.0;
        let tempo_max = *weights::term("tempo").unwrap().range.end();
        let mut s = Samples::new();
        for pos in positions(2000, 9) {
            s.push(&pos, 0.0, None, &start);
            let i = s.len() - 1;
            s.targets[i] = sigmoid(0.01 * dot(&truth, s.row(i)) as f64) as f32;
        }
        let cfg = TuneConfig {
            epochs: 30,
            learning_rate: 40.0,
            batch: 256,
            ..TuneConfig::default()
        };
        let mut epochs = 0;
        let (got, _) = tune(&s, &start, 0.01, &cfg, &mut |_, w, _| {
            epochs += 1;
            for (j, &x) in w.iter().enumerate() {
                assert!(
                    weights::term_at(j).range.contains(&(x.round() as i32)),
                    "{j}: {x}"
                );
            }
        });
        assert_eq!(epochs, 30);
        assert_eq!(got.tempo, tempo_max, "{got:?}");
        assert_eq!(got.out_of_range(), None);
    }

    #[test]
    fn the_loss_falls_over_the_epochs() {
        // A small fixed set: real self-play positions from tests/data.
        let text = include_str!("../../../tests/data/tune-small.txt");
        let start = Weights::handset();
        let s = crate::load(text, &start).unwrap();
        assert!(s.len() > 1000);
        let k = fit_k(&s, &as_f32(&start));
        let mut losses = vec![loss(&s, &as_f32(&start), k)];
        let cfg = TuneConfig {
            epochs: 8,
            learning_rate: 1.0,
            batch: 512,
            ..TuneConfig::default()
        };
        tune(&s, &start, k, &cfg, &mut |_, w, k| {
            losses.push(loss(&s, w, k))
        });
        assert!(losses.last() < losses.first(), "{losses:?}");
        let rises = losses.windows(2).filter(|p| p[1] > p[0] + 1e-4).count();
        assert!(rises <= 1, "{losses:?}");
    }
}
