//! The board server's limits and timeouts, in one place, with their defaults: what keeps
//! idle or silent clients from holding the sockets and boards that others need.

use std::time::Duration;

/// Descriptors kept for the rest of the process (tables, endgame files, threads, logs)
/// when the socket cap is taken from the open-files limit.
const RESERVED_FILES: u64 = 64;
/// The socket cap where the open-files limit cannot be read.
const FALLBACK_SOCKETS: usize = 512;
/// The memory budget where the machine's memory cannot be read: 1 GiB.
const FALLBACK_MEMORY: u64 = 1 << 30;

/// What the machine allows the process, as the host read it (None: not known).
#[derive(Clone, Copy, Debug, Default)]
pub struct Machine {
    /// The memory it may use, in bytes (the RAM, or a cgroup's lower limit).
    pub memory_bytes: Option<u64>,
    /// The soft limit on open file descriptors (`ulimit -n`).
    pub open_files: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct ServeLimits {
    /// Boards (WebSockets with an engine) open at once.
    pub max_boards: usize,
    /// Bytes all boards' tables may take together (`--memory`).
    pub memory_bytes: u64,
    /// Plain HTTP connections open at once (a WebSocket counts here until it is one); the
    /// next is closed at once, with a log line.
    pub max_sockets: usize,
    /// A request's head must have arrived this long after the connection opened or its
    /// last response was sent, or the connection is closed (slow or idle clients).
    pub header_timeout: Duration,
    /// A WebSocket silent this long is pinged...
    pub ping_interval: Duration,
    /// ...and closed, its board freed, if nothing comes back this long after. A write that
    /// waits this long for a client that does not read closes it too.
    pub ping_timeout: Duration,
}

/// How often a board looks again at the endgame tables while the group of the position
/// shown is being read in the background, to send the verdict as soon as it is in...
pub const TABLES_LOOK_EVERY: Duration = Duration::from_millis(100);
/// ...and for how long after the state, at most (a group the loader never fills, say).
pub const TABLES_LOOK_FOR: Duration = Duration::from_secs(120);

impl ServeLimits {
    pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    pub const PING_INTERVAL: Duration = Duration::from_secs(20);
    pub const PING_TIMEOUT: Duration = Duration::from_secs(20);

    /// The defaults for `max_boards` boards, from what `machine` allows.
    pub fn new(max_boards: usize, machine: Machine) -> ServeLimits {
        ServeLimits {
            max_boards,
            memory_bytes: ServeLimits::default_memory(machine),
            max_sockets: ServeLimits::default_max_sockets(machine, max_boards),
            header_timeout: ServeLimits::HEADER_TIMEOUT,
            ping_interval: ServeLimits::PING_INTERVAL,
            ping_timeout: ServeLimits::PING_TIMEOUT,
        }
    }

    /// Half the memory this process may use (its cgroup's limit where lower than the RAM).
    pub fn default_memory(machine: Machine) -> u64 {
        machine.memory_bytes.map_or(FALLBACK_MEMORY, |b| b / 2)
    }

    /// Below the open-files limit: the descriptors kept for the process and for the boards'
    /// WebSockets (which no longer count as sockets once upgraded) stay free.
    pub fn default_max_sockets(machine: Machine, max_boards: usize) -> usize {
        machine.open_files.map_or(FALLBACK_SOCKETS, |n| {
            let keep = RESERVED_FILES + max_boards as u64;
            (n.saturating_sub(keep).max(n / 2).max(1)).min(usize::MAX as u64) as usize
        })
    }
}
