//! The network evaluation (NNUE-style): a small network over the pieces, learned from
//! self-play (`tune::net`), that scores positions with men on the board.
//!
//! The shape:
//! - **Inputs**: 128 sparse features, four planes of 32 squares (own men, own kings, enemy
//!   men, enemy kings), seen from one side: for Black the board is turned half a turn
//!   (square i goes to 31 - i, `reverse_bits`) and the colours swapped. At most 24 features are on.
//! - **Accumulators**: one per side, `b1 + sum of W1's rows for the features on` from that
//!   side's view, `hidden` values each. The same `W1` serves both sides.
//! - **Activation**: SCReLU, `clamp(x, 0, 1)^2`.
//! - **Output**: `b2[bucket] + W2[bucket] . [act(side to move's), act(other's)]`, with one
//!   output bucket per quarter of the piece count (`bucket`). The output is in logit units
//!   (`sigmoid(output)` is the expected score); times `scale` it is hundredths of a man.
//!
//! `FloatNetwork` is the trainer's network, in `f32`, and the reference the quantized
//! network that plays is held to. `FloatNetwork::quantize` makes that network
//! (`network::Network`), `network_file` reads and writes it, `simd` holds its hot loops and
//! `accumulator::Cache` evaluates it incrementally for the search.

pub mod accumulator;
pub mod network;
pub mod network_file;
pub mod simd;

pub use accumulator::Cache;
pub use network::Network;

use crate::core::{Color, Position};

/// Squares on the board.
pub const SQUARES: usize = 32;
/// Feature planes: own men, own kings, enemy men, enemy kings.
pub const PLANES: usize = 4;
/// Input features.
pub const INPUTS: usize = PLANES * SQUARES;
/// Output buckets, by the number of pieces on the board (`bucket`).
pub const BUCKETS: usize = 4;
/// Hidden widths allowed: a multiple of 16 (one AVX2 register of `i16`), at most this.
pub const MAX_HIDDEN: usize = 512;
/// Quantization: an accumulator value of 1.0 is `QA` (so the activation's clip is at `QA`).
pub const QA: i32 = 127;
/// Quantization: an output weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// The float first-layer weights and biases stay within this (trainer's clip): with 24
/// features and the bias an accumulator stays within 25 * 1.98 * 127 = 6,287, far inside
/// `i16`.
pub const W1_LIMIT: f32 = 1.98;
/// The float output weights stay within this: then an activation (at most 127) times a
/// quantized weight (at most 128) fits an `i16`, and 512 such products of at most 127 *
/// 16,256 sum within an `i32`.
pub const W2_LIMIT: f32 = 2.0;

/// The output bucket of a position with `pieces` pieces (1..=24): 1-6, 7-12, 13-18, 19-24.
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.max(1) as usize - 1) * BUCKETS / 24).min(BUCKETS - 1)
}

/// The four planes of `pos` as side `view` sees them: own men, own kings, enemy men, enemy
/// kings, each a 32-bit set of squares, turned half a turn for Black.
#[inline(always)]
pub fn planes(pos: &Position, view: Color) -> [u32; PLANES] {
    planes_of(pos.white().0, pos.black().0, pos.kings().0, view)
}

/// `planes` of the position with these White, Black and king sets (the trainer keeps only
/// these three numbers a position).
#[inline(always)]
pub fn planes_of(white: u32, black: u32, kings: u32, view: Color) -> [u32; PLANES] {
    let (own, enemy) = match view {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    let p = [own & !kings, own & kings, enemy & !kings, enemy & kings];
    match view {
        Color::White => p,
        Color::Black => p.map(u32::reverse_bits),
    }
}

/// The feature of a piece on (oriented) square `sq` of plane `plane`.
#[inline(always)]
pub fn feature(plane: usize, sq: u32) -> usize {
    plane * SQUARES + sq as usize
}

/// The features on in `planes`, in plane order.
pub fn active(planes: &[u32; PLANES]) -> impl Iterator<Item = usize> + '_ {
    planes.iter().enumerate().flat_map(|(p, &bits)| {
        crate::core::Bitboard(bits)
            .iter()
            .map(move |sq| feature(p, sq.index() as u32))
    })
}

/// SCReLU: `clamp(x, 0, 1)^2`.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The network in `f32`: what the trainer fits and the quantized network is made from.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Accumulator width: a multiple of 16, at most `MAX_HIDDEN`.
    pub hidden: usize,
    /// Hundredths of a man per output unit (the inverse of the data's `K`).
    pub scale: f32,
    /// `INPUTS` rows of `hidden`: feature `f`'s row is `w1[f * hidden..(f + 1) * hidden]`.
    pub w1: Vec<f32>,
    /// `hidden` accumulator biases.
    pub b1: Vec<f32>,
    /// `BUCKETS` rows of `2 * hidden`: the side to move's activations, then the other's.
    pub w2: Vec<f32>,
    /// One output bias per bucket.
    pub b2: Vec<f32>,
}

impl FloatNetwork {
    /// A network of width `hidden` with small random weights drawn from `seed`: the
    /// trainer's start.
    pub fn random(hidden: usize, scale: f32, seed: u64) -> FloatNetwork {
        assert!(
            hidden > 0 && hidden.is_multiple_of(16) && hidden <= MAX_HIDDEN,
            "hidden {hidden}"
        );
        let mut rng = crate::core::rng::SplitMix64::new(seed);
        let mut uniform = |r: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        // About 12 features are on in a middlegame: rows of +-0.1 keep the accumulators
        // inside the activation's slope at the start.
        let w1 = (0..INPUTS * hidden).map(|_| uniform(0.1)).collect();
        let b1 = (0..hidden).map(|_| 0.25 + uniform(0.1)).collect();
        let w2 = (0..BUCKETS * 2 * hidden)
            .map(|_| uniform(1.0 / (hidden as f32).sqrt()))
            .collect();
        FloatNetwork {
            hidden,
            scale,
            w1,
            b1,
            w2,
            b2: vec![0.0; BUCKETS],
        }
    }

    /// Keep every weight inside its limit (`W1_LIMIT`, `W2_LIMIT`; the output biases are
    /// free), as the quantized network needs.
    pub fn clip(&mut self) {
        for x in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *x = x.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for x in &mut self.w2 {
            *x = x.clamp(-W2_LIMIT, W2_LIMIT);
        }
    }

    /// Side `view`'s accumulator for `pos`.
    pub fn accumulator(&self, pos: &Position, view: Color) -> Vec<f32> {
        let mut acc = self.b1.clone();
        for f in active(&planes(pos, view)) {
            let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The output for `pos`, in logit units, from the side to move.
    pub fn forward(&self, pos: &Position) -> f32 {
        let h = self.hidden;
        let us = self.accumulator(pos, pos.side());
        let them = self.accumulator(pos, pos.side().flip());
        let b = bucket(pos.occupied().count());
        let w = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut y = self.b2[b];
        for i in 0..h {
            y += w[i] * screlu(us[i]) + w[h + i] * screlu(them[i]);
        }
        y
    }

    /// The evaluation of `pos` in hundredths of a man, from the side to move, unclamped.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.forward(pos) * self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    #[test]
    fn buckets_split_the_piece_counts_in_quarters() {
        let b: Vec<usize> = (1..=24).map(bucket).collect();
        assert_eq!(&b[..6], &[0; 6]);
        assert_eq!(&b[6..12], &[1; 6]);
        assert_eq!(&b[12..18], &[2; 6]);
        assert_eq!(&b[18..], &[3; 6]);
    }

    /// A position and its mirror image (colours swapped, board turned) give the same
    /// features from the side to move, so the network scores them the same.
    #[test]
    fn the_mirror_image_scores_the_same() {
        let net = FloatNetwork::random(32, 120.0, 5);
        let a = parse_fen("W:W18,21,K30:B3,K9,12").unwrap();
        let b = parse_fen("B:WK24,21,30:B15,12,K3").unwrap();
        assert_eq!(planes(&a, Color::White), planes(&b, Color::Black));
        assert_eq!(planes(&a, Color::Black), planes(&b, Color::White));
        assert_eq!(net.forward(&a), net.forward(&b));
        assert_ne!(net.forward(&a), net.forward(&a.with_side(Color::Black)));
    }

    #[test]
    fn features_name_their_plane_and_square() {
        let pos = parse_fen("W:WK1,32:B5").unwrap();
        let mut f: Vec<usize> = active(&planes(&pos, Color::White)).collect();
        f.sort();
        // White's man on 32 (index 31), king on 1 (index 0), Black's man on 5 (index 4).
        assert_eq!(f, vec![31, 32, 2 * 32 + 4]);
        let mut g: Vec<usize> = active(&planes(&pos, Color::Black)).collect();
        g.sort();
        // From Black's side: own man on 5 turned to 27, enemy man 32 to 0, enemy king 1 to 31.
        assert_eq!(g, vec![27, 2 * 32, 3 * 32 + 31]);
    }
}
