//! The command line, run as a real process: the output shapes that scripts parse.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use support::{run_cli as run, scratch_dir};

/// `--version` names Cargo.toml's version and the commit the binary was built from: the one
/// git names here, or "unknown" where the build had no git.
#[test]
fn version_names_the_version_and_the_commit() {
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    assert_eq!(
        out,
        format!("poolshark {} ({commit})\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn perft_prints_one_line_per_depth() {
    let (code, out, _) = run(&["perft", "--depth", "4"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    let expected = [7, 49, 302, 1469];
    for (i, line) in lines.iter().enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], format!("depth={}", i + 1));
        assert_eq!(fields[1], format!("nodes={}", expected[i]));
        assert!(
            fields[2]
                .strip_prefix("time=")
                .unwrap()
                .parse::<f64>()
                .is_ok(),
            "{line}"
        );
        assert!(
            fields[3]
                .strip_prefix("mnps=")
                .unwrap()
                .parse::<f64>()
                .is_ok(),
            "{line}"
        );
    }
}

#[test]
fn perft_divide_lists_root_moves_first() {
    let (code, out, _) = run(&["perft", "--depth", "3", "--divide", "--threads", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7 + 3);
    let total: u64 = lines[..7]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 302);
    assert!(lines[7].starts_with("depth=1 nodes=7 "));
}

#[test]
fn moves_prints_hub_then_pdn() {
    let (code, out, _) = run(&["moves", "--fen", "W:WK1:B7,10,20,26,27"]);
    assert_eq!(code, 0);
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        vec![
            "1x13x10x26x27 1x24x31x13",
            "1x17x10x26x27 1x24x31x17",
            "1x22x10x26x27 1x24x31x22",
            "1x30x10x26 1x19x30"
        ]
    );
    let (_, out, _) = run(&["moves"]);
    assert_eq!(out.lines().count(), 7);
    assert!(out.lines().any(|l| l == "9-13 9-13"));
}

#[test]
fn show_draws_the_board() {
    let (code, out, _) = run(&["show", "--fen", "W:WK3,18:BK29,5"]);
    assert_eq!(code, 0);
    assert!(out.contains("White to move"));
    assert!(out.contains("FEN: W:WK3,18:B5,K29"), "{out}");
    let top: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
    // Rank 8: label, four dark squares (3 is a white king), then their numbers.
    assert_eq!(top, vec!["8", ".", ".", "W", ".", "1", "2", "3", "4"]);
}

#[test]
fn bad_fen_exits_with_status_2_and_says_why() {
    for fen in ["W:W2:B9", "nonsense", "W:W21,21:B1", ""] {
        let (code, out, err) = run(&["moves", "--fen", fen]);
        assert_eq!(code, 2, "{fen}");
        assert!(out.is_empty());
        assert!(err.contains("error"), "{err}");
    }
    let (code, _, err) = run(&["perft", "--fen", "W:W1:B9", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("crowning row"), "{err}");
}

#[test]
fn weights_files_load_and_bad_ones_exit_with_status_2() {
    let dir = scratch_dir("weights");
    let bad = dir.join("bad.txt");
    let handset = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/handset.txt");
    let text = std::fs::read_to_string(handset).unwrap();
    std::fs::write(&bad, text.replace("centre 6", "center 6")).unwrap();
    let (code, out, _) = run(&["analyze", "--depth", "3", "--weights", handset]);
    assert_eq!(code, 0);
    assert!(out.contains("bestmove "), "{out}");
    let (code, _, err) = run(&[
        "analyze",
        "--depth",
        "3",
        "--weights",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown key 'center'"), "{err}");
    // A value out of its range (issue 11: this one made a false proved loss).
    std::fs::write(&bad, text.replace("king_mobility 2", "king_mobility 30000")).unwrap();
    let (code, _, err) = run(&["bench", "--depth", "2", "--weights", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'king_mobility': 30000 is out of range (from -30 to 30)"),
        "{err}"
    );
    let (code, _, err) = run(&["bench", "--depth", "2", "--weights", "no/such/file"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    // What the error quotes from the file (and the path) reaches the terminal escaped: one
    // line, no escape sequences.
    std::fs::write(
        &bad,
        text.replace("centre 6", "\u{1b}[2J\u{1b}]0;owned\u{7}centre 6"),
    )
    .unwrap();
    let odd = dir.join("odd\u{1b}[31m\nname.txt");
    std::fs::copy(&bad, &odd).unwrap();
    for path in [&bad, &odd] {
        let (code, _, err) = run(&["bench", "--depth", "2", "--weights", path.to_str().unwrap()]);
        assert_eq!(code, 2);
        assert!(
            err.contains("'\\u{1b}[2J\\u{1b}]0;owned\\u{7}centre'"),
            "{err}"
        );
        assert!(!err.contains(['\u{1b}', '\u{7}']), "{err:?}");
        assert_eq!(err.lines().count(), 1, "{err:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `spsa` writes a weights file that loads, names its command in the header, and refuses
/// an unknown weight name with status 2.
#[test]
fn spsa_writes_a_loadable_weights_file() {
    let dir = scratch_dir("spsa");
    let out = dir.join("spsa.txt");
    let out_s = out.to_str().unwrap();
    let args = ["spsa", "--pairs", "4", "--nodes", "300", "--batch", "2"];
    let (code, stdout, err) = run(&[&args[..], &["--out", out_s]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("pairs 4 time "), "{stdout}");
    assert!(err.contains("pairs 4/4 plus-score "), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# Tuned by `poolshark spsa --pairs 4 --nodes 300 --batch 2"));
    let (code, _, err) = run(&["bench", "--depth", "2", "--weights", out_s]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&[&args[..], &["--out", out_s, "--fix", "queen"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("no weight named 'queen'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `spsa --search` keeps the tuned search parameters in the file it writes, in the form
/// `--search-params` reads, beside the summary line's `search name=value` list.
#[test]
fn spsa_writes_the_tuned_search_parameters_into_its_file() {
    let dir = scratch_dir("spsa-search");
    let out = dir.join("spsa.txt");
    let out_s = out.to_str().unwrap();
    let args = [
        "spsa", "--pairs", "4", "--nodes", "300", "--batch", "2", "--fix", "all",
    ];
    let search = ["--search", "probcut_margin,lmr_divisor", "--out", out_s];
    let (code, stdout, err) = run(&[&args[..], &search].concat());
    assert_eq!(code, 0, "{err}");
    let summary = stdout.lines().next().unwrap_or_default();
    let margin = summary
        .split_whitespace()
        .find_map(|w| w.strip_prefix("probcut_margin="))
        .unwrap_or_else(|| panic!("no probcut_margin in {summary:?}"));
    let text = std::fs::read_to_string(&out).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("# search-params "))
        .unwrap_or_else(|| panic!("no search-params line in {text}"));
    assert!(
        line.starts_with(&format!("probcut_margin:{margin},lmr_divisor:")),
        "{line}"
    );
    let (code, _, err) = run(&["bench", "--depth", "2", "--search-params", line]);
    assert_eq!(code, 0, "the line does not read back: {err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tune` reads selfplay's three-field lines and refuses a lambda outside 0..1.
#[test]
fn tune_takes_search_scores_and_checks_lambda() {
    let dir = scratch_dir("tune");
    let data = dir.join("data.txt");
    let out = dir.join("tuned.txt");
    let mut text = String::new();
    for i in 0..40 {
        let score = ["0", "0.5", "1"][i % 3];
        text.push_str(&format!(
            "B:W21-32:B1-12 ; {score} ; {}\n",
            10 * i as i32 - 200
        ));
        text.push_str(&format!("W:W21-32:B1-12 ; {score} ; -\n"));
    }
    std::fs::write(&data, text).unwrap();
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = ["tune", "--data", data_s, "--out", out_s, "--epochs", "2"];
    let (code, _, err) = run(&[&args[..], &["--lambda", "0.3"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("lambda 0.3 (search scores on 40 positions)"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("--lambda 0.3"));
    let (code, _, err) = run(&[&args[..], &["--lambda", "1.5"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("'1.5' is not a number from 0 to 1"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_depth_0_counts_the_position_itself() {
    let (code, out, err) = run(&["perft", "--depth", "0"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("depth=0 nodes=1 time="), "{out}");
    let (_, out, _) = run(&["perft", "--depth", "0", "--divide"]);
    assert!(out.starts_with("depth=0 nodes=1 "), "{out}");
}

/// Run the binary with `stdin` as its input, its stdout and/or stderr already closed by the
/// reader (as `poolshark ... | head -0` leaves them), so that its first write there fails.
/// Returns the exit code (None: killed by a signal) and what it wrote to the open one.
fn run_closed(
    args: &[&str],
    stdin: &str,
    close_stdout: bool,
    close_stderr: bool,
) -> (Option<i32>, String) {
    let closed = || {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        Stdio::from(writer)
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(if close_stdout {
            closed()
        } else {
            Stdio::piped()
        })
        .stderr(if close_stderr {
            closed()
        } else {
            Stdio::piped()
        })
        .spawn()
        .expect("start poolshark");
    let mut input = child.stdin.take().unwrap();
    // The engine may be gone before it reads everything; that is not this test's concern.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().expect("wait for poolshark");
    let text = if close_stdout { out.stderr } else { out.stdout };
    (
        out.status.code(),
        String::from_utf8_lossy(&text).into_owned(),
    )
}

/// Defect 5b: a closed stdout (`poolshark perft | head -1`) ends a command quietly, with
/// status 0 and nothing on stderr; `println!` panicked with "Broken pipe" (status 101).
#[test]
fn a_closed_stdout_ends_each_command_quietly() {
    let engine = env!("CARGO_BIN_EXE_poolshark");
    let commands: [&[&str]; 7] = [
        &["perft", "--depth", "9"],
        &["perft", "--depth", "3", "--divide"],
        &["moves"],
        &["show", "--moves", "11-15"],
        &["analyze", "--depth", "3"],
        &["book", "show"],
        &[
            "match", "--engine", engine, "--engine", engine, "--games", "2", "--depth", "1",
        ],
    ];
    for args in commands {
        let (code, err) = run_closed(args, "", true, false);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!((code, err.as_str()), (Some(0), ""), "{args:?}");
    }
}

/// The same when the reader goes after the first line, as `analyze --movetime 2 | head -1`
/// does: the search's later lines end it quietly, long before its 2 seconds.
#[test]
fn analyze_stops_quietly_when_its_reader_goes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["analyze", "--movetime", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start poolshark");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("info depth=1 "), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

/// Progress on a closed stderr (`2>&1 | head -1` closes both) is dropped, not a panic; the
/// command still finishes its work and prints its result.
#[test]
fn a_closed_stderr_loses_only_progress() {
    let (code, out) = run_closed(&["bench", "--depth", "1"], "", false, true);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("nodes "), "{out}");
}

/// The Hub loop already treats a closed stdout as a client that has gone: it reads on until
/// `quit` and exits normally.
#[test]
fn the_hub_loop_survives_a_closed_stdout() {
    let (code, err) = run_closed(
        &[],
        "hub\ninit\npos start\nlevel depth=2\ngo think\nquit\n",
        true,
        false,
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}

/// `spsa --help` lists every search parameter with its range, from the declarations.
#[test]
fn spsa_help_lists_every_search_parameter() {
    use poolshark_engine::search::params::SearchParams;
    let (code, out, _) = run(&["spsa", "--help"]);
    assert_eq!(code, 0);
    let lines = SearchParams::help_lines();
    assert_eq!(lines.len(), SearchParams::TUNABLES.len());
    for (line, t) in lines.iter().zip(SearchParams::TUNABLES) {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
        let range = format!("  {} {}..={} (default ", t.name, t.min, t.max);
        assert!(line.starts_with(&range), "{line}");
    }
}

/// `hub --help` names every Hub parameter, each with its declared help (`Param::ALL`), and
/// the short `--help` list still points at it.
#[test]
fn hub_help_lists_every_parameter() {
    use poolshark::hub::params::{help_lines, Param};
    let (code, out, _) = run(&["hub", "--help"]);
    assert_eq!(code, 0);
    let lines = help_lines();
    assert_eq!(lines.len(), Param::ALL.len());
    for (line, param) in lines.iter().zip(Param::ALL) {
        assert!(out.lines().any(|l| l == line), "no `{line}` in:\n{out}");
        assert!(line.starts_with(&format!("  {}: ", param.name())));
    }
    assert!(out.contains("egdb-path"), "{out}");
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("hub --help"), "{out}");
}

/// `analyze --multipv 3`: every `info` line names its line right after the depth, each depth
/// has lines 1 to 3, three `line K` lines with distinct legal moves come just before
/// `bestmove`, and `bestmove` plays line 1. Without `--multipv` neither appears.
#[test]
fn analyze_multipv_prints_numbered_lines_before_bestmove() {
    let (code, out, err) = run(&[
        "analyze",
        "--multipv",
        "3",
        "--depth",
        "6",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n > 4, "{out}");
    let infos = &lines[..n - 4];
    assert_eq!(infos.len(), 6 * 3, "{out}");
    for (i, info) in infos.iter().enumerate() {
        let words: Vec<&str> = info.split(' ').collect();
        assert_eq!(words[0], "info", "{info}");
        assert_eq!(words[1], format!("depth={}", i / 3 + 1), "{info}");
        assert_eq!(words[2], format!("multipv={}", i % 3 + 1), "{info}");
        assert!(words[3].starts_with("mean-depth="), "{info}");
    }
    let legal = support::legal_moves("B:W21-32:B1-12", &[]);
    let mut moves: Vec<&str> = Vec::new();
    for (k, line) in lines[n - 4..n - 1].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(&words[..2], &["line", &(k + 1).to_string()], "{line}");
        assert_eq!(
            (words[2], words[4], words[6]),
            ("move", "score", "pv"),
            "{line}"
        );
        assert!(legal.iter().any(|m| m == words[3]), "{line}");
        assert!(!moves.contains(&words[3]), "{out}");
        assert_eq!(words[7], words[3], "the pv starts with the move: {line}");
        // The line is the last iteration's report of it.
        let info = infos[infos.len() - 3 + k];
        assert_eq!(
            support::field(info, "score").as_deref(),
            Some(words[5]),
            "{out}"
        );
        assert_eq!(
            support::field(info, "pv").unwrap(),
            words[7..].join(" "),
            "{out}"
        );
        moves.push(words[3]);
    }
    let best: Vec<&str> = lines[n - 1].split(' ').collect();
    assert_eq!(best[0], "bestmove", "{out}");
    assert_eq!(best[1], moves[0], "{out}");

    let (code, out, err) = run(&["analyze", "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("multipv") && !out.contains("line "), "{out}");
    let (code, out, err) = run(&["analyze", "--depth", "4", "--multipv", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("multipv") && !out.contains("line "), "{out}");
}

/// More lines than legal moves: all of them, said on stderr; 0 or not a number: clap's
/// error, status 2. The help describes the option.
#[test]
fn analyze_multipv_limits() {
    // 18 has one legal move, the capture.
    let fen = "W:W18:B14,K1";
    let (code, out, err) = run(&["analyze", "--fen", fen, "--multipv", "3", "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--multipv 3") && err.contains("1 legal move"),
        "{err}"
    );
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("line 1 move "), "{out}");
    for bad in ["0", "x", "-2"] {
        let arg = format!("--multipv={bad}");
        let (code, out, err) = run(&["analyze", &arg, "--depth", "2"]);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(err.contains("--multipv"), "{bad}: {err}");
        assert!(out.is_empty(), "{bad}: {out}");
    }
    let (code, out, _) = run(&["analyze", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--multipv <N>"), "{out}");
}

/// Issue 37, defect 11: `analyze` on a game the rules ended says so and why, and searches
/// nothing; `--movetime 0` names the limit it breaks (more than 0).
#[test]
fn analyze_says_a_finished_game_is_over() {
    let reps = "1-5 28-32 5-1 32-28 1-5 28-32 5-1 32-28";
    let (code, out, err) = run(&[
        "analyze",
        "--fen",
        "B:WK28,K27:BK1",
        "--moves",
        reps,
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "bestmove none score 0.00 depth 0 nodes 0 pv\n");
    assert!(
        err.contains("the game is over: ") && err.contains("repetition"),
        "{err}"
    );
    let (code, out, err) = run(&["analyze", "--fen", "W:WK4:BK8,K11,K15,K7,K3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bestmove none score -99."), "{out}");
    assert!(err.contains("the game is over: Black wins"), "{err}");

    let (code, _, err) = run(&["analyze", "--movetime", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than 0 and at most 1000000"), "{err}");
}

/// Issue 37, defect 11: an iteration that reaches no leaf (here the only move takes the last
/// piece, a proof at once) reports its nominal depth as mean-depth, not 0.0.
#[test]
fn mean_depth_after_a_proof_is_the_depth() {
    let (code, out, err) = run(&["analyze", "--fen", "B:W6:B1", "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    let infos: Vec<&str> = out.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 3, "{out}");
    for (d, line) in infos.iter().enumerate() {
        let want = format!("info depth={} mean-depth={}.0 score=99.99 ", d + 1, d + 1);
        assert!(line.starts_with(&want), "{line}");
    }
}

/// Issue 37, defect 11: a 309-digit number is not echoed whole in an error, whether clap
/// rejects it or poolshark does.
#[test]
fn long_numbers_are_not_echoed_whole() {
    let long = "9".repeat(309);
    for args in [
        vec!["analyze", "--nodes", &long],
        vec!["analyze", "--movetime", &long],
        vec![
            "match",
            "--engine",
            "a",
            "--engine",
            "b",
            "--movetime",
            &long,
        ],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(&format!("{}...", &long[..20])), "{err}");
        assert!(
            !err.contains(&long[..21]),
            "{args:?} echoed it whole: {err}"
        );
    }
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage"), "{out}");
}

/// A negative number reaches the option's own check, which says what is allowed, instead of
/// clap taking it for an unknown flag.
#[test]
fn a_negative_number_gets_the_options_own_error() {
    for (args, expected) in [
        (&["analyze", "--movetime", "-1"][..], "more than 0"),
        (&["analyze", "--depth", "-3"][..], "1..=60"),
        (&["perft", "--depth", "-1"][..], "--depth"),
    ] {
        let (code, out, err) = support::run_cli(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

/// `analyze --level N --seed S`: the `line` lines the level chose among, then its pick as
/// `bestmove`, one of them, with that line's score; the same seed picks the same move, and
/// level 1 picks differently over a few seeds. A bad level, or `--level` with `--multipv`,
/// exits with status 2.
#[test]
fn analyze_at_a_level_picks_among_its_lines() {
    let fen = "B:W17,18,21,24,25,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10";
    let pick = |seed: &str| {
        let (code, out, err) = run(&["analyze", "--fen", fen, "--level", "1", "--seed", seed]);
        assert_eq!(code, 0, "{err}");
        let best = out.lines().find(|l| l.starts_with("bestmove ")).unwrap();
        let words: Vec<&str> = best.split(' ').collect();
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("line ")).collect();
        assert!(lines.len() > 1, "{out}");
        let chosen = lines
            .iter()
            .find(|l| l.split(' ').nth(3) == Some(words[1]))
            .unwrap_or_else(|| panic!("{best} is none of {lines:?}"));
        assert_eq!(
            chosen.split(' ').nth(5),
            Some(words[3]),
            "{chosen} / {best}"
        );
        words[1].to_string()
    };
    let picks: Vec<String> = (0..8).map(|s| pick(&s.to_string())).collect();
    assert_eq!(
        picks,
        (0..8).map(|s| pick(&s.to_string())).collect::<Vec<_>>()
    );
    assert!(picks.iter().any(|m| m != &picks[0]), "{picks:?}");
    for args in [
        vec!["analyze", "--level", "11"],
        vec!["analyze", "--level", "0"],
        vec!["analyze", "--level", "2", "--multipv", "3"],
        vec!["analyze", "--seed", "3"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// Issue 58, item 16: a level or book seed in the environment that is no number stops the
/// Hub and the board with an error naming it, instead of a random seed without a word.
#[test]
fn a_bad_seed_in_the_environment_is_an_error_naming_it() {
    for (var, value) in [
        ("POOLSHARK_LEVEL_SEED", "abc"),
        ("POOLSHARK_LEVEL_SEED", "0x10"),
        ("POOLSHARK_BOOK_SEED", "-3"),
    ] {
        for args in [&[][..], &["hub"][..], &["serve", "--port", "0"][..]] {
            let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
                .args(args)
                .env(var, value)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{var}={value} {args:?}: {err}");
            assert!(
                err.contains(&format!("{var}={value:?} is not a seed")),
                "{args:?}: {err}"
            );
        }
    }
    // A number still seeds the Hub, which then runs as before.
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .env("POOLSHARK_LEVEL_SEED", " 42 ")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 58, item 16: a level's seeded pick repeats only on one thread, so `analyze --seed`
/// with more threads is refused, saying why; on one thread the pick repeats.
#[test]
fn a_seeded_level_pick_is_refused_on_several_threads_and_repeats_on_one() {
    let args = ["analyze", "--level", "3", "--seed", "42", "--nodes", "2000"];
    let (code, _, err) = run(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--seed repeats a level's pick only on one thread"),
        "{err}"
    );
    let best = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("bestmove"))
            .map(str::to_string)
    };
    let (code, first, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(best(&first).is_some(), "{first}");
    for _ in 0..3 {
        let (_, again, _) = run(&[&args[..], &["--threads", "1"]].concat());
        assert_eq!(best(&again), best(&first));
    }
}
