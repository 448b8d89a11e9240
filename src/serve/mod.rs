//! The board in the browser: `poolshark serve` serves a page (embedded from `web/`) and
//! speaks JSON over a WebSocket with it (docs/BOARD.md).
//!
//! `protocol` owns the messages and their checks, `session` one connection's game (testable
//! without a socket), `origin` the names the server answers to, `boards` who may open a
//! board (count and memory), `limits` the limits and timeouts, `review` a game review's
//! budget and messages, and `server` the routes, the connections and their searches.

pub mod boards;
pub mod limits;
pub mod origin;
pub mod protocol;
pub mod review;
pub mod server;
pub mod session;
