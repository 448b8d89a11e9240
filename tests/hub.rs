//! The Hub protocol, spoken to the real binary: start-up, a game, searches that are stopped,
//! pinged and ponder-hit, the end of input, and every error case of docs/PROTOCOL.md.

mod support;

use poolshark::hub::params::{max_tt_log2, Param, Params};
use poolshark::hub_syntax::tokenize;
use std::time::Duration;
use support::{field, first_pv_move, legal_moves, Engine};

const START: &str = "startpos";

/// The most threads the engine should accept here: 4 per core, at least 4, at most 256.
fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (4 * cores).clamp(4, 256)
}

/// Resident memory of a process in MiB, from /proc (Linux).
#[cfg(target_os = "linux")]
fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap();
    kib / 1024
}

/// `done`'s move, after checking that it is legal after `moves` from the FEN.
fn legal_done(done: &str, fen: &str, moves: &[String]) -> String {
    assert!(done.starts_with("done move="), "{done}");
    let mv = field(done, "move").unwrap();
    let legal = legal_moves(fen, moves);
    assert!(legal.contains(&mv), "{mv} is not legal: {legal:?}");
    mv
}

#[test]
fn handshake_then_a_game() {
    let mut e = Engine::start();
    let lines = e.handshake();
    assert!(
        lines[0].starts_with("id name=poolshark version="),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("author=\""), "{}", lines[0]);
    assert!(lines.contains(&"param name=variant value=pool type=enum values=\"pool\"".to_string()));
    for name in Param::ALL.map(Param::name) {
        let line = lines
            .iter()
            .find(|l| field(l, "name").as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no param {name}: {lines:?}"));
        assert!(field(line, "type").is_some(), "{line}");
        if field(line, "type").as_deref() == Some("int") {
            assert!(
                field(line, "min").is_some() && field(line, "max").is_some(),
                "{line}"
            );
        }
    }
    assert_eq!(lines.last().unwrap(), "wait");
    e.send("set-param name=threads value=2");
    e.send("set-param name=variant value=pool");
    assert_eq!(e.sync(), Vec::<String>::new());

    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        e.send(&format!("pos start moves=\"{}\"", moves.join(" ")));
        e.send("level depth=3");
        e.send("go think");
        let lines = e.until("done");
        for info in &lines[..lines.len() - 1] {
            assert!(info.starts_with("info depth="), "{info}");
            let score: f64 = field(info, "score").unwrap().parse().unwrap();
            assert!(score.abs() < 100.0);
            assert!(!field(info, "pv").unwrap().is_empty());
        }
        let mv = legal_done(lines.last().unwrap(), START, &moves);
        moves.push(mv);
    }
    // The same game as a Hub position string with the moves.
    e.send(&format!(
        "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"{}\"",
        moves.join(" ")
    ));
    e.send("level nodes=2000");
    e.send("go think");
    let done = e.until("done").pop().unwrap();
    legal_done(&done, START, &moves);
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let mut e = Engine::start();
    e.handshake();
    for mode in ["think", "analyze", "ponder"] {
        e.send("pos fen=\"W:W18,22,K30:B6,9,K27\"");
        e.send("level infinite");
        e.send(&format!("go {mode}"));
        std::thread::sleep(Duration::from_millis(50));
        e.send("stop");
        let done = e.until("done").pop().unwrap();
        legal_done(&done, "W:W18,22,K30:B6,9,K27", &[]);
        assert_eq!(e.sync(), Vec::<String>::new(), "one done per go");
    }
}

#[test]
fn ping_is_answered_during_a_search() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    e.send("ping");
    let mut before = e.until("pong");
    before.pop();
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:?}");
    e.send("ping");
    e.until("pong");
    e.send("stop");
    legal_done(&e.until("done").pop().unwrap(), START, &[]);
}

#[test]
fn ponder_hit_turns_pondering_into_a_timed_search() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=ponder value=true");
    let moves = vec!["11-15".to_string()];
    e.send("pos start moves=\"11-15\"");
    e.send("level time=0.3");
    e.send("go ponder");
    // Still pondering: the time limit does not run yet.
    std::thread::sleep(Duration::from_millis(400));
    assert!(e.sync().iter().all(|l| l.starts_with("info ")));
    e.send("ponder-hit");
    legal_done(&e.until("done").pop().unwrap(), START, &moves);
    // A ponder-hit or stop that crosses the done is ignored.
    e.send("ponder-hit");
    e.send("stop");
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn another_command_ends_the_search_and_then_runs() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos start");
    e.send("level infinite");
    e.send("go think");
    e.send("frobnicate");
    let lines = e.until("done");
    legal_done(lines.last().unwrap(), START, &[]);
    assert_eq!(e.recv(), "error message=\"unknown command frobnicate\"");
    e.send("level infinite");
    e.send("go think");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn new_game_clears_and_play_goes_on() {
    let mut e = Engine::start();
    e.handshake();
    for _ in 0..2 {
        e.send("new-game");
        e.send("pos start");
        e.send("level depth=4");
        e.send("go think");
        legal_done(&e.until("done").pop().unwrap(), START, &[]);
    }
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn end_of_input_during_a_search_exits() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos start");
    e.send("level infinite");
    e.send("go think");
    e.sync();
    e.close_stdin();
    assert!(e.wait_exit().success());
}

#[test]
fn end_of_input_at_rest_exits() {
    let mut e = Engine::start();
    e.close_stdin();
    assert!(e.wait_exit().success());
}

/// The final score of `go analyze` to depth 9.
fn analyze(e: &mut Engine, pos: &str) -> String {
    e.send(pos);
    e.send("level depth=9");
    e.send("go analyze");
    let lines = e.until("done");
    field(&lines[lines.len() - 2], "score").unwrap()
}

/// The same 3-kings-against-1 position, with and without the moves that led to it: with
/// them the 13-move count runs out before the win (count13.txt says so), without them the
/// search proves the win.
#[test]
fn draw_counts_from_the_history_are_honoured() {
    let mut e = Engine::start();
    e.handshake();
    // The search's own proof, not the tables of a working folder that has them (egdb/).
    e.send("set-param name=egdb value=false");
    let data = include_str!("data/count13.txt");
    let draws: Vec<&str> = data.lines().filter(|l| l.contains(" ; draw ; ")).collect();
    for line in draws.iter().take(3) {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let with_history = analyze(
            &mut e,
            &format!("pos fen=\"{}\" moves=\"{}\"", parts[0], parts[1]),
        );
        assert!(!with_history.starts_with("99."), "{line}: {with_history}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_poolshark"))
            .args(["show", "--fen", parts[0], "--moves", parts[1]])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let fen = text.lines().find_map(|l| l.strip_prefix("FEN: ")).unwrap();
        let fresh = analyze(&mut e, &format!("pos fen=\"{fen}\""));
        assert!(fresh.starts_with("99."), "{fen}: {fresh}");
    }
}

/// Each bad line gets exactly one `error message="..."` with the given text, and the loop
/// carries on.
#[test]
fn every_error_case_gets_an_error_and_the_loop_goes_on() {
    let mut e = Engine::start();
    e.handshake();
    let cases: &[(&str, &str)] = &[
        ("frobnicate a=1", "unknown command frobnicate"),
        ("GO think", "unknown command GO"),
        ("pos moves=\"11-15", "no closing"),
        ("= pos", "command name"),
        ("\"pos\"", "command name"),
        ("pos pos=", "has no value"),
        ("level depth==2", "another '='"),
        ("pos fen=\"B:W21-32:B1-12\"x", "space must follow"),
        ("pos", "pos needs"),
        ("pos start fen=\"B:W21-32:B1-12\"", "only one of"),
        ("pos pos=Bbbb", "33 characters"),
        ("pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "side to move"),
        (
            "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwq",
            "unknown character",
        ),
        (
            "pos pos=Bwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "invalid position",
        ),
        ("pos fen=\"B:W33:B1\"", "square"),
        ("pos start moves=\"11-15 11-15\"", "move 2"),
        ("pos start moves=\"11-18\"", "move 1"),
        ("pos start moves=\"hello\"", "not a move"),
        ("pos start moves", "needs a value"),
        ("level", "level needs"),
        ("level depth=0", "depth=0"),
        ("level depth=abc", "whole number"),
        ("level depth=99999999999999999999999", "whole number"),
        ("level nodes=0", "nodes=0"),
        ("level nodes=-5", "nodes=-5"),
        ("level move-time=-1", "seconds"),
        ("level move-time=NaN", "seconds"),
        ("level time=inf", "seconds"),
        ("level time=1e99", "seconds"),
        ("level inc=x", "seconds"),
        ("level moves=0", "moves=0"),
        ("level infinite=1", "flag"),
        ("go", "think, ponder or analyze"),
        ("go think analyze", "only one of"),
        ("go fast", "think, ponder or analyze"),
        ("set-param name=threads", "value"),
        ("set-param value=3", "name"),
        ("set-param name=threads value=0", "threads=0"),
        ("set-param name=threads value=many", "threads=many"),
        ("set-param name=threads value=100000", "threads=100000"),
        ("set-param name=tt-size value=15", "tt-size=15"),
        ("set-param name=tt-size value=99", "tt-size=99"),
        ("set-param name=ponder value=maybe", "true or false"),
        ("set-param name=book value=1", "true or false"),
        ("set-param name=book-ply value=-1", "book-ply=-1"),
        ("set-param name=variant value=english", "one of: pool"),
        ("set-param name=hash value=64", "unknown parameter hash"),
        ("set-param name=\"\" value=1", "a parameter name is empty"),
        ("set-param name=level value=11", "level=11"),
        ("set-param name=level value=-1", "level=-1"),
        ("set-param name=level value=easy", "level=easy"),
    ];
    for (line, expected) in cases {
        e.send(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        let err = &lines[0];
        assert!(err.starts_with("error message=\""), "{line}: {err}");
        assert!(
            err.ends_with('"') && err.matches('"').count() == 2,
            "{line}: {err}"
        );
        assert!(err.contains(expected), "{line}: {err} lacks {expected}");
    }
    // The old values stayed.
    e.send("hub");
    let params = e.until("wait");
    assert!(params.contains(&format!(
        "param name=threads value=1 type=int min=1 max={}",
        max_threads()
    )));
    assert!(params
        .iter()
        .any(|l| l.starts_with("param name=tt-size value=22 ")));
    // Unknown keys are ignored.
    e.send("ping extra=1 flag");
    assert_eq!(e.recv(), "pong");
    // A go after a rejected pos, or with no legal move, still gets its done.
    e.send("pos pos=Bbbb");
    e.send("go think");
    let lines = e.until("done");
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].contains("no position"), "{lines:?}");
    e.send("pos fen=\"B:W18:BK22\" moves=\"22x15x18\"");
    e.send("go think");
    let lines = e.until("done");
    assert!(
        lines[0].starts_with("error message=\"no legal move"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "done");
    // Binary garbage, and a line too long to keep.
    e.send_bytes(b"\xff\xfe\x00\x01 go\n");
    assert!(e.recv().starts_with("error message="));
    e.send(&"x".repeat((1 << 20) + 1));
    assert!(e.recv().contains("too long"));
    assert_eq!(e.sync(), Vec::<String>::new());
    assert!(!e.stderr().contains("panicked"), "{}", e.stderr());
}

/// A table the allocator refuses is an error, and the old table stays (Linux: the address
/// space is capped with ulimit so that the allocation fails).
#[test]
#[cfg(target_os = "linux")]
fn a_table_that_does_not_fit_is_refused() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1500000 && exec '{}' hub",
            env!("CARGO_BIN_EXE_poolshark")
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"set-param name=tt-size value=27\nhub\nping\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("error message=\"tt-size=27: cannot allocate"),
        "{text}"
    );
    assert!(text.contains("param name=tt-size value=22 "), "{text}");
    assert_eq!(lines.last(), Some(&"pong"));
}

#[test]
fn eval_file_loads_weights_and_refuses_bad_files() {
    let mut e = Engine::start();
    let lines = e.handshake();
    assert!(
        lines.contains(&"param name=eval-file value=\"\" type=string".to_string()),
        "{lines:?}"
    );
    e.send("set-param name=eval-file value=\"no/such/file.txt\"");
    let err = e.recv();
    assert!(
        err.starts_with("error message=\"eval-file: cannot read no/such/file.txt"),
        "{err}"
    );
    let handset = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/handset.txt");
    // A value out of its range is refused like any other bad file (issue 11).
    let dir = support::scratch_dir("eval-file");
    let bad = dir.join("bad.txt");
    let text = std::fs::read_to_string(handset).unwrap();
    std::fs::write(&bad, text.replace("king_mobility 2", "king_mobility 30000")).unwrap();
    e.send(&format!(
        "set-param name=eval-file value=\"{}\"",
        bad.display()
    ));
    let err = e.recv();
    assert!(err.starts_with("error message="), "{err}");
    assert!(
        err.contains("30000 is out of range (from -30 to 30)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    e.send(&format!("set-param name=eval-file value=\"{handset}\""));
    e.send("set-param name=eval-file value=\"\"");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send(&format!("set-param name=eval-file value=\"{handset}\""));
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    let lines = e.until("done");
    legal_done(lines.last().unwrap(), START, &[]);
}

/// More threads than 4 per core only delay a stop (each must be scheduled to see it): the
/// engine declares that maximum and refuses more.
#[test]
fn threads_are_capped_by_the_cores() {
    let mut e = Engine::start();
    let lines = e.handshake();
    let max = max_threads();
    let declared = format!("param name=threads value=1 type=int min=1 max={max}");
    assert!(lines.contains(&declared), "{lines:?}");
    e.send(&format!("set-param name=threads value={}", max + 1));
    let err = e.recv();
    assert!(
        err.starts_with(&format!("error message=\"threads={}", max + 1)),
        "{err}"
    );
    e.send(&format!("set-param name=threads value={max}"));
    assert_eq!(e.sync(), Vec::<String>::new());
}

/// A `pos` line too long to keep is refused like any bad `pos`: the previous position is
/// gone, so the next `go` cannot answer for it.
#[test]
fn a_pos_line_too_long_clears_the_position() {
    let mut e = Engine::start();
    e.handshake();
    e.send("pos start");
    e.send("level depth=2");
    let mut long = String::from("pos start moves=\"");
    while long.len() <= 1 << 20 {
        long.push_str("11-15 ");
    }
    long.push('"');
    e.send(&long);
    let err = e.recv();
    assert!(
        err.contains("too long") && err.contains("no position"),
        "{err}"
    );
    e.send("go think");
    let lines = e.until("done");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("no position"), "{lines:?}");
    assert_eq!(lines[1], "done");
    // Another over-long line leaves a good position alone.
    e.send("pos start");
    e.send(&"x".repeat((1 << 20) + 1));
    assert!(e.recv().contains("too long; ignored"));
    e.send("level depth=2");
    e.send("go think");
    legal_done(&e.until("done").pop().unwrap(), START, &[]);
}

/// The table's pages are in memory by the time `init` is answered, so no search pays for
/// them; until then the loop answers as usual. (256 MiB table; memory read from /proc.)
#[test]
#[cfg(target_os = "linux")]
fn the_table_is_in_memory_before_ready() {
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send("set-param name=tt-size value=24");
    e.send("ping");
    e.send("init");
    let mut lines = vec![e.recv(), e.recv()];
    lines.sort();
    assert_eq!(lines, ["pong", "ready"]);
    let rss = rss_mib(e.pid());
    assert!(rss >= 256, "only {rss} MiB in memory after ready");
    // A new game forgets the old entries without giving the memory back.
    e.send("pos start");
    e.send("level depth=6");
    e.send("go think");
    let first = e.until("done");
    e.send("new-game");
    e.send("pos start");
    e.send("level depth=6");
    e.send("go think");
    let second = e.until("done");
    assert_eq!(first.len(), second.len(), "{first:?} {second:?}");
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(field(a, "nodes"), field(b, "nodes"), "{a} / {b}");
    }
    assert!(rss_mib(e.pid()) >= 256);
    // The end of input is honoured while a table is being prepared.
    e.send("set-param name=tt-size value=25");
    e.close_stdin();
    assert!(e.wait_exit().success());
}

/// A network file (`tuning/network.bin`) loads through `eval-file` like a text one and
/// plays; a damaged one is refused with the reason and the weights stay, and a file of the
/// removed pattern evaluation is refused, saying what it is.
#[test]
fn eval_file_loads_a_network_and_refuses_damaged_ones() {
    let mut e = Engine::start();
    e.handshake();
    let network = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/network.bin");
    let dir = support::scratch_dir("eval-file-network");
    let old = dir.join("old.bin");
    std::fs::write(&old, b"PSPATTRN\x02\x00\x00\x00").unwrap();
    e.send(&format!(
        "set-param name=eval-file value=\"{}\"",
        old.display()
    ));
    let err = e.recv();
    assert!(
        err.contains("a pattern weights file, an evaluation since removed"),
        "{err}"
    );
    let bad = dir.join("bad.bin");
    let mut bytes = std::fs::read(network).unwrap();
    bytes[5000] ^= 1;
    std::fs::write(&bad, &bytes).unwrap();
    e.send(&format!(
        "set-param name=eval-file value=\"{}\"",
        bad.display()
    ));
    let err = e.recv();
    assert!(err.starts_with("error message=\"eval-file: "), "{err}");
    assert!(err.contains("damaged"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    e.send(&format!("set-param name=eval-file value=\"{network}\""));
    assert_eq!(e.sync(), Vec::<String>::new());
    e.send("pos start");
    e.send("level depth=5");
    e.send("go think");
    let lines = e.until("done");
    legal_done(lines.last().unwrap(), START, &[]);
}

/// The `param` lines of the start-up.
fn param_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("param "))
        .cloned()
        .collect()
}

/// The handshake declares every parameter of `Param::ALL`, in its order, each as
/// `Params::param_lines` writes it.
#[test]
fn the_handshake_lists_every_parameter() {
    // As the binary does first, so that this process's maxima are the binary's.
    poolshark_host::init();
    let mut e = Engine::start();
    let params = param_lines(&e.handshake());
    let names: Vec<String> = params.iter().filter_map(|l| field(l, "name")).collect();
    assert_eq!(names, Param::ALL.map(|p| p.name().to_string()));
    let want: Vec<String> = Params::new(max_tt_log2(), max_threads())
        .param_lines()
        .iter()
        .map(|l| format!("param {l}"))
        .collect();
    assert_eq!(params, want);
}

/// A `param` line with the maxima that depend on the machine (threads: its cores, tt-size:
/// its memory) left out, so that the README's lines compare with this machine's.
fn without_machine_maxima(line: &str) -> String {
    let parsed = tokenize(line).unwrap().unwrap();
    let machine = matches!(parsed.arg("name"), Some("threads" | "tt-size"));
    line.split(' ')
        .filter(|word| !(machine && word.starts_with("max=")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The README's Hub session shows exactly the `param` lines the binary prints.
#[test]
fn the_readme_handshake_is_the_binarys() {
    let readme = include_str!("../README.md");
    let session = readme
        .split("```")
        .find(|block| {
            block
                .trim_start()
                .starts_with("$ target/release/poolshark\nhub\n")
        })
        .expect("the README's Hub session");
    let shown: Vec<String> = session
        .lines()
        .filter(|l| l.starts_with("param "))
        .map(without_machine_maxima)
        .collect();
    let mut e = Engine::start();
    let printed: Vec<String> = param_lines(&e.handshake())
        .iter()
        .map(|l| without_machine_maxima(l))
        .collect();
    assert_eq!(shown, printed);
}

/// The `info` lines of one search up to its `done`, and the `done` line.
fn search_lines(e: &mut Engine) -> (Vec<String>, String) {
    let mut lines = e.until("done");
    let done = lines.pop().unwrap();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    (lines, done)
}

/// `search-params` sets search parameters by name: a search with one changed walks another
/// tree, setting it back (the empty string) walks the same tree as before, and a bad
/// assignment gets an error naming it while the setting in force stays.
#[test]
fn search_params_change_the_search_and_bad_ones_are_refused() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=threads value=1");
    let nodes = |e: &mut Engine| {
        e.send("new-game");
        e.send("pos start");
        e.send("level depth=9");
        e.send("go analyze");
        let (infos, done) = search_lines(e);
        assert!(done.starts_with("done move="), "{done}");
        field(infos.last().unwrap(), "nodes").unwrap()
    };
    let plain = nodes(&mut e);
    e.send("set-param name=search-params value=\"lmr_divisor:1.5,probcut_margin:40\"");
    assert!(e.sync().is_empty());
    let changed = nodes(&mut e);
    assert_ne!(plain, changed);
    for bad in [
        "nope:1",
        "lmr_divisor",
        "lmr_divisor:x",
        "time_max_share:2",
        "lmr_divisor:2,lmr_divisor:3",
    ] {
        e.send(&format!("set-param name=search-params value=\"{bad}\""));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("error message=\"search-params="),
            "{bad}: {lines:?}"
        );
    }
    // The refused values left the last good one in force.
    assert_eq!(nodes(&mut e), changed);
    e.send("set-param name=search-params value=\"\"");
    assert!(e.sync().is_empty());
    assert_eq!(nodes(&mut e), plain);
}

/// Without `multipv` (or with it at 1) no `info` line has a `multipv` field; with 3, each
/// depth has lines 1 to 3 in order, with `multipv=K` right after the depth, three distinct
/// moves, and `done` plays line 1's move. Bad values are refused and the old one stays.
#[test]
fn multipv_adds_numbered_info_lines() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=threads value=1");
    e.send("pos start");
    e.send("level depth=5");
    e.send("go analyze");
    let (infos, _) = search_lines(&mut e);
    assert_eq!(infos.len(), 5, "{infos:?}");
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{infos:?}");

    e.send("set-param name=multipv value=3");
    for bad in ["0", "-1", "three", "256", "99999999999999999999", "2.5"] {
        e.send(&format!("set-param name=multipv value={bad}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("error message=\"multipv=") && lines[0].contains("not valid"),
            "{bad}: {lines:?}"
        );
    }
    e.send("pos start");
    e.send("level depth=5");
    e.send("go analyze");
    let (infos, done) = search_lines(&mut e);
    assert_eq!(infos.len(), 15, "{infos:?}");
    for (i, line) in infos.iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], format!("depth={}", i / 3 + 1), "{line}");
        assert_eq!(words[2], format!("multipv={}", i % 3 + 1), "{line}");
        assert!(words[3].starts_with("mean-depth="), "{line}");
    }
    let last = &infos[12..];
    let firsts: Vec<String> = last.iter().map(|l| first_pv_move(l)).collect();
    let legal = legal_moves("B:W21-32:B1-12", &[]);
    for (k, mv) in firsts.iter().enumerate() {
        assert!(legal.contains(mv), "{mv}");
        assert!(!firsts[..k].contains(mv), "{firsts:?}");
    }
    assert_eq!(field(&done, "move").unwrap(), firsts[0], "{done}");

    // A forced capture: one line however many are asked for.
    e.send("pos fen=\"W:W18:B14,K1\"");
    e.send("level depth=3");
    e.send("go analyze");
    let (infos, done) = search_lines(&mut e);
    assert_eq!(infos.len(), 3, "{infos:?}");
    assert!(infos
        .iter()
        .all(|l| field(l, "multipv").as_deref() == Some("1")));
    assert_eq!(
        legal_moves("W:W18:B14,K1", &[]),
        vec![legal_done(&done, "W:W18:B14,K1", &[])]
    );

    // A stop during a multi-PV search still gets its done.
    e.send("pos start");
    e.send("level infinite");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let (_, done) = search_lines(&mut e);
    legal_done(&done, "B:W21-32:B1-12", &[]);

    e.send("set-param name=multipv value=1");
    e.send("pos start");
    e.send("level depth=4");
    e.send("go analyze");
    let (infos, _) = search_lines(&mut e);
    assert_eq!(infos.len(), 4, "{infos:?}");
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{infos:?}");
    assert_eq!(e.sync(), Vec::<String>::new());
}

/// Every search parameter in its range searches: `lmr_min_depth:1` once made every search
/// panic, and the engine then played a move it had not searched. Now the search runs: no
/// `error`, and the move is the search's.
#[test]
fn the_lowest_lmr_min_depth_searches() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=search-params value=lmr_min_depth:1");
    assert!(e.sync().is_empty());
    e.send("pos start");
    e.send("level depth=7");
    // Analysis, so that the book does not answer.
    e.send("go analyze");
    let lines = e.until("done");
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=7 ")),
        "{lines:?}"
    );
    legal_done(lines.last().unwrap(), START, &[]);
}

/// Changing `eval-file` clears the table: the search after it walks the same tree as one
/// after `new-game`, not one that takes the old evaluation's scores from the table.
#[test]
fn a_new_eval_file_forgets_the_old_evaluation() {
    let mut e = Engine::start();
    e.handshake();
    e.send("set-param name=threads value=1");
    let nodes = |e: &mut Engine| {
        e.send("pos start");
        e.send("level depth=9");
        e.send("go analyze");
        let (infos, done) = search_lines(e);
        assert!(done.starts_with("done move="), "{done}");
        field(infos.last().unwrap(), "nodes").unwrap()
    };
    e.send("new-game");
    let fresh = nodes(&mut e);
    let handset = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/handset.txt");
    e.send(&format!("set-param name=eval-file value=\"{handset}\""));
    assert!(e.sync().is_empty());
    nodes(&mut e);
    e.send("set-param name=eval-file value=\"\"");
    assert!(e.sync().is_empty());
    assert_eq!(nodes(&mut e), fresh);
}

/// The moves `level` plays from the start with each of `seeds` (a fresh engine each, its
/// generator seeded by POOLSHARK_LEVEL_SEED), after checking the `info` lines of its search:
/// as many lines per depth as the level searches, and `done` one of the moves they name.
fn level_moves(level: u64, seeds: std::ops::Range<u64>) -> Vec<String> {
    let candidates = poolshark_engine::search::level::PlayLevel::new(level)
        .unwrap()
        .settings()
        .candidates;
    seeds
        .map(|seed| {
            let mut e = Engine::start_with_env(&[("POOLSHARK_LEVEL_SEED", &seed.to_string())]);
            e.handshake();
            e.send(&format!("set-param name=level value={level}"));
            assert!(e.sync().is_empty());
            e.send("pos start");
            e.send("go think");
            let (infos, done) = search_lines(&mut e);
            let mv = legal_done(&done, "B:W21-32:B1-12", &[]);
            let last_depth = field(infos.last().unwrap(), "depth").unwrap();
            let last: Vec<&String> = infos
                .iter()
                .filter(|l| field(l, "depth").unwrap() == last_depth)
                .collect();
            assert_eq!(last.len(), candidates.min(7), "{infos:?}");
            let named: Vec<String> = last.iter().map(|l| first_pv_move(l)).collect();
            assert!(named.contains(&mv), "{mv} not in {named:?}");
            mv
        })
        .collect()
}

/// `level`: the pick of level 1 varies with the seed and repeats with it; level 0 is full
/// strength again (one line, the book's or the search's move), and `go analyze` is never
/// played at a level.
#[test]
fn levels_pick_by_seed_and_zero_is_full_strength() {
    let weak = level_moves(1, 0..8);
    assert!(
        weak.iter().any(|m| m != &weak[0]),
        "level 1 always played {weak:?}"
    );
    assert_eq!(level_moves(1, 0..8), weak, "same seeds, same moves");

    let mut e = Engine::start_with_env(&[("POOLSHARK_LEVEL_SEED", "5")]);
    e.handshake();
    e.send("set-param name=level value=2");
    e.send("pos start");
    e.send("level depth=4");
    e.send("go analyze");
    let (infos, _) = search_lines(&mut e);
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{infos:?}");
    e.send("set-param name=level value=0");
    e.send("hub");
    let params = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=level value=0 ")),
        "{params:?}"
    );
    e.send("set-param name=book value=false");
    e.send("pos start");
    e.send("level nodes=3000");
    e.send("go think");
    let (infos, done) = search_lines(&mut e);
    assert!(infos.iter().all(|l| !l.contains("multipv")), "{infos:?}");
    legal_done(&done, "B:W21-32:B1-12", &[]);
}
