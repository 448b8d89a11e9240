//! Why the board refused a request, as data: the transport turns it into the `error`
//! message's text (`Display`), which is what the page has always read.

use super::review_job::ReviewError;
use super::session::SessionError;
use std::fmt;

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
    /// A review's or retry's budget or move refused.
    Review(ReviewError),
    /// A puzzle request refused, or a request a puzzle being solved does not allow.
    Puzzle(super::PuzzleError),
    /// A practice request refused (why).
    Practice(String),
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
            BoardError::Review(e) => e.fmt(f),
            BoardError::Puzzle(e) => e.fmt(f),
            BoardError::Practice(why) => f.write_str(why),
        }
    }
}

impl From<SessionError> for BoardError {
    fn from(e: SessionError) -> BoardError {
        BoardError::Session(e)
    }
}

impl From<ReviewError> for BoardError {
    fn from(e: ReviewError) -> BoardError {
        BoardError::Review(e)
    }
}
