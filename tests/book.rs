//! The opening book: file round trips, refusing damaged files, legal moves, minimaxed scores,
//! the build's resume, merging, and move choice in play through the library and the Hub.

mod support;

use poolshark_engine::book::build::{grow, BuildConfig};
use poolshark_engine::book::tree::{from_child, illegal_move, merge, reachable};
use poolshark_engine::book::{Book, BookError, BookMove, Rng};
use poolshark_engine::core::{movegen, Position};
use poolshark_engine::search::Limits;
use std::collections::HashSet;
use std::path::PathBuf;

fn small_book(positions: usize) -> Book {
    let mut book = Book::new();
    grow(&mut book, &config(positions), &mut |_, _| true).unwrap();
    book
}

fn config(positions: usize) -> BuildConfig {
    BuildConfig {
        plies: 4,
        positions,
        limits: Limits {
            nodes: Some(300),
            ..Limits::default()
        },
        threads: 1,
        hash_mb: 1,
    }
}

/// The start position's legal moves with fixed scores: 10, 8, 5, 0, -3, -20, -50.
fn hand_book() -> (Book, Vec<BookMove>) {
    let start = Position::start();
    let scores = [10, 8, 5, 0, -3, -20, -50];
    let moves: Vec<BookMove> = movegen::legal_moves(&start)
        .iter()
        .zip(scores)
        .map(|(mv, score)| BookMove { mv: *mv, score })
        .collect();
    assert_eq!(moves.len(), 7);
    let mut book = Book::new();
    // Stored worst first, so the choice cannot lean on the file order.
    book.insert(start.key(), moves.iter().rev().copied().collect());
    (book, moves)
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("poolshark-test-{}-{name}", std::process::id()))
}

#[test]
fn built_books_hold_only_legal_moves_and_minimaxed_scores() {
    let book = small_book(12);
    assert_eq!(book.len(), 12);
    let start = Position::start();
    assert!(illegal_move(&book, &start).is_none());
    let positions = reachable(&book, &start);
    assert_eq!(positions.len(), book.len());
    for (pos, _) in &positions {
        let stored = book.get(pos.key()).unwrap();
        assert_eq!(stored.len(), movegen::legal_moves(pos).len());
        for m in stored {
            let child = pos.play(&m.mv);
            if let Some(best) = book.moves(&child).first() {
                assert_eq!(m.score, from_child(best.score as i32), "{}", m.mv);
            }
        }
    }
}

#[test]
fn the_built_in_book_loads_and_its_moves_are_legal() {
    let book = Book::builtin().expect("the built-in book loads");
    let start = Position::start();
    assert!(book.len() >= 100, "{} positions", book.len());
    assert!(!book.moves(&start).is_empty());
    assert!(illegal_move(&book, &start).is_none());
    assert_eq!(reachable(&book, &start).len(), book.len());
}

#[test]
fn a_build_resumes_where_it_stopped() {
    let mut book = Book::new();
    let mut steps = 0;
    grow(&mut book, &config(20), &mut |_, _| {
        steps += 1;
        steps < 6
    })
    .unwrap();
    assert_eq!(book.len(), 6);
    let path = temp_path("resume.book");
    poolshark_host::book::save(&book, &path).unwrap();
    let mut resumed = poolshark_host::book::load(&path).unwrap();
    grow(&mut resumed, &config(9), &mut |_, _| true).unwrap();
    assert_eq!(resumed.len(), 9);
    for (key, _) in book.entries() {
        assert!(resumed.contains(key));
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn save_and_load_round_trip() {
    let book = small_book(8);
    assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    let path = temp_path("round.book");
    poolshark_host::book::save(&book, &path).unwrap();
    assert_eq!(poolshark_host::book::load(&path).unwrap(), book);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        Book::from_bytes(&Book::new().to_bytes()).unwrap(),
        Book::new()
    );
}

#[test]
fn books_that_are_not_regular_files_are_not_read() {
    // /dev/zero never ends: reading it whole would take all memory.
    let dir = support::scratch_dir("book-special-read");
    // The directory first: code that opens /dev/zero runs out of memory instead of failing.
    for (path, what) in [
        (dir.clone(), "a directory"),
        (PathBuf::from("/dev/zero"), "a device"),
    ] {
        let err = poolshark_host::book::load(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot read the book: {}: not a regular file ({what})",
                path.display()
            )
        );
    }
    let big = dir.join("big.book");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(poolshark_host::files::Kind::Book.limit() + 1)
        .unwrap();
    let err = poolshark_host::book::load(&big).unwrap_err().to_string();
    assert!(
        err.ends_with("larger than 64 MiB, the limit for a book"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saving_refuses_a_symlink_or_directory_and_leaves_no_temporary_file() {
    let dir = support::scratch_dir("book-special-save");
    let book = small_book(3);
    let real = dir.join("real.book");
    std::fs::write(&real, "not replaced").unwrap();
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let err = poolshark_host::book::save(&book, &link)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with("not a regular file (a symbolic link)"),
        "{err}"
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "not replaced");
    let err = poolshark_host::book::save(&book, &dir)
        .unwrap_err()
        .to_string();
    assert!(err.ends_with("not a regular file (a directory)"), "{err}");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["link.book", "real.book"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_truncated_and_corrupt_files_are_refused() {
    let bytes = small_book(5).to_bytes();
    for len in 0..bytes.len() {
        assert!(Book::from_bytes(&bytes[..len]).is_err(), "cut to {len}");
    }
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        assert!(Book::from_bytes(&bad).is_err(), "byte {i} changed");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Book::from_bytes(&longer).is_err());
    assert_eq!(
        Book::from_bytes(b"not a book at all"),
        Err(BookError::NotABook)
    );
    let err = poolshark_host::book::load(&temp_path("no-such.book")).unwrap_err();
    assert!(matches!(err, BookError::Io(_)));
    assert!(err.to_string().contains("no-such.book"), "{err}");
}

#[test]
fn merging_joins_positions_and_moves() {
    let (hand, _) = hand_book();
    let built = small_book(6);
    let merged = merge(&built, &hand, &Position::start());
    assert_eq!(merged.len(), built.len());
    let start = Position::start();
    assert_eq!(merged.moves(&start).len(), 7);
    let other = small_book(10);
    let merged = merge(&hand, &other, &start);
    for (key, _) in other.entries() {
        assert!(merged.contains(key));
    }
    assert!(illegal_move(&merged, &start).is_none());
}

#[test]
fn margin_zero_picks_the_best_and_a_margin_varies_within_it() {
    let (book, moves) = hand_book();
    let start = Position::start();
    let mut rng = Rng::new(1);
    for _ in 0..50 {
        assert_eq!(book.pick(&start, 0, &mut rng).unwrap().mv, moves[0].mv);
    }
    let mut seen = HashSet::new();
    for _ in 0..200 {
        let m = book.pick(&start, 5, &mut rng).unwrap();
        assert!(m.score >= 5, "{} scores {}", m.mv, m.score);
        seen.insert(m.mv);
    }
    assert_eq!(seen.len(), 3);
    let mut a = Rng::new(9);
    let mut b = Rng::new(9);
    for _ in 0..20 {
        assert_eq!(book.pick(&start, 20, &mut a), book.pick(&start, 20, &mut b));
    }
    assert!(book.pick(&start.play(&moves[0].mv), 20, &mut a).is_none());
}

fn hub_with_book(path: &std::path::Path, seed: &str) -> support::Engine {
    let mut e = support::Engine::start_with_env(&[
        ("POOLSHARK_BOOK", path.to_str().unwrap()),
        ("POOLSHARK_BOOK_SEED", seed),
    ]);
    e.handshake();
    e
}

fn think(e: &mut support::Engine) -> (Vec<String>, String) {
    e.send("pos start");
    e.send("level nodes=2000");
    e.send("go think");
    let lines = e.until("done");
    let mv = support::field(lines.last().unwrap(), "move").expect("a move");
    (lines, mv)
}

#[test]
fn the_hub_plays_book_moves_within_the_margin() {
    let (book, moves) = hand_book();
    let path = temp_path("hub.book");
    poolshark_host::book::save(&book, &path).unwrap();
    let mut e = hub_with_book(&path, "3");
    e.send("set-param name=book-margin value=0");
    for _ in 0..5 {
        let (lines, mv) = think(&mut e);
        assert_eq!(mv, moves[0].mv.hub());
        assert_eq!(lines.len(), 1, "a book move needs no search: {lines:?}");
    }
    e.send("set-param name=book-margin value=8");
    let mut seen = HashSet::new();
    for _ in 0..40 {
        let (_, mv) = think(&mut e);
        assert!(
            moves[..4].iter().any(|m| m.mv.hub() == mv),
            "{mv} is outside the margin"
        );
        seen.insert(mv);
    }
    assert!(seen.len() >= 3, "{seen:?}");
    // Analysis, book off, and past book-ply: a real search, with info lines.
    e.send("pos start");
    e.send("level nodes=2000");
    e.send("go analyze");
    assert!(e.until("done").len() > 1);
    e.send("set-param name=book-ply value=0");
    assert!(think(&mut e).0.len() > 1);
    e.send("set-param name=book-ply value=8");
    e.send("set-param name=book value=false");
    assert!(think(&mut e).0.len() > 1);
    e.send("quit");
    e.wait_exit();
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_hub_plays_without_a_bad_book_and_says_why() {
    let path = temp_path("bad.book");
    let mut bytes = small_book(3).to_bytes();
    bytes.truncate(bytes.len() - 3);
    std::fs::write(&path, &bytes).unwrap();
    let mut e = hub_with_book(&path, "1");
    let (lines, mv) = think(&mut e);
    assert!(lines.len() > 1, "searched: {lines:?}");
    assert!(support::legal_moves("startpos", &[]).contains(&mv));
    assert!(lines.iter().all(|l| !l.contains("book")));
    e.send("quit");
    e.wait_exit();
    let stderr = e.stderr();
    assert!(
        stderr.contains("checksum") && stderr.contains("playing without a book"),
        "{stderr}"
    );
    std::fs::remove_file(&path).unwrap();
}
