//! The weights file: text, versioned, one field a line.
//!
//! ```text
//! poolshark-weights 1
//! # comments and blank lines are ignored
//! man 100
//! advance 0 2 4 7 11 16 22
//! ```
//!
//! Every term of `weights::TERMS` must appear exactly once with its number of values, each
//! within the term's range; any other line is an error, so a file made for another version of
//! the evaluation is refused instead of being half read, and a value that would swamp the
//! evaluation is refused instead of played with.

use crate::eval::weights::{Weights, LEN, TERMS};
use std::fmt;
use std::ops::RangeInclusive;

/// The first line of every file this version reads and writes.
pub const HEADER: &str = "poolshark-weights";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    Io {
        path: String,
        message: String,
    },
    /// The first line is not `poolshark-weights <VERSION>`.
    BadVersion {
        found: String,
    },
    MissingKey(&'static str),
    UnknownKey {
        line: usize,
        key: String,
    },
    DuplicateKey {
        line: usize,
        key: String,
    },
    WrongCount {
        line: usize,
        key: String,
        expected: usize,
        found: usize,
    },
    NotANumber {
        line: usize,
        key: String,
        text: String,
    },
    /// A network file that is refused (`eval::nnue::network_file`).
    Network(crate::eval::nnue::network_file::NnueFileError),
    /// A value outside its term's range (`weights::TERMS`).
    OutOfRange {
        line: usize,
        key: String,
        value: i32,
        range: RangeInclusive<i32>,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            WeightsError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            WeightsError::BadVersion { found } => {
                write!(f, "first line is '{found}', expected '{HEADER} {VERSION}'")
            }
            WeightsError::Network(e) => write!(f, "{e}"),
            WeightsError::MissingKey(k) => write!(f, "no line for '{k}'"),
            WeightsError::UnknownKey { line, key } => write!(f, "line {line}: unknown key '{key}'"),
            WeightsError::DuplicateKey { line, key } => {
                write!(f, "line {line}: '{key}' given twice")
            }
            WeightsError::WrongCount {
                line,
                key,
                expected,
                found,
            } => write!(
                f,
                "line {line}: '{key}' takes {expected} value(s), found {found}"
            ),
            WeightsError::NotANumber { line, key, text } => {
                write!(f, "line {line}: '{key}': '{text}' is not a whole number")
            }
            WeightsError::OutOfRange {
                line,
                key,
                value,
                range,
            } => write!(
                f,
                "line {line}: '{key}': {value} is out of range (from {} to {})",
                range.start(),
                range.end()
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The evaluations that were removed, by the magic their files start with: such a file gets
/// a clear refusal rather than "not a text file".
const REMOVED: [(&[u8; 8], &str); 2] = [
    (b"PSPATTRN", "a pattern weights file"),
    (b"PSBIGPAT", "a big pattern weights file"),
];

/// What a file of a removed evaluation is, if `bytes` start as one.
pub fn removed_kind(bytes: &[u8]) -> Option<&'static str> {
    REMOVED
        .iter()
        .find(|(magic, _)| bytes.starts_with(*magic))
        .map(|&(_, kind)| kind)
}

/// Read a weights file.
pub fn parse(text: &str) -> Result<Weights, WeightsError> {
    let mut lines = text.lines().enumerate();
    let first = lines
        .by_ref()
        .map(|(_, l)| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first != format!("{HEADER} {VERSION}") {
        return Err(WeightsError::BadVersion {
            found: first.chars().take(60).collect(),
        });
    }
    let mut values: Vec<Option<Vec<i32>>> = vec![None; TERMS.len()];
    for (i, raw) in lines {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let mut parts = l.split_whitespace();
        let key = parts.next().unwrap_or_default().to_string();
        let Some(slot) = TERMS.iter().position(|t| t.name == key) else {
            return Err(WeightsError::UnknownKey { line, key });
        };
        if values[slot].is_some() {
            return Err(WeightsError::DuplicateKey { line, key });
        }
        let nums = parts
            .map(|t| {
                t.parse::<i32>().map_err(|_| WeightsError::NotANumber {
                    line,
                    key: key.clone(),
                    text: t.chars().take(30).collect(),
                })
            })
            .collect::<Result<Vec<i32>, _>>()?;
        let term = &TERMS[slot];
        if nums.len() != term.len {
            return Err(WeightsError::WrongCount {
                line,
                key,
                expected: term.len,
                found: nums.len(),
            });
        }
        if let Some(&value) = nums.iter().find(|x| !term.range.contains(x)) {
            return Err(WeightsError::OutOfRange {
                line,
                key,
                value,
                range: term.range.clone(),
            });
        }
        values[slot] = Some(nums);
    }
    let mut flat = Vec::with_capacity(LEN);
    for (slot, v) in values.into_iter().enumerate() {
        flat.extend(v.ok_or(WeightsError::MissingKey(TERMS[slot].name))?);
    }
    Ok(Weights::from_vec(&flat))
}

/// Write weights in the file format, with `comment` lines (each prefixed `# `) after the
/// header.
pub fn write(w: &Weights, comment: &str) -> String {
    let mut out = format!("{HEADER} {VERSION}\n");
    for l in comment.lines() {
        out.push_str(&format!("# {l}\n"));
    }
    let v = w.to_vec();
    let mut at = 0;
    for t in TERMS {
        let vals: Vec<String> = v[at..at + t.len].iter().map(|x| x.to_string()).collect();
        out.push_str(&format!("{} {}\n", t.name, vals.join(" ")));
        at += t.len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let w = Weights::handset();
        assert_eq!(parse(&write(&w, "a comment\nsecond line")).unwrap(), w);
        // Every value different, at either end of its range or inside it.
        let v: Vec<i32> = (0..LEN)
            .map(|i| {
                let r = &crate::eval::weights::term_at(i).range;
                [
                    *r.start(),
                    *r.end(),
                    (r.start() + r.end()) / 2 + i as i32 % 5,
                ][i % 3]
            })
            .collect();
        let odd = Weights::from_vec(&v);
        assert_eq!(parse(&write(&odd, "")).unwrap(), odd);
    }

    fn with_line(find: &str, replace: &str) -> String {
        let text = write(&Weights::handset(), "");
        let out: Vec<String> = text
            .lines()
            .map(|l| {
                if l.split_whitespace().next() == Some(find) {
                    replace.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        out.join("\n")
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        assert!(matches!(
            parse(&with_line(HEADER, "poolshark-weights 99")),
            Err(WeightsError::BadVersion { .. })
        ));
        assert!(matches!(parse(""), Err(WeightsError::BadVersion { .. })));
        assert_eq!(
            parse(&with_line("centre", "")),
            Err(WeightsError::MissingKey("centre"))
        );
        assert!(matches!(
            parse(&with_line("centre", "center 6")),
            Err(WeightsError::UnknownKey { key, .. }) if key == "center"
        ));
        assert!(matches!(
            parse(&with_line("advance", "advance 1 2 3")),
            Err(WeightsError::WrongCount {
                expected: 7,
                found: 3,
                ..
            })
        ));
        assert!(matches!(
            parse(&with_line("king", "king 3.5")),
            Err(WeightsError::NotANumber { line: 3, .. })
        ));
        assert!(matches!(
            parse(&with_line("king", "king 300\nking 300")),
            Err(WeightsError::DuplicateKey { .. })
        ));
        let e = parse(&with_line("king", "king x")).unwrap_err();
        assert_eq!(e.to_string(), "line 3: 'king': 'x' is not a whole number");
    }

    /// Values that made the search hang or see a proved loss that is not there (issue 11).
    #[test]
    fn values_out_of_range_are_refused_with_the_field_value_and_range() {
        let e = parse(&with_line("king_mobility", "king_mobility 30000")).unwrap_err();
        assert_eq!(
            e,
            WeightsError::OutOfRange {
                line: 9,
                key: "king_mobility".into(),
                value: 30000,
                range: -30..=30,
            }
        );
        assert_eq!(
            e.to_string(),
            "line 9: 'king_mobility': 30000 is out of range (from -30 to 30)"
        );
        // Every field at i32::MAX: the first line is refused.
        let mut text = format!("{HEADER} {VERSION}\n");
        for t in TERMS {
            text += &format!("{} {}\n", t.name, vec!["2147483647"; t.len].join(" "));
        }
        assert!(matches!(
            parse(&text),
            Err(WeightsError::OutOfRange { line: 2, value: i32::MAX, ref key, .. }) if key == "man"
        ));
        // One value of a table out of range is enough; the ends of a range are in it.
        assert!(matches!(
            parse(&with_line("advance", "advance 0 0 0 101 0 0 0")),
            Err(WeightsError::OutOfRange { value: 101, .. })
        ));
        assert!(parse(&with_line("king_mobility", "king_mobility -30")).is_ok());
        assert!(parse(&with_line("king_mobility", "king_mobility -31")).is_err());
    }
}
