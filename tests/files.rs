//! Hostile paths through the binary: files that never end, special files as inputs and as
//! outputs, a save that fails half way, and tuning options that would write nonsense.
//!
//! Every run that reads a hostile file is wrapped in `ulimit -v`, so code that reads
//! /dev/zero to the end fails the test instead of taking the machine's memory.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

const BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/books/poolshark.book");

/// Run the binary under `sh` after `setup` (shell commands, e.g. limits): (status, stdout,
/// stderr).
fn run_in_sh(setup: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_poolshark"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sh");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// 3 GB of address space: plenty for these commands, far less than reading /dev/zero takes.
const MEMORY_CAP: &str = "ulimit -v 3000000";

fn run_capped(args: &[&str]) -> (i32, String, String) {
    run_in_sh(MEMORY_CAP, args, "")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// A FIFO at `path`; false where `mkfifo` is missing.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// A character device like /dev/full at `path` (only root may make one); false if refused.
fn mknod_full(path: &Path) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", "1", "7"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn endless_and_special_input_files_are_refused_with_status_2() {
    let dir = support::scratch_dir("files-inputs");
    let out = dir.join("tuned.txt");
    let dir_s = dir.to_str().unwrap();
    let out_s = out.to_str().unwrap();
    // A directory first: code that reads /dev/zero whole fails these under the memory cap
    // rather than passing.
    for (path, what) in [(dir_s, "a directory"), ("/dev/zero", "a device")] {
        let runs: [&[&str]; 5] = [
            &["analyze", "--depth", "1", "--weights", path],
            &["bench", "--depth", "1", "--weights", path],
            &["book", "show", "--book", path],
            &[
                "match",
                "--engine",
                "x",
                "--engine",
                "y",
                "--depth",
                "1",
                "--openings",
                path,
            ],
            &["tune", "--data", path, "--out", out_s],
        ];
        for args in runs {
            let (code, stdout, err) = run_capped(args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            assert!(
                err.contains(&format!("{path}: not a regular file ({what})")),
                "{args:?}: {err}"
            );
        }
    }
    let fifo = dir.join("fifo");
    if mkfifo(&fifo) {
        // Opening it would wait for a writer forever.
        let (code, _, err) = run_capped(&["book", "show", "--book", fifo.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("not a regular file (a FIFO)"), "{err}");
    }
    let big = dir.join("big.txt");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(poolshark_host::files::Kind::Weights.limit() + 1)
        .unwrap();
    let (code, _, err) = run_capped(&["bench", "--weights", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("larger than 64 MiB, the limit for a weights file"),
        "{err}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_hub_refuses_an_endless_eval_file_and_plays_on() {
    let input = "hub\nset-param name=eval-file value=\"/dev/zero\"\nping\nquit\n";
    let (code, stdout, err) = run_in_sh(MEMORY_CAP, &["hub"], input);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.lines().any(|l| l.starts_with("error message=")
            && l.contains("/dev/zero: not a regular file (a device)")),
        "{stdout}"
    );
    assert!(stdout.lines().any(|l| l == "pong"), "{stdout}");
}

/// `book merge --out` onto each special target: status 2, the target as it was, and no
/// temporary file beside it.
#[test]
fn saving_over_special_files_is_refused() {
    let dir = support::scratch_dir("files-outputs");
    let real = dir.join("real.book");
    std::fs::write(&real, "kept").unwrap();
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let mut targets: Vec<(PathBuf, &str)> = vec![
        (link.clone(), "a symbolic link"),
        (sub.clone(), "a directory"),
    ];
    let fifo = dir.join("fifo");
    if mkfifo(&fifo) {
        targets.push((fifo.clone(), "a FIFO"));
    }
    // A node of /dev/full's kind, rather than /dev/full itself: code that replaces the
    // target would otherwise replace the machine's /dev/full when run as root.
    let full = dir.join("full");
    if mknod_full(&full) {
        targets.push((full.clone(), "a device"));
    }
    let before = names(&dir);
    for (target, what) in &targets {
        let t = target.to_str().unwrap();
        let (code, stdout, err) = support::run_cli(&["book", "merge", BOOK, BOOK, "--out", t]);
        assert_eq!(code, 2, "{t}: {stdout}");
        assert!(
            err.contains(&format!("{t}: not a regular file ({what})")),
            "{t}: {err}"
        );
        let kind = std::fs::symlink_metadata(target).unwrap().file_type();
        assert!(!kind.is_file(), "{t} was replaced by a regular file");
    }
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "kept");
    assert_eq!(names(&dir), before);
    assert!(names(&sub).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save that fails part way (here: over the file size limit, with SIGXFSZ ignored so the
/// write returns an error) leaves neither a partial target nor a temporary file.
#[test]
fn a_failed_save_leaves_no_temporary_file() {
    let dir = support::scratch_dir("files-failed-save");
    let out = dir.join("merged.book");
    std::fs::write(&out, "old").unwrap();
    let (code, _, err) = run_in_sh(
        "trap '' XFSZ; ulimit -f 10",
        &["book", "merge", BOOK, BOOK, "--out", out.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
    assert_eq!(names(&dir), ["merged.book"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A learning rate that is not a positive number would write all-zero weights; `tune` has no
/// default output, so a plain run never replaces the shipped weights.
#[test]
fn tune_refuses_bad_rates_and_needs_an_output() {
    let dir = support::scratch_dir("files-tune");
    let data = dir.join("data.txt");
    let out = dir.join("tuned.txt");
    let mut text = String::new();
    for i in 0..30 {
        text.push_str(&format!("B:W21-32:B1-12 ; {}\n", ["0", "0.5", "1"][i % 3]));
    }
    std::fs::write(&data, text).unwrap();
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    for (option, value) in [
        ("--learning-rate", "NaN"),
        ("--learning-rate", "inf"),
        ("--learning-rate", "-5"),
        ("--learning-rate", "0"),
        ("--l2", "NaN"),
        ("--l2", "-1"),
        ("--l2", "inf"),
    ] {
        // `--option=value`, so that clap does not take "-5" for an option.
        let arg = format!("{option}={value}");
        let args = [
            "tune", "--data", data_s, "--out", out_s, "--epochs", "1", &arg,
        ];
        let (code, _, err) = support::run_cli(&args);
        assert_eq!(code, 2, "{option} {value}: {err}");
        assert!(
            err.contains(&format!("'{value}'")),
            "{option} {value}: {err}"
        );
        assert!(!out.exists(), "{option} {value} wrote weights");
    }
    let (code, _, err) = support::run_cli(&["tune", "--data", data_s, "--epochs", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--out"), "{err}");
    let (code, _, err) = support::run_cli(&["tune", "--data", data_s, "--out", out_s]);
    assert_eq!(code, 0, "{err}");
    assert!(out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
