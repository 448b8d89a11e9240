//! The match runner end to end: two real poolshark processes, and broken engines.

use poolshark::arena::pdn;
use poolshark::core::game::GameResult;
use poolshark::core::Color;

mod support;
use support::run_cli as run;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_poolshark")
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("poolshark-test-{}-{name}", std::process::id()))
}

#[test]
fn twenty_game_match_at_tiny_depth_gives_a_legal_pdn() {
    let pdn_path = tmp("match.pdn");
    let engine = format!("{} hub", bin());
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "20",
        "--depth",
        "3,1",
        "--concurrency",
        "2",
        "--pdn",
        pdn_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        20,
        "{out}"
    );
    assert!(out.contains("elo: "), "{out}");
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let games = pdn::read(&text).expect("the PDN reads back");
    assert_eq!(games.len(), 20);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("23"));
        // Replaying checked every move; the result must match the final position or reason.
        let end = g.replay();
        let termination = g.tag("Termination").unwrap();
        match end.result() {
            GameResult::Win(Color::White) => assert_eq!(g.result, "1-0", "{termination}"),
            GameResult::Win(Color::Black) => assert_eq!(g.result, "0-1", "{termination}"),
            GameResult::Draw(r) => {
                assert_eq!(g.result, "1/2-1/2");
                assert!(termination.contains(&r.to_string()), "{termination}");
            }
            GameResult::Ongoing => panic!("game ended with nothing decided: {termination}"),
        }
    }
    let _ = std::fs::remove_file(pdn_path);
}

fn broken_match(mode: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/broken_engine.py");
    let broken = format!("python3 {script} {mode}");
    let good = format!("{} hub", bin());
    let pdn_path = tmp(&format!("broken-{mode}.pdn"));
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &good,
        "--engine",
        &broken,
        "--games",
        "4",
        "--depth",
        "1",
        "--move-timeout",
        "1",
        "--pdn",
        pdn_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let games = pdn::read(&std::fs::read_to_string(&pdn_path).unwrap()).unwrap();
    assert_eq!(games.len(), 4, "{out}");
    let _ = std::fs::remove_file(pdn_path);
    out
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses_every_game() {
    let out = broken_match("illegal");
    assert!(out.contains("wins 4 draws 0 losses 0"), "{out}");
    assert!(out.contains("illegal move 1-2"), "{out}");
}

#[test]
fn an_engine_that_exits_in_mid_game_loses_and_the_match_goes_on() {
    let out = broken_match("exit");
    assert!(out.contains("wins 4 draws 0 losses 0"), "{out}");
    assert!(out.contains("forfeits"), "{out}");
}

#[test]
fn a_silent_engine_loses() {
    let out = broken_match("silent");
    assert!(out.contains("wins 4 draws 0 losses 0"), "{out}");
    assert!(out.contains("did not answer"), "{out}");
}

#[test]
fn bad_options_are_refused_clearly() {
    let (code, _, err) = run(&["match", "--engine", "x", "--games", "2", "--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("two --engine"), "{err}");
    let (code, _, err) = run(&["match", "--engine", "a", "--engine", "b", "--depth", "6,0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--depth '0'"), "{err}");
    let (code, _, err) = run(&[
        "match", "--engine", "a", "--engine", "b", "--nodes", "1,2,3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("two separated by a comma"), "{err}");
    let (code, _, err) = run(&["match", "--engine", "a", "--engine", "b", "--tc", "fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("time control"), "{err}");
    let (code, _, err) = run(&[
        "match",
        "--engine",
        "/nonexistent/engine",
        "--engine",
        "/nonexistent/engine",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("engine 1"), "{err}");
}
