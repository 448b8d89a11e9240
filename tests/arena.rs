//! The match runner end to end: two real poolshark processes, broken engines
//! (tests/data/broken_engine.py), and real engines that misbehave in one way
//! (tests/data/wrap_engine.py).

use poolshark_engine::core::game::GameResult;
use poolshark_engine::core::pdn;
use poolshark_engine::core::Color;

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
    assert!(
        out.contains("pairs: 10 pentanomial ["),
        "the pairs are counted: {out}"
    );
    assert!(out.contains("time per move: "), "{out}");
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    assert!(
        text.contains("s}"),
        "each move's time is in the PDN: {text}"
    );
    let games = pdn::read(&text).expect("the PDN reads back");
    assert_eq!(games.len(), 20);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("23"));
        assert_eq!(g.times.len(), g.moves.len(), "a time for every move");
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

/// What a finished match left: its output, its games, and the second engine's stderr log.
struct Played {
    out: String,
    games: Vec<pdn::PdnGame>,
    log2: String,
}

/// Play a match between poolshark and `second`, with these limit options; it must end with
/// status 0 and write every game.
fn play(name: &str, second: &str, games: usize, limits: &[&str]) -> Played {
    let good = format!("{} hub", bin());
    let pdn_path = tmp(&format!("{name}.pdn"));
    let games_text = games.to_string();
    let mut args = vec![
        "match",
        "--engine",
        &good,
        "--engine",
        second,
        "--games",
        &games_text,
        "--move-timeout",
        "1",
        "--pdn",
        pdn_path.to_str().unwrap(),
    ];
    args.extend_from_slice(limits);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let played = pdn::read(&text).unwrap();
    assert_eq!(played.len(), games, "{out}");
    let logs = [1, 2].map(|i| pdn_path.with_extension(format!("engine{i}.log")));
    let log2 = std::fs::read_to_string(&logs[1]).expect("engine 2's stderr log");
    for p in logs.iter().chain([&pdn_path]) {
        let _ = std::fs::remove_file(p);
    }
    Played {
        out,
        games: played,
        log2,
    }
}

fn broken_match(mode: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/broken_engine.py");
    play(
        &format!("broken-{mode}"),
        &format!("python3 {script} {mode}"),
        4,
        &["--depth", "1"],
    )
    .out
}

/// poolshark at depth 1 against poolshark wrapped to misbehave in `mode`, with `limits` for
/// the wrapped one (it searches to depth 1 whatever it is told).
fn wrapped_match(mode: &str, limits: &[&str]) -> Played {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wrap_engine.py");
    let wrapped = format!("python3 {script} {mode} {} hub", bin());
    play(&format!("wrap-{mode}"), &wrapped, 2, limits)
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses_every_game() {
    let out = broken_match("illegal");
    assert!(out.contains("wins 4 draws 0 losses 0"), "{out}");
    assert!(out.contains("illegal move 1-2"), "{out}");
    // A clean sweep has no upper bound, and two pairs bound it only loosely.
    assert!(out.contains("elo: +inf (95% interval -"), "{out}");
    assert!(out.contains(" to +inf)"), "{out}");
    assert!(
        out.contains("pairs: 2 pentanomial [0, 0, 0, 0, 2]"),
        "{out}"
    );
    assert!(out.contains("note: every pair scored 2/2"), "{out}");
}

#[test]
fn an_engine_that_exits_in_mid_game_loses_and_the_match_goes_on() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/broken_engine.py");
    let p = play(
        "broken-exit",
        &format!("python3 {script} exit"),
        4,
        &["--depth", "1"],
    );
    assert!(p.out.contains("wins 4 draws 0 losses 0"), "{}", p.out);
    assert!(p.out.contains("forfeits"), "{}", p.out);
    // Its last words are quoted and kept in its log.
    assert!(
        p.out
            .contains("exit status: 3; its stderr ends: broken-exit: out of cheese"),
        "{}",
        p.out
    );
    assert!(p.log2.contains("out of cheese, giving up"), "{}", p.log2);
}

/// An engine whose search cannot run answers `error` and an empty `done`
/// (docs/PROTOCOL.md): the match stops at once, naming it, and scores nothing for it.
#[test]
fn an_engine_that_cannot_search_stops_the_match_and_is_named() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/broken_engine.py");
    let broken = format!("python3 {script} fail");
    let good = format!("{} hub", bin());
    let pdn_path = tmp("broken-fail.pdn");
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &good,
        "--engine",
        &broken,
        "--games",
        "20",
        "--depth",
        "1",
        "--pdn",
        pdn_path.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "{out}\n{err}");
    assert!(err.contains("match stopped: engine 2"), "{err}");
    assert!(err.contains("could not search"), "{err}");
    assert!(
        err.contains("out of cheese"),
        "the engine's error is quoted: {err}"
    );
    assert!(
        err.contains(&broken),
        "the engine's command is named: {err}"
    );
    // Nothing scored for a game the engine could not play, and no more games started.
    assert!(out.contains("not scored"), "{out}");
    assert!(!out.contains("forfeits"), "{out}");
    assert!(
        out.lines().filter(|l| l.starts_with("game ")).count() < 20,
        "{out}"
    );
    for i in [1, 2] {
        let _ = std::fs::remove_file(pdn_path.with_extension(format!("engine{i}.log")));
    }
    let _ = std::fs::remove_file(pdn_path);
}

#[test]
fn a_missing_engine_says_not_found() {
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
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn invalid_utf8_from_an_engine_is_read_not_a_forfeit() {
    let p = wrapped_match("bad-utf8", &["--depth", "1"]);
    assert!(!p.out.contains("forfeit"), "{}", p.out);
    assert!(!p.out.contains("exited"), "{}", p.out);
}

#[test]
fn an_over_long_line_is_a_fault() {
    let p = wrapped_match("long-line", &["--depth", "1"]);
    assert!(
        p.out
            .contains("forfeits: it wrote a line longer than 65536 bytes"),
        "{}",
        p.out
    );
    assert!(p.out.contains("wins 2 draws 0 losses 0"), "{}", p.out);
}

#[test]
fn a_slow_new_game_is_not_charged_to_the_clock() {
    // The wrapped engine takes 3 s over `new-game` and has a 1 s clock.
    let p = wrapped_match("slow-new-game", &["--depth", "1,-", "--tc", "-,1+0.1"]);
    assert!(!p.out.contains("lost on time"), "{}", p.out);
    assert!(!p.out.contains("forfeit"), "{}", p.out);
    for g in &p.games {
        assert!(g.moves.len() > 1, "{:?}", g.tag("Termination"));
    }
}

/// The Hub's `time` is the clock before the move's increment (the engine adds `inc` itself),
/// so the first move of a 1 s + 0.5 s game is sent as `time=1.000 inc=0.500`.
#[test]
fn the_clock_is_sent_before_the_increment() {
    let p = wrapped_match("log-level", &["--depth", "1,-", "--tc", "-,1+0.5"]);
    let sent: Vec<&str> = p
        .log2
        .lines()
        .filter_map(|l| l.strip_prefix("runner sent: "))
        .collect();
    assert!(!sent.is_empty(), "{}", p.log2);
    assert_eq!(sent[0], "level time=1.000 inc=0.500", "{}", p.log2);
    // The wrapped engine answers at depth 1, well inside the increment: its clock only grows.
    for line in &sent {
        let time: f64 = line
            .strip_prefix("level time=")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!((1.0..60.0).contains(&time), "{line}");
    }
}

#[test]
fn a_move_past_the_move_time_margin_loses() {
    // The wrapped engine waits 1 s before each move; at 0.05 s a move the margin ends at
    // 0.05 x 1.25 + 0.25 = 0.3125 s.
    let p = wrapped_match("slow-move", &["--depth", "1,-", "--movetime", "-,0.05"]);
    assert!(p.out.contains("wins 2 draws 0 losses 0"), "{}", p.out);
    assert!(
        p.out
            .contains("lost on time (no move within 0.312 s, move time 0.050 s)"),
        "{}",
        p.out
    );
}

#[test]
fn each_engine_may_have_its_own_kind_of_limit() {
    let p = wrapped_match("plain", &["--nodes", "-,500", "--depth", "2,-"]);
    assert!(!p.out.contains("forfeit"), "{}", p.out);
    assert!(p.out.contains("time per move: "), "{}", p.out);
    for g in &p.games {
        assert_eq!(g.times.len(), g.moves.len());
    }
}

/// `--level 1,10` alone is a match (each engine at its level's own node count): level 1
/// loses to level 10, which plays no move that a weak player's randomness would. A bad level
/// is refused before any game.
#[test]
fn levels_play_at_their_own_nodes_and_the_weaker_loses() {
    let engine = format!("{} hub", bin());
    let p = play("levels", &engine, 4, &["--level", "1,10"]);
    assert!(!p.out.contains("forfeit"), "{}", p.out);
    let score = p.out.lines().find(|l| l.starts_with("score of ")).unwrap();
    assert!(score.contains("wins 0 "), "{score}");
    assert!(!score.contains("losses 0 "), "{score}");
    for bad in ["11", "0", "1,2,3", "easy"] {
        let (code, _, err) = run(&[
            "match", "--engine", &engine, "--engine", &engine, "--level", bad,
        ]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--level"), "{bad}: {err}");
    }
}

#[test]
fn parameters_an_engine_refuses_stop_the_match() {
    let engine = format!("{} hub", bin());
    for (param, why) in [
        ("1:bok=false", "unknown parameter bok"),
        ("1:book=flase", "book=flase is not valid"),
        ("tt-size=40", "tt-size=40 is not valid"),
        ("2:threads=0", "threads=0 is not valid"),
    ] {
        let (code, out, err) = run(&[
            "match", "--engine", &engine, "--engine", &engine, "--depth", "1", "--param", param,
        ]);
        assert_eq!(code, 2, "{param}: {out}\n{err}");
        assert!(err.contains("was refused"), "{param}: {err}");
        assert!(err.contains(why), "{param}: {err}");
        assert!(!out.contains("game 1"), "{param}: {out}");
    }
    let (code, _, err) = run(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--param",
        "3:book=false",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("engine 3 does not exist"), "{err}");
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
    let (code, _, err) = run(&["match", "--engine", "a", "--engine", "b", "--depth", "6,-"]);
    assert_eq!(code, 2);
    assert!(err.contains("engine 2 has no limit"), "{err}");
    let (code, _, err) = run(&[
        "match", "--engine", "a", "--engine", "b", "--depth", "6", "--nodes", "5,-",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("engine 1 has two limits"), "{err}");
    let (code, _, err) = run(&["match", "--engine", "a", "--engine", "b", "--tc", "fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("time control"), "{err}");
}

/// Issue 37, defect 6: `match --pdn` appends to a file that is there, numbering its games
/// after those in it, so `stats` reads both runs as one match; a file that is not PDN is
/// refused and left as it was.
#[test]
fn match_appends_to_its_pdn_and_stats_reads_both_runs() {
    let pdn_path = tmp("append.pdn");
    let engine = format!("{} hub", bin());
    let play = |path: &std::path::Path| {
        run(&[
            "match",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--games",
            "2",
            "--depth",
            "1",
            "--pdn",
            path.to_str().unwrap(),
        ])
    };
    for _ in 0..2 {
        let (code, out, err) = play(&pdn_path);
        assert_eq!(code, 0, "{out}\n{err}");
    }
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let games = pdn::read(&text).expect("the PDN reads back");
    let pairs: Vec<_> = games.iter().map(|g| g.tag("Pair").unwrap()).collect();
    assert_eq!(pairs, ["1.1", "1.2", "2.1", "2.2"], "{text}");
    let rounds: Vec<_> = games.iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    let (code, out, err) = run(&["stats", pdn_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 4 games in "), "{out}");
    assert!(out.contains("pairs: 2 pentanomial"), "{out}");
    assert!(
        !out.contains("cut off") && !out.contains("without"),
        "{out}"
    );

    let notes = tmp("notes.pdn");
    std::fs::write(&notes, "my notes: [keep them\n").unwrap();
    // An earlier run's engine log beside it stays as it was too.
    let log = notes.with_extension("engine1.log");
    std::fs::write(&log, "an earlier run's log\n").unwrap();
    let (code, _, err) = play(&notes);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writes over nothing"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "my notes: [keep them\n"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "an earlier run's log\n"
    );
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&pdn_path);
    let _ = std::fs::remove_file(&notes);
}

/// Issue 37, defect 6: `selfplay --out` never writes over a file: one that holds anything is
/// refused and left as it was, whether it is self-play data or not.
#[test]
fn selfplay_writes_over_nothing() {
    let out = tmp("selfplay-out.txt");
    let call = |p: &std::path::Path| {
        run(&[
            "selfplay",
            "--games",
            "1",
            "--nodes",
            "50",
            "--out",
            p.to_str().unwrap(),
        ])
    };
    std::fs::write(&out, "").unwrap();
    let (code, _, err) = call(&out);
    assert_eq!(code, 0, "an empty file is used: {err}");
    let data = std::fs::read_to_string(&out).unwrap();
    assert!(!data.is_empty());
    let (code, _, err) = call(&out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds self-play data already"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), data);
    std::fs::write(&out, "precious\n").unwrap();
    let (code, _, err) = call(&out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not self-play data"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    let _ = std::fs::remove_file(&out);
}

/// A game a match wrote (shard 1 of a 400-game screen on 5 December) whose move 17 for Black,
/// `5x14x23x32`, `stats` once refused as ambiguous with `5x14x21x30x23x32`, so the whole match
/// could not be summed: a match's own PDN must always read back.
#[test]
fn stats_reads_a_capture_whose_path_lies_inside_a_longer_one() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/full-path-capture.pdn"
    );
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(" 5x14x23x32 "), "the file holds the move");
    let games = pdn::read(&text).expect("the PDN reads back");
    assert_eq!(games.len(), 1);
    let (code, out, err) = run(&["stats", path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 1 games in "), "{out}");
    assert!(out.contains("draws 1"), "{out}");
}
