//! The board's jobs as it runs them: which runs (`Running`: an engine move, analysis, a
//! review or a retry, one at a time), what starts next after a request or a job's end
//! (`next_search`), how each starts and stops, and what their events become (messages, the
//! engine's move played, a review's verdicts kept on the game's nodes).

use super::job::{self, GameData, Job, JobEvent, JobId, JobKind};
use super::protocol::{self, Reply, SearchInfo, MAX_MULTIPV};
use super::review_job::Tally;
use super::session::{BestLine, SessionError};
use super::{Board, BoardError, Out};
use crate::book::Policy;
use crate::core::tree::NodeId;
use crate::core::{movegen, Game, Move, Position};
use crate::review::Budget;
use crate::search::Limits;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// The engine's move: played when found.
    Move,
    /// Analysis: runs until stopped, with `info` as it deepens.
    Analysis,
    /// A game review: `review_ply` per move, then `review_done`.
    Review,
    /// A move tried in a position of the game: one `retry_result`.
    Retry,
}

impl Kind {
    /// What runs, in errors: a search (a move or analysis), a review or a retry.
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Move | Kind::Analysis => "search",
            Kind::Review => "review",
            Kind::Retry => "retry",
        }
    }

    /// A review or a retry: it judges the game's main line, which walking the game
    /// (undo, redo, goto) does not change, and stopping it leaves analysis as it was.
    pub(super) fn judges(self) -> bool {
        matches!(self, Kind::Review | Kind::Retry)
    }
}

/// The running job as the board knows it.
pub(super) struct Running {
    pub(super) id: JobId,
    pub(super) kind: Kind,
    /// The node searched and its position, to check the move still fits when it comes.
    pub(super) node: NodeId,
    pub(super) root: Position,
    /// An engine move's best so far: the book's, or the first move of the last `info`'s
    /// best line. What a `stop` plays.
    pub(super) best: Option<Move>,
    /// A review's main-line nodes (the root first), and its marks over the plies forwarded.
    nodes: Vec<NodeId>,
    tally: Tally,
    /// An analysis of several lines: how many lines one iteration reports (the lines asked
    /// for, at most one per legal move), and those of the iteration being reported, held
    /// until it has them all. The search reports an iteration's lines one by one, and a
    /// `stop` may come between two of them: had they been sent as they came, the page would
    /// be left with the new best line beside the old depth's others (issue 61, defect 10).
    lines: usize,
    held: Vec<SearchInfo>,
}

impl Board {
    /// The engine is searching for its move (the `state`'s `thinking`).
    pub(super) fn thinking(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.kind == Kind::Move)
    }

    /// `analyze`'s lines: 1 when not given, else 1 to `MAX_MULTIPV`.
    pub(super) fn set_multipv(&mut self, multipv: Option<u64>) -> Result<(), SessionError> {
        let n = multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&n) {
            return Err(SessionError::Multipv(n));
        }
        self.multipv = n as usize;
        Ok(())
    }

    /// The search limits for analysis: until stopped, with `multipv` lines.
    pub(super) fn analysis_limits(&self) -> Limits {
        Limits {
            infinite: true,
            analyze: true,
            multipv: self.multipv,
            ..Limits::default()
        }
    }

    /// Start what should run now: the engine's move when it plays the side to move (with
    /// `auto`), else analysis when it is on. Nothing while a job runs.
    pub(super) fn next_search(&mut self, auto: bool) {
        if self.running.is_some() || self.session.end().is_some() {
            return;
        }
        if auto && self.session.engine_to_move() {
            self.start(Kind::Move);
        } else if self.analyzing {
            self.start(Kind::Analysis);
        }
    }

    /// A book move for the engine's move, as the Hub picks one (`book::Policy`).
    fn book_move(&mut self) -> Option<Move> {
        let book = self.book.as_ref()?;
        let m = Policy::default().pick(book, self.session.game(), &mut self.book_rng)?;
        Some(m.mv)
    }

    /// Start a search of the position shown: the engine's move (a book move, if the book
    /// has one, comes as the job's end at once) or analysis.
    pub(super) fn start(&mut self, kind: Kind) {
        // A playing level picks every move itself, the opening's too.
        let level = match kind {
            Kind::Move => self.session.play_level(),
            _ => None,
        };
        let seed = self.level_rng.next_u64();
        let book = match kind {
            Kind::Move if level.is_none() => self.book_move(),
            _ => None,
        };
        let game = GameData::of(self.session.game());
        let job = match kind {
            Kind::Move => JobKind::Move {
                game,
                limits: self.session.move_limits(),
                level: level.map(|l| l.get()),
                seed,
                book: book.map(|mv| mv.hub()),
            },
            Kind::Analysis => JobKind::Analyze {
                game,
                limits: self.analysis_limits(),
            },
            Kind::Review | Kind::Retry => {
                unreachable!("these start with start_review, start_retry")
            }
        };
        self.launch(kind, job, book, Vec::new());
    }

    /// The budget of a `review` or a `retry` (`what`) of `positions` positions, checked
    /// (`review_job::budget` bounds the whole), and refused while the engine thinks about
    /// its move or a review runs (each would wait for the other).
    pub(super) fn judge_budget(
        &self,
        fields: protocol::BudgetFields,
        positions: usize,
        what: &'static str,
    ) -> Result<Budget, BoardError> {
        let budget = super::review_job::budget(fields, positions, what)?;
        if self.thinking() {
            return Err(BoardError::Thinking(what));
        }
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.kind == Kind::Review)
        {
            return Err(BoardError::Reviewing(what));
        }
        Ok(budget)
    }

    /// `review`: the game's main line, each position within `budget`. Analysis pauses (the
    /// caller stopped it) and starts again at the end.
    pub(super) fn start_review(&mut self, budget: Budget) {
        let game = GameData::of(&self.session.main_game());
        let nodes = self.session.main_line();
        self.launch(Kind::Review, JobKind::Review { game, budget }, None, nodes);
    }

    /// `retry`: `mv` tried in `game`'s position (before ply `ply` of the game), judged
    /// within `budget` against the review's best move there (`known`) where the move was
    /// reviewed, answered with `retry_result`. Analysis pauses as for a review.
    pub(super) fn start_retry(
        &mut self,
        budget: Budget,
        game: &Game,
        ply: usize,
        mv: &Move,
        known: Option<BestLine>,
    ) {
        let job = JobKind::Retry {
            game: GameData::of(game),
            ply,
            played: mv.hub(),
            budget,
            known,
        };
        self.launch(Kind::Retry, job, None, Vec::new());
    }

    /// Make `job` the running one, for the position shown, and ask the host to start it.
    fn launch(&mut self, kind: Kind, job: JobKind, best: Option<Move>, nodes: Vec<NodeId>) {
        self.jobs += 1;
        let id = self.jobs;
        let root = *self.session.game().position();
        let lines = match kind {
            Kind::Analysis => {
                let legal = movegen::legal_moves(&root).as_slice().len();
                self.multipv.min(legal).max(1)
            }
            _ => 1,
        };
        self.running = Some(Running {
            id,
            kind,
            node: self.session.node(),
            root,
            best,
            nodes,
            tally: Tally::default(),
            lines,
            held: Vec::new(),
        });
        let clear = std::mem::take(&mut self.clear);
        self.out.push(Out::Start(Job {
            id,
            clear,
            kind: job,
        }));
    }

    /// Stop the running job, if any. Returns its kind.
    pub(super) fn stop(&mut self) -> Option<Kind> {
        self.halt().map(|r| r.kind)
    }

    /// `stop`, returning what the board knew of the job. A review stopped says so
    /// (`review_done` with `stopped`, its counts those of the plies sent).
    pub(super) fn halt(&mut self) -> Option<Running> {
        let r = self.running.take()?;
        self.out.push(Out::Stop(r.id));
        if r.kind == Kind::Review {
            self.send(r.tally.done(true));
        }
        Some(r)
    }

    /// A timed game's flag: if the running clock has reached zero, the flag ends the game,
    /// and an engine's search for its move is stopped.
    pub(super) fn flag_fell(&mut self) {
        if !self.session.check_flag() {
            return;
        }
        if self.running.as_ref().is_some_and(|r| r.kind == Kind::Move) {
            self.stop();
        }
        self.push_state();
    }

    /// The running analysis's lines held (`Running::held`), sent as one set.
    fn send_held(&mut self) {
        let held = match self.running.as_mut() {
            Some(r) => std::mem::take(&mut r.held),
            None => return,
        };
        for info in held {
            self.send(Reply::Info(Box::new(info)));
        }
    }

    /// An event of the running job.
    pub(super) fn on_event(&mut self, event: JobEvent) {
        let r = self.running.as_mut().expect("the caller checked");
        match event {
            JobEvent::Info { info, .. } => {
                if r.kind == Kind::Move && info.multipv.is_none_or(|k| k == 1) {
                    if let Some(mv) = info
                        .pv
                        .first()
                        .and_then(|text| job::read_move(&r.root, text, 0).ok())
                    {
                        r.best = Some(mv);
                    }
                }
                if r.lines <= 1 || info.multipv.is_none() {
                    self.send(Reply::Info(Box::new(info)));
                    return;
                }
                // A new iteration's first line: what is held is a whole set that came short
                // (fewer lines than asked), sent before it.
                if info.multipv == Some(1) {
                    self.send_held();
                }
                let r = self.running.as_mut().expect("the caller checked");
                r.held.push(info);
                if r.held.len() >= r.lines {
                    self.send_held();
                }
            }
            JobEvent::ReviewPly { report, .. } => {
                let Some(&node) = r.nodes.get(report.judgement.ply) else {
                    return; // not a ply of the line reviewed
                };
                r.tally.add(&report);
                let reply = report.record(&mut self.session, node);
                self.send(reply);
            }
            JobEvent::RetryDone { judgement, .. } => {
                self.send(Reply::RetryResult(Box::new(judgement)));
            }
            JobEvent::Failed { message, .. } => {
                let r = self.running.take().expect("checked above");
                self.error(BoardError::JobFailed(r.kind.name(), message));
                self.push_state();
            }
            JobEvent::Finished { best, .. } => {
                // The last iteration's lines are all there is: whole.
                self.send_held();
                let r = self.running.take().expect("checked above");
                let mut auto = false;
                if r.kind == Kind::Review {
                    self.send(r.tally.done(false));
                }
                if r.kind == Kind::Move {
                    let best = best.and_then(|text| job::read_move(&r.root, &text, 0).ok());
                    match best.map(|mv| self.session.play_engine(mv, r.node, r.root.key())) {
                        Some(Ok(())) => auto = true,
                        // Its flag fell first: the state says so.
                        Some(Err(_)) if self.session.end().is_some() => {}
                        Some(Err(e)) => self.error(e.into()),
                        None => self.error(BoardError::NoMove),
                    }
                }
                self.next_search(auto);
                self.push_state();
            }
        }
    }
}
