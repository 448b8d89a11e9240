//! poolshark: an engine for American Pool Checkers. This crate is the commands and the
//! front ends over the engine crate (`poolshark_engine`: the rules, evaluation, endgame
//! tables, search, book and reviews, with no I/O) and its native host (`poolshark_host`:
//! files, environment, machine): `perft`, `hub_syntax`, the Hub line tokenizer and quoting
//! that both sides of the protocol share, `hub`, the Hub protocol front end, `arena`,
//! engine-vs-engine matches over the Hub protocol (a Hub client, the referee, PDN output,
//! Elo and SPRT), `serve`, the board in the browser, and `cli`, the command line (`main.rs` only calls
//! `cli::main`).

// Every unsafe block says why it is sound (`// SAFETY: ...`).
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod cli;
pub mod hub;
pub mod hub_syntax;
pub mod perft;
pub mod serve;
