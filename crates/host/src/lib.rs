//! poolshark's native host: what the engine crate (`poolshark-engine`, which does no I/O)
//! is handed by a process on an operating system. `files` reads and writes every file a user
//! names, within limits; `book`, `weights`, `openings` and `egdb` read and write the
//! engine's data in files (the endgame tables as a folder the engine reads through its
//! `egdb::Store`, built with progress bars, and `egdb_web` copied for the static page); `seeds` and `simd` read the environment
//! variables that steer the engine; `machine` says what this machine allows (memory, open
//! files, CPU features). `init` passes what the engine must know before it starts.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod book;
pub mod egdb;
pub mod egdb_web;
pub mod files;
pub mod machine;
pub mod openings;
pub mod seeds;
pub mod simd;
pub mod weights;

/// Tell the engine what it must know before its first search or evaluation: the
/// instruction set asked for (`simd::apply_env`) and this machine's memory, which bounds
/// the transposition table. Every native front end (the command line, the server, the Hub)
/// calls this first.
pub fn init() {
    simd::apply_env();
    poolshark_engine::search::tt::set_machine_memory(machine::memory_bytes());
}
