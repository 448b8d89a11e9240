//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two `AtomicU64`s: the data word and the (salted) key XOR the data word. A
//! reader recomputes the key from the two and ignores the slot if it does not match, so a
//! slot torn by two writers at once is simply a miss. Slots come in buckets of four, one
//! bucket per 64-byte cache line (the buckets are aligned, so a probe touches one line).
//! Entries carry the search generation they were written in, so the table ages between
//! searches: old entries are replaced first.
//!
//! Memory. The table comes from zeroed memory that the operating system maps lazily, so
//! allocating even gigabytes is instant. Left at that, the pages would be faulted in by the
//! first search, almost all of it kernel time charged to that search's clock. So a
//! background thread faults every page in as soon as the table is made (`readiness`), and a
//! search waits for it before its clock starts; the Hub answers `ready` only once it is done.
//!
//! Clearing. `clear` (a new game) must not touch the memory: writing gigabytes takes
//! seconds. Instead each clear starts a new *epoch*. Every entry records the low bits of the
//! epoch it was written in (an entry of another epoch counts as empty, so replacement and
//! `hashfull` see a cleared table), and the key check is salted with a 64-bit value drawn
//! from the full epoch number, so an entry of an earlier epoch whose low bits come round
//! again still fails the key check. A clear is O(1), and the table stays in memory.

use crate::search::score::Score;
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

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
const NO_MOVE: u64 = 0xFF;
/// The epoch bits of the data word (see `pack`).
const EPOCH_SHIFT: u32 = 40;
const EPOCH_MASK: u64 = (1 << 24) - 1;
/// Pages are faulted in by chunks of this size, so a cancel is seen within one chunk.
const PREFAULT_CHUNK: usize = 2 << 20;
/// The most threads that fault pages in (the kernel's zeroing is bound by memory bandwidth).
const PREFAULT_THREADS: usize = 8;
/// A page: touching one word in each faults the whole page in.
const PAGE: usize = 4096;

#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four slots in one cache line.
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET]);

const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);
const _: () = assert!(std::mem::align_of::<Bucket>() == 64);
const _: () = assert!(PAGE.is_multiple_of(std::mem::size_of::<Bucket>()));

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
        | ((depth.clamp(0, 255) as u64) << 16)
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

/// The table's memory: zeroed, mapped lazily by the operating system, with the buckets
/// aligned to a cache line.
///
/// Asking the allocator for 64-byte alignment directly would lose the lazy zeroing: Rust's
/// system allocator zeroes over-aligned memory by writing it, which touches every page. So
/// this asks for ordinary alignment (served by `calloc`, which gets fresh zero pages from the
/// kernel for large sizes) with 64 bytes to spare, and starts the buckets at the first
/// 64-byte boundary inside.
struct Memory {
    raw: NonNull<u8>,
    layout: Layout,
    buckets: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the memory is owned by `Memory` alone and only reached through atomics.
unsafe impl Send for Memory {}
// SAFETY: as above: all access to the buckets is through atomic operations.
unsafe impl Sync for Memory {}

impl Memory {
    fn zeroed(len: usize) -> Option<Memory> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let layout = Layout::from_size_align(bytes.checked_add(64)?, 16).ok()?;
        // SAFETY: the layout has a non-zero size.
        let raw = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: the offset is below 64 and the allocation has 64 bytes to spare, so the
        // buckets lie inside it.
        let start = unsafe { raw.as_ptr().add(offset) } as *mut Bucket;
        advise_huge_pages(start as *mut u8, bytes);
        Some(Memory {
            raw,
            layout,
            buckets: NonNull::new(start)?,
            len,
        })
    }

    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `buckets` is aligned and points to `len` buckets inside our live
        // allocation; zeroed memory is a valid `Bucket` (atomics holding 0), and all writes
        // go through atomics, so shared references are sound.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `alloc_zeroed` with this very layout.
        unsafe { std::alloc::dealloc(self.raw.as_ptr(), self.layout) };
    }
}

/// Ask Linux to back the table with transparent huge pages (2 MiB) where it can. Every probe
/// lands on a random page, so with 4 KiB pages nearly every one also misses the TLB and walks
/// the page tables; with huge pages a 64 MiB table needs 32 TLB entries instead of 16,384.
/// Where THP is `madvise`-only (a common default) nothing happens without this call. It is
/// only advice: on failure, or on other systems, the table works the same, just slower. It
/// must come before the pages are faulted in.
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

/// Whether a table's pages are all in memory: set by the thread that faults them in.
pub struct Readiness {
    done: Mutex<bool>,
    changed: Condvar,
    /// Set when the table is dropped: the faulting thread stops at its next chunk.
    cancel: AtomicBool,
}

impl Readiness {
    fn new() -> Readiness {
        Readiness {
            done: Mutex::new(false),
            changed: Condvar::new(),
            cancel: AtomicBool::new(false),
        }
    }

    fn finish(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    pub fn is_ready(&self) -> bool {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wait until the table is ready.
    pub fn wait(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = self.changed.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Wait at most `limit`; whether the table is ready.
    pub fn wait_for(&self, limit: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (done, _) = self
            .changed
            .wait_timeout_while(done, limit, |d| !*d)
            .unwrap_or_else(|e| e.into_inner());
        *done
    }
}

/// The buckets, for the thread that faults them in.
struct Pages {
    start: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the pointer is only used while the table that owns the memory waits for the
// thread to end (`TranspositionTable::drop` joins it), and only through atomics.
unsafe impl Send for Pages {}

impl Pages {
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: see `Memory::buckets`; the memory outlives this thread (see above).
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

/// Write-fault every page of `buckets`, by chunks taken in turn by `threads` threads, until
/// done or cancelled. It must be a write: a read maps the shared zero page and faults again
/// on the first store (and an atomic OR with 0 is compiled to a read). The word written is
/// the data word of a slot, with 0, which it already holds: the table is new and searches
/// wait for it to be ready. Should a search store first all the same (a stop cuts its wait
/// short), the zero costs that entry and nothing else, since the key check then fails.
fn fault_in(buckets: &[Bucket], threads: usize, cancel: &AtomicBool) {
    let per_page = PAGE / std::mem::size_of::<Bucket>();
    let per_chunk = PREFAULT_CHUNK / std::mem::size_of::<Bucket>();
    let chunks = buckets.len().div_ceil(per_chunk);
    let next = AtomicUsize::new(0);
    let work = || loop {
        let c = next.fetch_add(1, Ordering::Relaxed);
        if c >= chunks || cancel.load(Ordering::Relaxed) {
            return;
        }
        let chunk = &buckets[c * per_chunk..((c + 1) * per_chunk).min(buckets.len())];
        // The buckets start at a 64-byte boundary, not a page boundary, so touch the last
        // bucket too: it may lie on one page more.
        for b in chunk.iter().step_by(per_page).chain(chunk.last()) {
            b.0[0].data.store(0, Ordering::Relaxed);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            if std::thread::Builder::new()
                .name("tt-prefault".into())
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
        }
        work();
    });
}

pub struct TranspositionTable {
    memory: Memory,
    /// Bucket index mask.
    mask: usize,
    generation: AtomicU8,
    /// How many times the table was cleared; its low bits tag each entry.
    epoch: u64,
    /// The key salt of this epoch.
    salt: u64,
    readiness: Arc<Readiness>,
    prefault: Option<JoinHandle<()>>,
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        self.readiness.cancel.store(true, Ordering::Relaxed);
        if let Some(handle) = self.prefault.take() {
            let _ = handle.join();
        }
    }
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
        let readiness = Arc::new(Readiness::new());
        let pages = Pages {
            start: memory.buckets,
            len,
        };
        let signal = Arc::clone(&readiness);
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(PREFAULT_THREADS);
        let spawned = std::thread::Builder::new()
            .name("tt-prefault".into())
            .spawn(move || {
                let pages = pages;
                fault_in(pages.buckets(), threads, &signal.cancel);
                signal.finish();
            });
        let prefault = match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                // No thread to spare: fault the pages in here rather than in a search.
                log::warn!("hash table: no thread to fault it in ({e}); doing it now");
                fault_in(memory.buckets(), 1, &readiness.cancel);
                readiness.finish();
                None
            }
        };
        Ok(TranspositionTable {
            memory,
            mask: len - 1,
            generation: AtomicU8::new(0),
            epoch: 0,
            salt: salt(0),
            readiness,
            prefault,
        })
    }

    /// The largest table allowed on this machine: at most half its memory (or of its
    /// cgroup's limit), within the table's own limits. Where the memory cannot be read,
    /// 2^26 entries (1 GiB).
    pub fn max_log2_here() -> u32 {
        static MAX: OnceLock<u32> = OnceLock::new();
        *MAX.get_or_init(|| {
            let Some(bytes) = crate::machine::memory_bytes() else {
                return 26;
            };
            let entries = (bytes / 2) / Self::ENTRY_BYTES as u64;
            let log2 = 63u32.saturating_sub(entries.max(1).leading_zeros());
            log2.clamp(Self::MIN_LOG2, Self::MAX_LOG2)
        })
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
        (self.memory.len * BUCKET).trailing_zeros()
    }
    pub fn bytes(&self) -> usize {
        self.memory.len * BUCKET * Self::ENTRY_BYTES
    }

    /// Whether all pages are in memory yet; `wait` on it to be sure a search will not fault
    /// any in. Shared, so a front end can wait without holding the table.
    pub fn readiness(&self) -> Arc<Readiness> {
        Arc::clone(&self.readiness)
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
                    e.depth - 8 * age
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
        let n = (self.memory.len * BUCKET).min(1000);
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
            assert_eq!(tt.memory.buckets.as_ptr() as usize % 64, 0);
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
