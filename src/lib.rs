//! poolshark: an engine for American Pool Checkers.
//!
//! Layers, each looking only down: `core` (rules, no I/O), `eval` (static evaluation),
//! `search` (iterative deepening, transposition table, Lazy SMP), and the tools built on
//! them (`perft`, `bench`), the opening `book`, `hub`, the Hub protocol front end, and
//! `tune`, which fits the evaluation weights to self-play results, `files`, which reads and
//! writes every file a user names, `machine`, what this machine allows (memory, open
//! files), and `cli`, the command line (`main.rs` only calls `cli::main`).

// Every unsafe block says why it is sound (`// SAFETY: ...`).
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod core;
pub mod egdb;
pub mod eval;
pub mod files;
pub mod hub;
pub mod machine;
pub mod perft;
pub mod search;
pub mod serve;
pub mod tune;
