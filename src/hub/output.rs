//! Protocol output: every line goes to stdout under one lock and is flushed at once, so the
//! loop's answers and the search thread's `info`/`done` lines never interleave.

use crate::hub::command::quote;
use std::fmt::Display;
use std::io::Write;

/// Write one protocol line. A client that has gone (a closed pipe) is not an error here: the
/// end of its input will follow and end the loop.
pub fn line(text: &str) {
    let mut buf = String::with_capacity(text.len() + 1);
    buf.push_str(text);
    buf.push('\n');
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = out.write_all(buf.as_bytes());
    let _ = out.flush();
}

/// Write `error message="..."`; the message is made safe for a Hub value.
pub fn error(message: &dyn Display) {
    let text = quote(&message.to_string());
    log::debug!("error: {text}");
    line(&format!("error message={text}"));
}
