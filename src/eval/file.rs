//! The weights file: text, versioned, one field a line.
//!
//! ```text
//! poolshark-weights 1
//! # comments and blank lines are ignored
//! man 100
//! advance 0 2 4 7 11 16 22
//! ```
//!
//! Every field of `weights::LAYOUT` must appear exactly once with its number of values; any
//! other line is an error, so a file made for another version of the evaluation is refused
//! instead of being half read.

use crate::eval::weights::{self, Weights, LAYOUT};
use std::fmt;

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
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            WeightsError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            WeightsError::BadVersion { found } => {
                write!(f, "first line is '{found}', expected '{HEADER} {VERSION}'")
            }
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
        }
    }
}

impl std::error::Error for WeightsError {}

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
    let mut values: Vec<Option<Vec<i32>>> = vec![None; LAYOUT.len()];
    for (i, raw) in lines {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let mut parts = l.split_whitespace();
        let key = parts.next().unwrap_or_default().to_string();
        let Some(slot) = LAYOUT.iter().position(|(name, _)| *name == key) else {
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
        let expected = LAYOUT[slot].1;
        if nums.len() != expected {
            return Err(WeightsError::WrongCount {
                line,
                key,
                expected,
                found: nums.len(),
            });
        }
        values[slot] = Some(nums);
    }
    let mut flat = Vec::with_capacity(weights::len());
    for (slot, v) in values.into_iter().enumerate() {
        flat.extend(v.ok_or(WeightsError::MissingKey(LAYOUT[slot].0))?);
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
    for (name, n) in LAYOUT {
        let vals: Vec<String> = v[at..at + n].iter().map(|x| x.to_string()).collect();
        out.push_str(&format!("{name} {}\n", vals.join(" ")));
        at += n;
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
        let v: Vec<i32> = (0..weights::len() as i32).map(|x| x * 7 - 40).collect();
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
}
