//! Packed training data as a user makes it, through the real binary: `selfplay --format
//! packed` shards that are the same bytes on one thread or two, `data merge` of the shards
//! into the unsharded run's positions, `data convert` both ways, `label` of a packed file
//! (its labels kept, the same bytes on any threads), `data merge --egdb` storing the tables'
//! values, and `learn` fitting a packed file exactly as it fits the same data as text; a
//! damaged file is refused by name.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use support::{run_cli as run, scratch_dir};

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "poolshark {}: {err}", args.join(" "));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn selfplay(out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "selfplay",
        "--games",
        "12",
        "--nodes",
        "200",
        "--random-plies",
        "4",
        "--seed",
        "5",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// The FEN of every line of `data convert`'s text output.
fn fens(text_file: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(text_file)
        .unwrap()
        .lines()
        .map(|l| l.split(" ; ").next().unwrap().to_string())
        .collect()
}

#[test]
fn shards_are_the_same_bytes_on_any_threads_and_merge_to_the_whole_run() {
    let dir = scratch_dir("data-set-shards");
    let packed = ["--format", "packed"];
    let whole = dir.join("whole.psd");
    let out = selfplay(&whole, &packed);
    assert!(out.starts_with("games 12 positions "), "{out}");
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (one, two) = (
            dir.join(format!("one-{i}.psd")),
            dir.join(format!("s/shard-{i}.psd")),
        );
        std::fs::create_dir_all(dir.join("s")).unwrap();
        selfplay(
            &one,
            &[&packed[..], &["--shard", &shard, "--concurrency", "1"]].concat(),
        );
        selfplay(
            &two,
            &[&packed[..], &["--shard", &shard, "--concurrency", "3"]].concat(),
        );
        let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
        assert!(a.len() > 40 + 16 * 20, "shard {i}: {} bytes", a.len());
        assert_eq!(a, b, "shard {i} differs with the threads");
    }
    // selfplay writes over nothing.
    let (code, _, err) = run(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "100",
        "--format",
        "packed",
        "--out",
        s(&whole),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("holds packed self-play data already"), "{err}");

    let merged = dir.join("merged.psd");
    let line = ok(&["data", "merge", s(&dir.join("s")), "--out", s(&merged)]);
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f[0], "records", "{line}");
    let (records, dups, kept): (usize, usize, usize) = (
        f[1].parse().unwrap(),
        f[3].parse().unwrap(),
        f[5].parse().unwrap(),
    );
    assert_eq!(records, dups + kept, "{line}");
    // The merged set holds every position of the unsharded run once.
    let (t1, t2) = (dir.join("merged.txt"), dir.join("whole.txt"));
    ok(&["data", "convert", s(&merged), "--out", s(&t1)]);
    ok(&["data", "convert", s(&whole), "--out", s(&t2)]);
    assert_eq!(fens(&t1), fens(&t2));
    assert_eq!(fens(&t1).len(), kept);
    let info = ok(&["data", "info", s(&merged)]);
    assert!(
        info.contains(&format!("format packed seed 5 records {kept} ")),
        "{info}"
    );
    // Its own input is refused as --out.
    let (code, _, err) = run(&[
        "data",
        "merge",
        s(&dir.join("s")),
        "--out",
        s(&dir.join("s/shard-0.psd")),
    ]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn learn_fits_packed_data_as_it_fits_the_same_text() {
    let dir = scratch_dir("data-set-learn");
    let text = dir.join("d.txt");
    let out = ok(&[
        "selfplay",
        "--games",
        "40",
        "--nodes",
        "150",
        "--random-plies",
        "6",
        "--seed",
        "9",
        "--out",
        s(&text),
    ]);
    assert!(out.starts_with("games 40"), "{out}");
    let packed = dir.join("d.psd");
    let line = ok(&["data", "convert", s(&text), "--out", s(&packed)]);
    assert!(line.contains("format packed"), "{line}");
    // And back: the same lines.
    let back = dir.join("back.txt");
    ok(&["data", "convert", s(&packed), "--out", s(&back)]);
    assert_eq!(
        std::fs::read_to_string(&back).unwrap(),
        std::fs::read_to_string(&text).unwrap()
    );

    let fit = |data: &Path, net: &Path| {
        let out = ok(&[
            "learn",
            "--hidden",
            "16",
            "--batch",
            "128",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--data",
            s(data),
            "--out",
            s(net),
        ]);
        // `positions N K K loss L held-out H ...`: all but the speed and time.
        out.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
    };
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    assert_eq!(fit(&text, &a), fit(&packed, &b));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    // A damaged packed file is refused, naming it.
    let mut bytes = std::fs::read(&packed).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 4;
    let bad = dir.join("bad.psd");
    std::fs::write(&bad, &bytes).unwrap();
    let (code, _, err) = run(&["learn", "--data", s(&bad), "--out", s(&dir.join("c.bin"))]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.psd: checksum mismatch"), "{err}");
    std::fs::write(&bad, &bytes[..n - 5]).unwrap();
    let (code, _, err) = run(&["data", "info", s(&bad)]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.psd: the header says"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn label_keeps_a_packed_files_labels_and_order_on_any_threads() {
    let dir = scratch_dir("data-set-label");
    let data = dir.join("d.psd");
    selfplay(&data, &["--format", "packed"]);
    let label = |threads: &str, out: &Path| {
        let (code, line, err) = label(&data, out, "300", threads);
        assert_eq!(code, 0, "{err}");
        line
    };
    let (one, two) = (dir.join("one.psd"), dir.join("two.psd"));
    let line = label("1", &one);
    assert!(
        line.starts_with("positions ") && line.contains(" skipped 0 "),
        "{line}"
    );
    label("2", &two);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    // The same positions, games and results, in order; every position now searched.
    let (t0, t1) = (dir.join("d.txt"), dir.join("one.txt"));
    ok(&["data", "convert", s(&data), "--out", s(&t0)]);
    ok(&["data", "convert", s(&one), "--out", s(&t1)]);
    let (a, b) = (
        std::fs::read_to_string(&t0).unwrap(),
        std::fs::read_to_string(&t1).unwrap(),
    );
    assert_eq!(a.lines().count(), b.lines().count());
    for (x, y) in a.lines().zip(b.lines()) {
        let (x, y): (Vec<&str>, Vec<&str>) = (x.split(" ; ").collect(), y.split(" ; ").collect());
        assert_eq!((x[0], x[1], x[3]), (y[0], y[1], y[3]));
        assert!(y[2].parse::<i32>().is_ok(), "{y:?}");
    }
    // A packed --out is written whole: one that is there is refused.
    let (code, _, err) = run(&[
        "label",
        "--data",
        s(&data),
        "--out",
        s(&one),
        "--nodes",
        "300",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `poolshark label` of `data` into `out` at `nodes` nodes on `threads` threads.
fn label(data: &Path, out: &Path, nodes: &str, threads: &str) -> (i32, String, String) {
    run(&[
        "label",
        "--data",
        s(data),
        "--out",
        s(out),
        "--nodes",
        nodes,
        "--threads",
        threads,
    ])
}

/// The records of packed file `p`.
fn records(p: &Path) -> Vec<poolshark_tune::packed::Record> {
    poolshark_tune::packed::parse(&std::fs::read(p).unwrap(), "t")
        .unwrap()
        .records
}

#[test]
fn a_stopped_packed_label_goes_on_from_its_journal() {
    use poolshark_tune::label::{journal_header, journal_line, CHUNK};
    let dir = scratch_dir("data-set-journal");
    let data = dir.join("d.psd");
    selfplay(&data, &["--format", "packed"]);
    let label = |out: &Path, nodes: &str| label(&data, out, nodes, "2");
    let whole = dir.join("whole.psd");
    assert_eq!(label(&whole, "300").0, 0);
    let part = |out: &Path| Path::new(&format!("{}.part", s(out))).to_path_buf();
    assert!(
        !part(&whole).exists(),
        "the journal is removed once --out is written"
    );
    let want = records(&whole);
    assert!(want.len() > 3 * CHUNK, "{} positions", want.len());
    let positions: Vec<_> = records(&data).iter().map(|r| r.pos).collect();
    let weights = poolshark_engine::eval::Weights::builtin();

    // A run stopped after chunks 0 and 2, in the middle of writing chunk 3. Chunk 0's
    // scores are made up: taken from the journal, they show it was not searched again.
    let out = dir.join("out.psd");
    let chunk = |i: usize| {
        let n = CHUNK.min(want.len() - i * CHUNK);
        want[i * CHUNK..i * CHUNK + n]
            .iter()
            .map(|r| r.search.unwrap())
            .collect::<Vec<i32>>()
    };
    let journal = format!(
        "{}{}{}3 1 2",
        journal_header(300, &weights, &positions),
        journal_line(0, &vec![7; CHUNK]),
        journal_line(2, &chunk(2)),
    );
    std::fs::write(part(&out), &journal).unwrap();
    let (code, line, err) = label(&out, "300");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{} positions already labelled", 2 * CHUNK)),
        "{err}"
    );
    assert!(
        line.starts_with(&format!("positions {} ", want.len())),
        "{line}"
    );
    assert!(!part(&out).exists());
    let got = records(&out);
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let score = if i < CHUNK { Some(7) } else { w.search };
        assert_eq!(
            (g.pos, g.game, g.search),
            (w.pos, w.game, score),
            "record {i}"
        );
    }

    // A journal of another run (other nodes) is refused and left as it was.
    let other = dir.join("other.psd");
    let journal = format!(
        "{}{}",
        journal_header(301, &weights, &positions),
        journal_line(1, &chunk(1))
    );
    std::fs::write(part(&other), &journal).unwrap();
    let (code, _, err) = label(&other, "300");
    assert_eq!(code, 2);
    assert!(err.contains("other settings or positions"), "{err}");
    assert_eq!(std::fs::read_to_string(part(&other)).unwrap(), journal);
    assert!(!other.exists());

    // Issue 58, item 10: a score changed in the journal is caught by its line's checksum,
    // and the journal is left as it was.
    let changed = dir.join("changed.psd");
    let good = journal_line(1, &chunk(1));
    let (head, sum) = good.trim_end().rsplit_once(" *").unwrap();
    let (index, first) = head.split_once(' ').unwrap();
    let (score, rest) = first.split_once(' ').unwrap();
    let bad = format!(
        "{index} {} {rest} *{sum}\n",
        score.parse::<i32>().unwrap() + 1
    );
    let journal = format!("{}{bad}", journal_header(300, &weights, &positions));
    std::fs::write(part(&changed), &journal).unwrap();
    let (code, _, err) = label(&changed, "300");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2: checksum mismatch"), "{err}");
    assert_eq!(std::fs::read_to_string(part(&changed)).unwrap(), journal);
    assert!(!changed.exists());

    // An empty journal (a stop before its first line) is nothing done: the run starts over
    // and writes what a run never stopped writes.
    let empty = dir.join("empty.psd");
    std::fs::write(part(&empty), "").unwrap();
    let (code, _, err) = label(&empty, "300");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&empty).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert!(!part(&empty).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_with_tables_labels_the_positions_they_cover() {
    let dir = scratch_dir("data-set-egdb");
    let tables = dir.join("egdb");
    ok(&["egdb", "build", "--pieces", "4", "--dir", s(&tables)]);
    // Three kings against a man (won for White whoever moves), two kings each (drawn), and
    // the start position (not covered).
    let text = dir.join("d.txt");
    std::fs::write(
        &text,
        "W:WK10,K14,K18:B25 ; 0.5 ; 40 ; 3-0\nB:WK10,K14,K18:B25 ; 0.5 ; - ; 3-0\n\
         W:WK10,K14:BK25,K29 ; 1 ; 0 ; 3-1\nB:W21-32:B1-12 ; 0 ; - ; 3-2\n",
    )
    .unwrap();
    let packed = dir.join("d.psd");
    ok(&["data", "convert", s(&text), "--out", s(&packed)]);
    let merged = dir.join("m.psd");
    let line = ok(&[
        "data",
        "merge",
        s(&packed),
        "--out",
        s(&merged),
        "--egdb",
        s(&tables),
    ]);
    assert_eq!(
        line.trim(),
        format!(
            "records 4 duplicates 0 positions 4 exact 3 file {}",
            s(&merged)
        )
    );
    let info = ok(&["data", "info", s(&merged)]);
    assert!(
        info.contains("records 4 with-men 3 searched 2 exact 3"),
        "{info}"
    );
    // A folder that is no tables is refused before any work.
    let (code, _, err) = run(&[
        "data",
        "merge",
        s(&packed),
        "--out",
        s(&dir.join("x.psd")),
        "--egdb",
        s(&dir.join("none")),
    ]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 58, item 1: `learn`, `tune`, `spsa` and `data convert` refuse an output that is one
/// of their inputs (by its own name, `./` and a symlink to it), and leave the input as it
/// was, byte for byte.
#[test]
fn no_command_writes_its_output_over_its_input() {
    let dir = scratch_dir("data-set-out-is-input");
    let small = include_str!("data/tune-small.txt");
    let text: String = small.lines().take(300).map(|l| format!("{l}\n")).collect();
    let data = dir.join("c.txt");
    std::fs::write(&data, &text).unwrap();
    let packed = dir.join("c.psd");
    ok(&["data", "convert", s(&data), "--out", s(&packed)]);
    let net = dir.join("s.bin");
    let learn = |data: &str, out: &str, extra: &[&str]| {
        let args = learn_args(data, out, extra);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, _, err) = learn(s(&data), s(&net), &[]);
    assert_eq!(code, 0, "{err}");
    let weights = dir.join("w.txt");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/weights.txt"),
        &weights,
    )
    .unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&data, &link).unwrap();
    let dotted = |p: &Path| dir.join(".").join(p.file_name().unwrap());
    let d = |p: &Path| s(p).to_string();
    let ds = |p: &Path| dotted(p).to_str().unwrap().to_string();
    let cases: Vec<(PathBuf, Vec<String>)> = vec![
        (data.clone(), learn_args(&d(&data), &d(&data), &[])),
        (data.clone(), learn_args(&d(&link), &ds(&data), &[])),
        (packed.clone(), learn_args(&d(&packed), &d(&packed), &[])),
        (
            net.clone(),
            learn_args(&d(&data), &d(&net), &["--start", &ds(&net)]),
        ),
        (
            data.clone(),
            learn_args(
                &d(&data),
                &d(&dir.join("n.bin")),
                &["--checkpoint", &ds(&data)],
            ),
        ),
        (
            data.clone(),
            strings(&[
                "tune",
                "--data",
                s(&data),
                "--out",
                &ds(&data),
                "--epochs",
                "1",
            ]),
        ),
        (
            weights.clone(),
            strings(&[
                "tune",
                "--data",
                s(&data),
                "--out",
                s(&weights),
                "--start",
                &ds(&weights),
                "--epochs",
                "1",
            ]),
        ),
        (
            weights.clone(),
            strings(&[
                "spsa",
                "--pairs",
                "1",
                "--nodes",
                "50",
                "--start",
                s(&weights),
                "--out",
                &ds(&weights),
            ]),
        ),
        (
            data.clone(),
            strings(&["data", "convert", s(&data), "--out", &ds(&data)]),
        ),
        (
            packed.clone(),
            strings(&["data", "convert", s(&packed), "--out", s(&packed)]),
        ),
    ];
    for (input, args) in cases {
        let before = std::fs::read(&input).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "poolshark {}: {err}", args.join(" "));
        assert!(
            err.contains("is also an input"),
            "poolshark {}: {err}",
            args.join(" ")
        );
        assert_eq!(
            std::fs::read(&input).unwrap(),
            before,
            "poolshark {} changed {}",
            args.join(" "),
            input.display()
        );
    }
    // The network and its checkpoint, one new file under two names.
    let x = dir.join("x.bin");
    let x_dotted = dotted(&x);
    let (code, _, err) = learn(s(&data), s(&x), &["--checkpoint", s(&x_dotted)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is --out"), "{err}");
    assert!(!x.exists());
    // The resume that follows a run with --start is still there to take.
    let (code, _, err) = learn(s(&data), s(&dir.join("t.bin")), &["--start", s(&net)]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = learn(s(&data), s(&dir.join("t.bin")), &["--start", s(&net)]);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// `learn`'s small run of one epoch on `data` into `out`, with `extra` options.
fn learn_args(data: &str, out: &str, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&[
        "learn",
        "--data",
        data,
        "--out",
        out,
        "--epochs",
        "1",
        "--hidden",
        "16",
        "--batch",
        "256",
        "--threads",
        "1",
    ]);
    args.extend(strings(extra));
    args
}

/// Issue 58, item 8: `data merge` refuses shards of one seed made with other settings
/// (naming the setting), one shard given twice (by a copy, or by one file under two names),
/// and shards of two splits; one run's shards still merge.
#[test]
fn merge_refuses_shards_of_other_settings_or_given_twice() {
    let dir = scratch_dir("data-set-merge-settings");
    // Shard `shard` of selfplay's run of seed 5, at `nodes` and `plies` random plies.
    let shard = |name: &str, shard: &str, nodes: &str, plies: &str| {
        let path = dir.join(name);
        ok(&[
            "selfplay",
            "--games",
            "8",
            "--seed",
            "5",
            "--format",
            "packed",
            "--out",
            s(&path),
            "--shard",
            shard,
            "--nodes",
            nodes,
            "--random-plies",
            plies,
        ]);
        path
    };
    let a = shard("a.psd", "0/2", "100", "4");
    let b = shard("b.psd", "1/2", "300", "4");
    let c = shard("c.psd", "1/2", "100", "2");
    let d = shard("d.psd", "1/2", "100", "4");
    let e = shard("e.psd", "1/3", "100", "4");
    let copy = dir.join("copy.psd");
    std::fs::copy(&a, &copy).unwrap();
    let dotted = dir.join(".").join("a.psd");
    let merge = |inputs: &[&Path]| {
        let mut args = vec!["data", "merge"];
        args.extend(inputs.iter().map(|p| s(p)));
        let out = dir.join("m.psd");
        args.extend(["--out", s(&out)]);
        let r = run(&args);
        if r.0 != 0 {
            assert!(!out.exists(), "a refused merge wrote {}", out.display());
        }
        let _ = std::fs::remove_file(&out);
        r
    };
    let refused = |inputs: &[&Path], want: &str| {
        let (code, _, err) = merge(inputs);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(want), "want {want:?}: {err}");
    };
    refused(
        &[&a, &b],
        &format!(
            "shard {} was made with --nodes 300, shard {} with --nodes 100",
            s(&b),
            s(&a)
        ),
    );
    refused(&[&a, &c], "was made with --random-plies 2, shard");
    refused(&[&a, &copy], "holds the same bytes as shard");
    // The same shard labelled again: other bytes, the same games.
    let labelled = dir.join("la.psd");
    ok(&[
        "label",
        "--data",
        s(&a),
        "--out",
        s(&labelled),
        "--nodes",
        "50",
    ]);
    refused(
        &[&a, &labelled],
        "are both shard 0/2 of the run: one shard given twice",
    );
    // A copy of a file that records no settings (converted from text) too.
    let (text, conv) = (dir.join("a.txt"), dir.join("conv.psd"));
    let conv2 = dir.join("conv2.psd");
    ok(&["data", "convert", s(&a), "--out", s(&text)]);
    ok(&["data", "convert", s(&text), "--out", s(&conv)]);
    std::fs::copy(&conv, &conv2).unwrap();
    refused(&[&conv, &conv2], "holds the same bytes as shard");
    refused(&[&conv, &d], "records no self-play settings");
    refused(&[&a, &dotted], "is given twice (also as");
    refused(&[&a, &e], "was made with --shard 1/3, shard");
    let (code, out, err) = merge(&[&a, &d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("records "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
