//! The learned network end to end, as a real process: `learn` fits and writes a network file
//! and a checkpoint, a second run of the same command resumes (also with a larger
//! `--epochs`), a checkpoint of other settings is refused with each setting named, the file
//! plays through `--weights`, and a damaged file is refused with the reason; `label` scores
//! data again.

mod support;

use std::path::PathBuf;
use support::{run_cli as run, scratch_dir};

/// The small data set, `tests/data/tune-small.txt`.
const SMALL: &str = include_str!("data/tune-small.txt");

/// A scratch folder `name` holding `data.txt`, the first `lines` lines of `SMALL`: the
/// folder, the file and its text.
fn with_data(name: &str, lines: usize) -> (PathBuf, PathBuf, String) {
    let dir = scratch_dir(name);
    let data = dir.join("data.txt");
    let text: String = SMALL
        .lines()
        .take(lines)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&data, &text).unwrap();
    (dir, data, text)
}

/// `learn`'s small network on the small data set: the command and its args.
fn small_net<'a>(data: &'a str, out: &'a str, epochs: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "--hidden",
        "16",
        "--model",
        "network",
        "--batch",
        "256",
        "--data",
        data,
        "--out",
        out,
        "--epochs",
        epochs,
        "--threads",
        "1",
    ]
}

#[test]
fn learn_writes_weights_that_play_and_resumes_from_its_checkpoint() {
    let (dir, data, _) = with_data("learn", usize::MAX);
    let out = dir.join("p.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = small_net(data_s, out_s, "2");
    let (code, stdout, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("positions "), "{stdout}");
    assert!(err.contains("epoch 2/2 loss "), "{err}");
    assert!(dir.join("p.bin.ckpt").is_file());
    let first = std::fs::read(&out).unwrap();

    // The same command again: nothing left to do, the weights stay as they were.
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming from"), "{err}");
    assert!(!err.contains("epoch 1/2"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), first);

    // Other settings: the checkpoint is not theirs, and the refusal names the setting with
    // both values.
    let (code, _, err) = run(&[&args[..], &["--lambda", "0.9"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--lambda 0.5 in the checkpoint, 0.9 now"),
        "{err}"
    );

    // The weights play.
    let (code, stdout, err) = run(&["analyze", "--depth", "4", "--weights", out_s]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("bestmove"), "{stdout}");

    // A damaged file is refused, naming what is wrong.
    let mut bad = first.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    let bad_path = dir.join("bad.bin");
    std::fs::write(&bad_path, &bad).unwrap();
    let (code, _, err) = run(&[
        "analyze",
        "--depth",
        "2",
        "--weights",
        bad_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("damaged"), "{err}");
    std::fs::write(&bad_path, &first[..1000]).unwrap();
    let (code, _, err) = run(&[
        "bench",
        "--depth",
        "1",
        "--weights",
        bad_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Defect 7 of issue 37: a larger `--epochs` continues the checkpoint (it was refused as
/// another run's, so more epochs meant starting over), and ends where a run asked for that
/// many epochs from the start ends, to within the learning rate's fall (which the new count
/// stretches); every setting that differs is named with both values.
#[test]
fn learn_continues_its_checkpoint_with_more_epochs_and_names_other_settings() {
    let (dir, data, _) = with_data("learn-more", usize::MAX);
    let out = dir.join("n.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let (code, _, err) = run(&small_net(data_s, out_s, "1"));
    assert_eq!(code, 0, "{err}");
    let one = std::fs::read(&out).unwrap();
    let (code, stdout, err) = run(&small_net(data_s, out_s, "3"));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("resuming from") && err.contains("after epoch 1"),
        "{err}"
    );
    assert!(!err.contains("epoch 1/3"), "{err}");
    assert!(
        err.contains("epoch 2/3 loss ") && err.contains("epoch 3/3 loss "),
        "{err}"
    );
    assert!(stdout.starts_with("positions "), "{stdout}");
    assert_ne!(std::fs::read(&out).unwrap(), one);
    // Fewer epochs than done: nothing to fit, and the checkpoint is still taken.
    let (code, _, err) = run(&small_net(data_s, out_s, "2"));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("nothing to fit"), "{err}");

    // Two settings at once: both named, with the checkpoint's value and the new one.
    let mut args = small_net(data_s, out_s, "3");
    args[2] = "32";
    args.extend(["--seed", "9"]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--hidden 16 in the checkpoint, 32 now"),
        "{err}"
    );
    assert!(err.contains("--seed 1 in the checkpoint, 9 now"), "{err}");
    assert!(!err.contains("--batch"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A checkpoint is the run's whatever the thread count (the fitted K is the same), and not
/// a run's on data with the same size and count but other results (the data is known by its
/// content, `--k` given or not).
#[test]
fn learn_resumes_on_other_threads_and_refuses_other_data_of_the_same_size() {
    let (dir, data, text) = with_data("learn-resume", usize::MAX);
    let out = dir.join("p.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let learn = |extra: &[&str]| {
        let mut args = small_net(data_s, out_s, "1");
        args.truncate(args.len() - 2);
        run(&[&args[..], extra].concat())
    };
    let (code, _, err) = learn(&["--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = learn(&["--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming from"), "{err}");

    // With --k: a checkpoint, then the same data with wins and losses swapped.
    std::fs::remove_file(dir.join("p.bin.ckpt")).unwrap();
    let (code, _, err) = learn(&["--k", "0.004"]);
    assert_eq!(code, 0, "{err}");
    let flipped: String = text
        .lines()
        .map(|l| {
            let (fen, score) = l.split_once(';').unwrap();
            let score = match score.trim() {
                "1" => "0",
                "0" => "1",
                s => s,
            };
            format!("{fen}; {score}\n")
        })
        .collect();
    assert_eq!(flipped.len(), text.len());
    assert_ne!(flipped, text);
    std::fs::write(&data, &flipped).unwrap();
    let (code, _, err) = learn(&["--k", "0.004"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--data ") && err.contains(" in the checkpoint, "),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `label` writes every position of its data once with a search score, continues an output
/// that a stop cut short (dropping the cut line, searching only what is missing), and
/// refuses bad input with the line.
#[test]
fn label_scores_every_position_once_and_continues_a_cut_run() {
    // 300 lines of the small set (no search scores in it).
    let (dir, data, text) = with_data("label", 300);
    let out = dir.join("labelled.txt");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = |limit: &'static str| {
        vec![
            "label",
            "--data",
            data_s,
            "--out",
            out_s,
            "--nodes",
            "300",
            "--threads",
            "2",
            "--limit",
            limit,
        ]
    };
    let fen = |l: &str| l.split(';').next().unwrap().trim().to_string();
    let distinct: std::collections::HashSet<String> = text.lines().map(fen).collect();
    let (code, stdout, err) = run(&args("100"));
    assert_eq!(code, 0, "{err}");
    let skipped = distinct.len() - 100;
    assert_eq!(
        stdout,
        format!("positions 100 skipped {skipped} file {out_s}\n")
    );

    // Cut the last line short, as a stop could, then run again without a limit.
    let mut part = std::fs::read_to_string(&out).unwrap();
    part.truncate(part.len() - 10);
    std::fs::write(&out, &part).unwrap();
    let (code, stdout, err) = run(&args("100000"));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("99 positions already labelled"), "{err}");
    let n = distinct.len();
    assert_eq!(stdout, format!("positions {n} skipped 0 file {out_s}\n"));
    let labelled = std::fs::read_to_string(&out).unwrap();
    assert!(labelled.starts_with("# poolshark label nodes 300 weights "));
    let labelled: String = labelled.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let fens: Vec<String> = labelled.lines().map(fen).collect();
    let set: std::collections::HashSet<String> = fens.iter().cloned().collect();
    assert_eq!(fens.len(), n, "each position once");
    assert_eq!(set, distinct);
    // Each line keeps its game's score and has a search score.
    let results: std::collections::HashMap<String, String> = text
        .lines()
        .map(|l| (fen(l), l.split(';').nth(1).unwrap().trim().to_string()))
        .collect();
    for line in labelled.lines() {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(f.len(), 3, "{line}");
        assert_eq!(results[f[0]], f[1], "{line}");
        f[2].parse::<i32>().expect("a search score");
    }

    // Bad input names the file and line.
    std::fs::write(&data, format!("{text}W:W33:B1 ; 1\n")).unwrap();
    let (code, _, err) = run(&args("100000"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{data_s}: line 301: bad FEN")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `label` checks an `--out` that exists before it writes a byte: a file it did not write
/// (with or without a final newline), one labelled with other `--nodes` or `--weights`, and
/// its own `--data` are refused with status 2 and left as they were.
#[test]
fn label_refuses_an_out_it_did_not_write_or_wrote_otherwise() {
    let (dir, data, text) = with_data("label-out", 20);
    let data_s = data.to_str().unwrap();
    // `extra` holds --nodes and --limit, else they are 100 and 5.
    let label = |out: &str, extra: &[&str]| {
        let mut args = vec!["label", "--data", data_s, "--out", out];
        args.extend_from_slice(extra);
        for (opt, default) in [("--nodes", "100"), ("--limit", "5")] {
            if !extra.contains(&opt) {
                args.extend([opt, default]);
            }
        }
        run(&args)
    };
    for (name, content) in [
        ("x.json", "{\"important\": true}"),
        ("notes.txt", "first note\nlast note"),
        ("notes2.txt", "first note\n"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let (code, _, err) = label(path.to_str().unwrap(), &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("not a file label wrote"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), content, "{name}");
    }
    // --out is --data (also by another name).
    let (code, _, err) = label(data_s, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is also an input"), "{err}");
    let other = dir.join(".").join("data.txt");
    let (code, _, err) = label(other.to_str().unwrap(), &[]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
    // A file of its own, continued with other settings.
    let out = dir.join("labelled.txt");
    let out_s = out.to_str().unwrap();
    let (code, _, err) = label(out_s, &[]);
    assert_eq!(code, 0, "{err}");
    let made = std::fs::read_to_string(&out).unwrap();
    let hand = dir.join("hand.txt");
    std::fs::write(&hand, include_str!("../tuning/weights.txt")).unwrap();
    for extra in [
        &["--nodes", "200"][..],
        &["--weights", hand.to_str().unwrap()],
    ] {
        let (code, _, err) = label(out_s, extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains("other settings"), "{err}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), made);
    }
    // The same settings continue it.
    let (code, stdout, err) = label(out_s, &["--limit", "7"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("positions 7 "), "{stdout}");
    // Issue 58, item 10: another --data into it is refused, not added without a word, and
    // the file is left as it was; its own --data still goes on.
    let made = std::fs::read_to_string(&out).unwrap();
    let other = dir.join("other.txt");
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&other, lines[10..].join("\n") + "\n").unwrap();
    let (code, _, err) = run(&[
        "label",
        "--data",
        other.to_str().unwrap(),
        "--out",
        out_s,
        "--nodes",
        "100",
        "--limit",
        "9",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("was labelled from other --data"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), made);
    let (code, stdout, err) = label(out_s, &["--limit", "9"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("positions 9 "), "{stdout}");
    assert!(err.contains("7 positions already labelled"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tune` and `spsa` tune the hand evaluation's terms: a network file as their start (the
/// engine's own built-in evaluation is one) is refused with the reason, not tuned in silence.
#[test]
fn tune_and_spsa_refuse_a_network_file_as_their_start() {
    let (dir, data, _) = with_data("tune-start", usize::MAX);
    let out = dir.join("w.txt");
    let network = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/network.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let tune = ["tune", "--data", data_s, "--out", out_s, "--start", network];
    let spsa = ["spsa", "--pairs", "1", "--out", out_s, "--start", network];
    for args in [&tune[..], &spsa[..]] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("a network file"), "{err}");
        assert!(!out.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `learn --model network` end to end: it writes a network file and a checkpoint from a data
/// directory, resumes, refuses a width that cannot be, and the network plays.
#[test]
fn learn_writes_a_network_that_plays_and_resumes() {
    let dir = scratch_dir("learn-net");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("a.txt"), SMALL).unwrap();
    // A shard still being written is not read.
    std::fs::write(data.join("b.txt.part"), "not a data line\n").unwrap();
    let out = dir.join("n.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "learn",
        "--model",
        "network",
        "--hidden",
        "32",
        "--data",
        data_s,
        "--out",
        out_s,
        "--epochs",
        "2",
        "--batch",
        "256",
        "--threads",
        "1",
    ];
    let (code, stdout, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("positions "), "{stdout}");
    assert!(err.contains("epoch 2/2 loss "), "{err}");
    let first = std::fs::read(&out).unwrap();
    assert!(first.starts_with(b"PSNNUE01"));
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("resuming from") && !err.contains("epoch 1/2"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), first);

    let (code, _, err) = run(&[&args[..4], &["48"], &args[5..]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--hidden 32 in the checkpoint, 48 now"),
        "{err}"
    );
    let (code, _, err) = run(&[&args[..4], &["40"], &args[5..]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("multiple of 16"), "{err}");

    // The network plays: a search with it finds a move.
    let (code, stdout, err) = run(&["analyze", "--depth", "6", "--weights", out_s]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("bestmove"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `start loss` a `learn` run reports on stderr.
fn start_loss(err: &str) -> f64 {
    let at = err.find("start loss ").expect("a start loss line") + "start loss ".len();
    err[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// `learn --model network --start FILE` continues a network's training: it starts from the
/// file's weights (the built-in network starts far below a random one on the same data),
/// takes the file's width, and refuses another width or a damaged file.
#[test]
fn learn_continues_a_network_from_start() {
    let (dir, data, _) = with_data("learn-net-start", usize::MAX);
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/network.bin");
    let base = |out: &str| -> Vec<String> {
        [
            "learn",
            "--model",
            "network",
            "--data",
            data.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
            "--epochs",
            "1",
            "--batch",
            "256",
            "--learning-rate",
            "1e-5",
            "--threads",
            "1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let run_s = |args: &[String]| run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (code, _, fresh) = run_s(&base("fresh.bin"));
    assert_eq!(code, 0, "{fresh}");
    let started: Vec<String> = [base("cont.bin"), vec!["--start".into(), shipped.into()]].concat();
    let (code, stdout, cont) = run_s(&started);
    assert_eq!(code, 0, "{cont}");
    assert!(stdout.starts_with("positions "), "{stdout}");
    let (a, b) = (start_loss(&fresh), start_loss(&cont));
    assert!(b < a * 0.8, "random start {a}, from the network {b}");
    // The width is the file's; the continued network is a file of that width.
    let out = std::fs::read(dir.join("cont.bin")).unwrap();
    assert_eq!(out.len(), std::fs::read(shipped).unwrap().len());

    let (code, _, err) = run_s(&[started.clone(), vec!["--hidden".into(), "32".into()]].concat());
    assert_eq!(code, 2, "{err}");
    let width = poolshark_engine::eval::nnue::network_file::parse(&std::fs::read(shipped).unwrap())
        .unwrap()
        .hidden();
    assert_ne!(width, 32);
    assert!(
        err.contains(&format!("width {width}, --hidden says 32")),
        "{err}"
    );
    let mut bad = std::fs::read(shipped).unwrap();
    bad[500] ^= 1;
    let bad_path = dir.join("bad.bin");
    std::fs::write(&bad_path, &bad).unwrap();
    let (code, _, err) = run_s(
        &[
            base("x.bin"),
            vec!["--start".into(), bad_path.to_str().unwrap().into()],
        ]
        .concat(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--start") && err.contains("checksum"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
