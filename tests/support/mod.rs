//! A Hub client for the tests: it runs the real binary and talks to it line by line. Every
//! wait has a generous timeout, so a hang fails the test instead of blocking it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Long enough for any answer on a loaded machine; only a hang takes this long.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Start the engine with these environment variables set (for example POOLSHARK_BOOK).
    pub fn start_with_env(vars: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_poolshark"))
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start poolshark");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err_pipe = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to poolshark");
        stdin.flush().expect("flush to poolshark");
    }

    /// The next line, or a panic after `PATIENCE`.
    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("poolshark closed its output; stderr: {}", self.stderr())
            }
        }
    }

    /// Lines up to and including the first that starts with `word`.
    pub fn until(&mut self, word: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.recv();
            let first = line.split(' ').next().unwrap_or("").to_string();
            seen.push(line);
            if first == word {
                return seen;
            }
        }
    }

    /// Send `ping` and return the lines before `pong`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("ping");
        let mut lines = self.until("pong");
        lines.pop();
        lines
    }

    pub fn handshake(&mut self) -> Vec<String> {
        self.send("hub");
        let lines = self.until("wait");
        self.send("init");
        assert_eq!(self.until("ready"), vec!["ready"]);
        lines
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Wait for the process to end, or panic after `PATIENCE`.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for poolshark") {
                return status;
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("poolshark did not exit within {PATIENCE:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `key` in a protocol line (quotes removed).
pub fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        Some(quoted[..quoted.find('"')?].to_string())
    } else {
        Some(rest.split(' ').next().unwrap_or("").to_string())
    }
}

/// The first move of a protocol line's `pv`.
pub fn first_pv_move(line: &str) -> String {
    let pv = field(line, "pv").expect("a pv");
    pv.split(' ').next().unwrap_or("").to_string()
}

/// The legal moves (Hub notation) after `moves` from the FEN, from `poolshark moves`.
pub fn legal_moves(fen: &str, moves: &[String]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["moves", "--fen", fen, "--moves", &moves.join(" ")])
        .output()
        .expect("run poolshark moves");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

/// Run the binary with `args` to the end: (exit status, stdout, stderr).
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(args)
        .output()
        .expect("run poolshark");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh folder for one test's files, named after the test and this process.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("poolshark-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// The endgame tables of 2 to 4 pieces, for the test binaries that only read them (egdb,
/// egdb_files, egdb_oracle, serve): built by the first that needs them into the build's own
/// scratch folder (`CARGO_TARGET_TMPDIR`, under target/), and found built there by the others
/// and by later runs (a finished build is read, not solved again; a damaged file is rebuilt),
/// so that `make test` solves them once, not four times. No test writes into it.
pub fn tables_4() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("egdb-2-4");
        std::fs::create_dir_all(&dir).expect("make the tables' folder");
        poolshark_host::egdb::build(&dir, 4, 2).expect("build the 2-4 piece tables");
        dir
    })
}
