//! Which positions the search threads are in the middle of: the shared table of a simplified
//! ABDADA for Lazy SMP (`SearchParams::abdada_min_depth`).
//!
//! A thread about to search a late move of a node looks up the child here. If another thread
//! is searching that child now, it defers the move to the end of the node's loop, where the
//! other thread's result is likely in the transposition table, and searches a move no thread
//! is on meanwhile. The table is a hint, never a lock: a slot holds one key, two children
//! that share a slot overwrite each other, and a wrong answer only changes the order moves
//! are searched in, not what the search can find.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two): far more than the nodes all threads are inside at
/// once (at most a few hundred each), so collisions are rare.
const SLOTS: usize = 1 << 13;

/// The keys of the positions being searched, each in the slot its low bits choose.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

impl BusyTable {
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Whether some thread has marked `key` and not yet left it.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Mark `key` as being searched (it replaces whatever its slot held).
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmark `key`, unless its slot has since been taken by another key.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_unmarks_a_key() {
        let t = BusyTable::new();
        let k = 0x1234_5678_9abc_def1;
        assert!(!t.is_busy(k));
        t.enter(k);
        assert!(t.is_busy(k));
        t.leave(k);
        assert!(!t.is_busy(k));
    }

    #[test]
    fn a_colliding_key_takes_the_slot_and_is_not_unmarked_by_the_other() {
        let t = BusyTable::new();
        let a = 5u64;
        let b = a + SLOTS as u64; // same slot, another key
        t.enter(a);
        t.enter(b);
        assert!(!t.is_busy(a), "the slot holds one key");
        assert!(t.is_busy(b));
        t.leave(a); // a's leave must not clear b's mark
        assert!(t.is_busy(b));
        t.leave(b);
        assert!(!t.is_busy(b));
    }

    #[test]
    fn key_zero_is_never_busy() {
        let t = BusyTable::new();
        t.enter(0);
        assert!(!t.is_busy(0));
    }
}
