//! The pattern evaluation end to end, as a real process: `learn` fits and writes a weights
//! file and a checkpoint, a second run of the same command resumes, the file plays through
//! `--weights`, and a damaged file is refused with the reason.

mod support;

use support::{run_cli as run, scratch_dir};

#[test]
fn learn_writes_weights_that_play_and_resumes_from_its_checkpoint() {
    let dir = scratch_dir("learn");
    let data = dir.join("data.txt");
    std::fs::write(&data, include_str!("data/tune-small.txt")).unwrap();
    let out = dir.join("p.bin");
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "learn",
        "--data",
        data_s,
        "--out",
        out_s,
        "--epochs",
        "2",
        "--threads",
        "1",
    ];
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

    // Other settings: the checkpoint is not theirs.
    let (code, _, err) = run(&[&args[..], &["--lambda", "0.9"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("other data or settings"), "{err}");

    // The weights play.
    let (code, stdout, err) = run(&["analyze", "--depth", "4", "--weights", out_s]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("bestmove") || !stdout.is_empty(),
        "{stdout}"
    );

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
