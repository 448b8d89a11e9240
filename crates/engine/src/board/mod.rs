//! One board's logic without I/O: docs/BOARD.md's requests in, messages out, and its
//! searches as jobs that a host runs. The WebSocket server (`connection`) is one host; a
//! browser's Web Worker can be another. No threads, no async, no files here: the host owns
//! the socket, the clock's timer and the engine.
//!
//! The API a host codes against:
//! - `Board::new(BoardConfig)`: the book and the generators of its picks and of a playing
//!   level's, the time source (`session::Now`) and, where the host has endgame tables, a
//!   `Tables` to ask.
//! - `open()`: the messages for a page that has just connected (`hello`, `state`).
//! - `request(text)`: one docs/BOARD.md request as JSON text; a bad one is answered with
//!   the `error` it always got.
//! - `event(JobEvent)`: what the running job reported.
//! - `next_wake()`: how long from now until `tick()` is due (a timed game's flag, the tables'
//!   next look), or None; `tick()` does what is due and may be called early.
//! - Each returns `Out`s, to be acted on in order: `Send` a reply (`Reply::to_json` is its
//!   text), `Start` a job, `Stop` a job.
//!
//! Jobs (`job`): `Job` and `JobEvent` are plain data that serialise to JSON, so a host may
//! run a job in another worker. A host runs a job with `run_job(engine, job, control,
//! emit)`, which emits `Info`, `ReviewPly` or `RetryDone` as it goes and `Finished` (or
//! `Failed`, for a job that does not fit its game) last. A host that cannot run a job, or
//! whose job dies (a panic), reports `Finished { best: None }` or `Failed { message }`
//! itself. Jobs run one at a time with one engine: a host starts a job only once the one
//! before has ended (stopped or not).
//!
//! At most one job runs. `Stop` needs no help from the job: the board decides what it meant
//! from the events already received (a stopped engine move plays the first move of the last
//! `info`, else the book move, else, before any `info`, the first legal move; a stopped
//! review's `review_done` counts the plies forwarded), treats the job as over at once and
//! drops any later event with its id. The host then stops the job's search (`JobControl`)
//! or ends its worker.
//!
//! - order: a review pauses analysis (which resumes when it ends), is refused while the
//!   engine thinks about its move, and runs on while the page walks the game (undo, redo,
//!   goto, promote, delete), which does not change what it reviews: the main line as it
//!   was when the review began, whose nodes keep the marks and scores as they come
//!   (`Session::record_review`). A retry (a move tried in a position of the main line,
//!   judged as a review judges) runs the same way, and ends with one `retry_result`.
//! - clocks: in a timed game `next_wake` is when the running clock reaches zero, and the
//!   flag ends the game there (the engine's search for that side is stopped).
//! - tables: a `state` carries the endgame tables' verdict on the position shown. Where the
//!   tables cover it but its group is still being read (in the background, so that no
//!   search waits for a file), the board looks again every `TABLES_LOOK_EVERY` and sends a
//!   state of its own once the verdict is in, rather than at the next request.

pub mod clock;
pub mod job;
pub mod limits;
pub mod protocol;
pub mod review;
pub mod session;
pub mod tables;

use crate::board::limits::{TABLES_LOOK_EVERY, TABLES_LOOK_FOR};
use crate::board::review::Tally;
use crate::board::session::{Done, Now, Session, SessionError};
use crate::book::{Book, Policy, Rng};
use crate::clock::Instant;
use crate::core::tree::NodeId;
use crate::core::{movegen, Game, Move, Position};
use crate::review::Budget;
pub use job::{run_job, GameData, Job, JobControl, JobEvent, JobId, JobKind};
use protocol::{MessageLimits, Reply, Request, SearchInfo, Verdict};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The endgame tables as the board asks them: the host's (files read in the background).
pub trait Tables: Send + Sync {
    /// The verdict on `pos` for Black, or None where no table answers (yet).
    fn verdict(&self, pos: &Position) -> Option<Verdict>;
    /// Whether the tables cover `pos`, so that a verdict may come once its group is read.
    fn covers(&self, pos: &Position) -> bool;
}

/// What a board needs from its host that is not I/O.
pub struct BoardConfig {
    /// The opening book for the engine's moves (picked as the Hub picks, `book::Policy`).
    pub book: Option<Arc<Book>>,
    /// The generator of the book's picks...
    pub book_rng: Rng,
    /// ...and of a playing level's (`search::level`), each job's seed drawn from it.
    pub level_rng: Rng,
    /// The time, for the clocks and the tables' look again.
    pub now: Now,
    pub tables: Option<Arc<dyn Tables>>,
}

impl BoardConfig {
    /// No book, no tables, the system's clock, and generators seeded as the Hub's are
    /// (`POOLSHARK_SEED`, else the clock).
    pub fn plain() -> BoardConfig {
        BoardConfig {
            book: None,
            book_rng: crate::book::rng_from_env(),
            level_rng: crate::search::level::rng_from_env(),
            now: Arc::new(Instant::now),
            tables: None,
        }
    }

    /// The browser's board (crates/wasm): the built-in opening book, as `poolshark serve`
    /// plays with by default, no tables, the page's clock, generators seeded from the clock.
    pub fn browser() -> BoardConfig {
        BoardConfig {
            book: crate::book::Book::builtin().ok().map(Arc::new),
            ..BoardConfig::plain()
        }
    }
}

/// What the host does next, in order.
#[derive(Debug)]
pub enum Out {
    /// Send this message to the page.
    Send(Reply),
    /// Run this job (`job::run_job`) and feed its events to `Board::event`.
    Start(Job),
    /// Stop this job: the board has forgotten it already.
    Stop(JobId),
}

/// Why the board refused a request; its text is the `error` message.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardError {
    /// The game has ended (the reason, as `state` gives it): the engine has no move.
    GameOver(String),
    /// The engine thinks about its move: a `what` (review or retry) must wait.
    Thinking(&'static str),
    /// A review runs: a `what` must wait.
    Reviewing(&'static str),
    /// The engine's search ended without a move.
    NoMove,
    /// A job could not run: its `what` (search, review, retry) and why.
    JobFailed(&'static str, String),
    /// A request the session refused.
    Session(SessionError),
    /// A review's or retry's budget or move refused (`serve::review`'s text).
    Review(String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::GameOver(reason) => {
                write!(f, "the game is over ({reason}): no move to search")
            }
            BoardError::Thinking(what) => write!(
                f,
                "the engine is thinking about its move: wait for it or stop it (move now), \
                 then {what}"
            ),
            BoardError::Reviewing(what) => {
                write!(
                    f,
                    "a review is running: wait for it or stop it, then {what}"
                )
            }
            BoardError::NoMove => f.write_str("the engine found no move"),
            BoardError::JobFailed(what, why) => write!(f, "cannot start a {what}: {why}"),
            BoardError::Session(e) => e.fmt(f),
            BoardError::Review(text) => f.write_str(text),
        }
    }
}

impl From<SessionError> for BoardError {
    fn from(e: SessionError) -> BoardError {
        BoardError::Session(e)
    }
}

impl From<String> for BoardError {
    /// `serve::review`'s refusals, which are text still.
    fn from(text: String) -> BoardError {
        BoardError::Review(text)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
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
    fn name(self) -> &'static str {
        match self {
            Kind::Move | Kind::Analysis => "search",
            Kind::Review => "review",
            Kind::Retry => "retry",
        }
    }

    /// A review or a retry: it judges the game's main line, which walking the game
    /// (undo, redo, goto) does not change, and stopping it leaves analysis as it was.
    fn judges(self) -> bool {
        matches!(self, Kind::Review | Kind::Retry)
    }
}

/// The running job as the board knows it.
struct Running {
    id: JobId,
    kind: Kind,
    /// The node searched and its position, to check the move still fits when it comes.
    node: NodeId,
    root: Position,
    /// An engine move's best so far: the book's, or the first move of the last `info`'s
    /// best line. What a `stop` plays.
    best: Option<Move>,
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

/// One board: its session and its running job.
pub struct Board {
    session: Session,
    running: Option<Running>,
    /// Jobs started, for the next job's id.
    jobs: JobId,
    out: Vec<Out>,
    book: Option<Arc<Book>>,
    book_rng: Rng,
    level_rng: Rng,
    now: Now,
    tables: Option<Arc<dyn Tables>>,
    /// While the tables cover the position shown but have not answered yet (its group is
    /// being read): when to look again, and when to stop looking.
    tables_look: Option<(Instant, Instant)>,
    /// A new game began: the next job clears the engine's table.
    clear: bool,
}

impl Board {
    pub fn new(config: BoardConfig) -> Board {
        Board {
            session: Session::default().with_time_source(Arc::clone(&config.now)),
            running: None,
            jobs: 0,
            out: Vec::new(),
            book: config.book,
            book_rng: config.book_rng,
            level_rng: config.level_rng,
            now: config.now,
            tables: config.tables,
            tables_look: None,
            clear: false,
        }
    }

    /// The board's game.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The job running, if any.
    pub fn running(&self) -> Option<JobId> {
        self.running.as_ref().map(|r| r.id)
    }

    /// The messages for a page that has just connected.
    pub fn open(&mut self) -> Vec<Out> {
        self.send(Reply::Hello {
            version: env!("CARGO_PKG_VERSION"),
            limits: MessageLimits::BOARD,
        });
        self.push_state();
        self.take()
    }

    /// One request, as the page's JSON text.
    pub fn request(&mut self, text: &str) -> Vec<Out> {
        match protocol::parse(text) {
            Ok(request) => self.handle(request),
            Err(e) => self.send(Reply::error(e)),
        }
        self.take()
    }

    /// What the running job reported. Events of a job stopped or ended are dropped.
    pub fn event(&mut self, event: JobEvent) -> Vec<Out> {
        if self.running.as_ref().is_some_and(|r| r.id == event.id()) {
            self.on_event(event);
        }
        self.take()
    }

    /// When `tick` is next due, from now: a timed game's flag, or the tables' next look.
    pub fn next_wake(&self) -> Option<Duration> {
        let flag = self.session.flag_at();
        let look = self.tables_look.map(|(next, _)| next);
        let at = match (flag, look) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(at.saturating_duration_since((self.now)()))
    }

    /// Do what is due now: a flag that fell, the tables looked at again.
    pub fn tick(&mut self) -> Vec<Out> {
        self.flag_fell();
        if self
            .tables_look
            .is_some_and(|(next, _)| next <= (self.now)())
        {
            self.look_at_tables();
        }
        self.take()
    }

    fn take(&mut self) -> Vec<Out> {
        std::mem::take(&mut self.out)
    }

    fn send(&mut self, reply: Reply) {
        self.out.push(Out::Send(reply));
    }

    fn error(&mut self, e: BoardError) {
        self.send(Reply::error(e.to_string()));
    }

    fn push_state(&mut self) {
        let mut state = self.session.state();
        self.tables_look = None;
        if let Some(db) = &self.tables {
            let pos = self.session.game().position();
            state.egdb = db.verdict(pos);
            if state.egdb.is_none() && db.covers(pos) {
                let now = (self.now)();
                self.tables_look = Some((now + TABLES_LOOK_EVERY, now + TABLES_LOOK_FOR));
            }
        }
        self.send(Reply::State(Box::new(state)));
    }

    /// The tables were silent on the position shown while its group was read: send the
    /// state again once they answer (the probe asks the loader for any group still needed).
    fn look_at_tables(&mut self) {
        let Some((_, until)) = self.tables_look else {
            return;
        };
        let Some(db) = &self.tables else { return };
        let pos = self.session.game().position();
        let now = (self.now)();
        if db.verdict(pos).is_some() {
            self.push_state();
        } else if now < until && db.covers(pos) {
            self.tables_look = Some((now + TABLES_LOOK_EVERY, until));
        } else {
            // A group found unusable lowers what the tables cover: they will not answer.
            self.tables_look = None;
        }
    }

    fn handle(&mut self, request: Request) {
        // A search stopped for a request that then fails is started again.
        let mut stopped = None;
        let done: Result<Done, BoardError> = match request {
            Request::Ping => Ok(Done::Reply(Reply::Pong)),
            Request::SavePdn { quiet } => Ok(match self.session.save_pdn() {
                Done::Reply(Reply::Pdn { pdn, .. }) => Done::Reply(Reply::Pdn { pdn, quiet }),
                other => other,
            }),
            Request::Level {
                movetime,
                depth,
                level,
            } => self
                .session
                .set_level(movetime, depth, level)
                .map_err(BoardError::from),
            // "Move now": the engine's move stopped is played, its best so far (before its
            // first `info`, the first legal move); the engine does not go on by itself
            // (engine against engine pauses).
            // A review stopped leaves analysis as it was (it resumes if on).
            Request::Stop => {
                match self.halt() {
                    Some(r) if r.kind == Kind::Move => {
                        let first = || movegen::legal_moves(&r.root).as_slice().first().copied();
                        if let Some(mv) = r.best.or_else(first) {
                            let played = self.session.play_engine(mv, r.node, r.root.key());
                            // A flag that fell first ends the game: the state says so.
                            if let (Err(e), None) = (played, self.session.end()) {
                                self.error(e.into());
                            }
                        }
                        self.session.analyzing = false;
                    }
                    Some(r) if r.kind.judges() => {}
                    _ => self.session.analyzing = false,
                }
                Ok(Done::Changed { auto: false })
            }
            Request::Review { budget } => {
                let positions = crate::board::review::review_positions(&self.session.main_game());
                self.judge_budget(budget, positions, "review")
                    .map(|budget| {
                        self.stop();
                        self.start_review(budget);
                        Done::Changed { auto: false }
                    })
            }
            Request::Retry { ply, text, budget } => {
                let whole = self.session.main_game();
                let positions = crate::board::review::RETRY_POSITIONS;
                self.judge_budget(budget, positions, "retry")
                    .and_then(|budget| {
                        let (game, mv) = crate::board::review::retry_position(&whole, ply, &text)?;
                        Ok((budget, game, mv))
                    })
                    .map(|(budget, game, mv)| {
                        self.stop();
                        let known = self.session.review_best(ply);
                        self.start_retry(budget, &game, ply, &mv, known);
                        Done::Changed { auto: false }
                    })
            }
            Request::Analyze { on, multipv } => {
                if let Err(e) = self.session.analysis_allowed(on) {
                    return self.error(e.into());
                }
                if let Err(e) = self.session.set_multipv(multipv) {
                    return self.error(e.into());
                }
                // The engine's move is not analysis: only `stop` drops it. Analysis, if on,
                // starts once the move is played (`next_search`).
                if self
                    .running
                    .as_ref()
                    .is_none_or(|r| r.kind == Kind::Analysis)
                {
                    self.stop();
                }
                self.session.analyzing = on;
                Ok(Done::Changed { auto: false })
            }
            Request::EngineMove => {
                if let Some(end) = self.session.end() {
                    Err(BoardError::GameOver(end.reason.to_string()))
                } else if let Err(e) = self.session.engine_move_allowed() {
                    Err(e.into())
                } else {
                    self.stop();
                    self.start(Kind::Move);
                    Ok(Done::Changed { auto: false })
                }
            }
            // The order of variations: the position shown, and so any search, stays.
            Request::Promote { node, to_main } => self
                .session
                .promote(node, to_main)
                .map_err(BoardError::from),
            // Notes, tags and lines added leave the position shown, and so any search.
            Request::Annotate {
                node,
                comment,
                nag,
                nags,
            } => self
                .session
                .annotate(
                    node,
                    comment.as_deref(),
                    nag.as_ref().map(Option::as_deref),
                    nags.as_deref(),
                )
                .map_err(BoardError::from),
            Request::Tags { tags } => self.session.set_tags(&tags).map_err(BoardError::from),
            Request::AddLine { node, moves } => self
                .session
                .add_line(node, &moves)
                .map_err(BoardError::from),
            // Deleting the position shown stops its search (a review goes on).
            Request::Delete { node } => {
                let shown = self.session.node();
                let done = self.session.delete(node).map_err(BoardError::from);
                if self.session.node() != shown
                    && self.running.as_ref().is_some_and(|r| !r.kind.judges())
                {
                    stopped = self.stop();
                }
                done
            }
            // The rest change the game: the running search is for the old position. A
            // review goes on through undo, redo and goto: they leave the line it reviews.
            other => {
                let walk = matches!(other, Request::Undo | Request::Redo | Request::Goto { .. });
                if !(walk && self.running.as_ref().is_some_and(|r| r.kind.judges())) {
                    stopped = self.stop();
                }
                let s = &mut self.session;
                let done = match other {
                    Request::New {
                        white,
                        black,
                        fen,
                        clock,
                    } => {
                        let r = s.new_game(white, black, fen.as_deref(), clock);
                        if r.is_ok() {
                            self.clear = true;
                        }
                        r
                    }
                    Request::Move { text } => s.play_text(&text),
                    Request::Undo => s.undo(),
                    Request::Redo => s.redo(),
                    Request::Goto { ply, node } => s.goto(ply, node),
                    Request::Setup { fen } => s.setup(&fen),
                    Request::LoadPdn {
                        pdn,
                        game,
                        path,
                        clock,
                    } => s.load_pdn_at(&pdn, game, path.as_deref(), clock),
                    Request::Players { white, black } => s.set_players(white, black),
                    _ => unreachable!("handled above"),
                };
                done.map_err(BoardError::from)
            }
        };
        match done {
            Err(e) => {
                match stopped {
                    Some(Kind::Move) => self.start(Kind::Move),
                    _ => self.next_search(false),
                }
                self.push_state_if_changed();
                self.error(e);
            }
            Ok(Done::Reply(r)) => self.send(r),
            Ok(Done::Changed { auto }) => {
                self.next_search(auto);
                if let Some((games, loaded, count)) = self.session.games.take() {
                    self.send(Reply::Games {
                        games,
                        loaded,
                        count,
                    });
                }
                self.push_state();
            }
        }
    }

    /// After an error the state is sent again only if a stopped search changed the flags.
    fn push_state_if_changed(&mut self) {
        let thinking = self.running.as_ref().is_some_and(|r| r.kind == Kind::Move);
        if self.session.thinking != thinking {
            self.session.thinking = thinking;
            self.push_state();
        }
    }

    /// Start what should run now: the engine's move when it plays the side to move (with
    /// `auto`), else analysis when it is on. Nothing while a job runs.
    fn next_search(&mut self, auto: bool) {
        if self.running.is_some() || self.session.end().is_some() {
            return;
        }
        if auto && self.session.engine_to_move() {
            self.start(Kind::Move);
        } else if self.session.analyzing {
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
    fn start(&mut self, kind: Kind) {
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
                limits: self.session.analysis_limits(),
            },
            Kind::Review | Kind::Retry => {
                unreachable!("these start with start_review, start_retry")
            }
        };
        self.launch(kind, job, book, Vec::new());
        self.session.thinking = kind == Kind::Move;
    }

    /// The budget of a `review` or a `retry` (`what`) of `positions` positions, checked
    /// (`serve::review::budget` bounds the whole), and refused while the engine thinks about
    /// its move or a review runs (each would wait for the other).
    fn judge_budget(
        &self,
        fields: protocol::BudgetFields,
        positions: usize,
        what: &'static str,
    ) -> Result<Budget, BoardError> {
        let budget = crate::board::review::budget(fields, positions, what)?;
        if self.session.thinking {
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
    fn start_review(&mut self, budget: Budget) {
        let game = GameData::of(&self.session.main_game());
        let nodes = self.session.main_line();
        self.launch(Kind::Review, JobKind::Review { game, budget }, None, nodes);
    }

    /// `retry`: `mv` tried in `game`'s position (before ply `ply` of the game), judged
    /// within `budget` against the review's best move there (`known`) where the move was
    /// reviewed, answered with `retry_result`. Analysis pauses as for a review.
    fn start_retry(
        &mut self,
        budget: Budget,
        game: &Game,
        ply: usize,
        mv: &Move,
        known: Option<crate::board::session::BestLine>,
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
                self.session.analysis_limits().multipv.min(legal).max(1)
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
    fn stop(&mut self) -> Option<Kind> {
        self.halt().map(|r| r.kind)
    }

    /// `stop`, returning what the board knew of the job. A review stopped says so
    /// (`review_done` with `stopped`, its counts those of the plies sent).
    fn halt(&mut self) -> Option<Running> {
        let r = self.running.take()?;
        self.out.push(Out::Stop(r.id));
        self.session.thinking = false;
        if r.kind == Kind::Review {
            self.send(r.tally.done(true));
        }
        Some(r)
    }

    /// A timed game's flag: if the running clock has reached zero, the flag ends the game,
    /// and an engine's search for its move is stopped.
    fn flag_fell(&mut self) {
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
    fn on_event(&mut self, event: JobEvent) {
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
                self.session.thinking = false;
                self.error(BoardError::JobFailed(r.kind.name(), message));
                self.push_state();
            }
            JobEvent::Finished { best, .. } => {
                // The last iteration's lines are all there is: whole.
                self.send_held();
                let r = self.running.take().expect("checked above");
                self.session.thinking = false;
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
