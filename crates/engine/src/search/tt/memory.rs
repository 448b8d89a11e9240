//! The memory a transposition table lives in: one zeroed allocation of cache-line-aligned
//! buckets, backed by huge pages where Linux allows, and faulted in by a background thread.
//!
//! The memory comes from zeroed pages that the operating system maps lazily, so allocating
//! even gigabytes is instant. Left at that, the pages would be faulted in by the first
//! search, almost all of it kernel time charged to that search's clock. So a background
//! thread faults every page in as soon as the memory is had (`Readiness`), and a search
//! waits for it before its clock starts; the Hub answers `ready` only once it is done.
//! Dropping the memory cancels that thread and joins it before the pages are freed.

use super::Bucket;
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Pages are faulted in by chunks of this size, so a cancel is seen within one chunk.
const PREFAULT_CHUNK: usize = 2 << 20;
/// The most threads that fault pages in (the kernel's zeroing is bound by memory bandwidth).
const PREFAULT_THREADS: usize = 8;
/// A page: touching one word in each faults the whole page in.
const PAGE: usize = 4096;

const _: () = assert!(PAGE.is_multiple_of(std::mem::size_of::<Bucket>()));

/// The table's memory: zeroed, mapped lazily by the operating system, with the buckets
/// aligned to a cache line, and the thread that faults it in.
///
/// Asking the allocator for 64-byte alignment directly would lose the lazy zeroing: Rust's
/// system allocator zeroes over-aligned memory by writing it, which touches every page. So
/// this asks for ordinary alignment (served by `calloc`, which gets fresh zero pages from the
/// kernel for large sizes) with 64 bytes to spare, and starts the buckets at the first
/// 64-byte boundary inside.
pub(super) struct Memory {
    raw: NonNull<u8>,
    layout: Layout,
    buckets: NonNull<Bucket>,
    len: usize,
    readiness: Arc<Readiness>,
    prefault: Option<JoinHandle<()>>,
}

// SAFETY: the memory is owned by `Memory` alone and only reached through atomics.
unsafe impl Send for Memory {}
// SAFETY: as above: all access to the buckets is through atomic operations.
unsafe impl Sync for Memory {}

impl Memory {
    /// `len` zeroed buckets, or `None` if the allocator refuses them; their pages start being
    /// faulted in on a background thread at once.
    pub(super) fn zeroed(len: usize) -> Option<Memory> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let layout = Layout::from_size_align(bytes.checked_add(64)?, 16).ok()?;
        // SAFETY: the layout has a non-zero size.
        let raw = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: the offset is below 64 and the allocation has 64 bytes to spare, so the
        // buckets lie inside it.
        let start = unsafe { raw.as_ptr().add(offset) } as *mut Bucket;
        advise_huge_pages(start as *mut u8, bytes);
        let mut memory = Memory {
            raw,
            layout,
            // SAFETY: `start` lies inside a non-null allocation.
            buckets: unsafe { NonNull::new_unchecked(start) },
            len,
            readiness: Arc::new(Readiness::new()),
            prefault: None,
        };
        memory.prefault = memory.start_faulting_in();
        Some(memory)
    }

    /// Start the thread that faults the pages in; without a thread to spare, fault them in
    /// here rather than in a search.
    fn start_faulting_in(&self) -> Option<JoinHandle<()>> {
        let pages = Pages {
            start: self.buckets,
            len: self.len,
        };
        let signal = Arc::clone(&self.readiness);
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
        match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                log::warn!("hash table: no thread to fault it in ({e}); doing it now");
                fault_in(self.buckets(), 1, &self.readiness.cancel);
                self.readiness.finish();
                None
            }
        }
    }

    pub(super) fn buckets(&self) -> &[Bucket] {
        // SAFETY: `buckets` is aligned and points to `len` buckets inside our live
        // allocation; zeroed memory is a valid `Bucket` (atomics holding 0), and all writes
        // go through atomics, so shared references are sound.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }

    pub(super) fn readiness(&self) -> Arc<Readiness> {
        Arc::clone(&self.readiness)
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        self.readiness.cancel.store(true, Ordering::Relaxed);
        if let Some(handle) = self.prefault.take() {
            let _ = handle.join();
        }
        // SAFETY: `raw` came from `alloc_zeroed` with this very layout, and the thread that
        // faulted it in has ended.
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
        // Ready already (always so where no thread could be started, as in the browser, whose
        // std has no clock for a timed wait).
        if *done {
            return true;
        }
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

// SAFETY: the pointer is only used while the `Memory` that owns it waits for the thread to
// end (`Memory::drop` joins it before freeing), and only through atomics.
unsafe impl Send for Pages {}

impl Pages {
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: see `Memory::buckets`; the memory outlives this thread (see above).
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

/// Write-fault every page of `buckets`, by chunks taken in turn by `threads` threads, until
/// done or cancelled. It must be a write: a read maps the shared zero page and faults again
/// on the first store (and an atomic OR with 0 is compiled to a read): see `Bucket::touch`.
/// The table is new and searches wait for it to be ready.
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
            b.touch();
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
