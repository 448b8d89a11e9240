//! For measuring only: writes a network file (`eval::nnue::network_file`) of random weights and a
//! given width, to time the network's evaluation (`poolshark bench --eval --weights FILE`)
//! and the search with it (`poolshark bench --weights FILE`) before a trained network
//! exists. It plays nonsense. `cargo run --release --example nnue_random -- HIDDEN FILE
//! [SEED]`, HIDDEN a multiple of 16 up to 512.

use poolshark_engine::eval::nnue::{network_file, FloatNetwork, MAX_HIDDEN};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nnue_random HIDDEN FILE [SEED]";
    let (Some(hidden), Some(path)) = (
        args.first().and_then(|h| h.parse::<usize>().ok()),
        args.get(1),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
        eprintln!("HIDDEN must be a multiple of 16 from 16 to {MAX_HIDDEN}");
        std::process::exit(2);
    }
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let net = FloatNetwork::random(hidden, 150.0, seed).quantize();
    if let Err(e) = std::fs::write(path, network_file::write(&net)) {
        eprintln!("cannot write {path}: {e}");
        std::process::exit(1);
    }
    println!("wrote {path}: hidden {hidden}, seed {seed}");
}
