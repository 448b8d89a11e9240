//! What is wrong with PDN text: the game (counted from 1), the line and column of the input
//! text where the fault starts, and what it is.

use crate::core::game::GameResult;
use crate::core::notation::NotationError;
use std::fmt;

/// A place in the input text: line and column from 1, the column in characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spot {
    pub line: usize,
    pub column: usize,
}

/// A fault in PDN text, where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct PdnError {
    pub game: usize,
    pub at: Spot,
    pub kind: ErrorKind,
}

/// What the fault is.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// A tag that is not `[Name "value"]`.
    BadTag(String),
    BadFen(NotationError),
    /// Move text that is not a legal move there; `ply` counts from the start (1 the first
    /// move), in a variation too.
    BadMove {
        ply: usize,
        text: String,
        error: NotationError,
    },
    /// A move after the rules ended the game (a win, or a draw by R17-R19: a game ends at
    /// the third repetition, and the moves after it are not part of it).
    AfterEnd {
        ply: usize,
        text: String,
        end: GameResult,
    },
    /// A comment, tag or variation that is opened and never closed (`what`).
    Unterminated(&'static str),
    /// A game's text longer than `pdn::MAX_MOVETEXT`.
    TooLong,
    /// More moves than a game tree holds (`tree::MAX_NODES`).
    TooManyMoves,
    /// A variation opened inside `pdn::MAX_NESTING` others.
    TooDeep,
    /// The `Result` tag and the result at the end of the movetext disagree.
    ResultMismatch {
        tag: String,
        movetext: String,
    },
    /// A result (the movetext's, or the `Result` tag's) that the rules contradict at the
    /// end of the main line, where they ended the game (`rules`).
    AgainstRules {
        result: String,
        rules: GameResult,
    },
    /// A `GameType` tag of another game than American pool checkers (23): its value.
    OtherVariant(String),
    /// Anything else out of place, said in words.
    Syntax(String),
}

/// Ply `ply` (from 1) as the movetext numbers it: `3.` the first of pair 3 and `3...` the
/// second, as `PdnGame::write` writes them, so that an error names the move as the text does.
pub fn move_number(ply: usize) -> String {
    let n = ply.div_ceil(2);
    if ply % 2 == 1 {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::BadTag(t) => {
                write!(f, "bad tag '{t}' (expected [Name \"value\"] on one line)")
            }
            ErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            ErrorKind::BadMove { ply, text, error } => {
                write!(
                    f,
                    "move {} '{text}' (ply {ply}): {error}",
                    move_number(*ply)
                )
            }
            ErrorKind::AfterEnd { ply, text, end } => write!(
                f,
                "move {} '{text}' (ply {ply}) after the game ended ({end})",
                move_number(*ply)
            ),
            ErrorKind::Unterminated(what) => write!(f, "unterminated {what}"),
            ErrorKind::TooLong => write!(
                f,
                "game text longer than {} bytes (no result to end it?)",
                super::MAX_MOVETEXT
            ),
            ErrorKind::TooManyMoves => write!(
                f,
                "more than {} moves in one game",
                crate::core::tree::MAX_NODES - 1
            ),
            ErrorKind::TooDeep => write!(
                f,
                "variations nested deeper than {} (each inside the one before)",
                super::MAX_NESTING
            ),
            ErrorKind::ResultMismatch { tag, movetext } => write!(
                f,
                "the Result tag says '{tag}' but the movetext ends '{movetext}'"
            ),
            ErrorKind::AgainstRules { result, rules } => write!(
                f,
                "the result '{result}' contradicts the rules: at the end of the main line, {rules}"
            ),
            ErrorKind::OtherVariant(value) => {
                // A value may be as long as a line: say its start.
                let short: String = value.chars().take(40).collect();
                let more = if short.len() < value.len() { "..." } else { "" };
                write!(
                    f,
                    "GameType \"{short}{more}\" is not 23 (American pool checkers)"
                )
            }
            ErrorKind::Syntax(s) => f.write_str(s),
        }
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.at.line, self.at.column, self.kind
        )
    }
}

impl std::error::Error for PdnError {}
