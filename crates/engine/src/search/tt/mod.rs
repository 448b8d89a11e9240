//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two `AtomicU64`s: the data word and the (salted) key XOR the data word. A
//! reader recomputes the key from the two and ignores the slot if it does not match, so a
//! slot torn by two writers at once is simply a miss. Slots come in buckets of four, one
//! bucket per 64-byte cache line (the buckets are aligned, so a probe touches one line).
//! Entries carry the search generation they were written in, so the table ages between
//! searches: old entries are replaced first.
//!
//! Memory. The table lives in zeroed memory that the operating system maps lazily and a
//! background thread faults in, so no search pays for it (`memory`, with `Readiness`).
//!
//! Clearing. `clear` (a new game) must not touch the memory: writing gigabytes takes
//! seconds. Instead each clear starts a new *epoch*. Every entry records the low bits of the
//! epoch it was written in (an entry of another epoch counts as empty, so replacement and
//! `hashfull` see a cleared table), and the key check is salted with a 64-bit value drawn
//! from the full epoch number, so an entry of an earlier epoch whose low bits come round
//! again still fails the key check. A clear is O(1), and the table stays in memory.

mod memory;

pub use memory::Readiness;

use crate::search::params::SearchParams;
use crate::search::score::Score;
use memory::Memory;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is a lower bound (the search failed high).
    Lower = 1,
    /// An upper bound (failed low).
    Upper = 2,
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Score as stored (`Score::to_tt` form); convert with `from_tt`.
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the position's generated move list, if any.
    pub move_index: Option<u8>,
}

/// The memory this process may use, in bytes, as its host read it (None: not known).
static MACHINE_MEMORY: OnceLock<Option<u64>> = OnceLock::new();

/// Tell the engine how much memory this process may use (the machine's RAM, or less where
/// a cgroup limits it), which bounds a table at half of it (`max_log2_here`). The host
/// calls this once, before the first table is made; a later call changes nothing.
pub fn set_machine_memory(bytes: Option<u64>) {
    let _ = MACHINE_MEMORY.set(bytes);
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The allocator refused the memory (for example under `ulimit -v`).
    NoMemory { bytes: usize },
    /// More than this machine allows: half its memory (`TranspositionTable::max_log2_here`).
    TooLarge { bytes: usize, max_bytes: usize },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::NoMemory { bytes } => {
                write!(f, "cannot allocate {} MiB for the hash table", bytes >> 20)
            }
            TableError::TooLarge { bytes, max_bytes } => write!(
                f,
                "a hash table of {} MiB is more than this machine allows (at most {} MiB, \
                 half its memory)",
                bytes >> 20,
                max_bytes >> 20
            ),
        }
    }
}

impl std::error::Error for TableError {}

const BUCKET: usize = 4;
/// The deepest depth an entry records (a deeper store is recorded at this).
pub const MAX_DEPTH: i32 = 255;
/// The move index that means "no move": above every index a move list has.
const NO_MOVE: u64 = 0xFF;
const _: () = assert!(crate::core::moves::MAX_MOVES <= NO_MOVE as usize);
/// The epoch bits of the data word (see `pack`).
const EPOCH_SHIFT: u32 = 40;
const EPOCH_MASK: u64 = (1 << 24) - 1;
#[repr(C)]
pub(crate) struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four slots in one cache line. All-zero memory is a bucket of empty slots (see `pack`),
/// which is what `memory` relies on.
#[repr(C, align(64))]
pub(crate) struct Bucket([Slot; BUCKET]);

impl Bucket {
    /// Write one word of the bucket with the 0 it holds when new: a write that faults its page
    /// in (see `memory::fault_in`). Should a search have stored into that slot first, the zero
    /// costs that one entry, whose key check then fails.
    #[inline]
    fn touch(&self) {
        self.0[0].data.store(0, Ordering::Relaxed);
    }
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);
const _: () = assert!(std::mem::align_of::<Bucket>() == 64);

// The data word, bit by bit:
//   0..16  score, i16 in `Score::to_tt` form
//  16..24  depth, u8 (clamped to 0..=255)
//  24..26  bound: 0 empty, 1 lower, 2 upper, 3 exact
//  26..32  search generation mod 64 (ageing, for replacement)
//  32..40  move index in the generated move list, 0xFF for none
//  40..64  table epoch mod 2^24 (which `clear` it was written after)
// An all-zero word is an empty slot (bound 0), which is what zeroed memory holds.
fn pack(score: Score, depth: i32, bound: Bound, generation: u8, mv: Option<u8>, epoch: u64) -> u64 {
    (score.0 as i16 as u16 as u64)
        | ((depth.clamp(0, MAX_DEPTH) as u64) << 16)
        | ((bound as u64) << 24)
        | (((generation & 63) as u64) << 26)
        | (mv.map_or(NO_MOVE, |m| m as u64) << 32)
        | ((epoch & EPOCH_MASK) << EPOCH_SHIFT)
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (data >> 32) & 0xFF;
    Some(Entry {
        score: Score(data as u16 as i16 as i32),
        depth: ((data >> 16) & 0xFF) as i32,
        bound,
        move_index: if mv == NO_MOVE { None } else { Some(mv as u8) },
    })
}

/// The key salt of an epoch: a bijective mix of the epoch number, so no two epochs share one.
fn salt(epoch: u64) -> u64 {
    let mut z = epoch.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub struct TranspositionTable {
    memory: Memory,
    /// Bucket index mask.
    mask: usize,
    generation: AtomicU8,
    /// Depth an entry loses per search it has aged, for replacement (`SearchParams`'s
    /// `tt_age_weight`, set by each search).
    age_weight: AtomicI32,
    /// How many times the table was cleared; its low bits tag each entry.
    epoch: u64,
    /// The key salt of this epoch.
    salt: u64,
}

impl TranspositionTable {
    /// The smallest table allowed: 2^16 entries.
    pub const MIN_LOG2: u32 = 16;
    /// The largest: 2^30 entries (16 GiB).
    pub const MAX_LOG2: u32 = 30;
    /// Bytes per entry.
    pub const ENTRY_BYTES: usize = 16;

    /// A table of 2^`log2_entries` entries, clamped to the allowed range. Panics if the
    /// memory cannot be had: front ends use `try_with_log2`.
    pub fn with_log2(log2_entries: u32) -> TranspositionTable {
        Self::try_with_log2(log2_entries).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of 2^`log2_entries` entries (clamped to the allowed range), or an error if it
    /// is larger than this machine allows or the allocator refuses it. Its pages are faulted
    /// in on a background thread: see `readiness`.
    pub fn try_with_log2(log2_entries: u32) -> Result<TranspositionTable, TableError> {
        let log2 = log2_entries.clamp(Self::MIN_LOG2, Self::MAX_LOG2);
        let bytes = (1usize << log2) * Self::ENTRY_BYTES;
        let max = Self::max_log2_here();
        if log2 > max {
            return Err(TableError::TooLarge {
                bytes,
                max_bytes: (1usize << max) * Self::ENTRY_BYTES,
            });
        }
        let len = (1usize << log2) / BUCKET;
        let memory = Memory::zeroed(len).ok_or(TableError::NoMemory { bytes })?;
        Ok(TranspositionTable {
            memory,
            mask: len - 1,
            generation: AtomicU8::new(0),
            age_weight: AtomicI32::new(SearchParams::default().tt_age_weight),
            epoch: 0,
            salt: salt(0),
        })
    }

    /// The largest table allowed on this machine: at most half its memory (or of its
    /// cgroup's limit, as the host told it: `set_machine_memory`), within the table's own
    /// limits. Where the memory is not known, 2^26 entries (1 GiB).
    pub fn max_log2_here() -> u32 {
        let Some(bytes) = MACHINE_MEMORY.get().copied().flatten() else {
            return 26;
        };
        let entries = (bytes / 2) / Self::ENTRY_BYTES as u64;
        let log2 = 63u32.saturating_sub(entries.max(1).leading_zeros());
        log2.clamp(Self::MIN_LOG2, Self::MAX_LOG2)
    }

    /// The largest power-of-two table that fits in `mb` mebibytes (at least the minimum).
    pub fn with_mb(mb: usize) -> TranspositionTable {
        TranspositionTable::with_log2(Self::log2_for_mb(mb))
    }

    pub fn log2_for_mb(mb: usize) -> u32 {
        let entries = (mb.clamp(1, usize::MAX >> 21) << 20) / Self::ENTRY_BYTES;
        (usize::BITS - 1 - entries.leading_zeros()).clamp(Self::MIN_LOG2, Self::MAX_LOG2)
    }

    pub fn log2_entries(&self) -> u32 {
        (self.memory.buckets().len() * BUCKET).trailing_zeros()
    }
    pub fn bytes(&self) -> usize {
        self.memory.buckets().len() * BUCKET * Self::ENTRY_BYTES
    }

    /// Whether all pages are in memory yet; `wait` on it to be sure a search will not fault
    /// any in. Shared, so a front end can wait without holding the table.
    pub fn readiness(&self) -> Arc<Readiness> {
        self.memory.readiness()
    }

    /// How much depth an entry loses for each search it has aged, when the store picks the
    /// entry of a full bucket to replace.
    pub fn set_age_weight(&self, weight: i32) {
        self.age_weight.store(weight, Ordering::Relaxed);
    }

    /// Start a new search: entries written before now age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forget everything (a new game), in O(1): a new epoch (see the module note).
    pub fn clear(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        self.salt = salt(self.epoch);
        self.generation.store(0, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.memory.buckets()[(key as usize) & self.mask]
    }

    /// The entry in `data`, if it was written in this epoch.
    #[inline]
    fn live(&self, data: u64) -> Option<Entry> {
        if data >> EPOCH_SHIFT != self.epoch & EPOCH_MASK {
            return None;
        }
        unpack(data)
    }

    /// Ask the CPU to start loading the bucket of `key` (a later `probe` then hits cache).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint; the pointer is into our own allocation.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let salted = key ^ self.salt;
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == salted {
                return self.live(data);
            }
        }
        None
    }

    pub fn store(&self, key: u64, score: Score, depth: i32, bound: Bound, mv: Option<u8>) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let salted = key ^ self.salt;
        let bucket = &self.bucket(key).0;
        let age_weight = self.age_weight.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let entry = self.live(data);
            if slot.check.load(Ordering::Relaxed) ^ data == salted {
                // Same position: keep a deeper entry from this search unless this one is exact.
                if let Some(old) = entry {
                    let same_gen = ((data >> 26) & 63) as u8 == generation;
                    if same_gen && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    let mv = mv.or(old.move_index);
                    let new = pack(score, depth, bound, generation, mv, self.epoch);
                    slot.data.store(new, Ordering::Relaxed);
                    slot.check.store(salted ^ new, Ordering::Relaxed);
                    return;
                }
                victim = i;
                break;
            }
            let value = match entry {
                None => i32::MIN,
                Some(e) => {
                    let age = (generation.wrapping_sub(((data >> 26) & 63) as u8) & 63) as i32;
                    e.depth - age_weight * age
                }
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let new = pack(score, depth, bound, generation, mv, self.epoch);
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(salted ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots written in this search (the Hub/UCI hashfull).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = (self.memory.buckets().len() * BUCKET).min(1000);
        let used = self.memory.buckets()[..n.div_ceil(BUCKET)]
            .iter()
            .flat_map(|b| &b.0)
            .take(n)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                self.live(d).is_some() && ((d >> 26) & 63) as u8 == generation
            })
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut tt = TranspositionTable::with_log2(16);
        assert!(tt.probe(12345).is_none());
        tt.store(12345, Score(-42), 7, Bound::Lower, Some(3));
        let e = tt.probe(12345).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.move_index),
            (Score(-42), 7, Bound::Lower, Some(3))
        );
        tt.store(12345, Score::win_in(5).to_tt(2), 9, Bound::Exact, None);
        let e = tt.probe(12345).unwrap();
        assert_eq!(e.score.from_tt(2), Score::win_in(5));
        assert_eq!(
            e.move_index,
            Some(3),
            "a store without a move keeps the old one"
        );
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }

    #[test]
    fn sizes() {
        assert_eq!(TranspositionTable::log2_for_mb(16), 20);
        assert_eq!(TranspositionTable::with_mb(16).bytes(), 16 << 20);
        assert_eq!(TranspositionTable::log2_for_mb(0), 16);
        assert_eq!(TranspositionTable::log2_for_mb(usize::MAX), 30);
    }

    #[test]
    fn buckets_sit_on_cache_lines() {
        for log2 in [16, 17, 20] {
            let tt = TranspositionTable::with_log2(log2);
            assert_eq!(tt.memory.buckets().as_ptr() as usize % 64, 0);
            assert_eq!(tt.memory.buckets().len() * 64, tt.bytes());
        }
    }

    #[test]
    fn the_pages_are_faulted_in_in_the_background() {
        let tt = TranspositionTable::with_log2(20);
        tt.readiness().wait();
        assert!(tt.readiness().is_ready());
        // Faulting in changes nothing: the table is still empty.
        assert_eq!(tt.hashfull(), 0);
        assert!(tt.probe(0).is_none() && tt.probe(1).is_none());
    }

    #[test]
    fn a_table_dropped_while_faulting_in_stops_the_thread() {
        let tt = TranspositionTable::with_log2(24);
        let readiness = tt.readiness();
        drop(tt);
        // The drop joined the thread, which finished (or was cancelled and finished).
        assert!(readiness.is_ready());
    }

    #[test]
    fn too_large_a_table_is_an_error() {
        let max = TranspositionTable::max_log2_here();
        if max < TranspositionTable::MAX_LOG2 {
            let err = TranspositionTable::try_with_log2(max + 1).err().unwrap();
            assert!(matches!(err, TableError::TooLarge { .. }), "{err}");
            assert!(err.to_string().contains("half its memory"), "{err}");
        }
    }

    /// A clear forgets every entry at once and without touching memory: probes miss, the
    /// replacement sees empty slots, and the table reads as empty, also after many clears.
    #[test]
    fn clear_is_a_new_epoch() {
        let mut tt = TranspositionTable::with_log2(16);
        let buckets = (1u64 << 16) / 4;
        for i in 0..4u64 {
            tt.store(5 + i * buckets, Score(1), 30, Bound::Exact, Some(1));
        }
        for i in 0..1000u64 {
            tt.store(i, Score(1), 1, Bound::Lower, None);
        }
        assert!(tt.hashfull() > 0);
        let before: Vec<u64> = tt.memory.buckets()[5]
            .0
            .iter()
            .map(|s| s.data.load(Ordering::Relaxed))
            .collect();
        tt.clear();
        // The clear wrote nothing: it costs the same at any size.
        let after: Vec<u64> = tt.memory.buckets()[5]
            .0
            .iter()
            .map(|s| s.data.load(Ordering::Relaxed))
            .collect();
        assert_eq!(before, after);
        assert_eq!(tt.hashfull(), 0);
        for i in 0..4u64 {
            assert!(tt.probe(5 + i * buckets).is_none());
        }
        // A shallow entry takes a slot of the stale deep ones, as in an empty bucket.
        tt.store(5 + 9 * buckets, Score(2), 1, Bound::Upper, None);
        assert!(tt.probe(5 + 9 * buckets).is_some());
        // The epoch tag wraps after 2^24 clears; the salt still tells the epochs apart.
        tt.store(77, Score(3), 4, Bound::Exact, None);
        let tag = tt.epoch & EPOCH_MASK;
        tt.epoch += EPOCH_MASK;
        tt.clear();
        assert_eq!(tt.epoch & EPOCH_MASK, tag);
        assert!(tt.probe(77).is_none());
    }

    #[test]
    fn the_data_word_round_trips() {
        for (score, depth, bound, mv) in [
            (Score(-32000), 0, Bound::Lower, None),
            (Score(32000), 255, Bound::Exact, Some(0)),
            (Score(0), 300, Bound::Upper, Some(254)),
        ] {
            let data = pack(score, depth, bound, 63, mv, EPOCH_MASK);
            let e = unpack(data).unwrap();
            assert_eq!(
                (e.score, e.depth, e.bound, e.move_index),
                (score, depth.min(255), bound, mv)
            );
            assert_eq!(data >> EPOCH_SHIFT, EPOCH_MASK);
            assert_eq!((data >> 26) & 63, 63);
        }
        assert!(unpack(0).is_none());
    }

    /// The last index a move list can hold reads back as that move, not as "no move".
    #[test]
    fn the_last_move_index_survives_the_table() {
        let last = (crate::core::moves::MAX_MOVES - 1) as u8;
        let tt = TranspositionTable::with_log2(16);
        tt.store(99, Score(5), 3, Bound::Exact, Some(last));
        assert_eq!(tt.probe(99).unwrap().move_index, Some(last));
    }

    #[test]
    fn old_entries_are_replaced_first() {
        let tt = TranspositionTable::with_log2(16);
        let buckets = (1u64 << 16) / 4;
        // Fill one bucket with deep entries, age them, then store a shallow one: it goes in.
        for i in 0..4u64 {
            tt.store(7 + i * buckets, Score(1), 30, Bound::Exact, None);
        }
        tt.new_search();
        tt.new_search();
        tt.new_search();
        tt.new_search();
        tt.store(7 + 9 * buckets, Score(2), 1, Bound::Exact, None);
        assert!(tt.probe(7 + 9 * buckets).is_some());
    }
}
