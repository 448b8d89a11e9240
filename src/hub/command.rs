//! Hub input lines as typed commands.
//!
//! `parse` turns one line into a `Command` or a `HubError` that says what is wrong. The line
//! is split by `hub_syntax::tokenize` (shared with the match runner); this module knows the
//! commands, their keys and their values, and checks every number. It keeps no state and
//! does no I/O.

use crate::hub_syntax::{shown, tokenize, Line, SyntaxError};
use poolshark_engine::core::notation::{self, NotationError};
use poolshark_engine::core::Position;
use std::fmt;
use std::time::Duration;

/// The deepest `level depth=` accepted (the search caps its own depth below this anyway).
pub const MAX_DEPTH: u32 = 255;
/// The most seconds any time field may hold (about 11.5 days).
pub const MAX_SECONDS: f64 = 1.0e6;
/// The most moves `level moves=` may give.
pub const MAX_MOVES_TO_GO: u32 = 10_000;

/// What is wrong with an input line.
#[derive(Clone, Debug, PartialEq)]
pub enum HubError {
    /// The line does not follow the `command key=value ...` grammar.
    Syntax(String),
    UnknownCommand(String),
    /// A key the command needs is absent.
    Missing {
        command: String,
        what: String,
    },
    /// A key that needs a value came as a bare flag, or a flag came with a value.
    Shape {
        key: String,
        needs_value: bool,
    },
    /// A value that does not parse or is out of range.
    BadValue {
        key: String,
        value: String,
        expected: String,
    },
    /// Keys that may not come together.
    Conflict(String),
    /// A position or move that the rules reject.
    Notation {
        key: String,
        error: NotationError,
    },
    /// Anything the engine cannot do in its current state.
    Refused(String),
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::Syntax(s) => write!(f, "{s}"),
            HubError::UnknownCommand(name) => write!(f, "unknown command {}", shown(name)),
            HubError::Missing { command, what } => write!(f, "{command} needs {what}"),
            HubError::Shape { key, needs_value } => {
                if *needs_value {
                    write!(f, "{} needs a value ({}=...)", shown(key), shown(key))
                } else {
                    write!(f, "{} is a flag and takes no value", shown(key))
                }
            }
            HubError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "{}={} is not valid: expected {expected}",
                shown(key),
                shown(value)
            ),
            HubError::Conflict(s) => write!(f, "{s}"),
            HubError::Notation { key, error } => {
                write!(f, "{}: {}", shown(key), shown_long(&error.to_string()))
            }
            HubError::Refused(s) => write!(f, "{s}"),
        }
    }
}

/// Longer text (a whole error from the notation layer) made safe for a quoted value.
fn shown_long(text: &str) -> String {
    text.chars()
        .take(300)
        .map(|c| if c == '"' || c.is_control() { '\'' } else { c })
        .collect()
}

impl From<SyntaxError> for HubError {
    fn from(e: SyntaxError) -> HubError {
        HubError::Syntax(e.0)
    }
}

/// A command's keys read from a tokenized line, with the errors a command gives.
trait Keys {
    /// The value of `key`; an error if it came as a bare flag.
    fn value(&self, key: &str) -> Result<Option<&str>, HubError>;
    /// Whether the flag `key` is present; an error if it came with a value.
    fn flag(&self, key: &str) -> Result<bool, HubError>;
    /// The value of `key`; an error if it is absent or a bare flag.
    fn required(&self, key: &str) -> Result<&str, HubError>;
}

impl Keys for Line {
    fn value(&self, key: &str) -> Result<Option<&str>, HubError> {
        match self.get(key) {
            None => Ok(None),
            Some(Some(v)) => Ok(Some(v)),
            Some(None) => Err(HubError::Shape {
                key: key.to_string(),
                needs_value: true,
            }),
        }
    }
    fn flag(&self, key: &str) -> Result<bool, HubError> {
        match self.get(key) {
            None => Ok(false),
            Some(None) => Ok(true),
            Some(Some(_)) => Err(HubError::Shape {
                key: key.to_string(),
                needs_value: false,
            }),
        }
    }
    fn required(&self, key: &str) -> Result<&str, HubError> {
        self.value(key)?.ok_or_else(|| HubError::Missing {
            command: self.name.clone(),
            what: format!("{key}=..."),
        })
    }
}

/// How `go` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

/// The fields of one `level` line; what is absent is left as it was.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<Duration>,
    /// Time on the clock, in seconds. Negative only down to minus `inc` given on the same
    /// line: some clients send the time left minus the increment that the engine adds back.
    pub time: Option<f64>,
    pub moves: Option<u32>,
    pub inc: Option<Duration>,
    pub infinite: bool,
}

/// One input line, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    Hub,
    Init,
    SetParam {
        name: String,
        value: String,
    },
    NewGame,
    /// A start position and the moves played from it (resolved later, against the game).
    Pos {
        start: Position,
        moves: Vec<String>,
    },
    Level(Level),
    Go(GoMode),
    Ping,
    PonderHit,
    Stop,
    Quit,
}

/// Parse one line of input.
pub fn parse(line: &str) -> Result<Command, HubError> {
    let Some(line) = tokenize(line)? else {
        return Ok(Command::Empty);
    };
    Ok(match line.name.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "ping" => Command::Ping,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "new-game" => Command::NewGame,
        "set-param" => Command::SetParam {
            name: line.required("name")?.to_string(),
            value: line.required("value")?.to_string(),
        },
        "pos" => parse_pos(&line)?,
        "level" => Command::Level(parse_level(&line)?),
        "go" => Command::Go(parse_go(&line)?),
        other => return Err(HubError::UnknownCommand(other.to_string())),
    })
}

fn parse_pos(line: &Line) -> Result<Command, HubError> {
    let hub = line.value("pos")?;
    let fen = line.value("fen")?;
    let start = line.flag("start")?;
    let given = hub.is_some() as u32 + fen.is_some() as u32 + start as u32;
    if given == 0 {
        return Err(HubError::Missing {
            command: "pos".into(),
            what: "pos=<33 characters>, fen=<PDN FEN> or start".into(),
        });
    }
    if given > 1 {
        return Err(HubError::Conflict(
            "pos takes only one of pos=, fen= and start".into(),
        ));
    }
    let position = if let Some(text) = hub {
        notation::parse_hub_position(text).map_err(|error| HubError::Notation {
            key: "pos".into(),
            error,
        })?
    } else if let Some(text) = fen {
        notation::parse_fen(text).map_err(|error| HubError::Notation {
            key: "fen".into(),
            error,
        })?
    } else {
        Position::start()
    };
    let moves = line
        .value("moves")?
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(str::to_string)
        .collect();
    Ok(Command::Pos {
        start: position,
        moves,
    })
}

fn bad(key: &str, value: &str, expected: &str) -> HubError {
    HubError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// A whole number in `min..=max`.
pub fn parse_int<T>(key: &str, text: &str, min: T, max: T) -> Result<T, HubError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    let expected = || format!("a whole number from {min} to {max}");
    match text.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(bad(key, text, &expected())),
    }
}

/// Seconds as a real number in `min..=MAX_SECONDS`.
fn parse_seconds(key: &str, text: &str, min: f64) -> Result<f64, HubError> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= MAX_SECONDS => Ok(v),
        _ => Err(bad(
            key,
            text,
            &format!("seconds as a number from {min} to {MAX_SECONDS}"),
        )),
    }
}

fn parse_level(line: &Line) -> Result<Level, HubError> {
    let mut level = Level::default();
    let mut any = false;
    if let Some(v) = line.value("depth")? {
        level.depth = Some(parse_int("depth", v, 1, MAX_DEPTH)?);
        any = true;
    }
    if let Some(v) = line.value("nodes")? {
        level.nodes = Some(parse_int("nodes", v, 1, u64::MAX)?);
        any = true;
    }
    if let Some(v) = line.value("move-time")? {
        let s = parse_seconds("move-time", v, 0.0)?;
        level.move_time = Some(Duration::from_secs_f64(s));
        any = true;
    }
    if let Some(v) = line.value("time")? {
        level.time = Some(parse_seconds("time", v, -MAX_SECONDS)?);
        any = true;
    }
    if let Some(v) = line.value("moves")? {
        level.moves = Some(parse_int("moves", v, 1, MAX_MOVES_TO_GO)?);
        any = true;
    }
    if let Some(v) = line.value("inc")? {
        level.inc = Some(Duration::from_secs_f64(parse_seconds("inc", v, 0.0)?));
        any = true;
    }
    if line.flag("infinite")? {
        level.infinite = true;
        any = true;
    }
    // A clock below zero has fallen, except the time left minus the increment that some
    // clients send (pydraughts' HubEngine), which the `inc=` on the same line makes good.
    if let Some(t) = level.time.filter(|&t| t < 0.0) {
        let inc = level.inc.map_or(0.0, |d| d.as_secs_f64());
        if t + inc < 0.0 {
            return Err(bad(
                "time",
                line.value("time")?.unwrap_or_default(),
                "seconds from 0, or down to minus the inc= on the same line",
            ));
        }
    }
    if !any {
        return Err(HubError::Missing {
            command: "level".into(),
            what: "depth=, nodes=, move-time=, time=, moves=, inc= or infinite".into(),
        });
    }
    Ok(level)
}

fn parse_go(line: &Line) -> Result<GoMode, HubError> {
    let modes = [
        ("think", GoMode::Think),
        ("ponder", GoMode::Ponder),
        ("analyze", GoMode::Analyze),
    ];
    let mut found = None;
    for (key, mode) in modes {
        if line.flag(key)? {
            if found.is_some() {
                return Err(HubError::Conflict(
                    "go takes only one of think, ponder and analyze".into(),
                ));
            }
            found = Some(mode);
        }
    }
    found.ok_or_else(|| HubError::Missing {
        command: "go".into(),
        what: "think, ponder or analyze".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_spaces_around_equals() {
        assert_eq!(parse("").unwrap(), Command::Empty);
        assert_eq!(parse("  \t ").unwrap(), Command::Empty);
        assert_eq!(
            parse("set-param  name = threads\tvalue= 2 \r").unwrap(),
            Command::SetParam {
                name: "threads".into(),
                value: "2".into()
            }
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        for line in crate::hub_syntax::tests::MALFORMED {
            assert!(matches!(parse(line), Err(HubError::Syntax(_))), "{line}");
        }
    }

    #[test]
    fn commands() {
        assert_eq!(parse("hub").unwrap(), Command::Hub);
        assert_eq!(parse("go ponder").unwrap(), Command::Go(GoMode::Ponder));
        assert_eq!(
            parse("set-param name=tt-size value=20").unwrap(),
            Command::SetParam {
                name: "tt-size".into(),
                value: "20".into()
            }
        );
        assert_eq!(
            parse("frobnicate x=1").unwrap_err().to_string(),
            "unknown command frobnicate"
        );
        match parse("pos start moves=\"11-15 23-19\"").unwrap() {
            Command::Pos { start, moves } => {
                assert_eq!(start, Position::start());
                assert_eq!(moves, vec!["11-15", "23-19"]);
            }
            c => panic!("{c:?}"),
        }
        assert!(parse("pos fen=\"W:WK3:B5\" unknown=1").is_ok());
    }

    #[test]
    fn level_numbers_are_checked() {
        let l = parse("level time=60 inc=1.5 moves=40").unwrap();
        assert_eq!(
            l,
            Command::Level(Level {
                time: Some(60.0),
                inc: Some(Duration::from_millis(1500)),
                moves: Some(40),
                ..Level::default()
            })
        );
        assert!(parse("level infinite").is_ok());
        assert!(parse("level time=0 inc=1").is_ok());
        // pydraughts sends the time left minus the increment.
        assert!(parse("level time=-0.5 inc=1").is_ok());
        assert!(parse("level time=-1 inc=1").is_ok());
        for bad in [
            "level",
            "level depth=0",
            "level depth=x",
            "level depth=99999999999999999999",
            "level nodes=-1",
            "level nodes=1.5",
            "level move-time=nan",
            "level move-time=inf",
            "level move-time=-1",
            "level time=-1",
            "level time=-1.5 inc=1",
            "level inc=1 time=-2",
            "level time=1e300",
            "level moves=0",
            "level inc=-1",
            "level infinite=yes",
            "level depth",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pos_and_go_errors() {
        for bad in [
            "pos",
            "pos start pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "pos pos=Bbbb",
            "pos pos",
            "pos fen=\"X:W1:B2\"",
            "pos pos=Bwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "go",
            "go think ponder",
            "go think=1",
            "set-param name=threads",
            "set-param value=1",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(!e.to_string().contains('"'), "{bad}: {e}");
        }
    }

    #[test]
    fn errors_read_well() {
        assert_eq!(
            parse(r#"pos moves="11-15"#).unwrap_err().to_string(),
            "the quoted value of moves has no closing double quote"
        );
        assert_eq!(
            parse("level time=-1").unwrap_err().to_string(),
            "time=-1 is not valid: expected seconds from 0, or down to minus the inc= on the same line"
        );
    }
}
