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
//!
//! Search parameters can be tuned alongside (or alone, with every weight held): each named
//! in `SpsaConfig::search` (by its name in `SearchParams::TUNABLES`) is one more value of
//! `θ`, perturbed, played with and updated as the weights are, within its range. To tune
//! the search for play, the games play with the built-in network (`SpsaConfig::network`),
//! as the engine does, and every weight is held.

use crate::selfplay::{opening, play_out};
use poolshark_engine::core::rng::mix64;
use poolshark_engine::core::Position;
use poolshark_engine::eval::weights::{self, Weights};
use poolshark_engine::eval::Evaluation;
use poolshark_engine::search::params::{ParamError, SearchParams, Tunable};
use poolshark_engine::search::{Engine, Limits, SearchControl};
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
    /// Search parameters tuned too, after the weights in `θ` (none by default).
    pub search: Vec<SearchTune>,
    /// The search parameters the games play with, and the start of those tuned.
    pub search_start: SearchParams,
    /// What the games score positions with men by: the tuned hand terms (`Hand`), or a
    /// learned network beside them, as the engine plays (the hand terms then score only
    /// king endings): for tuning the search.
    pub evaluation: Evaluation,
}

/// A search parameter SPSA tunes, and its perturbation at the end of the run.
#[derive(Clone, Debug)]
pub struct SearchTune {
    pub param: &'static Tunable,
    pub c_end: f64,
}

impl SearchTune {
    /// The parameter called `name`, perturbed at the end by its `step`; an error names the
    /// parameters there are.
    pub fn named(name: &str) -> Result<SearchTune, ParamError> {
        let param = SearchParams::tunable(name)?;
        Ok(SearchTune {
            param,
            c_end: param.step,
        })
    }
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
            search: Vec::new(),
            search_start: SearchParams::default(),
            evaluation: Evaluation::Hand,
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
    /// The search parameters as they stand (the tuned ones rounded as they are played).
    pub search: &'a SearchParams,
}

/// The signs of pair `k`'s perturbation: ±1 per value of `θ` (the weights, then the tuned
/// search parameters), 0 for held ones.
fn signs(cfg: &SpsaConfig, k: usize) -> Vec<f64> {
    // Hashed from (seed, k, j) alone, so pair k's signs do not depend on the pairs before it.
    let base = mix64(cfg.seed ^ mix64(k as u64));
    let held = cfg.fixed.iter().copied();
    held.chain(cfg.search.iter().map(|_| false))
        .enumerate()
        .map(|(j, held)| {
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

/// The weights and search parameters nearest `theta`, in range.
fn rounded(theta: &[f64], cfg: &SpsaConfig) -> (Weights, SearchParams) {
    let (w, s) = theta.split_at(weights::LEN);
    let mut params = cfg.search_start.clone();
    for (t, &v) in cfg.search.iter().zip(s) {
        params
            .set_clamped(t.param.name, v)
            .expect("a parameter of the table");
    }
    let weights = Weights {
        evaluation: cfg.evaluation.clone(),
        ..Weights::from_reals(w)
    };
    (weights, params)
}

/// `θ[j]` kept in its range.
fn clamp_theta(cfg: &SpsaConfig, j: usize, v: f64) -> f64 {
    match j.checked_sub(weights::LEN) {
        None => weights::clamp_value(j, v),
        Some(i) => {
            let t = cfg.search[i].param;
            if v.is_nan() {
                t.min
            } else {
                v.clamp(t.min, t.max)
            }
        }
    }
}

/// The `+` weights' points over one pair: opening `k`, each side once.
fn play_pair(
    engines: &mut [Engine; 2],
    plus: &(Weights, SearchParams),
    minus: &(Weights, SearchParams),
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
        engines[0].weights = white.0.clone();
        engines[0].params = white.1.clone();
        engines[1].weights = black.0.clone();
        engines[1].params = black.1.clone();
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

/// Run SPSA from `start` (and `cfg.search_start`) over `openings` (not empty). `progress`
/// sees every finished batch. Returns the final weights and search parameters, rounded.
pub fn run(
    start: &Weights,
    cfg: &SpsaConfig,
    openings: &[Position],
    progress: &mut dyn FnMut(&SpsaProgress),
) -> (Weights, SearchParams) {
    assert!(!openings.is_empty(), "SPSA needs openings");
    let n = cfg.pairs.max(1) as f64;
    let big_a = 0.1 * n;
    let mut theta: Vec<f64> = start.to_vec().iter().map(|&v| v as f64).collect();
    theta.extend(cfg.search.iter().map(|t| {
        cfg.search_start
            .get(t.param.name)
            .expect("a parameter of the table")
    }));
    let c_end: Vec<f64> = cfg
        .c_end
        .iter()
        .copied()
        .chain(cfg.search.iter().map(|t| t.c_end))
        .collect();
    let c: Vec<f64> = c_end.iter().map(|ce| ce * n.powf(GAMMA)).collect();
    let a: Vec<f64> = c_end
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
        type Side = (Weights, SearchParams);
        let jobs: Vec<(usize, Vec<f64>, f64, Side, Side)> = ks
            .iter()
            .map(|&k| {
                let delta = signs(cfg, k);
                let ck = k as f64;
                let step: Vec<f64> = (0..theta.len())
                    .map(|j| c[j] / ck.powf(GAMMA) * delta[j])
                    .collect();
                let plus: Vec<f64> = theta.iter().zip(&step).map(|(t, s)| t + s).collect();
                let minus: Vec<f64> = theta.iter().zip(&step).map(|(t, s)| t - s).collect();
                (k, delta, ck, rounded(&plus, cfg), rounded(&minus, cfg))
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
                theta[j] = clamp_theta(cfg, j, theta[j]);
            }
        }
        first += batch;
        let (_, search) = rounded(&theta, cfg);
        progress(&SpsaProgress {
            pairs_done: (first - 1).min(cfg.pairs),
            plus_points,
            games,
            theta: &theta[..weights::LEN],
            search: &search,
        });
    }
    rounded(&theta, cfg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

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
        let openings = poolshark_engine::openings::builtin();
        let mut kings = Vec::new();
        let (got, search) = run(&start, &cfg, &openings, &mut |p| kings.push(p.theta[king]));
        assert_eq!(search, SearchParams::default(), "no search parameter tuned");
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
        assert_eq!(run(&start, &cfg, &openings, &mut |_| {}).0, got);
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
        let openings = poolshark_engine::openings::builtin();
        let mut seen = Vec::new();
        let (got, _) = run(&start, &cfg, &openings, &mut |p| seen.push(p.theta[j]));
        assert!(seen.iter().all(|x| max.contains(&(*x as i32))), "{seen:?}");
        assert_eq!(got.out_of_range(), None, "{got:?}");
    }

    /// With a network in the config, the games play with it beside the tuned hand terms:
    /// the engines of a pair score a middlegame as the network does, not as the hand terms.
    #[test]
    fn the_games_play_with_the_configured_network() {
        let start = Weights::handset();
        let mut cfg = SpsaConfig::new(&start, 2, 50);
        let pos =
            poolshark_engine::core::notation::parse_fen("B:W18,21,23,24,27:B5,6,9,11,13").unwrap();
        let hand = poolshark_engine::eval::evaluate(&pos, &start);
        let theta: Vec<f64> = start.to_vec().iter().map(|&v| v as f64).collect();
        assert_eq!(rounded(&theta, &cfg).0.evaluation, Evaluation::Hand);
        cfg.evaluation = Weights::builtin().evaluation;
        let Evaluation::Network(net) = cfg.evaluation.clone() else {
            panic!("the built-in network")
        };
        let (w, _) = rounded(&theta, &cfg);
        assert!(matches!(&w.evaluation, Evaluation::Network(n) if Arc::ptr_eq(n, &net)));
        let (with_net, by_net) = (
            poolshark_engine::eval::evaluate(&pos, &w),
            net.evaluate(&pos),
        );
        assert_eq!(with_net, by_net);
        assert_ne!(with_net, hand);
        let mut engines = [Engine::new(1, 1), Engine::new(1, 1)];
        let pair = (w.clone(), SearchParams::default());
        play_pair(
            &mut engines,
            &pair,
            &pair,
            0,
            &cfg,
            &poolshark_engine::openings::builtin(),
        );
        for e in &engines {
            assert!(
                matches!(&e.weights.evaluation, Evaluation::Network(n) if Arc::ptr_eq(n, &net))
            );
        }
    }

    /// A search parameter named in the config is perturbed, played with and updated: with
    /// every weight held, a short run moves it (and only it), within its range, and the
    /// engines of a pair play with the `+` and `-` values.
    #[test]
    fn a_named_search_parameter_is_tuned() {
        let start = Weights::handset();
        let mut cfg = SpsaConfig::new(&start, 4, 200);
        cfg.fixed.iter_mut().for_each(|f| *f = true);
        cfg.search = vec![SearchTune::named("probcut_margin").unwrap()];
        cfg.search[0].c_end = 30.0;
        cfg.r_end = 0.05;
        cfg.batch = 1;
        // The perturbed sides of pair 1 differ in that parameter alone.
        let delta = signs(&cfg, 1);
        assert_eq!(delta.len(), weights::LEN + 1);
        assert!(delta[..weights::LEN].iter().all(|&d| d == 0.0));
        let mut theta: Vec<f64> = start.to_vec().iter().map(|&v| v as f64).collect();
        theta.push(90.0 + 25.0 * delta[weights::LEN]);
        let (w, p) = rounded(&theta, &cfg);
        assert_eq!(w, start);
        let want = if delta[weights::LEN] > 0.0 { 115 } else { 65 };
        assert_eq!(
            p,
            SearchParams {
                probcut_margin: want,
                ..SearchParams::default()
            }
        );
        // Out of range, the value played is clamped to it.
        theta[weights::LEN] = -500.0;
        assert_eq!(rounded(&theta, &cfg).1.probcut_margin, 0);
        assert_eq!(clamp_theta(&cfg, weights::LEN, 1e9), 1000.0);
        // The games are played with them: after a pair (`+` white, then black), the engines
        // hold the second game's sides.
        let openings = poolshark_engine::openings::builtin();
        let mut plus_theta = theta.clone();
        plus_theta[weights::LEN] = 120.0;
        theta[weights::LEN] = 40.0;
        let (plus, minus) = (rounded(&plus_theta, &cfg), rounded(&theta, &cfg));
        let mut engines = [Engine::new(1, 1), Engine::new(1, 1)];
        cfg.nodes = 50;
        play_pair(&mut engines, &plus, &minus, 1, &cfg, &openings);
        assert_eq!(engines[0].params.probcut_margin, 40);
        assert_eq!(engines[1].params.probcut_margin, 120);
        // A run moves it alone, within its range.
        cfg.nodes = 200;
        let mut seen = Vec::new();
        let (got, search) = run(&start, &cfg, &openings, &mut |p| {
            seen.push(p.search.probcut_margin)
        });
        assert_eq!(got, start);
        assert_eq!(seen.len(), 4);
        assert_eq!(
            SearchParams {
                probcut_margin: 80,
                ..search.clone()
            },
            SearchParams::default()
        );
        assert!((0..=1000).contains(&search.probcut_margin));
        // An unknown name is refused, naming the parameters there are.
        let e = SearchTune::named("probcut_margn").unwrap_err();
        assert!(e.to_string().contains("probcut_margin"), "{e}");
    }
}
