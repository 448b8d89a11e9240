//! A move's accuracy in %: what it gave away measured on the evaluation's own
//! win-probability curve, so that a man lost in a level game costs far more than a man lost
//! in a game already won. The curve, the decay and the mean over a side's moves are here;
//! docs/ANNOTATE.md gives the formula.
//!
//! - **The curve**: the network is trained so that `sigmoid(eval / scale)` predicts the
//!   game's result (a win 1, a draw 1/2, a loss 0) from the side to move's evaluation in
//!   hundredths of a man (`tune::target`, `eval::nnue`): `scale` is the network's own
//!   (`Network::scale`, about 94 for the built-in one). A proved or database win is 1, a
//!   loss 0, a proved draw 1/2.
//! - **A move**: `E_best` and `E_played` are the expected scores of the best move and the
//!   played one, for the mover, in points (0 to 100); the move's accuracy is
//!   `100 * exp(-max(0, E_best - E_played) / DECAY_POINTS)`. The best move is 100.
//! - **A side**: the mean of its moves' accuracies (100 with no move).

use super::marks::Value;
use crate::eval::Weights;

/// A move's accuracy falls by a factor of e for every this many points (of 100) of expected
/// score it gives away: a move that turns an even game (50) into 30, a man down by this
/// evaluation, is 37% accurate. With the built-in network's curve, in a level position a
/// loss at the `?!` threshold (0.3 men) gives about 67%, at `?` (0.6) 46%, at `??` (1.0) 30%.
pub const DECAY_POINTS: f64 = 20.0;

/// The evaluation's win-probability curve: the expected score of an evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinCurve {
    /// Hundredths of a man per logit: the evaluation `scale` is an expected score of
    /// `sigmoid(1)`, 73%.
    pub scale: f64,
}

impl WinCurve {
    /// The curve of the network the built-in weights play with (`tuning/network.bin`).
    pub fn builtin() -> WinCurve {
        WinCurve::of(&Weights::builtin())
    }

    /// The curve of these weights: their network's scale, or the built-in network's for
    /// the hand evaluation (which is fitted to the same results, on a near scale).
    pub fn of(weights: &Weights) -> WinCurve {
        match weights.network() {
            Some(n) => WinCurve {
                scale: f64::from(n.scale()),
            },
            None => WinCurve::builtin(),
        }
    }

    /// The expected score (0 to 1) of a position worth `value` to the side to move.
    pub fn expected(self, value: Value) -> f64 {
        match value {
            Value::Win => 1.0,
            Value::Loss => 0.0,
            Value::ProvedDraw => 0.5,
            Value::Eval(v) => sigmoid(f64::from(v) / self.scale),
        }
    }

    /// The accuracy (0 to 100) of a move: `best` is the position's value before it,
    /// `played` the value after it, both from the mover's side (as `marks::mark` takes them).
    pub fn move_accuracy(self, best: Value, played: Value, played_is_best: bool) -> f64 {
        if played_is_best {
            return 100.0;
        }
        let lost = 100.0 * (self.expected(best) - self.expected(played));
        100.0 * (-lost.max(0.0) / DECAY_POINTS).exp()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean of moves' accuracies, as a side's: 100 for no move.
pub fn mean(sum: f64, moves: u32) -> f64 {
    if moves == 0 {
        100.0
    } else {
        sum / f64::from(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn the_curve_is_the_networks_own() {
        let w = Weights::builtin();
        let n = w.network().expect("the built-in weights play a network");
        assert_eq!(WinCurve::builtin().scale, f64::from(n.scale()));
        // The built-in network's scale, as tuning/README.md gives it (1 / K, K 0.0106).
        assert!((80.0..110.0).contains(&WinCurve::builtin().scale));
        // The hand evaluation borrows it.
        assert_eq!(WinCurve::of(&Weights::default()), WinCurve::builtin());
    }

    #[test]
    fn expected_scores_on_known_values() {
        let c = WinCurve { scale: 100.0 };
        assert_eq!(c.expected(Value::Eval(0)), 0.5);
        assert_eq!(c.expected(Value::ProvedDraw), 0.5);
        assert_eq!(c.expected(Value::Win), 1.0);
        assert_eq!(c.expected(Value::Loss), 0.0);
        // One scale up is sigmoid(1); one down the rest.
        assert!((c.expected(Value::Eval(100)) - 0.731_058_6).abs() < 1e-6);
        assert!((c.expected(Value::Eval(-100)) - 0.268_941_4).abs() < 1e-6);
    }

    #[test]
    fn move_accuracy_on_known_values() {
        let c = WinCurve { scale: 100.0 };
        let even = Value::Eval(0);
        // The best move, and a move as good or better, are 100.
        assert_eq!(c.move_accuracy(even, Value::Eval(-500), true), 100.0);
        assert_eq!(c.move_accuracy(even, even, false), 100.0);
        assert_eq!(c.move_accuracy(even, Value::Eval(40), false), 100.0);
        // Even to a man down (E 50 -> 26.89): 23.11 points lost, exp(-23.11 / 20) = 31.49%.
        assert!(close(
            c.move_accuracy(even, Value::Eval(-100), false),
            31.49
        ));
        // A draw thrown into a loss: 50 points, exp(-2.5) = 8.21%.
        assert!(close(
            c.move_accuracy(Value::ProvedDraw, Value::Loss, false),
            8.21
        ));
        // A win thrown away for a draw, the same.
        assert!(close(
            c.move_accuracy(Value::Win, Value::ProvedDraw, false),
            8.21
        ));
        // A win into a loss: 100 points, exp(-5) = 0.67%.
        assert!(close(c.move_accuracy(Value::Win, Value::Loss, false), 0.67));
        // A man given back five men up costs far less than at even: E 99.33 -> 98.20,
        // 1.13 points, 94.51%.
        let won = c.move_accuracy(Value::Eval(500), Value::Eval(400), false);
        assert!(close(won, 94.51), "{won}");
    }

    #[test]
    fn a_sides_mean() {
        assert_eq!(mean(0.0, 0), 100.0);
        assert_eq!(mean(150.0, 2), 75.0);
    }
}
