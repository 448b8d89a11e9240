//! The Hub protocol (docs/PROTOCOL.md): lines in, typed commands, the engine driven, lines out.
//!
//! `command` parses lines (split by `crate::hub_syntax`, which the match client shares),
//! `params` holds the parameters a client can set, `input` reads stdin on its own thread,
//! `output` writes protocol lines (`info` lines too, from the search's data), and
//! `engine_loop` ties them together and runs the searches. `run` is the entry point.

pub mod command;
pub mod engine_loop;
pub mod input;
pub mod lag;
pub mod output;
pub mod params;

pub use engine_loop::{run, run_with};
