//! `scripts/match-resume.sh` as a user runs it: the shards together end with the summary
//! the whole match gives, a second run plays nothing again, a shard left unfinished is played
//! again, and other options in the same directory, the options it sets itself and a bad shard
//! count are refused.

mod support;

use std::path::Path;
use std::process::Command;

/// (status, stdout, stderr) of a command.
fn output(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The match options of these tests: 8 games at depth 3, deterministic on one thread with
/// the book off (its choices among near-equal moves are random) and the table cleared by
/// each `new-game`.
fn options(bin: &str) -> Vec<String> {
    let engine = format!("{bin} hub");
    [
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "8",
        "--depth",
        "3,2",
        "--param",
        "book=false",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Run the script into `dir` with `shards` shards and these match options.
fn script(dir: &Path, shards: &str, opts: &[String]) -> (i32, String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    output(
        Command::new("bash")
            .arg(root.join("scripts/match-resume.sh"))
            .arg(dir)
            .arg(shards)
            .args(opts)
            .env("BIN", env!("CARGO_BIN_EXE_poolshark")),
    )
}

/// The summary lines that do not depend on the clock: score, Elo, pairs.
fn summary(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("score of") || l.starts_with("elo:") || l.starts_with("pairs:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn shards_add_up_to_the_match_and_resume() {
    let bin = env!("CARGO_BIN_EXE_poolshark");
    let opts = options(bin);
    let base = support::scratch_dir("match-resume");
    let dir = base.join("m");
    let (code, stdout, err) = script(&dir, "3", &opts);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains(": 8 games in"), "{stdout}");
    assert_eq!(err.matches("match-resume: shard ").count(), 3, "{err}");

    // The same match in one piece scores the same.
    let (code, whole, err) = output(Command::new(bin).arg("match").args(&opts));
    assert_eq!(code, 0, "{err}");
    assert_eq!(summary(&stdout), summary(&whole));
    assert_eq!(summary(&stdout).len(), 3, "{stdout}");

    // Run again: nothing is played, the same summary comes out.
    let pdn1 = std::fs::read_to_string(dir.join("shard-1.pdn")).unwrap();
    let (code, again, err) = script(&dir, "3", &opts);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("shard"), "{err}");
    assert_eq!(summary(&again), summary(&stdout));
    assert_eq!(
        std::fs::read_to_string(dir.join("shard-1.pdn")).unwrap(),
        pdn1
    );

    // A shard that did not finish (no .out) is played again, to the same games.
    std::fs::remove_file(dir.join("shard-1.out")).unwrap();
    std::fs::write(dir.join("shard-1.pdn"), "[Event \"cut").unwrap();
    let (code, resumed, err) = script(&dir, "3", &opts);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("match-resume: shard ").count(), 1, "{err}");
    assert!(err.contains("shard 1 done (3/3)"), "{err}");
    assert_eq!(summary(&resumed), summary(&stdout));

    // Other options into the same directory are refused, naming both.
    let mut other = opts.clone();
    other[5] = "6".into();
    let (code, _, err) = script(&dir, "3", &other);
    assert_eq!(code, 2);
    assert!(
        err.contains("holds another run") && err.contains("there:"),
        "{err}"
    );
    let (code, _, err) = script(&dir, "4", &opts);
    assert_eq!(code, 2, "{err}");
}

/// `MAX_SHARDS=1` plays one unfinished shard a call and prints the stats of the shards done
/// so far; calls by turns end where one call without it does. A bad count is refused.
#[test]
fn max_shards_plays_one_shard_a_call() {
    let bin = env!("CARGO_BIN_EXE_poolshark");
    let opts = options(bin);
    let base = support::scratch_dir("match-resume-max");
    let dir = base.join("m");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let call = |max: &str| {
        output(
            Command::new("bash")
                .arg(root.join("scripts/match-resume.sh"))
                .arg(&dir)
                .arg("3")
                .args(&opts)
                .env("BIN", bin)
                .env("MAX_SHARDS", max),
        )
    };
    let (code, first, err) = call("1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("match-resume: shard ").count(), 1, "{err}");
    assert!(err.contains("shard 0 done (1/3)"), "{err}");
    assert!(dir.join("shard-0.out").exists() && !dir.join("shard-1.pdn").exists());
    // The stats are of shard 0's games alone: fewer than the match's 8.
    let games = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("score of "))
            .and_then(|l| l.split('/').nth(1))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse::<u32>().ok())
    };
    assert!(
        games(&first).is_some_and(|g| (1..8).contains(&g)),
        "{first}"
    );

    let (code, _, err) = call("1");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("shard 1 done (2/3)"), "{err}");
    let (code, last, err) = call("1");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("shard 2 done (3/3)"), "{err}");
    assert_eq!(games(&last), Some(8), "{last}");
    let (code, whole, err) = output(Command::new(bin).arg("match").args(&opts));
    assert_eq!(code, 0, "{err}");
    assert_eq!(summary(&last), summary(&whole));

    for bad in ["0", "x"] {
        let (code, _, err) = call(bad);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("MAX_SHARDS must be"), "{err}");
    }
}

#[test]
fn what_the_script_sets_and_bad_counts_are_refused() {
    let bin = env!("CARGO_BIN_EXE_poolshark");
    let base = support::scratch_dir("match-resume-refused");
    for shards in ["0", "x", "-2"] {
        let (code, _, err) = script(&base.join("a"), shards, &options(bin));
        assert_eq!(code, 2, "{shards}: {err}");
        assert!(err.contains("SHARDS must be"), "{err}");
    }
    for extra in [["--pdn", "x.pdn"], ["--shard", "0/2"]] {
        let mut opts = options(bin);
        opts.extend(extra.iter().map(|s| s.to_string()));
        let (code, _, err) = script(&base.join("b"), "2", &opts);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("set by the script"), "{err}");
    }
    let (code, _, err) = script(&base.join("c"), "2", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("usage:"), "{err}");
    assert!(!base.join("b").exists() && !base.join("c").exists());
}

/// Issue 58, item 15: run from another folder, the script takes a relative OUT and a
/// relative `--openings` from the caller's folder, not the repository; a huge SHARDS gets the
/// script's own error, not bash's.
#[test]
fn relative_paths_are_the_callers_and_a_huge_count_is_refused() {
    let bin = env!("CARGO_BIN_EXE_poolshark");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = support::scratch_dir("match-resume-relative");
    let openings = "W:W17,21,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12\n";
    std::fs::write(base.join("my.txt"), openings).unwrap();
    let out = format!("rel-out-{}", std::process::id());
    let mut opts = options(bin);
    opts[5] = "2".into();
    opts.extend(["--openings".to_string(), "my.txt".to_string()]);
    let (code, stdout, err) = output(
        Command::new("bash")
            .current_dir(&base)
            .arg(root.join("scripts/match-resume.sh"))
            .arg(&out)
            .arg("2")
            .args(&opts)
            .env("BIN", bin),
    );
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains(": 2 games in"), "{stdout}");
    assert!(base.join(&out).join("shard-1.out").is_file());
    assert!(
        !root.join(&out).exists(),
        "the output landed in the repository"
    );
    let pdn = std::fs::read_to_string(base.join(&out).join("shard-0.pdn")).unwrap();
    assert!(pdn.contains("B1,2,3,4,5,7,8,9,10,11,12"), "{pdn}");

    for (shards, max) in [("99999999999999999999", "1"), ("2", "99999999999999999999")] {
        let (code, _, err) = output(
            Command::new("bash")
                .arg(root.join("scripts/match-resume.sh"))
                .arg(base.join("huge"))
                .arg(shards)
                .args(options(bin))
                .env("BIN", bin)
                .env("MAX_SHARDS", max),
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.starts_with("match-resume: "), "{err}");
        assert!(err.contains("must be a whole number from 1 to"), "{err}");
    }
    let (code, _, err) = output(&mut threads_worth(
        &[base.join("tw").to_str().unwrap(), "0.01", "2"],
        "99999999999999999999",
    ));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("threads-worth: SHARDS must be a whole number from 1 to"),
        "{err}"
    );
    assert!(!base.join("huge").exists() && !base.join("tw").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

/// `scripts/soak.sh` into a folder that holds a soak with other settings is refused before
/// any game, naming both settings; the folder's files are left as they were.
#[test]
fn soak_refuses_a_folder_of_another_run() {
    let bin = env!("CARGO_BIN_EXE_poolshark");
    let dir = std::env::temp_dir().join(format!("poolshark-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("run.settings");
    std::fs::write(&settings, "games 1000 shards 10 tc 0.2+0.005 binary 0000\n").unwrap();
    std::fs::write(dir.join("shard0.pdn"), "[Event \"old\"]\n1. 11-15 *\n").unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = output(
        Command::new("bash")
            .arg(root.join("scripts/soak.sh"))
            .arg("4")
            .arg(&dir)
            .env("BIN", bin),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("holds another run"), "{err}");
    assert!(err.contains("games 4 shards 10"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("shard0.pdn")).unwrap(),
        "[Event \"old\"]\n1. 11-15 *\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/threads-worth.sh OUT TIME GAMES` with main's binary, SHARDS shards and 2 cores.
fn threads_worth(args: &[&str], shards: &str) -> Command {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts/threads-worth.sh"))
        .args(args)
        .env("BIN", env!("CARGO_BIN_EXE_poolshark"))
        .env("SHARDS", shards)
        .env("CORES", "2");
    cmd
}

/// The three lines threads-worth ends with, for scripts, each match of `games` games.
fn assert_threads_worth_ends(stdout: &str, games: usize) {
    let lines: Vec<&str> = stdout.lines().collect();
    let n = lines.len();
    assert!(n >= 3, "{stdout}");
    let tail = format!(" games {games}");
    assert!(lines[n - 3].starts_with("two-threads elo ") && lines[n - 3].ends_with(&tail));
    assert!(lines[n - 2].starts_with("double-time elo ") && lines[n - 2].ends_with(&tail));
    assert!(lines[n - 1].starts_with("share "), "{stdout}");
}

/// `scripts/threads-worth.sh` as a user runs it, at a tiny size: both matches are played
/// and the three lines scripts read come out; bad arguments are refused before any game.
#[test]
fn threads_worth_prints_both_matches_and_the_share() {
    let base = support::scratch_dir("threads-worth");
    let run = |args: &[&str]| output(&mut threads_worth(args, "1"));
    let out = base.join("t");
    let dir = out.to_str().unwrap();
    for bad in [[dir, "0", "2"], [dir, "x", "2"], [dir, "0.01", "0"]] {
        let (code, _, err) = run(&bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.contains("must be"), "{err}");
    }
    assert!(!out.exists());
    let (code, stdout, err) = run(&[dir, "0.01", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_threads_worth_ends(&stdout, 2);
    assert!(stdout.contains("--param 1:threads=2") && stdout.contains("--movetime 0.02\\,0.01"));
    assert!(out.join("two-threads/shard-0.out").exists());
    assert!(out.join("double-time/shard-0.out").exists());
}

/// `PAIRS=1` stops `scripts/threads-worth.sh` after one new shard pair, without the final
/// lines, and the same command goes on from there to the end; a bad PAIRS is refused.
#[test]
fn threads_worth_stops_after_the_pairs_asked_and_goes_on() {
    let base = support::scratch_dir("threads-worth-pairs");
    let out = base.join("t");
    let dir = out.to_str().unwrap();
    let run = |pairs: &str| output(threads_worth(&[dir, "0.01", "4"], "2").env("PAIRS", pairs));
    let (code, _, err) = run("one");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("PAIRS must be"), "{err}");
    assert!(!out.exists());
    let (code, stdout, err) = run("1");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("stopped after 1 new shard pair(s), 1 of 2 whole"),
        "{err}"
    );
    assert!(!stdout.contains("share"), "{stdout}");
    for m in ["two-threads", "double-time"] {
        assert!(out.join(m).join("shard-0.out").exists(), "{m}");
        assert!(!out.join(m).join("shard-1.out").exists(), "{m}");
    }
    let (code, stdout, err) = run("1");
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("stopped after"), "{err}");
    assert_threads_worth_ends(&stdout, 4);
}
