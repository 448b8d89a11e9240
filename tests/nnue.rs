//! The network evaluation through the public API: a network file loads as weights (and a
//! damaged one is refused through `WeightsError`), `eval::evaluate` plays it where men are
//! on the board and the hand terms in king endings, and the search scores its leaves with
//! it (through the accumulator cache).

use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::random_games::RandomPositions;
use poolshark_engine::core::Game;
use poolshark_engine::eval::nnue::{network_file, FloatNetwork, Network};
use poolshark_engine::eval::weights_file::WeightsError;
use poolshark_engine::eval::{evaluate, Evaluation, Weights};
use poolshark_engine::search::{Engine, Limits, SearchControl};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("poolshark-test-{}-{name}", std::process::id()))
}

fn network(hidden: usize, seed: u64) -> Network {
    FloatNetwork::random(hidden, 150.0, seed).quantize()
}

/// Weights from a network file written to disk.
fn load(net: &Network, name: &str) -> Weights {
    let path = temp(name);
    std::fs::write(&path, network_file::write(net)).unwrap();
    let w = poolshark_host::weights::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    w
}

#[test]
fn a_network_file_loads_and_evaluate_plays_it_with_men_on_the_board() {
    let net = network(32, 3);
    let w = load(&net, "net.bin");
    assert_eq!(w.network(), Some(&net));
    assert_eq!(
        Weights {
            evaluation: Evaluation::Hand,
            ..w.clone()
        },
        Weights::default()
    );
    let (mut men, mut kings_only) = (0, 0);
    for pos in RandomPositions::new(4, usize::MAX).take(5000) {
        if pos.men().any() {
            assert_eq!(evaluate(&pos, &w), net.evaluate(&pos), "{pos:?}");
            men += 1;
        } else {
            assert_eq!(evaluate(&pos, &w), evaluate(&pos, &Weights::default()));
            kings_only += 1;
        }
    }
    assert!(men > 1000 && kings_only > 20, "{men} {kings_only}");
    // Not the built-in network's numbers, nor the hand terms'.
    let pos = parse_fen("B:W18,21,22,25,26,29,30:B1,2,3,6,7,10,12").unwrap();
    assert_ne!(evaluate(&pos, &w), evaluate(&pos, &Weights::builtin()));
    assert_ne!(evaluate(&pos, &w), evaluate(&pos, &Weights::default()));
}

#[test]
fn a_damaged_network_file_is_refused_through_weights_error() {
    let mut bytes = network_file::write(&network(16, 5));
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    let path = temp("damaged.bin");
    std::fs::write(&path, &bytes).unwrap();
    let e = poolshark_host::weights::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        e,
        WeightsError::Network(network_file::NnueFileError::BadChecksum { .. })
    ));
    assert!(e.to_string().contains("damaged"), "{e}");
}

/// A depth-1 search from the start scores each reply by the network (no capture follows
/// any first move), so its score is the best of those: the search's leaves go through the
/// network, via the cache, and give the same numbers.
#[test]
fn the_search_scores_its_leaves_with_the_network() {
    for seed in [1, 2, 3] {
        let w = load(&network(64, seed), &format!("search-{seed}.bin"));
        let game = Game::new(parse_fen("B:W21-32:B1-12").unwrap());
        let root = *game.position();
        let want = legal_moves(&root)
            .iter()
            .map(|m| -evaluate(&root.play(m), &w))
            .max()
            .unwrap();
        let mut engine = Engine::new(16, 1);
        engine.weights = w.clone();
        let limits = Limits {
            depth: Some(1),
            analyze: true,
            ..Limits::default()
        };
        let out = engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
        assert_eq!(out.score.0, want, "seed {seed}");
        // And deeper, one thread and two, it plays a legal move.
        for threads in [1, 2] {
            let mut engine = Engine::new(16, threads);
            engine.weights = w.clone();
            let limits = Limits {
                depth: Some(7),
                ..Limits::default()
            };
            let out = engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
            assert!(legal_moves(&root).iter().any(|m| Some(*m) == out.best));
        }
    }
}
