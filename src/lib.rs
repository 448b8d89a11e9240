//! poolshark: an engine for American Pool Checkers.
//!
//! Layers, each looking only down: `core` (rules, no I/O), then the tools built on it
//! (`perft`). The CLI in `main.rs` calls into this library.

pub mod core;
pub mod perft;
