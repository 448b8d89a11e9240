//! What the board's replies carry (docs/BOARD.md): the `state` message with its parts (the
//! legal moves, the tree's nodes, the tables' verdict, a study's chapters, a puzzle or
//! practice), a review's judgement of a move and summary of a side, and a search's `info`.
//! `protocol` owns the messages themselves and parses the page's.

use super::Level;
use super::Player;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One legal move, with what the page needs to draw and offer it.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    pub hub: String,
    pub pdn: String,
    pub from: u8,
    pub to: u8,
    /// The squares it takes, ascending.
    pub captured: Vec<u8>,
    /// Origin, then every landing square (one path where several take the same pieces).
    pub path: Vec<u8>,
}

/// One ply of the game's move list, with what the page needs to show it being played.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryMove {
    pub pdn: String,
    pub hub: String,
    /// The squares it took, ascending.
    pub captured: Vec<u8>,
    /// Origin, then every landing square.
    pub path: Vec<u8>,
}

/// One node of the game tree as the page gets it (`State::nodes`).
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    pub id: u64,
    /// `None` at the root.
    pub parent: Option<u64>,
    /// The move from the parent, as `history` shows it (absent at the root).
    #[serde(flatten)]
    pub mv: Option<HistoryMove>,
    /// The moves tried here, the main continuation first.
    pub children: Vec<u64>,
    /// The move's mark (`!`, `?`, `!!`, `??`, `!?`, `?!`): a review's, or the PDN's.
    pub mark: Option<&'static str>,
    /// Its other NAGs (`$N`), absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    /// The score after the move, from Black's side (`[%eval]`: a review's, or the PDN's).
    pub eval: Option<String>,
    /// The review's best move in the position before the move (PDN), absent when not
    /// reviewed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The comment after the move (at the root: before the first), absent when none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub comment: String,
    /// The comment before the move (a variation's first), absent when none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub before: String,
    /// What a review said of the move (a review on this board, or one saved in the PDN
    /// loaded), absent when not reviewed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<NodeReview>,
}

/// A reviewed move's verdict as its node keeps it (`TreeNode::review`): what the teaching
/// panel shows, the same before and after the game is saved and loaded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeReview {
    /// The review's own mark (`?!`, `?`, `??`), None for a move it did not mark; the node's
    /// `mark` is the move's own where it came with one.
    pub mark: Option<MarkText>,
    /// What the move gave away against the best, in men, two decimals.
    pub loss: f64,
    /// The best move's score (the position's before the move), from Black's side; absent
    /// where the review's best line is not known (an unmarked move of a loaded game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_score: Option<String>,
    /// The best move's origin and landing squares, for the arrow; empty when not known.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub best_path: Vec<u8>,
    /// The review's best line from the best move on (PDN, at most
    /// `session::BEST_LINE_PLIES` moves); empty when not known.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
}

/// A review's summary of the main line as it stands (`State::review`): each side's over the
/// main line's reviewed moves, so that it follows the main line (a promoted variation, moves
/// deleted) and comes back with a saved game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewSummary {
    /// The main line's moves reviewed.
    pub plies: usize,
    /// The main line's moves.
    pub of: usize,
    pub black: SideReport,
    pub white: SideReport,
}

/// What the endgame tables say of the position shown, for Black (docs/BOARD.md).
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// `win`, `draw` or `loss` for Black, in theory (R16, no draw counts).
    pub black: &'static str,
    /// Plies to the next capture or man move on the best line; None for a draw.
    pub dtc: Option<u16>,
    /// The result under the 40-move rule from a fresh count, for Black (`egdb probe`'s
    /// names: win, cursed-win, draw, blessed-loss, loss).
    pub black50: &'static str,
    /// Each legal move's verdict, as lichess's tablebase panel lists them: the best first
    /// (the quickest win, then draws, then the longest loss). Empty until the tables answer
    /// for every position a move leads to (a later state carries them).
    pub moves: Vec<MoveVerdict>,
}

/// What the endgame tables say of a move (`Verdict::moves`), for the side that plays it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveVerdict {
    /// PDN notation.
    #[serde(rename = "move")]
    pub mv: String,
    pub hub: String,
    /// Origin, then every landing square.
    pub path: Vec<u8>,
    /// `win`, `draw` or `loss` for the side to move once it is played, in theory.
    pub result: &'static str,
    /// The same under the 40-move rule from a fresh count (`egdb probe`'s names).
    pub result50: &'static str,
    /// Plies to the next capture or man move after it, on the best line; None for a draw
    /// (0 where it ends the game).
    pub dtc: Option<u16>,
}

/// One game of a PDN text, for the page's chooser.
#[derive(Clone, Debug, Serialize)]
pub struct PdnGameTags {
    /// From 1, as `load_pdn`'s `game` counts.
    pub number: usize,
    pub tags: BTreeMap<String, String>,
    pub plies: usize,
}

/// How a finished game ended. `winner` is `None` for a draw.
#[derive(Clone, Debug, Serialize)]
pub struct GameEnd {
    pub winner: Option<&'static str>,
    pub reason: String,
}

/// The draw-rule counts, in plies, with their limits: plies without a capture or man move
/// (R18), and twice the lone king's moves while the material is three kings against one
/// (R19), so that half of each is a count of moves.
#[derive(Clone, Debug, Serialize)]
pub struct Counts {
    pub forty: u32,
    pub forty_limit: u32,
    pub thirteen: Option<u32>,
    pub thirteen_limit: u32,
}

/// A timed game's clocks at the moment the `state` was made: the page counts the running one
/// down from there until the next `state`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockState {
    pub black_ms: u64,
    pub white_ms: u64,
    /// `black` or `white` while that clock runs; None before the first move and after the end.
    pub running: Option<&'static str>,
    /// Whether the clocks are in play (before the first move or running): no take-backs,
    /// no analysis and no engine move for a person until the game ends.
    pub live: bool,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// One side's summary in a review (`review::SideSummary`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideReport {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The side's moves reviewed.
    pub moves: u32,
    /// The mean of what its moves gave away, in men, two decimals.
    pub mean_loss: f64,
    /// The mean of its moves' accuracies, in %, one decimal (docs/ANNOTATE.md).
    pub accuracy: f64,
}

/// A move judged against the best move of its position: a reviewed move of the game
/// (`review_ply`) or a move tried instead of it (`retry_result`). It travels from a review's
/// search to the board as data too (`board::JobEvent`), hence `Deserialize`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub ply: usize,
    /// A reviewed move's node on the main line, which keeps its mark and score
    /// (`TreeNode`); absent for a retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u64>,
    /// The move judged, PDN notation.
    #[serde(rename = "move")]
    pub played: String,
    /// The score after the move (the played move's), from Black's side.
    pub score: String,
    /// The best move in the position before it, PDN notation.
    pub best: String,
    /// The best move's score (the position's), from Black's side.
    pub best_score: String,
    /// The best move's origin and every landing square, to draw it jump by jump.
    pub best_path: Vec<u8>,
    /// The search's line from the best move on, PDN notation.
    pub pv: Vec<String>,
    /// What the move gave away against the best, in men (0 or more), two decimals.
    pub loss: f64,
    /// As good as the best: `loss` under the `?!` margin.
    pub good: bool,
    /// `?!`, `?` or `??`; None for an unmarked move.
    #[serde(deserialize_with = "mark_suffix")]
    pub mark: Option<MarkText>,
    /// A reviewed move's mark as its node keeps it from now on (`TreeNode::mark`): the
    /// move's own where it came with one (a loaded PDN's), which the review leaves, else
    /// `mark`; absent for a retry.
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub node_mark: Option<Option<MarkText>>,
}

/// A mark's text (`?!`, `?`, `??`). Named, not written `&'static str`, so that serde's derive
/// does not take it for text borrowed from the input (which only a `'static` input could
/// give): `mark_suffix` reads it back as one of the marks' own.
pub type MarkText = &'static str;

/// A review mark read back: one of the marks' suffixes (`review::marks::Mark`), or none.
fn mark_suffix<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
    use crate::review::marks::Mark;
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(text) => Mark::from_suffix(&text)
            .map(|m| Some(m.suffix()))
            .ok_or_else(|| serde::de::Error::custom(format!("no review mark '{text}'"))),
    }
}

/// One search iteration (`info`): what a search reports as it deepens. It travels from a
/// search to the board as data too (`board::JobEvent::Info`), hence `Deserialize`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchInfo {
    pub depth: u32,
    /// In men, from the side to move's view, as the CLI prints it.
    pub score: String,
    /// The same score from Black's view (Black moves first).
    pub score_black: String,
    pub nodes: u64,
    pub time: f64,
    pub pv: Vec<String>,
    pub pv_pdn: Vec<String>,
    /// Which line (1 the best) when analysis asks for more than one; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multipv: Option<usize>,
}

/// The whole state after any change.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub fen: String,
    pub side: &'static str,
    /// Square number -> `b`/`w` (men) or `B`/`W` (kings).
    pub pieces: BTreeMap<u8, &'static str>,
    pub legal: Vec<LegalMove>,
    /// The moves of the current line: the root to `node`, then on to the line's end.
    pub history: Vec<HistoryMove>,
    /// The position shown is after `ply` moves of the current line.
    pub ply: usize,
    /// The node shown.
    pub node: u64,
    /// The current line's node ids, the root first (one more than `history`).
    pub line: Vec<u64>,
    /// The whole game tree, each node after its parent (depth first, main lines first).
    pub nodes: Vec<TreeNode>,
    pub start_fen: String,
    pub white: Player,
    pub black: Player,
    pub thinking: bool,
    pub analyzing: bool,
    pub result: Option<GameEnd>,
    pub counts: Counts,
    pub level: Level,
    /// The endgame tables' verdict when `--egdb` tables cover the position, else None.
    pub egdb: Option<Verdict>,
    /// Both clocks in a timed game, else None.
    pub clock: Option<ClockState>,
    /// The tags `save_pdn` writes now (`Session::tags_now`), `Result` among them.
    pub tags: BTreeMap<String, String>,
    /// The review's summary of the main line's reviewed moves; None when none is reviewed.
    pub review: Option<ReviewSummary>,
    /// The puzzle on the board (`puzzle`), until `new`, `load_pdn`, `setup` or the next
    /// puzzle; None otherwise.
    pub puzzle: Option<PuzzleState>,
    /// The endgame practice on the board (`practice`), likewise.
    pub practice: Option<PracticeState>,
    /// In the state that answers a `load_pdn` with `partial` whose game was cut at a move
    /// that cannot be played: where, and why; None otherwise.
    pub partial: Option<PartialLoad>,
    /// The study's chapters in order (one for a lone game).
    pub chapters: Vec<ChapterInfo>,
    /// The chapter shown, from 1.
    pub chapter: usize,
}

/// A study's chapter as the state lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChapterInfo {
    /// Its own name (`ChapterName`), else its players', its event, or `Chapter N`.
    pub name: String,
    /// Its main line's moves.
    pub plies: usize,
    /// The result it saves (`*` while it goes on).
    pub result: String,
}

/// Where a game loaded with `partial` was cut: the ply of the move that cannot be played
/// (from the start, in its line) and the error a whole load would have given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartialLoad {
    pub ply: usize,
    pub message: String,
}

/// An endgame practice as the state shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PracticeState {
    pub id: &'static str,
    pub name: &'static str,
    /// What it teaches, in a sentence.
    pub teaches: &'static str,
    /// `win`, or `draw` (hold it).
    pub goal: &'static str,
    /// `playing`, `solved` or `failed`.
    pub result: &'static str,
    /// For a draw to hold: the person's moves still to make; None for a win.
    pub moves_to_hold: Option<u32>,
}

/// A puzzle as the state shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleState {
    pub id: String,
    /// On the ladder's Elo scale, a whole number.
    pub rating: u32,
    pub themes: Vec<&'static str>,
    /// `win` or `save`.
    pub goal: &'static str,
    /// `playing`, `solved` or `failed`.
    pub result: &'static str,
    /// The player's Glicko-2 rating after this puzzle (a whole number), deviation and
    /// volatility, for the page to keep.
    pub player_rating: u32,
    pub player_rd: f64,
    pub player_vol: f64,
    /// Puzzles solved in a row in a streak, or None outside one.
    pub streak: Option<u32>,
    /// The solution in Hub notation, the solver's moves and the replies between them, once
    /// the puzzle is solved or failed (None while it is played).
    pub solution: Option<Vec<String>>,
}
