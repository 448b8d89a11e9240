//! A puzzle player's rating: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), as
//! lichess rates its puzzle players. A solved puzzle counts as a win against the puzzle's
//! rating, a failed one as a loss; each puzzle is one rating period.

/// Glicko-2's scale factor between the Glicko and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The system constant: how much the volatility may change (lichess uses 0.75).
const TAU: f64 = 0.75;
/// The convergence tolerance of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A new player: rating 1500, deviation 350, volatility 0.06.
pub const NEW: Player = Player {
    rating: 1500.0,
    rd: 350.0,
    vol: 0.06,
};

/// The deviation never falls below this (a rating goes on moving), nor rises above `NEW`'s.
pub const MIN_RD: f64 = 45.0;

/// A puzzle's deviation, as an opponent: its rating comes from the levels, not from attempts.
pub const PUZZLE_RD: f64 = 80.0;

/// A player's rating, deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub rating: f64,
    pub rd: f64,
    pub vol: f64,
}

impl Player {
    /// A player as the page hands it back: each number finite and in a sane range, else
    /// None (the board then says which).
    pub fn checked(rating: f64, rd: f64, vol: f64) -> Option<Player> {
        let ok = rating.is_finite()
            && (0.0..=4000.0).contains(&rating)
            && rd.is_finite()
            && (MIN_RD..=NEW.rd).contains(&rd)
            && vol.is_finite()
            && (0.0..=1.0).contains(&vol)
            && vol > 0.0;
        ok.then_some(Player { rating, rd, vol })
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The player after one rating period of `games`: (opponent's rating, its deviation, the
/// player's score 1, 0.5 or 0).
pub fn update(p: Player, games: &[(f64, f64, f64)]) -> Player {
    let mu = (p.rating - 1500.0) / SCALE;
    let phi = p.rd / SCALE;
    if games.is_empty() {
        let phi_star = (phi * phi + p.vol * p.vol).sqrt();
        return Player {
            rd: (phi_star * SCALE).min(NEW.rd),
            ..p
        };
    }
    // Steps 3 and 4: the estimated variance and the improvement.
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for &(r, rd, s) in games {
        let (mu_j, phi_j) = ((r - 1500.0) / SCALE, rd / SCALE);
        let ej = e(mu, mu_j, phi_j);
        inv_v += g(phi_j) * g(phi_j) * ej * (1.0 - ej);
        sum += g(phi_j) * (s - ej);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    // Step 5: the new volatility (the Illinois algorithm).
    let a = (p.vol * p.vol).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 200 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        rounds += 1;
    }
    let vol = (big_a / 2.0).exp();
    // Steps 6 to 8: the new deviation and rating.
    let phi_star = (phi * phi + vol * vol).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    Player {
        rating: (SCALE * mu_new + 1500.0).clamp(0.0, 4000.0),
        rd: (SCALE * phi_new).clamp(MIN_RD, NEW.rd),
        vol,
    }
}

/// The player after a puzzle rated `puzzle`, solved or not.
pub fn after_puzzle(p: Player, puzzle: u32, solved: bool) -> Player {
    let score = if solved { 1.0 } else { 0.0 };
    update(p, &[(f64::from(puzzle), PUZZLE_RD, score)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: 1500/200/0.06 against 1400/30 (won), 1550/100 (lost) and
    /// 1700/300 (lost) becomes 1464.06/151.52/0.05999 with his tau of 0.5; with lichess's
    /// 0.75 the volatility moves a little differently, and the rating and deviation stay
    /// within 0.1 of his.
    #[test]
    fn glickmans_example() {
        let p = Player {
            rating: 1500.0,
            rd: 200.0,
            vol: 0.06,
        };
        let games = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let q = update(p, &games);
        assert!((q.rating - 1464.06).abs() < 0.1, "{q:?}");
        assert!((q.rd - 151.52).abs() < 0.1, "{q:?}");
        assert!((q.vol - 0.06).abs() < 0.0005, "{q:?}");
    }

    #[test]
    fn solving_raises_and_failing_lowers() {
        let up = after_puzzle(NEW, 1500, true);
        let down = after_puzzle(NEW, 1500, false);
        assert!(up.rating > 1500.0 && down.rating < 1500.0);
        assert!(up.rd < NEW.rd);
        // A hard puzzle solved gains more than an easy one.
        assert!(after_puzzle(NEW, 2000, true).rating > after_puzzle(NEW, 1000, true).rating);
        assert!(Player::checked(1500.0, 350.0, 0.06).is_some());
        assert!(Player::checked(f64::NAN, 350.0, 0.06).is_none());
        assert!(Player::checked(1500.0, 10.0, 0.06).is_none());
    }
}
