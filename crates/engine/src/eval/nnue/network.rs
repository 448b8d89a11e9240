//! `Network`: the quantized network that plays, made from a `FloatNetwork` by `quantize`,
//! and its evaluation from scratch.
//!
//! - `w1`, `b1`: `i16`, `round(x * QA)`, `INPUTS` rows of `hidden` then the biases, in
//!   32-byte aligned chunks (`simd::Chunk`).
//! - `w2`: `i16`, `round(x * QB)` (at most 128 in size), `BUCKETS` rows of `2 * hidden`;
//!   `b2`: `i32`, `round(x * QA * QA * QB)`.
//! - The output: `sum = b2 + sum_i (v_i * w2_i) * v_i` with `v = clamp(acc, 0, QA)` over the
//!   side to move's accumulator then the other's (SCReLU, in units of `QA * QA * QB`), and
//!   the evaluation `sum * scale / (QA * QA * QB)` hundredths of a man, toward zero, within
//!   `EVAL_LIMIT`. `scale` is applied as a 16-bit fixed-point multiplier (`MUL_SHIFT`).
//!
//! The sums cannot overflow: an accumulator is at most 25 rows of 251 (6,275, an `i16`);
//! one SCReLU term at most 127 * 128 * 127 = 2,064,512 and 2 * 512 of them 2,114,060,288,
//! inside an `i32`; the bias and the scaling are done in `i64`.

use super::simd::{self, Chunk, Features, Level, LANES};
use super::{
    bucket, planes, FloatNetwork, BUCKETS, INPUTS, MAX_HIDDEN, PLANES, QA, QB, W1_LIMIT, W2_LIMIT,
};
use crate::core::{Color, Position};
use crate::eval::EVAL_LIMIT;
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest quantized first-layer weight or bias: `round(QA * W1_LIMIT)`.
pub const W1_MAX: i32 = 251;
/// The largest quantized output weight: `QB * W2_LIMIT`.
pub const W2_MAX: i32 = 128;
/// The output's denominator: an output of 1.0 (logit) is this many units of `sum`.
pub const OUTPUT_UNIT: i64 = (QA * QA * QB) as i64;
/// `scale` is applied as `round(scale * 2^MUL_SHIFT)`.
pub const MUL_SHIFT: u32 = 16;
/// Chunks of the widest accumulator.
pub const MAX_CHUNKS: usize = MAX_HIDDEN / LANES;

const _: () = assert!(W1_MAX == (QA as f32 * W1_LIMIT + 0.5) as i32);
const _: () = assert!(W2_MAX == (QB as f32 * W2_LIMIT) as i32);
const _: () = assert!(QA * W2_MAX <= i16::MAX as i32);

/// Networks made so far: each gets its own id, which an accumulator cache checks.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The quantized network (see the module notes).
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    scale: f32,
    mul: i64,
    w1: Vec<Chunk>,
    b1: Vec<Chunk>,
    w2: Vec<Chunk>,
    b2: [i32; BUCKETS],
    id: u64,
}

impl PartialEq for Network {
    /// Equal weights (the id does not count).
    fn eq(&self, o: &Network) -> bool {
        self.hidden == o.hidden
            && self.scale.to_bits() == o.scale.to_bits()
            && self.w1 == o.w1
            && self.b1 == o.b1
            && self.w2 == o.w2
            && self.b2 == o.b2
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "Network {{ hidden: {}, scale: {}, id: {} }}",
            self.hidden, self.scale, self.id
        )
    }
}

fn to_chunks(v: &[i16]) -> Vec<Chunk> {
    v.chunks(LANES)
        .map(|c| Chunk(c.try_into().expect("a multiple of 16")))
        .collect()
}

fn flat(v: &[Chunk]) -> impl Iterator<Item = i16> + '_ {
    v.iter().flat_map(|c| c.0)
}

impl FloatNetwork {
    /// The quantized network that plays. Weights beyond their limits (`W1_LIMIT`,
    /// `W2_LIMIT`) are clipped to them first, as `clip` does.
    pub fn quantize(&self) -> Network {
        Network::from_float(self)
    }
}

impl Network {
    /// The float network this one is the quantization of: every value divided by its unit
    /// (`QA`, `QB`, `QA * QA * QB`). `to_float().quantize()` gives back this network's
    /// weights exactly. The trainer starts from it (`learn --start`).
    pub fn to_float(&self) -> FloatNetwork {
        let unit = |v: &[Chunk], u: f32| flat(v).map(|x| x as f32 / u).collect::<Vec<f32>>();
        FloatNetwork {
            hidden: self.hidden,
            scale: self.scale,
            w1: unit(&self.w1, QA as f32),
            b1: unit(&self.b1, QA as f32),
            w2: unit(&self.w2, QB as f32),
            b2: self
                .b2
                .iter()
                .map(|&b| (b as f64 / OUTPUT_UNIT as f64) as f32)
                .collect(),
        }
    }

    /// See `FloatNetwork::quantize`.
    pub fn from_float(f: &FloatNetwork) -> Network {
        let q = |x: f32, unit: i32, max: i32| {
            ((x * unit as f32).round() as i32).clamp(-max, max) as i16
        };
        let w1: Vec<i16> = f.w1.iter().map(|&x| q(x, QA, W1_MAX)).collect();
        let b1: Vec<i16> = f.b1.iter().map(|&x| q(x, QA, W1_MAX)).collect();
        let w2: Vec<i16> = f.w2.iter().map(|&x| q(x, QB, W2_MAX)).collect();
        let b2 = std::array::from_fn(|b| (f.b2[b] as f64 * OUTPUT_UNIT as f64).round() as i32);
        Network::from_parts(f.hidden, f.scale, &w1, &b1, &w2, b2)
    }

    /// A network from its quantized values (the file reader's way in). Panics if the shape
    /// is wrong; the values are taken as they are (the reader checks their ranges).
    pub fn from_parts(
        hidden: usize,
        scale: f32,
        w1: &[i16],
        b1: &[i16],
        w2: &[i16],
        b2: [i32; BUCKETS],
    ) -> Network {
        assert!(
            hidden > 0 && hidden.is_multiple_of(LANES) && hidden <= MAX_HIDDEN,
            "hidden {hidden}"
        );
        assert_eq!(w1.len(), INPUTS * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), BUCKETS * 2 * hidden);
        Network {
            hidden,
            scale,
            mul: (scale as f64 * (1u64 << MUL_SHIFT) as f64).round() as i64,
            w1: to_chunks(w1),
            b1: to_chunks(b1),
            w2: to_chunks(w2),
            b2,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }
    /// Chunks of one accumulator (`hidden / 16`).
    pub fn chunks(&self) -> usize {
        self.hidden / LANES
    }
    pub fn scale(&self) -> f32 {
        self.scale
    }
    /// This network's id: no other network made in this process has it (clones share it,
    /// as they share the weights).
    pub fn id(&self) -> u64 {
        self.id
    }
    /// `w1`'s values, row by row.
    pub fn w1(&self) -> impl Iterator<Item = i16> + '_ {
        flat(&self.w1)
    }
    pub fn b1(&self) -> impl Iterator<Item = i16> + '_ {
        flat(&self.b1)
    }
    /// `w2`'s values, bucket by bucket.
    pub fn w2(&self) -> impl Iterator<Item = i16> + '_ {
        flat(&self.w2)
    }
    pub fn b2(&self) -> [i32; BUCKETS] {
        self.b2
    }
    /// The first-layer rows, as the accumulator loops take them.
    pub fn w1_chunks(&self) -> &[Chunk] {
        &self.w1
    }
    pub fn b1_chunks(&self) -> &[Chunk] {
        &self.b1
    }

    /// Both views' accumulators (`acc`, `2 * chunks()` long: White's view, then Black's)
    /// from scratch, for the position whose planes as White sees them are `white`
    /// (`nnue::planes`).
    #[inline]
    pub fn refresh(&self, level: Level, acc: &mut [Chunk], white: &[u32; PLANES]) {
        let mut on = Features::empty();
        on.set_on(white);
        simd::refresh(level, acc, &self.b1, &self.w1, &on);
    }

    /// The evaluation from the two accumulators (the side to move's, the other's) of a
    /// position with `pieces` pieces, in hundredths of a man within `EVAL_LIMIT`.
    #[inline]
    pub fn output(&self, level: Level, us: &[Chunk], them: &[Chunk], pieces: u32) -> i32 {
        let n = self.chunks();
        let b = bucket(pieces);
        let w = &self.w2[b * 2 * n..(b + 1) * 2 * n];
        let sum = self.b2[b] as i64 + simd::screlu_dot(level, us, them, w) as i64;
        let v = sum * self.mul / (OUTPUT_UNIT << MUL_SHIFT);
        v.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
    }

    /// The evaluation of `pos` from scratch, from the side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_at(Level::detect(), pos)
    }

    /// `evaluate` with the loops of `level` (one this CPU runs: `Level::available`).
    pub fn evaluate_at(&self, level: Level, pos: &Position) -> i32 {
        // Accumulators on the stack, no wider than needed (zeroing the widest costs).
        match self.chunks() {
            0..=4 => self.evaluate_in::<8>(level, pos),
            5..=8 => self.evaluate_in::<16>(level, pos),
            9..=16 => self.evaluate_in::<32>(level, pos),
            _ => self.evaluate_in::<{ 2 * MAX_CHUNKS }>(level, pos),
        }
    }

    /// `C`: room for both views (at least `2 * chunks()`).
    #[inline(always)]
    fn evaluate_in<const C: usize>(&self, level: Level, pos: &Position) -> i32 {
        let n = self.chunks();
        let mut acc = [Chunk::default(); C];
        self.refresh(level, &mut acc[..2 * n], &planes(pos, Color::White));
        let (white, black) = acc[..2 * n].split_at(n);
        let (us, them) = match pos.side() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        self.output(level, us, them, pos.occupied().count())
    }

    /// Side `view`'s accumulator for `pos`, as plain values (for tests and tools).
    pub fn accumulator(&self, pos: &Position, view: Color) -> Vec<i16> {
        let n = self.chunks();
        let mut acc = vec![Chunk::default(); 2 * n];
        self.refresh(Level::detect(), &mut acc, &planes(pos, Color::White));
        let v = match view {
            Color::White => 0,
            Color::Black => 1,
        };
        flat(&acc[v * n..(v + 1) * n]).collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;
    use crate::core::rng::SplitMix64;

    /// A random float network with weights spread as a trained one's might be: rows of up
    /// to +-0.5 (a few at the clip), biases around 0.3, output weights up to +-8 / sqrt(hidden)
    /// (+-1 at 64; a few three times that, at the clip of 2 for 64) and output biases of a
    /// few tenths.
    pub(crate) fn trained_like(hidden: usize, seed: u64) -> FloatNetwork {
        let mut rng = SplitMix64::new(seed);
        let mut u = move |r: f32| {
            let x = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * x - 1.0) * r
        };
        let mut f = FloatNetwork::random(hidden, 150.0, seed);
        for (i, x) in f.w1.iter_mut().enumerate() {
            *x = if i % 97 == 0 { u(3.0) } else { u(0.5) };
        }
        for x in &mut f.b1 {
            *x = 0.3 + u(0.4);
        }
        let r2 = 8.0 / (hidden as f32).sqrt();
        for (i, x) in f.w2.iter_mut().enumerate() {
            *x = if i % 53 == 0 { u(3.0 * r2) } else { u(r2) };
        }
        for x in &mut f.b2 {
            *x = u(0.5);
        }
        f.clip();
        f
    }

    /// The quantized network agrees with its float twin.
    ///
    /// The bound, per position (in hundredths of a man): rounding each of the `k + 1` rows
    /// in an accumulator (k features on, and the bias) moves it by at most `0.5 / QA`, so an
    /// accumulator is off by at most `d = (k + 1) * 0.5 / QA`; clamping does not widen that
    /// and squaring on [0, 1] at most doubles it. With the output weight rounded by at most
    /// `0.5 / QB`, each of the `2 * hidden` terms is off by at most `|w| * 2d + 0.5 / QB`;
    /// the bias by `0.5 / (QA^2 QB)`. Times `scale`, plus 1 for the final rounding toward
    /// zero and 1 for the fixed-point scale. That worst case (over a thousand
    /// for a full board here) assumes every rounding error points the same way. They do not:
    /// an accumulator's error is a sum of `k + 1` independent roundings, about
    /// `sqrt(k + 1) / (QA sqrt 12)` = 0.01 for k = 20, and the output's a sum of `2 hidden`
    /// such terms times `w2`, about `sqrt(2 hidden) rms(w2) 0.01` = 0.06 logit for hidden 64
    /// (rms 0.58): 9 hundredths of a man at scale 150. Seen on 4,000 random positions each
    /// (largest, mean): hidden 64: 31.2, 8.8; hidden 128: 44.6, 9.7; hidden 256: 28.2, 6.2.
    /// The test holds every error to its worst-case bound, the largest to 70 and the mean to
    /// 14, so a rounding mistake (truncation, which doubles the error's spread, or a wrong
    /// unit) fails it.
    #[test]
    fn quantized_agrees_with_float_within_the_bound() {
        for (hidden, seed) in [(64, 3), (128, 4), (256, 5)] {
            let f = trained_like(hidden, seed);
            let q = f.quantize();
            let mut worst = 0.0f32;
            let mut sum = 0.0f64;
            let mut n = 0;
            for pos in RandomPositions::new(seed, usize::MAX).take(4000) {
                let k = pos.occupied().count() as f32;
                let d = (k + 1.0) * 0.5 / QA as f32;
                let b = bucket(pos.occupied().count());
                let w = &f.w2[b * 2 * hidden..(b + 1) * 2 * hidden];
                let terms: f32 = w.iter().map(|x| x.abs() * 2.0 * d + 0.5 / QB as f32).sum();
                let bound = f.scale * (terms + 0.5 / OUTPUT_UNIT as f32) + 2.0;
                let want = f
                    .evaluate(&pos)
                    .clamp(-EVAL_LIMIT as f32, EVAL_LIMIT as f32);
                let got = q.evaluate(&pos);
                // The scalar loops (all a CPU without AVX2 has) are held to the float too.
                assert_eq!(q.evaluate_at(Level::Scalar, &pos), got);
                let err = (got as f32 - want).abs();
                assert!(err <= bound, "{pos:?}: {got} against {want}, bound {bound}");
                worst = worst.max(err);
                sum += err as f64;
                n += 1;
            }
            eprintln!(
                "hidden {hidden}: largest error {worst:.2}, mean {:.3}",
                sum / n as f64
            );
            assert!(worst <= 70.0, "hidden {hidden}: largest error {worst}");
            assert!(sum / n as f64 <= 14.0, "hidden {hidden}: mean error");
        }
    }

    /// Every level of loops this CPU runs scores exactly as the scalar ones, at widths whose
    /// accumulators take every AVX-512 block size and an odd chunk; a level the CPU lacks is
    /// reported skipped.
    #[test]
    fn every_level_evaluates_as_scalar() {
        for level in [Level::Avx2, Level::Avx512] {
            if !level.is_available() {
                println!("SKIPPED: no {} (Network::evaluate_at)", level.name());
            }
        }
        for (hidden, seed) in [(16, 1), (48, 2), (128, 3), (240, 4), (512, 5)] {
            let q = trained_like(hidden, seed).quantize();
            for pos in RandomPositions::new(seed, usize::MAX).take(500) {
                let want = q.evaluate_at(Level::Scalar, &pos);
                for level in Level::available() {
                    assert_eq!(q.evaluate_at(level, &pos), want, "{level:?} {hidden}");
                }
            }
        }
    }

    #[test]
    fn quantize_rounds_to_the_units_and_clips() {
        let mut f = FloatNetwork::random(16, 100.0, 1);
        f.w1[0] = 0.5;
        f.w1[1] = -10.0;
        f.b1[0] = 1.0 / 127.0 * 2.6;
        f.w2[0] = 1.0;
        f.w2[1] = 5.0;
        f.b2[0] = -0.25;
        let q = f.quantize();
        let w1: Vec<i16> = q.w1().collect();
        assert_eq!(&w1[..2], &[64, -251]);
        assert_eq!(q.b1().next(), Some(3));
        let w2: Vec<i16> = q.w2().collect();
        assert_eq!(&w2[..2], &[64, 128]);
        assert_eq!(q.b2()[0], -258_064);
        assert_eq!(q.w1().count(), INPUTS * 16);
        assert_eq!(q.w2().count(), BUCKETS * 32);
        // Clones share the id; another network does not.
        assert_eq!(q.clone().id(), q.id());
        assert_ne!(f.quantize().id(), q.id());
        assert_eq!(f.quantize(), q);
    }

    /// A quantized network read back as floats quantizes to itself, and its float twin
    /// scores within the quantization's rounding of it.
    #[test]
    fn to_float_quantizes_back_to_the_same_network() {
        for (hidden, seed) in [(16, 1), (128, 7)] {
            let q = trained_like(hidden, seed).quantize();
            let f = q.to_float();
            assert_eq!(f.hidden, hidden);
            assert_eq!(f.quantize(), q);
            assert!(f.w1.iter().all(|x| x.abs() <= W1_LIMIT));
            for pos in RandomPositions::new(seed, usize::MAX).take(300) {
                let (a, b) = (f.evaluate(&pos), q.evaluate(&pos) as f32);
                assert!((a.clamp(-(EVAL_LIMIT as f32), EVAL_LIMIT as f32) - b).abs() <= 2.0);
            }
        }
    }

    /// The accumulators are b1 plus the rows of the features on, exactly.
    #[test]
    fn the_accumulator_is_the_bias_plus_the_rows() {
        let f = trained_like(32, 9);
        let q = f.quantize();
        let w1: Vec<i16> = q.w1().collect();
        let b1: Vec<i16> = q.b1().collect();
        for pos in RandomPositions::new(2, usize::MAX).take(200) {
            for view in [Color::White, Color::Black] {
                let mut want = b1.clone();
                for feat in crate::eval::nnue::active(&planes(&pos, view)) {
                    for (a, w) in want.iter_mut().zip(&w1[feat * 32..]) {
                        *a += w;
                    }
                }
                assert_eq!(q.accumulator(&pos, view), want);
            }
        }
    }
}
