//! What the board keeps on each node of its game tree (the tree's payload, `NodeData`):
//! how the node's move is shown, made once when the move is added (`cursor`), and what a
//! review said of it (`Reviewed`, kept by `reviewed`). A deleted node takes both with it.

use crate::board::protocol::HistoryMove;
use crate::review::marks::Mark;
use serde::{Deserialize, Serialize};

/// The board's data on one node of its tree.
#[derive(Clone, Debug, Default)]
pub struct NodeData {
    /// How the node's move is shown (PDN, Hub, path, captures); None at the root only.
    pub(super) shown: Option<HistoryMove>,
    /// What a review said of the move, None where none did.
    pub(super) review: Option<Reviewed>,
}

/// The review's best move in a position, its score and its line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestLine {
    /// The best move, PDN notation.
    pub mv: String,
    /// The position's score (the best move's), from Black's side.
    pub score: String,
    /// The line from the best move on, PDN notation (`BEST_LINE_PLIES` at most).
    pub line: Vec<String>,
}

/// A review's verdict on one move.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewNote {
    /// The review's own mark, None for a move it did not mark.
    pub mark: Option<Mark>,
    /// The best move there, when known (always from a review; from a PDN, for a marked move).
    pub best: Option<BestLine>,
    /// What the move gave away, in men.
    pub loss: f64,
    /// Its accuracy, in %.
    pub accuracy: f64,
}

/// A review's verdict as a node keeps it.
#[derive(Clone, Debug)]
pub(super) struct Reviewed {
    pub(super) note: ReviewNote,
    /// The mark's NAG the review added to the move's notes: None where it gave none or the
    /// move had a mark of its own, which stays.
    pub(super) added: Option<u8>,
}
