//! The docs kept true: every module under `src/` and each crate's `crates/*/src/` is in `docs/DEVELOPMENT.md`'s map, every Hub
//! command and parameter in `docs/PROTOCOL.md`, every command and option in
//! `docs/COMMANDS.md`'s synopsis, each checked both ways against the code, so that a module,
//! command or option added, renamed or removed without its doc fails here, naming it.

mod support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every token written between backticks in `text`.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// What `left` has that `right` lacks, and the other way round, as a message; empty when the
/// two sets are equal.
fn difference(what: &str, code: &BTreeSet<String>, doc: &BTreeSet<String>, file: &str) -> String {
    let missing: Vec<_> = code.difference(doc).cloned().collect();
    let extra: Vec<_> = doc.difference(code).cloned().collect();
    let mut out = String::new();
    if !missing.is_empty() {
        out += &format!(
            "{file} does not name these {what}: {}\n",
            missing.join(", ")
        );
    }
    if !extra.is_empty() {
        out += &format!(
            "{file} names {what} that the code lacks: {}\n",
            extra.join(", ")
        );
    }
    out
}

/// The module map's names for the source tree: `src/a/b.rs` for a file module, `src/a/` for a
/// folder module (its `mod.rs`), and `src/main.rs`, `src/lib.rs`.
fn source_modules(dir: &Path, out: &mut BTreeSet<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let rel = path
            .strip_prefix(repo())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if path.join("mod.rs").exists() {
                out.insert(format!("{rel}/"));
            }
            source_modules(&path, out);
        } else if rel.ends_with(".rs") && !rel.ends_with("/mod.rs") {
            out.insert(rel);
        }
    }
}

#[test]
fn the_module_map_names_every_module_and_no_other() {
    let mut code = BTreeSet::new();
    source_modules(&repo().join("src"), &mut code);
    for krate in fs::read_dir(repo().join("crates")).unwrap() {
        source_modules(&krate.unwrap().path().join("src"), &mut code);
    }
    assert!(code.len() > 50, "the source tree was not found: {code:?}");
    let doc_text = read("docs/DEVELOPMENT.md");
    let doc: BTreeSet<String> = backticked(&doc_text)
        .into_iter()
        .filter(|t| {
            (t.starts_with("src/") && *t != "src/")
                || (t.starts_with("crates/") && t.contains("/src/") && !t.contains('*'))
        })
        .filter(|t| t.ends_with(".rs") || t.ends_with('/'))
        .map(str::to_string)
        .collect();
    let diff = difference("modules", &code, &doc, "docs/DEVELOPMENT.md");
    assert!(diff.is_empty(), "{diff}");
}

/// The command words the Hub's parser knows: each `"word" => ...` arm of the match on the
/// command name in `src/hub/command.rs` (`parse`).
fn hub_commands() -> BTreeSet<String> {
    let src = read("src/hub/command.rs");
    let mut out = BTreeSet::new();
    for line in src.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix('"') {
            if let Some((word, tail)) = rest.split_once('"') {
                if tail.trim_start().starts_with("=> ") {
                    out.insert(word.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn the_protocol_doc_names_every_hub_command_and_parameter() {
    let doc = read("docs/PROTOCOL.md");
    let mut problems = String::new();

    // Commands: each the code parses is sent in an example (`> word ...`) or listed in a
    // table; each the examples send is one the code parses.
    let code = hub_commands();
    assert!(
        code.len() >= 8,
        "no command arms found in src/hub/command.rs: {code:?}"
    );
    let sent: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    let tabled: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    for c in &code {
        if !sent.contains(c) && !tabled.contains(c) {
            problems += &format!("docs/PROTOCOL.md never shows the Hub command `{c}`\n");
        }
    }
    for c in &sent {
        if !code.contains(c) {
            problems += &format!("docs/PROTOCOL.md sends `{c}`, which the Hub does not parse\n");
        }
    }

    // Parameters: the handshake shown is the one the code declares, name for name, and the
    // parameter table has one row for each.
    let code: BTreeSet<String> = poolshark::hub::params::Param::ALL
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    let shown: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("< param name="))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    problems += &difference(
        "parameters in the handshake",
        &code,
        &shown,
        "docs/PROTOCOL.md",
    );
    let header = doc
        .find("| parameter | type | meaning |")
        .expect("docs/PROTOCOL.md has the parameter table");
    let table_params: BTreeSet<String> = doc[header..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    problems += &difference(
        "parameters in the parameter table",
        &code,
        &table_params,
        "docs/PROTOCOL.md",
    );
    assert!(problems.is_empty(), "{problems}");
}

/// The subcommands a `--help` text lists under `Commands:` (less `help`).
fn subcommands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            // A command's line is indented by two; a wrapped description by more.
            let t = &line[2..];
            if t.starts_with(' ') {
                continue;
            }
            if let Some(name) = t.split_whitespace().next() {
                if name != "help" {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// The long options a `--help` text lists (less `--help` and `--version`).
fn long_options(help: &str) -> BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter_map(|l| {
            // `-s, --long <V>` or `--long <V>`.
            let at = l.find("--")?;
            if at > 4 {
                return None;
            }
            let name: String = l[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            Some(name)
        })
        .filter(|n| n.len() > 2 && n != "--help" && n != "--version")
        .collect()
}

fn help_of(command: &[&str]) -> String {
    let mut args: Vec<&str> = command.to_vec();
    args.push("--help");
    let (code, out, err) = support::run_cli(&args);
    assert_eq!(code, 0, "poolshark {} --help: {err}", command.join(" "));
    out
}

/// The synopsis block of docs/COMMANDS.md, as each command's text: the lines from its
/// `poolshark CMD [SUB]` line up to the next command's.
fn synopsis() -> Vec<(String, String)> {
    let doc = read("docs/COMMANDS.md");
    let start = doc
        .find("## Synopsis")
        .expect("docs/COMMANDS.md has a Synopsis");
    let block = &doc[start..];
    let open = block.find("```").expect("the synopsis is a code block") + 3;
    let close = open + block[open..].find("```").expect("the code block ends");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block[open..close].lines() {
        if let Some(rest) = line.strip_prefix("poolshark ") {
            let words: Vec<&str> = rest
                .split_whitespace()
                .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                .take(2)
                .collect();
            out.push((words.join(" "), line.to_string()));
        } else if let Some(last) = out.last_mut() {
            last.1.push('\n');
            last.1.push_str(line);
        }
    }
    out
}

#[test]
fn the_commands_doc_has_every_command_and_option_and_no_other() {
    let doc = synopsis();
    let mut problems = String::new();
    let top = help_of(&[]);
    let mut commands: Vec<Vec<String>> = Vec::new();
    for c in subcommands(&top) {
        let subs = subcommands(&help_of(&[&c]));
        if subs.is_empty() {
            commands.push(vec![c]);
        } else {
            for s in subs {
                commands.push(vec![c.clone(), s]);
            }
        }
    }
    assert!(commands.len() > 10, "no commands found in:\n{top}");
    for command in &commands {
        let name = command.join(" ");
        // `hub` is the protocol, docs/PROTOCOL.md's (its options are the Hub parameters).
        if name == "hub" {
            continue;
        }
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let code = long_options(&help_of(&args));
        // A synopsis entry is `poolshark CMD` followed by its first word when that is a
        // subcommand, so match on the command's own words.
        let texts: Vec<&str> = doc
            .iter()
            .filter(|(words, _)| {
                let w: Vec<&str> = words.split(' ').collect();
                w.len() >= command.len() && w[..command.len()] == args[..]
            })
            .map(|(_, text)| text.as_str())
            .collect();
        if texts.is_empty() {
            problems += &format!("docs/COMMANDS.md's synopsis lacks `poolshark {name}`\n");
            continue;
        }
        let joined = texts.join("\n");
        let documented: BTreeSet<String> = long_options_in_text(&joined);
        problems += &difference(
            &format!("options of `{name}`"),
            &code,
            &documented,
            "docs/COMMANDS.md",
        );
    }
    for (words, _) in &doc {
        let first = words.split(' ').next().unwrap_or_default();
        if !commands.iter().any(|c| c[0] == first) {
            problems +=
                &format!("docs/COMMANDS.md shows `poolshark {words}`, which is no command\n");
        }
    }
    assert!(problems.is_empty(), "{problems}");
}

/// Every `--option` written in a piece of synopsis (comments included).
fn long_options_in_text(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let name: String = rest[at..]
            .chars()
            .skip(2)
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() {
            out.insert(format!("--{name}"));
        }
        rest = &rest[at + 2 + name.len()..];
    }
    out.remove("--help");
    out
}

/// `n` with a comma between thousands, as the docs write counts.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// docs/LEVELS.md shows the levels' settings as the code has them (`search::level::TABLE`),
/// one row per level, so that a level retuned without its doc fails here.
#[test]
fn the_levels_doc_shows_the_level_table() {
    use poolshark_engine::search::level::TABLE;
    let doc = read("docs/LEVELS.md");
    let rows: Vec<String> = doc
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && l.split('|')
                    .nth(1)
                    .is_some_and(|c| c.trim().parse::<u8>().is_ok())
        })
        .map(|l| l.split('|').take(7).collect::<Vec<_>>().join("|") + "|")
        .collect();
    let code: Vec<String> = TABLE
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "| {} | {} | {} | {:.2} | {:.2} | {:.1}% |",
                i + 1,
                thousands(s.nodes),
                s.candidates,
                f64::from(s.margin) / 100.0,
                s.temperature / 100.0,
                f64::from(s.oversight) / 10.0
            )
        })
        .collect();
    assert_eq!(
        rows, code,
        "docs/LEVELS.md's level table differs from search::level::TABLE"
    );
}

/// The commit names written between backticks in `text`: 7 to 40 hex digits with at least one
/// letter and one digit (so that a backticked node count is not taken for one).
fn commit_names(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices('`') {
        let run = b[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
            .count();
        let word = &text[i + 1..i + 1 + run];
        let closed = b.get(i + 1 + run) == Some(&b'`');
        let mixed = word.bytes().any(|c| c.is_ascii_digit()) && word.bytes().any(|c| c > b'9');
        if closed && (7..=40).contains(&run) && mixed {
            out.insert(word.to_string());
        }
    }
    out
}

#[test]
fn commit_names_are_backticked_hex_words_with_letters_and_digits() {
    let long = "a1".repeat(21);
    let text = format!(
        "built on `29a2461`, bench `3105839`, `deadbeefcafe`, `88f87cd x`, `{long}`, `f00d1e` \
         and `0375650`, `1e7435a"
    );
    let names: Vec<_> = commit_names(&text).into_iter().collect();
    assert_eq!(names, ["29a2461"]);
}

/// Every commit the docs name (the commit to start a tried-and-lost idea from, the build a
/// figure was measured on) is in the repository's history: a branch that was never merged is
/// not kept from one checkout to the next, so a doc must name a commit on main (or keep the
/// change as a patch in the repository).
#[test]
fn every_commit_the_docs_name_is_in_the_history() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(repo())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--is-shallow-repository"]).as_deref() {
        Some("false") => {}
        Some(_) => {
            eprintln!("SKIPPED: a shallow clone has only part of the history");
            return;
        }
        None => {
            eprintln!("SKIPPED: not a git checkout, or no git");
            return;
        }
    }
    let files = git(&["ls-files", "*.md"]).expect("git ls-files");
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in files.lines() {
        for name in commit_names(&read(file)) {
            checked += 1;
            let object = format!("{name}^{{commit}}");
            if git(&["rev-parse", "--verify", "--quiet", &object]).is_none() {
                missing.push(format!("{file}: `{name}`"));
            }
        }
    }
    assert!(checked > 0, "no commit names found in the docs");
    assert!(
        missing.is_empty(),
        "commits the docs name that are not in this repository:\n{}",
        missing.join("\n")
    );
}
