//! The board in the browser: `poolshark serve` serves a page (embedded from `web/`) and
//! speaks JSON over a WebSocket with it (docs/BOARD.md).
//!
//! `protocol` owns the messages and their checks, `board` one board's logic without I/O
//! (requests in, messages and search jobs out: the core that any host drives), `session`
//! its game, `clock` a timed game's clocks, `origin` the names the server answers to,
//! `boards` who may open a board (count and memory), `limits` the limits and timeouts,
//! `review_job` a game review's budget and messages, `assets` the page's files, `server` the
//! HTTP side (routes, request checks), and `connection` one WebSocket: the native host of a
//! board, which runs its jobs on a thread.

// The board's session core lives in the engine crate (no I/O), re-exported here so that
// `serve::session` and the rest keep their paths.
pub use poolshark_engine::board::{self, clock, limits, protocol, review_job, session};

pub mod assets;
pub mod boards;
pub mod connection;
pub mod origin;
pub mod server;
