//! Who may open a board: at most `max_boards` at once, and their tables together within
//! the memory budget (`--memory`). Each board has its own table of `--hash` MiB, so without
//! the budget a few boards of a large `--hash` take more memory than the machine has, and
//! the kernel kills the whole server; with it the board that does not fit is refused with
//! a message, and the others go on.

use poolshark_engine::search::tt::TranspositionTable;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The bytes of the table an engine of `hash_mb` MiB allocates (a power of two entries).
pub fn table_bytes(hash_mb: usize) -> u64 {
    let entries = 1u64 << TranspositionTable::log2_for_mb(hash_mb);
    entries * TranspositionTable::ENTRY_BYTES as u64
}

/// The boards open now and the memory their tables hold.
pub struct Boards {
    max_boards: usize,
    memory_limit: u64,
    table_bytes: u64,
    /// Boards open and bytes reserved, changed together.
    open: Mutex<(usize, u64)>,
}

/// A board's place; dropping it frees the place and its memory.
pub struct Admission {
    boards: Arc<Boards>,
}

/// Why a board was refused; the message the page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `max_boards` are open.
    Full { max_boards: usize },
    /// Another table does not fit in the memory budget.
    NoMemory {
        open: usize,
        table_mb: u64,
        used_mb: u64,
        limit_mb: u64,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Full { max_boards } => write!(
                f,
                "the server is full: {max_boards} boards are open (the limit); close one and reload"
            ),
            Refusal::NoMemory {
                open,
                table_mb,
                used_mb,
                limit_mb,
            } => write!(
                f,
                "the server is full: not enough memory for another board ({open} open take \
                 {used_mb} MiB of the {limit_mb} MiB budget, and a board's table needs \
                 {table_mb} MiB); close one and reload"
            ),
        }
    }
}

impl Boards {
    /// Boards whose tables take `table_bytes` each, at most `max_boards` of them and
    /// `memory_limit` bytes together.
    pub fn new(max_boards: usize, memory_limit: u64, table_bytes: u64) -> Arc<Boards> {
        Arc::new(Boards {
            max_boards,
            memory_limit,
            table_bytes,
            open: Mutex::new((0, 0)),
        })
    }

    /// A place for one more board, or why there is none.
    pub fn admit(self: &Arc<Self>) -> Result<Admission, Refusal> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (count, used) = *open;
        let refusal = if count >= self.max_boards {
            Refusal::Full {
                max_boards: self.max_boards,
            }
        } else if used + self.table_bytes > self.memory_limit {
            Refusal::NoMemory {
                open: count,
                table_mb: self.table_bytes >> 20,
                used_mb: used >> 20,
                limit_mb: self.memory_limit >> 20,
            }
        } else {
            *open = (count + 1, used + self.table_bytes);
            return Ok(Admission {
                boards: Arc::clone(self),
            });
        };
        Err(refusal)
    }

    /// Boards open now.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut open = self.boards.open.lock().unwrap_or_else(|e| e.into_inner());
        open.0 -= 1;
        open.1 -= self.boards.table_bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_bytes_are_the_power_of_two_below() {
        assert_eq!(table_bytes(64), 64 << 20);
        assert_eq!(table_bytes(100), 64 << 20);
        assert_eq!(table_bytes(8192), 8192 << 20);
    }

    #[test]
    fn boards_are_refused_past_the_count_or_the_memory() {
        let boards = Boards::new(8, 20 << 30, 8 << 30);
        let a = boards.admit().unwrap();
        let b = boards.admit().unwrap();
        let err = boards.admit().err().unwrap();
        assert_eq!(
            err,
            Refusal::NoMemory {
                open: 2,
                table_mb: 8192,
                used_mb: 16384,
                limit_mb: 20480
            }
        );
        assert!(err.to_string().contains("not enough memory"), "{err}");
        drop(a);
        let c = boards.admit().expect("a closed board frees its memory");
        assert_eq!(boards.open(), 2);
        drop((b, c));
        assert_eq!(boards.open(), 0);

        let boards = Boards::new(1, u64::MAX, 1);
        let _one = boards.admit().unwrap();
        assert_eq!(boards.admit().err(), Some(Refusal::Full { max_boards: 1 }));
    }
}
