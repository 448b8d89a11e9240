//! Hunts the rare two-thread result that issue 21 reports: the winning move of a composed
//! tactic with a material score instead of the proved win. Searches the first six tactics
//! of `tests/data/tactics.txt` RUNS times each (default 100) as `tests/search.rs`
//! `tactics_on_two_threads` does (16 MiB table, 2 threads, 1,000,000 nodes), on THREADS
//! searches at once in one process (default 3, as a test harness runs tests side by side),
//! and prints each result that is not a proved win, then a count per position.
//!
//! With a third argument `depth`, each search is limited instead to the tactic's win
//! distance plus 4 plies, as the test was when the failure was first seen (a tighter limit,
//! where a win that the shared table hides for an iteration is not found again later).
//!
//! `cargo run --release --example two_thread_tactics -- [RUNS] [THREADS] [nodes|depth]`

use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::Game;
use poolshark_engine::search::{Engine, Limits, SearchControl};

fn hunt(runs: usize, by_depth: bool) -> Vec<(String, usize)> {
    let text = include_str!("../tests/data/tactics.txt");
    let mut counts = Vec::new();
    for line in text.lines().take(6) {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let fen = parts[0];
        let plies: u32 = parts[2].trim().parse().expect("a tactic's win distance");
        let game = Game::new(parse_fen(fen).expect("a tactic's FEN"));
        let limits = if by_depth {
            Limits {
                depth: Some(plies + 4),
                ..Limits::default()
            }
        } else {
            Limits {
                nodes: Some(1_000_000),
                ..Limits::default()
            }
        };
        let mut bad = 0;
        for _ in 0..runs {
            let engine = Engine::new(16, 2);
            let out = engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
            let best = out.best.map_or("none".into(), |m| m.hub());
            if !out.score.is_win() || best != parts[1] {
                bad += 1;
                println!("{fen}: {best} scored {} at depth {}", out.score, out.depth);
            }
        }
        counts.push((fen.to_string(), bad));
    }
    counts
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args
        .next()
        .map_or(100, |s| s.parse().expect("RUNS: a number"));
    let threads: usize = args
        .next()
        .map_or(3, |s| s.parse().expect("THREADS: a number"));
    let by_depth = match args.next().as_deref() {
        None | Some("nodes") => false,
        Some("depth") => true,
        Some(other) => panic!("the limit is nodes or depth, not {other}"),
    };
    let handles: Vec<_> = (0..threads)
        .map(|_| std::thread::spawn(move || hunt(runs, by_depth)))
        .collect();
    let mut total = std::collections::BTreeMap::new();
    for h in handles {
        for (fen, bad) in h.join().expect("a hunting thread") {
            *total.entry(fen).or_insert(0) += bad;
        }
    }
    for (fen, bad) in total {
        println!(
            "{fen}: {bad} of {} not the move with a proved win",
            runs * threads
        );
    }
}
