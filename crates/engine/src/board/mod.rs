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
//! - `state()`: the `state` message as it would be sent now (nothing is sent).
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
mod error;
pub mod job;
pub mod limits;
mod practice;
pub mod protocol;
mod puzzles;
mod requests;
pub mod review_job;
mod runner;
pub mod session;
pub mod tables;
pub mod view;

use crate::board::limits::{TABLES_LOOK_EVERY, TABLES_LOOK_FOR};
use crate::board::session::{Now, Session};
use crate::book::{Book, Rng};
use crate::core::Position;
use crate::time_source::Instant;
pub use error::BoardError;
pub use job::{run_job, GameData, Job, JobControl, JobEvent, JobId, JobKind};
use protocol::{MessageLimits, Reply, State, Verdict};
pub use puzzles::PuzzleError;
use runner::Running;
use std::sync::Arc;
use std::time::Duration;

/// The endgame tables as the board asks them: the host's (files read in the background).
pub trait Tables: Send + Sync {
    /// The verdict on `pos` for Black, or None where no table answers (yet).
    fn verdict(&self, pos: &Position) -> Option<Verdict>;
    /// Whether the tables cover `pos`, so that a verdict may come once its group is read.
    fn covers(&self, pos: &Position) -> bool;
    /// The tables' move in `game`'s position (the longest resistance where it is lost), or
    /// None where they do not answer (yet).
    fn table_move(&self, game: &crate::core::Game) -> Option<crate::core::Move> {
        let _ = game;
        None
    }
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
    /// No book, no tables, the system's clock, and generators seeded from the clock (a
    /// native host seeds them as the Hub's are: poolshark_host::seeds).
    pub fn plain() -> BoardConfig {
        BoardConfig {
            book: None,
            book_rng: Rng::from_clock(),
            level_rng: Rng::from_clock(),
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

/// One board: its session, its running job, and what its jobs need.
pub struct Board {
    session: Session,
    running: Option<Running>,
    /// Analysis is on; kept through new games and loads (off when a timed game begins).
    analyzing: bool,
    /// Analysis lines (1 to `MAX_MULTIPV`); kept like `analyzing`.
    multipv: usize,
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
    /// The puzzle shown, the player's rating, the streak (`puzzles`).
    puzzles: puzzles::Puzzles,
    /// The endgame practice on the board (`practice`).
    practice: Option<practice::Shown>,
    /// Where the game a `load_pdn` with `partial` loaded was cut: for the next state only.
    partial: Option<protocol::PartialLoad>,
}

impl Board {
    pub fn new(config: BoardConfig) -> Board {
        Board {
            session: Session::default().with_time_source(Arc::clone(&config.now)),
            running: None,
            analyzing: false,
            multipv: 1,
            jobs: 0,
            out: Vec::new(),
            book: config.book,
            book_rng: config.book_rng,
            level_rng: config.level_rng,
            now: config.now,
            tables: config.tables,
            tables_look: None,
            clear: false,
            puzzles: puzzles::Puzzles::new(crate::core::rng::SplitMix64::from_clock().next_u64()),
            practice: None,
            partial: None,
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

    /// Whether a puzzle is being solved or a practice played.
    fn training(&self) -> bool {
        self.puzzles.playing() || self.practice.is_some_and(|p| p.playing())
    }

    /// The `state` message as the board sends it now: the session's, with what its jobs
    /// add (`thinking`, `analyzing`) and the tables' verdict on the position shown.
    pub fn state(&self) -> State {
        let mut state = self.session.state();
        state.thinking = self.thinking();
        state.analyzing = self.analyzing;
        state.puzzle = self.puzzles.state();
        state.practice = self.practice_state();
        if let Some(db) = &self.tables {
            state.egdb = db.verdict(self.session.game().position());
        }
        // Each move's verdict would solve a puzzle or practice being played.
        if let (true, Some(v)) = (self.training(), state.egdb.as_mut()) {
            v.moves.clear();
        }
        state
    }

    /// Send the state; where the tables cover the position shown but have not answered
    /// yet, look again (`look_at_tables`).
    fn push_state(&mut self) {
        self.judge_practice();
        let mut state = self.state();
        state.partial = self.partial.take();
        self.tables_look = None;
        if let Some(db) = &self.tables {
            let pos = self.session.game().position();
            // In training the moves are not shown: the verdict alone is all there is to wait for.
            let done = match &state.egdb {
                Some(_) if self.training() => true,
                v => answered(v.as_ref(), pos),
            };
            if !done && db.covers(pos) {
                let now = (self.now)();
                self.tables_look = Some((now + TABLES_LOOK_EVERY, now + TABLES_LOOK_FOR));
            }
        }
        self.send(Reply::State(Box::new(state)));
    }

    /// The tables were silent on the position shown (or on a move's) while a group was read: send the
    /// state again once they answer (the probe asks the loader for any group still needed).
    fn look_at_tables(&mut self) {
        let Some((_, until)) = self.tables_look else {
            return;
        };
        let Some(db) = &self.tables else { return };
        let pos = self.session.game().position();
        let now = (self.now)();
        if answered(db.verdict(pos).as_ref(), pos) {
            self.push_state();
        } else if now < until && db.covers(pos) {
            self.tables_look = Some((now + TABLES_LOOK_EVERY, until));
        } else {
            // A group found unusable lowers what the tables cover: they will not answer.
            self.tables_look = None;
        }
    }
}

/// Whether the tables have answered all a state shows of them: the position's verdict, and
/// each legal move's.
fn answered(verdict: Option<&Verdict>, pos: &Position) -> bool {
    verdict.is_some_and(|v| v.moves.len() == crate::core::movegen::legal_moves(pos).len())
}
