//! `poolshark annotate` as a user runs it: the real binary on PDN files, its output read back
//! with poolshark's own PDN reader and every move replayed.

mod support;

use poolshark_engine::core::pdn::{self, PdnGame};
use poolshark_engine::core::{notation, Game, Position};
use poolshark_engine::search::{Engine, Limits, SearchControl};
use std::path::Path;
use support::{run_cli as run, scratch_dir};

/// The opening before the planted blunder: Black to move at ply 9.
const OPENING: &str = "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14";
/// Black's 12-16 there drops a man to White's forced 19x12 with nothing back: `poolshark
/// analyze --depth 12` scores the position after it 2.21 for White, after 4-8 (the best
/// move) 0.10. The two moves after it are the capture and a reply.
const BLUNDER: &str = "12-16";
const AFTER: &str = "19x12 6-9";

/// A game from `start` through `moves` (PDN move text), with tags and a result.
fn game(start: Position, moves: &str, tags: &[(&str, &str)], result: &str) -> PdnGame {
    let mut g = Game::new(start);
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    let mut all: Vec<(String, String)> = tags
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    // The Seven Tag Roster's Result first, as the PDN writer orders them.
    all.push(("Result".into(), result.into()));
    all.push(("FEN".into(), notation::write_fen(&start)));
    PdnGame {
        tags: all,
        start,
        moves: g.moves().to_vec(),
        times: Vec::new(),
        result: result.into(),
    }
}

fn write_games(path: &Path, games: &[PdnGame]) {
    let text: String = games.iter().map(PdnGame::write).collect();
    std::fs::write(path, text).unwrap();
}

/// Each move of each game of annotated PDN text, as written (mark included), with the
/// comment that follows it: a game's movetext split into moves and `{...}` comments.
fn annotated_moves(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let movetext: Vec<&str> = block.lines().filter(|l| !l.starts_with('[')).collect();
        let movetext = movetext.join(" ");
        let mut moves: Vec<(String, String)> = Vec::new();
        let mut rest = movetext.as_str();
        while let Some(open) = rest.find('{') {
            for token in rest[..open].split_whitespace() {
                if !token.ends_with('.') {
                    moves.push((token.to_string(), String::new()));
                }
            }
            let close = open + rest[open..].find('}').expect("a closed comment");
            let last = moves.last_mut().expect("a comment after a move");
            if last.1.is_empty() {
                last.1 = rest[open + 1..close].to_string();
            }
            rest = &rest[close + 1..];
        }
        games.push(moves);
    }
    games
}

#[test]
fn a_planted_blunder_is_marked_and_the_output_replays() {
    let dir = scratch_dir("annotate-blunder");
    let input = dir.join("games.pdn");
    let output = dir.join("annotated.pdn");
    let blunder_game = game(
        Position::start(),
        &format!("{OPENING} {BLUNDER} {AFTER}"),
        &[("Event", "planted"), ("White", "w"), ("Black", "b")],
        "*",
    );
    // A second game from a FEN with White to move, ending in a result.
    let fen_game = game(
        notation::parse_fen("W:W26,32:B17,1").unwrap(),
        "32-27 1-6 27-23",
        &[("Event", "fen")],
        "1/2-1/2",
    );
    write_games(&input, &[blunder_game.clone(), fen_game.clone()]);
    let (code, stdout, stderr) = run(&[
        "annotate",
        "--pdn",
        input.to_str().unwrap(),
        "--depth",
        "10",
        "--out",
        output.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&output).unwrap();

    // The blunder is `??`, with the best move and its score named.
    let moves = annotated_moves(&text);
    assert_eq!(moves.len(), 2);
    let ply = OPENING.split_whitespace().count();
    let (mv, comment) = &moves[0][ply];
    assert_eq!(mv, &format!("{BLUNDER}??"), "{text}");
    assert!(comment.starts_with("[%eval -"), "{comment}");
    let best = comment
        .split(" best ")
        .nth(1)
        .unwrap_or_else(|| panic!("{comment}"));
    assert!(!best.starts_with(BLUNDER), "{comment}");
    assert!(best.contains(" [%eval "), "{comment}");
    // Every move has its `[%eval S]` comment.
    for (mv, comment) in moves.iter().flatten() {
        assert!(comment.starts_with("[%eval "), "{mv} {comment}");
    }

    // It reads back in poolshark's reader, every move legal, tags and results as they were.
    let back = pdn::read(&text).unwrap();
    assert_eq!(back.len(), 2);
    for (a, b) in back.iter().zip([&blunder_game, &fen_game]) {
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.result, b.result);
        assert_eq!(a.start, b.start);
        assert_eq!(a.moves, b.moves);
        let mut replay = Game::new(a.start);
        for mv in &a.moves {
            assert!(poolshark_engine::core::movegen::legal_moves(replay.position()).contains(mv));
            replay.play(mv);
        }
    }

    // One summary line per game on stdout, in the shape the issue gives.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for (k, line) in lines.iter().enumerate() {
        let (head, sides) = line.split_once(": ").unwrap();
        assert_eq!(head, format!("game {}", k + 1));
        let sides: Vec<&str> = sides.split("; ").collect();
        assert_eq!(sides.len(), 2, "{line}");
        for (side, name) in sides.iter().zip(["black", "white"]) {
            let w: Vec<&str> = side.split(' ').collect();
            assert_eq!(w.len(), 9, "{line}");
            assert_eq!(
                [w[0], w[1], w[3], w[5], w[7]],
                [name, "inaccuracies", "mistakes", "blunders", "mean-loss"],
                "{line}"
            );
            for i in [2, 4, 6] {
                w[i].parse::<u32>().unwrap();
            }
            assert_eq!(w[8].split('.').nth(1).map(str::len), Some(2), "{line}");
        }
    }
    let blunders: u32 = lines[0].split(' ').nth(8).unwrap().parse().unwrap();
    assert!(blunders >= 1, "{}", lines[0]);

    // To stdout: the same PDN (the search is the same on one thread), the summary on
    // stderr; --game picks one game.
    let (code, stdout, stderr) = run(&[
        "annotate",
        "--pdn",
        input.to_str().unwrap(),
        "--depth",
        "10",
        "--game",
        "2",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let back = pdn::read(&stdout).unwrap();
    assert_eq!(back, vec![fen_game]);
    assert_eq!(stdout, text.split_once("\n\n").unwrap().1);
    assert!(stderr.contains(lines[1]), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_of_best_moves_has_no_blunder() {
    // Each move the engine's own best at depth 8, from a fresh table (one thread, so the
    // game is the same every run).
    const DEPTH: u32 = 8;
    let mut played = Game::new(Position::start());
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    for _ in 0..40 {
        if played.result() != poolshark_engine::core::GameResult::Ongoing {
            break;
        }
        let engine = Engine::new(16, 1);
        let out = engine.search(&played, &limits, &SearchControl::new(), &mut |_| {});
        played.play(&out.best.unwrap());
    }
    let moves: Vec<String> = {
        let mut g = Game::new(Position::start());
        played
            .moves()
            .iter()
            .map(|m| {
                let t = notation::pdn_move(g.position(), m);
                g.play(m);
                t
            })
            .collect()
    };
    let best = game(Position::start(), &moves.join(" "), &[], "*");
    let dir = scratch_dir("annotate-best");
    let input = dir.join("best.pdn");
    write_games(&input, &[best]);
    for depth in ["8", "6"] {
        let (code, stdout, stderr) = run(&[
            "annotate",
            "--pdn",
            input.to_str().unwrap(),
            "--depth",
            depth,
        ]);
        assert_eq!(code, 0, "{stderr}");
        let marked = annotated_moves(&stdout);
        assert_eq!(marked[0].len(), moves.len());
        for (mv, comment) in &marked[0] {
            assert!(
                !mv.ends_with("??"),
                "depth {depth}: {mv} {comment}\n{stdout}"
            );
        }
        assert!(stderr.contains("blunders 0 mean-loss"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch_dir("annotate-errors");
    let input = dir.join("bad.pdn");
    let good = game(Position::start(), "11-15 23-19", &[], "*").write();
    // Game 2's third move (Black's, ply 5) is not legal.
    std::fs::write(
        &input,
        format!("{good}1. 11-15 23-19 2. 8-11 22-17 3. 12-17 *\n"),
    )
    .unwrap();
    let (code, stdout, stderr) =
        run(&["annotate", "--pdn", input.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("game 2: move 3. '12-17'"), "{stderr}");
    assert!(!stderr.contains("panick"), "{stderr}");

    let input = dir.join("good.pdn");
    std::fs::write(&input, &good).unwrap();
    let (code, _, stderr) = run(&["annotate", "--pdn", input.to_str().unwrap(), "--game", "2"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--game 2") && stderr.contains("has 1 game"),
        "{stderr}"
    );
    let (code, _, _) = run(&["annotate", "--pdn", input.to_str().unwrap(), "--game", "0"]);
    assert_eq!(code, 2);

    let empty = dir.join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let (code, _, stderr) = run(&["annotate", "--pdn", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no games"), "{stderr}");
    let missing = dir.join("missing.pdn");
    let (code, _, stderr) = run(&["annotate", "--pdn", missing.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.pdn"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn help_gives_the_thresholds() {
    use poolshark_engine::review::marks::{BLUNDER_MEN, INACCURACY_MEN, MISTAKE_MEN};
    let (code, out, _) = run(&["annotate", "--help"]);
    assert_eq!(code, 0);
    for t in [INACCURACY_MEN, MISTAKE_MEN, BLUNDER_MEN] {
        assert!(out.contains(&format!("{t:.2}")), "{out}");
    }
}

/// Issue 37, defect 4: `--out` into a folder that is not there fails before the review, not
/// after it: no game's summary line is printed.
#[test]
fn an_out_in_a_missing_folder_fails_before_the_review() {
    let dir = scratch_dir("annotate-no-folder");
    let input = dir.join("games.pdn");
    let output = dir.join("missing").join("annotated.pdn");
    let g = game(Position::start(), OPENING, &[("Event", "x")], "*");
    write_games(&input, &[g]);
    let (code, stdout, stderr) = run(&[
        "annotate",
        "--pdn",
        input.to_str().unwrap(),
        "--depth",
        "1",
        "--out",
        output.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "{stdout}");
    assert!(stdout.is_empty(), "the review ran: {stdout}");
    assert!(stderr.contains("folder does not exist"), "{stderr}");
}

/// Variations, comments and marks of the input are kept: the main line is reviewed, its
/// scores replace the ones it had, and everything beside it is written back as it was.
#[test]
fn variations_and_comments_are_kept() {
    let dir = scratch_dir("annotate-tree");
    let input = dir.join("tree.pdn");
    let text = "[Event \"tree\"]\n{Before the game.} 1. 11-15 {[%eval 9.99] my idea} \
                (1. 9-14!? {the other way} 2. 22-18 (2. 23-19 $14)) 23-19 2. 8-11! 22-17 *\n";
    std::fs::write(&input, text).unwrap();
    let (code, stdout, stderr) =
        run(&["annotate", "--pdn", input.to_str().unwrap(), "--depth", "4"]);
    assert_eq!(code, 0, "{stderr}");
    let first = |text| {
        pdn::games_in(text, pdn::TreeBuilder::default())
            .next()
            .expect("a game")
            .unwrap()
    };
    let (before, after) = (&first(text), &first(&stdout));
    let (t, u) = (&before.tree, &after.tree);
    assert_eq!(
        (u.len(), u.main_moves()),
        (t.len(), t.main_moves()),
        "{stdout}"
    );
    let notes = |tree: &poolshark_engine::core::tree::GameTree, path: &[usize]| {
        tree.node(tree.at_path(path).unwrap())
            .unwrap()
            .notes
            .clone()
    };
    // Beside the main line: as it was, nested variation and all.
    for path in [&[1][..], &[1, 0], &[1, 1]] {
        assert_eq!(notes(u, path), notes(t, path), "{path:?} {stdout}");
    }
    assert_eq!(notes(u, &[]).comment, "Before the game.");
    // On it: the review's score replaces the old one, the old comment stays after the
    // review's words, and every move has a score.
    let first = notes(u, &[0]);
    assert!(
        first.eval.is_some() && first.eval.as_deref() != Some("9.99"),
        "{stdout}"
    );
    assert!(first.comment.ends_with("my idea"), "{stdout}");
    for id in u.main_line().into_iter().skip(1) {
        assert!(u.node(id).unwrap().notes.eval.is_some(), "{stdout}");
    }
    // A mark the review does not replace stays (8-11 is no mistake at this depth).
    assert_eq!(notes(u, &[0, 0, 0]).nags, vec![1], "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--out` naming the input file itself (by another path) is refused, and the games stay.
#[test]
fn an_out_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = scratch_dir("annotate-out-is-in");
    let input = dir.join("games.pdn");
    let g = game(Position::start(), OPENING, &[("Event", "x")], "*");
    write_games(&input, &[g]);
    let before = std::fs::read(&input).unwrap();
    let same = dir.join(".").join("games.pdn");
    let (code, stdout, stderr) = run(&[
        "annotate",
        "--pdn",
        input.to_str().unwrap(),
        "--depth",
        "1",
        "--out",
        same.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("is the --pdn file itself"), "{stderr}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// Issue 58, item 6: a comment or `;` line before the first tag is not a game of its own,
/// so `--game K` is game K of the file (and `stats` reads such a file).
#[test]
fn a_header_comment_is_not_a_game() {
    let dir = scratch_dir("annotate-header");
    let input = dir.join("header.pdn");
    let one = game(Position::start(), "11-15 23-19", &[("Event", "one")], "*").write();
    let two = game(Position::start(), "9-14 22-18", &[("Event", "two")], "*").write();
    for header in ["{ exported by hand }\n", "; exported\n"] {
        std::fs::write(&input, format!("{header}{one}{two}")).unwrap();
        let file = input.to_str().unwrap();
        let (code, stdout, stderr) =
            run(&["annotate", "--pdn", file, "--depth", "1", "--game", "2"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("[Event \"two\"]"), "{header}: {stdout}");
        let (code, _, stderr) = run(&["annotate", "--pdn", file, "--game", "3"]);
        assert_eq!(code, 2);
        assert!(stderr.contains("has 2 games"), "{header}: {stderr}");
    }
    let match_game = |pair: &str, white: &str, black: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Pair \"{pair}\"]\n1. 11-15 23-19 0-1\n\n"
        )
    };
    let text = format!(
        "{{ a match }}\n; its games\n{}{}",
        match_game("1.1", "b", "a"),
        match_game("1.2", "a", "b")
    );
    std::fs::write(&input, text).unwrap();
    let (code, stdout, stderr) = run(&["stats", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pairs: 1 pentanomial"), "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 58, item 7: `annotate` refuses a game of another variant, wherever its tag stands,
/// naming the game and the place.
#[test]
fn another_game_type_is_refused() {
    let dir = scratch_dir("annotate-gametype");
    let input = dir.join("other.pdn");
    let one = game(Position::start(), "11-15 23-19", &[("Event", "one")], "*").write();
    std::fs::write(
        &input,
        format!("{one}[Event \"x\"] [GameType \"21\"]\n1. 32-28 *\n"),
    )
    .unwrap();
    for only in [None, Some("1")] {
        let mut args = vec!["annotate", "--pdn", input.to_str().unwrap(), "--depth", "1"];
        args.extend(only.map(|k| ["--game", k]).into_iter().flatten());
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 2, "{stdout}");
        assert!(
            stderr.contains("game 2, line 6, column 13: GameType \"21\" is not 23"),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
