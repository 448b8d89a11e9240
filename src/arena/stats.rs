//! Match statistics: Elo difference with a 95% interval, draw ratio, likelihood of
//! superiority, and the sequential probability ratio test (SPRT).
//!
//! Elo uses the logistic model: a score fraction `s` is `-400 log10(1/s - 1)` Elo. Openings
//! are played in pairs with colours swapped, and the two games of a pair are not independent
//! (an unbalanced opening favours one colour), so the interval comes from the pentanomial
//! counts of the pairs (`Pairs`): the variance of the pair scores under the normal
//! approximation, or an exact bound when every pair scored the same. The SPRT uses the same normal approximation of the trinomial
//! model: `LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`, where `m` and `v` are the observed mean
//! score and per-game variance, and `s0`, `s1` are the expected scores at `elo0` and `elo1`.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Fewer complete game pairs than this and the interval is only a rough guide (the normal
/// approximation needs a few dozen pairs), which the summary says.
pub const FEW_PAIRS: u32 = 20;

/// The score fraction of a logistic Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction, infinite at 0 and 1.
pub fn elo_of_score_exact(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// An Elo figure as the summary prints it: a sign, one decimal, `+inf`/`-inf` when
/// unbounded, and never `-0.0`.
pub fn show_elo(elo: f64) -> String {
    if elo.is_infinite() {
        return if elo > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let rounded = (elo * 10.0).round() / 10.0;
    // `+ 0.0` turns -0.0 into 0.0.
    format!("{:+.1}", rounded + 0.0)
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
    /// from wins and losses (draws carry no information). Between equals each of the `w + l`
    /// decisive games goes either way with probability 1/2, so `w - l` has variance `w + l`:
    /// LOS = Phi((w - l) / sqrt(w + l)), the usual `(1 + erf((w - l) / sqrt(2 (w + l)))) / 2`.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        normal_cdf((w - l) / (w + l).sqrt())
    }
}

/// Game pairs (one opening, colours swapped) by the first engine's points in the pair:
/// `counts[k]` pairs scored `k/2` points of 2 (0: lost both, 2: a win and a loss or two
/// draws, 4: won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub counts: [u32; 5],
}

impl Pairs {
    /// Add a pair whose two games scored `a` and `b` (each 0, 0.5 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let k = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
    /// The mean score per game over the pairs, 0..1.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let points: u32 = self.counts.iter().zip(0..).map(|(c, k)| c * k).sum();
        points as f64 / (4.0 * n as f64)
    }
    /// The variance of one pair's mean score (each pair scores 0, 1/4, 1/2, 3/4 or 1).
    pub fn variance(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let m = self.score();
        self.counts
            .iter()
            .zip(0..)
            .map(|(&c, k)| c as f64 * (k as f64 / 4.0 - m).powi(2))
            .sum::<f64>()
            / n
    }
    /// The 95% interval of the Elo difference, as (low, high); infinite where the data do
    /// not bound it.
    ///
    /// - No pairs: nothing is known, (-inf, +inf).
    /// - Every pair scored the same `v`: the sample variance is 0 and the normal
    ///   approximation would give a point. Instead, the chance `p` that a pair scores
    ///   anything else is at most `q = 1 - 0.025^(1/n)` (the one-sided 97.5% bound after `n`
    ///   pairs without one), and the mean lies in `[v - q v, v + q (1 - v)]`.
    /// - Otherwise: mean ± 1.96 standard errors of the pair scores, mapped to Elo; a bound
    ///   past 0 or 1 is infinite.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.pairs();
        if n == 0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let m = self.score();
        let (lo, hi) = if self.one_way() {
            let q = 1.0 - 0.025f64.powf(1.0 / n as f64);
            (m - q * m, m + q * (1.0 - m))
        } else {
            let z = normal_quantile(0.975);
            let se = (self.variance() / n as f64).sqrt();
            (m - z * se, m + z * se)
        };
        (elo_of_score_exact(lo), elo_of_score_exact(hi))
    }
    /// Whether every pair scored the same.
    pub fn one_way(&self) -> bool {
        self.counts.iter().filter(|&&c| c > 0).count() == 1
    }
    /// A note on how far to trust the interval, if it needs one.
    pub fn note(&self) -> Option<String> {
        let n = self.pairs();
        if n == 0 {
            return Some("note: no complete game pair, so the Elo has no interval".into());
        }
        let mut parts = Vec::new();
        if self.one_way() {
            let k = self.counts.iter().position(|&c| c > 0).unwrap_or(0);
            parts.push(format!(
                "every pair scored {}/2, so the interval is an exact bound, not a normal one",
                k as f64 / 2.0
            ));
        }
        if n < FEW_PAIRS {
            parts.push(format!(
                "only {n} game pair{}; {FEW_PAIRS} or more give a usable interval",
                if n == 1 { "" } else { "s" }
            ));
        }
        (!parts.is_empty()).then(|| format!("note: {}", parts.join("; ")))
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
        if n == 0.0 {
            return 0.0;
        }
        let v = match wdl.variance() {
            v if v > 0.0 => v,
            _ => one_sided_variance(wdl),
        };
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

/// The variance of a game's score when every game so far ended alike (all wins, say), where
/// the sample variance is 0 and the LLR would divide by it: estimated as if half a game of
/// each outcome had been seen too, so a one-sided run still moves the test to a decision
/// instead of standing at an LLR of 0.
fn one_sided_variance(wdl: &Wdl) -> f64 {
    let (w, d, l) = (
        wdl.wins as f64 + 0.5,
        wdl.draws as f64 + 0.5,
        wdl.losses as f64 + 0.5,
    );
    let n = w + d + l;
    let m = (w + d / 2.0) / n;
    (w * (1.0 - m).powi(2) + d * (0.5 - m).powi(2) + l * m.powi(2)) / n
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
        // LOS: Phi((60-20)/sqrt(80)) = Phi(4.4721) = 0.999996.
        assert!(close(w.los(), 0.999996, 1e-6), "{}", w.los());
        // 119 wins and 99 losses: Phi(20/sqrt(218)) = Phi(1.3546) = 0.91223.
        let close_call = Wdl {
            wins: 119,
            draws: 182,
            losses: 99,
        };
        assert!(
            close(close_call.los(), 0.91223, 1e-4),
            "{}",
            close_call.los()
        );
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
    fn sprt_decides_a_one_sided_run() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let wins = |n| Wdl {
            wins: n,
            draws: 0,
            losses: 0,
        };
        let losses = |n| Wdl {
            wins: 0,
            draws: 0,
            losses: n,
        };
        // The sample variance is 0 here; the LLR still grows with each game.
        assert!(t.llr(&wins(4)) > 0.0);
        assert!(t.llr(&wins(8)) > t.llr(&wins(4)));
        assert_eq!(t.decision(&wins(200)), SprtDecision::AcceptH1);
        assert!(t.llr(&losses(4)) < 0.0);
        assert_eq!(t.decision(&losses(200)), SprtDecision::AcceptH0);
        assert_eq!(t.llr(&wins(0)), 0.0);
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // 10 pairs: 1 lost both, 2 at 1/2, 4 at 1, 2 at 3/2, 1 won both. Pair means
        // 0, .25, .5, .75, 1: m = 0.5, v = (1*.25 + 2*.0625 + 0 + 2*.0625 + 1*.25)/10 = 0.075;
        // se = sqrt(0.0075) = 0.086603; 1.96 se = 0.169738; elo(0.330262) = -122.8.
        let p = Pairs {
            counts: [1, 2, 4, 2, 1],
        };
        assert!(close(p.score(), 0.5, 1e-12));
        assert!(close(p.variance(), 0.075, 1e-12));
        let (lo, hi) = p.elo_interval();
        assert!(close(lo, -122.8, 0.1) && close(hi, 122.8, 0.1), "{lo} {hi}");
        assert!(p.note().unwrap().contains("only 10 game pairs"));
    }

    #[test]
    fn one_way_samples_get_an_honest_interval() {
        // One pair won twice: the lower bound is elo(0.025) = -636.4, the upper unbounded.
        let mut p = Pairs::default();
        p.add(1.0, 1.0);
        let (lo, hi) = p.elo_interval();
        assert!(close(lo, -636.4, 0.1) && hi == f64::INFINITY, "{lo} {hi}");
        assert!(p.note().unwrap().contains("every pair scored 2/2"));
        // 30 pairs all drawn (or split): q = 1 - 0.025^(1/30) = 0.11570, [0.44215, 0.55785].
        let p = Pairs {
            counts: [0, 0, 30, 0, 0],
        };
        let (lo, hi) = p.elo_interval();
        assert!(close(lo, -40.4, 0.1) && close(hi, 40.4, 0.1), "{lo} {hi}");
        assert!(p.note().unwrap().contains("exact bound"));
        assert!(!p.note().unwrap().contains("only"));
        // Nothing bounds an empty sample.
        let (lo, hi) = Pairs::default().elo_interval();
        assert!(lo == f64::NEG_INFINITY && hi == f64::INFINITY);
    }

    #[test]
    fn elo_is_shown_without_negative_zero() {
        assert_eq!(show_elo(-0.0), "+0.0");
        assert_eq!(show_elo(-0.04), "+0.0");
        assert_eq!(show_elo(-0.06), "-0.1");
        assert_eq!(show_elo(12.34), "+12.3");
        assert_eq!(show_elo(f64::INFINITY), "+inf");
        assert_eq!(show_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(show_elo(elo_of_score_exact(1.0)), "+inf");
    }

    #[test]
    fn normal_functions() {
        assert!(close(normal_quantile(0.975), 1.959964, 1e-6));
        assert!(close(normal_quantile(0.5), 0.0, 1e-9));
        assert!(close(normal_cdf(1.959964), 0.975, 1e-6));
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
    }
}
