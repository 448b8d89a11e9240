//! The board's review job: a game review (`review` message) and its "find a better move"
//! (`retry`): the budget the page asks for, checked (`ReviewError` where refused), the move
//! a retry tries, found in the game, and the messages they send, `review_ply` per move,
//! `review_done` with each side's summary over the moves reported, and `retry_result`. A
//! review's job (`board::run_job`, which runs
//! `crate::review::review` or `try_move`) reports a `PlyReport` per move, and the board keeps
//! a `Tally` of what it forwarded, so that a stopped review's summary is that of the plies
//! the page got.

use crate::board::protocol::{
    short, BudgetFields, Judgement, Reply, MAX_REVIEW_DEPTH, MAX_REVIEW_MOVETIME, MAX_REVIEW_NODES,
    MAX_REVIEW_TOTAL_NODES, MAX_REVIEW_TOTAL_SECONDS,
};
use crate::board::session::{BestLine, ReviewNote, Session};
use crate::board::view::{legal_move, side_report};
use crate::core::tree::NodeId;
use crate::core::{notation, Color, Game, Move, Position};
use crate::review::marks::Mark;
use crate::review::{Budget, GameSummary, PlyReview};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// Why a `review` or a `retry` was refused: its budget, or the move a retry tries.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewError {
    /// `each` nodes at each of `positions` positions: more than a `what` may search in all.
    TooManyNodes {
        what: &'static str,
        positions: u64,
        each: u64,
    },
    /// `each` seconds at each of `positions` positions: more than a `what` may take in all.
    TooLong {
        what: &'static str,
        positions: u64,
        each: f64,
    },
    /// A depth out of range.
    Depth(u64),
    /// A movetime out of range.
    MoveTime(f64),
    /// Nodes out of range.
    Nodes(u64),
    /// Two or three of depth, movetime and nodes.
    TwoBudgets,
    /// A retry's ply past the game's `plies`.
    RetryPly { ply: usize, plies: usize },
    /// A retry's move, as given, that is not legal before ply `ply` (why).
    RetryMove {
        ply: usize,
        text: String,
        why: String,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            &ReviewError::TooManyNodes {
                what,
                positions: n,
                each,
            } => write!(
                f,
                "a {what} of {n} positions at {each} nodes each is {} nodes, more than the \
                 {MAX_REVIEW_TOTAL_NODES} a {what} may search in all: ask for at most {} nodes a \
                 position",
                each.saturating_mul(n),
                MAX_REVIEW_TOTAL_NODES / n
            ),
            &ReviewError::TooLong {
                what,
                positions: n,
                each,
            } => write!(
                f,
                "a {what} of {n} positions at {each} s each is {:.0} s, more than the \
                 {MAX_REVIEW_TOTAL_SECONDS} s a {what} may take in all: ask for at most {} s a \
                 position",
                (each * n as f64).ceil(),
                (MAX_REVIEW_TOTAL_SECONDS / n as f64 * 1000.0).floor() / 1000.0
            ),
            ReviewError::Depth(d) => {
                write!(f, "review depth {d} is not from 1 to {MAX_REVIEW_DEPTH}")
            }
            ReviewError::MoveTime(s) => write!(
                f,
                "review movetime {s} is not a number of seconds above 0 and at most \
                 {MAX_REVIEW_MOVETIME}"
            ),
            ReviewError::Nodes(n) => {
                write!(f, "review nodes {n} is not from 1 to {MAX_REVIEW_NODES}")
            }
            ReviewError::TwoBudgets => f.write_str(
                "a review takes one of depth, movetime or nodes per position, not two",
            ),
            ReviewError::RetryPly { ply, plies } => write!(
                f,
                "retry ply {ply} is out of range: the game has {plies} plies (retry takes 1 to {plies})"
            ),
            ReviewError::RetryMove { ply, text, why } => {
                write!(f, "illegal move {} before ply {ply}: {why}", short(text))
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// The budget per position of a `what` (`review` or `retry`) that searches `positions`
/// positions: a depth, seconds, nodes, or none for `Budget::DEFAULT` (what `poolshark
/// annotate` uses), such that the whole stays within `MAX_REVIEW_TOTAL_NODES` nodes or
/// `MAX_REVIEW_TOTAL_SECONDS` seconds. Nodes or seconds that would pass it are refused,
/// naming the most a position may have; a depth, whose cost no one knows before, searches
/// each position to that depth or its share of the nodes, whichever comes first.
pub fn budget(
    fields: BudgetFields,
    positions: usize,
    what: &'static str,
) -> Result<Budget, ReviewError> {
    let n = positions.max(1) as u64;
    match per_position(fields)? {
        Budget::Nodes(each) if each.saturating_mul(n) > MAX_REVIEW_TOTAL_NODES => {
            Err(ReviewError::TooManyNodes {
                what,
                positions: n,
                each,
            })
        }
        Budget::MoveTime(t) if t.as_secs_f64() * n as f64 > MAX_REVIEW_TOTAL_SECONDS => {
            Err(ReviewError::TooLong {
                what,
                positions: n,
                each: t.as_secs_f64(),
            })
        }
        Budget::Depth(d) => Ok(Budget::DepthWithin(d, MAX_REVIEW_TOTAL_NODES / n)),
        b => Ok(b),
    }
}

/// The searches of a review of `game`: its first position and the one after each move.
pub fn review_positions(game: &Game) -> usize {
    game.moves().len() + 1
}

/// The searches of a retry: the position before the move and the one after it.
pub const RETRY_POSITIONS: usize = 2;

/// The budget per position as the page gives it, each kind within its own bounds.
fn per_position(fields: BudgetFields) -> Result<Budget, ReviewError> {
    match (fields.depth, fields.movetime, fields.nodes) {
        (None, None, None) => Ok(Budget::DEFAULT),
        (Some(d), None, None) if (1..=MAX_REVIEW_DEPTH).contains(&d) => Ok(Budget::Depth(d as u32)),
        (Some(d), None, None) => Err(ReviewError::Depth(d)),
        (None, Some(s), None) if s.is_finite() && s > 0.0 && s <= MAX_REVIEW_MOVETIME => {
            Ok(Budget::MoveTime(Duration::from_secs_f64(s)))
        }
        (None, Some(s), None) => Err(ReviewError::MoveTime(s)),
        (None, None, Some(n)) if (1..=MAX_REVIEW_NODES).contains(&n) => Ok(Budget::Nodes(n)),
        (None, None, Some(n)) => Err(ReviewError::Nodes(n)),
        _ => Err(ReviewError::TwoBudgets),
    }
}

/// A retry's position and move: the game (`whole`, its main line) up to the position
/// before ply `ply` (from 1), and `text` parsed there.
pub fn retry_position(whole: &Game, ply: usize, text: &str) -> Result<(Game, Move), ReviewError> {
    let plies = whole.moves().len();
    if ply == 0 || ply > plies {
        return Err(ReviewError::RetryPly { ply, plies });
    }
    let mut game = whole.clone();
    while game.moves().len() >= ply {
        game.undo();
    }
    let mv = notation::parse_move(game.position(), text).map_err(|e| ReviewError::RetryMove {
        ply,
        text: text.to_string(),
        why: e.to_string(),
    })?;
    Ok((game, mv))
}

/// A judged move as the page gets it; `pos` is the position it was played (or tried) in.
pub fn judgement(ply: &PlyReview, pos: &Position) -> Judgement {
    let mut line = *pos;
    let pv = ply
        .best
        .pv
        .iter()
        .map(|mv| {
            let text = notation::pdn_move(&line, mv);
            line = line.play(mv);
            text
        })
        .collect();
    Judgement {
        ply: ply.ply,
        node: None,
        played: ply.played_text.clone(),
        score: ply.score_text(),
        best: ply.best.text.clone(),
        best_score: ply.best.score.hub(),
        best_path: legal_move(pos, &ply.best.mv).path,
        pv,
        loss: round(ply.loss, 100.0),
        good: ply.good(),
        mark: ply.mark.map(crate::review::marks::Mark::suffix),
        node_mark: None,
    }
}

fn round(x: f64, unit: f64) -> f64 {
    (x * unit).round() / unit
}

/// One reviewed move as a review's search reports it to the board (`board::JobEvent`, plain
/// data, so that it can cross from a search worker as JSON): the message, and what the
/// tally counts (the mover, and the loss and accuracy before rounding).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReport {
    pub judgement: Judgement,
    /// The side that played the move.
    pub mover: Side,
    /// The men it gave away, as `PlyReview::loss` (the judgement's is rounded).
    pub loss: f64,
    /// Its accuracy in %, as `PlyReview::accuracy`.
    pub accuracy: f64,
}

/// A side, as data that crosses to the board (`core::Color` is the engine's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Black,
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl PlyReport {
    /// The report of `ply`, played in `pos`.
    pub fn new(ply: &PlyReview, pos: &Position) -> PlyReport {
        PlyReport {
            judgement: judgement(ply, pos),
            mover: ply.mover.into(),
            loss: ply.loss,
            accuracy: ply.accuracy,
        }
    }

    /// The `review_ply` message for the main line's `node`, whose verdict it keeps
    /// (`Session::record_review`), saying the mark the node shows from now on
    /// (`node_mark`).
    pub fn record(mut self, session: &mut Session, node: NodeId) -> Reply {
        let j = &mut self.judgement;
        j.node = Some(node.index());
        let note = ReviewNote {
            mark: j.mark.and_then(Mark::from_suffix),
            best: Some(BestLine {
                mv: j.best.clone(),
                score: j.best_score.clone(),
                line: j.pv.clone(),
            }),
            loss: self.loss,
            accuracy: self.accuracy,
        };
        j.node_mark = session.record_review(node, &j.score, note);
        Reply::ReviewPly(Box::new(self.judgement))
    }
}

/// Each side's summary over the plies forwarded.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    summary: GameSummary,
}

impl Tally {
    pub fn add(&mut self, report: &PlyReport) {
        let side = match report.mover {
            Side::Black => &mut self.summary.black,
            Side::White => &mut self.summary.white,
        };
        let mark = report.judgement.mark.and_then(Mark::from_suffix);
        side.count(mark, report.loss, report.accuracy);
    }

    /// The `review_done` message.
    pub fn done(&self, stopped: bool) -> Reply {
        Reply::ReviewDone {
            black: side_report(&self.summary.black),
            white: side_report(&self.summary.white),
            stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;
    use crate::review::BestMove;
    use crate::search::Score;

    fn fields(depth: Option<u64>, movetime: Option<f64>, nodes: Option<u64>) -> BudgetFields {
        BudgetFields {
            depth,
            movetime,
            nodes,
        }
    }

    #[test]
    fn budgets_are_checked() {
        let b = |d, m, n| per_position(fields(d, m, n));
        assert_eq!(b(None, None, None), Ok(Budget::DEFAULT));
        assert_eq!(b(Some(6), None, None), Ok(Budget::Depth(6)));
        assert_eq!(
            b(None, Some(0.5), None),
            Ok(Budget::MoveTime(Duration::from_millis(500)))
        );
        assert_eq!(b(None, None, Some(20_000)), Ok(Budget::Nodes(20_000)));
        for bad in [
            b(Some(0), None, None),
            b(Some(MAX_REVIEW_DEPTH + 1), None, None),
            b(None, Some(0.0), None),
            b(None, Some(-1.0), None),
            b(None, Some(f64::INFINITY), None),
            b(None, Some(MAX_REVIEW_MOVETIME * 2.0), None),
            b(None, None, Some(0)),
            b(None, None, Some(MAX_REVIEW_NODES + 1)),
            b(Some(4), Some(1.0), None),
            b(Some(4), None, Some(1000)),
            b(None, Some(1.0), Some(1000)),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    /// A whole review is bounded (issue 58: `nodes 1e9` a position reviewed a 60-ply game
    /// for hours): too much in all is refused with the most a position may have, and a
    /// depth gets a share of the nodes.
    #[test]
    fn a_whole_review_is_bounded() {
        let nodes = |n, positions| budget(fields(None, None, Some(n)), positions, "review");
        let e = nodes(MAX_REVIEW_NODES, 61).unwrap_err().to_string();
        assert_eq!(
            e,
            "a review of 61 positions at 1000000000 nodes each is 61000000000 nodes, more than \
             the 1000000000 a review may search in all: ask for at most 16393442 nodes a position"
        );
        assert_eq!(nodes(16_393_442, 61), Ok(Budget::Nodes(16_393_442)));
        assert!(nodes(16_393_443, 61).is_err());
        // The default reviews the longest main line a board holds.
        let longest = crate::board::session::MAX_MOVES + 1;
        let default = budget(fields(None, None, None), longest, "review");
        assert_eq!(default, Ok(Budget::DEFAULT));
        // A retry searches two positions.
        let e = budget(fields(None, None, Some(MAX_REVIEW_NODES)), 2, "retry")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("a retry of 2 positions at 1000000000 nodes"),
            "{e}"
        );
        assert!(e.ends_with("at most 500000000 nodes a position"), "{e}");
        let seconds = |s, positions| budget(fields(None, Some(s), None), positions, "review");
        let e = seconds(MAX_REVIEW_MOVETIME, 61).unwrap_err().to_string();
        assert_eq!(
            e,
            "a review of 61 positions at 60 s each is 3660 s, more than the 300 s a review may \
             take in all: ask for at most 4.918 s a position"
        );
        assert_eq!(
            seconds(4.918, 61),
            Ok(Budget::MoveTime(Duration::from_secs_f64(4.918)))
        );
        assert_eq!(
            budget(fields(Some(30), None, None), 61, "review"),
            Ok(Budget::DepthWithin(30, 16_393_442))
        );
        // Each bound holds for every game length up to the longest.
        for positions in 1..=longest {
            // The most a position may have, as the error says it.
            let most_nodes = (MAX_REVIEW_TOTAL_NODES / positions as u64).min(MAX_REVIEW_NODES);
            let most_seconds =
                (MAX_REVIEW_TOTAL_SECONDS / positions as f64 * 1000.0).floor() / 1000.0;
            assert!(nodes(most_nodes + 1, positions).is_err());
            assert!(seconds(most_seconds + 0.001, positions).is_err());
            for b in [
                nodes(most_nodes, positions),
                seconds(most_seconds.min(MAX_REVIEW_MOVETIME), positions),
                budget(fields(Some(30), None, None), positions, "review"),
            ] {
                let total = match b.unwrap() {
                    Budget::Nodes(n) | Budget::DepthWithin(_, n) => n as f64,
                    Budget::MoveTime(t) => t.as_secs_f64() * 1e9 / MAX_REVIEW_TOTAL_SECONDS,
                    other => panic!("{other:?}"),
                } * positions as f64;
                assert!(total <= 1.000_001e9, "{positions}: {total}");
            }
        }
        // Bad budgets are refused before their total is looked at.
        assert!(nodes(0, 61).unwrap_err().to_string().contains("not from 1"));
        assert!(seconds(0.0, 61)
            .unwrap_err()
            .to_string()
            .contains("above 0"));
    }

    #[test]
    fn a_retry_names_a_ply_of_the_game_and_a_legal_move_there() {
        let mut whole = Game::new(Position::start());
        for m in ["11-15", "23-19", "8-11"] {
            whole.play_text(m).unwrap();
        }
        let (game, mv) = retry_position(&whole, 3, "9-13").unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(notation::pdn_move(game.position(), &mv), "9-13");
        let (game, _) = retry_position(&whole, 1, "9-14").unwrap();
        assert!(game.moves().is_empty());
        assert!(retry_position(&whole, 0, "9-14")
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        assert!(retry_position(&whole, 4, "22-18")
            .unwrap_err()
            .to_string()
            .contains("the game has 3 plies"));
        // White's move at Black's turn, and nonsense.
        assert!(retry_position(&whole, 3, "22-18")
            .unwrap_err()
            .to_string()
            .starts_with("illegal move 22-18 before ply 3"));
        assert!(retry_position(&whole, 3, "x").is_err());
        assert_eq!(whole.moves().len(), 3, "the game is unchanged");
    }

    fn reviewed(
        pos: &Position,
        played: &str,
        best: &str,
        loss: f64,
        mark: Option<Mark>,
    ) -> PlyReview {
        let mover = pos.side();
        let mv = notation::parse_move(pos, played).unwrap();
        let best_mv = notation::parse_move(pos, best).unwrap();
        let next = notation::parse_move(&pos.play(&best_mv), "23x32").ok();
        PlyReview {
            ply: 4,
            mover,
            played: mv,
            played_text: notation::pdn_move(pos, &mv),
            score: Score(-120),
            best: BestMove {
                mv: best_mv,
                text: notation::pdn_move(pos, &best_mv),
                score: Score(5),
                pv: std::iter::once(best_mv).chain(next).collect(),
            },
            mark,
            loss,
            accuracy: 40.0,
        }
    }

    #[test]
    fn a_judgement_carries_the_best_moves_path_and_line() {
        // White to move: 24x15x8 takes two men, jump by jump.
        let pos = parse_fen("W:W24,27:B19,11,12,23").unwrap();
        let p = reviewed(&pos, "27x18", "24x15x8", 1.25, Some(Mark::Blunder));
        let j = judgement(&p, &pos);
        assert_eq!(j.best_path, [24, 15, 8]);
        assert_eq!(j.best, "24x15x8");
        assert_eq!(j.pv, ["24x15x8", "23x32"]);
        assert_eq!((j.score.as_str(), j.best_score.as_str()), ("-1.20", "0.05"));
        assert_eq!((j.loss, j.good, j.mark), (1.25, false, Some("??")));
        assert_eq!(j.played, "27x18");
        let json = Reply::ReviewPly(Box::new(j)).to_json();
        assert!(
            json.starts_with(r#"{"type":"review_ply","ply":4,"move":"27x18","#),
            "{json}"
        );
        assert!(json.contains(r#""best_path":[24,15,8]"#), "{json}");
        let ok = judgement(&reviewed(&pos, "27x18", "24x15x8", 0.2, None), &pos);
        assert!(ok.good);
    }

    #[test]
    fn the_tally_sums_each_side() {
        let pos = parse_fen("W:W24,27:B19,11,12,23").unwrap();
        let report =
            |loss, mark| PlyReport::new(&reviewed(&pos, "27x18", "24x15x8", loss, mark), &pos);
        let mut t = Tally::default();
        t.add(&report(1.5, Some(Mark::Blunder)));
        t.add(&report(0.4, Some(Mark::Inaccuracy)));
        t.add(&report(0.0, None));
        let json = t.done(false).to_json();
        assert_eq!(
            json,
            r#"{"type":"review_done","black":{"inaccuracies":0,"mistakes":0,"blunders":0,"moves":0,"mean_loss":0.0,"accuracy":100.0},"white":{"inaccuracies":1,"mistakes":0,"blunders":1,"moves":3,"mean_loss":0.63,"accuracy":40.0},"stopped":false}"#
        );
    }
}
