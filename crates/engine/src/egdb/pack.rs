//! A group's values compressed: two streams of blocks, each block compressed alone, with a
//! block index for random access.
//!
//! - The *class* stream: one byte a position, its R18 class (`value::class`).
//! - The *dtc* stream: one or two bytes a position (one when every dtc of the group fits).
//!
//! Capture positions are not stored: their value follows from their captures, which lead to
//! smaller groups, so a probe plays them (`Tables::value`), as Cake and Scan do. Their slots,
//! and the dtc slots of draws, hold whatever compresses best: here the value before them,
//! which lengthens the runs. Leaving captures out is most of the gain: in most pool endings a
//! capture is pending somewhere, and those values are the least regular.
//!
//! A block whose bytes are all the same is stored as that one byte (a zstd frame is never
//! one byte long), and read without decompressing. Other blocks are zstd frames: zstd
//! (a maintained binding of the reference C library) compresses these runs several times
//! smaller than plain run-length coding, and decompresses a block in microseconds.
//!
//! Body layout (all little-endian), after the file header of `file`:
//! `block: u32, dtc_bytes: u8, 0u8 x3, blocks: u64`, then `blocks + 1` class offsets and
//! `blocks + 1` dtc offsets (`u64`, from the start of each stream's data), then `blocks`
//! class block checksums and `blocks` dtc block checksums (`checksum` of each stored block),
//! then the class data, then the dtc data.
//!
//! The file's own checksum is checked once, when it is read; a block's is checked each time
//! the block is used, so a block damaged in memory, or in a file whose checksum was made
//! again over the damage, answers "not covered" rather than a wrong value. `Packed::parse`
//! checks the whole index (bounds and order) before any block is read: a file can hold
//! anything.

use crate::core::movegen;
use crate::egdb::index::Group;
use crate::egdb::params::{MIN_PACK_BLOCK, PACK_BLOCK, PACK_LEVEL};
use crate::egdb::value::{self, MAX_DTC};
use crate::egdb::Wdl50;
use rayon::prelude::*;
#[cfg(feature = "native")]
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

const BODY_HEADER: usize = 4 + 1 + 3 + 8;

/// FNV-1a over the data, a 64-bit word at a time (fast enough to check a file on open).
pub fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        h ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    for &b in words.remainder() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The most bytes a stored block of `raw` bytes takes: zstd's bound on a frame
/// (`ZSTD_compressBound`: `raw + raw / 256`, plus at most 64 for a small block), with room
/// to spare.
fn frame_bound(raw: u64) -> u64 {
    raw + raw / 256 + 128
}

/// The bytes of a block index of `blocks` blocks: two offset lists and two checksum lists.
fn index_len(blocks: u64) -> Option<u64> {
    blocks
        .checked_add(1)?
        .checked_mul(16)?
        .checked_add(blocks.checked_mul(16)?)
}

/// The most bytes the body of a group of `count` positions can take, whatever its block size
/// (at least `MIN_PACK_BLOCK`) and dtc width: what a file is checked against before it is
/// read.
pub fn max_body_len(count: u64) -> u64 {
    let blocks = count.div_ceil(MIN_PACK_BLOCK as u64);
    // The class stream holds one byte a position, the dtc stream at most two.
    let data = 3 * count + 3 * count / 256 + 2 * 128 * blocks;
    BODY_HEADER as u64 + index_len(blocks).unwrap_or(u64::MAX) + data
}

/// Which of a group's two streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Class = 0,
    Dtc = 1,
}

/// Does position `i` of `g` have a capture pending (and so is not stored)?
pub fn is_capture(g: Group, i: u64) -> bool {
    movegen::has_capture(&g.position(i))
}

/// The compressed body of group `g`'s `values` (capture positions left out).
pub fn pack(g: Group, values: &[u16]) -> Vec<u8> {
    pack_with(g, values, PACK_BLOCK, PACK_LEVEL)
}

/// `pack` with another block size and zstd level (for measuring them).
pub fn pack_with(g: Group, values: &[u16], block: usize, level: i32) -> Vec<u8> {
    let max_dtc = values.par_iter().map(|&v| value::dtc(v)).max().unwrap_or(0);
    let dtc_bytes: usize = if max_dtc <= 0xFF { 1 } else { 2 };
    let blocks: Vec<(Vec<u8>, Vec<u8>)> = values
        .par_chunks(block)
        .enumerate()
        .map(|(b, chunk)| {
            let base = (b * block) as u64;
            let stored: Vec<Option<u16>> = chunk
                .iter()
                .enumerate()
                .map(|(j, &v)| (!is_capture(g, base + j as u64)).then_some(v))
                .collect();
            let classes = fill(stored.iter().map(|v| v.map(|v| u16::from(class_code(v)))));
            let dtcs = fill(stored.iter().map(|v| {
                v.filter(|&v| value::class(v) != Some(Wdl50::Draw))
                    .map(value::dtc)
            }));
            let class_bytes: Vec<u8> = classes.iter().map(|&c| c as u8).collect();
            let dtc_raw: Vec<u8> = if dtc_bytes == 1 {
                dtcs.iter().map(|&d| d as u8).collect()
            } else {
                dtcs.iter().flat_map(|d| d.to_le_bytes()).collect()
            };
            (compress(&class_bytes, level), compress(&dtc_raw, level))
        })
        .collect();
    let n = blocks.len();
    let mut body = Vec::new();
    body.extend_from_slice(&(block as u32).to_le_bytes());
    body.extend_from_slice(&[dtc_bytes as u8, 0, 0, 0]);
    body.extend_from_slice(&(n as u64).to_le_bytes());
    for stream in [0, 1] {
        let mut off = 0u64;
        body.extend_from_slice(&off.to_le_bytes());
        for b in &blocks {
            off += if stream == 0 { b.0.len() } else { b.1.len() } as u64;
            body.extend_from_slice(&off.to_le_bytes());
        }
    }
    for stream in [0, 1] {
        for b in &blocks {
            let frame = if stream == 0 { &b.0 } else { &b.1 };
            body.extend_from_slice(&checksum(frame).to_le_bytes());
        }
    }
    for b in &blocks {
        body.extend_from_slice(&b.0);
    }
    for b in &blocks {
        body.extend_from_slice(&b.1);
    }
    body
}

/// A value's class as its stream byte.
fn class_code(v: u16) -> u8 {
    (v >> 13) as u8
}

/// The values with the gaps (None) filled by the value before them (the first ones by the
/// first value there is), so that gaps extend runs.
fn fill(values: impl Iterator<Item = Option<u16>> + Clone) -> Vec<u16> {
    let first = values.clone().flatten().next().unwrap_or(0);
    let mut last = first;
    values
        .map(|v| {
            if let Some(v) = v {
                last = v;
            }
            last
        })
        .collect()
}

/// One block's stored form: one byte when all its bytes are equal, else a zstd frame.
#[cfg(feature = "native")]
fn compress(raw: &[u8], level: i32) -> Vec<u8> {
    match raw.first() {
        Some(&b) if raw.iter().all(|&x| x == b) => vec![b],
        _ => zstd::bulk::compress(raw, level).expect("compressing in memory"),
    }
}

/// Without the `native` feature (the browser's build) there is no zstd: a block that is not
/// one repeated byte cannot be stored. Nothing in that build writes tables.
#[cfg(not(feature = "native"))]
fn compress(raw: &[u8], _level: i32) -> Vec<u8> {
    match raw.first() {
        Some(&b) if raw.iter().all(|&x| x == b) => vec![b],
        _ => panic!("this build has no zstd and writes no endgame tables"),
    }
}

/// `raw` as one zstd frame at `WHOLE_FILE_LEVEL` (a table file stored compressed whole
/// for the browser, which reads it back with `unzstd`).
#[cfg(feature = "native")]
pub fn zstd_whole(raw: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(raw, crate::egdb::params::WHOLE_FILE_LEVEL).expect("compressing in memory")
}

#[cfg(feature = "native")]
thread_local! {
    /// One decompression context a thread, reused (creating one costs more than a block).
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// Decompress one block into `out` (cleared first), checking its length.
fn decompress(frame: &[u8], len: usize, out: &mut Vec<u8>) -> Result<(), String> {
    out.clear();
    if frame.len() == 1 {
        out.resize(len, frame[0]);
        return Ok(());
    }
    out.reserve(len);
    inflate(frame, out)?;
    if out.len() != len {
        return Err(format!("a block of {} bytes, {len} expected", out.len()));
    }
    Ok(())
}

/// A zstd frame's bytes, appended to `out`.
#[cfg(feature = "native")]
fn inflate(frame: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        if d.is_none() {
            *d = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
        }
        let d = d.as_mut().expect("just made");
        d.decompress_to_buffer(frame, out)
            .map_err(|e| e.to_string())
    })?;
    Ok(())
}

/// Without zstd (the browser's build) a frame is decoded by ruzstd, written in Rust alone.
#[cfg(not(feature = "native"))]
fn inflate(frame: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    inflate_pure(frame, out)
}

/// A zstd frame's bytes appended to `out`, within its spare capacity, by ruzstd (the browser's
/// decoder; natively only its tests use it).
#[cfg(any(not(feature = "native"), test))]
fn inflate_pure(frame: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    ruzstd::decoding::FrameDecoder::new()
        .decode_all_to_vec(frame, out)
        .map_err(|e| format!("a block that does not decompress: {e}"))
}

/// The `len` bytes of the zstd frame `frame` (a table file stored compressed whole, as the
/// static page keeps the lone-king table), or why not.
pub fn unzstd(frame: &[u8], len: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| format!("no memory for {len} bytes"))?;
    inflate(frame, &mut out)?;
    if out.len() != len {
        return Err(format!("{} bytes decompressed, {len} expected", out.len()));
    }
    Ok(out)
}

/// A group's compressed values, as read from its file (`file::decode` checks it first).
pub struct Packed {
    group: Group,
    count: u64,
    block: u64,
    dtc_bytes: usize,
    blocks: u64,
    /// The file's bytes, the body from `start` on (kept whole: no copy of a large file).
    bytes: Vec<u8>,
    start: usize,
    /// Where each stream's offsets, checksums and data start in `bytes`.
    offsets: [usize; 2],
    sums: [usize; 2],
    data: [usize; 2],
    /// A damaged block was reported (once a group, not once a probe).
    warned: AtomicBool,
}

impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Packed({}, {} bytes)", self.group, self.bytes())
    }
}

impl Packed {
    /// Read a body made by `pack`, checking its layout (not yet the blocks themselves).
    pub fn parse(g: Group, body: Vec<u8>) -> Result<Packed, String> {
        Packed::parse_at(g, body, 0)
    }

    /// `parse` of the body that starts at `start` in `bytes` (a whole file). Every offset of
    /// the index is checked (each block inside its stream, in order, no larger than a block
    /// can be stored in, the streams filling the body exactly), so that reading a block
    /// later can never go out of bounds.
    pub fn parse_at(g: Group, bytes: Vec<u8>, start: usize) -> Result<Packed, String> {
        let body = bytes.get(start..).unwrap_or_default();
        if body.len() < BODY_HEADER {
            return Err("truncated block index".into());
        }
        let block = u64::from(u32::from_le_bytes(body[0..4].try_into().expect("4")));
        let dtc_bytes = usize::from(body[4]);
        let blocks = u64::from_le_bytes(body[8..16].try_into().expect("8"));
        if block < MIN_PACK_BLOCK as u64 || !(1..=2).contains(&dtc_bytes) {
            return Err("bad block header".into());
        }
        let count = g.size();
        if blocks != count.div_ceil(block) {
            return Err(format!("{blocks} blocks for {count} positions"));
        }
        let index = index_len(blocks)
            .filter(|&n| n <= (body.len() - BODY_HEADER) as u64)
            .ok_or("truncated block index")? as usize;
        let n = blocks as usize;
        let offsets = [start + BODY_HEADER, start + BODY_HEADER + (n + 1) * 8];
        let sums = [offsets[1] + (n + 1) * 8, offsets[1] + (n + 1) * 8 + n * 8];
        let mut p = Packed {
            group: g,
            count,
            block,
            dtc_bytes,
            blocks,
            bytes,
            start,
            offsets,
            sums,
            data: [0; 2],
            warned: AtomicBool::new(false),
        };
        p.data[0] = start + BODY_HEADER + index;
        let mut end = p.data[0] as u64;
        for s in [Stream::Class, Stream::Dtc] {
            p.data[s as usize] = end as usize;
            if p.offset(s, 0) != 0 {
                return Err("block index does not start at 0".into());
            }
            for b in 0..blocks {
                let (from, to) = (p.offset(s, b), p.offset(s, b + 1));
                if to <= from {
                    return Err("block index out of order".into());
                }
                if to - from > frame_bound(p.raw_len(s, b) as u64) {
                    return Err(format!("block {b} larger than a block can be stored in"));
                }
            }
            // Each block is at most `frame_bound` bytes: no overflow here.
            end += p.offset(s, blocks);
            if end > p.bytes.len() as u64 {
                return Err("block index points past the end of the file".into());
            }
        }
        if end != p.bytes.len() as u64 {
            return Err("block index does not match the data".into());
        }
        Ok(p)
    }

    pub fn group(&self) -> Group {
        self.group
    }

    /// The compressed size (the body's bytes).
    pub fn bytes(&self) -> usize {
        self.bytes.len() - self.start
    }

    fn word(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8"))
    }

    fn offset(&self, s: Stream, b: u64) -> u64 {
        self.word(self.offsets[s as usize] + 8 * b as usize)
    }

    /// Block `b` of stream `s` as stored, or an error when it fails its checksum.
    fn frame(&self, s: Stream, b: u64) -> Result<&[u8], String> {
        let start = self.data[s as usize] + self.offset(s, b) as usize;
        let end = self.data[s as usize] + self.offset(s, b + 1) as usize;
        let frame = &self.bytes[start..end];
        if checksum(frame) != self.word(self.sums[s as usize] + 8 * b as usize) {
            return Err("block checksum mismatch (the block is corrupt)".into());
        }
        Ok(frame)
    }

    /// The raw length of block `b` of stream `s`.
    fn raw_len(&self, s: Stream, b: u64) -> usize {
        let n = (self.count - b * self.block).min(self.block) as usize;
        match s {
            Stream::Class => n,
            Stream::Dtc => n * self.dtc_bytes,
        }
    }

    /// Block `b` of stream `s`, decompressed into `out`.
    pub fn block(&self, s: Stream, b: u64, out: &mut Vec<u8>) -> Result<(), String> {
        decompress(self.frame(s, b)?, self.raw_len(s, b), out)
    }

    /// The stored value of position `i` (a capture position's is meaningless), through
    /// `cache`. The dtc block is read only for a win or a loss.
    pub fn value(&self, i: u64, cache: &BlockCache) -> Option<u16> {
        let (b, j) = (i / self.block, (i % self.block) as usize);
        let c = self.byte(Stream::Class, b, j, cache)?;
        let class = value::class(u16::from(c) << 13)?;
        if class == Wdl50::Draw {
            return Some(value::encode(Wdl50::Draw, 0));
        }
        let d = if self.dtc_bytes == 1 {
            u16::from(self.byte(Stream::Dtc, b, j, cache)?)
        } else {
            let lo = self.byte(Stream::Dtc, b, 2 * j, cache)?;
            let hi = self.byte(Stream::Dtc, b, 2 * j + 1, cache)?;
            u16::from_le_bytes([lo, hi])
        };
        Some(value::encode(class, d.min(MAX_DTC)))
    }

    /// Byte `j` of block `b` of stream `s`.
    fn byte(&self, s: Stream, b: u64, j: usize, cache: &BlockCache) -> Option<u8> {
        let frame = match self.frame(s, b) {
            Ok(f) => f,
            Err(why) => {
                self.report(b, &why);
                return None;
            }
        };
        if frame.len() == 1 {
            return Some(frame[0]);
        }
        cache.byte(self, s, b, j)
    }

    /// Say once a group that a block of it is damaged (its probes then answer None).
    fn report(&self, b: u64, why: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            log::warn!("endgame table {}: block {b}: {why}", self.group);
        }
    }

    /// Every stored value, in index order (capture positions' meaningless).
    pub fn unpack(&self) -> Result<Vec<u16>, String> {
        let blocks: Vec<Vec<u16>> = (0..self.blocks)
            .into_par_iter()
            .map(|b| {
                let mut classes = Vec::new();
                let mut dtcs = Vec::new();
                self.block(Stream::Class, b, &mut classes)?;
                self.block(Stream::Dtc, b, &mut dtcs)?;
                classes
                    .iter()
                    .enumerate()
                    .map(|(j, &c)| {
                        let class = value::class(u16::from(c) << 13)
                            .ok_or_else(|| format!("invalid class in block {b}"))?;
                        if class == Wdl50::Draw {
                            return Ok(value::encode(Wdl50::Draw, 0));
                        }
                        let d = if self.dtc_bytes == 1 {
                            u16::from(dtcs[j])
                        } else {
                            u16::from_le_bytes([dtcs[2 * j], dtcs[2 * j + 1]])
                        };
                        Ok(value::encode(class, d.min(MAX_DTC)))
                    })
                    .collect()
            })
            .collect::<Result<_, String>>()?;
        Ok(blocks.concat())
    }
}

/// Decompressed blocks shared by the threads of a search: direct-mapped by (group, stream,
/// block), each slot behind its own lock, so probes of different blocks do not wait on each
/// other. A damaged block (one that fails its checksum or does not decompress) answers None.
pub struct BlockCache {
    slots: Vec<Mutex<Slot>>,
    /// Blocks decompressed so far (cache misses).
    misses: AtomicU64,
}

struct Slot {
    key: u64,
    data: Vec<u8>,
}

const EMPTY: u64 = u64::MAX;

impl BlockCache {
    pub fn new(slots: usize) -> BlockCache {
        BlockCache {
            slots: (0..slots.max(1))
                .map(|_| {
                    Mutex::new(Slot {
                        key: EMPTY,
                        data: Vec::new(),
                    })
                })
                .collect(),
            misses: AtomicU64::new(0),
        }
    }

    /// How many blocks have been decompressed into the cache (its misses).
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    fn byte(&self, p: &Packed, s: Stream, b: u64, j: usize) -> Option<u8> {
        let key = (p.group.id() as u64) << 41 | (s as u64) << 40 | b;
        // The product's top bits depend on every bit of the key (its low bits would ignore
        // the group and the stream, so a position's class and dtc blocks would share a slot
        // and evict each other); multiply-high maps them onto the slots.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &self.slots[((u128::from(h) * self.slots.len() as u128) >> 64) as usize];
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.key != key {
            slot.key = EMPTY;
            self.misses.fetch_add(1, Ordering::Relaxed);
            if let Err(why) = p.block(s, b, &mut slot.data) {
                p.report(b, &why);
                return None;
            }
            slot.key = key;
        }
        slot.data.get(j).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_take_the_value_before_them() {
        let v = [None, Some(3), None, None, Some(5), None];
        assert_eq!(fill(v.iter().copied()), vec![3, 3, 3, 3, 5, 5]);
        assert_eq!(fill([None, None].iter().copied()), vec![0, 0]);
    }

    #[test]
    fn blocks_round_trip() {
        let mut out = Vec::new();
        for raw in [vec![7u8; 1000], (0..=255).collect::<Vec<u8>>(), vec![1]] {
            decompress(&compress(&raw, PACK_LEVEL), raw.len(), &mut out).unwrap();
            assert_eq!(out, raw);
        }
        assert!(decompress(&compress(&[1, 2, 3, 1, 2, 3], 1), 5, &mut out).is_err());
        assert!(decompress(&[1, 2, 3], 3, &mut out).is_err());
    }

    /// The browser's decoder (ruzstd) reads every frame the builder's zstd writes: runs as
    /// the tables have them, noise, and a large frame, at the tables' level and others.
    #[test]
    fn the_browsers_decoder_reads_what_zstd_writes() {
        let mut rng = crate::core::rng::SplitMix64::new(9);
        let runs: Vec<u8> = (0..200_000)
            .map(|i| {
                if (i / 37) % 5 == 0 {
                    2
                } else {
                    (i / 1000) as u8
                }
            })
            .collect();
        let noise: Vec<u8> = (0..70_000).map(|_| rng.next_u64() as u8).collect();
        for raw in [runs, noise, (0..=255).collect::<Vec<u8>>()] {
            for level in [1, PACK_LEVEL, 19] {
                let frame = compress(&raw, level);
                let mut out = Vec::with_capacity(raw.len());
                inflate_pure(&frame, &mut out).unwrap();
                assert_eq!(out, raw, "level {level}");
                assert_eq!(unzstd(&frame, raw.len()).unwrap(), raw);
                assert!(
                    unzstd(&frame, raw.len() + 1).is_err(),
                    "a length that is not the frame's"
                );
            }
        }
        assert!(inflate_pure(&[0x28, 0xb5, 0x2f, 0xfd, 1, 2], &mut Vec::with_capacity(9)).is_err());
    }

    /// A working set far smaller than the cache stays in it: a second pass over the same
    /// positions decompresses nothing (a slot hash that ignored the stream or the group put a
    /// block's class and dtc halves in one slot, to evict each other on every probe).
    #[test]
    fn a_small_working_set_stays_cached() {
        let g = Group::parse("b02w01").expect("a group");
        let mut rng = crate::core::rng::SplitMix64::new(5);
        let values: Vec<u16> = (0..g.size())
            .map(|_| {
                let class = if rng.next_u64() & 1 == 0 {
                    Wdl50::Win
                } else {
                    Wdl50::Loss
                };
                value::encode(class, (rng.next_u64() % 40) as u16)
            })
            .collect();
        let p = Packed::parse(g, pack_with(g, &values, 256, 1)).expect("parses");
        let stored: Vec<u64> = (0..g.size())
            .filter(|&i| !is_capture(g, i))
            .step_by(97)
            .take(40)
            .collect();
        assert!(stored.len() > 10);
        let cache = BlockCache::new(4096);
        for &i in &stored {
            assert_eq!(p.value(i, &cache), Some(values[i as usize]));
        }
        let first = cache.misses();
        assert!(first > 0);
        for &i in &stored {
            assert_eq!(p.value(i, &cache), Some(values[i as usize]));
        }
        assert_eq!(cache.misses(), first, "the second pass missed");
    }
}
