//! poolshark's engine: the rules (`core`), the evaluation (`eval`), the search (`search`),
//! game reviews (`review`), the opening book (`book`), the endgame tables (`egdb`) and the
//! little they need (`files`, `checksum`, `echo`, `machine`, `bench`'s positions). No async
//! runtime and no command line: the `poolshark` crate above it holds the CLI, the board's
//! server, the Hub, the arena and the trainers, and re-exports these modules so that
//! `poolshark::core` and the rest keep their paths.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bench;
pub mod board;
pub mod book;
pub mod checksum;
pub mod clock;
pub mod core;
pub mod echo;
pub mod egdb;
pub mod eval;
pub mod files;
pub mod machine;
pub mod review;
pub mod search;
