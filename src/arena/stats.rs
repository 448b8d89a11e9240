//! Match statistics: Elo difference with a 95% interval, draw ratio, likelihood of
//! superiority, and the sequential probability ratio test (SPRT).
//!
//! Elo uses the logistic model: a score fraction `s` is `-400 log10(1/s - 1)` Elo. The
//! interval comes from the per-game variance of the score (wins 1, draws 1/2, losses 0) under
//! the normal approximation. The SPRT uses the same normal approximation of the trinomial
//! model: `LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`, where `m` and `v` are the observed mean
//! score and per-game variance, and `s0`, `s1` are the expected scores at `elo0` and `elo1`.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The score fraction of a logistic Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction (clamped away from 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

#[allow(clippy::excessive_precision)]
/// The inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e+01,
        2.209460984245205e+02,
        -2.759285104469687e+02,
        1.383577518672690e+02,
        -3.066479806614716e+01,
        2.506628277459239e+00,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e+01,
        1.615858368580409e+02,
        -1.556989798598866e+02,
        6.680131188771972e+01,
        -1.328068155288572e+01,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e+00,
        -2.549732539343734e+00,
        4.374664141464968e+00,
        2.938163982698783e+00,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-03,
        3.224671290700398e-01,
        2.445134137142996e+00,
        3.754408661907416e+00,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let low = 0.02425;
    if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -normal_quantile(1.0 - p)
    }
}

/// The standard normal CDF.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Points of the first engine (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
    /// Mean score per game, 0..1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }
    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let m = self.score();
        (self.wins as f64 * (1.0 - m).powi(2)
            + self.draws as f64 * (0.5 - m).powi(2)
            + self.losses as f64 * m.powi(2))
            / n
    }
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }
    /// The 95% interval of the Elo difference, as (low, high).
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let se = (self.variance() / n).sqrt();
        let z = normal_quantile(0.975);
        (
            elo_of_score(self.score() - z * se),
            elo_of_score(self.score() + z * se),
        )
    }
    /// Likelihood of superiority: the probability that the first engine is the stronger,
    /// from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        normal_cdf((w - l) / (2.0 * (w + l)).sqrt())
    }
}

/// An SPRT between `elo0` (H0) and `elo1` (H1) with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the first engine is at least `elo1` better.
    AcceptH1,
    /// H0 accepted: it is not better than `elo0`.
    AcceptH0,
    Continue,
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = wdl.games() as f64;
        let v = wdl.variance();
        if n == 0.0 || v <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * wdl.score() - s0 - s1) / (2.0 * v)
    }
    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_by_hand() {
        // 60 wins, 20 draws, 20 losses: score 0.7, Elo -400 log10(1/0.7 - 1) = 147.19.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(close(w.score(), 0.7, 1e-12));
        assert!(close(w.elo(), 147.19, 0.01), "{}", w.elo());
        // Variance: (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16; se = 0.04; 1.95996 * 0.04 = 0.0784.
        assert!(close(w.variance(), 0.16, 1e-12));
        let (lo, hi) = w.elo_interval();
        assert!(
            close(lo, elo_of_score(0.7 - 0.078399), 0.01)
                && close(hi, elo_of_score(0.7 + 0.078399), 0.01)
        );
        assert!(close(lo, 86.2, 0.5) && close(hi, 218.3, 0.5), "{lo} {hi}");
        assert!(close(w.draw_ratio(), 0.2, 1e-12));
        // LOS: Phi((60-20)/sqrt(2*80)) = Phi(3.1623) = 0.99922.
        assert!(close(w.los(), 0.99922, 1e-4), "{}", w.los());
        let even = Wdl {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!(close(even.elo(), 0.0, 1e-9));
        assert!(close(even.los(), 0.5, 1e-6));
    }

    #[test]
    fn sprt_by_hand() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // 600 wins, 800 draws, 500 losses: n 1900, m = 1000/1900 = 0.526316,
        // v = (600*0.224377 + 800*0.000693 + 500*0.277008)/1900 = 0.144044,
        // s0 = 0.5, s1 = 0.507195; LLR = 1900*0.007195*(1.052632-1.007195)/(2*0.144044) = 2.1563.
        let w = Wdl {
            wins: 600,
            draws: 800,
            losses: 500,
        };
        assert!(close(w.variance(), 0.144044, 1e-5), "{}", w.variance());
        assert!(close(t.llr(&w), 2.156, 0.01), "{}", t.llr(&w));
        assert_eq!(t.decision(&w), SprtDecision::Continue);
        let strong = Wdl {
            wins: 900,
            draws: 800,
            losses: 500,
        };
        assert_eq!(t.decision(&strong), SprtDecision::AcceptH1);
        let weak = Wdl {
            wins: 500,
            draws: 800,
            losses: 650,
        };
        assert_eq!(t.decision(&weak), SprtDecision::AcceptH0);
    }

    #[test]
    fn normal_functions() {
        assert!(close(normal_quantile(0.975), 1.959964, 1e-6));
        assert!(close(normal_quantile(0.5), 0.0, 1e-9));
        assert!(close(normal_cdf(1.959964), 0.975, 1e-6));
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
    }
}
