//! What the pattern trainer (`tune::learn`) fits: an evaluation linear in a weights vector
//! of hundredths of a man, its features from a position and its weights file, once for the
//! small patterns (`Small`: `eval::pattern`) and once for the big ones (`Big`:
//! `eval::big_pattern`).

use crate::core::Position;
use crate::eval::pattern::{self, PatternFeatures};
use crate::eval::{big_pattern, big_pattern_file, pattern_file};

/// What the trainer fits: an evaluation that is linear in a weights vector (hundredths of a
/// man), whose first `LINEAR_LEN` values are `pattern::LINEAR`'s terms (kept within
/// `LINEAR_LIMIT`) and the rest table values (kept within `PATTERN_LIMIT`).
pub trait Model: Clone + Copy + std::fmt::Debug + Default + Send + Sync + 'static {
    /// A position's features, from the side to move.
    type Features: Clone + Copy + std::fmt::Debug + Send + Sync;
    /// The length of the weights vector.
    const PARAMS: usize;
    /// The window states a position can be in, over all windows (for `coverage`).
    const CELLS: usize;
    fn features(pos: &Position) -> Self::Features;
    /// The evaluation under real weights `w`, before the clamp.
    fn raw_score(w: &[f32], f: &Self::Features) -> f32;
    /// Add `de` times the gradient of `raw_score` at `f` to `g`.
    fn add_gradient(g: &mut [f32], f: &Self::Features, de: f32);
    /// Each window state of `f` as a number below `CELLS`.
    fn cells(f: &Self::Features, each: &mut dyn FnMut(usize));
    /// The default start: the linear part at the hand evaluation's values, tables 0.
    fn start() -> Vec<f32>;
    /// The start from a weights file of this model.
    fn parse(bytes: &[u8]) -> Result<Vec<f32>, String>;
    /// Real weights as this model's weights file.
    fn write(w: &[f32]) -> Vec<u8>;
}

/// The small patterns (`eval::pattern`, `eval::pattern_file`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Small;

impl Model for Small {
    type Features = PatternFeatures;
    const PARAMS: usize = pattern::PARAMS;
    const CELLS: usize = pattern::WINDOWS * pattern::STATES;
    fn features(pos: &Position) -> PatternFeatures {
        pattern::features(pos)
    }
    #[inline(always)]
    fn raw_score(w: &[f32], f: &PatternFeatures) -> f32 {
        pattern::raw_score(w, f)
    }
    #[inline(always)]
    fn add_gradient(g: &mut [f32], f: &PatternFeatures, de: f32) {
        let phase = f.pieces as f32 / crate::eval::FULL as f32;
        for (wi, &idx) in f.indices.iter().enumerate() {
            g[pattern::table_at(0, wi, idx as usize)] += de * phase;
            g[pattern::table_at(1, wi, idx as usize)] += de * (1.0 - phase);
        }
        for (j, &x) in f.linear.iter().enumerate() {
            g[j] += de * x as f32;
        }
    }
    fn cells(f: &PatternFeatures, each: &mut dyn FnMut(usize)) {
        for (w, &i) in f.indices.iter().enumerate() {
            each(w * pattern::STATES + i as usize);
        }
    }
    fn start() -> Vec<f32> {
        pattern::PatternWeights::default().to_reals()
    }
    fn parse(bytes: &[u8]) -> Result<Vec<f32>, String> {
        pattern_file::parse(bytes)
            .map(|w| w.to_reals())
            .map_err(|e| e.to_string())
    }
    fn write(w: &[f32]) -> Vec<u8> {
        pattern_file::write(&pattern::PatternWeights::from_reals(w))
    }
}

/// The big patterns (`eval::big_pattern`, `eval::big_pattern_file`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Big;

impl Model for Big {
    type Features = big_pattern::BigFeatures;
    const PARAMS: usize = big_pattern::PARAMS;
    const CELLS: usize = big_pattern::WINDOWS * big_pattern::STATES;
    fn features(pos: &Position) -> big_pattern::BigFeatures {
        big_pattern::features(pos)
    }
    #[inline(always)]
    fn raw_score(w: &[f32], f: &big_pattern::BigFeatures) -> f32 {
        big_pattern::raw_score(w, f)
    }
    #[inline(always)]
    fn add_gradient(g: &mut [f32], f: &big_pattern::BigFeatures, de: f32) {
        big_pattern::add_gradient(g, f, de)
    }
    fn cells(f: &big_pattern::BigFeatures, each: &mut dyn FnMut(usize)) {
        for (w, &i) in f.indices.iter().enumerate() {
            each(w * big_pattern::STATES + i as usize);
        }
    }
    fn start() -> Vec<f32> {
        big_pattern::BigPatternWeights::default().to_reals()
    }
    fn parse(bytes: &[u8]) -> Result<Vec<f32>, String> {
        big_pattern_file::parse(bytes)
            .map(|w| w.to_reals())
            .map_err(|e| e.to_string())
    }
    fn write(w: &[f32]) -> Vec<u8> {
        big_pattern_file::write(&big_pattern::BigPatternWeights::from_reals(w))
    }
}
