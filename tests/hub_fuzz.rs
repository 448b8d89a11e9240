//! Bad input for the Hub loop: more than 100,000 random and mutated lines (truncated
//! commands, wrong and huge numbers, unbalanced quotes, binary garbage, very long lines) sent
//! to the real binary. Afterwards it must still answer `ping`, must have written only
//! protocol lines, and must not have panicked.

mod support;

use poolshark::hub::command::{parse, Command};
use poolshark_engine::core::rng::SplitMix64;
use support::Engine;

/// Well-formed lines to start from. No table larger than 2^18 entries and no more than two
/// threads, so that the run stays fast and small; searches are cut short by the next line.
const SEEDS: &[&str] = &[
    "hub",
    "init",
    "ping",
    "stop",
    "ponder-hit",
    "new-game",
    "quit-not",
    "pos start",
    "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"",
    "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    "pos fen=\"B:W21-32:B1-12\" moves=\"11-15 23-19 8-11\"",
    "pos fen=\"W:WK3,18:BK29,5\"",
    "pos fen=\"W:W18,22,K30:B6,9,K27\" moves=\"30x23x27\"",
    "pos start moves=\"11-15 22-18 15x22x18 25x18x22\"",
    "level depth=1",
    "level depth=2",
    "level nodes=50",
    "level move-time=0.001",
    "level time=0.01 inc=0 moves=3",
    "level time=-0.001 inc=0.002",
    "level infinite",
    "go think",
    "go analyze",
    "go ponder",
    "set-param name=threads value=2",
    "set-param name=tt-size value=17",
    "set-param name=ponder value=true",
    "set-param name=book value=false",
    "set-param name=book-ply value=10",
    "set-param name=variant value=pool",
    "set-param name = \"threads\" value = 1",
];

const BAD_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1e999",
    "99999999999999999999999999",
    "18446744073709551616",
    "nan",
    "inf",
    "-inf",
    "0x10",
    "1.5",
    "+3",
    "\u{0661}",
    "1_000",
    "",
    "\"\"",
    "\"5",
    "30",
    "4294967296",
    "-0",
    "1e-400",
];

const NOISE: &[&str] = &[
    " ", "=", "\"", "x", "-", "\t", "\0", "\x01", "\x7f", "==", "\"\"", "é", "\u{feff}", "\r", "9",
    "W", "K", ":", ",",
];

/// One mutated line (never containing a newline).
fn line(rng: &mut SplitMix64) -> Vec<u8> {
    let kind = rng.below(100);
    let mut text: Vec<u8> = match kind {
        // Binary garbage.
        0..=9 => (0..rng.below(200)).map(|_| rng.next_u64() as u8).collect(),
        // A very long line now and then.
        10 => {
            let unit = rng.pick(SEEDS).as_bytes().to_vec();
            unit.iter()
                .cycle()
                .take(20_000 + rng.below(80_000))
                .copied()
                .collect()
        }
        _ => {
            let mut s = rng.pick(SEEDS).to_string();
            // Searches start rarely, with tiny limits before most of them.
            if s.starts_with("go") && rng.below(4) != 0 {
                s = "level depth=1".to_string();
            }
            for _ in 0..1 + rng.below(3) {
                s = mutate(rng, &s);
            }
            s.into_bytes()
        }
    };
    for b in text.iter_mut() {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    // Values that would make the run slow or large are turned into bad ones.
    let shown = String::from_utf8_lossy(&text).into_owned();
    if shown.contains("tt-size") || shown.contains("threads") {
        let ok = |t: &str| t.parse::<u64>().map_or(true, |v| v <= 18 || v > 10_000);
        if !shown.split(|c: char| !c.is_ascii_digit()).all(ok) {
            return b"set-param name=tt-size value=99".to_vec();
        }
    }
    // `quit` ends the engine by design, so no line may parse as one (asked of the engine's own
    // parser: a mutation like `quit -not` is a quit too).
    if matches!(parse(&shown), Ok(Command::Quit)) {
        return b"quit-not".to_vec();
    }
    text
}

fn mutate(rng: &mut SplitMix64, s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let at = rng.below(chars.len() + 1);
    let before: String = chars[..at].iter().collect();
    let after: String = chars[at..].iter().collect();
    match rng.below(6) {
        0 => before,
        1 => format!("{before}{}{after}", rng.pick(NOISE)),
        2 => format!("{before}{}", after.chars().skip(1).collect::<String>()),
        3 => {
            // Replace every number with a bad one.
            let mut out = String::new();
            let mut in_number = false;
            for c in chars {
                if c.is_ascii_digit() {
                    if !in_number {
                        out.push_str(rng.pick::<&str>(BAD_NUMBERS));
                    }
                    in_number = true;
                } else {
                    in_number = false;
                    out.push(c);
                }
            }
            out
        }
        4 => s.replace('"', ""),
        _ => format!("{s} {}", rng.pick(SEEDS)),
    }
}

#[test]
fn a_hundred_thousand_bad_lines_do_no_harm() {
    const LINES: usize = 100_000;
    let mut e = Engine::start();
    e.send("set-param name=tt-size value=16");
    // A fixed seed makes every run the same.
    let mut rng = SplitMix64::new(0x5eed_1234_abcd_0001);
    let mut batch = Vec::new();
    for i in 0..LINES {
        batch.extend_from_slice(&line(&mut rng));
        batch.push(b'\n');
        if i == LINES / 2 {
            batch.extend_from_slice(&vec![b'"'; (1 << 20) + 5]);
            batch.push(b'\n');
        }
        if batch.len() > 1 << 16 {
            e.send_bytes(&batch);
            batch.clear();
        }
    }
    e.send_bytes(&batch);
    e.send("stop");
    // Random lines hold pings too, so the end is marked by an error no random line makes.
    e.send("end-of-fuzz");
    let mut lines = Vec::new();
    loop {
        let l = e.recv();
        if l == "error message=\"unknown command end-of-fuzz\"" {
            break;
        }
        lines.push(l);
    }
    assert_eq!(e.sync(), Vec::<String>::new());
    // Everything is a protocol line.
    let known = [
        "id", "param", "wait", "ready", "pong", "info", "done", "error",
    ];
    for l in &lines {
        let word = l.split(' ').next().unwrap();
        assert!(known.contains(&word), "not a protocol line: {l:?}");
    }
    let errors = lines.iter().filter(|l| l.starts_with("error ")).count();
    let dones = lines.iter().filter(|l| l.starts_with("done")).count();
    eprintln!(
        "{} lines out: {errors} errors, {dones} searches",
        lines.len()
    );
    assert!(errors > LINES / 2);
    let stderr = e.stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
    e.send("quit");
    assert!(e.wait_exit().success());
}
