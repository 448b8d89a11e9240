//! The board's messages as types: what the page may ask (`Request`) and what the server
//! says (`Reply`), one JSON object each with a `type` field, as docs/BOARD.md lists them.
//!
//! Parsing is the only place a page's bytes become data, so it checks sizes and shapes
//! and turns every problem into one error text for the `error` reply.

use crate::search::level::PlayLevel;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod data;
pub use data::*;

/// The largest `save_pdn` text a board's game can come to, in bytes of a JSON string
/// (escaping counted: `"` is two bytes, a control character six): 3.25 MiB. The session
/// keeps every game under it (`session::size`: room for the moves, scores, clocks and a
/// review a game can still get, and at most this less that room for a player's words), and
/// the worst a player can write fits: 1 MiB of comments all `"` (2 MiB written), 8 NAGs on
/// each of the tree's 4000 moves (160,000 bytes) and the roster's tags, 200 `"` each
/// (under 6,000), leave over 100,000 bytes to spare.
pub const MAX_SAVED_PDN: usize = 13 << 18;
/// What a `load_pdn` message holds besides its PDN: the type, the game number, a timed
/// game's `clock`, and the `path` the page restores (at most `session::MAX_PLIES` moves, each
/// at most 38 characters, quoted, with a comma: 82,000 bytes): 128 KiB.
pub const LOAD_ENVELOPE: usize = 128 << 10;
/// The largest text message the server reads (a PDN to load); see `parse`: the largest
/// game a board keeps, saved and sent back with everything a `load_pdn` holds, so whatever
/// the board keeps it loads again (3.375 MiB; issue 66, item 1). The page keeps that text
/// (escaped the same, in localStorage's 5 million characters).
pub const MAX_PDN_MESSAGE: usize = MAX_SAVED_PDN + LOAD_ENVELOPE;
/// The largest text message of any other type.
pub const MAX_MESSAGE: usize = 64 << 10;

/// The bytes `text` takes inside a JSON string, as serde_json and the browser's
/// `JSON.stringify` write it: `"` and `\` escaped (2), as are `\b`, `\f`, `\n`, `\r` and
/// `\t`; other control characters as `\u00XX` (6); everything else as its UTF-8.
pub fn json_string_len(text: &str) -> usize {
    text.bytes()
        .map(|b| match b {
            b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum()
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    Human,
    Engine,
}

/// The engine's limit for its moves: seconds per move or a fixed depth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    Movetime(f64),
    Depth(u32),
}

/// The engine's strength for its moves: its limit, and a playing level (`search::level`) or
/// full strength. In JSON one object: `{"movetime":1.0}`, `{"depth":8,"level":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Level {
    #[serde(flatten)]
    pub limit: Limit,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "play_level_number"
    )]
    pub level: Option<PlayLevel>,
}

fn play_level_number<S: serde::Serializer>(
    level: &Option<PlayLevel>,
    s: S,
) -> Result<S::Ok, S::Error> {
    level.map(PlayLevel::get).serialize(s)
}

/// The longest error text sent (see `Reply::error`).
pub const MAX_ERROR: usize = 300;

/// The longest time per move the page may set (an hour), and the deepest depth.
pub const MAX_MOVETIME: f64 = 3600.0;
pub const MAX_DEPTH: u32 = 60;

/// The most analysis lines the page may ask for.
pub const MAX_MULTIPV: u64 = 5;
/// The longest time per position, and the deepest depth, a review may ask for.
pub const MAX_REVIEW_MOVETIME: f64 = 60.0;
pub const MAX_REVIEW_DEPTH: u64 = 30;
/// The most nodes per position a review may ask for.
pub const MAX_REVIEW_NODES: u64 = 1_000_000_000;
/// The most nodes a whole review (or retry) may search, all its positions together: about
/// five minutes on one thread of a machine that searches three million nodes a second, and
/// 250,000 nodes a position (five times the default) for the longest main line a board
/// holds. A deeper review is `poolshark annotate`'s.
pub const MAX_REVIEW_TOTAL_NODES: u64 = 1_000_000_000;
/// The most seconds a whole review (or retry) may take, all its positions together.
pub const MAX_REVIEW_TOTAL_SECONDS: f64 = 300.0;

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    New {
        #[serde(default = "human")]
        white: Player,
        #[serde(default = "human")]
        black: Player,
        #[serde(default)]
        fen: Option<String>,
        /// A time control for the game (docs/BOARD.md, "Clocks"); none for an untimed game.
        #[serde(default)]
        clock: Option<ClockSpec>,
    },
    /// Seconds per move or a depth, a playing level (1 to 10, 0 for full strength), or
    /// both; see `Session::set_level`.
    Level {
        #[serde(default)]
        movetime: Option<f64>,
        #[serde(default)]
        depth: Option<u32>,
        #[serde(default)]
        level: Option<u64>,
    },
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    Undo,
    Redo,
    /// Go to a node of the game tree by its id, or to a ply of the current line: one of
    /// them.
    Goto {
        #[serde(default)]
        ply: Option<usize>,
        #[serde(default)]
        node: Option<u64>,
    },
    /// Move a variation one place up among its siblings, or (`to_main`) make it the main line.
    Promote {
        node: u64,
        #[serde(default)]
        to_main: bool,
    },
    /// Delete a node and every move after it.
    Delete {
        node: u64,
    },
    EngineMove,
    /// Analysis on or off, with `multipv` lines (1 to `MAX_MULTIPV`; 1 when not given).
    Analyze {
        on: bool,
        #[serde(default)]
        multipv: Option<u64>,
    },
    /// Review the whole game on the board: a depth, seconds or nodes per position, or none
    /// for the default budget (`review::Budget::DEFAULT`).
    Review {
        #[serde(flatten)]
        budget: BudgetFields,
    },
    /// Judge `move` in the position before ply `ply` of the game (its main line) against
    /// the best move there, searched as a review with this budget; the game is unchanged.
    Retry {
        ply: usize,
        #[serde(rename = "move")]
        text: String,
        #[serde(flatten)]
        budget: BudgetFields,
    },
    Stop,
    Setup {
        fen: String,
    },
    LoadPdn {
        pdn: String,
        /// Which game of the text, from 1 (default 1).
        #[serde(default)]
        game: Option<usize>,
        /// The node to show, as the moves from the root (Hub or PDN), played where the game
        /// has them not (a page restoring itself after a reload); none for the main line's
        /// end.
        #[serde(default)]
        path: Option<Vec<String>>,
        /// A timed game's clocks to take up again at the main line's end (a page restoring
        /// itself after a reload).
        #[serde(default)]
        clock: Option<ClockResume>,
        /// Load the game up to its first move that cannot be played, rather than refuse it
        /// (`state.partial` says where).
        #[serde(default)]
        partial: bool,
        /// Load every game of the text as a study's chapters (`game` the chapter shown, and
        /// `path` its node).
        #[serde(default)]
        study: bool,
    },
    /// Show chapter `index` of the study (from 1), at the node it was left at.
    Chapter {
        index: usize,
    },
    /// New chapters after the last, the first shown: the position shown (neither `fen` nor
    /// `pdn`), a FEN's, or every game of a PDN; `name` names the first.
    ChapterAdd {
        #[serde(default)]
        fen: Option<String>,
        #[serde(default)]
        pdn: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    /// Chapter `index`'s own name; empty: named from its tags again.
    ChapterRename {
        index: usize,
        name: String,
    },
    /// Chapter `index` to place `to` (both from 1).
    ChapterMove {
        index: usize,
        to: usize,
    },
    /// Chapter `index` and all it holds (the page asks the person first).
    ChapterDelete {
        index: usize,
    },
    /// The opening explorer's moves at the position shown (answered by `explorer`).
    Explore,
    /// Who plays each side from the position shown on, the game kept ("play from here").
    Players {
        #[serde(default = "human")]
        white: Player,
        #[serde(default = "human")]
        black: Player,
    },
    SavePdn {
        /// Asked for the page to keep, not to show: echoed in the `pdn` reply.
        #[serde(default)]
        quiet: bool,
        /// The chapter shown alone, not the whole study.
        #[serde(default)]
        chapter: bool,
    },
    Ping,
    /// A node's comment, mark or other NAGs, any of them (`Session::annotate`): `comment`
    /// replaces the comment (empty clears it), `nag` the mark (`null` clears it), `nags`
    /// the other NAGs (empty clears them).
    Annotate {
        node: u64,
        #[serde(default)]
        comment: Option<String>,
        /// Absent: the mark stays; `null`: cleared; a mark: set.
        #[serde(default, deserialize_with = "present")]
        nag: Option<Option<String>>,
        #[serde(default)]
        nags: Option<Vec<u64>>,
    },
    /// Tags of the Seven Tag Roster for `save_pdn` (`Session::set_tags`); the others stay.
    Tags {
        tags: BTreeMap<String, String>,
    },
    /// Moves after node `node`, following those already there, the rest a variation
    /// (`Session::add_line`).
    AddLine {
        node: u64,
        moves: Vec<String>,
    },
    /// The next puzzle (docs/BOARD.md, "Puzzles"): the one with `id`, else one near the
    /// player's rating of `theme` (any where absent); `streak` starts a streak (puzzles
    /// getting harder until one is missed), and a streak goes on with the next `puzzle`.
    Puzzle {
        #[serde(default)]
        theme: Option<String>,
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        streak: bool,
        /// False: this puzzle does not move the player's rating (a page bringing back a
        /// puzzle already finished, after a reload).
        #[serde(default = "yes")]
        rated: bool,
    },
    /// The player's puzzle rating as the page kept it (Glicko-2).
    PuzzlePlayer {
        rating: f64,
        rd: f64,
        vol: f64,
    },
    /// An endgame practice (docs/BOARD.md, "Endgame practice"): the one with `id`, else the
    /// first.
    Practice {
        #[serde(default)]
        id: Option<String>,
    },
}

/// A field that is there, `null` or not: `Some(None)` for `null`, where an absent one is
/// `None` (with `#[serde(default)]`).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A time control as the page asks for it, in seconds (checked by `clock::TimeControl`).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub base: f64,
    #[serde(default)]
    pub inc: f64,
}

/// A timed game's clocks as a page kept them across a reload: the time control (seconds, as
/// `new`'s `clock`) and each side's time left in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockResume {
    pub base: f64,
    #[serde(default)]
    pub inc: f64,
    pub black_ms: u64,
    pub white_ms: u64,
}

/// A review's budget as the page gives it: at most one of them (`review_job::budget`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
pub struct BudgetFields {
    #[serde(default)]
    pub depth: Option<u64>,
    #[serde(default)]
    pub movetime: Option<f64>,
    #[serde(default)]
    pub nodes: Option<u64>,
}

fn human() -> Player {
    Player::Human
}

fn yes() -> bool {
    true
}

/// The request types, for the error about an unknown one.
const TYPES: &str = "new, level, move, undo, redo, goto, promote, delete, engine_move, analyze, review, retry, stop, setup, load_pdn, save_pdn, players, ping, annotate, tags, add_line, puzzle, puzzle_player, practice, chapter, chapter_add, chapter_rename, chapter_move, chapter_delete, explore";

/// The types whose messages may carry a PDN, up to `MAX_PDN_MESSAGE`.
const PDN_TYPES: [&str; 2] = ["load_pdn", "chapter_add"];

/// Read one text message: its size, then the JSON, then its type, then its fields. Every
/// error is a sentence for the page.
pub fn parse(text: &str) -> Result<Request, String> {
    if text.len() > MAX_PDN_MESSAGE {
        return Err(format!(
            "message too large: {} bytes (the limit is {MAX_PDN_MESSAGE}, and {MAX_MESSAGE} for anything but load_pdn and chapter_add)",
            text.len()
        ));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
    let Some(kind) = value.get("type").map(|t| t.as_str()) else {
        return Err("a message must be a JSON object with a \"type\" field".into());
    };
    let Some(kind) = kind else {
        return Err("the \"type\" field must be a string".into());
    };
    if !PDN_TYPES.contains(&kind) && text.len() > MAX_MESSAGE {
        return Err(format!(
            "message too large: {} bytes (the limit for '{}' is {MAX_MESSAGE})",
            text.len(),
            short(kind)
        ));
    }
    if !TYPES.split(", ").any(|t| t == kind) {
        return Err(format!(
            "unknown message type '{}' (known: {TYPES})",
            short(kind)
        ));
    }
    let kind = kind.to_string();
    serde_json::from_value(value).map_err(|e| format!("bad '{kind}' message: {e}"))
}

/// At most 40 characters of a page's text, for quoting it in an error.
pub fn short(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// The largest messages `parse` reads, in bytes of their JSON text, as `hello` tells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MessageLimits {
    pub load_pdn: usize,
    pub other: usize,
}

impl MessageLimits {
    pub const BOARD: MessageLimits = MessageLimits {
        load_pdn: MAX_PDN_MESSAGE,
        other: MAX_MESSAGE,
    };
}

/// A message to the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    Hello {
        version: &'static str,
        /// The largest messages the board reads, so that the page refuses a larger one itself
        /// instead of sending it: a WebSocket frame over the server's limit closes the socket.
        limits: MessageLimits,
    },
    State(Box<State>),
    Info(Box<SearchInfo>),
    /// One move of a review, in the game's order (ply 1 is its first move).
    ReviewPly(Box<Judgement>),
    /// A review's end: each side's summary over the plies reported, and whether it was
    /// stopped before the last move.
    ReviewDone {
        black: SideReport,
        white: SideReport,
        stopped: bool,
    },
    /// The answer to `retry`: the move tried, judged as a review judges the game's moves.
    RetryResult(Box<Judgement>),
    Pdn {
        pdn: String,
        /// The answer to a `save_pdn` with `quiet` (absent otherwise).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        quiet: bool,
    },
    /// After a `load_pdn` of a text of several games: the tags of the first games (at most
    /// `session::MAX_LISTED`, and the one shown), which is shown, and how many the text holds.
    Games {
        games: Vec<PdnGameTags>,
        loaded: usize,
        count: usize,
    },
    /// The answer to `explore`: the opening explorer's moves at node `node` (the position
    /// shown when it was asked), and the games it counts (`about`, `count`).
    Explorer {
        node: u64,
        about: &'static str,
        count: usize,
        moves: Vec<ExplorerMove>,
    },
    Error {
        message: String,
    },
    Pong,
}

/// A move of the opening explorer (`explore`): the book's score for it, and how the games of
/// the explorer's set that played it here ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerMove {
    /// PDN notation.
    #[serde(rename = "move")]
    pub mv: String,
    pub hub: String,
    /// Origin, then every landing square, for the arrow.
    pub path: Vec<u8>,
    /// The book's score for the move, in men, from the side to move's view; None off the
    /// book.
    pub score: Option<String>,
    /// The same from Black's view.
    pub score_black: Option<String>,
    /// The games of the set that played it here, and how many Black won, drew, White won.
    pub games: u32,
    pub black: u32,
    pub draws: u32,
    pub white: u32,
}

impl Reply {
    /// An error reply. Errors quote the page's text, which may be long: the message is cut
    /// at `MAX_ERROR` characters.
    pub fn error(message: impl Into<String>) -> Reply {
        let mut message = crate::echo::shorten_numbers(&message.into());
        if let Some((i, _)) = message.char_indices().nth(MAX_ERROR) {
            message.truncate(i);
            message.push_str("...");
        }
        Reply::Error { message }
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail: every map key is a number and every value a
        // plain string, number or list.
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"internal: {e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `json_string_len` counts as serde_json escapes (as `JSON.stringify` does): every
    /// ASCII character, and others.
    #[test]
    fn json_string_len_is_serde_jsons() {
        let mut text: String = (0u8..128).map(char::from).collect();
        text.push_str("\u{e9}\u{2028}\u{1f600}\"\\");
        for c in text.chars() {
            let s = c.to_string();
            let want = serde_json::to_string(&s).unwrap().len() - 2;
            assert_eq!(json_string_len(&s), want, "{c:?}");
        }
        assert_eq!(
            json_string_len(&text),
            serde_json::to_string(&text).unwrap().len() - 2
        );
    }

    #[test]
    fn reads_each_request() {
        assert_eq!(
            parse(r#"{"type":"move","move":"11-15"}"#),
            Ok(Request::Move {
                text: "11-15".into()
            })
        );
        assert_eq!(
            parse(r#"{"type":"new","white":"engine"}"#),
            Ok(Request::New {
                white: Player::Engine,
                black: Player::Human,
                fen: None,
                clock: None
            })
        );
        assert_eq!(
            parse(r#"{"type":"new","clock":{"base":300,"inc":3}}"#),
            Ok(Request::New {
                white: Player::Human,
                black: Player::Human,
                fen: None,
                clock: Some(ClockSpec {
                    base: 300.0,
                    inc: 3.0
                })
            })
        );
        assert_eq!(
            parse(r#"{"type":"goto","ply":3}"#),
            Ok(Request::Goto {
                ply: Some(3),
                node: None
            })
        );
        assert_eq!(
            parse(r#"{"type":"goto","node":7}"#),
            Ok(Request::Goto {
                ply: None,
                node: Some(7)
            })
        );
        assert_eq!(
            parse(r#"{"type":"promote","node":7}"#),
            Ok(Request::Promote {
                node: 7,
                to_main: false
            })
        );
        assert_eq!(
            parse(r#"{"type":"promote","node":7,"to_main":true}"#),
            Ok(Request::Promote {
                node: 7,
                to_main: true
            })
        );
        assert_eq!(
            parse(r#"{"type":"delete","node":2}"#),
            Ok(Request::Delete { node: 2 })
        );
        assert_eq!(parse(r#"{"type":"engine_move"}"#), Ok(Request::EngineMove));
        assert_eq!(parse(r#"{"type":"ping"}"#), Ok(Request::Ping));
        assert_eq!(
            parse(r#"{"type":"analyze","on":true,"multipv":3}"#),
            Ok(Request::Analyze {
                on: true,
                multipv: Some(3)
            })
        );
        assert_eq!(
            parse(r#"{"type":"review","depth":6}"#),
            Ok(Request::Review {
                budget: BudgetFields {
                    depth: Some(6),
                    ..BudgetFields::default()
                }
            })
        );
        assert_eq!(
            parse(r#"{"type":"review","nodes":20000}"#),
            Ok(Request::Review {
                budget: BudgetFields {
                    nodes: Some(20000),
                    ..BudgetFields::default()
                }
            })
        );
        assert_eq!(
            parse(r#"{"type":"retry","ply":9,"move":"4-8","movetime":0.5}"#),
            Ok(Request::Retry {
                ply: 9,
                text: "4-8".into(),
                budget: BudgetFields {
                    movetime: Some(0.5),
                    ..BudgetFields::default()
                }
            })
        );
        assert_eq!(
            parse(r#"{"type":"retry","ply":1,"move":"11-15"}"#),
            Ok(Request::Retry {
                ply: 1,
                text: "11-15".into(),
                budget: BudgetFields::default()
            })
        );
    }

    #[test]
    fn says_what_is_wrong() {
        let err = |t: &str| parse(t).unwrap_err();
        assert!(err("{not json").starts_with("bad JSON"));
        assert!(err("[1,2]").contains("\"type\""));
        assert!(err(r#"{"type":5}"#).contains("must be a string"));
        assert!(err(r#"{"type":"fly"}"#).starts_with("unknown message type 'fly'"));
        assert!(err(r#"{"type":"move"}"#).contains("missing field `move`"));
        assert!(err(r#"{"type":"goto","ply":-1}"#).starts_with("bad 'goto' message"));
        assert!(err(r#"{"type":"goto","node":-1}"#).starts_with("bad 'goto' message"));
        assert!(err(r#"{"type":"delete"}"#).contains("missing field `node`"));
        assert!(err(r#"{"type":"promote","node":1,"to_main":"yes"}"#)
            .starts_with("bad 'promote' message"));
        assert!(err(r#"{"type":"new","white":"alien"}"#).starts_with("bad 'new' message"));
        assert!(err(r#"{"type":"new","clock":{"base":"5m"}}"#).starts_with("bad 'new' message"));
        assert!(err(r#"{"type":"new","clock":{"base":60,"increment":1}}"#)
            .contains("unknown field `increment`"));
        assert!(err(r#"{"type":"retry","ply":3}"#).contains("missing field `move`"));
        assert!(err(r#"{"type":"retry","move":"4-8"}"#).contains("missing field `ply`"));
        assert!(err(r#"{"type":"retry","ply":-2,"move":"4-8"}"#).starts_with("bad 'retry'"));
        assert!(err(r#"{"type":"retry","ply":2,"move":7}"#).starts_with("bad 'retry'"));
        assert!(err(r#"{"type":"review","nodes":-5}"#).starts_with("bad 'review'"));
        assert!(err(r#"{"type":"review","nodes":"many"}"#).starts_with("bad 'review'"));
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_MESSAGE));
        assert!(err(&big).starts_with("message too large"));
        let pdn = format!(
            r#"{{"type":"load_pdn","pdn":"{}"}}"#,
            " ".repeat(MAX_MESSAGE)
        );
        assert!(parse(&pdn).is_ok());
        let huge = "x".repeat(MAX_PDN_MESSAGE + 1);
        assert!(err(&huge).starts_with("message too large"));
        assert_eq!(short(&"é".repeat(50)).chars().count(), 43);
    }

    #[test]
    fn writes_tagged_replies() {
        assert_eq!(Reply::Pong.to_json(), r#"{"type":"pong"}"#);
        assert_eq!(
            Reply::error("x").to_json(),
            r#"{"type":"error","message":"x"}"#
        );
        let depth = Level {
            limit: Limit::Depth(8),
            level: None,
        };
        assert_eq!(serde_json::to_string(&depth).unwrap(), r#"{"depth":8}"#);
        let at_three = Level {
            limit: Limit::Movetime(1.5),
            level: Some(PlayLevel::new(3).unwrap()),
        };
        assert_eq!(
            serde_json::to_string(&at_three).unwrap(),
            r#"{"movetime":1.5,"level":3}"#
        );
    }

    /// Issue 61: `annotate` tells a `nag` of `null` (clear the mark) from none given (keep
    /// it); `tags` and `add_line` read their fields and refuse other shapes.
    #[test]
    fn reads_annotate_tags_and_add_line() {
        let annotate = |t: &str| match parse(t) {
            Ok(Request::Annotate {
                node,
                comment,
                nag,
                nags,
            }) => (node, comment, nag, nags),
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(
            annotate(r#"{"type":"annotate","node":3,"comment":"ok"}"#),
            (3, Some("ok".into()), None, None)
        );
        assert_eq!(
            annotate(r#"{"type":"annotate","node":3,"nag":null}"#),
            (3, None, Some(None), None)
        );
        assert_eq!(
            annotate(r#"{"type":"annotate","node":3,"nag":"!?","nags":[14]}"#),
            (3, None, Some(Some("!?".into())), Some(vec![14]))
        );
        assert_eq!(
            parse(r#"{"type":"add_line","node":0,"moves":["11-15","22-18"]}"#),
            Ok(Request::AddLine {
                node: 0,
                moves: vec!["11-15".into(), "22-18".into()]
            })
        );
        let Ok(Request::Tags { tags }) = parse(r#"{"type":"tags","tags":{"White":"A"}}"#) else {
            panic!("tags")
        };
        assert_eq!(tags["White"], "A");
        let err = |t: &str| parse(t).unwrap_err();
        assert!(err(r#"{"type":"annotate","comment":"x"}"#).contains("missing field `node`"));
        assert!(err(r#"{"type":"annotate","node":1,"nag":5}"#).starts_with("bad 'annotate'"));
        assert!(err(r#"{"type":"tags","tags":{"White":1}}"#).starts_with("bad 'tags'"));
        assert!(
            err(r#"{"type":"add_line","node":1,"moves":"11-15"}"#).starts_with("bad 'add_line'")
        );
    }
}
