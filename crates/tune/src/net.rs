//! The network trainer: fits `eval::nnue::FloatNetwork` to self-play data by Adam on the
//! mean squared error of `sigmoid(output)` against each position's target, the game's
//! result blended with the search score (`tune::target`).
//!
//! - **Data** (`NetData`): each position is kept as three 32-bit sets (White's pieces,
//!   Black's, the kings), the side to move and its target, 20 bytes, so that tens of millions
//!   fit in memory. Positions without men are dropped (play scores them with the hand terms),
//!   and so are repeats. The held-out split is by game (`dataline::held_out`). Text data
//!   lines and packed files (`tune::packed`) load alike (`add_text`, `add_packed`).
//! - **Scale**: `K` is fitted to the hand evaluation on the data (`NetData::fit_k`) and the
//!   network's output is in logit units, `sigmoid(output)` the expected score; its
//!   evaluation in hundredths of a man is `output / K` (`FloatNetwork::scale`), so the search's
//!   margins keep their meaning.
//! - **Steps**: a mini-batch's gradient is summed on rayon's threads, each into its own dense
//!   vector (the network is small: 35,000 values at width 128), then Adam moves every value
//!   and the weights are clipped to what the quantized network can hold
//!   (`FloatNetwork::clip`).
//! - **Resumable**: after every epoch the whole state goes to a checkpoint (`checkpoint`),
//!   and a run started again with the same settings and data continues from it.

use crate::target::{self, sigmoid};
use crate::{adam, dataline, packed};
use poolshark_engine::core::{Color, Position};
use poolshark_engine::eval::nnue::{
    self, bucket, planes_of, FloatNetwork, BUCKETS, INPUTS, MAX_HIDDEN,
};
use poolshark_engine::eval::{evaluate, Weights};
use rayon::prelude::*;
use std::collections::HashSet;

/// One position as the trainer keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetSample {
    pub white: u32,
    pub black: u32,
    pub kings: u32,
    pub side: Color,
    /// The game's score for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The search score for the side to move, hundredths of a man; NaN when none.
    pub search: f32,
    /// What the fit aims at (`NetData::blend`).
    pub target: f32,
}

impl NetSample {
    pub fn of(pos: &Position, result: f32, search: f32) -> NetSample {
        NetSample {
            white: pos.white().0,
            black: pos.black().0,
            kings: pos.kings().0,
            side: pos.side(),
            result,
            search,
            target: result,
        }
    }

    /// The planes of the side to move, then the other side's.
    #[inline(always)]
    fn views(&self) -> [[u32; nnue::PLANES]; 2] {
        [
            planes_of(self.white, self.black, self.kings, self.side),
            planes_of(self.white, self.black, self.kings, self.side.flip()),
        ]
    }

    fn pieces(&self) -> u32 {
        (self.white | self.black).count_ones()
    }
}

/// The positions to fit and those held out, deduplicated.
#[derive(Clone, Debug, Default)]
pub struct NetData {
    pub train: Vec<NetSample>,
    pub held: Vec<NetSample>,
    /// The hand evaluation's score of a sample of the positions, for fitting `K`.
    pub hand: Vec<(f32, f32)>,
    /// Lines dropped because their position was already in.
    pub duplicates: usize,
    /// Lines dropped because no man is on the board (see the module notes).
    pub kings_only: usize,
    keys: HashSet<u64>,
    lines: usize,
}

/// Every how many positions one goes to the sample `K` is fitted on.
const HAND_SAMPLE_EVERY: usize = 8;

/// Positions `NetData::fit_k` sums together, one chunk per task.
const FIT_K_CHUNK: usize = 4096;

impl NetData {
    pub fn len(&self) -> usize {
        self.train.len() + self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Add the data lines of `text` (`name` labels errors), parsed on rayon's threads.
    pub fn add_text(&mut self, text: &str, name: &str) -> Result<(), String> {
        let lines: Vec<(usize, &str)> = dataline::numbered(text).collect();
        let parsed: Vec<Result<dataline::DataLine, String>> = lines
            .par_iter()
            .map(|&(n, l)| dataline::parse(l).map_err(|e| format!("{name}: line {n}: {e}")))
            .collect();
        self.add_lines(parsed)
    }

    /// Add the records of a packed file (`tune::packed`), each as its training line (the
    /// tables' value, where known, in place of the game's result).
    pub fn add_packed(&mut self, f: &packed::File) -> Result<(), String> {
        let lines = f
            .records
            .par_iter()
            .map(|r| Ok(packed::training_line(r, f.seed)))
            .collect();
        self.add_lines(lines)
    }

    /// Add parsed data lines in order; the first error stops.
    fn add_lines(&mut self, parsed: Vec<Result<dataline::DataLine, String>>) -> Result<(), String> {
        for d in parsed {
            let d = d?;
            let i = self.lines;
            self.lines += 1;
            if d.pos.men().is_empty() {
                self.kings_only += 1;
                continue;
            }
            if !self.keys.insert(d.pos.key()) {
                self.duplicates += 1;
                continue;
            }
            let (result, search) = target::side_view(
                d.pos.side(),
                d.white_score as f32,
                d.search.map_or(f32::NAN, |s| s as f32),
            );
            let s = NetSample::of(&d.pos, result, search);
            if self.len().is_multiple_of(HAND_SAMPLE_EVERY) {
                self.hand
                    .push((evaluate(&d.pos, &Weights::default()) as f32, result));
            }
            let every = crate::run::HELD_OUT_EVERY;
            if dataline::held_out(d.game, i, every) {
                self.held.push(s);
            } else {
                self.train.push(s);
            }
        }
        Ok(())
    }

    /// Drop the duplicate filter (it holds 8 bytes a position) once every file is in.
    pub fn seal(&mut self) {
        self.keys = HashSet::new();
    }

    /// The `K` with which the hand evaluation's scores best predict the results
    /// (`target::fit_k`). The sums are taken in fixed chunks and added in order, so the same
    /// data gives the same K bit for bit on any number of threads.
    pub fn fit_k(&self) -> f64 {
        target::fit_k(|k| {
            let parts: Vec<f64> = self
                .hand
                .par_chunks(FIT_K_CHUNK)
                .map(|c| {
                    c.iter()
                        .map(|&(hand, result)| {
                            let r = f64::from(result) - sigmoid(k * f64::from(hand));
                            r * r
                        })
                        .sum()
                })
                .collect();
            parts.iter().sum()
        })
    }

    /// Aim at `target::blend` of each position's result and search score.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for s in self.train.iter_mut().chain(self.held.iter_mut()) {
            s.target = target::blend(s.result, s.search, lambda, k);
        }
    }
}

/// Where each part of the network lies in the flat vector the trainer keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hidden: usize,
}

impl Layout {
    pub fn w1(self) -> usize {
        0
    }
    pub fn b1(self) -> usize {
        INPUTS * self.hidden
    }
    pub fn w2(self) -> usize {
        self.b1() + self.hidden
    }
    pub fn b2(self) -> usize {
        self.w2() + BUCKETS * 2 * self.hidden
    }
    pub fn len(self) -> usize {
        self.b2() + BUCKETS
    }
    pub fn is_empty(self) -> bool {
        false
    }

    /// The network as a flat vector.
    pub fn flatten(self, net: &FloatNetwork) -> Vec<f32> {
        let mut v = Vec::with_capacity(self.len());
        v.extend_from_slice(&net.w1);
        v.extend_from_slice(&net.b1);
        v.extend_from_slice(&net.w2);
        v.extend_from_slice(&net.b2);
        v
    }

    /// The network of flat vector `v`, with output scale `scale`.
    pub fn network(self, v: &[f32], scale: f32) -> FloatNetwork {
        FloatNetwork {
            hidden: self.hidden,
            scale,
            w1: v[self.w1()..self.b1()].to_vec(),
            b1: v[self.b1()..self.w2()].to_vec(),
            w2: v[self.w2()..self.b2()].to_vec(),
            b2: v[self.b2()..].to_vec(),
        }
    }
}

/// The accumulators of `s` under flat weights `p`: the side to move's, then the other's.
#[inline(always)]
fn accumulators(p: &[f32], l: Layout, s: &NetSample, acc: &mut [[f32; MAX_HIDDEN]; 2]) {
    let h = l.hidden;
    for (v, planes) in s.views().iter().enumerate() {
        let a = &mut acc[v][..h];
        a.copy_from_slice(&p[l.b1()..l.b1() + h]);
        for f in nnue::active(planes) {
            let row = &p[f * h..(f + 1) * h];
            a.iter_mut().zip(row).for_each(|(x, w)| *x += w);
        }
    }
}

/// The output of `s` under flat weights `p`, in logit units.
pub fn output(p: &[f32], l: Layout, s: &NetSample) -> f32 {
    let mut acc = [[0f32; MAX_HIDDEN]; 2];
    accumulators(p, l, s, &mut acc);
    let h = l.hidden;
    let b = bucket(s.pieces());
    let w = &p[l.w2() + b * 2 * h..l.w2() + (b + 1) * 2 * h];
    let mut y = p[l.b2() + b];
    for i in 0..h {
        y += w[i] * nnue::screlu(acc[0][i]) + w[h + i] * nnue::screlu(acc[1][i]);
    }
    y
}

/// The mean of `(target - sigmoid(output))^2` over `d` under flat weights `p` (0 if empty).
pub fn loss(d: &[NetSample], p: &[f32], l: Layout) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let total: f64 = d
        .par_iter()
        .map(|s| {
            let r = f64::from(s.target) - sigmoid(f64::from(output(p, l, s)));
            r * r
        })
        .sum();
    total / d.len() as f64
}

/// Add the gradient of `(target - sigmoid(output))^2` for `s` under `p` into `g`.
#[inline(always)]
fn add_gradient(p: &[f32], l: Layout, s: &NetSample, g: &mut [f32]) {
    let h = l.hidden;
    let mut acc = [[0f32; MAX_HIDDEN]; 2];
    accumulators(p, l, s, &mut acc);
    let b = bucket(s.pieces());
    let w2 = l.w2() + b * 2 * h;
    let mut y = p[l.b2() + b];
    for i in 0..h {
        y += p[w2 + i] * nnue::screlu(acc[0][i]) + p[w2 + h + i] * nnue::screlu(acc[1][i]);
    }
    let q = sigmoid(f64::from(y));
    // d/dy (t - q)^2 = -2 (t - q) q (1 - q).
    let dy = (-2.0 * (f64::from(s.target) - q) * q * (1.0 - q)) as f32;
    g[l.b2() + b] += dy;
    let mut dacc = [[0f32; MAX_HIDDEN]; 2];
    for v in 0..2 {
        for i in 0..h {
            let x = acc[v][i];
            let c = x.clamp(0.0, 1.0);
            g[w2 + v * h + i] += dy * c * c;
            // SCReLU's slope: 2x inside (0, 1), 0 outside.
            dacc[v][i] = if x > 0.0 && x < 1.0 {
                dy * p[w2 + v * h + i] * 2.0 * x
            } else {
                0.0
            };
        }
    }
    for (v, planes) in s.views().iter().enumerate() {
        let d = &dacc[v][..h];
        g[l.b1()..l.b1() + h]
            .iter_mut()
            .zip(d)
            .for_each(|(x, y)| *x += y);
        for f in nnue::active(planes) {
            g[f * h..(f + 1) * h]
                .iter_mut()
                .zip(d)
                .for_each(|(x, y)| *x += y);
        }
    }
}

/// The trainer's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct NetConfig {
    pub hidden: usize,
    pub epochs: usize,
    /// Adam's step at the first epoch; it falls linearly to a tenth of this by the last.
    pub learning_rate: f64,
    /// Positions per step.
    pub batch: usize,
    /// Seed for the starting weights and the order positions are visited in.
    pub seed: u64,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            hidden: 128,
            epochs: 10,
            learning_rate: 1e-3,
            batch: 16_384,
            seed: 1,
        }
    }
}

pub use crate::adam::State as NetState;

/// A fresh run: random starting weights from the config's seed.
pub fn start(cfg: &NetConfig) -> NetState {
    start_from(&FloatNetwork::random(cfg.hidden, 1.0, cfg.seed))
}

/// A fresh run that starts from network `f` (its scale does not matter: the trainer works in
/// logit units).
pub fn start_from(f: &FloatNetwork) -> NetState {
    NetState::new(Layout { hidden: f.hidden }.flatten(f))
}

/// Positions a rayon task sums at once.
const GRADIENT_CHUNK: usize = 1024;

/// One epoch over `d` in an order drawn from the seed and the epoch, in steps of
/// `cfg.batch`. `on_batch` sees the positions done so far in the epoch.
pub fn epoch(d: &[NetSample], cfg: &NetConfig, st: &mut NetState, on_batch: &mut dyn FnMut(usize)) {
    let l = Layout { hidden: cfg.hidden };
    let order = adam::order(d.len(), cfg.seed, st.epoch);
    let lr = adam::rate(cfg.learning_rate, st.epoch, cfg.epochs);
    let mut done = 0;
    for batch in order.chunks(cfg.batch.max(1)) {
        let w = &st.w;
        let g = batch
            .par_chunks(GRADIENT_CHUNK)
            .fold(
                || vec![0f32; l.len()],
                |mut g, part| {
                    for &i in part {
                        add_gradient(w, l, &d[i as usize], &mut g);
                    }
                    g
                },
            )
            .reduce(
                || vec![0f32; l.len()],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        st.step += 1;
        let step = adam::Step::new(lr, st.step);
        let n = batch.len() as f32;
        for (((w, m), v), g) in st.w.iter_mut().zip(&mut st.m).zip(&mut st.v).zip(&g) {
            step.apply(w, m, v, g / n);
        }
        clip(&mut st.w, l);
        done += batch.len();
        on_batch(done);
    }
    st.epoch += 1;
}

/// `FloatNetwork::clip` on a flat vector.
fn clip(w: &mut [f32], l: Layout) {
    for x in &mut w[..l.w2()] {
        *x = x.clamp(-nnue::W1_LIMIT, nnue::W1_LIMIT);
    }
    for x in &mut w[l.w2()..l.b2()] {
        *x = x.clamp(-nnue::W2_LIMIT, nnue::W2_LIMIT);
    }
}

/// The network trainer's checkpoint (`tune::adam::checkpoint`, with its own magic).
pub mod checkpoint {
    use super::NetState;
    use crate::adam::checkpoint;

    /// Version 2 keeps the run's settings as text; version 1 kept only their hash.
    const MAGIC: &[u8; 8] = b"PSNETCK2";
    const OLD: &[u8; 8] = b"PSNETCK1";

    pub fn write(settings: &str, st: &NetState) -> Vec<u8> {
        checkpoint::write(MAGIC, settings, st)
    }

    /// The state in `b`, if it is a whole checkpoint of a run with these `settings` (a
    /// refusal names each setting that differs).
    pub fn parse(b: &[u8], settings: &str) -> Result<NetState, String> {
        if b.starts_with(OLD) {
            return Err(
                "a checkpoint of an older poolshark (PSNETCK1), which kept no settings: remove it to start afresh"
                    .into(),
            );
        }
        let (saved, st) = checkpoint::parse(b, MAGIC, "network trainer", None)?;
        checkpoint::check_settings(&saved, settings)?;
        Ok(st)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::random_games::RandomPositions;

    /// What the synthetic data is drawn from: a man is worth 0.1 logit units, a king 0.3,
    /// and a man on the side to move's square 15 (`planted`) 1.0 more. Random games leave
    /// large material differences: with larger values many targets would be near 0 or 1,
    /// where the loss hardly sees a difference and the plant is not learned.
    fn truth(pos: &Position) -> f32 {
        let us = pos.pieces(pos.side());
        let them = pos.pieces(pos.side().flip());
        let k = pos.kings();
        let count = |b: poolshark_engine::core::Bitboard| b.count() as f32;
        let mut y =
            0.1 * (count(us & !k) - count(them & !k)) + 0.3 * (count(us & k) - count(them & k));
        if planted(pos) {
            y += 1.0;
        }
        y
    }

    /// Whether the side to move has a man on square 15 as it sees the board (its 15: White's
    /// 15, Black's 18). It must be seen from the side to move: the network scores a position
    /// and its mirror image the same by construction.
    fn planted(pos: &Position) -> bool {
        nnue::planes(pos, pos.side())[0] & (1 << 14) != 0
    }

    fn synthetic(n: usize, seed: u64) -> Vec<NetSample> {
        RandomPositions::new(seed, 120)
            .filter(|p| p.men().any())
            .take(n)
            .map(|p| {
                let t = sigmoid(f64::from(truth(&p))) as f32;
                NetSample::of(&p, t, f32::NAN)
            })
            .collect()
    }

    /// The loss falls, and on positions the fit never saw the network's output follows the
    /// planted values: material, and the planted king square.
    #[test]
    fn the_fit_lowers_the_loss_and_recovers_a_planted_weight() {
        let d = synthetic(30_000, 3);
        let cfg = NetConfig {
            hidden: 32,
            epochs: 12,
            learning_rate: 5e-3,
            batch: 256,
            seed: 2,
        };
        let l = Layout { hidden: cfg.hidden };
        let mut st = start(&cfg);
        let mut losses = vec![loss(&d, &st.w, l)];
        for _ in 0..cfg.epochs {
            epoch(&d, &cfg, &mut st, &mut |_| {});
            losses.push(loss(&d, &st.w, l));
        }
        assert!(losses.last().unwrap() < &(losses[0] / 5.0), "{losses:?}");
        // The planted square's effect, on fresh positions where the side to move has a man
        // on 15: the network's output less the truth without the plant is the plant.
        let (mut gain, mut n) = (0f64, 0);
        for p in RandomPositions::new(77, 120).take(40_000) {
            if p.men().is_empty() || !planted(&p) {
                continue;
            }
            let s = NetSample::of(&p, 0.5, f32::NAN);
            gain += f64::from(output(&st.w, l, &s) - (truth(&p) - 1.0));
            n += 1;
        }
        let gain = gain / n.max(1) as f64;
        assert!(
            n > 100 && (gain - 1.0).abs() < 0.15,
            "planted 1.0, got {gain} over {n}; losses {losses:?}"
        );
        let fresh = synthetic(3000, 99);
        let err: f32 = fresh
            .iter()
            .map(|s| {
                let p = Position::new_unchecked(
                    poolshark_engine::core::Bitboard(s.white),
                    poolshark_engine::core::Bitboard(s.black),
                    poolshark_engine::core::Bitboard(s.kings),
                    s.side,
                );
                (output(&st.w, l, s) - truth(&p)).abs()
            })
            .sum::<f32>()
            / fresh.len() as f32;
        assert!(err < 0.2, "mean error {err} logit units");
    }

    /// The trainer's flat forward pass is `FloatNetwork::forward`.
    #[test]
    fn the_flat_output_is_the_networks() {
        let net = FloatNetwork::random(48, 100.0, 9);
        let l = Layout { hidden: 48 };
        let w = l.flatten(&net);
        assert_eq!(l.network(&w, 100.0), net);
        for p in RandomPositions::new(4, 100).take(500) {
            let s = NetSample::of(&p, 0.5, f32::NAN);
            let (a, b) = (output(&w, l, &s), net.forward(&p));
            assert!((a - b).abs() < 1e-5, "{a} {b}");
        }
    }

    /// The analytic gradient matches finite differences of the loss.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let l = Layout { hidden: 16 };
        let mut w = l.flatten(&FloatNetwork::random(16, 1.0, 3));
        let d: Vec<NetSample> = synthetic(50, 5);
        let mut g = vec![0f32; l.len()];
        for s in &d {
            add_gradient(&w, l, s, &mut g);
        }
        let sum_loss = |w: &[f32]| -> f64 {
            d.iter()
                .map(|s| {
                    let r = f64::from(s.target) - sigmoid(f64::from(output(w, l, s)));
                    r * r
                })
                .sum()
        };
        // A few values of each part that some position uses.
        let f = nnue::active(&d[0].views()[0]).next().unwrap();
        for j in [
            f * 16 + 3,
            l.b1() + 5,
            l.w2() + bucket(d[0].pieces()) * 32 + 7,
            l.b2() + bucket(d[0].pieces()),
        ] {
            let eps = 1e-3;
            let keep = w[j];
            w[j] = keep + eps;
            let up = sum_loss(&w);
            w[j] = keep - eps;
            let down = sum_loss(&w);
            w[j] = keep;
            let numeric = (up - down) / (2.0 * eps as f64);
            assert!(
                (numeric - g[j] as f64).abs() < 1e-3 + 0.02 * numeric.abs(),
                "value {j}: numeric {numeric}, analytic {}",
                g[j]
            );
        }
    }

    #[test]
    fn a_checkpoint_round_trips_and_refuses_another_run_or_damage() {
        let mut st = start(&NetConfig {
            hidden: 16,
            ..NetConfig::default()
        });
        st.epoch = 2;
        st.step = 9;
        st.m[3] = 0.5;
        let b = checkpoint::write("--seed 5\n", &st);
        assert_eq!(checkpoint::parse(&b, "--seed 5\n").unwrap(), st);
        let e = checkpoint::parse(&b, "--seed 6\n").unwrap_err();
        assert!(e.contains("--seed 5 in the checkpoint, 6 now"), "{e}");
        let mut bad = b.clone();
        bad[100] ^= 4;
        assert!(checkpoint::parse(&bad, "--seed 5\n")
            .unwrap_err()
            .contains("damaged"));
        assert!(checkpoint::parse(&b[..b.len() - 3], "--seed 5\n")
            .unwrap_err()
            .contains("truncated"));
        assert!(checkpoint::parse(b"PSLEARN1........", "--seed 5\n").is_err());
        let e = checkpoint::parse(b"PSNETCK1........", "--seed 5\n").unwrap_err();
        assert!(e.contains("older"), "{e}");
    }

    #[test]
    fn lines_load_by_game_without_king_endings_or_repeats() {
        let mut d = NetData::default();
        let mut text = String::new();
        for (i, p) in RandomPositions::new(6, 80).take(3000).enumerate() {
            text.push_str(&dataline::write(
                &p,
                1.0,
                Some(40),
                Some(&format!("9-{}", i / 30)),
            ));
        }
        text.push_str("W:WK21,K22:BK1 ; 1 ; 50 ; 9-x\n");
        text.push_str("B:W21-32:B1-12 ; 0 ; 10 ; 9-y\nB:W21-32:B1-12 ; 0 ; 10 ; 9-z\n");
        d.add_text(&text, "t").unwrap();
        assert!(d.kings_only >= 1 && d.duplicates >= 1);
        assert!(
            d.held.len() > d.len() / 25 && d.held.len() < d.len() / 4,
            "{}",
            d.held.len()
        );
        // The start position comes first from the random games (White's score 1, search 40):
        // Black to move, so a loss for the side to move with the search score turned, and the
        // later line of it is a repeat.
        let start = NetSample::of(&Position::start(), 0.0, -40.0);
        assert!(d.train.iter().chain(&d.held).any(|s| *s == start));
        let e = d.add_text("B:W21-32:B1-12 ; 2", "f.txt").unwrap_err();
        assert!(e.starts_with("f.txt: line 1"), "{e}");
    }
}
