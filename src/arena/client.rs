//! The Hub client side: start an engine process, hand-shake, and ask it for moves, with a
//! time-out on every answer so a silent engine cannot hang a match.
//!
//! An engine is not trusted: its output is read as bytes, one line at a time up to
//! `MAX_LINE` bytes (invalid UTF-8 is replaced, an over-long line is a fault), and its lines
//! are read with the same tokenizer as the engine's own input (`hub_syntax`: `command_name`,
//! `tokenize`). Its stderr goes to a log file, and the last lines are kept to explain a
//! failure.

use crate::hub_syntax::{command_name, quote, tokenize};
use poolshark_host::files::read_line_capped;
use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The longest engine output line accepted, in bytes. A Hub line is short (a long `info` PV
/// is a few kilobytes); a longer line is a fault, so a runaway engine cannot fill memory.
pub const MAX_LINE: usize = 64 * 1024;
/// Engine lines buffered between the reader thread and the runner; past this the engine
/// waits, as on a full pipe. With `MAX_LINE`, this bounds the memory one engine can take.
const QUEUED_LINES: usize = 256;
/// How many of the last stderr lines are quoted when an engine fails, and their length.
const STDERR_TAIL_LINES: usize = 4;
const STDERR_TAIL_CHARS: usize = 200;
/// How long a failing engine's stderr is awaited before it is quoted.
const STDERR_GRACE: Duration = Duration::from_millis(500);
/// The time allowed for the start-up (`hub` ... `ready`, with the parameters checked). A
/// hang guard, not a speed limit: on a loaded machine (two shared cores at load 14, the
/// levels' ladder in docs/LEVELS.md) a start that reads a network and a large table took
/// more than the 10 s this once was, and the game was lost to the match.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// The time allowed to answer `ping` after `new-game` (clearing a large table may take
/// seconds). It is the runner's, not the game clock's: the clock starts after the `pong`.
pub const NEW_GAME_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// It closed its output or exited; what is known of why (exit status, last stderr
    /// lines), possibly empty.
    Died(String),
    /// It did not answer in time.
    Timeout(&'static str),
    /// It answered something that is not a move.
    BadReply(String),
    /// It answered `done` without a move, in a position with legal moves: its search could
    /// not run (docs/PROTOCOL.md). The message of the `error` line before it, if any.
    SearchFailed(Option<String>),
    /// It wrote a line longer than `MAX_LINE` bytes.
    LineTooLong,
    /// It answered `error` to a `set-param`.
    Rejected { param: String, message: String },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Died(why) if why.is_empty() => write!(f, "the engine exited"),
            EngineError::Died(why) => write!(f, "the engine exited ({why})"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::BadReply(l) => write!(f, "bad reply '{}'", shorten(l, 200)),
            EngineError::SearchFailed(Some(e)) => {
                write!(f, "its search failed: '{}'", shorten(e, 200))
            }
            EngineError::SearchFailed(None) => write!(f, "it answered done without a move"),
            EngineError::LineTooLong => {
                write!(f, "it wrote a line longer than {MAX_LINE} bytes")
            }
            EngineError::Rejected { param, message } => {
                write!(f, "set-param {param} was refused: {message}")
            }
        }
    }
}

/// At most `max` characters of `text`, with `...` when cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// How to start one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// A shell command line.
    pub command: String,
    /// `set-param` name/value pairs sent before `init`.
    pub params: Vec<(String, String)>,
    /// Where its stderr is appended (none: only the last lines are kept, in memory).
    pub stderr_log: Option<PathBuf>,
}

/// One engine output line (with the time it was read), or the news that a line was too long (the reader stops there).
enum Output {
    /// A line, and when the reader thread read it.
    Line(String, Instant),
    TooLong,
}

/// The last lines an engine wrote to stderr, and whether its stderr is closed.
#[derive(Default)]
struct StderrTail {
    lines: Mutex<(VecDeque<String>, bool)>,
    closed: Condvar,
}

impl StderrTail {
    /// The last lines, once stderr is closed or `STDERR_GRACE` has passed.
    fn last_lines(&self) -> Vec<String> {
        let guard = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .closed
            .wait_timeout_while(guard, STDERR_GRACE, |(_, closed)| !*closed)
            .unwrap_or_else(|e| e.into_inner());
        guard.0.iter().cloned().collect()
    }
}

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    stderr: Arc<StderrTail>,
    /// From `id name=...`, or the command line.
    pub name: String,
}

/// The value of `key=` in a Hub line, read as the engine reads its input.
pub fn field(line: &str, key: &str) -> Option<String> {
    tokenize(line).ok()??.arg(key).map(str::to_string)
}

/// Copy the engine's stderr to `log` (if any), keeping the last lines in `tail`.
fn keep_stderr(stderr: impl Read, mut log: Option<std::fs::File>, tail: &StderrTail) {
    let mut input = BufReader::new(stderr);
    let mut line = Vec::new();
    while let Ok(Some(_)) = read_line_capped(&mut input, &mut line, MAX_LINE) {
        if let Some(f) = log.as_mut() {
            line.push(b'\n');
            if f.write_all(&line).is_err() {
                log = None;
            }
            line.pop();
        }
        let text = shorten(String::from_utf8_lossy(&line).trim_end(), STDERR_TAIL_CHARS);
        let mut guard = tail.lines.lock().unwrap_or_else(|e| e.into_inner());
        if guard.0.len() == STDERR_TAIL_LINES {
            guard.0.pop_front();
        }
        guard.0.push_back(text);
    }
    tail.lines.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
    tail.closed.notify_all();
}

fn open_log(path: &Path, command: &str) -> Result<std::fs::File, EngineError> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| EngineError::Spawn(format!("cannot write {}: {e}", path.display())))?;
    let _ = writeln!(f, "== poolshark match: starting {command}");
    Ok(f)
}

impl EngineProcess {
    /// Start the engine and complete the start-up (`hub` ... `wait`, params, `init` ...
    /// `ready`). Each parameter is followed by a `ping`, and an `error` before the `pong`
    /// fails the start-up with `Rejected`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let log = match &spec.stderr_log {
            Some(path) => Some(open_log(path, &spec.command)?),
            None => None,
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", spec.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipes to the engine".into()));
        };
        let tail = Arc::new(StderrTail::default());
        let tail_writer = Arc::clone(&tail);
        std::thread::spawn(move || keep_stderr(stderr, log, &tail_writer));
        let (tx, rx) = sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            let mut line = Vec::new();
            while let Ok(Some(length)) = read_line_capped(&mut input, &mut line, MAX_LINE) {
                let out = if length > MAX_LINE {
                    Output::TooLong
                } else {
                    Output::Line(String::from_utf8_lossy(&line).into_owned(), Instant::now())
                };
                let stop = matches!(out, Output::TooLong);
                if tx.send(out).is_err() || stop {
                    break;
                }
            }
        });
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr: tail,
            name: spec.command.clone(),
        };
        e.send("hub")?;
        let deadline = Instant::now() + timeout;
        loop {
            let l = e.recv(deadline, "start-up")?;
            match command_name(&l) {
                "id" => {
                    if let Some(n) = field(&l, "name") {
                        e.name = n;
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        for (k, v) in &spec.params {
            e.send(&format!("set-param name={} value={}", quote(k), quote(v)))?;
            let errors = e.sync(deadline, "pong after set-param")?;
            if let Some(message) = errors.into_iter().next() {
                return Err(EngineError::Rejected {
                    param: format!("{k}={v}"),
                    message,
                });
            }
        }
        e.send("init")?;
        loop {
            if e.recv(deadline, "ready")?.trim() == "ready" {
                break;
            }
        }
        Ok(e)
    }

    /// Send `ping` and wait for `pong`; returns the messages of the `error` lines before it.
    fn sync(&mut self, deadline: Instant, what: &'static str) -> Result<Vec<String>, EngineError> {
        self.send("ping")?;
        let mut errors = Vec::new();
        loop {
            let l = self.recv(deadline, what)?;
            match command_name(&l) {
                "pong" => return Ok(errors),
                "error" => errors.push(field(&l, "message").unwrap_or(l)),
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.died());
        }
        Ok(())
    }

    fn recv(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        self.recv_timed(deadline, what).map(|(line, _)| line)
    }

    /// The next line and when the reader thread read it, waiting until `deadline`. The time
    /// is the reader's, so a runner thread that waits for a core before it wakes does not
    /// charge that wait to the engine's clock.
    fn recv_timed(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<(String, Instant), EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Output::Line(l, at)) => Ok((l, at)),
            Ok(Output::TooLong) => Err(EngineError::LineTooLong),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(what)),
            Err(RecvTimeoutError::Disconnected) => Err(self.died()),
        }
    }

    /// `Died`, with the exit status (if it has exited) and the last stderr lines.
    fn died(&mut self) -> EngineError {
        let lines = self.stderr.last_lines();
        let mut parts = Vec::new();
        if let Some(status) = self.exit_status() {
            parts.push(status.to_string());
        }
        if !lines.is_empty() {
            parts.push(format!("its stderr ends: {}", lines.join(" | ")));
        }
        EngineError::Died(parts.join("; "))
    }

    /// The exit status, waiting up to `STDERR_GRACE` for it: an engine's pipes close while
    /// it exits, a moment before the system reports it exited, and under load that moment
    /// is long enough to lose the status.
    fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + STDERR_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }

    /// Start a new game: `new-game`, then `ping` until `pong` or `timeout`, so that the time
    /// an engine takes to clear its tables is never charged to its clock.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("new-game")?;
        self.sync(Instant::now() + timeout, "pong after new-game")
            .map(|_| ())
    }

    /// Ask for a move: `pos`, `level`, `go think`, then wait for `done` until `timeout`.
    /// Returns the move text and the time from `go` to `done`. A `done` without a move is
    /// `SearchFailed`, with the last `error` before it (the referee asks only in positions
    /// with a legal move).
    pub fn think(
        &mut self,
        hub_pos: &str,
        moves: &str,
        level: &str,
        timeout: Duration,
    ) -> Result<(String, Duration), EngineError> {
        self.send(&format!("pos pos={hub_pos} moves={}", quote(moves)))?;
        self.send(&format!("level {level}"))?;
        let start = Instant::now();
        self.send("go think")?;
        let deadline = start + timeout;
        let mut error = None;
        loop {
            let (l, at) = self.recv_timed(deadline, "move")?;
            match command_name(&l) {
                "done" => {
                    let elapsed = at.saturating_duration_since(start);
                    return match field(&l, "move") {
                        Some(m) if !m.is_empty() => Ok((m, elapsed)),
                        _ => Err(EngineError::SearchFailed(error)),
                    };
                }
                "error" => error = Some(field(&l, "message").unwrap_or(l)),
                _ => {}
            }
        }
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ask it to quit, then make sure it is gone.
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.alive() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_as_the_engine_reads_them() {
        assert_eq!(
            field("done move=11-15 ponder=23-19", "move").as_deref(),
            Some("11-15")
        );
        assert_eq!(
            field("done move=11-15 ponder=23-19", "ponder").as_deref(),
            Some("23-19")
        );
        assert_eq!(
            field("id name=\"pool shark\" version=1", "name").as_deref(),
            Some("pool shark")
        );
        assert_eq!(field("id xname=a name=b", "name").as_deref(), Some("b"));
        assert_eq!(field("done", "move"), None);
        // Spaces around `=` are allowed by the protocol, and the engine accepts them.
        assert_eq!(field("done move = 11-15", "move").as_deref(), Some("11-15"));
        assert_eq!(
            field("info pv=\"a move=9-14\" depth=3", "move").as_deref(),
            None
        );
    }
}
