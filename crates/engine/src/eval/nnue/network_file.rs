//! The network file: binary, little-endian, the quantized network (`network::Network`).
//!
//! ```text
//! offset  size      field
//! 0       8         magic "PSNNUE01"
//! 8       4         version (1)
//! 12      4         hidden (a multiple of 16, at most MAX_HIDDEN), 16: inputs (128),
//! 20      4         buckets (4), 24: QA (127), 28: QB (64)
//! 32      4         scale, f32 (hundredths of a man per output unit)
//! 36      2*128*H   w1, i16, feature by feature
//! ..      2*H       b1, i16
//! ..      2*4*2H    w2, i16, bucket by bucket
//! ..      4*4       b2, i32
//! end-8   8         FNV-1a 64 of every byte before it
//! ```
//!
//! Reading checks, in this order, the magic, the version, the shape, the size, the checksum
//! and every value's range (and that the scale is a positive number), and names the first
//! thing wrong. The checksum is `crate::checksum`'s FNV-1a.

use super::network::{Network, W1_MAX, W2_MAX};
use super::{BUCKETS, INPUTS, MAX_HIDDEN, QA, QB};
use crate::checksum::fnv1a as checksum;
use std::fmt;

pub const MAGIC: &[u8; 8] = b"PSNNUE01";
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 36;
/// The largest scale a file may carry (a hundred men per output unit).
pub const SCALE_LIMIT: f32 = 10_000.0;

/// The size of a valid file for width `hidden`.
pub fn file_len(hidden: usize) -> usize {
    HEADER_LEN + 2 * (INPUTS * hidden + hidden + BUCKETS * 2 * hidden) + 4 * BUCKETS + 8
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NnueFileError {
    BadMagic,
    BadVersion(u32),
    /// The hidden width is not a multiple of 16 within `MAX_HIDDEN`.
    BadHidden(u32),
    /// Inputs, buckets, QA or QB are not this build's.
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
    /// The scale (its bits) is not a number in (0, `SCALE_LIMIT`].
    BadScale(u32),
    OutOfRange {
        what: String,
        value: i32,
        limit: i32,
    },
}

impl fmt::Display for NnueFileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NnueFileError::BadMagic => write!(
                f,
                "not a network file (it does not start with {:?})",
                std::str::from_utf8(MAGIC).unwrap_or_default()
            ),
            NnueFileError::BadVersion(v) => {
                write!(f, "network file version {v}, this build reads {VERSION}")
            }
            NnueFileError::BadHidden(h) => write!(
                f,
                "hidden width {h}: it must be a multiple of 16 from 16 to {MAX_HIDDEN}"
            ),
            NnueFileError::WrongShape {
                field,
                expected,
                found,
            } => write!(f, "network {field} is {found}, this build has {expected}"),
            NnueFileError::WrongSize { expected, found } => write!(
                f,
                "{found} bytes, this network file should have {expected} (truncated or padded?)"
            ),
            NnueFileError::BadChecksum { expected, found } => write!(
                f,
                "checksum {found:016x} does not match the contents ({expected:016x}): the file is damaged"
            ),
            NnueFileError::BadScale(bits) => {
                let s = f32::from_bits(*bits);
                write!(f, "scale {s} is not a number above 0 and at most {SCALE_LIMIT}")
            }
            NnueFileError::OutOfRange { what, value, limit } => {
                write!(f, "{what} is {value}, beyond the limit of +-{limit}")
            }
        }
    }
}

impl std::error::Error for NnueFileError {}

/// Whether `bytes` start as a network file does.
pub fn is_network_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn shape() -> [(&'static str, u32); 4] {
    [
        ("inputs", INPUTS as u32),
        ("buckets", BUCKETS as u32),
        ("QA", QA as u32),
        ("QB", QB as u32),
    ]
}

/// The file's bytes.
pub fn write(n: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_len(n.hidden()));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(n.hidden() as u32).to_le_bytes());
    for (_, v) in shape() {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&n.scale().to_le_bytes());
    for x in n.w1().chain(n.b1()).chain(n.w2()) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for x in n.b2() {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// `count` i16 values from `at`, each within `limit`; `name(i)` says which one is not.
fn i16s(
    b: &[u8],
    at: usize,
    count: usize,
    limit: i32,
    name: impl Fn(usize) -> String,
) -> Result<Vec<i16>, NnueFileError> {
    let mut v = Vec::with_capacity(count);
    for i in 0..count {
        let x = i16::from_le_bytes([b[at + 2 * i], b[at + 2 * i + 1]]);
        if (x as i32).abs() > limit {
            return Err(NnueFileError::OutOfRange {
                what: name(i),
                value: x as i32,
                limit,
            });
        }
        v.push(x);
    }
    Ok(v)
}

/// Read the file's bytes (see the module notes for what is checked).
pub fn parse(b: &[u8]) -> Result<Network, NnueFileError> {
    if !is_network_file(b) {
        return Err(NnueFileError::BadMagic);
    }
    if b.len() < HEADER_LEN {
        return Err(NnueFileError::WrongSize {
            expected: HEADER_LEN,
            found: b.len(),
        });
    }
    let version = u32_at(b, 8);
    if version != VERSION {
        return Err(NnueFileError::BadVersion(version));
    }
    let h = u32_at(b, 12);
    if h == 0 || !h.is_multiple_of(16) || h as usize > MAX_HIDDEN {
        return Err(NnueFileError::BadHidden(h));
    }
    let hidden = h as usize;
    for (i, (field, expected)) in shape().into_iter().enumerate() {
        let found = u32_at(b, 16 + 4 * i);
        if found != expected {
            return Err(NnueFileError::WrongShape {
                field,
                expected,
                found,
            });
        }
    }
    let len = file_len(hidden);
    if b.len() != len {
        return Err(NnueFileError::WrongSize {
            expected: len,
            found: b.len(),
        });
    }
    let (body, tail) = b.split_at(len - 8);
    let found = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let expected = checksum(body);
    if found != expected {
        return Err(NnueFileError::BadChecksum { expected, found });
    }
    let scale = f32::from_le_bytes(b[32..36].try_into().expect("4 bytes"));
    if !(scale > 0.0 && scale <= SCALE_LIMIT) {
        return Err(NnueFileError::BadScale(scale.to_bits()));
    }
    let mut at = HEADER_LEN;
    let w1 = i16s(b, at, INPUTS * hidden, W1_MAX, |i| {
        format!("w1 (feature {}, unit {})", i / hidden, i % hidden)
    })?;
    at += 2 * w1.len();
    let b1 = i16s(b, at, hidden, W1_MAX, |i| format!("b1 (unit {i})"))?;
    at += 2 * b1.len();
    let w2 = i16s(b, at, BUCKETS * 2 * hidden, W2_MAX, |i| {
        format!(
            "w2 (bucket {}, input {})",
            i / (2 * hidden),
            i % (2 * hidden)
        )
    })?;
    at += 2 * w2.len();
    let b2 = std::array::from_fn(|i| u32_at(b, at + 4 * i) as i32);
    Ok(Network::from_parts(hidden, scale, &w1, &b1, &w2, b2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::trained_like;

    fn reseal(b: &mut [u8]) {
        let n = b.len();
        let sum = checksum(&b[..n - 8]);
        b[n - 8..].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn round_trip() {
        for hidden in [16, 64] {
            let n = trained_like(hidden, 7).quantize();
            let bytes = write(&n);
            assert_eq!(bytes.len(), file_len(hidden));
            assert!(is_network_file(&bytes));
            let back = parse(&bytes).unwrap();
            assert_eq!(back, n);
            assert_eq!(write(&back), bytes);
            let pos = crate::core::Position::start();
            assert_eq!(back.evaluate(&pos), n.evaluate(&pos));
        }
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let good = write(&trained_like(32, 8).quantize());
        let len = good.len();
        for at in [40, 1000, len / 2, len - 20, len - 9, len - 1] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            let e = parse(&b).unwrap_err();
            assert!(matches!(e, NnueFileError::BadChecksum { .. }), "byte {at}");
            assert!(e.to_string().contains("damaged"));
        }
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(parse(&b), Err(NnueFileError::BadMagic));
        assert!(!is_network_file(&b));
        assert!(!is_network_file(crate::eval::weights::BUILTIN.as_bytes()));
        assert_eq!(parse(b"PSPATTRN"), Err(NnueFileError::BadMagic));
        let mut b = good.clone();
        b[8] = 2;
        assert_eq!(parse(&b), Err(NnueFileError::BadVersion(2)));
        assert!(parse(&b)
            .unwrap_err()
            .to_string()
            .contains("version 2, this build reads 1"));
        for h in [0u32, 24, 528] {
            let mut b = good.clone();
            b[12..16].copy_from_slice(&h.to_le_bytes());
            assert_eq!(parse(&b), Err(NnueFileError::BadHidden(h)));
        }
        let mut b = good.clone();
        b[12..16].copy_from_slice(&64u32.to_le_bytes());
        assert!(matches!(parse(&b), Err(NnueFileError::WrongSize { .. })));
        let mut b = good.clone();
        b[24] = 100;
        let e = parse(&b).unwrap_err();
        assert_eq!(
            e,
            NnueFileError::WrongShape {
                field: "QA",
                expected: 127,
                found: 100
            }
        );
        assert_eq!(e.to_string(), "network QA is 100, this build has 127");
        for cut in [len - 1, len / 2, 37, 36] {
            assert_eq!(
                parse(&good[..cut]),
                Err(NnueFileError::WrongSize {
                    expected: len,
                    found: cut
                })
            );
        }
        assert!(matches!(
            parse(&good[..20]),
            Err(NnueFileError::WrongSize { .. })
        ));
        let mut b = good.clone();
        b.push(0);
        assert!(parse(&b)
            .unwrap_err()
            .to_string()
            .contains("truncated or padded"));
    }

    #[test]
    fn values_out_of_range_are_refused() {
        let good = write(&trained_like(16, 9).quantize());
        let hidden = 16;
        let mut b = good.clone();
        let at = HEADER_LEN + 2 * (3 * hidden + 5);
        b[at..at + 2].copy_from_slice(&(W1_MAX as i16 + 1).to_le_bytes());
        reseal(&mut b);
        let e = parse(&b).unwrap_err();
        assert_eq!(
            e.to_string(),
            "w1 (feature 3, unit 5) is 252, beyond the limit of +-251"
        );
        let mut b = good.clone();
        let at = HEADER_LEN + 2 * (INPUTS * hidden + hidden + 2 * hidden + 1);
        b[at..at + 2].copy_from_slice(&(-129i16).to_le_bytes());
        reseal(&mut b);
        let e = parse(&b).unwrap_err();
        assert_eq!(
            e.to_string(),
            "w2 (bucket 1, input 1) is -129, beyond the limit of +-128"
        );
        for s in [f32::NAN, 0.0, -5.0, 1e6] {
            let mut b = good.clone();
            b[32..36].copy_from_slice(&s.to_le_bytes());
            reseal(&mut b);
            assert!(matches!(parse(&b), Err(NnueFileError::BadScale(_))), "{s}");
        }
    }
}
