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
