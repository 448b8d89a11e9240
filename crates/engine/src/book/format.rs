//! The book file format (books/README.md): a header, entries sorted by key, a checksum.
//!
//! All numbers are little-endian. Header: the magic `PSBOOK\r\n`, the version (u32) and the
//! entry count (u32). Each entry: the position's Zobrist key (u64), its move count (u8), then
//! per move the origin and destination square indices (u8 each), the captured set (u32) and
//! the minimaxed score (i16, hundredths of a man, from the side to move). Last, the FNV-1a
//! 64-bit hash of every byte before it, so a truncated or altered file is refused.

use crate::book::{Book, BookMove};
use crate::core::{Bitboard, Move, Square};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"PSBOOK\r\n";
pub const VERSION: u32 = 1;
const HEADER: usize = 16;
const MOVE_BYTES: usize = 8;

/// Why a book could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    Io(String),
    NotABook,
    Version(u32),
    Truncated,
    Checksum,
    Corrupt(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read the book: {e}"),
            BookError::NotABook => write!(f, "not a poolshark book (bad magic)"),
            BookError::Version(v) => write!(f, "book version {v}, this engine reads {VERSION}"),
            BookError::Truncated => write!(f, "the book file is truncated"),
            BookError::Checksum => {
                write!(
                    f,
                    "the book's checksum does not match (truncated or corrupt file)"
                )
            }
            BookError::Corrupt(why) => write!(f, "corrupt book: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

pub fn encode(book: &Book) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + book.len() * 40 + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(book.len() as u32).to_le_bytes());
    for (key, moves) in book.entries() {
        out.extend_from_slice(&key.to_le_bytes());
        out.push(moves.len() as u8);
        for m in moves {
            out.push(m.mv.from.index() as u8);
            out.push(m.mv.to.index() as u8);
            out.extend_from_slice(&m.mv.captured.0.to_le_bytes());
            out.extend_from_slice(&m.score.to_le_bytes());
        }
    }
    let sum = crate::checksum::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) {
            BookError::Truncated
        } else {
            BookError::NotABook
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(BookError::NotABook);
    }
    if bytes.len() < HEADER + 8 {
        return Err(BookError::Truncated);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(BookError::Version(version));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if crate::checksum::fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err(BookError::Checksum);
    }
    let count = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut r = Reader {
        bytes: body,
        at: HEADER,
    };
    let mut book = Book::new();
    for _ in 0..count {
        let key = u64::from_le_bytes(r.take(8)?.try_into().unwrap());
        let n = r.take(1)?[0] as usize;
        let mut moves = Vec::with_capacity(n);
        for _ in 0..n {
            let b = r.take(MOVE_BYTES)?;
            let square = |i: u8| {
                (i < 32)
                    .then(|| Square::new(i))
                    .ok_or_else(|| BookError::Corrupt(format!("square index {i}")))
            };
            let mv = Move {
                from: square(b[0])?,
                to: square(b[1])?,
                captured: Bitboard(u32::from_le_bytes(b[2..6].try_into().unwrap())),
            };
            let score = i16::from_le_bytes(b[6..8].try_into().unwrap());
            moves.push(BookMove { mv, score });
        }
        book.insert(key, moves);
    }
    if r.at != body.len() {
        return Err(BookError::Corrupt(format!(
            "{} bytes after the last entry",
            body.len() - r.at
        )));
    }
    if book.len() != count {
        return Err(BookError::Corrupt("the same key twice".into()));
    }
    Ok(book)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BookError> {
        let s = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or_else(|| BookError::Corrupt("an entry runs past the end".into()))?;
        self.at += n;
        Ok(s)
    }
}
