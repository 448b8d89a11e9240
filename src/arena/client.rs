//! The Hub client side: start an engine process, hand-shake, and ask it for moves, with a
//! time-out on every answer so a silent engine cannot hang a match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// It closed its output or exited.
    Died,
    /// It did not answer in time.
    Timeout(&'static str),
    /// It answered something that is not a move.
    BadReply(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Died => write!(f, "the engine exited"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::BadReply(l) => write!(f, "bad reply '{l}'"),
        }
    }
}

/// How to start one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// A shell command line.
    pub command: String,
    /// `set-param` name/value pairs sent before `init`.
    pub params: Vec<(String, String)>,
}

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// From `id name=...`, or the command line.
    pub name: String,
}

/// The value of `key=` in a Hub line (bare or quoted), if present.
pub fn field(line: &str, key: &str) -> Option<String> {
    let pat = format!("{key}=");
    let mut rest = line;
    while let Some(i) = rest.find(&pat) {
        let before_ok = i == 0 || rest[..i].ends_with(' ');
        let after = &rest[i + pat.len()..];
        if before_ok {
            return Some(if let Some(q) = after.strip_prefix('"') {
                q.split('"').next().unwrap_or("").to_string()
            } else {
                after.split_whitespace().next().unwrap_or("").to_string()
            });
        }
        rest = after;
    }
    None
}

impl EngineProcess {
    /// Start the engine and complete the start-up (`hub` ... `wait`, params, `init` ... `ready`).
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", spec.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or(EngineError::Spawn("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or(EngineError::Spawn("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            name: spec.command.clone(),
        };
        e.send("hub")?;
        let deadline = Instant::now() + timeout;
        loop {
            let l = e.recv(deadline, "start-up")?;
            if l.starts_with("id ") {
                if let Some(n) = field(&l, "name") {
                    e.name = n;
                }
            } else if l.trim() == "wait" {
                break;
            }
        }
        for (k, v) in &spec.params {
            e.send(&format!("set-param name={k} value={}", quote(v)))?;
        }
        e.send("init")?;
        loop {
            if e.recv(deadline, "ready")?.trim() == "ready" {
                break;
            }
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Died)
    }

    fn recv(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(what)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Died),
        }
    }

    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("new-game")
    }

    /// Ask for a move: `pos`, `level`, `go think`, then wait for `done` until `timeout`.
    /// Returns the move text and the time from `go` to `done`.
    pub fn think(
        &mut self,
        hub_pos: &str,
        moves: &str,
        level: &str,
        timeout: Duration,
    ) -> Result<(String, Duration), EngineError> {
        self.send(&format!("pos pos={hub_pos} moves=\"{moves}\""))?;
        self.send(&format!("level {level}"))?;
        let start = Instant::now();
        self.send("go think")?;
        let deadline = start + timeout;
        loop {
            let l = self.recv(deadline, "move")?;
            if l.starts_with("done") {
                let elapsed = start.elapsed();
                return match field(&l, "move") {
                    Some(m) if !m.is_empty() => Ok((m, elapsed)),
                    _ => Err(EngineError::BadReply(l)),
                };
            }
        }
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ask it to quit, then make sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
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

fn quote(v: &str) -> String {
    if v.is_empty() || v.contains([' ', '=']) {
        format!("\"{v}\"")
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
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
    }
}
