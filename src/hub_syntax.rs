//! The Hub line syntax (docs/PROTOCOL.md): `tokenize` splits a line into its command name
//! and `key[=value]` pairs, and `quote` writes a value so that `tokenize` reads it back.
//!
//! It sits below both sides of the protocol: the engine (`hub::command`) reads its input
//! with it and the match runner (`arena::client`) reads its engines' output with it, so
//! the two can never disagree on a line. It knows no commands and keeps no state.

use std::fmt;

/// A line that does not follow the `command key=value ...` grammar, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError(pub String);

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A tokenized line: the command name, then each key with its value (None for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub name: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of the last `key=value`, if any (`None` also for a bare flag).
    pub fn arg(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(|v| v.as_deref())
    }

    /// The last occurrence of `key`, if any: `Some(None)` for a bare flag.
    pub fn get(&self, key: &str) -> Option<&Option<String>> {
        self.args
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

/// User text shown inside an error message: short, one line, no double quotes.
pub fn shown(text: &str) -> String {
    const MAX: usize = 40;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            out.push_str("...");
            break;
        }
        match c {
            '"' => out.push('\''),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// A value written for a Hub line, the inverse of `tokenize`: bare when it is a plain word,
/// in double quotes when it is empty or holds a space or `=`. A value cannot hold `"` or a
/// line end, so those (and other control characters) become `'`.
pub fn quote(value: &str) -> String {
    let clean: String = value
        .chars()
        .map(|c| if c == '"' || c.is_control() { '\'' } else { c })
        .collect();
    if clean.is_empty() || !clean.chars().all(is_word) {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

fn is_word(c: char) -> bool {
    !is_space(c) && c != '=' && c != '"'
}

/// The command name of a line, as `tokenize` reads it, even when the rest of the line does
/// not tokenize (empty for a blank line or one that starts with `=` or `"`).
pub fn command_name(line: &str) -> &str {
    let rest = line.trim_start_matches(is_space);
    let end = rest.find(|c| !is_word(c)).unwrap_or(rest.len());
    &rest[..end]
}

/// Split a line into its command name and `key[=value]` pairs. A value is a bare word (no
/// space, `=` or `"`) or a double-quoted string with no `"` inside; spaces may stand around
/// `=`. A blank line gives `None`.
pub fn tokenize(line: &str) -> Result<Option<Line>, SyntaxError> {
    let line = line.trim_start_matches(is_space);
    let Some(first) = line.chars().next() else {
        return Ok(None);
    };
    let name = command_name(line);
    if name.is_empty() {
        return Err(SyntaxError(format!(
            "a line starts with a command name, not '{first}'"
        )));
    }
    let chars: Vec<char> = line[name.len()..].chars().collect();
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < chars.len() && is_space(chars[*i]) {
            *i += 1;
        }
    };
    let word = |i: &mut usize| -> String {
        let start = *i;
        while *i < chars.len() && is_word(chars[*i]) {
            *i += 1;
        }
        chars[start..*i].iter().collect()
    };
    let mut args = Vec::new();
    loop {
        skip_space(&mut i);
        if i == chars.len() {
            break;
        }
        match chars[i] {
            '=' => return Err(SyntaxError("'=' without a key before it".into())),
            '"' => {
                return Err(SyntaxError(
                    "a quoted value without a key (write key=\"...\")".into(),
                ))
            }
            _ => {}
        }
        let key = word(&mut i);
        skip_space(&mut i);
        if i == chars.len() || chars[i] != '=' {
            args.push((key, None));
            continue;
        }
        i += 1;
        skip_space(&mut i);
        if i == chars.len() {
            return Err(SyntaxError(format!(
                "{}= has no value (write {}=\"\" for an empty one)",
                shown(&key),
                shown(&key)
            )));
        }
        let value = match chars[i] {
            '"' => {
                let close = chars[i + 1..].iter().position(|&c| c == '"');
                let Some(len) = close else {
                    return Err(SyntaxError(format!(
                        "the quoted value of {} has no closing double quote",
                        shown(&key)
                    )));
                };
                let v: String = chars[i + 1..i + 1 + len].iter().collect();
                i += len + 2;
                if i < chars.len() && !is_space(chars[i]) {
                    return Err(SyntaxError(format!(
                        "a space must follow the quoted value of {}",
                        shown(&key)
                    )));
                }
                v
            }
            '=' => {
                return Err(SyntaxError(format!(
                    "{}= is followed by another '='",
                    shown(&key)
                )))
            }
            _ => word(&mut i),
        };
        args.push((key, Some(value)));
    }
    Ok(Some(Line {
        name: name.to_string(),
        args,
    }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn args(line: &str) -> Vec<(String, Option<String>)> {
        tokenize(line).unwrap().unwrap().args
    }
    fn kv(k: &str, v: &str) -> (String, Option<String>) {
        (k.to_string(), Some(v.to_string()))
    }

    #[test]
    fn bare_and_quoted_values_and_flags() {
        assert_eq!(
            args(r#"pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="11-15 23-19""#),
            vec![
                kv("pos", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"),
                kv("moves", "11-15 23-19")
            ]
        );
        assert_eq!(
            args("go think"),
            vec![("think".to_string(), None::<String>)]
        );
        assert_eq!(
            args(r#"x a="" b="k=v w""#),
            vec![kv("a", ""), kv("b", "k=v w")]
        );
        let line = tokenize("done move=11-15 ponder").unwrap().unwrap();
        assert_eq!(line.name, "done");
        assert_eq!(line.arg("move"), Some("11-15"));
        assert_eq!(line.get("ponder"), Some(&None));
        assert_eq!(line.arg("ponder"), None);
    }

    #[test]
    fn spaces_around_equals_and_blank_lines() {
        assert_eq!(
            args("set-param  name = threads\tvalue= 2 \r"),
            vec![kv("name", "threads"), kv("value", "2")]
        );
        assert_eq!(args(r#"x k = "a b""#), vec![kv("k", "a b")]);
        assert_eq!(tokenize("   ").unwrap(), None);
        assert_eq!(tokenize("").unwrap(), None);
        assert_eq!(tokenize("  \tping").unwrap().unwrap().name, "ping");
    }

    /// Lines whose syntax is wrong; `hub::command`'s tests check it reports each of them as
    /// a syntax error too.
    pub(crate) const MALFORMED: &[&str] = &[
        r#"pos moves="11-15"#,
        "level depth=",
        "level depth==3",
        "= x",
        r#""go""#,
        "go =think",
        r#"go "think""#,
        r#"pos fen="B:W21-32:B1-12"x"#,
    ];

    #[test]
    fn malformed_lines_are_errors() {
        for line in MALFORMED {
            assert!(tokenize(line).is_err(), "{line}");
        }
    }

    #[test]
    fn errors_read_well() {
        assert_eq!(
            tokenize(r#"pos moves="11-15"#).unwrap_err().to_string(),
            "the quoted value of moves has no closing double quote"
        );
        assert_eq!(
            tokenize("  =x").unwrap_err().to_string(),
            "a line starts with a command name, not '='"
        );
    }

    /// The name is read the same way whether or not the rest of the line tokenizes.
    #[test]
    fn command_names_are_the_tokenizers() {
        for line in [
            "done move=11-15",
            "  info depth=3 pv=\"9-14 22-18\"",
            "pong",
            "ready\r",
            "id name=\"pool shark\"",
        ] {
            assert_eq!(
                command_name(line),
                tokenize(line).unwrap().unwrap().name,
                "{line}"
            );
        }
        assert_eq!(command_name("done move=\"11-15"), "done");
        assert_eq!(command_name("done=x"), "done");
        assert_eq!(command_name("   "), "");
        assert_eq!(command_name("\"go\""), "");
    }

    #[test]
    fn quoted_values_read_back() {
        for v in ["", "a", "11-15 23-19", "k=v", "x\ty", "say \"hi\""] {
            let line = format!("set-param name=x value={}", quote(v));
            let back = tokenize(&line).unwrap().unwrap();
            let want = v.replace(['"', '\t'], "'");
            assert_eq!(back.arg("value"), Some(want.as_str()), "{line}");
        }
        assert_eq!(quote("11-15"), "11-15");
        assert_eq!(quote("egdb"), "egdb");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote(""), "\"\"");
    }

    #[test]
    fn shown_text_is_safe_in_quotes() {
        assert_eq!(shown("a\"b\n"), "a'b\\n");
        assert_eq!(shown(&"x".repeat(100)).len(), 43);
    }
}
