//! `scripts/selfplay-data.sh` as a user runs it: shards written whole and renamed into
//! place, a second run skips them, a shard left unfinished is played again to the same
//! lines, and another run's settings in the same directory are refused.

mod support;

use std::path::Path;
use std::process::Command;

/// Run the script into `dir` with `shards` shards and extra environment; (status, stdout,
/// stderr).
fn script(dir: &Path, shards: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("scripts/selfplay-data.sh"))
        .arg(dir)
        .arg(shards)
        .env("BIN", env!("CARGO_BIN_EXE_poolshark"))
        .env("GAMES", "6")
        .env("NODES", "300")
        .env("NICE", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run bash");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn shards_are_whole_resumable_and_one_run_a_directory() {
    let base = support::scratch_dir("selfplay-data");
    let dir = base.join("d");
    let (code, stdout, err) = script(&dir, "2", &[]);
    assert_eq!(code, 0, "{err}");
    let shard = |i: usize| dir.join(format!("shard-{i}.txt"));
    let lines = |i: usize| std::fs::read_to_string(shard(i)).unwrap();
    let total = lines(0).lines().count() + lines(1).lines().count();
    assert_eq!(
        stdout.trim(),
        format!("data shards 2 positions {total} dir {}", dir.display())
    );
    // Every line names its game; shard 0 holds the even games, shard 1 the odd.
    for (i, want) in [(0, [0, 2, 4]), (1, [1, 3, 5])] {
        let mut games: Vec<usize> = lines(i)
            .lines()
            .map(|l| {
                let id = l.rsplit(" ; ").next().unwrap();
                id.strip_prefix("2030-").expect(l).parse().unwrap()
            })
            .collect();
        games.dedup();
        games.sort();
        games.dedup();
        assert_eq!(games, want, "shard {i}");
    }
    let first = lines(0);

    // A shard cut short (as by a kill) is a .part: the next run plays it again, to the
    // same lines, and leaves the finished one alone.
    std::fs::remove_file(shard(0)).unwrap();
    std::fs::write(
        dir.join("shard-0.txt.part"),
        "B:W21-32:B1-12 ; 0.5 ; - ; cut",
    )
    .unwrap();
    let done1 = std::fs::metadata(shard(1)).unwrap().modified().unwrap();
    let (code, again, err) = script(&dir, "2", &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, stdout);
    assert_eq!(lines(0), first);
    assert!(!dir.join("shard-0.txt.part").exists());
    assert_eq!(
        std::fs::metadata(shard(1)).unwrap().modified().unwrap(),
        done1
    );

    // Other settings into the same directory: refused, nothing touched.
    let (code, _, err) = script(&dir, "2", &[("NODES", "400")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds another run"), "{err}");
    assert_eq!(lines(0), first);

    // A shard whose selfplay fails is not renamed into place, and the run says so.
    let bad = base.join("bad");
    let (code, _, err) = script(&bad, "2", &[("WEIGHTS", "/nonexistent/weights.txt")]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("failed"), "{err}");
    assert!(!bad.join("shard-0.txt").exists() && !bad.join("shard-1.txt").exists());
    let _ = std::fs::remove_dir_all(&base);
}

/// Issue 58, item 15: run from another folder, a relative OUT is the caller's, not the
/// repository's; a huge SHARDS or JOBS gets the script's own error, not bash's.
#[test]
fn a_relative_out_is_the_callers_and_a_huge_count_is_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = support::scratch_dir("selfplay-data-relative");
    let out = format!("rel-data-{}", std::process::id());
    let run = |out: &str, shards: &str, jobs: &str| {
        let out = Command::new("bash")
            .current_dir(&base)
            .arg(root.join("scripts/selfplay-data.sh"))
            .arg(out)
            .arg(shards)
            .env("BIN", env!("CARGO_BIN_EXE_poolshark"))
            .env("GAMES", "2")
            .env("NODES", "100")
            .env("NICE", "0")
            .env("JOBS", jobs)
            .output()
            .expect("run bash");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, err) = run(&out, "1", "1");
    assert_eq!(code, 0, "{err}");
    assert!(base.join(&out).join("shard-0.txt").is_file(), "{stdout}");
    assert!(
        !root.join(&out).exists(),
        "the output landed in the repository"
    );
    assert!(
        stdout.ends_with(&format!(" dir {}\n", base.join(&out).display())),
        "{stdout}"
    );
    for (shards, jobs, name) in [
        ("99999999999999999999", "1", "SHARDS"),
        ("1", "99999999999999999999", "JOBS"),
    ] {
        let (code, _, err) = run("huge", shards, jobs);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.starts_with(&format!(
                "selfplay-data: {name} must be a whole number from 1 to"
            )),
            "{err}"
        );
        assert!(!base.join("huge").exists());
    }
    std::fs::remove_dir_all(&base).unwrap();
}
