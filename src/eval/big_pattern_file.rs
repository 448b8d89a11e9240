//! The big pattern weights file (`learn --model big-patterns`): binary, little-endian, in
//! the framing of `eval::pattern_file` (`Layout`), whose checks it shares.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "PSBIGPAT"
//! 8       4     version (1)
//! 12      4     windows (10), 16: squares per window (12), 20: states per window (531441),
//! 24      4     phases (2), 28: linear terms (7), 32: king squares (64), 36: scale (16)
//! 40      4*L   linear weights, i32, in `pattern::LINEAR` order
//! ..      2*K   king values, i16, [side][square][phase]
//! ..      2*T   window table values, i16, [window][state][phase]
//! end-8   8     FNV-1a 64 of every byte before it
//! ```
//!
//! 21,257,972 bytes. Reading checks the magic, the version, the shape, the size, the
//! checksum and every value's range (the small patterns' limits), and names the first thing
//! wrong. `is_big_pattern_file` tells it from the other weights files by its first bytes.

use crate::eval::big_pattern::{
    BigPatternWeights, KING_SQUARES, PHASES, SCALE, STATES, WINDOWS, WINDOW_SQUARES,
};
use crate::eval::pattern::LINEAR_LEN;
use crate::eval::pattern_file::{read_linear, read_table, write_linear, write_table, Layout};

pub use crate::eval::pattern_file::PatternFileError;

pub const MAGIC: &[u8; 8] = b"PSBIGPAT";
pub const VERSION: u32 = 1;

pub const LAYOUT: Layout = Layout {
    what: "big pattern weights",
    magic: MAGIC,
    version: VERSION,
    shape: &[
        ("windows", WINDOWS as u32),
        ("squares per window", WINDOW_SQUARES as u32),
        ("states per window", STATES as u32),
        ("phases", PHASES as u32),
        ("linear terms", LINEAR_LEN as u32),
        ("king squares", KING_SQUARES as u32),
        ("scale", SCALE as u32),
    ],
    body: 4 * LINEAR_LEN + 2 * PHASES * (KING_SQUARES + WINDOWS * STATES),
};
/// The size of every valid file of this version.
pub const FILE_LEN: usize = LAYOUT.file_len();

/// Whether `bytes` start as a big pattern weights file does.
pub fn is_big_pattern_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The file's bytes.
pub fn write(w: &BigPatternWeights) -> Vec<u8> {
    let mut out = LAYOUT.header();
    write_linear(&mut out, &w.linear);
    write_table(&mut out, &w.kings);
    write_table(&mut out, &w.tables);
    LAYOUT.seal(&mut out);
    out
}

/// Read the file's bytes (see the module notes for what is checked).
pub fn parse(b: &[u8]) -> Result<BigPatternWeights, PatternFileError> {
    LAYOUT.check(b)?;
    let mut w = BigPatternWeights::default();
    let at = read_linear(b, LAYOUT.header_len(), &mut w.linear)?;
    let at = read_table(b, at, &mut w.kings, |i| {
        let (phase, rest) = (i % PHASES, i / PHASES);
        let side = ["own", "enemy"][rest / 32];
        format!(
            "king value ({side}, square {}, phase {phase})",
            rest % 32 + 1
        )
    })?;
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
    use crate::eval::pattern::{Linear, LINEAR_LIMIT, PATTERN_LIMIT};
    use crate::eval::pattern_file::checksum;

    fn sample() -> BigPatternWeights {
        let mut w = BigPatternWeights::default();
        let span = 2 * PATTERN_LIMIT as usize + 1;
        for (i, x) in w.tables.iter_mut().chain(w.kings.iter_mut()).enumerate() {
            *x = ((i * 7919) % span) as i16 - PATTERN_LIMIT as i16;
        }
        w.linear[Linear::KingMobility as usize] = -LINEAR_LIMIT;
        w
    }

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
        assert_eq!(FILE_LEN, 21_257_972);
        assert!(is_big_pattern_file(&bytes));
        assert!(!crate::eval::pattern_file::is_pattern_file(&bytes));
        assert_eq!(parse(&bytes).unwrap(), w);
        let default = BigPatternWeights::default();
        assert_eq!(parse(&write(&default)).unwrap(), default);
    }

    #[test]
    fn damaged_truncated_and_other_files_are_refused_with_the_reason() {
        let good = write(&sample());
        for at in [44, 1000, FILE_LEN / 2, FILE_LEN - 9, FILE_LEN - 1] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            let e = parse(&b).unwrap_err();
            assert!(
                matches!(e, PatternFileError::BadChecksum { .. }),
                "byte {at}"
            );
            assert!(e.to_string().contains("damaged"), "{e}");
        }
        let mut b = good.clone();
        b[2] = b'X';
        assert_eq!(
            parse(&b).unwrap_err().to_string(),
            "not a big pattern weights file (it does not start with \"PSBIGPAT\")"
        );
        // A small pattern file is not one.
        let small = crate::eval::pattern_file::write(&Default::default());
        assert!(matches!(
            parse(&small),
            Err(PatternFileError::BadMagic { .. })
        ));
        for v in [0u8, 2] {
            let mut b = good.clone();
            b[8] = v;
            let e = parse(&b).unwrap_err();
            assert_eq!(
                e,
                PatternFileError::BadVersion {
                    what: "big pattern weights",
                    found: v.into(),
                    expected: 1
                }
            );
            assert_eq!(
                e.to_string(),
                format!("big pattern weights version {v}, this build reads 1")
            );
        }
        let mut b = good.clone();
        b[16] = 8;
        assert!(matches!(
            parse(&b),
            Err(PatternFileError::WrongShape {
                field: "squares per window",
                found: 8,
                ..
            })
        ));
        for len in [FILE_LEN - 1, FILE_LEN / 2, 41, 20] {
            let e = parse(&good[..len]).unwrap_err();
            assert_eq!(
                e,
                PatternFileError::WrongSize {
                    what: "big pattern weights",
                    expected: FILE_LEN,
                    found: len
                }
            );
            assert!(e.to_string().contains("truncated"), "{e}");
        }
        let mut b = good.clone();
        b.push(0);
        assert!(matches!(parse(&b), Err(PatternFileError::WrongSize { .. })));
    }

    #[test]
    fn values_out_of_range_are_refused() {
        let head = LAYOUT.header_len() + 4 * LINEAR_LEN;
        let bad = (PATTERN_LIMIT as i16 + 1).to_le_bytes();
        // King value: enemy side, square 3 (index 2), phase 1.
        let mut b = write(&sample());
        let at = head + 2 * ((32 + 2) * PHASES + 1);
        b[at..at + 2].copy_from_slice(&bad);
        reseal(&mut b);
        let e = parse(&b).unwrap_err();
        assert!(
            e.to_string()
                .contains("king value (enemy, square 3, phase 1)"),
            "{e}"
        );
        // Table value: window 1, state 5, phase 0.
        let mut b = write(&sample());
        let at = head + 2 * PHASES * KING_SQUARES + 2 * ((STATES + 5) * PHASES);
        b[at..at + 2].copy_from_slice(&bad);
        reseal(&mut b);
        let e = parse(&b).unwrap_err();
        assert!(
            matches!(e, PatternFileError::OutOfRange { value, .. } if value == PATTERN_LIMIT + 1),
            "{e}"
        );
        assert!(e.to_string().contains("window 1, state 5, phase 0"), "{e}");
        let mut b = write(&sample());
        let at = LAYOUT.header_len();
        b[at..at + 4].copy_from_slice(&i32::MIN.to_le_bytes());
        reseal(&mut b);
        assert!(parse(&b).unwrap_err().to_string().contains("'man'"));
    }
}
