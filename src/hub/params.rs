//! The engine parameters a Hub client can see and set: their types, ranges and values.
//!
//! `Params` only checks and stores values; the loop applies them to the engine (and keeps the
//! old value when the engine cannot take a new one, for example a table that does not fit).

use crate::hub::command::{parse_int, HubError};
use crate::hub_syntax::{quote, shown};
use poolshark_engine::book::Policy;
use poolshark_engine::search::level::{self, PlayLevel};
use poolshark_engine::search::tt::TranspositionTable;

/// The table size at start-up: 2^22 entries of 16 bytes, 64 MiB.
pub const DEFAULT_TT_LOG2: u32 = 22;

/// One parameter's type and allowed values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    Enum(&'static [&'static str]),
    /// Any text (a quoted string on the wire).
    Text,
}

/// A parameter's declaration, with the help text logged at start-up.
pub struct Declared {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
}

/// Every parameter. Its name, declaration, value and setter are each one arm of an
/// exhaustive `match` (`name`, `Params::declare`, `Params::value`, `Params::with`), so a new
/// parameter does not compile until it has all four, and none can fall into another's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Variant,
    Threads,
    TtSize,
    Ponder,
    Book,
    BookPly,
    BookMargin,
    Egdb,
    EgdbPath,
    EvalFile,
    MultiPv,
    Level,
    SearchParams,
}

impl Param {
    /// All of them, in the order of the start-up `param` lines.
    pub const ALL: [Param; 13] = [
        Param::Variant,
        Param::Threads,
        Param::TtSize,
        Param::Ponder,
        Param::Book,
        Param::BookPly,
        Param::BookMargin,
        Param::Egdb,
        Param::EgdbPath,
        Param::EvalFile,
        Param::MultiPv,
        Param::Level,
        Param::SearchParams,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Param::Variant => "variant",
            Param::Threads => "threads",
            Param::TtSize => "tt-size",
            Param::Ponder => "ponder",
            Param::Book => "book",
            Param::BookPly => "book-ply",
            Param::BookMargin => "book-margin",
            Param::Egdb => "egdb",
            Param::EgdbPath => "egdb-path",
            Param::EvalFile => "eval-file",
            Param::MultiPv => "multipv",
            Param::Level => "level",
            Param::SearchParams => "search-params",
        }
    }

    pub fn from_name(name: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The values in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub variant: String,
    pub threads: usize,
    pub tt_log2: u32,
    pub ponder: bool,
    pub book: bool,
    /// `book-ply` and `book-margin`.
    pub book_policy: Policy,
    /// Whether the search probes the endgame tables.
    pub egdb: bool,
    /// The folder of the endgame tables; empty for none.
    pub egdb_path: String,
    /// A weights file for the evaluation; empty for the built-in weights.
    pub eval_file: String,
    /// Lines the search reports (multi-PV); 1 is the usual search.
    pub multipv: usize,
    /// The playing level for `go think` and `go ponder` (`search::level`); None is full
    /// strength (0 on the wire).
    pub level: Option<PlayLevel>,
    /// Search parameters set by name (`NAME:VALUE,...`, checked by
    /// `SearchParams::with_assignments`); empty for the defaults.
    pub search_params: String,
    /// Largest tt-size allowed here (it depends on the machine's memory).
    pub max_tt_log2: u32,
    /// Most threads allowed here (`search::max_threads`: it depends on the cores).
    pub max_threads: usize,
}

/// The most lines `multipv` takes: a position never has more legal moves than a move list
/// holds (a larger count searches every move).
pub const MAX_MULTIPV: usize = poolshark_engine::core::moves::MAX_MOVES;

/// The variants played: only American pool checkers.
pub const VARIANTS: &[&str] = &["pool"];

impl Params {
    pub fn new(max_tt_log2: u32, max_threads: usize) -> Params {
        Params {
            variant: "pool".into(),
            threads: 1,
            tt_log2: DEFAULT_TT_LOG2.min(max_tt_log2),
            ponder: false,
            book: true,
            book_policy: Policy::default(),
            egdb: true,
            egdb_path: poolshark_engine::search::egdb::DEFAULT_DIR.into(),
            eval_file: String::new(),
            multipv: 1,
            level: None,
            search_params: String::new(),
            max_tt_log2,
            max_threads: max_threads.max(1),
        }
    }

    pub fn declare(&self, param: Param) -> Declared {
        let (kind, help) = match param {
            Param::Variant => (
                Kind::Enum(VARIANTS),
                "the game played: American pool checkers",
            ),
            Param::Threads => (
                Kind::Int {
                    min: 1,
                    max: self.max_threads as i64,
                },
                "search threads (Lazy SMP); at most 4 per core",
            ),
            Param::TtSize => (
                Kind::Int {
                    min: TranspositionTable::MIN_LOG2 as i64,
                    max: self.max_tt_log2 as i64,
                },
                "hash table size as log2 of its entries (16 bytes each): 22 is 64 MiB",
            ),
            Param::Ponder => (
                Kind::Bool,
                "whether the client will send go ponder (the engine ponders only when asked)",
            ),
            Param::Book => (
                Kind::Bool,
                "play from the opening book in go think (go analyze and go ponder always search)",
            ),
            Param::BookPly => (
                Kind::Int { min: 0, max: 60 },
                "use the book while fewer than this many moves follow the pos position",
            ),
            Param::BookMargin => (
                Kind::Int { min: 0, max: 100 },
                "pick at random among book moves within this many hundredths of a man of the best (0: always the best)",
            ),
            Param::Egdb => (
                Kind::Bool,
                "probe the endgame tables in the search (false: search as without them)",
            ),
            Param::EgdbPath => (
                Kind::Text,
                "folder of endgame tables (egdb build); egdb here by default, if it exists; empty for none",
            ),
            Param::EvalFile => (
                Kind::Text,
                "evaluation file (tuning/weights.txt or tuning/network.bin format); empty for the built-in network",
            ),
            Param::MultiPv => (
                Kind::Int {
                    min: 1,
                    max: MAX_MULTIPV as i64,
                },
                "best moves to search, each with its own score and pv, in info lines marked multipv=K (an extension; 1: the usual search)",
            ),
            Param::Level => (
                Kind::Int {
                    min: 0,
                    max: i64::from(level::MAX),
                },
                "playing level for go think and go ponder (an extension): 1 (weakest) to 10 picks among its best moves within a node limit, with a margin and randomness that grow as the level falls, without the book; 0: full strength",
            ),
            Param::SearchParams => (
                Kind::Text,
                "search parameters by name, for engine testing (an extension): NAME:VALUE pairs joined by commas, e.g. lmr_divisor:2.5,probcut_margin:90 (poolshark spsa --help lists the names); empty for the defaults",
            ),
        };
        Declared {
            name: param.name(),
            kind,
            help,
        }
    }

    pub fn declared(&self) -> Vec<Declared> {
        Param::ALL.into_iter().map(|p| self.declare(p)).collect()
    }

    /// The value of a parameter as the protocol writes it.
    pub fn value(&self, param: Param) -> String {
        match param {
            Param::Variant => self.variant.clone(),
            Param::Threads => self.threads.to_string(),
            Param::TtSize => self.tt_log2.to_string(),
            Param::Ponder => self.ponder.to_string(),
            Param::Book => self.book.to_string(),
            Param::BookPly => self.book_policy.ply.to_string(),
            Param::BookMargin => self.book_policy.margin.to_string(),
            Param::Egdb => self.egdb.to_string(),
            Param::EgdbPath => quote(&self.egdb_path),
            Param::EvalFile => quote(&self.eval_file),
            Param::MultiPv => self.multipv.to_string(),
            Param::Level => self.level.map_or(0, PlayLevel::get).to_string(),
            Param::SearchParams => quote(&self.search_params),
        }
    }

    /// The `param` lines of the start-up, without the leading `param `.
    pub fn param_lines(&self) -> Vec<String> {
        Param::ALL
            .into_iter()
            .map(|p| {
                let d = self.declare(p);
                let kind = match &d.kind {
                    Kind::Bool => "type=bool".to_string(),
                    Kind::Int { min, max } => format!("type=int min={min} max={max}"),
                    Kind::Enum(values) => format!("type=enum values=\"{}\"", values.join(" ")),
                    Kind::Text => "type=string".to_string(),
                };
                format!("name={} value={} {kind}", d.name, self.value(p))
            })
            .collect()
    }

    /// A copy with `name` set to `text`, or an error if the name is unknown or the value is
    /// of the wrong type or out of range (then nothing changes).
    pub fn with(&self, name: &str, text: &str) -> Result<Params, HubError> {
        if name.trim().is_empty() {
            return Err(HubError::Refused(
                "a parameter name is empty: name= must name one".into(),
            ));
        }
        let Some(param) = Param::from_name(name) else {
            return Err(HubError::Refused(format!(
                "unknown parameter {}",
                shown(name)
            )));
        };
        let d = self.declare(param);
        let mut next = self.clone();
        match param {
            Param::Variant => next.variant = choice(&d, text)?.to_string(),
            Param::Threads => next.threads = int(&d, text)? as usize,
            Param::TtSize => next.tt_log2 = int(&d, text)? as u32,
            Param::Ponder => next.ponder = boolean(&d, text)?,
            Param::Book => next.book = boolean(&d, text)?,
            Param::BookPly => next.book_policy.ply = int(&d, text)? as u32,
            Param::BookMargin => next.book_policy.margin = int(&d, text)? as u32,
            Param::Egdb => next.egdb = boolean(&d, text)?,
            Param::EgdbPath => next.egdb_path = text.to_string(),
            Param::EvalFile => next.eval_file = text.to_string(),
            Param::MultiPv => next.multipv = int(&d, text)? as usize,
            Param::Level => {
                next.level = match int(&d, text)? {
                    0 => None,
                    n => Some(PlayLevel::new(n as u64).map_err(HubError::Refused)?),
                }
            }
            Param::SearchParams => {
                poolshark_engine::search::params::SearchParams::default()
                    .with_assignments(text)
                    .map_err(|e| HubError::BadValue {
                        key: d.name.into(),
                        value: text.into(),
                        expected: format!("NAME:VALUE pairs joined by commas ({e})"),
                    })?;
                next.search_params = text.to_string();
            }
        }
        Ok(next)
    }
}

/// The parameters for `poolshark hub --help`, one line each (`  name: help`), in the order
/// of `Param::ALL`, so that the help never leaves one out.
pub fn help_lines() -> Vec<String> {
    Params::new(DEFAULT_TT_LOG2, 1)
        .declared()
        .iter()
        .map(|d| format!("  {}: {}", d.name, d.help))
        .collect()
}

/// A declaration whose kind does not fit the field it is stored in: a mistake in this file.
fn wrong_kind(d: &Declared) -> HubError {
    HubError::Refused(format!("parameter {} is declared as {:?}", d.name, d.kind))
}

fn boolean(d: &Declared, text: &str) -> Result<bool, HubError> {
    if d.kind != Kind::Bool {
        return Err(wrong_kind(d));
    }
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(HubError::BadValue {
            key: d.name.into(),
            value: text.into(),
            expected: "true or false".into(),
        }),
    }
}

fn int(d: &Declared, text: &str) -> Result<i64, HubError> {
    match d.kind {
        Kind::Int { min, max } => parse_int(d.name, text, min, max),
        _ => Err(wrong_kind(d)),
    }
}

fn choice<'a>(d: &Declared, text: &'a str) -> Result<&'a str, HubError> {
    let Kind::Enum(values) = d.kind else {
        return Err(wrong_kind(d));
    };
    if !values.contains(&text) {
        return Err(HubError::BadValue {
            key: d.name.into(),
            value: text.into(),
            expected: format!("one of: {}", values.join(", ")),
        });
    }
    Ok(text)
}

/// The largest table allowed on this machine: at most half its memory, within the table's
/// own limits (`TranspositionTable::max_log2_here`, which knows the memory once
/// `poolshark_host::init` has told it).
pub fn max_tt_log2() -> u32 {
    TranspositionTable::max_log2_here()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_lines_state_type_and_range() {
        let p = Params::new(28, 256);
        let lines = p.param_lines();
        assert_eq!(
            lines[0],
            "name=variant value=pool type=enum values=\"pool\""
        );
        assert_eq!(lines[1], "name=threads value=1 type=int min=1 max=256");
        assert_eq!(lines[2], "name=tt-size value=22 type=int min=16 max=28");
        assert_eq!(lines[3], "name=ponder value=false type=bool");
    }

    #[test]
    fn bad_values_leave_the_params_alone() {
        let p = Params::new(28, 256);
        assert_eq!(p.with("threads", "4").unwrap().threads, 4);
        assert!(p.with("ponder", "true").unwrap().ponder);
        for (name, value) in [
            ("threads", "0"),
            ("threads", "257"),
            ("threads", "two"),
            ("tt-size", "15"),
            ("tt-size", "29"),
            ("ponder", "yes"),
            ("variant", "english"),
            ("book-ply", "-1"),
            ("multipv", "0"),
            ("multipv", "-3"),
            ("multipv", "three"),
            ("multipv", "256"),
            ("multipv", "99999999999999999999"),
            ("level", "11"),
            ("level", "-1"),
            ("level", "2.5"),
            ("level", "easy"),
            ("level", ""),
        ] {
            assert!(p.with(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(p.with("eval-file", "a b.txt").unwrap().eval_file, "a b.txt");
        let lines = p.param_lines();
        let eval_file = lines.iter().find(|l| l.starts_with("name=eval-file "));
        assert_eq!(eval_file.unwrap(), "name=eval-file value=\"\" type=string");
    }

    /// Each parameter is set in its own field and read back from it.
    #[test]
    fn each_parameter_has_its_own_field() {
        let p = Params::new(28, 8);
        for (param, text) in [
            (Param::Variant, "pool"),
            (Param::Threads, "3"),
            (Param::TtSize, "17"),
            (Param::Ponder, "true"),
            (Param::Book, "false"),
            (Param::BookPly, "5"),
            (Param::BookMargin, "7"),
            (Param::Egdb, "false"),
            (Param::EgdbPath, "tables"),
            (Param::EvalFile, "w.txt"),
            (Param::MultiPv, "3"),
            (Param::Level, "4"),
        ] {
            assert_eq!(Param::from_name(param.name()), Some(param));
            let next = p.with(param.name(), text).unwrap();
            let shown = next.value(param);
            assert_eq!(shown.trim_matches('"'), text, "{param:?}");
            // Nothing else changed.
            for other in Param::ALL.into_iter().filter(|&o| o != param) {
                assert_eq!(
                    next.value(other),
                    p.value(other),
                    "{param:?} moved {other:?}"
                );
            }
        }
        assert_eq!(p.param_lines().len(), Param::ALL.len());
        assert!(p.with("threads", "9").is_err(), "above max_threads");
    }

    #[test]
    fn the_help_has_a_line_for_each_parameter() {
        let lines = help_lines();
        assert_eq!(lines.len(), Param::ALL.len());
        for (line, param) in lines.iter().zip(Param::ALL) {
            assert!(line.starts_with(&format!("  {}: ", param.name())), "{line}");
        }
    }

    #[test]
    fn the_largest_table_fits_in_half_the_memory() {
        let log2 = max_tt_log2();
        assert!((TranspositionTable::MIN_LOG2..=TranspositionTable::MAX_LOG2).contains(&log2));
    }
}
