//! A board's game review (`review` message): the budget the page asks for, checked, and
//! the messages a review sends, `review_ply` per move and `review_done` with each side's
//! marks over the moves reported. The server runs `crate::review::review` on its own
//! thread and keeps a `Tally` of what it forwarded, so that a stopped review's counts are
//! those of the plies the page got.

use crate::core::Color;
use crate::review::marks::Mark;
use crate::review::{Budget, PlyReview};
use crate::serve::protocol::{MarkCounts, Reply, MAX_REVIEW_DEPTH, MAX_REVIEW_MOVETIME};
use std::time::Duration;

/// The budget per position: a depth, seconds, or neither for `Budget::DEFAULT` (what
/// `poolshark annotate` uses).
pub fn budget(depth: Option<u64>, movetime: Option<f64>) -> Result<Budget, String> {
    match (depth, movetime) {
        (None, None) => Ok(Budget::DEFAULT),
        (Some(d), None) if (1..=MAX_REVIEW_DEPTH).contains(&d) => Ok(Budget::Depth(d as u32)),
        (Some(d), None) => Err(format!(
            "review depth {d} is not from 1 to {MAX_REVIEW_DEPTH}"
        )),
        (None, Some(s)) if s.is_finite() && s > 0.0 && s <= MAX_REVIEW_MOVETIME => {
            Ok(Budget::MoveTime(Duration::from_secs_f64(s)))
        }
        (None, Some(s)) => Err(format!(
            "review movetime {s} is not a number of seconds above 0 and at most \
             {MAX_REVIEW_MOVETIME}"
        )),
        (Some(_), Some(_)) => {
            Err("a review takes a depth or a movetime per position, not both".into())
        }
    }
}

/// One reviewed move as the server forwards it: the message and what the tally needs.
#[derive(Clone, Debug)]
pub struct PlyReport {
    pub reply: Reply,
    pub mover: Color,
    pub mark: Option<Mark>,
}

impl PlyReport {
    pub fn new(ply: &PlyReview) -> PlyReport {
        PlyReport {
            reply: Reply::ReviewPly {
                ply: ply.ply,
                score: ply.score_text(),
                best: ply.best.text.clone(),
                mark: ply.mark.map(Mark::suffix),
            },
            mover: ply.mover,
            mark: ply.mark,
        }
    }
}

/// Each side's marks over the plies forwarded.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    black: MarkCounts,
    white: MarkCounts,
}

impl Tally {
    pub fn add(&mut self, report: &PlyReport) {
        let side = match report.mover {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        };
        match report.mark {
            Some(Mark::Inaccuracy) => side.inaccuracies += 1,
            Some(Mark::Mistake) => side.mistakes += 1,
            Some(Mark::Blunder) => side.blunders += 1,
            None => {}
        }
    }

    /// The `review_done` message.
    pub fn done(&self, stopped: bool) -> Reply {
        Reply::ReviewDone {
            black: self.black,
            white: self.white,
            stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_checked() {
        assert_eq!(budget(None, None), Ok(Budget::DEFAULT));
        assert_eq!(budget(Some(6), None), Ok(Budget::Depth(6)));
        assert_eq!(
            budget(None, Some(0.5)),
            Ok(Budget::MoveTime(Duration::from_millis(500)))
        );
        for bad in [
            budget(Some(0), None),
            budget(Some(MAX_REVIEW_DEPTH + 1), None),
            budget(None, Some(0.0)),
            budget(None, Some(-1.0)),
            budget(None, Some(f64::INFINITY)),
            budget(None, Some(MAX_REVIEW_MOVETIME * 2.0)),
            budget(Some(4), Some(1.0)),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_tally_counts_each_sides_marks() {
        let report = |mover, mark| PlyReport {
            reply: Reply::Pong,
            mover,
            mark,
        };
        let mut t = Tally::default();
        t.add(&report(Color::Black, Some(Mark::Blunder)));
        t.add(&report(Color::White, Some(Mark::Inaccuracy)));
        t.add(&report(Color::White, None));
        let json = t.done(false).to_json();
        assert_eq!(
            json,
            r#"{"type":"review_done","black":{"inaccuracies":0,"mistakes":0,"blunders":1},"white":{"inaccuracies":1,"mistakes":0,"blunders":0},"stopped":false}"#
        );
    }
}
