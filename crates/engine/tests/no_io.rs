//! The engine crate does no I/O (issue 67): its production code names no file system,
//! environment, process, socket, `/proc`, progress bar or print. The host (crates/host, the
//! browser's crates/wasm) reads and writes, and hands the engine bytes, a loader or an
//! argument. Test modules (`#[cfg(test)]`) may do what they like.

use std::path::{Path, PathBuf};

/// What production code must not name, and why each is refused.
const FORBIDDEN: &[(&str, &str)] = &[
    ("std::fs", "the file system"),
    ("std::env", "the environment"),
    ("std::process", "processes"),
    ("std::net", "sockets"),
    ("/proc", "/proc"),
    ("indicatif", "progress bars"),
    ("println!", "printing"),
    ("eprintln!", "printing"),
    ("print!", "printing"),
    ("eprint!", "printing"),
];

/// `text` without its comments, and with every string and character literal emptied, so
/// that neither a brace nor a word inside them counts. Line breaks are kept.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && raw_start(b, i + 1) {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                if b[j] == b'\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j + close.len();
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if b.get(i) == Some(&b'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == b'\'' && char_literal_len(&b[i..]).is_some() {
            out.push_str("' '");
            i += char_literal_len(&b[i..]).unwrap_or(1);
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Whether `b[at..]` (after an `r`) opens a raw string: hashes, then a quote.
fn raw_start(b: &[u8], at: usize) -> bool {
    let mut j = at;
    while b.get(j) == Some(&b'#') {
        j += 1;
    }
    b.get(j) == Some(&b'"')
}

/// The length of the character literal `b` starts with ('x', '\n', '\''), or None for a
/// lifetime.
fn char_literal_len(b: &[u8]) -> Option<usize> {
    if b.get(1) == Some(&b'\\') {
        let end = b[2..].iter().position(|&c| c == b'\'')?;
        return Some(end + 3);
    }
    let s = std::str::from_utf8(&b[1..b.len().min(6)])
        .ok()
        .or_else(|| {
            // A cut through a multi-byte character: shorten until it is whole.
            (2..6)
                .rev()
                .find_map(|n| std::str::from_utf8(&b[1..b.len().min(n)]).ok())
        })?;
    let ch = s.chars().next()?;
    let n = ch.len_utf8();
    (b.get(1 + n) == Some(&b'\'')).then_some(n + 2)
}

/// The production code of a source file: its code (`code_only`) less each item under
/// `#[cfg(test)]` (a module or a function, to its closing brace; or one line ending in `;`),
/// left as blank lines so that the others keep their numbers.
fn production(text: &str) -> String {
    let code = code_only(text);
    let mut out = String::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        out.push('\n');
        let mut depth = 0i64;
        let mut opened = false;
        for item in lines.by_ref() {
            out.push('\n');
            for c in item.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth <= 0) || (!opened && item.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

/// Each forbidden name in `text`'s production code: (line, name, why).
fn violations(text: &str) -> Vec<(usize, &'static str, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in production(text).lines().enumerate() {
        for &(name, why) in FORBIDDEN {
            let hit = line.match_indices(name).any(|(at, _)| {
                // `print!` inside `println!` or `eprint!` is that name, not this one.
                let before = line[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if hit {
                found.push((n + 1, name, why));
            }
        }
        // `use std::{env, fs}` names them without the full path.
        if let Some(group) = line.split("std::{").nth(1) {
            for word in ["fs", "env", "process", "net"] {
                if group
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == word)
                {
                    found.push((n + 1, "std::{..}", "a module of std that does I/O"));
                }
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the engine's sources") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_crate_does_no_io() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 50,
        "{} sources under {}",
        files.len(),
        src.display()
    );
    let mut bad = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, name, why) in violations(&text) {
            bad.push(format!("{}:{line}: {name} ({why})", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "the engine crate's production code does I/O; move it to the host (crates/host):\n{}",
        bad.join("\n")
    );
}

/// The scan finds what it looks for, and skips comments, strings and test modules.
#[test]
fn the_scan_sees_io_and_skips_tests_comments_and_strings() {
    let text = r#"
use std::fs::File; // a file
// std::env in a comment
fn f() { let s = "std::process and /proc in a string"; let c = '{'; }
fn g() { println!("x"); }
use std::{collections::HashMap, env};
#[cfg(test)]
mod tests {
    fn h() { std::net::TcpStream::connect("x"); let c = '}'; }
}
fn after() { eprintln!("y"); print!("z"); }
#[cfg(test)]
use std::process::Command;
"#;
    let found: Vec<(usize, &str)> = violations(text)
        .into_iter()
        .map(|(line, name, _)| (line, name))
        .collect();
    assert_eq!(
        found,
        [
            (2, "std::fs"),
            (5, "println!"),
            (6, "std::{..}"),
            (11, "eprintln!"),
            (11, "print!"),
        ]
    );
}
