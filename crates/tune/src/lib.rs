//! Evaluation tuning, Texel style: fit the evaluation weights so that
//! `sigmoid(k * eval)` predicts the results of self-play games.
//!
//! `selfplay` plays the games and writes their positions as data lines, whose one parser and
//! writer is `dataline`; `data` reads them into feature vectors, computed once (`eval::features`), so that each pass over the data is only dot
//! products. `texel` fits the scaling constant `k`, then the weights by Adam on the mean
//! squared error, in parallel with rayon. `spsa` tunes by playing games instead, which
//! measures strength itself. `run` holds what both do around the fit: the held-out split and
//! the weights file, saved whole with the command that made it. `net` fits the network
//! the same way, resumable, stepping by `adam`, which also keeps its checkpoints; `train` is
//! the run behind `poolshark learn`; `target` is what every fit aims at (the side to move's
//! result, its blend with the search score, the scale K), written once; `label` searches data
//! positions again, deeper, for the fits to aim at. `packed` is the compact binary data
//! file (16 bytes a position), and `dataset` joins shards of it into one set with the
//! endgame tables' values. `tuning/README.md` gives
//! the whole pipeline.

pub mod adam;
pub mod data;
pub mod dataline;
pub mod dataset;
pub mod label;
pub mod net;
pub mod packed;
pub mod run;
pub mod selfplay;
pub mod spsa;
pub mod target;
pub mod texel;
pub mod train;

pub use data::{load, read, Samples};
pub use run::{hold_fields, hold_out, save_weights, CommandLine};
pub use spsa::{SearchTune, SpsaConfig, SpsaProgress};
pub use texel::{fit_k, loss, tune, TuneConfig};
