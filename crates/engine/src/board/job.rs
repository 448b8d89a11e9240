//! A board's searches as plain data: the `Job` the board asks its host to run (an engine
//! move, analysis, a review or a retry), the `JobEvent`s the job reports back, and
//! `run_job`, the one function either host calls to run a job with its engine (the server on
//! a search thread, a browser in a search worker). Jobs and events serialise to JSON, so a
//! host may carry them to another worker; the game travels as its first position and moves.
//!
//! A review and a retry start from a cleared table, so that at a fixed node budget on one
//! thread every host gets the same review ply by ply.

use crate::board::protocol::{Judgement, SearchInfo};
use crate::board::review_job::{judgement, PlyReport};
use crate::board::view::search_info;
use crate::core::game::DrawCounts;
use crate::core::{notation, Game, Move, Position};
use crate::review::{Budget, ReviewControl};
use crate::search::level::PlayLevel;
use crate::search::{Engine, Limits, SearchControl};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// A job's number on its board: each job gets the next one.
pub type JobId = u64;

/// One search for the host to run (`run_job`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    pub id: JobId,
    /// Clear the engine's table first (a new game was begun since the last job). A review
    /// and a retry always do.
    pub clear: bool,
    pub kind: JobKind,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JobKind {
    /// The engine's move in `game`'s position: `book` (Hub notation) where the book gave
    /// one, which is the move at once; else a search within `limits`, at playing `level` if
    /// set (1 to `search::level::MAX`, its picks drawn from `seed`).
    Move {
        game: GameData,
        #[serde(with = "LimitsData")]
        limits: Limits,
        level: Option<u8>,
        seed: u64,
        book: Option<String>,
    },
    /// Analysis of `game`'s position: `info` as it deepens, until stopped.
    Analyze {
        game: GameData,
        #[serde(with = "LimitsData")]
        limits: Limits,
    },
    /// A review of every move of `game`, each position within `budget`.
    Review {
        game: GameData,
        #[serde(with = "BudgetData")]
        budget: Budget,
    },
    /// `played` (Hub or PDN notation) tried in `game`'s position as ply `ply` of the game.
    Retry {
        game: GameData,
        ply: usize,
        played: String,
        #[serde(with = "BudgetData")]
        budget: Budget,
        /// The review's best move and score for the position, which the move is judged
        /// against (`review::Known`); searched again where there is none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        known: Option<crate::board::session::BestLine>,
    },
}

/// What a running job reports, in order; `Finished` is its last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum JobEvent {
    /// An iteration of a move's search or of analysis.
    Info { id: JobId, info: SearchInfo },
    /// One reviewed move, in the game's order (ply 1 first).
    ReviewPly { id: JobId, report: PlyReport },
    /// A retry's judged move.
    RetryDone { id: JobId, judgement: Judgement },
    /// The job has ended: for a move, the move found (Hub notation; none when the search
    /// found none).
    Finished { id: JobId, best: Option<String> },
    /// The job could not run (no thread, a panic, a job that does not fit its game): the
    /// host says why, and nothing more comes from it.
    Failed { id: JobId, message: String },
}

impl JobEvent {
    pub fn id(&self) -> JobId {
        match self {
            JobEvent::Info { id, .. }
            | JobEvent::ReviewPly { id, .. }
            | JobEvent::RetryDone { id, .. }
            | JobEvent::Finished { id, .. }
            | JobEvent::Failed { id, .. } => *id,
        }
    }
}

/// A game as data: its first position (FEN) with its draw counts there, and its moves in
/// Hub notation (which names every captured square, so each is read back exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    pub fen: String,
    pub quiet_king_plies: u16,
    pub lone_king_moves: Option<u8>,
    pub moves: Vec<String>,
}

/// A job that does not fit: its game or a move does not read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobError {
    Fen(String),
    Move { ply: usize, text: String },
    Level(u8),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Fen(fen) => write!(f, "a job's position '{fen}' is not a FEN"),
            JobError::Move { ply, text } => {
                write!(f, "a job's move '{text}' at ply {ply} is not legal there")
            }
            JobError::Level(n) => write!(f, "a job's level {n} is not a playing level"),
        }
    }
}

impl GameData {
    pub fn of(game: &Game) -> GameData {
        let mut start = game.clone();
        while start.undo().is_some() {}
        let counts = start.counts();
        let moves = game.moves().iter().map(Move::hub).collect();
        GameData {
            fen: notation::write_fen(start.position()),
            quiet_king_plies: counts.quiet_king_plies,
            lone_king_moves: counts.lone_king_moves,
            moves,
        }
    }

    pub fn game(&self) -> Result<Game, JobError> {
        let start = notation::parse_fen(&self.fen).map_err(|_| JobError::Fen(self.fen.clone()))?;
        let counts = DrawCounts {
            quiet_king_plies: self.quiet_king_plies,
            lone_king_moves: self.lone_king_moves,
        };
        let mut game = Game::with_counts(start, counts);
        for (i, text) in self.moves.iter().enumerate() {
            let mv = read_move(game.position(), text, i + 1)?;
            game.play(&mv);
        }
        Ok(game)
    }
}

/// `text` (Hub or PDN notation) in `pos`, the move of ply `ply`.
pub fn read_move(pos: &Position, text: &str, ply: usize) -> Result<Move, JobError> {
    notation::parse_move(pos, text).map_err(|_| JobError::Move {
        ply,
        text: text.to_string(),
    })
}

/// `search::Limits` as data, field for field (serde checks that they match).
#[derive(Serialize, Deserialize)]
#[serde(remote = "Limits")]
struct LimitsData {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    time: Option<Duration>,
    inc: Duration,
    moves_to_go: Option<u32>,
    infinite: bool,
    analyze: bool,
    overhead: Option<Duration>,
    multipv: usize,
}

/// `review::Budget` as data.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Budget", rename_all = "snake_case")]
enum BudgetData {
    Depth(u32),
    DepthWithin(u32, u64),
    Nodes(u64),
    MoveTime(Duration),
}

/// Stops a running job from another thread (`stop`). A host that can end the job's worker
/// instead (a browser) never needs to: the board does not wait for a stopped job.
#[derive(Default)]
pub struct JobControl {
    /// A move's or analysis's one search.
    search: SearchControl,
    /// A review's or retry's searches, one after another.
    review: ReviewControl,
}

impl JobControl {
    pub fn new() -> JobControl {
        JobControl::default()
    }

    pub fn stop(&self) {
        self.search.stop();
        self.review.stop();
    }
}

/// Run `job` with `engine`, reporting through `emit` as it goes; `Finished` (or `Failed`)
/// is the last event. A `stop` on `control` ends it early (the board has already
/// forgotten it then).
pub fn run_job(
    engine: &mut Engine,
    job: &Job,
    control: &JobControl,
    emit: &mut dyn FnMut(JobEvent),
) {
    let id = job.id;
    match run(engine, job, control, emit) {
        Ok(best) => emit(JobEvent::Finished {
            id,
            best: best.map(|mv| mv.hub()),
        }),
        Err(e) => emit(JobEvent::Failed {
            id,
            message: e.to_string(),
        }),
    }
}

/// The job's work: the move found, for an engine move.
fn run(
    engine: &mut Engine,
    job: &Job,
    control: &JobControl,
    emit: &mut dyn FnMut(JobEvent),
) -> Result<Option<Move>, JobError> {
    let id = job.id;
    let judges = matches!(job.kind, JobKind::Review { .. } | JobKind::Retry { .. });
    if job.clear || judges {
        engine.clear();
    }
    let engine = &*engine;
    match &job.kind {
        JobKind::Move {
            game,
            limits,
            level,
            seed,
            book,
        } => {
            let game = game.game()?;
            if let Some(text) = book {
                return read_move(game.position(), text, game.moves().len() + 1).map(Some);
            }
            let root = *game.position();
            let mut on_info = |info: &crate::search::Info| {
                emit(JobEvent::Info {
                    id,
                    info: search_info(&root, info),
                })
            };
            let out = match level {
                Some(n) => {
                    let level = PlayLevel::new(u64::from(*n)).map_err(|_| JobError::Level(*n))?;
                    let mut rng = crate::book::Rng::new(*seed);
                    crate::search::level::search(
                        engine,
                        &game,
                        level,
                        limits,
                        &control.search,
                        &mut rng,
                        &mut on_info,
                    )
                }
                None => engine.search(&game, limits, &control.search, &mut on_info),
            };
            Ok(out.best)
        }
        JobKind::Analyze { game, limits } => {
            let game = game.game()?;
            let root = *game.position();
            engine.search(&game, limits, &control.search, &mut |info| {
                emit(JobEvent::Info {
                    id,
                    info: search_info(&root, info),
                })
            });
            Ok(None)
        }
        JobKind::Review { game, budget } => {
            let game = game.game()?;
            crate::review::review(&game, *budget, engine, &control.review, |ply| {
                let pos = &game.positions()[ply.ply - 1];
                let report = PlyReport::new(ply, pos);
                emit(JobEvent::ReviewPly { id, report });
            });
            Ok(None)
        }
        JobKind::Retry {
            game,
            ply,
            played,
            budget,
            known,
        } => {
            let game = game.game()?;
            let mv = read_move(game.position(), played, *ply)?;
            let known = known.as_ref().and_then(|k| known_best(game.position(), k));
            let judged = crate::review::try_move_known(
                &game,
                *ply,
                &mv,
                *budget,
                engine,
                &control.review,
                known,
            );
            if let Some(p) = judged {
                let judgement = judgement(&p, game.position());
                emit(JobEvent::RetryDone { id, judgement });
            }
            Ok(None)
        }
    }
}

/// A review's best line read in `pos`: None where it does not read (then the retry
/// searches the position itself).
fn known_best(
    pos: &crate::core::Position,
    best: &crate::board::session::BestLine,
) -> Option<crate::review::Known> {
    let mv = crate::core::notation::parse_move(pos, &best.mv).ok()?;
    let score = crate::search::Score::from_hub(&best.score)?;
    let mut at = *pos;
    let mut pv = Vec::new();
    for text in &best.line {
        let Ok(m) = crate::core::notation::parse_move(&at, text) else {
            break;
        };
        at = at.play(&m);
        pv.push(m);
    }
    if pv.first() != Some(&mv) {
        pv = vec![mv];
    }
    Some(crate::review::Known {
        best: mv,
        score,
        pv,
    })
}
