//! Self-play data: every line is a valid quiet position (no pending capture) with a result
//! and its game's id, and the same seed gives the same data.

use poolshark_engine::core::movegen::has_capture;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::search::Engine;
use poolshark_tune::selfplay::{play_one, run, SelfplayConfig, SEARCH_CLAMP};
use std::sync::Mutex;

fn generate(seed: u64) -> String {
    let cfg = SelfplayConfig {
        games: 4,
        nodes: 1000,
        random_plies: 4,
        seed,
        concurrency: 1,
        weights: poolshark_engine::eval::Weights::default(),
        shard: Default::default(),
    };
    let text = Mutex::new(String::new());
    let mut sink = |t: &str| {
        text.lock().unwrap().push_str(t);
        Ok(())
    };
    let n = run(&cfg, &mut sink, &mut |_, _| {}).unwrap();
    let text = text.into_inner().unwrap();
    assert_eq!(text.lines().count(), n);
    text
}

#[test]
fn selfplay_lines_are_quiet_positions_with_results() {
    let text = generate(7);
    assert!(text.lines().count() > 20);
    let mut searched = 0;
    let mut games = std::collections::HashSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(" ; ").collect();
        let [fen, result, search, game] = fields[..] else {
            panic!("expected FEN ; result ; search ; game: {line}")
        };
        // Game ids are the run's seed and the game's index.
        let (seed, index) = game.split_once('-').expect("SEED-INDEX");
        assert_eq!(seed, "7", "{line}");
        assert!(index.parse::<usize>().unwrap() < 4, "{line}");
        games.insert(game.to_string());
        let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!has_capture(&pos), "{line}");
        assert!(["0", "0.5", "1"].contains(&result), "{line}");
        if search != "-" {
            let s: i32 = search.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(s.abs() <= SEARCH_CLAMP, "{line}");
            searched += 1;
        }
    }
    // The opening and random plies are not searched; the rest are.
    assert!(searched > text.lines().count() / 2, "{searched}");
    assert_eq!(games.len(), 4, "{games:?}");
    assert_eq!(text, generate(7));
}

/// The search score is written from White's side: with White far ahead, it is positive
/// whoever is to move, and White wins.
#[test]
fn search_scores_are_from_whites_side() {
    for fen in ["B:W21,22,23,24,25,26:B3", "W:W21,22,23,24,25,26:B3"] {
        let cfg = SelfplayConfig {
            games: 1,
            nodes: 2000,
            random_plies: 0,
            seed: 1,
            concurrency: 1,
            weights: poolshark_engine::eval::Weights::default(),
            shard: Default::default(),
        };
        let mut engine = Engine::new(16, 1);
        let data = play_one(&cfg, 0, &mut engine, &[parse_fen(fen).unwrap()]);
        assert_eq!(data.white_score, 1.0, "{fen}");
        let (_, first) = data.positions[0];
        assert!(
            first.expect("the first position is searched") > 300,
            "{fen}: {first:?}"
        );
    }
}
