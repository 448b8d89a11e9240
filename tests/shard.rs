//! Shards (`match --shard`, `selfplay --shard`) and `poolshark stats`: the shards of a run
//! together are the whole run, game for game, and `stats` over the shards' PDN files prints
//! the whole match's summary.

use poolshark::arena::shard_games;
use poolshark_engine::core::pdn;
use poolshark_engine::shard::Shard;
use poolshark_tune::selfplay::{run, SelfplayConfig};
use std::collections::BTreeMap;
use std::sync::Mutex;

mod support;
use support::{run_cli, scratch_dir};

#[test]
fn shards_partition_the_pairs() {
    for games in [1usize, 2, 11, 12] {
        let pairs = games.div_ceil(2);
        // N > pairs leaves some shards empty.
        for count in [1, 2, 3, 5, pairs + 3] {
            let mut owner = vec![None; games];
            for index in 0..count {
                let mine = shard_games(games, Shard { index, count });
                for &i in &mine {
                    assert!(i < games);
                    assert_eq!(
                        owner[i], None,
                        "game {i} in two shards ({games} games, N {count})"
                    );
                    owner[i] = Some(index);
                    assert_eq!(i / 2 % count, index, "pair index % N");
                }
                assert!(mine.windows(2).all(|w| w[0] < w[1]), "in match order");
            }
            for (i, o) in owner.iter().enumerate() {
                assert!(
                    o.is_some(),
                    "game {i} in no shard ({games} games, N {count})"
                );
                // Both games of a pair go to one shard.
                if i % 2 == 1 {
                    assert_eq!(owner[i - 1], *o, "pair {} split", i / 2);
                }
            }
        }
    }
}

#[test]
fn bad_shard_specs_are_bad_input() {
    for spec in ["3/2", "0/0", "x", "1", "-1/2", "1/2/3"] {
        let shard = format!("--shard={spec}");
        let (code, _, err) = run_cli(&[
            "match", "--engine", "a", "--engine", "b", "--depth", "1", &shard,
        ]);
        assert_eq!(code, 2, "match --shard {spec}: {err}");
        assert!(err.contains("shard"), "{err}");
        let (code, _, err) = run_cli(&[
            "selfplay",
            "--games",
            "2",
            "--out",
            "/nonexistent/x",
            "--shard",
            spec,
        ]);
        assert_eq!(code, 2, "selfplay --shard {spec}: {err}");
    }
}

/// Whether a summary line depends on wall time (see `arena::merge`), so is left out of the
/// comparison.
fn wall_time(line: &str) -> bool {
    line.starts_with("match: ") || line.starts_with("time per move: ")
}

/// The summary lines of a match's stdout: from the `match:` line on.
fn summary(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("match: "))
        .unwrap_or_else(|| panic!("no summary in {out}"));
    lines[start..].iter().map(|l| l.to_string()).collect()
}

/// The games of a PDN file by `Round`, as (moves in PDN, result).
fn games_by_round(path: &std::path::Path) -> BTreeMap<String, (Vec<pdn::PdnGame>, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut by_round = BTreeMap::new();
    for g in pdn::read(&text).unwrap() {
        let round = g.tag("Round").unwrap().to_string();
        let result = g.result.clone();
        // The times differ from run to run; the rest must not.
        let mut bare = g.clone();
        bare.times.clear();
        bare.tags.retain(|(k, _)| k != "Date");
        by_round
            .entry(round)
            .or_insert_with(|| (Vec::new(), result))
            .0
            .push(bare);
    }
    by_round
}

/// A match at fixed nodes (deterministic: no book, new-game clears each engine's table),
/// with engines of different strength so that pairs differ.
fn play(dir: &std::path::Path, name: &str, shard: Option<&str>) -> (String, std::path::PathBuf) {
    let engine = format!("{} hub", env!("CARGO_BIN_EXE_poolshark"));
    let path = dir.join(name);
    let mut args = vec![
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "10",
        "--nodes",
        "400,100",
        "--param",
        "book=false",
        // Nor the tables of a working folder that has them (egdb/): read in the background,
        // they would make the games depend on when each group came in.
        "--param",
        "egdb=false",
        "--pdn",
        path.to_str().unwrap(),
    ];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    (out, path)
}

#[test]
fn stats_over_the_shards_is_the_whole_match() {
    let dir = scratch_dir("shard-stats");
    let (whole_out, whole_pdn) = play(&dir, "whole.pdn", None);
    let whole: Vec<String> = summary(&whole_out);
    // 3 shards of 5 pairs: 2, 2 and 1 pairs.
    let mut shard_pdns = Vec::new();
    let mut shard_games_seen = BTreeMap::new();
    for i in 0..3 {
        let spec = format!("{i}/3");
        let (out, path) = play(&dir, &format!("shard{i}.pdn"), Some(&spec));
        // Game lines carry whole-match numbers.
        for line in out.lines().filter(|l| l.starts_with("game ")) {
            let k: usize = line[5..].split('/').next().unwrap().parse().unwrap();
            assert_eq!((k - 1) / 2 % 3, i, "{line}");
            assert!(line.contains(&format!("{k}/10: ")), "{line}");
        }
        shard_games_seen.extend(games_by_round(&path));
        shard_pdns.push(path);
    }
    // The shards played the very games of the whole match.
    assert_eq!(shard_games_seen, games_by_round(&whole_pdn));

    let stats = |files: &[&std::path::Path], extra: &[&str]| {
        let mut args = vec!["stats"];
        args.extend(files.iter().map(|p| p.to_str().unwrap()));
        args.extend_from_slice(extra);
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{out}\n{err}");
        out.lines().map(|l| l.to_string()).collect::<Vec<_>>()
    };
    // In any order.
    let merged = stats(&[&shard_pdns[2], &shard_pdns[0], &shard_pdns[1]], &[]);
    let same = |a: &[String], b: &[String]| {
        assert_eq!(a.len(), b.len(), "{a:#?}\n{b:#?}");
        for (x, y) in a.iter().zip(b) {
            if wall_time(y) {
                assert!(wall_time(x), "{x}");
            } else {
                assert_eq!(x, y);
            }
        }
    };
    same(&merged, &whole);
    // And as stats over the whole match's file.
    same(&merged, &stats(&[&whole_pdn], &[]));
    assert!(merged[0].contains(": 10 games in "), "{}", merged[0]);

    // The other engine's view: the score mirrored.
    let other = stats(&[&whole_pdn], &["--engine", "poolshark [2]"]);
    assert!(
        other[1].starts_with("score of poolshark [2]: "),
        "{other:?}"
    );

    // A shard still to come: its games are missing, and its pairs counted as missing.
    let partial = stats(&[&shard_pdns[0]], &["--sprt", "elo0=0 elo1=5"]);
    assert!(partial
        .iter()
        .any(|l| l.starts_with("sprt: elo0=0 elo1=5 ")));
    assert!(!partial.iter().any(|l| l.contains("without the other game")));

    // A file given twice is an error, not a double count.
    let (code, _, err) = run_cli(&[
        "stats",
        shard_pdns[0].to_str().unwrap(),
        shard_pdns[0].to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("appears twice"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_refuses_what_it_cannot_read() {
    let dir = scratch_dir("shard-stats-bad");
    let bad = dir.join("bad.pdn");
    std::fs::write(&bad, "[Event \"x\"]\n1. 11-17 *\n").unwrap();
    let missing = dir.join("missing.pdn");
    for path in [&bad, &missing, &dir] {
        let (code, _, err) = run_cli(&["stats", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{}: {err}", path.display());
        assert!(err.starts_with("error: "), "{err}");
    }
    // A game without its pair's other one counts in the score only, with a note.
    let one = dir.join("one.pdn");
    std::fs::write(
        &one,
        "[Round \"3\"]\n[White \"b\"]\n[Black \"a\"]\n1. 11-15 23-19 0-1\n",
    )
    .unwrap();
    let (code, out, err) = run_cli(&["stats", one.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score of a: wins 1 draws 0 losses 0"), "{out}");
    assert!(out.contains("pairs: 0 pentanomial"), "{out}");
    assert!(
        out.contains("note: 1 game without the other game of its pair"),
        "{out}"
    );
    // A byte order mark at the start is read past; a Result tag that the movetext
    // contradicts is an error naming the file, the game and where in the file.
    let game = "[Round \"3\"]\n[White \"b\"]\n[Black \"a\"]\n1. 11-15 23-19 0-1\n";
    std::fs::write(&one, format!("\u{feff}{game}")).unwrap();
    let (code, out, err) = run_cli(&["stats", one.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score of a: wins 1 draws 0 losses 0"), "{out}");
    let two = dir.join("two.pdn");
    let wrong = "[Round \"4\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n1. 11-15 0-1\n";
    std::fs::write(&two, format!("{game}{wrong}")).unwrap();
    let (code, out, err) = run_cli(&["stats", two.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err,
        format!(
            "error: {}: game 2, line 9, column 10: the Result tag says '1-0' but the movetext ends '0-1'\n",
            two.display()
        )
    );
    // Moves after the game ended (a third repetition) are an error.
    let rep = "[Pair \"1.1\"]\n[White \"b\"]\n[Black \"a\"]\n[FEN \"B:WK30:BK3\"]\n\
               1. 3-7 30-26 2. 7-3 26-30 3. 3-7 30-26 4. 7-3 26-30 5. 3-7 1/2-1/2\n";
    std::fs::write(&two, rep).unwrap();
    let (code, _, err) = run_cli(&["stats", two.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "game 1, line 5, column 56: move 5. '3-7' (ply 9) after the game ended (draw by threefold repetition)"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn selfplay(shard: Shard) -> Vec<String> {
    let cfg = SelfplayConfig {
        games: 5,
        nodes: 300,
        random_plies: 4,
        seed: 3,
        concurrency: 1,
        weights: poolshark_engine::eval::Weights::default(),
        shard,
    };
    let text = Mutex::new(String::new());
    let mut sink = |t: &str| {
        text.lock().unwrap().push_str(t);
        Ok(())
    };
    run(&cfg, &mut sink, &mut |_, _| {}).unwrap();
    let text = text.into_inner().unwrap();
    text.lines().map(|l| l.to_string()).collect()
}

#[test]
fn selfplay_shards_together_are_the_whole_run() {
    let mut whole = selfplay(Shard::ALL);
    whole.sort();
    for count in [2, 7] {
        let mut union: Vec<String> = (0..count)
            .flat_map(|index| selfplay(Shard { index, count }))
            .collect();
        union.sort();
        assert_eq!(union, whole, "{count} shards");
    }
}

#[test]
fn selfplay_shard_on_the_command_line() {
    let dir = scratch_dir("shard-selfplay");
    let out = dir.join("s.txt");
    let (code, stdout, err) = run_cli(&[
        "selfplay",
        "--games",
        "3",
        "--nodes",
        "200",
        "--shard",
        "1/2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Shard 1/2 of 3 games is game 1 alone.
    assert!(stdout.starts_with("games 1 positions "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 37, defect 8: `stats` on a match PDN still being written, cut anywhere in its last
/// game, counts the finished games and says in a note that one was left out.
#[test]
fn stats_leaves_out_a_game_still_being_written() {
    let dir = scratch_dir("shard-stats-cut");
    let path = dir.join("live.pdn");
    let game = |pair: usize, half: usize, white: &str, black: &str, result: &str| {
        format!(
            "[Event \"m\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Pair \"{pair}.{half}\"]\n1. 11-15 {{time 0.010s}} 23-19 {{time 0.012s}} \
             2. 8-11 {{time 0.009s}} {result}\n\n"
        )
    };
    let done = format!(
        "{}{}",
        game(1, 1, "b", "a", "0-1"),
        game(1, 2, "a", "b", "1/2-1/2")
    );
    let third = game(2, 1, "b", "a", "1-0");
    let (code, whole, err) = run_cli(&["stats", {
        std::fs::write(&path, &done).unwrap();
        path.to_str().unwrap()
    }]);
    assert_eq!(code, 0, "{err}");
    assert!(!whole.contains("cut off"), "{whole}");
    // Cut in a tag, in a comment, in a move, and just before the result.
    for cut in ["[Pai", "{time 0.0", "23-1", "2. 8-11 {time 0.009s} "] {
        let at = third.find(cut).unwrap() + cut.len();
        std::fs::write(&path, format!("{done}{}", &third[..at])).unwrap();
        let (code, out, err) = run_cli(&["stats", path.to_str().unwrap()]);
        assert_eq!(code, 0, "cut after '{cut}': {err}");
        // The finished games' lines as before, then the note.
        let (counted, note) = out.split_at(whole.len().min(out.len()));
        assert_eq!(counted, whole, "cut after '{cut}'");
        assert_eq!(
            note, "note: 1 game cut off at the end of its file (still being written?) left out\n",
            "cut after '{cut}'"
        );
    }
    // The same text with a bad move and a result is still an error: the game was finished.
    std::fs::write(&path, format!("{done}{}", third.replace("23-19", "23-17"))).unwrap();
    let (code, _, err) = run_cli(&["stats", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
