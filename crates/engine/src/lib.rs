//! poolshark's engine: the rules (`core`), the evaluation (`eval`), the search (`search`),
//! game reviews (`review`), the opening book (`book`), the endgame tables (`egdb`), the
//! board's session (`board`) and the little they need (`checksum`, `echo`, `time_source`,
//! `bench`'s positions), with no I/O: no file system, environment, process, socket or
//! print. Its host hands it bytes (a book, a network), a loader (the endgame tables'
//! `egdb::Store`) or an argument (seeds, the instruction set, the machine's memory): the
//! `poolshark-host` crate natively, `poolshark-wasm` in the browser. No async runtime and no
//! command line: the `poolshark` crate above them holds the CLI, the board's server, the
//! Hub and the arena.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bench;
pub mod board;
pub mod book;
pub mod checksum;
pub mod core;
pub mod echo;
pub mod egdb;
pub mod eval;
pub mod openings;
pub mod puzzle;
pub mod review;
pub mod search;
pub mod shard;
pub mod time_source;
