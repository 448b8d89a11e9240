//! The movetext of one game, token by token, into a `GameTree`: moves with their numbers and
//! marks, NAGs, comments, variations in parentheses to any depth (each an alternative to the
//! move before it) and the result that ends the game.
//!
//! A comment after a move is the move's; one before the first move of a variation is that
//! move's `before`; one before the game's first move is the root's. Move numbers are
//! skipped, not checked: writers differ in how they number a game that White starts.

use super::error::{ErrorKind, Spot};
use super::lexer::Token;
use super::notes;
use crate::core::notation;
use crate::core::tree::{GameTree, NodeId, TreeError};
use crate::core::Position;

/// The results PDN writes, White's score first (`2-0` and the like are the two-point forms
/// some programs use).
pub fn is_result(t: &str) -> bool {
    matches!(
        t,
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "*" | "0-0"
    )
}

/// A fault in the movetext and where it starts.
pub type Fault = (Spot, ErrorKind);

/// A finished movetext: its tree, and its result with where it stood.
pub type Finished = (GameTree, Option<(Spot, String)>);

/// One line being read: the main line, or a variation inside it.
struct Line {
    /// Where the next move is played.
    at: NodeId,
    /// How many moves from the start `at` is.
    ply: usize,
    /// Where comments and NAGs go: the last move read in this line (or the root, for the
    /// main line's start); `None` at a variation's start.
    last: Option<NodeId>,
    /// Comments met at a variation's start, for its first move.
    before: String,
    /// Where the line's `(` was (the main line: its first token).
    open: Spot,
}

/// A game's movetext being read.
pub struct Builder {
    tree: GameTree,
    lines: Vec<Line>,
    result: Option<(Spot, String)>,
}

/// What a token did to the game.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    More,
    /// A result outside every variation ended the game.
    End,
}

impl Builder {
    pub fn new(start: Position, at: Spot) -> Builder {
        let tree = GameTree::new(start);
        let root = tree.root();
        Builder {
            tree,
            lines: vec![Line {
                at: root,
                ply: 0,
                last: Some(root),
                before: String::new(),
                open: at,
            }],
            result: None,
        }
    }

    fn line(&mut self) -> &mut Line {
        self.lines
            .last_mut()
            .expect("the main line is always there")
    }

    /// Take the next token (a tag is not movetext: the reader keeps those).
    pub fn token(&mut self, at: Spot, token: Token) -> Result<Step, Fault> {
        let syntax = |s: &str| Err((at, ErrorKind::Syntax(s.into())));
        match token {
            Token::Tag { .. } => return syntax("a tag inside the movetext"),
            Token::Comment(text) => {
                let line = self.line();
                match line.last {
                    Some(id) => {
                        let n = self.tree.notes_mut(id).expect("a live node");
                        notes::add_comment(n, &text);
                    }
                    None => notes::join(&mut line.before, &text),
                }
            }
            Token::Nag(nag) => self.nag(at, nag)?,
            Token::Open => {
                let line = self.line();
                let last = line.last.filter(|&id| id != self.tree.root());
                let Some(last) = last else {
                    return syntax("a variation with no move before it to stand for");
                };
                let at_node = self.tree.node(last).and_then(|n| n.parent);
                let at_node = at_node.expect("a move has a parent");
                let ply = self.line().ply - 1;
                self.lines.push(Line {
                    at: at_node,
                    ply,
                    last: None,
                    before: String::new(),
                    open: at,
                });
            }
            Token::Close => {
                if self.lines.len() == 1 {
                    return syntax("')' with no '(' before it");
                }
                if self.line().last.is_none() {
                    return syntax("an empty variation");
                }
                self.lines.pop();
            }
            Token::Word(w) => return self.word(at, &w),
        }
        Ok(Step::More)
    }

    fn nag(&mut self, at: Spot, nag: u8) -> Result<(), Fault> {
        let root = self.tree.root();
        match self.line().last.filter(|&id| id != root) {
            Some(id) => {
                self.tree.notes_mut(id).expect("a live node").nags.push(nag);
                Ok(())
            }
            None => Err((
                at,
                ErrorKind::Syntax("a move mark or NAG with no move before it".into()),
            )),
        }
    }

    fn word(&mut self, at: Spot, word: &str) -> Result<Step, Fault> {
        if is_result(word) {
            if self.lines.len() > 1 {
                return Err((
                    at,
                    ErrorKind::Syntax(format!("result '{word}' inside a variation")),
                ));
            }
            self.result = Some((at, word.to_string()));
            return Ok(Step::End);
        }
        // A move number ("12." or "12...") alone or glued to its move ("12.11-15").
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = &word[digits..];
        let rest = if digits > 0 && rest.starts_with('.') {
            rest.trim_start_matches('.')
        } else {
            word
        };
        if rest.is_empty() {
            return Ok(Step::More);
        }
        let column = at.column + word.chars().count() - rest.chars().count();
        let at = Spot { column, ..at };
        let body = rest.trim_end_matches(['!', '?']);
        let mark = &rest[body.len()..];
        let nag = if mark.is_empty() {
            None
        } else {
            let mark_at = Spot {
                column: at.column + body.chars().count(),
                ..at
            };
            Some(notes::mark_nag(mark).ok_or_else(|| {
                (
                    mark_at,
                    ErrorKind::Syntax(format!("'{mark}' is not a move mark (! ? !! ?? !? ?!)")),
                )
            })?)
        };
        if body.is_empty() {
            // A mark standing apart from its move.
            self.nag(at, nag.expect("a word is not empty"))?;
            return Ok(Step::More);
        }
        let line = self.lines.last().expect("the main line is always there");
        let ply = line.ply + 1;
        let pos = self.tree.node(line.at).expect("a live node").position;
        let mv = notation::parse_pdn_move(&pos, body).map_err(|error| {
            (
                at,
                ErrorKind::BadMove {
                    ply,
                    text: body.to_string(),
                    error,
                },
            )
        })?;
        let id = self.tree.play(line.at, mv).map_err(|e| {
            let kind = match e {
                TreeError::GameOver(end) => ErrorKind::AfterEnd {
                    ply,
                    text: body.to_string(),
                    end,
                },
                TreeError::Full => ErrorKind::TooManyMoves,
                e => ErrorKind::Syntax(e.to_string()),
            };
            (at, kind)
        })?;
        let line = self.line();
        let before = std::mem::take(&mut line.before);
        *line = Line {
            at: id,
            ply,
            last: Some(id),
            before: String::new(),
            open: line.open,
        };
        let n = self.tree.notes_mut(id).expect("a live node");
        notes::join(&mut n.before, &before);
        n.nags.extend(nag);
        Ok(Step::More)
    }

    /// The movetext has ended (at its result or where the next game starts): the tree and
    /// the result it gave, with where that stood.
    pub fn finish(self) -> Result<Finished, Fault> {
        if self.lines.len() > 1 {
            let open = self.lines.last().expect("checked").open;
            return Err((open, ErrorKind::Unterminated("variation")));
        }
        Ok((self.tree, self.result))
    }
}
