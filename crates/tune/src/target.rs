//! What a fit aims at, written once for every trainer (`texel` for the hand terms, `net` for
//! the network): the logistic curve `sigmoid(K * eval)` that turns a score into an expected
//! result, the game's result and search score seen from the side to move (`side_view`),
//! their blend (`blend`), and the scale `K` that best fits a loss (`fit_k`).

use poolshark_engine::core::Color;

/// The logistic function: the expected score of an evaluation in logit units.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// White's score in the game and the search score from White's side (NaN for none), seen
/// from `side`: Black's score is one less White's, and the search score turns over.
pub fn side_view(side: Color, white_score: f32, white_search: f32) -> (f32, f32) {
    match side {
        Color::White => (white_score, white_search),
        Color::Black => (1.0 - white_score, -white_search),
    }
}

/// The target of a position: `lambda * result + (1 - lambda) * sigmoid(k * search)` where it
/// has a search score, the result where it has none (`search` NaN). `lambda` 1 is the plain
/// result. The search sees the tactics and endings a game's result only hints at, and far
/// less noisily: one result stands for a whole game's positions.
pub fn blend(result: f32, search: f32, lambda: f64, k: f64) -> f32 {
    if search.is_nan() {
        result
    } else {
        (lambda * f64::from(result) + (1.0 - lambda) * sigmoid(k * f64::from(search))) as f32
    }
}

/// The `K` that minimises `loss`: a scan from 1e-4 to 0.2 in steps of 5%, then
/// golden-section search between the neighbours of the best step.
pub fn fit_k(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut best, mut k) = ((f64::MAX, 1e-4), 1e-4);
    while k < 0.2 {
        let l = loss(k);
        if l < best.0 {
            best = (l, k);
        }
        k *= 1.05;
    }
    fit_k_between(loss, best.1 / 1.05, best.1 * 1.05)
}

/// Golden-section search for the `K` in `[a, b]` that minimises `loss`.
pub fn fit_k_between(loss: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (mut a, mut b) = (a, b);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_to_move_sees_its_own_result_and_search() {
        assert_eq!(side_view(Color::White, 1.0, 40.0), (1.0, 40.0));
        assert_eq!(side_view(Color::Black, 1.0, 40.0), (0.0, -40.0));
        assert_eq!(side_view(Color::Black, 0.5, -3.0), (0.5, 3.0));
        assert!(side_view(Color::Black, 0.0, f32::NAN).1.is_nan());
    }

    #[test]
    fn the_blend_mixes_the_result_and_the_search_score() {
        let win = sigmoid(2.0) as f32;
        assert_eq!(blend(1.0, 0.0, 1.0, 0.005), 1.0);
        assert_eq!(blend(1.0, 0.0, 0.0, 0.005), 0.5);
        assert!((blend(0.0, 400.0, 0.0, 0.005) - win).abs() < 1e-6);
        assert!((blend(0.0, 400.0, 0.25, 0.005) - 0.75 * win).abs() < 1e-6);
        // No search score: the result, whatever lambda.
        assert_eq!(blend(0.5, f32::NAN, 0.0, 0.005), 0.5);
    }

    /// The K of a loss with its minimum at a known place is found to within a hair, on the
    /// scan's grid or between its steps.
    #[test]
    fn fit_k_finds_the_minimum() {
        for truth in [0.0003, 0.005, 0.0123, 0.15] {
            let k = fit_k(|k: f64| (k.ln() - f64::ln(truth)).powi(2));
            assert!((k - truth).abs() < truth * 1e-4, "{truth}: {k}");
        }
        let k = fit_k_between(|k: f64| (k - 0.3).powi(2), 0.2, 0.5);
        assert!((k - 0.3).abs() < 1e-6, "{k}");
    }
}
