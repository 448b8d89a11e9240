//! poolshark in the browser: the engine and the board's session compiled to WebAssembly,
//! with a handful of exported functions and one import, so that the page's JavaScript
//! (`web/engine/`) loads it without generated glue.
//!
//! - `host`: the bridge. Text goes in through memory the module hands out
//!   (`poolshark_alloc`), and comes out through the import `env.poolshark_emit(channel, ptr,
//!   len)`, each text on a numbered channel (`host::Channel`). The clock comes in through
//!   `env.poolshark_now_ms` and `env.poolshark_unix_ms` (`poolshark_engine::time_source`).
//! - `board`: the board's session core (`poolshark_engine::board`, as `poolshark serve` runs
//!   it) in the page's board worker: requests and job events in, replies and jobs out.
//! - `tables`: the endgame tables the page's host serves, read a file at a time through the
//!   imports `env.poolshark_file_len` and `env.poolshark_file_read`.
//! - `search`: the engine in the page's search worker, running the board's jobs.
//! - `bench`: `poolshark bench` as the command line runs it, for `scripts/web-bench.sh`.
//!
//! Every function here runs to its end before it returns: a WebAssembly module in a worker
//! has no threads, so the page stops a search by ending the worker that runs it.

pub mod bench;
pub mod board;
pub mod host;
pub mod search;
pub mod tables;
