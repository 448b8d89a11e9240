//! Game review: every position of a game searched once, and for each move the score after
//! it, the position's best move with its score, and a mark where the played move gave value
//! away (`marks` owns the thresholds and rules). `poolshark annotate` writes the result as
//! PDN comments; a front end can stream it one ply at a time (`review`'s `on_ply`) and stop
//! it from another thread (`ReviewControl::stop`).
//!
//! One search per position is enough: the played move is worth minus the value of the next
//! position (that position's own search), and the best move with its score comes from the
//! position before. A position where the rules ended the game is not searched: the side to
//! move has lost (R16) or the game is a draw (R17-R19), `0.00`. Scores are shown from Black's
//! side (Black moves first) in the Hub's text: `99.xx` a proved win, `89.xx` a database win.
//!
//! A move can also be judged on its own (`try_move`, a board's "find a better move"): the
//! position before it and the position after it are searched as a review would, and the
//! move is as good as the best when it gives away less than a `?!` (`PlyReview::good`).

pub mod accuracy;
pub mod marks;

use crate::core::pdn::MoveNote;
use crate::core::{notation, Color, Game, GameResult, Move, Position};
use crate::search::{self, Engine, Limits, Score, SearchControl};
use accuracy::WinCurve;
use marks::{Mark, Value};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// To this depth (plies).
    Depth(u32),
    /// To this depth, or this many nodes if the search gets there first: a depth whose cost
    /// is bounded (the board's review job, `board::review_job`).
    DepthWithin(u32, u64),
    /// This many nodes.
    Nodes(u64),
    /// This long.
    MoveTime(Duration),
}

impl Budget {
    /// `annotate`'s default: a fixed node count, so that a review on one thread is the same
    /// every run and on every machine, and takes about as long for each position (a fixed
    /// depth costs far more in the middle game than in an ending). 50,000 nodes reviews a
    /// 60-move game in seconds; docs/ANNOTATE.md gives the measurements.
    pub const DEFAULT: Budget = Budget::Nodes(50_000);

    /// The search limits: analysis, so that a single legal move (a forced capture) is
    /// searched as deep as any other position and a proved result does not end it early.
    pub fn limits(self) -> Limits {
        let mut limits = Limits {
            analyze: true,
            ..Limits::default()
        };
        match self {
            Budget::Depth(d) => limits.depth = Some(d),
            Budget::DepthWithin(d, n) => {
                limits.depth = Some(d);
                limits.nodes = Some(n);
            }
            Budget::Nodes(n) => limits.nodes = Some(n),
            Budget::MoveTime(t) => limits.move_time = Some(t),
        }
        limits
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::DepthWithin(d, n) => write!(f, "depth {d} within {n} nodes"),
            Budget::Nodes(n) => write!(f, "nodes {n}"),
            Budget::MoveTime(t) => write!(f, "movetime {}", t.as_secs_f64()),
        }
    }
}

/// Stops a review from another thread. A `SearchControl` serves one search (the search
/// stops it as it ends), so a review makes one for each position and keeps the current
/// one here, where `stop` reaches it.
#[derive(Default)]
pub struct ReviewControl {
    stopped: AtomicBool,
    search: Mutex<Option<Arc<SearchControl>>>,
}

impl ReviewControl {
    pub fn new() -> ReviewControl {
        ReviewControl::default()
    }

    /// End the review: the running search stops at once (`SearchControl::stop`) and no
    /// further ply is reported.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        if let Some(c) = self.lock().as_ref() {
            c.stop();
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// A fresh control for the next search, stopped already if the review is.
    fn next_search(&self) -> Arc<SearchControl> {
        let control = Arc::new(SearchControl::new());
        let mut current = self.lock();
        // Checked under the lock: a `stop` either sees this control or came before it.
        if self.is_stopped() {
            control.stop();
        }
        *current = Some(Arc::clone(&control));
        control
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<SearchControl>>> {
        self.search.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The best move of a position as its own search found it.
#[derive(Clone, Debug, PartialEq)]
pub struct BestMove {
    pub mv: Move,
    /// In PDN notation.
    pub text: String,
    /// The position's score, from Black's side.
    pub score: Score,
    /// The search's line, from the best move on (at least the best move).
    pub pv: Vec<Move>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The move's ply in the game, 1 for its first move.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    /// The played move in PDN notation.
    pub played_text: String,
    /// The score after the move, from Black's side.
    pub score: Score,
    /// The best move in the position before the move.
    pub best: BestMove,
    pub mark: Option<Mark>,
    /// What the move gave away in men, from the mover's side (0 for the best move;
    /// `marks::loss`).
    pub loss: f64,
    /// The move's accuracy in % (`accuracy`).
    pub accuracy: f64,
}

impl PlyReview {
    /// As good as the best move: it gave away less than an inaccuracy's margin
    /// (`marks::INACCURACY_MEN`).
    pub fn good(&self) -> bool {
        self.loss < marks::INACCURACY_MEN
    }

    /// The score after the move from Black's side, as text (`-0.35`, `99.87`, `0.00`).
    pub fn score_text(&self) -> String {
        self.score.hub()
    }

    /// The PDN comment: `[%eval S]`, and for a marked move also the best move with its
    /// score, `[%eval -3.10] best 9-14 [%eval 0.05]`.
    pub fn comment(&self) -> String {
        let eval = format!("[%eval {}]", self.score_text());
        match self.mark {
            None => eval,
            Some(_) => format!(
                "{eval} best {} [%eval {}]",
                self.best.text,
                self.best.score.hub()
            ),
        }
    }

    /// What the PDN writer puts with the move: the mark and the comment.
    pub fn note(&self) -> MoveNote {
        MoveNote {
            mark: self.mark.map_or("", Mark::suffix),
            comment: self.comment(),
        }
    }
}

/// One side's count of marks and its loss over its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The side's moves reviewed.
    pub moves: u32,
    /// The men its moves gave away, summed.
    pub total_loss: f64,
    /// Its moves' accuracies (%), summed.
    pub total_accuracy: f64,
}

impl SideSummary {
    /// The mean loss per move in men (0 with no moves).
    pub fn mean_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss / f64::from(self.moves)
        }
    }

    /// The mean accuracy of its moves in % (`accuracy::mean`: 100 with no moves).
    pub fn accuracy(&self) -> f64 {
        accuracy::mean(self.total_accuracy, self.moves)
    }

    /// Count one of the side's moves.
    pub fn add(&mut self, ply: &PlyReview) {
        self.count(ply.mark, ply.loss, ply.accuracy);
    }

    /// Count one of the side's moves from its verdict alone: its mark, the men it gave away
    /// and its accuracy (%), as `PlyReview` has them (a board's tally gets no more).
    pub fn count(&mut self, mark: Option<Mark>, loss: f64, accuracy: f64) {
        self.moves += 1;
        self.total_loss += loss;
        self.total_accuracy += accuracy;
        match mark {
            Some(Mark::Inaccuracy) => self.inaccuracies += 1,
            Some(Mark::Mistake) => self.mistakes += 1,
            Some(Mark::Blunder) => self.blunders += 1,
            None => {}
        }
    }
}

impl fmt::Display for SideSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} mean-loss {:.2}",
            Mark::Inaccuracy.plural(),
            self.inaccuracies,
            Mark::Mistake.plural(),
            self.mistakes,
            Mark::Blunder.plural(),
            self.blunders,
            self.mean_loss()
        )
    }
}

/// The marks of a reviewed game, side by side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSummary {
    pub black: SideSummary,
    pub white: SideSummary,
    /// Every move was reviewed (false when the review was stopped).
    pub complete: bool,
}

impl GameSummary {
    /// The summary line of game `k`: `game K: black inaccuracies I mistakes M blunders B
    /// mean-loss L; white ...` (L in men, two decimals), the line issue 22 fixed.
    pub fn line(&self, k: usize) -> String {
        format!("game {k}: black {}; white {}", self.black, self.white)
    }

    /// Count a move for its side.
    pub fn add(&mut self, ply: &PlyReview) {
        match ply.mover {
            Color::Black => self.black.add(ply),
            Color::White => self.white.add(ply),
        }
    }
}

/// A position's value as the review uses it: the score for the side to move, what it
/// proves, and the best move (none where the game is over).
struct Judged {
    score: Score,
    value: Value,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// `score` for the side to move `side`, from Black's side.
fn black_view(score: Score, side: Color) -> Score {
    match side {
        Color::Black => score,
        Color::White => -score,
    }
}

/// The value of `game`'s current position: the rules' result where the game is over, else
/// one search. None when the review was stopped.
fn judge(game: &Game, limits: &Limits, engine: &Engine, control: &ReviewControl) -> Option<Judged> {
    match game.result() {
        GameResult::Win(_) => {
            return Some(Judged {
                score: Score::loss_in(0),
                value: Value::Loss,
                best: None,
                pv: Vec::new(),
            })
        }
        GameResult::Draw(_) => {
            return Some(Judged {
                score: Score::DRAW,
                value: Value::ProvedDraw,
                best: None,
                pv: Vec::new(),
            })
        }
        GameResult::Ongoing => {}
    }
    let search_control = control.next_search();
    let out = engine.search(game, limits, &search_control, &mut |_| {});
    if control.is_stopped() {
        return None;
    }
    Some(Judged {
        score: out.score,
        value: Value::of(out.score, table_draw(game, engine)),
        best: out.best,
        pv: out.pv,
    })
}

/// The endgame tables call `game`'s position a draw.
fn table_draw(game: &Game, engine: &Engine) -> bool {
    engine
        .egdb
        .as_deref()
        .and_then(|db| search::egdb::score(db, game.position(), game.counts(), 0))
        == Some(Score::DRAW)
}

/// A position's best move as a review's search already found it: a retry judges against
/// it rather than search the position again, so that the review, the retry and its answer
/// give one score (issue 61, defect 8: a second search said another).
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    pub best: Move,
    /// The position's score, from Black's side.
    pub score: Score,
    /// The line from the best move on.
    pub pv: Vec<Move>,
}

/// The review of move `mv`, ply `ply` of a game, played in `pos`: `before` is `pos` judged,
/// `after` the position the move leads to.
fn assess(
    ply: usize,
    pos: &Position,
    before: &Judged,
    mv: &Move,
    after: &Judged,
    curve: WinCurve,
) -> PlyReview {
    let mover = pos.side();
    // Where the game was over before this move (not a game the PDN reader passes), its
    // first legal move stands in as the best.
    let best_mv = before
        .best
        .or_else(|| {
            crate::core::movegen::legal_moves(pos)
                .as_slice()
                .first()
                .copied()
        })
        .unwrap_or(*mv);
    let pv = if before.pv.first() == Some(&best_mv) {
        before.pv.clone()
    } else {
        vec![best_mv]
    };
    let played_value = after.value.flip();
    let played_is_best = best_mv == *mv;
    PlyReview {
        ply,
        mover,
        played: *mv,
        played_text: notation::pdn_move(pos, mv),
        score: black_view(after.score, mover.flip()),
        best: BestMove {
            mv: best_mv,
            text: notation::pdn_move(pos, &best_mv),
            score: black_view(before.score, mover),
            pv,
        },
        mark: marks::mark(before.value, played_value, played_is_best),
        loss: marks::loss(before.value, played_value, played_is_best),
        accuracy: curve.move_accuracy(before.value, played_value, played_is_best),
    }
}

/// Judge one move, `mv`, legal in `game`'s current position, as ply `ply` of the game: the
/// position and the one after the move are searched within `budget`, as a review searches
/// them, and the move is reviewed against the best (`PlyReview::good` says whether it is
/// as good). The game is not changed. None when stopped.
pub fn try_move(
    game: &Game,
    ply: usize,
    mv: &Move,
    budget: Budget,
    engine: &Engine,
    control: &ReviewControl,
) -> Option<PlyReview> {
    try_move_known(game, ply, mv, budget, engine, control, None)
}

/// `try_move`, judged against `known`, the review's best move and score for the position,
/// where it has one: then only the position after the move is searched.
pub fn try_move_known(
    game: &Game,
    ply: usize,
    mv: &Move,
    budget: Budget,
    engine: &Engine,
    control: &ReviewControl,
    known: Option<Known>,
) -> Option<PlyReview> {
    let limits = budget.limits();
    let before = match known {
        Some(k) => {
            let score = black_view(k.score, game.position().side());
            Judged {
                score,
                value: Value::of(score, table_draw(game, engine)),
                best: Some(k.best),
                pv: k.pv,
            }
        }
        None => judge(game, &limits, engine, control)?,
    };
    let mut line = game.clone();
    line.play(mv);
    let after = judge(&line, &limits, engine, control)?;
    let curve = WinCurve::of(&engine.weights);
    Some(assess(ply, game.position(), &before, mv, &after, curve))
}

/// Review every move of `game` (from its first position, with the draw counts it started
/// with), searching each position within `budget`. Each move's review goes to `on_ply` as
/// soon as the position after it is searched, in order. A `stop` on `control` ends it
/// early, with the summary of the moves reported so far (`complete` false).
pub fn review(
    game: &Game,
    budget: Budget,
    engine: &Engine,
    control: &ReviewControl,
    mut on_ply: impl FnMut(&PlyReview),
) -> GameSummary {
    let limits = budget.limits();
    let mut summary = GameSummary::default();
    // The game at its first position, with its history and counts as they were there.
    let mut line = game.clone();
    while line.undo().is_some() {}
    let Some(mut before) = judge(&line, &limits, engine, control) else {
        return summary;
    };
    let curve = WinCurve::of(&engine.weights);
    for (i, mv) in game.moves().iter().enumerate() {
        let pos = *line.position();
        line.play(mv);
        let Some(after) = judge(&line, &limits, engine, control) else {
            return summary;
        };
        let ply = assess(i + 1, &pos, &before, mv, &after, curve);
        summary.add(&ply);
        on_ply(&ply);
        before = after;
    }
    summary.complete = true;
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    fn engine() -> Engine {
        Engine::new(4, 1)
    }

    /// Reviews the whole of `game` to `depth`: its summary and every ply's review, in order.
    fn review_all(game: &Game, depth: u32) -> (GameSummary, Vec<PlyReview>) {
        let mut plies = Vec::new();
        let s = review(
            game,
            Budget::Depth(depth),
            &engine(),
            &ReviewControl::new(),
            |p| plies.push(p.clone()),
        );
        (s, plies)
    }

    #[test]
    fn a_game_that_ends_by_the_rules_scores_its_last_move_as_a_win() {
        // White's last man is taken: Black wins (R16); the position after is not searched.
        let mut game = Game::new(parse_fen("B:W18:B14,1").unwrap());
        game.play_text("14x23").unwrap();
        assert_eq!(game.result(), GameResult::Win(Color::Black));
        let (s, plies) = review_all(&game, 4);
        assert!(s.complete);
        assert_eq!(plies.len(), 1);
        assert_eq!(plies[0].score_text(), "99.99");
        assert_eq!(plies[0].mark, None);
        assert_eq!(plies[0].comment(), "[%eval 99.99]");
        assert_eq!(s.black.moves, 1);
        assert_eq!(s.white.moves, 0);
    }

    #[test]
    fn scores_are_from_blacks_side_and_a_dropped_man_is_marked() {
        // White to move: 26-22 walks into 17x26 with nothing back; any other move holds.
        let fen = "W:W26,32:B17,1";
        let mut game = Game::new(parse_fen(fen).unwrap());
        game.play_text("26-22").unwrap();
        let (s, plies) = review_all(&game, 8);
        let p = &plies[0];
        assert_eq!(p.mover, Color::White);
        assert_eq!(p.mark, Some(Mark::Blunder), "{p:?}");
        // Good for Black after White's blunder; the best move was White's, good for White.
        assert!(p.score.0 > 0, "{p:?}");
        assert!(p.best.score < p.score, "{p:?}");
        assert_ne!(p.best.mv, p.played);
        assert_eq!(s.white.blunders, 1);
        assert!(s.white.mean_loss() >= marks::BLUNDER_MEN);
        assert!(p
            .comment()
            .contains(&format!(" best {} [%eval ", p.best.text)));
    }

    #[test]
    fn a_stop_ends_the_review_early() {
        let mut game = Game::new(crate::core::Position::start());
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            game.play_text(m).unwrap();
        }
        let control = ReviewControl::new();
        control.stop();
        let mut n = 0;
        let s = review(&game, Budget::Depth(6), &engine(), &control, |_| n += 1);
        assert_eq!(n, 0);
        assert!(!s.complete);
        // A stop from the callback ends it after that ply.
        let control = ReviewControl::new();
        let mut n = 0;
        let s = review(&game, Budget::Depth(4), &engine(), &control, |_| {
            n += 1;
            control.stop();
        });
        assert_eq!((n, s.complete), (1, false));
    }

    #[test]
    fn the_summary_line() {
        let mut s = GameSummary::default();
        s.black.inaccuracies = 1;
        s.black.blunders = 2;
        s.black.moves = 4;
        s.black.total_loss = 3.0;
        s.black.total_accuracy = 250.0;
        assert_eq!(
            s.line(3),
            "game 3: black inaccuracies 1 mistakes 0 blunders 2 mean-loss 0.75; \
             white inaccuracies 0 mistakes 0 blunders 0 mean-loss 0.00"
        );
    }

    #[test]
    fn a_tried_move_is_judged_against_the_best() {
        // White to move: 26-22 drops the man to 17x26; 32-28 or 32-27 hold.
        let game = Game::new(parse_fen("W:W26,32:B17,1").unwrap());
        let engine = engine();
        let tried = |text: &str| {
            let mv = notation::parse_move(game.position(), text).unwrap();
            try_move(
                &game,
                7,
                &mv,
                Budget::Depth(8),
                &engine,
                &ReviewControl::new(),
            )
            .unwrap()
        };
        let blunder = tried("26-22");
        assert_eq!(blunder.ply, 7);
        assert_eq!(blunder.played_text, "26-22");
        assert!(!blunder.good(), "{blunder:?}");
        assert_eq!(blunder.mark, Some(Mark::Blunder));
        assert!(blunder.loss >= marks::BLUNDER_MEN, "{blunder:?}");
        assert!(blunder.accuracy < 50.0, "{blunder:?}");
        // The best move, tried, is as good as the best.
        let best = tried(&blunder.best.text);
        assert!(best.good(), "{best:?}");
        assert_eq!((best.loss, best.accuracy, best.mark), (0.0, 100.0, None));
        assert_eq!(best.best.pv.first(), Some(&best.best.mv));
        // The game is as it was.
        assert!(game.moves().is_empty());
        // A stopped control judges nothing.
        let control = ReviewControl::new();
        control.stop();
        let mv = blunder.played;
        assert!(try_move(&game, 1, &mv, Budget::Depth(4), &engine, &control).is_none());
    }

    #[test]
    fn a_sides_accuracy_is_the_mean_of_its_moves() {
        let mut game = Game::new(parse_fen("W:W26,32:B17,1").unwrap());
        game.play_text("26-22").unwrap();
        game.play_text("17x26").unwrap();
        let (s, plies) = review_all(&game, 8);
        assert_eq!(plies.len(), 2);
        // White's blunder costs accuracy; Black's forced capture is the best move.
        assert!(plies[0].accuracy < 50.0, "{:?}", plies[0]);
        assert_eq!(plies[1].accuracy, 100.0);
        assert_eq!(s.white.accuracy(), plies[0].accuracy);
        assert_eq!(s.black.accuracy(), 100.0);
        assert!(plies[0].best.pv.len() > 1, "a line, not only the move");
    }
}
