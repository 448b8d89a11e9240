//! The pattern trainer: fits the pattern evaluation (`eval::pattern`), or the big patterns
//! (`eval::big_pattern`), to self-play data by Adam on the mean squared error of
//! `sigmoid(K * eval)` against each position's target, the game's result or a blend of it
//! and the search score (as `tune::texel` does for the hand evaluation). The two evaluations
//! differ only in their features and weights vector (`tune::pattern_model`); the data,
//! the fit, the held-out split and the checkpoint are the same code.
//!
//! Each position is stored sparse: its window states, its piece count and its few linear
//! features (`PatternFeatures`, about 80 bytes; `BigFeatures`, about 70), never a dense
//! vector of the 300,000 (10.6 million) weights. A mini-batch's gradient is summed on
//! rayon's threads, each into its own dense vector.
//!
//! `K` is fitted once, to the hand evaluation's scores on the data, and then held: it fixes
//! the unit, so that the learned weights stay in hundredths of a man, which the search's
//! margins assume. Table values can be pulled toward 0 (`l2`), but by default are not: with
//! Adam, whose steps do not shrink with the gradient, even a small pull holds every state
//! that few positions reach near 0, and those fits played far worse (tuning/README.md).
//!
//! A run is resumable: after every epoch the whole state (weights, Adam's moments, the step
//! and the epoch) goes to a checkpoint file, written atomically, and a run started again with
//! the same settings continues from it (`Checkpoint`). The run is known by its settings and
//! its data's content; the thread count is not part of it.

use crate::core::Color;
use crate::eval::pattern::{self, LINEAR_LEN};
use crate::eval::{evaluate, Weights};
pub use crate::tune::pattern_model::{Big, Model, Small};
use crate::tune::texel::sigmoid;
use crate::tune::{adam, dataline};
use rayon::prelude::*;
use std::collections::HashSet;

/// One position: its features from the side to move and what the fit aims at.
#[derive(Clone, Copy, Debug)]
pub struct Sample<M: Model = Small> {
    pub f: M::Features,
    /// The game's score for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The search score there for the side to move, hundredths of a man; NaN when none.
    pub search: f32,
    /// The hand evaluation's score (for fitting K).
    pub hand: f32,
    /// What the fit aims at (see `blend`).
    pub target: f32,
    /// The game it came from (`dataline::game_hash`), if its line named one.
    pub game: Option<u64>,
}

/// Positions to fit, deduplicated.
#[derive(Clone, Debug)]
pub struct Data<M: Model = Small> {
    pub samples: Vec<Sample<M>>,
    /// Lines dropped because their position was already in.
    pub duplicates: usize,
    /// Lines dropped because no man is on the board: play scores those king endings with
    /// the hand terms (`eval::evaluate`), never with the patterns, so fitting the patterns
    /// to them only bent the rest (the fit learned -243 for a term worth 400 in play).
    pub kings_only: usize,
    /// The positions' keys (Zobrist, side to move included), to drop the next duplicates.
    keys: HashSet<u64>,
}

impl<M: Model> Default for Data<M> {
    fn default() -> Self {
        Data {
            samples: Vec::new(),
            duplicates: 0,
            kings_only: 0,
            keys: HashSet::new(),
        }
    }
}

impl<M: Model> Data<M> {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Add the `FEN ; score [; search]` lines of `text` (as `selfplay` writes them) whose
    /// position is not in yet; `name` labels errors. Parsed on rayon's threads.
    pub fn add_text(&mut self, text: &str, name: &str) -> Result<(), String> {
        let lines: Vec<(usize, &str)> = dataline::numbered(text).collect();
        let parsed: Vec<Result<Parsed<M>, String>> = lines
            .par_iter()
            .map(|&(n, l)| parse_line::<M>(l).map_err(|e| format!("{name}: line {n}: {e}")))
            .collect();
        for r in parsed {
            let Some((key, s)) = r? else {
                self.kings_only += 1;
                continue;
            };
            if self.keys.insert(key) {
                self.samples.push(s);
            } else {
                self.duplicates += 1;
            }
        }
        Ok(())
    }

    /// Aim at `lambda * result + (1 - lambda) * sigmoid(k * search)` where there is a search
    /// score, else at the result (as `tune::Samples::blend`).
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for s in &mut self.samples {
            s.target = if s.search.is_nan() {
                s.result
            } else {
                (lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k * s.search as f64)) as f32
            };
        }
    }

    /// Split off about one position in `HELD_OUT_EVERY`, whole games where the lines name
    /// them (`dataline::held_out`), to measure the fit on games it never saw: (fitted, held
    /// out).
    pub fn hold_out(self) -> (Data<M>, Data<M>) {
        let every = crate::tune::run::HELD_OUT_EVERY;
        let (mut a, mut b) = (Data::default(), Data::default());
        for (i, s) in self.samples.into_iter().enumerate() {
            let d = if dataline::held_out(s.game, i, every) {
                &mut b
            } else {
                &mut a
            };
            d.samples.push(s);
        }
        (a, b)
    }
}

/// A data line read: the position's key and its sample, or None for a position without men.
type Parsed<M> = Option<(u64, Sample<M>)>;

/// One data line: the position's key and its sample, or None for a position without men
/// (see `Data::kings_only`).
fn parse_line<M: Model>(line: &str) -> Result<Parsed<M>, String> {
    let d = dataline::parse(line)?;
    if d.pos.men().is_empty() {
        return Ok(None);
    }
    let (white, search) = (
        d.white_score as f32,
        d.search.map_or(f32::NAN, |s| s as f32),
    );
    let pos = d.pos;
    let (result, search) = match pos.side() {
        Color::White => (white, search),
        Color::Black => (1.0 - white, -search),
    };
    let sample = Sample {
        f: M::features(&pos),
        result,
        search,
        hand: evaluate(&pos, &Weights::default()) as f32,
        target: result,
        game: d.game,
    };
    Ok(Some((pos.key(), sample)))
}

/// The mean squared error of `sigmoid(k * eval)` under real weights `w` against the targets.
pub fn loss<M: Model>(d: &Data<M>, w: &[f32], k: f64) -> f64 {
    mean_squared_error(d, k, |s| f64::from(M::raw_score(w, &s.f)))
}

/// The loss of the hand evaluation's scores on `d`: the baseline a fit should beat.
pub fn hand_loss<M: Model>(d: &Data<M>, k: f64) -> f64 {
    mean_squared_error(d, k, |s| f64::from(s.hand))
}

/// The mean of `(target - sigmoid(k * eval(sample)))^2` over `d` (0 when empty).
fn mean_squared_error<M: Model>(
    d: &Data<M>,
    k: f64,
    eval: impl Fn(&Sample<M>) -> f64 + Sync,
) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let total: f64 = d
        .samples
        .par_iter()
        .map(|s| {
            let r = f64::from(s.target) - sigmoid(k * eval(s));
            r * r
        })
        .sum();
    total / d.len() as f64
}

/// Positions summed together by `fit_k`, one chunk per task.
const FIT_K_CHUNK: usize = 4096;

/// The `K` with which the hand evaluation's scores best predict the results: a scan in steps
/// of 5%, then golden-section search around the best. The sums are taken in fixed chunks and
/// added in order, so the same data gives the same K bit for bit on any number of threads.
pub fn fit_k<M: Model>(d: &Data<M>) -> f64 {
    let l = |k: f64| -> f64 {
        let parts: Vec<f64> = d
            .samples
            .par_chunks(FIT_K_CHUNK)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let r = s.result as f64 - sigmoid(k * s.hand as f64);
                        r * r
                    })
                    .sum()
            })
            .collect();
        parts.iter().sum()
    };
    let (mut best, mut k) = ((f64::MAX, 1e-4), 1e-4);
    while k < 0.2 {
        let v = l(k);
        if v < best.0 {
            best = (v, k);
        }
        k *= 1.05;
    }
    let (mut a, mut b) = (best.1 / 1.05, best.1 * 1.05);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, e) = (b - g * (b - a), a + g * (b - a));
        if l(c) < l(e) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The trainer's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnConfig {
    pub epochs: usize,
    /// Adam's step, in hundredths of a man, at the first epoch; it falls linearly to a tenth
    /// of this by the last.
    pub learning_rate: f64,
    /// Positions per step.
    pub batch: usize,
    /// Pull of the table values toward 0: `l2 * w^2` per value, in loss units.
    pub l2: f64,
    /// Seed for the order positions are visited in (each epoch its own).
    pub seed: u64,
    pub k: f64,
}

impl Default for LearnConfig {
    fn default() -> Self {
        LearnConfig {
            epochs: 20,
            learning_rate: 0.5,
            batch: 4096,
            l2: 0.0,
            seed: 1,
            k: 0.005,
        }
    }
}

pub use crate::tune::adam::State;

/// The gradient of the summed squared error over `batch` (indices into `d`) under `w`, summed
/// on rayon's threads.
fn gradient<M: Model>(d: &Data<M>, w: &[f32], k: f64, batch: &[u32]) -> Vec<f32> {
    let threads = rayon::current_num_threads().max(1);
    let chunk = batch.len().div_ceil(threads).max(256);
    batch
        .par_chunks(chunk)
        .map(|part| {
            let mut g = vec![0f32; M::PARAMS];
            for &i in part {
                let s = &d.samples[i as usize];
                let e = M::raw_score(w, &s.f);
                let p = sigmoid(k * e as f64);
                // d/de (t - p)^2 = -2 (t - p) p (1 - p) k.
                let de = (-2.0 * (s.target as f64 - p) * p * (1.0 - p) * k) as f32;
                M::add_gradient(&mut g, &s.f, de);
            }
            g
        })
        .reduce(
            || vec![0f32; M::PARAMS],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// One epoch: every position of `d` once, in an order drawn from the seed and the epoch,
/// in steps of `cfg.batch`. `on_batch` sees the positions done so far in the epoch.
pub fn epoch<M: Model>(
    d: &Data<M>,
    cfg: &LearnConfig,
    st: &mut State,
    on_batch: &mut dyn FnMut(usize),
) {
    let order = adam::order(d.len(), cfg.seed, st.epoch);
    let lr = adam::rate(cfg.learning_rate, st.epoch, cfg.epochs);
    let mut done = 0;
    for batch in order.chunks(cfg.batch.max(1)) {
        let g = gradient(d, &st.w, cfg.k, batch);
        st.step += 1;
        let step = adam::Step::new(lr, st.step);
        let n = batch.len() as f32;
        let l2 = cfg.l2 as f32;
        let (w, m, v) = (&mut st.w, &mut st.m, &mut st.v);
        w.par_iter_mut()
            .zip(m.par_iter_mut())
            .zip(v.par_iter_mut())
            .zip(g.par_iter())
            .enumerate()
            .with_min_len(4096)
            .for_each(|(j, (((w, m), v), g))| {
                let mut g = g / n;
                if j >= LINEAR_LEN {
                    g += 2.0 * l2 * *w;
                }
                if g == 0.0 && *m == 0.0 {
                    // A state no position has reached yet: nothing to move.
                    return;
                }
                step.apply(w, m, v, g);
                let limit = if j < LINEAR_LEN {
                    pattern::LINEAR_LIMIT
                } else {
                    pattern::PATTERN_LIMIT
                } as f32
                    / pattern::SCALE as f32;
                *w = w.clamp(-limit, limit);
            });
        done += batch.len();
        on_batch(done);
    }
    st.epoch += 1;
}

/// The pattern trainer's checkpoint (`tune::adam::checkpoint`, with its own magic).
pub mod checkpoint {
    use super::State;
    use crate::tune::adam::checkpoint;

    const MAGIC: &[u8; 8] = b"PSLEARN2";

    pub fn write(fingerprint: u64, st: &State) -> Vec<u8> {
        checkpoint::write(MAGIC, fingerprint, st)
    }

    /// The state in `b`, if it is a whole checkpoint of a run with this `fingerprint` of a
    /// model with `params` weights.
    pub fn parse(b: &[u8], fingerprint: u64, params: usize) -> Result<State, String> {
        checkpoint::parse(b, MAGIC, "pattern trainer", fingerprint, Some(params))
    }
}

/// A fingerprint of a run's settings and data, so that a checkpoint is only resumed by the
/// run that made it.
pub fn fingerprint(description: &str) -> u64 {
    crate::checksum::fnv1a(description.as_bytes())
}

/// A hash of a data file's content, for the fingerprint: a file with one result changed is
/// other data, though its size and position count are the same.
pub fn data_hash(text: &str) -> u64 {
    crate::checksum::fnv1a(text.as_bytes())
}

/// How many window states (over all windows) the positions of `d` reach (for reports).
pub fn coverage<M: Model>(d: &Data<M>) -> usize {
    let mut seen = vec![false; M::CELLS];
    for s in &d.samples {
        M::cells(&s.f, &mut |c| seen[c] = true);
    }
    seen.iter().filter(|&&x| x).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;
    use crate::core::rng::Xorshift64;
    use crate::eval::pattern::{Linear, PatternWeights};

    /// Positions from random games with targets that are exactly the probabilities under
    /// `truth`: the best fit reproduces them.
    fn synthetic(truth: &[f32], k: f64, n: usize, seed: u64) -> Data {
        synthetic_of::<Small>(truth, k, n, seed)
    }

    /// `synthetic` for any model.
    fn synthetic_of<M: Model>(truth: &[f32], k: f64, n: usize, seed: u64) -> Data<M> {
        let mut d = Data::<M>::default();
        for pos in RandomPositions::new(seed, 150).take(n) {
            if pos.men().is_empty() {
                continue;
            }
            let f = M::features(&pos);
            let t = sigmoid(k * M::raw_score(truth, &f) as f64) as f32;
            d.samples.push(Sample {
                f,
                result: t,
                search: f32::NAN,
                hand: 0.0,
                target: t,
                game: None,
            });
        }
        d
    }

    /// The big patterns fit as the small ones do: the loss falls, and a value planted for
    /// a common window state, and one for a king's square, come back as their effect on
    /// positions the fit never saw.
    #[test]
    fn the_big_fit_lowers_the_loss_and_recovers_a_planted_weight() {
        use crate::eval::big_pattern::{self as big, king_at, table_at};
        let base = Big::start();
        let k = 0.01;
        let d = synthetic_of::<Big>(&base, k, 20_000, 3);
        // The most common state of a window, short of the empty one and of any that half the
        // positions are in.
        let mut counts = std::collections::HashMap::new();
        for s in &d.samples {
            for (w, &i) in s.f.indices.iter().enumerate() {
                *counts.entry((w, i)).or_insert(0usize) += 1;
            }
        }
        let n = d.len();
        let (&(window, state), &count) = counts
            .iter()
            .filter(|(&(_, i), &c)| i != 0 && c > n / 50 && c < n / 2)
            .max_by_key(|(key, &c)| (c, std::cmp::Reverse(**key)))
            .expect("a common state");
        let mut truth = base.clone();
        truth[table_at(0, window, state as usize)] = 80.0;
        truth[table_at(1, window, state as usize)] = 80.0;
        // An own king on square 2 (index 1), in both phases.
        truth[king_at(0, 0, 1)] = 60.0;
        truth[king_at(1, 0, 1)] = 60.0;
        let d = synthetic_of::<Big>(&truth, k, 20_000, 3);
        // Few, large steps: each costs a pass over the 10.6 million weights.
        let cfg = LearnConfig {
            epochs: 12,
            learning_rate: 3.0,
            batch: 2048,
            l2: 0.0,
            seed: 1,
            k,
        };
        let mut st = State::new(base.clone());
        let mut losses = vec![loss(&d, &st.w, k)];
        for _ in 0..cfg.epochs {
            epoch(&d, &cfg, &mut st, &mut |_| {});
            losses.push(loss(&d, &st.w, k));
        }
        assert!(losses.last().unwrap() < &(losses[0] / 10.0), "{losses:?}");
        let rises = losses.windows(2).filter(|p| p[1] > p[0] * 1.05).count();
        assert!(rises <= 2, "{losses:?}");
        let fresh = synthetic_of::<Big>(&truth, k, 4000, 99);
        let (mut err, mut with, mut n_with, mut king, mut n_king) = (0f32, 0f32, 0, 0f32, 0);
        for s in &fresh.samples {
            let learned = big::raw_score(&st.w, &s.f);
            err += (learned - big::raw_score(&truth, &s.f)).abs();
            let gain = learned - big::raw_score(&base, &s.f);
            if s.f.indices[window] == state {
                with += gain;
                n_with += 1;
            }
            if s.f.own_kings.contains(crate::core::Square::new(1)) {
                king += gain
                    - if s.f.indices[window] == state {
                        80.0
                    } else {
                        0.0
                    };
                n_king += 1;
            }
        }
        let err = err / fresh.len() as f32;
        assert!(err < 10.0, "mean error {err}");
        let with = with / n_with.max(1) as f32;
        assert!(
            n_with > 100 && (with - 80.0).abs() < 15.0,
            "planted 80 (window {window}, state {state}, {count} of {n}), got {with} over {n_with}"
        );
        let king = king / n_king.max(1) as f32;
        assert!(
            n_king > 20 && (king - 60.0).abs() < 20.0,
            "planted 60 for a king on 2, got {king} over {n_king}"
        );
    }

    /// The loss falls epoch by epoch, and a weight planted in the data is found: a large
    /// value for one common window state (the start position's corner) and a changed king
    /// value.
    #[test]
    fn the_fit_lowers_the_loss_and_recovers_a_planted_weight() {
        let start = PatternWeights::default();
        let mut truth = start.to_reals();
        let corner = pattern::features(&crate::core::Position::start()).indices[0];
        let planted = pattern::table_at(0, 0, corner as usize);
        truth[planted] = 80.0;
        truth[pattern::table_at(1, 0, corner as usize)] = 80.0;
        truth[Linear::King as usize] = 250.0;
        let k = 0.01;
        let d = synthetic(&truth, k, 20_000, 3);
        let count = d
            .samples
            .iter()
            .filter(|s| s.f.indices[0] == corner)
            .count();
        assert!(count > 100, "the planted state is common: {count}");
        let cfg = LearnConfig {
            epochs: 30,
            learning_rate: 2.0,
            batch: 512,
            l2: 0.0,
            seed: 1,
            k,
        };
        let mut st = State::new(start.to_reals());
        let mut losses = vec![loss(&d, &st.w, k)];
        for _ in 0..cfg.epochs {
            epoch(&d, &cfg, &mut st, &mut |_| {});
            losses.push(loss(&d, &st.w, k));
        }
        assert!(losses.last().unwrap() < &(losses[0] / 10.0), "{losses:?}");
        let rises = losses.windows(2).filter(|p| p[1] > p[0] * 1.05).count();
        assert!(rises <= 2, "{losses:?}");
        // Window states overlap (a piece is in up to four windows), so one table value is
        // not identifiable alone: what must come back is its effect. On positions the fit
        // never saw, the learned evaluation is the planted one, and where the planted state
        // occurs it adds what was planted.
        let fresh = synthetic(&truth, k, 4000, 99);
        let (mut err, mut with, mut n) = (0f32, 0f32, 0);
        let base = start.to_reals();
        for s in &fresh.samples {
            let learned = pattern::raw_score(&st.w, &s.f);
            err += (learned - pattern::raw_score(&truth, &s.f)).abs();
            if s.f.indices[0] == corner {
                // The king value is planted too: compare on positions without kings.
                if s.f.linear[Linear::King as usize] == 0 {
                    with += learned - pattern::raw_score(&base, &s.f);
                    n += 1;
                }
            }
        }
        let err = err / fresh.len() as f32;
        assert!(err < 8.0, "mean error {err}");
        let with = with / n.max(1) as f32;
        assert!(
            n > 20 && (with - 80.0).abs() < 15.0,
            "planted 80, got {with} over {n}"
        );
        // Patterns see a king as a piece, as they see a man: the king's value over a man's
        // is the linear part's alone.
        let king_over_man = st.w[Linear::King as usize] - st.w[Linear::Man as usize];
        assert!((king_over_man - 150.0).abs() < 20.0, "{king_over_man}");
    }

    /// Two epochs in one go, or one, a checkpoint, and one more from it: the same weights
    /// (on one thread, where the sums are always added in the same order).
    #[test]
    fn a_run_resumed_from_its_checkpoint_ends_where_an_unbroken_one_does() {
        let truth = PatternWeights::default().to_reals();
        let d = synthetic(&truth, 0.01, 3000, 4);
        let cfg = LearnConfig {
            epochs: 2,
            batch: 256,
            ..LearnConfig::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        pool.install(|| {
            let mut whole = State::new(Small::start());
            epoch(&d, &cfg, &mut whole, &mut |_| {});
            epoch(&d, &cfg, &mut whole, &mut |_| {});
            let mut first = State::new(Small::start());
            epoch(&d, &cfg, &mut first, &mut |_| {});
            let mut resumed =
                checkpoint::parse(&checkpoint::write(7, &first), 7, pattern::PARAMS).unwrap();
            epoch(&d, &cfg, &mut resumed, &mut |_| {});
            assert_eq!(resumed, whole);
            assert_ne!(first.w, whole.w);
        });
    }

    /// K is the data's: the same bits on one thread or several.
    #[test]
    fn the_fitted_k_does_not_depend_on_the_thread_count() {
        // Results drawn from the hand evaluation at K 0.004, so that the best K is inside
        // the scan and the last steps of the search compare nearly equal sums.
        let mut d: Data = Data::default();
        let mut rng = Xorshift64::new(11);
        for pos in RandomPositions::new(5, 120).take(30_000) {
            let hand = evaluate(&pos, &Weights::default()) as f32;
            let p = sigmoid(0.004 * hand as f64);
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let result = if u < p { 1.0 } else { 0.0 };
            d.samples.push(Sample {
                f: pattern::features(&pos),
                result,
                search: f32::NAN,
                hand,
                target: result,
                game: None,
            });
        }
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| fit_k(&d))
        };
        let one = on(1);
        assert!((0.003..0.005).contains(&one), "{one}");
        for threads in [2, 3, 5] {
            assert_eq!(on(threads).to_bits(), one.to_bits(), "{threads} threads");
        }
    }

    /// The held-out positions are whole games: no game has positions on both sides.
    #[test]
    fn games_are_held_out_whole() {
        let mut text = String::new();
        for (i, pos) in RandomPositions::new(8, 60).take(4000).enumerate() {
            if pos.men().any() {
                text.push_str(&dataline::write(
                    &pos,
                    0.5,
                    None,
                    Some(&format!("1-{}", i / 20)),
                ));
            }
        }
        let mut d: Data = Data::default();
        d.add_text(&text, "t").unwrap();
        let n = d.len();
        let (fit, held) = d.hold_out();
        let games = |d: &Data| {
            d.samples
                .iter()
                .map(|s| s.game.unwrap())
                .collect::<HashSet<_>>()
        };
        assert!(games(&fit).is_disjoint(&games(&held)));
        assert!(
            held.len() > n / 20 && held.len() < n / 5,
            "{} of {n}",
            held.len()
        );
    }

    #[test]
    fn a_checkpoint_round_trips_and_refuses_another_run_or_damage() {
        let mut st = State::new(Small::start());
        st.epoch = 3;
        st.step = 77;
        st.m[5] = 0.25;
        st.v[pattern::PARAMS - 1] = 9.0;
        let b = checkpoint::write(42, &st);
        assert_eq!(checkpoint::parse(&b, 42, pattern::PARAMS).unwrap(), st);
        assert!(checkpoint::parse(&b, 43, pattern::PARAMS)
            .unwrap_err()
            .contains("other data"));
        let mut bad = b.clone();
        bad[1000] ^= 1;
        assert!(checkpoint::parse(&bad, 42, pattern::PARAMS)
            .unwrap_err()
            .contains("damaged"));
        assert!(checkpoint::parse(&b[..100], 42, pattern::PARAMS)
            .unwrap_err()
            .contains("truncated"));
    }

    #[test]
    fn lines_load_deduplicated_from_the_side_to_move() {
        let mut d: Data = Data::default();
        d.add_text(
            "B:W21-32:B1-12 ; 1 ; 40\nB:W21-32:B1-12 ; 0 ; -\nW:W21-32:B1-12 ; 1 ; 40\n",
            "t",
        )
        .unwrap();
        assert_eq!((d.len(), d.duplicates), (2, 1));
        // Black to move, White won: a loss for the side to move, and the search score turned.
        assert_eq!((d.samples[0].result, d.samples[0].search), (0.0, -40.0));
        assert_eq!((d.samples[1].result, d.samples[1].search), (1.0, 40.0));
        d.add_text("W:W21-32:B1-12 ; 0", "u").unwrap();
        assert_eq!((d.len(), d.duplicates), (2, 2));
        // A king ending is scored by the hand terms in play: not fitted.
        d.add_text("W:WK21,K22:BK1 ; 1 ; 50 ; 3-4", "v").unwrap();
        assert_eq!((d.len(), d.duplicates, d.kings_only), (2, 2, 1));
        let e = d.add_text("B:W21-32:B1-12 ; 2", "file.txt").unwrap_err();
        assert!(e.starts_with("file.txt: line 1"), "{e}");
    }
}
