//! Self-play data: every line is a valid quiet position (no pending capture) with a result,
//! and the same seed gives the same data.

use poolshark::arena::selfplay::{run, SelfplayConfig};
use poolshark::core::movegen::has_capture;
use poolshark::core::notation::parse_fen;
use std::sync::Mutex;

fn generate(seed: u64) -> String {
    let cfg = SelfplayConfig {
        games: 4,
        nodes: 1000,
        random_plies: 4,
        seed,
        concurrency: 1,
        weights: poolshark::eval::Weights::default(),
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
    for line in text.lines() {
        let (fen, result) = line.split_once(" ; ").expect("FEN ; result");
        let pos = parse_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!has_capture(&pos), "{line}");
        assert!(["0", "0.5", "1"].contains(&result), "{line}");
    }
    assert_eq!(text, generate(7));
}
