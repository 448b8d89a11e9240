//! The transposition table as the command line sizes it: a table that is too large for the
//! machine, or that the allocator refuses, is a clear error with exit status 2 (it used to
//! panic in tt.rs), and thread counts past 4 per core are capped with a warning.

mod support;

/// Run poolshark with its address space capped at 1.5 GB, so that a large table cannot be
/// allocated whatever the machine: (exit status, stderr).
#[cfg(target_os = "linux")]
fn run_capped(args: &str) -> (i32, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1500000 && exec '{}' {args}",
            env!("CARGO_BIN_EXE_poolshark")
        ))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
#[cfg(target_os = "linux")]
fn a_table_that_cannot_be_had_is_bad_input() {
    let dir = support::scratch_dir("table");
    let book = dir.join("book.bin");
    for command in [
        "analyze --hash 16384 --depth 6".to_string(),
        "analyze --hash 4096 --depth 6".to_string(),
        "bench --hash 16384".to_string(),
        format!(
            "book build --hash 16384 --positions 2 --out '{}'",
            book.display()
        ),
    ] {
        let (status, stderr) = run_capped(&command);
        assert_eq!(status, 2, "{command}: {stderr}");
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
        let hash = command
            .split("--hash ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(
            stderr.starts_with(&format!("error: --hash {hash}: ")) && stderr.contains("hash table"),
            "{command}: {stderr}"
        );
    }
    assert!(!book.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn too_many_threads_are_capped_with_a_warning() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = (4 * cores).clamp(4, 256);
    if max >= 256 {
        return;
    }
    let (status, stdout, stderr) =
        support::run_cli(&["analyze", "--threads", "256", "--depth", "2"]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("bestmove "), "{stdout}");
    assert!(
        stderr.contains(&format!("256 search threads asked for; using {max}")),
        "{stderr}"
    );
}
