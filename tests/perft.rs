//! Perft against the published start-position table and the 80 positions of
//! `tests/data/perft_random.txt` (docs/RULES.md, "Perft reference", gives both).

use poolshark::perft::{divide, perft, perft_parallel};
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::Position;

/// docs/RULES.md, "Perft reference".
const START: [u64; 13] = [
    7,
    49,
    302,
    1_469,
    7_482,
    37_986,
    190_146,
    929_896,
    4_570_534,
    22_435_955,
    110_833_952,
    544_005_148,
    2_668_385_616,
];

#[test]
fn start_position_through_depth_10() {
    let pos = Position::start();
    for (i, &expected) in START.iter().enumerate().take(10) {
        assert_eq!(perft(&pos, i as u32 + 1), expected, "depth {}", i + 1);
    }
}

#[test]
fn start_position_depth_11_on_two_threads() {
    assert_eq!(perft_parallel(&Position::start(), 11, 2), START[10]);
}

#[test]
#[ignore = "deep: about 10 s in release mode"]
fn start_position_depth_12() {
    assert_eq!(perft_parallel(&Position::start(), 12, 2), START[11]);
}

#[test]
#[ignore = "deep: about a minute in release mode"]
fn start_position_depth_13() {
    assert_eq!(perft_parallel(&Position::start(), 13, 2), START[12]);
}

fn random_cases() -> Vec<(String, Vec<u64>)> {
    let text = include_str!("data/perft_random.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (fen, counts) = line.split_once(" ; ").expect("FEN ; counts");
            let counts = counts
                .split_whitespace()
                .map(|n| n.parse().expect("a count"))
                .collect();
            (fen.to_string(), counts)
        })
        .collect()
}

#[test]
fn random_positions_every_listed_depth() {
    let cases = random_cases();
    assert_eq!(cases.len(), 80);
    for (fen, counts) in cases {
        let pos = parse_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            // The deepest levels are the slow ones; split them over two threads.
            let got = if depth >= 6 {
                perft_parallel(&pos, depth, 2)
            } else {
                perft(&pos, depth)
            };
            assert_eq!(got, expected, "{fen} depth {depth}");
        }
    }
}

#[test]
fn threads_and_divide_agree_with_single_thread() {
    for (fen, _) in random_cases().iter().take(20) {
        let pos = parse_fen(fen).unwrap();
        let single = perft(&pos, 5);
        assert_eq!(perft_parallel(&pos, 5, 3), single, "{fen}");
        let split: u64 = divide(&pos, 5, 2).iter().map(|(_, n)| n).sum();
        assert_eq!(split, single, "{fen}");
    }
}
