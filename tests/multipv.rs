//! Multi-PV through the library API: the lines are distinct legal moves in order of score,
//! the first is the single-line search's answer, fewer legal moves than lines asked for,
//! the reports of each iteration, several threads, and a stop.

use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::{Game, Move, Position};
use poolshark_engine::search::{Engine, Info, Limits, Outcome, SearchControl};
use std::sync::Arc;
use std::time::Duration;

fn limits(depth: u32, multipv: usize) -> Limits {
    Limits {
        depth: Some(depth),
        analyze: true,
        multipv,
        ..Limits::default()
    }
}

/// A search with a fresh engine, and every `Info` it reported.
fn search(pos: &Position, limits: &Limits, threads: usize) -> (Outcome, Vec<Info>) {
    let engine = Engine::new(16, threads);
    let mut infos = Vec::new();
    let out = engine.search(
        &Game::new(*pos),
        limits,
        &SearchControl::new(),
        &mut |i: &Info| infos.push(i.clone()),
    );
    (out, infos)
}

/// Each line starts with its own legal move and is a legal line; scores never rise.
fn check_lines(pos: &Position, out: &Outcome, want: usize) {
    let legal = legal_moves(pos);
    assert_eq!(out.lines.len(), want, "{pos:?}: {:?}", out.lines);
    let firsts: Vec<Move> = out.lines.iter().map(|l| l.pv[0]).collect();
    for (k, mv) in firsts.iter().enumerate() {
        assert!(legal.contains(mv), "{pos:?}: line {} {mv}", k + 1);
        assert!(!firsts[..k].contains(mv), "{pos:?}: {mv} twice");
    }
    for line in &out.lines {
        let mut p = *pos;
        for mv in &line.pv {
            assert!(legal_moves(&p).contains(mv), "{pos:?}: pv {:?}", line.pv);
            p = p.play(mv);
        }
    }
    for w in out.lines.windows(2) {
        assert!(w[0].score >= w[1].score, "{pos:?}: {:?}", out.lines);
    }
    assert_eq!(out.best, Some(firsts[0]));
    assert_eq!(out.score, out.lines[0].score);
    assert_eq!(out.pv, out.lines[0].pv);
}

/// Line 1 of a multi-PV search is the best line, found by the single-line search: the same
/// move and score at the same depth on every bench position (one thread: deterministic).
#[test]
fn the_lines_are_distinct_ordered_and_the_first_is_the_best_move() {
    const DEPTH: u32 = 7;
    for fen in poolshark_engine::bench::POSITIONS {
        let pos = parse_fen(fen).unwrap();
        let (single, _) = search(&pos, &limits(DEPTH, 1), 1);
        let (multi, _) = search(&pos, &limits(DEPTH, 3), 1);
        let want = legal_moves(&pos).len().min(3);
        check_lines(&pos, &multi, want);
        assert_eq!(single.lines.len(), 1);
        assert_eq!(single.lines[0].pv, single.pv);
        assert_eq!(multi.depth, single.depth, "{fen}");
        assert_eq!(multi.best, single.best, "{fen}");
        assert_eq!(multi.score, single.score, "{fen}");
    }
}

/// Asking for more lines than there are legal moves searches each legal move once; a single
/// legal move gives a single line, also when the search stops at once on it.
#[test]
fn fewer_legal_moves_than_lines() {
    // Endings with few moves, and a forced capture.
    for fen in ["W:WK3,18:BK29,5", "B:W9,22,26,28,32:B8,19", "W:W18:B14,K1"] {
        let pos = parse_fen(fen).unwrap();
        let n = legal_moves(&pos).len();
        assert!(n < 10, "{fen}: {n} moves");
        let (out, infos) = search(&pos, &limits(5, 10), 1);
        check_lines(&pos, &out, n);
        let last: Vec<&Info> = infos.iter().filter(|i| i.depth == out.depth).collect();
        assert_eq!(last.len(), n, "{fen}");
    }
    // A capture is forced: one legal move, one line, in analysis and in play.
    let pos = parse_fen("W:W18:B14,K1").unwrap();
    assert_eq!(legal_moves(&pos).len(), 1);
    for analyze in [true, false] {
        let l = Limits {
            analyze,
            ..limits(5, 3)
        };
        let (out, infos) = search(&pos, &l, 1);
        check_lines(&pos, &out, 1);
        assert!(infos.iter().all(|i| i.multipv == Some(1)), "{infos:?}");
        if !analyze {
            assert_eq!(out.depth, 1, "the one-legal-move stop");
        }
    }
}

/// Each iteration reports its lines in order, 1 to N, and the last iteration's reports are
/// the outcome's lines; the usual search names no line.
#[test]
fn each_iteration_reports_every_line_in_order() {
    let pos = Position::start();
    let (out, infos) = search(&pos, &limits(6, 3), 1);
    assert_eq!(infos.len(), 6 * 3);
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.depth as usize, i / 3 + 1);
        assert_eq!(info.multipv, Some(i % 3 + 1));
    }
    let last = &infos[infos.len() - 3..];
    for (info, line) in last.iter().zip(&out.lines) {
        assert_eq!(info.pv, line.pv);
        assert_eq!(info.score, line.score);
    }
    let (_, infos) = search(&pos, &limits(6, 1), 1);
    assert_eq!(infos.len(), 6);
    assert!(infos.iter().all(|i| i.multipv.is_none()));
    // 0 is the default of `Limits`: the usual search too.
    let (out, infos) = search(&pos, &limits(4, 0), 1);
    assert_eq!(out.lines.len(), 1);
    assert!(infos.iter().all(|i| i.multipv.is_none()));
}

/// With helper threads the lines are the main thread's: still distinct, legal and ordered,
/// and the move played is line 1's.
#[test]
fn several_threads_give_the_main_threads_lines() {
    for fen in &poolshark_engine::bench::POSITIONS[..6] {
        let pos = parse_fen(fen).unwrap();
        let (out, infos) = search(&pos, &limits(7, 3), 3);
        check_lines(&pos, &out, legal_moves(&pos).len().min(3));
        let last: Vec<&Info> = infos.iter().filter(|i| i.depth == out.depth).collect();
        assert_eq!(last.len(), out.lines.len(), "{fen}");
    }
}

/// An endless multi-PV search ends on a stop from another thread, with its lines.
#[test]
fn stop_ends_a_multipv_search() {
    let engine = Engine::new(16, 2);
    let control = Arc::new(SearchControl::new());
    let stopper = {
        let c = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            c.stop();
        })
    };
    let l = Limits {
        infinite: true,
        analyze: true,
        multipv: 4,
        ..Limits::default()
    };
    let pos = Position::start();
    let out = engine.search(&Game::new(pos), &l, &control, &mut |_| {});
    stopper.join().unwrap();
    assert!(out.best.is_some());
    if out.depth > 0 {
        check_lines(&pos, &out, 4);
    }
}

/// A move time ends a multi-PV search too (its clock is the search's, with any number of
/// lines); the answer is a legal move.
#[test]
fn a_move_time_ends_a_multipv_search() {
    let pos = Position::start();
    let l = Limits {
        move_time: Some(Duration::from_millis(100)),
        multipv: 5,
        ..Limits::default()
    };
    let (out, _) = search(&pos, &l, 1);
    assert!(legal_moves(&pos).contains(&out.best.unwrap()));
    assert!(out.depth >= 1);
    check_lines(&pos, &out, 5);
}
