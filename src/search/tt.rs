//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two `AtomicU64`s: the data word and the key XOR the data word. A reader
//! recomputes the key from the two and ignores the slot if it does not match, so a slot torn
//! by two writers at once is simply a miss. Slots come in buckets of four (one cache line).
//! Entries carry the search generation they were written in, so the table ages between
//! searches: old entries are replaced first.

use crate::search::score::Score;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

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

const BUCKET: usize = 4;
const NO_MOVE: u64 = 0xFF;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: AtomicU8,
}

// data layout: score i16 [0..16) | depth u8 [16..24) | bound [24..26) | generation 6 bits
// [26..32) | move index [32..40)
fn pack(score: Score, depth: i32, bound: Bound, generation: u8, mv: Option<u8>) -> u64 {
    (score.0 as i16 as u16 as u64)
        | ((depth.clamp(0, 255) as u64) << 16)
        | ((bound as u64) << 24)
        | (((generation & 63) as u64) << 26)
        | (mv.map_or(NO_MOVE, |m| m as u64) << 32)
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

/// `n` empty slots from zeroed memory: the operating system hands out zero pages lazily, so
/// even a table of gigabytes is ready at once (filling it slot by slot took seconds).
fn zeroed_slots(n: usize) -> Result<Vec<Slot>, std::collections::TryReserveError> {
    let layout = match std::alloc::Layout::array::<Slot>(n) {
        Ok(l) if l.size() > 0 => l,
        // Let Vec report the impossible size in its own error type.
        _ => {
            return Vec::<Slot>::new()
                .try_reserve_exact(usize::MAX)
                .map(|_| Vec::new())
        }
    };
    // SAFETY: the layout has a non-zero size; an all-zero `Slot` is two `AtomicU64` holding 0,
    // a valid value; the Vec takes ownership of exactly this allocation (same layout, length
    // and capacity `n`), so it frees it correctly.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Slot;
        if ptr.is_null() {
            return Vec::<Slot>::new()
                .try_reserve_exact(usize::MAX)
                .map(|_| Vec::new());
        }
        advise_huge_pages(ptr as *mut u8, layout.size());
        Ok(Vec::from_raw_parts(ptr, n, n))
    }
}

/// Ask Linux to back the table with transparent huge pages (2 MiB) where it can. Every probe
/// lands on a random page, so with 4 KiB pages nearly every one also misses the TLB and walks
/// the page tables; with huge pages a 64 MiB table needs 32 TLB entries instead of 16,384.
/// Where THP is `madvise`-only (a common default) nothing happens without this call. It is
/// only advice: on failure, or on other systems, the table works the same, just slower.
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        extern "C" {
            fn madvise(
                addr: *mut std::ffi::c_void,
                len: usize,
                advice: std::ffi::c_int,
            ) -> std::ffi::c_int;
        }
        // The whole huge pages inside the allocation (madvise wants an aligned start).
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + bytes) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside our own live allocation, and MADV_HUGEPAGE only
            // changes how its pages are backed, never their contents.
            unsafe { madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes);
}

impl TranspositionTable {
    /// The smallest table allowed: 2^16 entries.
    pub const MIN_LOG2: u32 = 16;
    /// The largest: 2^30 entries (16 GiB).
    pub const MAX_LOG2: u32 = 30;
    /// Bytes per entry.
    pub const ENTRY_BYTES: usize = 16;

    /// A table of 2^`log2_entries` entries, clamped to the allowed range.
    pub fn with_log2(log2_entries: u32) -> TranspositionTable {
        Self::try_with_log2(log2_entries).unwrap_or_else(|e| panic!("transposition table: {e}"))
    }

    /// Like `with_log2`, but a table the allocator refuses is an error instead of an abort,
    /// so a protocol front end can keep its old table and carry on.
    pub fn try_with_log2(
        log2_entries: u32,
    ) -> Result<TranspositionTable, std::collections::TryReserveError> {
        let n = 1usize << log2_entries.clamp(Self::MIN_LOG2, Self::MAX_LOG2);
        let slots = zeroed_slots(n)?;
        Ok(TranspositionTable {
            slots,
            mask: n / BUCKET - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// The largest power-of-two table that fits in `mb` mebibytes (at least the minimum).
    pub fn with_mb(mb: usize) -> TranspositionTable {
        TranspositionTable::with_log2(Self::log2_for_mb(mb))
    }

    pub fn log2_for_mb(mb: usize) -> u32 {
        let entries = (mb.max(1) << 20) / Self::ENTRY_BYTES;
        (usize::BITS - 1 - entries.leading_zeros()).clamp(Self::MIN_LOG2, Self::MAX_LOG2)
    }

    pub fn log2_entries(&self) -> u32 {
        self.slots.len().trailing_zeros()
    }
    pub fn bytes(&self) -> usize {
        self.slots.len() * Self::ENTRY_BYTES
    }

    /// Start a new search: entries written before now age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forget everything (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let b = (key as usize) & self.mask;
        &self.slots[b * BUCKET..b * BUCKET + BUCKET]
    }

    /// Ask the CPU to start loading the bucket of `key` (a later `probe` then hits cache).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = (key as usize) & self.mask;
            let ptr = self.slots[b * BUCKET..].as_ptr() as *const i8;
            // SAFETY: prefetching is only a hint; the pointer is into our own allocation.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    pub fn store(&self, key: u64, score: Score, depth: i32, bound: Bound, mv: Option<u8>) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let stored_key = slot.check.load(Ordering::Relaxed) ^ data;
            if stored_key == key {
                // Same position: keep a deeper entry from this search unless this one is exact.
                if let Some(old) = unpack(data) {
                    let same_gen = ((data >> 26) & 63) as u8 == generation;
                    if same_gen && old.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    let mv = mv.or(old.move_index);
                    let new = pack(score, depth, bound, generation, mv);
                    slot.data.store(new, Ordering::Relaxed);
                    slot.check.store(key ^ new, Ordering::Relaxed);
                    return;
                }
                victim = i;
                break;
            }
            let value = match unpack(data) {
                None => i32::MIN,
                Some(e) => {
                    let age = (generation.wrapping_sub(((data >> 26) & 63) as u8) & 63) as i32;
                    e.depth - 8 * age
                }
            };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let new = pack(score, depth, bound, generation, mv);
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots written in this search (the Hub/UCI hashfull).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                unpack(d).is_some() && ((d >> 26) & 63) as u8 == generation
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
        let tt = TranspositionTable::with_log2(16);
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
