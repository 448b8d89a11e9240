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

use crate::eval::pattern::{
    PatternWeights, LINEAR, LINEAR_LEN, LINEAR_LIMIT, PATTERN_LIMIT, PHASES, SCALE, STATES, WINDOWS,
};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"PSPATTRN";
/// 2: the lone-king term is gone (king endings are the hand terms'), 7 linear terms.
pub const VERSION: u32 = 2;
const HEADER_LEN: usize = 32;
const TABLE_LEN: usize = PHASES * WINDOWS * STATES;
/// The size of every valid file of this version.
pub const FILE_LEN: usize = HEADER_LEN + 4 * LINEAR_LEN + 2 * TABLE_LEN + 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternFileError {
    BadMagic,
    BadVersion(u32),
    /// The header's shape (windows, states, phases, linear terms, scale) is not this build's.
    WrongShape {
        field: &'static str,
        expected: u32,
        found: u32,
    },
    WrongSize {
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
            PatternFileError::BadMagic => write!(
                f,
                "not a pattern weights file (it does not start with {:?})",
                std::str::from_utf8(MAGIC).unwrap_or_default()
            ),
            PatternFileError::BadVersion(v) => {
                write!(f, "pattern weights version {v}, this build reads {VERSION}")
            }
            PatternFileError::WrongShape {
                field,
                expected,
                found,
            } => write!(f, "{field} is {found}, this build has {expected}"),
            PatternFileError::WrongSize { expected, found } => write!(
                f,
                "{found} bytes, a pattern weights file has {expected} (truncated or padded?)"
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

/// FNV-1a, 64 bits: enough to catch a damaged file, and a few lines to write.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Whether `bytes` start as a pattern weights file does (else they are taken as text).
pub fn is_pattern_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn shape() -> [(&'static str, u32); 5] {
    [
        ("windows", WINDOWS as u32),
        ("states per window", STATES as u32),
        ("phases", PHASES as u32),
        ("linear terms", LINEAR_LEN as u32),
        ("scale", SCALE as u32),
    ]
}

/// The file's bytes.
pub fn write(w: &PatternWeights) -> Vec<u8> {
    let mut out = Vec::with_capacity(FILE_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    for (_, v) in shape() {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for x in w.linear {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for x in &w.tables {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Read the file's bytes (see the module notes for what is checked).
pub fn parse(b: &[u8]) -> Result<PatternWeights, PatternFileError> {
    if !is_pattern_file(b) {
        return Err(PatternFileError::BadMagic);
    }
    if b.len() < HEADER_LEN {
        return Err(PatternFileError::WrongSize {
            expected: FILE_LEN,
            found: b.len(),
        });
    }
    let version = u32_at(b, 8);
    if version != VERSION {
        return Err(PatternFileError::BadVersion(version));
    }
    for (i, (field, expected)) in shape().into_iter().enumerate() {
        let found = u32_at(b, 12 + 4 * i);
        if found != expected {
            return Err(PatternFileError::WrongShape {
                field,
                expected,
                found,
            });
        }
    }
    if b.len() != FILE_LEN {
        return Err(PatternFileError::WrongSize {
            expected: FILE_LEN,
            found: b.len(),
        });
    }
    let (body, tail) = b.split_at(FILE_LEN - 8);
    let found = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let expected = checksum(body);
    if found != expected {
        return Err(PatternFileError::BadChecksum { expected, found });
    }
    let mut w = PatternWeights::default();
    for (i, x) in w.linear.iter_mut().enumerate() {
        let v = u32_at(b, HEADER_LEN + 4 * i) as i32;
        if v.abs() > LINEAR_LIMIT || v == i32::MIN {
            return Err(PatternFileError::OutOfRange {
                what: format!("linear term '{}'", LINEAR[i].0),
                value: v,
                limit: LINEAR_LIMIT,
            });
        }
        *x = v;
    }
    let start = HEADER_LEN + 4 * LINEAR_LEN;
    for (i, x) in w.tables.iter_mut().enumerate() {
        let at = start + 2 * i;
        let v = i16::from_le_bytes([b[at], b[at + 1]]);
        if (v as i32).abs() > PATTERN_LIMIT {
            let (phase, rest) = (i % PHASES, i / PHASES);
            return Err(PatternFileError::OutOfRange {
                what: format!(
                    "table value (window {}, state {}, phase {phase})",
                    rest / STATES,
                    rest % STATES
                ),
                value: v as i32,
                limit: PATTERN_LIMIT,
            });
        }
        *x = v;
    }
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
        assert_eq!(parse(&b), Err(PatternFileError::BadMagic));
        assert_eq!(
            parse(b"poolshark-weights 1\n"),
            Err(PatternFileError::BadMagic)
        );
        // Version 1, the files before the lone-king term went, and a later version.
        for v in [1u8, 3] {
            let mut b = good.clone();
            b[8] = v;
            assert_eq!(parse(&b), Err(PatternFileError::BadVersion(v.into())));
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
