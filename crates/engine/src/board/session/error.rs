//! Why a session refused a request, as data: the transport turns it into the `error`
//! message's text (`Display`), which is what the page has always read.

use super::{AnnotateError, StudyError, MAX_CHAPTERS, MAX_MOVES, MAX_PLIES};
use crate::board::protocol::{short, MAX_DEPTH, MAX_MOVETIME, MAX_MULTIPV};
use crate::core::tree::TreeError;
use crate::core::Move;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum SessionError {
    /// `analyze`'s lines out of range.
    Multipv(u64),
    /// A FEN that does not read (the text as given, and why).
    Fen(String, String),
    /// A time control out of bounds (`clock::TimeControl::from_seconds`'s text).
    Clock(String),
    /// Walking a timed game while its clocks are live.
    TimedGame,
    /// `load_pdn`'s `path`: its move `ply` (from 1), as given, is not legal there (why).
    PdnPath {
        ply: usize,
        text: String,
        why: String,
    },
    /// `engine_move` for a side a person plays while the clocks are live.
    TimedEngineMove,
    /// `analyze` while the clocks are live.
    TimedAnalysis,
    /// `review` or `retry` (what it is) while the clocks are live.
    TimedReview(&'static str),
    /// A move after the game's end (the reason, as `state` gives it).
    GameOver(String),
    Movetime(f64),
    Depth(u32),
    /// A `level` with both or neither of movetime and depth.
    LevelShape,
    /// A playing level out of range (`search::level::PlayLevel::new`'s text).
    PlayLevel(String),
    /// A move that is not legal in the position shown (the text as given, and why).
    IllegalMove(String, String),
    /// The tree holds `MAX_MOVES` moves already.
    TreeFull,
    /// The tree refused (no such node, the root deleted, ...).
    Tree(TreeError),
    /// The engine's move came for a position no longer shown.
    StaleEngineMove(Move),
    NothingToTakeBack,
    NothingToPlayForward,
    /// A ply past the current line (which has `plies`).
    PlyOutOfRange {
        ply: usize,
        plies: usize,
    },
    /// A `goto` with both or neither of ply and node.
    GotoShape,
    /// A PDN that does not read (the reader's text, with its place).
    Pdn(String),
    NoGame,
    /// Game `number` asked of a text of `count` games.
    GameOutOfRange {
        number: usize,
        count: usize,
    },
    /// A game longer than the board loads.
    TooManyPlies(usize),
    /// A tree larger than the board loads.
    TooManyMoves(usize),
    /// A move past the longest line the board keeps (`MAX_PLIES`).
    LineFull,
    /// A game whose words would take this many bytes saved, past `size::WORDS`.
    TooLarge(usize),
    /// An `annotate`, `tags` or `add_line` refused.
    Annotate(AnnotateError),
    /// A move that would make a study's main lines together longer than `MAX_PLIES`.
    MainLinesFull,
    /// A PDN of more games than a study has room for (the most it could take).
    TooManyGames(usize),
    /// A study's request refused.
    Study(StudyError),
}

impl From<StudyError> for SessionError {
    fn from(e: StudyError) -> SessionError {
        SessionError::Study(e)
    }
}

impl From<AnnotateError> for SessionError {
    fn from(e: AnnotateError) -> SessionError {
        SessionError::Annotate(e)
    }
}

impl From<TreeError> for SessionError {
    fn from(e: TreeError) -> SessionError {
        SessionError::Tree(e)
    }
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Multipv(n) => write!(f, "multipv {n} is not from 1 to {MAX_MULTIPV}"),
            SessionError::Fen(fen, why) => write!(f, "bad FEN '{}': {why}", short(fen)),
            SessionError::Clock(text) | SessionError::PlayLevel(text) => f.write_str(text),
            SessionError::Pdn(why) => write!(f, "bad PDN: {why}"),
            SessionError::TimedGame => f.write_str(
                "a timed game is on: no taking back or stepping through it until it ends \
                 (or start a new game)",
            ),
            SessionError::PdnPath { ply, text, why } => {
                write!(f, "bad path: move {ply} '{}': {why}", short(text))
            }
            SessionError::TimedEngineMove => f.write_str(
                "a timed game is on: the engine does not move for you on your clock \
                 (it moves on its own turn); play your move",
            ),
            SessionError::TimedAnalysis => {
                f.write_str("a timed game is on: no analysis until it ends (or start a new game)")
            }
            SessionError::TimedReview(what) => write!(
                f,
                "a timed game is on: no {what} until it ends (or start a new game)"
            ),
            SessionError::GameOver(reason) => write!(
                f,
                "the game is over ({reason}): no more moves; take back or start a new game"
            ),
            SessionError::Movetime(s) => write!(
                f,
                "movetime {s} is not a number of seconds above 0 and at most {MAX_MOVETIME}"
            ),
            SessionError::Depth(d) => write!(f, "depth {d} is not from 1 to {MAX_DEPTH}"),
            SessionError::LevelShape => write!(
                f,
                "a level is either movetime (seconds) or depth, not both, with or without a \
                 playing level from 1 to {} (0: full strength), or a playing level alone",
                crate::search::level::MAX
            ),
            SessionError::IllegalMove(text, why) => {
                write!(f, "illegal move {}: {why}", short(text))
            }
            SessionError::TreeFull => write!(
                f,
                "the game tree holds {MAX_MOVES} moves, the most a board keeps: delete a \
                 variation or start a new game"
            ),
            SessionError::Tree(e) => e.fmt(f),
            SessionError::Annotate(e) => e.fmt(f),
            SessionError::StaleEngineMove(mv) => write!(f, "engine move {mv} no longer fits"),
            SessionError::NothingToTakeBack => {
                f.write_str("nothing to take back: this is the first position")
            }
            SessionError::NothingToPlayForward => {
                f.write_str("nothing to play forward: this is the last position")
            }
            SessionError::PlyOutOfRange { ply, plies } => {
                write!(f, "ply {ply} is out of range: the line has {plies} plies")
            }
            SessionError::GotoShape => {
                f.write_str("goto takes a ply of the current line or a node, one of them")
            }
            SessionError::NoGame => f.write_str("the PDN holds no game"),
            SessionError::GameOutOfRange { number, count } => write!(
                f,
                "game {number} is out of range: the PDN holds {count} game{}",
                if *count == 1 { "" } else { "s" }
            ),
            SessionError::TooManyPlies(n) => {
                write!(
                    f,
                    "the game has a line of {n} plies; the board loads at most {MAX_PLIES}"
                )
            }
            SessionError::LineFull => write!(
                f,
                "this line holds {MAX_PLIES} moves, the longest a board keeps: no move goes \
                 after it"
            ),
            SessionError::TooLarge(bytes) => write!(
                f,
                "the game would be too large to save and load back: its comments, NAGs and \
                 tags would take {bytes} bytes saved, and a board keeps {} for them (the \
                 rest is room for moves, scores, clocks and a review): shorten some",
                super::size::WORDS
            ),
            SessionError::MainLinesFull => write!(
                f,
                "the study's main lines would pass {MAX_PLIES} moves together, the most a \
                 board keeps: delete moves or a chapter"
            ),
            SessionError::TooManyGames(most) => write!(
                f,
                "the PDN holds more than {most} games, more than the study has room for: a \
                 study holds at most {MAX_CHAPTERS} chapters"
            ),
            SessionError::Study(e) => e.fmt(f),
            SessionError::TooManyMoves(n) => write!(
                f,
                "the game has {n} moves with its variations; the board loads at most {MAX_MOVES}"
            ),
        }
    }
}
