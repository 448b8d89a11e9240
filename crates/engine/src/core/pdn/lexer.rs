//! PDN text as tokens, line by line, each with the line and column where it starts: tags,
//! comments (which may run over several lines), parentheses, NAGs and words (move numbers,
//! moves with their marks, results), which `movetext` tells apart.
//!
//! Comments are `{...}`, or `;` to the end of the line; a line that starts with `%` is
//! skipped (PDN's escape). A tag value may hold `\"` and `\\`.

use super::error::{ErrorKind, Spot};

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Tag {
        name: String,
        value: String,
    },
    /// A comment's text, without its braces.
    Comment(String),
    Open,
    Close,
    /// `$N`.
    Nag(u8),
    /// A run of other characters up to white space or one of `{}()[];$`.
    Word(String),
}

/// A token and where it starts.
pub type Spotted = (Spot, Token);

/// A fault the lexer finds: where, and what.
pub type LexError = (Spot, ErrorKind);

/// The lexer's state between lines: the line count and an open comment.
#[derive(Default)]
pub struct Lexer {
    line: usize,
    /// An open brace comment: where it started and its text so far.
    comment: Option<(Spot, String)>,
    /// The current line's characters (kept to save an allocation a line).
    chars: Vec<char>,
}

fn ends_word(c: char) -> bool {
    c.is_whitespace() || "{}()[];$".contains(c)
}

impl Lexer {
    /// Lines read so far (the number of the last one).
    pub fn line_number(&self) -> usize {
        self.line
    }

    /// The tokens of the next line (without its line break), appended to `out`.
    pub fn line(&mut self, text: &str, out: &mut Vec<Spotted>) -> Result<(), LexError> {
        self.line += 1;
        let mut chars = std::mem::take(&mut self.chars);
        chars.clear();
        chars.extend(text.chars());
        let result = self.tokens(&chars, out);
        self.chars = chars;
        result
    }

    fn tokens(&mut self, chars: &[char], out: &mut Vec<Spotted>) -> Result<(), LexError> {
        let line = self.line;
        let spot = |i: usize| Spot {
            line,
            column: i + 1,
        };
        let mut i = 0;
        if let Some((_, body)) = self.comment.as_mut() {
            body.push('\n');
        } else if chars.first() == Some(&'%') {
            return Ok(());
        }
        while i < chars.len() {
            if let Some((start, mut body)) = self.comment.take() {
                match chars[i..].iter().position(|&c| c == '}') {
                    Some(k) => {
                        body.extend(&chars[i..i + k]);
                        out.push((start, Token::Comment(body)));
                        i += k + 1;
                    }
                    None => {
                        body.extend(&chars[i..]);
                        self.comment = Some((start, body));
                        return Ok(());
                    }
                }
                continue;
            }
            let c = chars[i];
            let at = spot(i);
            match c {
                _ if c.is_whitespace() => i += 1,
                '{' => {
                    self.comment = Some((at, String::new()));
                    i += 1;
                }
                '}' => return Err((at, syntax("'}' with no '{' before it"))),
                ';' => {
                    out.push((at, Token::Comment(chars[i + 1..].iter().collect())));
                    return Ok(());
                }
                '(' => {
                    out.push((at, Token::Open));
                    i += 1;
                }
                ')' => {
                    out.push((at, Token::Close));
                    i += 1;
                }
                '[' => {
                    let (token, next) = tag(chars, i).map_err(|e| (at, e))?;
                    out.push((at, token));
                    i = next;
                }
                ']' => return Err((at, syntax("']' with no '[' before it"))),
                '$' => {
                    let digits = chars[i + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .count();
                    let text: String = chars[i + 1..i + 1 + digits].iter().collect();
                    let nag = text.parse::<u8>().map_err(|_| {
                        let what = format!("'${text}' is not a NAG ($0 to $255)");
                        (at, ErrorKind::Syntax(what))
                    })?;
                    out.push((at, Token::Nag(nag)));
                    i += 1 + digits;
                }
                _ => {
                    let len = chars[i..].iter().take_while(|&&c| !ends_word(c)).count();
                    out.push((at, Token::Word(chars[i..i + len].iter().collect())));
                    i += len;
                }
            }
        }
        Ok(())
    }

    /// The text has ended: an error if a comment is still open.
    pub fn finish(&mut self) -> Result<(), LexError> {
        match self.comment.take() {
            Some((start, _)) => Err((start, ErrorKind::Unterminated("comment"))),
            None => Ok(()),
        }
    }
}

fn syntax(what: &str) -> ErrorKind {
    ErrorKind::Syntax(what.into())
}

/// A tag `[Name "value"]` starting at `chars[i]`: the token and the index after it.
fn tag(chars: &[char], i: usize) -> Result<(Token, usize), ErrorKind> {
    let close = |k: usize| ErrorKind::BadTag(chars[i..k.min(chars.len())].iter().collect());
    let mut k = i + 1;
    let name_start = k;
    while k < chars.len() && (chars[k].is_alphanumeric() || chars[k] == '_') {
        k += 1;
    }
    let name: String = chars[name_start..k].iter().collect();
    if name.is_empty() {
        return Err(close(k + 1));
    }
    while k < chars.len() && chars[k].is_whitespace() {
        k += 1;
    }
    if chars.get(k) != Some(&'"') {
        return Err(close(k + 1));
    }
    k += 1;
    let mut value = String::new();
    loop {
        match chars.get(k) {
            None => return Err(close(k)),
            Some('"') => break,
            Some('\\') if matches!(chars.get(k + 1), Some('"' | '\\')) => {
                value.push(chars[k + 1]);
                k += 2;
            }
            Some(&c) => {
                value.push(c);
                k += 1;
            }
        }
    }
    k += 1;
    while k < chars.len() && chars[k].is_whitespace() {
        k += 1;
    }
    if chars.get(k) != Some(&']') {
        return Err(close(k + 1));
    }
    Ok((Token::Tag { name, value }, k + 1))
}

/// A tag value as the writer puts it between its quotes.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(text: &str) -> Result<Vec<Spotted>, LexError> {
        let mut l = Lexer::default();
        let mut out = Vec::new();
        for line in text.lines() {
            l.line(line, &mut out)?;
        }
        l.finish()?;
        Ok(out)
    }

    fn at(line: usize, column: usize) -> Spot {
        Spot { line, column }
    }

    #[test]
    fn tokens_and_their_places() {
        let toks = lex("[Event \"a \\\"b\\\" \\\\\"]\n1. 11-15! {two\nlines} (1... 9-14 $14) ; rest\n% skipped\n1-0").unwrap();
        let word = |s: &str| Token::Word(s.into());
        assert_eq!(
            toks,
            vec![
                (
                    at(1, 1),
                    Token::Tag {
                        name: "Event".into(),
                        value: "a \"b\" \\".into()
                    }
                ),
                (at(2, 1), word("1.")),
                (at(2, 4), word("11-15!")),
                (at(2, 11), Token::Comment("two\nlines".into())),
                (at(3, 8), Token::Open),
                (at(3, 9), word("1...")),
                (at(3, 14), word("9-14")),
                (at(3, 19), Token::Nag(14)),
                (at(3, 22), Token::Close),
                (at(3, 24), Token::Comment(" rest".into())),
                (at(5, 1), word("1-0")),
            ]
        );
        assert_eq!(escape("a \"b\" \\"), "a \\\"b\\\" \\\\");
    }

    #[test]
    fn errors_say_where() {
        let e = |t: &str| {
            let (at, kind) = lex(t).unwrap_err();
            (at, kind.to_string())
        };
        assert_eq!(
            e("1. 11-15 {open\nstill"),
            (at(1, 10), "unterminated comment".into())
        );
        assert_eq!(
            e("\n  11-15 }"),
            (at(2, 9), "'}' with no '{' before it".into())
        );
        assert_eq!(
            e("[Event \"x]"),
            (
                at(1, 1),
                "bad tag '[Event \"x]' (expected [Name \"value\"] on one line)".into()
            )
        );
        assert_eq!(
            e("1. 11-15 $300"),
            (at(1, 10), "'$300' is not a NAG ($0 to $255)".into())
        );
        assert_eq!(
            e("1. 11-15 $"),
            (at(1, 10), "'$' is not a NAG ($0 to $255)".into())
        );
        assert!(e("[Event x]").1.starts_with("bad tag '[Event x"));
        assert!(e("[ \"x\"]").1.starts_with("bad tag"));
        assert_eq!(e("a ] b"), (at(1, 3), "']' with no '[' before it".into()));
    }
}
