//! Where the CLI's text goes: every line for stdout goes through `outln!` (or `out!`), and
//! progress for stderr through `errln!`.
//!
//! A reader that stops early (`poolshark perft --depth 9 | head -1`) closes stdout; the next
//! write then fails with `BrokenPipe`, and the command ends quietly with status 0, as it
//! would had the reader wanted nothing more (`println!` panics instead). SIGPIPE itself stays
//! ignored, Rust's default: the match runner writes to its engines' pipes, where a dead
//! engine is a lost game to report, not a reason for the runner to die. Any other failure to
//! write stdout (a full disk) is an error with status 1. Progress on stderr is only
//! progress: what cannot be written there is dropped.
//!
//! An error quotes what the user gave (a path, a line of a file), which may hold control
//! characters: `escape_controls` writes them as escapes, so that an error is one line of
//! plain text and a file cannot send the terminal its escape sequences.

use std::fmt;
use std::io::{ErrorKind, Write};

/// Print to stdout, as `print!` does, through `write_stdout`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!($($arg)*))
    };
}

/// Print a line to stdout, as `println!` does, through `write_stdout`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Print a line to stderr, as `eprintln!` does, but never panic: see `write_stderr`.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::output::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Write to stdout; a closed stdout ends the process quietly (see the module notes).
pub fn write_stdout(args: fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        write_stderr(format_args!("error: cannot write to stdout: {e}\n"));
        std::process::exit(1);
    }
}

/// Write to stderr, dropping the text if stderr cannot take it (closed, full).
pub fn write_stderr(args: fmt::Arguments) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `text` with every control character (escape, line breaks, C1 codes...) written as a Rust
/// escape (`\u{1b}`, `\n`) and everything else as it was.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            escape_controls("key '\u{1b}[2J\u{1b}]0;x\u{7}' in caf\u{e9}\n\t\u{9b}"),
            "key '\\u{1b}[2J\\u{1b}]0;x\\u{7}' in caf\u{e9}\\n\\t\\u{9b}"
        );
        assert_eq!(escape_controls("plain: 'a b'"), "plain: 'a b'");
    }
}
