//! The marks a review gives a move (`?!`, `?`, `??`): what a score is worth in men, the
//! thresholds, and the rules that decide a mark. Every threshold is here, in men.
//!
//! A move's loss is what the best move is worth minus what the played move is worth, both
//! from the mover's side, with a proved or database win counted as `WIN_MEN` and a loss as
//! `-WIN_MEN` (evaluations are capped there too). The loss sets the mark: `?!` from
//! `INACCURACY_MEN`, `?` from `MISTAKE_MEN`, `??` from `BLUNDER_MEN`. A man dropped to a
//! shot in a level position costs about two men of score with the built-in evaluation at
//! depth 12 (it weighs material by what it wins in play), and never much under one, so
//! `??` starts at one man.
//!
//! The rules, in order: the played move is the best move: no mark. A win (proved or from
//! the database) that stays a win, a loss that stays a loss, a proved draw (the rules, or
//! the tables) that stays one: no mark. A win given up for a draw or a loss: `??`. A
//! position played into a proved or database loss: `??`, unless it was already lost by more
//! than `DECIDED_MEN`. Both values beyond `DECIDED_MEN` for the same side (a won game still
//! won, a lost one still lost): no mark. Otherwise the loss against the thresholds.

use crate::search::Score;

/// A loss of this many men or more is an inaccuracy (`?!`).
pub const INACCURACY_MEN: f64 = 0.3;
/// A loss of this many men or more is a mistake (`?`).
pub const MISTAKE_MEN: f64 = 0.6;
/// A loss of this many men or more is a blunder (`??`): less than a man dropped to a shot in
/// a level position costs (see the module notes).
pub const BLUNDER_MEN: f64 = 1.0;
/// What a proved or database win is worth in men when losses are measured (a loss the same,
/// negated); evaluations are capped here too, so one bad move adds at most twice this to a
/// side's mean loss.
pub const WIN_MEN: f64 = 10.0;
/// Beyond this many men for the same side before and after a move, the game is decided
/// either way, and a move that leaves it so is not marked.
pub const DECIDED_MEN: f64 = 5.0;

// Each mark needs a larger loss than the one before.
const _: () = assert!(INACCURACY_MEN < MISTAKE_MEN && MISTAKE_MEN < BLUNDER_MEN);

/// A move that gave away value, by how much (`mark`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// Every mark, the mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark whose suffix is `text`, if any (the inverse of `suffix`).
    pub fn from_suffix(text: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.suffix() == text)
    }

    /// The PDN suffix glued to the move.
    pub fn suffix(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The name in the summary line, plural (`inaccuracies`, `mistakes`, `blunders`).
    pub fn plural(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracies",
            Mark::Mistake => "mistakes",
            Mark::Blunder => "blunders",
        }
    }

    /// The mark a loss of `men` earns by the thresholds alone, if any.
    pub fn for_loss(men: f64) -> Option<Mark> {
        if men >= BLUNDER_MEN {
            Some(Mark::Blunder)
        } else if men >= MISTAKE_MEN {
            Some(Mark::Mistake)
        } else if men >= INACCURACY_MEN {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// What a position is worth to the side to move, as a review tells them apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A proved win (`99.xx`) or a database win (`89.xx`).
    Win,
    /// A proved or database loss.
    Loss,
    /// A draw that is known: the rules ended the game, or the endgame tables say so.
    ProvedDraw,
    /// An evaluation, in hundredths of a man (a search score that proves nothing).
    Eval(i32),
}

impl Value {
    /// The value a search score gives; `proved_draw` when the position is known to be drawn.
    pub fn of(score: Score, proved_draw: bool) -> Value {
        if score.is_win() || score.is_db_win() {
            Value::Win
        } else if score.is_loss() || score.is_db_loss() {
            Value::Loss
        } else if proved_draw && score == Score::DRAW {
            Value::ProvedDraw
        } else {
            Value::Eval(score.0)
        }
    }

    /// The same value for the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::ProvedDraw => Value::ProvedDraw,
            Value::Eval(v) => Value::Eval(-v),
        }
    }

    /// In men, wins and losses and evaluations within `WIN_MEN` either way.
    pub fn men(self) -> f64 {
        match self {
            Value::Win => WIN_MEN,
            Value::Loss => -WIN_MEN,
            Value::ProvedDraw => 0.0,
            Value::Eval(v) => (f64::from(v) / 100.0).clamp(-WIN_MEN, WIN_MEN),
        }
    }
}

/// The value a move gave away, in men (0 or more): `best` is the position's value before
/// it, `played` the value after it, both from the mover's side. The best move gives none.
pub fn loss(best: Value, played: Value, played_is_best: bool) -> f64 {
    if played_is_best {
        0.0
    } else {
        (best.men() - played.men()).max(0.0)
    }
}

/// The mark of a move (see the module notes for the rules): `best` is the position's value
/// before it, `played` the value after it, both from the mover's side.
pub fn mark(best: Value, played: Value, played_is_best: bool) -> Option<Mark> {
    use Value::{Loss, ProvedDraw, Win};
    if played_is_best {
        return None;
    }
    match (best, played) {
        (Win, Win) | (Loss, Loss) | (ProvedDraw, ProvedDraw) => None,
        (Win, ProvedDraw | Loss) => Some(Mark::Blunder),
        (_, Loss) if best.men() > -DECIDED_MEN => Some(Mark::Blunder),
        (_, Loss) => None,
        _ => {
            let (b, p) = (best.men(), played.men());
            let decided =
                (b >= DECIDED_MEN && p >= DECIDED_MEN) || (b <= -DECIDED_MEN && p <= -DECIDED_MEN);
            if decided {
                None
            } else {
                Mark::for_loss(loss(best, played, false))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(men: f64) -> Value {
        Value::Eval((men * 100.0).round() as i32)
    }

    #[test]
    fn the_thresholds_set_the_mark() {
        let level = eval(0.05);
        let after = |loss: f64| eval(0.05 - loss);
        assert_eq!(mark(level, after(0.0), false), None);
        assert_eq!(mark(level, after(INACCURACY_MEN - 0.01), false), None);
        assert_eq!(
            mark(level, after(INACCURACY_MEN), false),
            Some(Mark::Inaccuracy)
        );
        assert_eq!(
            mark(level, after(MISTAKE_MEN - 0.01), false),
            Some(Mark::Inaccuracy)
        );
        assert_eq!(mark(level, after(MISTAKE_MEN), false), Some(Mark::Mistake));
        assert_eq!(
            mark(level, after(BLUNDER_MEN - 0.01), false),
            Some(Mark::Mistake)
        );
        assert_eq!(mark(level, after(BLUNDER_MEN), false), Some(Mark::Blunder));
        // A man dropped in a level position.
        assert_eq!(mark(level, eval(-1.0), false), Some(Mark::Blunder));
        // A move better than the search's best is no loss.
        assert_eq!(mark(level, eval(1.0), false), None);
        assert_eq!(loss(level, eval(1.0), false), 0.0);
        assert!((loss(level, eval(-1.0), false) - 1.05).abs() < 1e-9);
    }

    #[test]
    fn win_to_draw_and_draw_to_loss_are_blunders() {
        use Value::*;
        assert_eq!(mark(Win, ProvedDraw, false), Some(Mark::Blunder));
        assert_eq!(mark(Win, Loss, false), Some(Mark::Blunder));
        assert_eq!(mark(Win, Eval(0), false), Some(Mark::Blunder));
        assert_eq!(mark(ProvedDraw, Loss, false), Some(Mark::Blunder));
        assert_eq!(mark(Eval(0), Loss, false), Some(Mark::Blunder));
        // Even from a bad position: a loss the player could still avoid.
        assert_eq!(mark(Eval(-300), Loss, false), Some(Mark::Blunder));
        // But a game lost already stays lost.
        assert_eq!(mark(Eval(-900), Loss, false), None);
    }

    #[test]
    fn a_move_that_wins_or_holds_is_never_marked() {
        use Value::*;
        let all = [
            Win,
            Loss,
            ProvedDraw,
            Eval(0),
            Eval(-900),
            Eval(450),
            Eval(-40),
        ];
        for best in all {
            for played in all {
                assert_eq!(mark(best, played, true), None, "{best:?} {played:?}");
                assert_eq!(loss(best, played, true), 0.0);
            }
        }
        assert_eq!(mark(Win, Win, false), None);
        assert_eq!(mark(Loss, Loss, false), None);
        assert_eq!(mark(ProvedDraw, ProvedDraw, false), None);
        // A won game that stays won, a lost one that stays lost.
        assert_eq!(mark(eval(8.0), eval(DECIDED_MEN), false), None);
        assert_eq!(mark(eval(-DECIDED_MEN), eval(-9.0), false), None);
        // But not a won game let go.
        assert_eq!(mark(eval(8.0), eval(1.0), false), Some(Mark::Blunder));
    }

    #[test]
    fn values_from_scores() {
        assert_eq!(Value::of(Score::win_in(7), false), Value::Win);
        assert_eq!(Value::of(Score::db_win(7), false), Value::Win);
        assert_eq!(Value::of(Score::db_loss(7), false), Value::Loss);
        assert_eq!(Value::of(Score::loss_in(0), false), Value::Loss);
        assert_eq!(Value::of(Score::DRAW, true), Value::ProvedDraw);
        assert_eq!(Value::of(Score::DRAW, false), Value::Eval(0));
        // A table's draw is 0.00; a search score elsewhere is only an evaluation.
        assert_eq!(Value::of(Score(25), true), Value::Eval(25));
        assert_eq!(Value::Win.flip(), Value::Loss);
        assert_eq!(Value::Eval(3).flip(), Value::Eval(-3));
        assert_eq!(Value::Eval(5000).men(), WIN_MEN);
    }
}
