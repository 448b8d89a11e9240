//! poolshark: an engine for American Pool Checkers.
//!
//! Layers, each looking only down: `core` (rules, no I/O), `eval` (static evaluation),
//! `egdb` (endgame tables solved under pool's rules), `search` (iterative deepening,
//! transposition table, Lazy SMP, endgame table probes), and the tools built on them
//! (`perft`, `bench`), the opening `book`, `hub_syntax`, the Hub line tokenizer and
//! quoting that both sides of the protocol share, `hub`, the Hub protocol front end,
//! `arena`, engine-vs-engine matches over the Hub protocol (a Hub client, the referee, PDN
//! output, Elo and SPRT), `review`, game review (a search of every position, each move
//! marked by what it gave away), `serve`, the board in the browser, and `tune`, which fits the
//! evaluation weights to self-play results, `checksum`, the FNV-1a of every file that carries one, `files`, which reads and writes every file a
//! user names, `machine`, what this machine allows (memory, open files), and `cli`, the
//! command line (`main.rs` only calls `cli::main`).

// Every unsafe block says why it is sound (`// SAFETY: ...`).
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod cli;
pub mod hub;
pub mod hub_syntax;
pub mod perft;
pub mod serve;
pub mod tune;
