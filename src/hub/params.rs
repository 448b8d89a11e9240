//! The engine parameters a Hub client can see and set: their types, ranges and values.
//!
//! `Params` only checks and stores values; the loop applies them to the engine (and keeps the
//! old value when the engine cannot take a new one, for example a table that does not fit).

use crate::hub::command::{parse_int, quote, HubError};
use crate::search::tt::TranspositionTable;

/// The table size at start-up: 2^22 entries of 16 bytes, 64 MiB.
pub const DEFAULT_TT_LOG2: u32 = 22;
/// The most search threads accepted.
pub const MAX_THREADS: usize = 256;

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

/// The values in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub variant: String,
    pub threads: usize,
    pub tt_log2: u32,
    pub ponder: bool,
    pub book: bool,
    pub book_ply: u32,
    pub book_margin: u32,
    /// A weights file for the evaluation; empty for the built-in weights.
    pub eval_file: String,
    /// Largest tt-size allowed here (it depends on the machine's memory).
    pub max_tt_log2: u32,
}

/// The variants played: only American pool checkers.
pub const VARIANTS: &[&str] = &["pool"];

impl Params {
    pub fn new(max_tt_log2: u32) -> Params {
        Params {
            variant: "pool".into(),
            threads: 1,
            tt_log2: DEFAULT_TT_LOG2.min(max_tt_log2),
            ponder: false,
            book: true,
            book_ply: 8,
            book_margin: 4,
            eval_file: String::new(),
            max_tt_log2,
        }
    }

    pub fn declared(&self) -> Vec<Declared> {
        vec![
            Declared {
                name: "variant",
                kind: Kind::Enum(VARIANTS),
                help: "the game played: American pool checkers",
            },
            Declared {
                name: "threads",
                kind: Kind::Int {
                    min: 1,
                    max: MAX_THREADS as i64,
                },
                help: "search threads (Lazy SMP)",
            },
            Declared {
                name: "tt-size",
                kind: Kind::Int {
                    min: TranspositionTable::MIN_LOG2 as i64,
                    max: self.max_tt_log2 as i64,
                },
                help: "hash table size as log2 of its entries (16 bytes each): 22 is 64 MiB",
            },
            Declared {
                name: "ponder",
                kind: Kind::Bool,
                help: "whether the client will send go ponder (the engine ponders only when asked)",
            },
            Declared {
                name: "book",
                kind: Kind::Bool,
                help: "play from the opening book in go think (go analyze and go ponder always search)",
            },
            Declared {
                name: "book-ply",
                kind: Kind::Int { min: 0, max: 60 },
                help: "use the book while fewer than this many moves follow the pos position",
            },
            Declared {
                name: "book-margin",
                kind: Kind::Int { min: 0, max: 100 },
                help: "pick at random among book moves within this many hundredths of a man of the best (0: always the best)",
            },
            Declared {
                name: "eval-file",
                kind: Kind::Text,
                help: "evaluation weights file (tuning/weights.txt format); empty for the built-in weights",
            },
        ]
    }

    /// The value of a parameter as the protocol writes it.
    pub fn value(&self, name: &str) -> String {
        match name {
            "variant" => self.variant.clone(),
            "threads" => self.threads.to_string(),
            "tt-size" => self.tt_log2.to_string(),
            "ponder" => self.ponder.to_string(),
            "book" => self.book.to_string(),
            "book-ply" => self.book_ply.to_string(),
            "book-margin" => self.book_margin.to_string(),
            "eval-file" => quote(&self.eval_file),
            _ => String::new(),
        }
    }

    /// The `param` lines of the start-up, without the leading `param `.
    pub fn param_lines(&self) -> Vec<String> {
        self.declared()
            .iter()
            .map(|d| {
                let value = self.value(d.name);
                let kind = match &d.kind {
                    Kind::Bool => "type=bool".to_string(),
                    Kind::Int { min, max } => format!("type=int min={min} max={max}"),
                    Kind::Enum(values) => format!("type=enum values=\"{}\"", values.join(" ")),
                    Kind::Text => "type=string".to_string(),
                };
                format!("name={} value={value} {kind}", d.name)
            })
            .collect()
    }

    /// A copy with `name` set to `text`, or an error if the name is unknown or the value is
    /// of the wrong type or out of range (then nothing changes).
    pub fn with(&self, name: &str, text: &str) -> Result<Params, HubError> {
        let declared = self.declared();
        let Some(d) = declared.iter().find(|d| d.name == name) else {
            return Err(HubError::Refused(format!(
                "unknown parameter {}",
                crate::hub::command::shown(name)
            )));
        };
        let mut next = self.clone();
        match &d.kind {
            Kind::Bool => {
                let v = match text {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(HubError::BadValue {
                            key: name.into(),
                            value: text.into(),
                            expected: "true or false".into(),
                        })
                    }
                };
                match name {
                    "ponder" => next.ponder = v,
                    _ => next.book = v,
                }
            }
            Kind::Int { min, max } => {
                let v = parse_int(name, text, *min, *max)?;
                match name {
                    "threads" => next.threads = v as usize,
                    "tt-size" => next.tt_log2 = v as u32,
                    "book-ply" => next.book_ply = v as u32,
                    _ => next.book_margin = v as u32,
                }
            }
            Kind::Text => next.eval_file = text.to_string(),
            Kind::Enum(values) => {
                if !values.contains(&text) {
                    return Err(HubError::BadValue {
                        key: name.into(),
                        value: text.into(),
                        expected: format!("one of: {}", values.join(", ")),
                    });
                }
                next.variant = text.to_string();
            }
        }
        Ok(next)
    }
}

/// The largest table allowed on this machine: at most half its memory, within the table's
/// own limits. Without /proc/meminfo, 2^26 entries (1 GiB).
pub fn max_tt_log2() -> u32 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib.saturating_mul(1024))
        });
    let Some(bytes) = total else {
        return 26;
    };
    let entries = (bytes / 2) / TranspositionTable::ENTRY_BYTES as u64;
    let log2 = 63u32.saturating_sub(entries.max(1).leading_zeros());
    log2.clamp(TranspositionTable::MIN_LOG2, TranspositionTable::MAX_LOG2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_lines_state_type_and_range() {
        let p = Params::new(28);
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
        let p = Params::new(28);
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
        ] {
            assert!(p.with(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(p.with("eval-file", "a b.txt").unwrap().eval_file, "a b.txt");
        assert_eq!(
            p.param_lines().last().unwrap(),
            "name=eval-file value=\"\" type=string"
        );
        for (name, value) in [] {
            assert!(p.with(name, value).is_err(), "{name}={value}");
        }
    }

    #[test]
    fn the_largest_table_fits_in_half_the_memory() {
        let log2 = max_tt_log2();
        assert!((TranspositionTable::MIN_LOG2..=TranspositionTable::MAX_LOG2).contains(&log2));
    }
}
