//! Evaluation tuning, Texel style: fit the evaluation weights so that
//! `sigmoid(k * eval)` predicts the results of self-play games.
//!
//! `selfplay` plays the games and writes their positions as data lines, whose one parser and
//! writer is `dataline`; `data` reads them into feature vectors, computed once (`eval::features`), so that each pass over the data is only dot
//! products. `texel` fits the scaling constant `k`, then the weights by Adam on the mean
//! squared error, in parallel with rayon. `spsa` tunes by playing games instead, which
//! measures strength itself. `run` holds what both do around the fit: the held-out split and
//! the weights file, saved whole with the command that made it. `learn` fits the pattern
//! evaluations (`eval::pattern`, `eval::big_pattern`: `pattern_model`) the same way, sparse and resumable,
//! and `net` the network; both step by `adam`, which also keeps their checkpoints; `label` searches data
//! positions again, deeper, for it to aim at. `tuning/README.md` gives
//! the whole pipeline.

pub mod adam;
pub mod data;
pub mod dataline;
pub mod label;
pub mod learn;
pub mod net;
pub mod pattern_model;
pub mod run;
pub mod selfplay;
pub mod spsa;
pub mod texel;

pub use data::{load, read, Samples};
pub use run::{hold_fields, hold_out, save_weights, CommandLine};
pub use spsa::{SearchTune, SpsaConfig, SpsaProgress};
pub use texel::{fit_k, loss, tune, TuneConfig};
