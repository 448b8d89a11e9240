//! SPSA: tune the weights by playing games, not by predicting results.
//!
//! Texel's fit (`texel`) predicts self-play results well, yet the fits that predict best
//! play worst (`tuning/README.md`): the search steers toward whatever the weights reward,
//! into positions unlike the data. SPSA measures play itself. Each step perturbs every free
//! weight at once by `±c` (a random sign each), plays a game pair (the same opening, each
//! side once) between the `+` and the `-` weights at a fixed node count, and moves every
//! weight along its sign by the pair's result: `θ += a · (wins - losses) · δ / c`.
//!
//! The gains `a` and `c` shrink over the run as in Spall's paper (`a_k = a / (A + k)^0.602`,
//! `c_k = c / k^0.101`, `A` a tenth of the run), set from the perturbation wanted at the end
//! (`c_end`, per weight) and `r_end = a_end / c_end²` (Fishtest's parametrisation).
//!
//! Pairs are played in batches of `batch` against the same weights, on `concurrency`
//! threads, and the batch's updates are applied in order. A run depends only on its config
//! (seed, batch, ...), not on the number of threads or their timing: it is reproducible.
//!
//! Weights stay in their ranges (`weights::TERMS`): `θ` is clamped after every update, and
//! the perturbed `+` and `-` weights are clamped too.

use crate::core::rng::mix64;
use crate::core::Position;
use crate::eval::weights::{self, Weights};
use crate::search::{Engine, Limits, SearchControl};
use crate::tune::selfplay::{opening, play_out};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Spall's recommended exponents for the step size and the perturbation.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// Game pairs in the run.
    pub pairs: usize,
    /// Nodes per move in every game.
    pub nodes: u64,
    /// Random plies after each opening.
    pub random_plies: u32,
    pub seed: u64,
    /// Threads playing games.
    pub concurrency: usize,
    /// Pairs played against the same weights before their updates are applied.
    pub batch: usize,
    /// Per value of `Weights::to_vec()`: true holds it.
    pub fixed: Vec<bool>,
    /// The perturbation at the end of the run, per value (hundredths of a man).
    pub c_end: Vec<f64>,
    /// `a_end / c_end²`: how far a decisive pair moves a weight at the end, relative to
    /// its perturbation.
    pub r_end: f64,
}

impl SpsaConfig {
    /// Defaults for a start: `man` and `lone_king_off_diagonal` held (the unit, and a term
    /// games at low nodes rarely reach), perturbations of a tenth of each value but at least
    /// 4, Fishtest's `r_end` of 0.002.
    pub fn new(start: &Weights, pairs: usize, nodes: u64) -> SpsaConfig {
        let mut fixed = vec![false; weights::LEN];
        for name in ["man", "lone_king_off_diagonal"] {
            let r = weights::field_range(name).expect("a weight of the layout");
            fixed[r].iter_mut().for_each(|f| *f = true);
        }
        let c_end = perturbations(start, 0.1, 4.0);
        SpsaConfig {
            pairs,
            nodes,
            random_plies: 4,
            seed: 1,
            concurrency: 1,
            batch: 8,
            fixed,
            c_end,
            r_end: 0.002,
        }
    }
}

/// The perturbation at the end for each value of `start`: `frac` of its size, but at least
/// `min` (hundredths of a man), so that weights starting at 0 move too.
pub fn perturbations(start: &Weights, frac: f64, min: f64) -> Vec<f64> {
    start
        .to_vec()
        .iter()
        .map(|&v| (v.abs() as f64 * frac).max(min))
        .collect()
}

/// Where a run stands, for progress lines.
pub struct SpsaProgress<'a> {
    pub pairs_done: usize,
    /// Points of the `+` weights over all pairs played, and the games.
    pub plus_points: f64,
    pub games: usize,
    /// The weights as they stand, unrounded.
    pub theta: &'a [f64],
}

/// The signs of pair `k`'s perturbation: ±1 per value, 0 for held ones.
fn signs(cfg: &SpsaConfig, k: usize) -> Vec<f64> {
    // Hashed from (seed, k, j) alone, so pair k's signs do not depend on the pairs before it.
    let base = mix64(cfg.seed ^ mix64(k as u64));
    cfg.fixed
        .iter()
        .enumerate()
        .map(|(j, &held)| {
            if held {
                0.0
            } else if mix64(base ^ (j as u64 + 1)) & 1 == 0 {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// The weights nearest `theta`, in range.
fn rounded(theta: &[f64]) -> Weights {
    Weights::from_reals(theta)
}

/// The `+` weights' points over one pair: opening `k`, each side once.
fn play_pair(
    engines: &mut [Engine; 2],
    plus: &Weights,
    minus: &Weights,
    k: usize,
    cfg: &SpsaConfig,
    openings: &[Position],
) -> f64 {
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut points = 0.0;
    for plus_is_white in [true, false] {
        let mut game = opening(openings, k, cfg.seed, cfg.random_plies);
        let (white, black) = if plus_is_white {
            (plus, minus)
        } else {
            (minus, plus)
        };
        engines[0].weights = white.clone();
        engines[1].weights = black.clone();
        for e in engines.iter_mut() {
            e.clear();
        }
        let white_score = play_out(&mut game, &mut |g| {
            let side = g.position().side() as usize;
            engines[side]
                .search(g, &limits, &SearchControl::new(), &mut |_| {})
                .best
        });
        points += if plus_is_white {
            white_score
        } else {
            1.0 - white_score
        };
    }
    points
}

/// Run SPSA from `start` over `openings` (not empty). `progress` sees every finished batch.
/// Returns the final weights, rounded.
pub fn run(
    start: &Weights,
    cfg: &SpsaConfig,
    openings: &[Position],
    progress: &mut dyn FnMut(&SpsaProgress),
) -> Weights {
    assert!(!openings.is_empty(), "SPSA needs openings");
    let n = cfg.pairs.max(1) as f64;
    let big_a = 0.1 * n;
    let mut theta: Vec<f64> = start.to_vec().iter().map(|&v| v as f64).collect();
    let c: Vec<f64> = cfg.c_end.iter().map(|ce| ce * n.powf(GAMMA)).collect();
    let a: Vec<f64> = cfg
        .c_end
        .iter()
        .map(|ce| cfg.r_end * ce * ce * (big_a + n).powf(ALPHA))
        .collect();
    let (mut plus_points, mut games) = (0.0, 0);
    let batch = cfg.batch.max(1);
    let threads = cfg.concurrency.clamp(1, batch);
    let mut engines: Vec<[Engine; 2]> = (0..threads)
        .map(|_| [Engine::new(4, 1), Engine::new(4, 1)])
        .collect();
    let mut first = 1;
    while first <= cfg.pairs {
        let ks: Vec<usize> = (first..=(first + batch - 1).min(cfg.pairs)).collect();
        // Every pair of the batch against the weights as they stand.
        let jobs: Vec<(usize, Vec<f64>, f64, Weights, Weights)> = ks
            .iter()
            .map(|&k| {
                let delta = signs(cfg, k);
                let ck = k as f64;
                let step: Vec<f64> = (0..theta.len())
                    .map(|j| c[j] / ck.powf(GAMMA) * delta[j])
                    .collect();
                let plus: Vec<f64> = theta.iter().zip(&step).map(|(t, s)| t + s).collect();
                let minus: Vec<f64> = theta.iter().zip(&step).map(|(t, s)| t - s).collect();
                (k, delta, ck, rounded(&plus), rounded(&minus))
            })
            .collect();
        // The `+` side's points of each job, by job index.
        let mut results = vec![0.0; jobs.len()];
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let handles: Vec<_> = engines
                .iter_mut()
                .map(|pair| {
                    let (jobs, next) = (&jobs, &next);
                    scope.spawn(move || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some((k, _, _, plus, minus)) = jobs.get(i) else {
                                break done;
                            };
                            done.push((i, play_pair(pair, plus, minus, *k, cfg, openings)));
                        }
                    })
                })
                .collect();
            for h in handles {
                for (i, points) in h.join().expect("an SPSA game thread panicked") {
                    results[i] = points;
                }
            }
        });
        // The updates, in pair order.
        for ((_, delta, ck, _, _), &points) in jobs.iter().zip(&results) {
            plus_points += points;
            games += 2;
            // Wins minus losses of `+` over the pair: from -2 to 2.
            let result = 2.0 * points - 2.0;
            for j in 0..theta.len() {
                if delta[j] == 0.0 {
                    continue;
                }
                let ak = a[j] / (big_a + ck).powf(ALPHA);
                let ckj = c[j] / ck.powf(GAMMA);
                theta[j] += ak * result * delta[j] / ckj;
                theta[j] = weights::clamp_value(j, theta[j]);
            }
        }
        first += batch;
        progress(&SpsaProgress {
            pairs_done: (first - 1).min(cfg.pairs),
            plus_points,
            games,
            theta: &theta,
        });
    }
    rounded(&theta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_are_plus_or_minus_one_and_zero_where_held() {
        let cfg = SpsaConfig::new(&Weights::handset(), 100, 1000);
        let mut plus = vec![0usize; weights::LEN];
        for k in 1..=400 {
            let d = signs(&cfg, k);
            for (j, s) in d.iter().enumerate() {
                if cfg.fixed[j] {
                    assert_eq!(*s, 0.0);
                } else {
                    assert!(*s == 1.0 || *s == -1.0);
                    plus[j] += (*s > 0.0) as usize;
                }
            }
            assert_eq!(d, signs(&cfg, k), "the same pair gets the same signs");
        }
        // Each free sign is a fair coin: 400 draws land well inside 140..260.
        for (j, &p) in plus.iter().enumerate() {
            assert!(cfg.fixed[j] || (140..260).contains(&p), "{j}: {p}");
        }
    }

    /// A handicapped `-` side (a king worth nothing) loses the pair, and the update
    /// follows: a short run from a king worth 0 raises it.
    #[test]
    fn a_run_moves_a_bad_weight_toward_better_play() {
        let mut start = Weights::handset();
        start.king = 0;
        let mut cfg = SpsaConfig::new(&start, 24, 400);
        // Only the king free, perturbed by 150 either way.
        let king = weights::AT.king;
        cfg.fixed.iter_mut().for_each(|f| *f = true);
        cfg.fixed[king] = false;
        cfg.c_end[king] = 150.0;
        cfg.r_end = 0.01;
        cfg.concurrency = 2;
        let openings = crate::arena::openings::builtin();
        let mut kings = Vec::new();
        let got = run(&start, &cfg, &openings, &mut |p| kings.push(p.theta[king]));
        // A flipped update would drive it below 0 (where the range stops it).
        assert!(got.king > 50, "king {}: {kings:?}", got.king);
        assert_eq!(kings.len(), 3, "a progress call a batch");
        assert_eq!(
            got.to_vec()[king + 1..],
            start.to_vec()[king + 1..],
            "held weights move"
        );
        // The same config gives the same run, whatever the threads.
        cfg.concurrency = 1;
        assert_eq!(run(&start, &cfg, &openings, &mut |_| {}), got);
    }

    /// Steps far larger than the range: `θ` and the weights played stay inside it.
    #[test]
    fn a_run_keeps_the_weights_in_their_ranges() {
        let start = Weights::handset();
        let mut cfg = SpsaConfig::new(&start, 8, 50);
        let max = weights::term("king_mobility").unwrap().range.clone();
        cfg.fixed.iter_mut().for_each(|f| *f = true);
        let j = weights::AT.king_mobility;
        cfg.fixed[j] = false;
        cfg.c_end[j] = 1000.0;
        cfg.r_end = 10.0;
        cfg.batch = 4;
        let openings = crate::arena::openings::builtin();
        let mut seen = Vec::new();
        let got = run(&start, &cfg, &openings, &mut |p| seen.push(p.theta[j]));
        assert!(seen.iter().all(|x| max.contains(&(*x as i32))), "{seen:?}");
        assert_eq!(got.out_of_range(), None, "{got:?}");
    }
}
