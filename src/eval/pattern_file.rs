//! The pattern weights file (`tuning/patterns.bin`): binary, little-endian.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "PSPATTRN"
//! 8       4     version (2)
//! 12      4     windows (25), 16: states per window (6561), 20: phases (2),
//! 24      4     linear terms (7), 28: scale (16)
//! 32      4*L   linear weights, i32, in `pattern::LINEAR` order
//! ..      2*T   table values, i16, [window][state][phase]
//! end-8   8     FNV-1a 64 of every byte before it
//! ```
//!
//! Reading checks, in this order, the magic, the version, the shape, the size, the checksum
//! and every value's range, and names the first thing wrong: a file for another version or
//! shape of the evaluation, a truncated or damaged file, or weights that could swamp the
//! evaluation are all refused rather than played with. `is_pattern_file` tells this format
//! from the text format of `eval::file` by its first bytes.
//!
//! The framing (magic, version, shape words, size, checksum) is `Layout`'s, shared with the
//! big pattern file (`eval::big_pattern_file`), which differs only in its header and body.

use crate::eval::pattern::{
    PatternWeights, LINEAR, LINEAR_LEN, LINEAR_LIMIT, PATTERN_LIMIT, PHASES, SCALE, STATES, WINDOWS,
};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"PSPATTRN";
/// 2: the lone-king term is gone (king endings are the hand terms'), 7 linear terms.
pub const VERSION: u32 = 2;
const TABLE_LEN: usize = PHASES * WINDOWS * STATES;

/// One binary pattern file kind's framing: a magic, a version, shape words that must match
/// this build's, then the body and a checksum of everything before it.
pub struct Layout {
    /// What the file is called in errors ("pattern weights").
    pub what: &'static str,
    pub magic: &'static [u8; 8],
    pub version: u32,
    /// The header's shape words after the version, each named for the error.
    pub shape: &'static [(&'static str, u32)],
    /// The body's size in bytes (between the header and the checksum).
    pub body: usize,
}

impl Layout {
    /// Where the body starts.
    pub const fn header_len(&self) -> usize {
        12 + 4 * self.shape.len()
    }

    /// The size of every valid file of this layout.
    pub const fn file_len(&self) -> usize {
        self.header_len() + self.body + 8
    }

    /// The magic, the version and the shape: what a file of this layout starts with.
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.file_len());
        out.extend_from_slice(self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        for (_, v) in self.shape {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Append the checksum of everything in `out`: the file is then whole.
    pub fn seal(&self, out: &mut Vec<u8>) {
        debug_assert_eq!(out.len(), self.file_len() - 8);
        let sum = checksum(out);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// Check the magic, the version, the shape, the size and the checksum, in this order,
    /// and name the first thing wrong; the values are then the caller's to read and check.
    pub fn check(&self, b: &[u8]) -> Result<(), PatternFileError> {
        let (what, expected_len) = (self.what, self.file_len());
        if !b.starts_with(self.magic) {
            return Err(PatternFileError::BadMagic {
                what,
                magic: self.magic,
            });
        }
        if b.len() < self.header_len() {
            return Err(PatternFileError::WrongSize {
                what,
                expected: expected_len,
                found: b.len(),
            });
        }
        let version = u32_at(b, 8);
        if version != self.version {
            return Err(PatternFileError::BadVersion {
                what,
                found: version,
                expected: self.version,
            });
        }
        for (i, &(field, expected)) in self.shape.iter().enumerate() {
            let found = u32_at(b, 12 + 4 * i);
            if found != expected {
                return Err(PatternFileError::WrongShape {
                    field,
                    expected,
                    found,
                });
            }
        }
        if b.len() != expected_len {
            return Err(PatternFileError::WrongSize {
                what,
                expected: expected_len,
                found: b.len(),
            });
        }
        let (body, tail) = b.split_at(expected_len - 8);
        let found = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        let expected = checksum(body);
        if found != expected {
            return Err(PatternFileError::BadChecksum { expected, found });
        }
        Ok(())
    }
}

/// The small patterns' layout.
pub const LAYOUT: Layout = Layout {
    what: "pattern weights",
    magic: MAGIC,
    version: VERSION,
    shape: &[
        ("windows", WINDOWS as u32),
        ("states per window", STATES as u32),
        ("phases", PHASES as u32),
        ("linear terms", LINEAR_LEN as u32),
        ("scale", SCALE as u32),
    ],
    body: 4 * LINEAR_LEN + 2 * TABLE_LEN,
};
const HEADER_LEN: usize = LAYOUT.header_len();
/// The size of every valid file of this version.
pub const FILE_LEN: usize = LAYOUT.file_len();

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternFileError {
    BadMagic {
        what: &'static str,
        magic: &'static [u8; 8],
    },
    BadVersion {
        what: &'static str,
        found: u32,
        expected: u32,
    },
    /// The header's shape (windows, states, phases, linear terms, scale) is not this build's.
    WrongShape {
        field: &'static str,
        expected: u32,
        found: u32,
    },
    WrongSize {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    BadChecksum {
        expected: u64,
        found: u64,
    },
    OutOfRange {
        what: String,
        value: i32,
        limit: i32,
    },
}

impl fmt::Display for PatternFileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PatternFileError::BadMagic { what, magic } => write!(
                f,
                "not a {what} file (it does not start with {:?})",
                std::str::from_utf8(*magic).unwrap_or_default()
            ),
            PatternFileError::BadVersion {
                what,
                found,
                expected,
            } => {
                write!(f, "{what} version {found}, this build reads {expected}")
            }
            PatternFileError::WrongShape {
                field,
                expected,
                found,
            } => write!(f, "{field} is {found}, this build has {expected}"),
            PatternFileError::WrongSize {
                what,
                expected,
                found,
            } => write!(
                f,
                "{found} bytes, a {what} file has {expected} (truncated or padded?)"
            ),
            PatternFileError::BadChecksum { expected, found } => write!(
                f,
                "checksum {found:016x} does not match the contents ({expected:016x}): the file is damaged"
            ),
            PatternFileError::OutOfRange { what, value, limit } => {
                write!(f, "{what} is {value}, beyond the limit of +-{limit}")
            }
        }
    }
}

impl std::error::Error for PatternFileError {}

pub use crate::checksum::fnv1a as checksum;

/// Whether `bytes` start as a pattern weights file does (else they are taken as text).
pub fn is_pattern_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The file's bytes.
pub fn write(w: &PatternWeights) -> Vec<u8> {
    let mut out = LAYOUT.header();
    write_linear(&mut out, &w.linear);
    write_table(&mut out, &w.tables);
    LAYOUT.seal(&mut out);
    out
}

/// Append linear weights, i32 each.
pub fn write_linear(out: &mut Vec<u8>, linear: &[i32]) {
    for x in linear {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Append table values, i16 each.
pub fn write_table(out: &mut Vec<u8>, table: &[i16]) {
    for x in table {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Read the linear weights at `at` into `out`, each within `LINEAR_LIMIT` (named by
/// `pattern::LINEAR`); the bytes after them.
pub fn read_linear(b: &[u8], at: usize, out: &mut [i32]) -> Result<usize, PatternFileError> {
    for (i, x) in out.iter_mut().enumerate() {
        let v = u32_at(b, at + 4 * i) as i32;
        if v.abs() > LINEAR_LIMIT || v == i32::MIN {
            return Err(PatternFileError::OutOfRange {
                what: format!("linear term '{}'", LINEAR[i].0),
                value: v,
                limit: LINEAR_LIMIT,
            });
        }
        *x = v;
    }
    Ok(at + 4 * out.len())
}

/// Read table values at `at` into `out`, each within `PATTERN_LIMIT` (`name` says which
/// value the i-th is, for the error); the bytes after them.
pub fn read_table(
    b: &[u8],
    at: usize,
    out: &mut [i16],
    name: impl Fn(usize) -> String,
) -> Result<usize, PatternFileError> {
    for (i, x) in out.iter_mut().enumerate() {
        let p = at + 2 * i;
        let v = i16::from_le_bytes([b[p], b[p + 1]]);
        if (v as i32).abs() > PATTERN_LIMIT {
            return Err(PatternFileError::OutOfRange {
                what: name(i),
                value: v as i32,
                limit: PATTERN_LIMIT,
            });
        }
        *x = v;
    }
    Ok(at + 2 * out.len())
}

/// Read the file's bytes (see the module notes for what is checked).
pub fn parse(b: &[u8]) -> Result<PatternWeights, PatternFileError> {
    LAYOUT.check(b)?;
    let mut w = PatternWeights::default();
    let at = read_linear(b, HEADER_LEN, &mut w.linear)?;
    read_table(b, at, &mut w.tables, |i| {
        let (phase, rest) = (i % PHASES, i / PHASES);
        format!(
            "table value (window {}, state {}, phase {phase})",
            rest / STATES,
            rest % STATES
        )
    })?;
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternWeights {
        let mut w = PatternWeights::default();
        for (i, x) in w.tables.iter_mut().enumerate() {
            *x = ((i * 7919) % (2 * PATTERN_LIMIT as usize + 1)) as i16 - PATTERN_LIMIT as i16;
        }
        w.linear[crate::eval::pattern::Linear::KingMobility as usize] = -LINEAR_LIMIT;
        w
    }

    /// Rewrite the checksum after a deliberate change, so that a later check is reached.
    fn reseal(b: &mut [u8]) {
        let n = b.len();
        let sum = checksum(&b[..n - 8]);
        b[n - 8..].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn round_trip() {
        let w = sample();
        let bytes = write(&w);
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(parse(&bytes).unwrap(), w);
        assert_eq!(
            parse(&write(&PatternWeights::default())).unwrap(),
            PatternWeights::default()
        );
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let good = write(&sample());
        // A flipped bit anywhere past the header: the checksum (or, in the header, the
        // shape check) catches it.
        for at in [40, 1000, FILE_LEN / 2, FILE_LEN - 9, FILE_LEN - 1] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            assert!(
                matches!(parse(&b), Err(PatternFileError::BadChecksum { .. })),
                "byte {at}"
            );
        }
        let mut b = good.clone();
        b[0] = b'X';
        assert!(matches!(parse(&b), Err(PatternFileError::BadMagic { .. })));
        assert_eq!(
            parse(b"poolshark-weights 1\n").unwrap_err().to_string(),
            "not a pattern weights file (it does not start with \"PSPATTRN\")"
        );
        // Version 1, the files before the lone-king term went, and a later version.
        for v in [1u8, 3] {
            let mut b = good.clone();
            b[8] = v;
            assert_eq!(
                parse(&b),
                Err(PatternFileError::BadVersion {
                    what: "pattern weights",
                    found: v.into(),
                    expected: 2
                })
            );
            assert!(parse(&b)
                .unwrap_err()
                .to_string()
                .contains(&format!("version {v}, this build reads 2")));
        }
        let mut b = good.clone();
        b[12] = 9;
        assert!(matches!(
            parse(&b),
            Err(PatternFileError::WrongShape {
                field: "windows",
                found: 9,
                ..
            })
        ));
        for len in [FILE_LEN - 1, FILE_LEN / 2, 40] {
            assert_eq!(
                parse(&good[..len]),
                Err(PatternFileError::WrongSize {
                    what: "pattern weights",
                    expected: FILE_LEN,
                    found: len
                })
            );
        }
        assert!(matches!(
            parse(&good[..10]),
            Err(PatternFileError::WrongSize { .. })
        ));
        let mut b = good.clone();
        b.push(0);
        assert!(matches!(parse(&b), Err(PatternFileError::WrongSize { .. })));
    }

    #[test]
    fn values_out_of_range_are_refused() {
        let mut b = write(&sample());
        let at = HEADER_LEN + 4 * LINEAR_LEN + 2 * (2 * 5 + 1);
        b[at..at + 2].copy_from_slice(&(PATTERN_LIMIT as i16 + 1).to_le_bytes());
        reseal(&mut b);
        let e = parse(&b).unwrap_err();
        assert!(
            matches!(e, PatternFileError::OutOfRange { value, .. } if value == PATTERN_LIMIT + 1),
            "{e}"
        );
        assert!(e.to_string().contains("window 0, state 5, phase 1"), "{e}");
        let mut b = write(&sample());
        b[HEADER_LEN..HEADER_LEN + 4].copy_from_slice(&i32::MIN.to_le_bytes());
        reseal(&mut b);
        assert!(parse(&b).unwrap_err().to_string().contains("'man'"));
    }
}
