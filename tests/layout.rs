//! The source tree's shape kept: no Rust file under `src/` or `crates/` holds more than
//! `MAX_LINES` lines before its tests module, comments and blank lines counted (issue 67,
//! item 7), so that each file stays one idea a reader can hold. A file that grows past it is
//! split along its parts, each a module with one owner.

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a source file may hold before its `#[cfg(test)] mod tests`.
const MAX_LINES: usize = 800;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, build outputs (`target/`) and hidden folders left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` before its tests module (a top-level `#[cfg(test)]` line with a
/// `mod` on the next), or all of them when it has none.
fn lines_before_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .position(|w| w[0].trim_end() == "#[cfg(test)]" && w[1].starts_with("mod "))
        .unwrap_or(lines.len())
}

#[test]
fn lines_before_tests_counts_up_to_the_tests_module() {
    let code = "//! A module.\n\nfn a() {}\n// a comment\n";
    assert_eq!(lines_before_tests(code), 4);
    assert_eq!(
        lines_before_tests(&format!("{code}#[cfg(test)]\nmod tests {{\n}}\n")),
        4
    );
    // Test-only code that is not the tests module counts, and so does a module nested in
    // another.
    let helper = format!("{code}#[cfg(test)]\nfn helper() {{}}\n");
    assert_eq!(lines_before_tests(&helper), 6);
    let nested = format!("{code}mod a {{\n    #[cfg(test)]\n    mod tests {{}}\n}}\n");
    assert_eq!(lines_before_tests(&nested), 8);
}

#[test]
fn no_source_file_is_over_the_line_limit_before_its_tests() {
    let mut files = Vec::new();
    rust_files(&repo().join("src"), &mut files);
    rust_files(&repo().join("crates"), &mut files);
    assert!(
        files.len() > 100,
        "the source tree was not found: {files:?}"
    );
    let mut over: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let n = lines_before_tests(&text);
            let rel = path.strip_prefix(repo()).unwrap().display();
            (n > MAX_LINES).then(|| format!("{rel}: {n} lines"))
        })
        .collect();
    over.sort();
    assert!(
        over.is_empty(),
        "over {MAX_LINES} lines before the tests module (split them along their parts):\n{}",
        over.join("\n")
    );
}
