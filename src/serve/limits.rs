//! The board server's limits, in one place, with their defaults.

/// The memory budget where the machine's memory cannot be read: 1 GiB.
const FALLBACK_MEMORY: u64 = 1 << 30;

#[derive(Clone, Debug)]
pub struct ServeLimits {
    /// Boards (WebSockets with an engine) open at once.
    pub max_boards: usize,
    /// Bytes all boards' tables may take together (`--memory`).
    pub memory_bytes: u64,
}

impl ServeLimits {
    /// The defaults for `max_boards` boards, from what this machine allows.
    pub fn new(max_boards: usize) -> ServeLimits {
        ServeLimits {
            max_boards,
            memory_bytes: ServeLimits::default_memory(),
        }
    }

    /// Half the memory this process may use (its cgroup's limit where lower than the RAM).
    pub fn default_memory() -> u64 {
        crate::machine::memory_bytes().map_or(FALLBACK_MEMORY, |b| b / 2)
    }
}
