//! Reading PDN games line by line, one game held at a time, so that a file of a million
//! games needs the memory of one: tags, then the movetext, up to the result or the next
//! game's first tag. The reader checks the text's shape (tags, brackets, move numbers and
//! marks, results) and tells a `Visitor` what it finds; the visitor makes each game's value
//! (a tree checked by the rules, `movetext::TreeBuilder`, or its tags alone,
//! `visitor::Tags`). `games` is the one iterator of games that every command and the board
//! read through: it gives each game with how it ended (`Ending`: closed, cut off by the end
//! of the text, or a fault with its place), and keeps the reader itself to this module.
//! Every error names the game, the line and the column.
//!
//! A UTF-8 byte order mark before the first line is skipped. A game whose `Result` tag and
//! movetext result disagree is an error (which of them is true cannot be told), and so are a
//! `Result` tag that is not a result, and a `GameType` tag other than 23 (American pool
//! checkers; `23,...` with the board's details is 23 too) wherever it stands (issue 58,
//! item 7).
//!
//! Comments before a game's first tag (a file's header, `{...}` or `; ...`) are not a game
//! of their own (issue 58, item 6): they go to the game after them, as comments before its
//! first move; after the last game they are left out (a text of comments alone is one game
//! of them).

use super::error::{ErrorKind, PdnError, Spot};
use super::lexer::{LexError, Lexer, Spotted, Token};
use super::movetext::{is_result, TreeBuilder};
use super::notes;
use super::visitor::{GameEnd, Visit, Visitor};
use super::{MAX_MOVETEXT, MAX_NESTING};
use crate::core::tree::GameTree;
use std::convert::Infallible;
use std::iter::Peekable;

/// One game as read: its tags in order, its tree and its result (`*` when neither the
/// movetext nor a `Result` tag gives one).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeGame {
    pub tags: Vec<(String, String)>,
    pub tree: GameTree,
    pub result: String,
    /// Read by `TreeBuilder::up_to_first_bad_move`: the first move that could not be played,
    /// where the game was cut (None for a game read whole).
    pub cut: Option<Cut>,
}

/// Where a game read up to its first bad move was cut: the fault, and the node the move
/// would have been played from (the last position read on its line).
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub at: Spot,
    pub kind: ErrorKind,
    pub node: crate::core::tree::NodeId,
}

/// Where the open game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Nothing of it yet but comments, if any.
    #[default]
    Between,
    Tags,
    Movetext,
}

/// A line of the open game's movetext: the main line or a variation.
struct Depth {
    /// Whether a move has been read in it.
    moved: bool,
    /// Where it started (a variation: its `(`).
    open: Spot,
}

/// The game being read.
#[derive(Default)]
struct Open {
    phase: Phase,
    /// Comments before the first tag, for the movetext.
    pending: Vec<(Spot, String)>,
    /// The first `Result` tag, and where it stood.
    result_tag: Option<(Spot, String)>,
    /// The movetext's result, and where it stood.
    result: Option<(Spot, String)>,
    lines: Vec<Depth>,
    /// The visitor skips the movetext.
    skip: bool,
    /// The visitor skips the variation at this depth (`lines.len()` inside it).
    skip_from: Option<usize>,
}

/// Reads games line by line, calling `V` (see the module's doc): give it a line with
/// `line`, then take the games the line ended with `next_game` until it gives none; at the
/// end of the text, `finish`. After an error, read no further.
struct GameReader<V> {
    visitor: V,
    lexer: Lexer,
    game: Open,
    /// Bytes of the open game's lines so far.
    bytes: usize,
    /// Games finished so far.
    games: usize,
    /// The current line's tokens, and the next one to take.
    tokens: Vec<Spotted>,
    next: usize,
    /// A fault the lexer found after the current line's tokens.
    lex_error: Option<LexError>,
}

impl<V: Visitor> GameReader<V> {
    fn new(visitor: V) -> GameReader<V> {
        GameReader {
            visitor,
            lexer: Lexer::default(),
            game: Open::default(),
            bytes: 0,
            games: 0,
            tokens: Vec::new(),
            next: 0,
            lex_error: None,
        }
    }

    /// Take the next line (without its line break); its games come from `next_game`.
    fn line(&mut self, line: &str) -> Result<(), PdnError> {
        debug_assert!(
            self.next == self.tokens.len(),
            "a line's games not all taken"
        );
        let line = if self.lexer.line_number() == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        if self.bytes + line.len() > MAX_MOVETEXT {
            let at = Spot {
                line: self.lexer.line_number() + 1,
                column: 1,
            };
            return Err(self.error(at, ErrorKind::TooLong));
        }
        self.bytes += line.len() + 1;
        self.tokens.clear();
        self.next = 0;
        self.lex_error = self.lexer.line(line, &mut self.tokens).err();
        Ok(())
    }

    /// The next game the lines so far end (closed by its result or the next game's first
    /// tag), if any; the tokens before a fault still count, so a game they end comes before
    /// the fault.
    fn next_game(&mut self) -> Option<Result<V::Game, PdnError>> {
        while self.next < self.tokens.len() {
            let at = self.tokens[self.next].0;
            let ends = matches!(self.tokens[self.next].1, Token::Tag { .. })
                && self.game.phase == Phase::Movetext;
            // A tag after the movetext ends the game; it is taken again for the next one.
            let step = if ends {
                self.end_game()
            } else {
                let token = std::mem::replace(&mut self.tokens[self.next].1, Token::Open);
                self.next += 1;
                self.token(at, token)
            };
            match step {
                Ok(None) => {}
                Ok(Some(game)) => return Some(Ok(game)),
                Err(e) => return Some(Err(e)),
            }
        }
        let (at, kind) = self.lex_error.take()?;
        Some(Err(self.error(at, kind)))
    }

    /// The text has ended: the game still open, if any (cut off by the end).
    fn finish(&mut self) -> Option<Result<V::Game, PdnError>> {
        if let Err((at, kind)) = self.lexer.finish() {
            return Some(Err(self.error(at, kind)));
        }
        self.end_game().transpose()
    }

    fn error(&self, at: Spot, kind: ErrorKind) -> PdnError {
        PdnError {
            game: self.games + 1,
            at,
            kind,
        }
    }

    fn syntax(&self, at: Spot, what: impl Into<String>) -> PdnError {
        self.error(at, ErrorKind::Syntax(what.into()))
    }

    /// A visitor's answer, with the game added to its fault.
    fn visit<T>(&self, r: Result<T, (Spot, ErrorKind)>) -> Result<T, PdnError> {
        r.map_err(|(at, kind)| self.error(at, kind))
    }

    /// Whether the visitor reads what comes now.
    fn visiting(&self) -> bool {
        !self.game.skip && self.game.skip_from.is_none()
    }

    fn token(&mut self, at: Spot, token: Token) -> Result<Option<V::Game>, PdnError> {
        match token {
            Token::Tag { name, value } => {
                self.tag(at, name, value)?;
                Ok(None)
            }
            // Before the game's first tag: a header, not a game of its own.
            Token::Comment(text) if self.game.phase == Phase::Between => {
                self.game.pending.push((at, text));
                Ok(None)
            }
            token => {
                if self.game.phase != Phase::Movetext {
                    self.begin_movetext(at)?;
                }
                self.movetext(at, token)
            }
        }
    }

    fn tag(&mut self, at: Spot, name: String, value: String) -> Result<(), PdnError> {
        self.game.phase = Phase::Tags;
        // The moves of another game mean nothing under these rules: refused wherever the tag
        // stands, whatever reads the text.
        if name.eq_ignore_ascii_case("GameType")
            && value.split(',').next().map(str::trim) != Some("23")
        {
            return Err(self.error(at, ErrorKind::OtherVariant(value)));
        }
        if name == "Result" && self.game.result_tag.is_none() {
            self.game.result_tag = Some((at, value.clone()));
        }
        let r = self.visitor.tag(at, name, value);
        self.visit(r)
    }

    /// The movetext starts at `at`, with the comments before the game's tags, if any.
    fn begin_movetext(&mut self, at: Spot) -> Result<(), PdnError> {
        let pending = std::mem::take(&mut self.game.pending);
        let at = pending.first().map_or(at, |&(a, _)| a);
        self.game.phase = Phase::Movetext;
        self.game.lines = vec![Depth {
            moved: false,
            open: at,
        }];
        let r = self.visitor.begin_movetext(at);
        self.game.skip = self.visit(r)? == Visit::Skip;
        if !self.game.skip {
            for (at, text) in pending {
                let r = self.visitor.comment(at, text);
                self.visit(r)?;
            }
        }
        Ok(())
    }

    fn top(&mut self) -> &mut Depth {
        self.game
            .lines
            .last_mut()
            .expect("the main line is always there")
    }

    fn movetext(&mut self, at: Spot, token: Token) -> Result<Option<V::Game>, PdnError> {
        let visiting = self.visiting();
        match token {
            Token::Tag { .. } => unreachable!("a tag ends the movetext"),
            Token::Comment(text) => {
                if visiting {
                    let r = self.visitor.comment(at, text);
                    self.visit(r)?;
                }
            }
            Token::Nag(nag) => self.nag(at, nag, visiting)?,
            Token::Open => {
                if !self.top().moved {
                    return Err(self.syntax(at, "a variation with no move before it to stand for"));
                }
                if self.game.lines.len() > MAX_NESTING {
                    return Err(self.error(at, ErrorKind::TooDeep));
                }
                self.game.lines.push(Depth {
                    moved: false,
                    open: at,
                });
                if visiting {
                    let r = self.visitor.begin_variation(at);
                    if self.visit(r)? == Visit::Skip {
                        self.game.skip_from = Some(self.game.lines.len());
                    }
                }
            }
            Token::Close => {
                let depth = self.game.lines.len();
                if depth == 1 {
                    return Err(self.syntax(at, "')' with no '(' before it"));
                }
                if !self.top().moved {
                    return Err(self.syntax(at, "an empty variation"));
                }
                self.game.lines.pop();
                if self.game.skip_from == Some(depth) {
                    self.game.skip_from = None;
                } else if visiting {
                    let r = self.visitor.end_variation(at);
                    self.visit(r)?;
                }
            }
            Token::Word(w) => return self.word(at, w, visiting),
        }
        Ok(None)
    }

    fn nag(&mut self, at: Spot, nag: u8, visiting: bool) -> Result<(), PdnError> {
        if !self.top().moved {
            return Err(self.syntax(at, "a move mark or NAG with no move before it"));
        }
        if visiting {
            let r = self.visitor.nag(at, nag);
            self.visit(r)?;
        }
        Ok(())
    }

    /// A result, a move number, a move with its mark, or a mark alone.
    fn word(
        &mut self,
        at: Spot,
        word: String,
        visiting: bool,
    ) -> Result<Option<V::Game>, PdnError> {
        if is_result(&word) {
            if self.game.lines.len() > 1 {
                return Err(self.syntax(at, format!("result '{word}' inside a variation")));
            }
            if visiting {
                let r = self.visitor.result(at, &word);
                self.visit(r)?;
            }
            self.game.result = Some((at, word));
            return self.end_game();
        }
        // A move number ("12." or "12...") alone or glued to its move ("12.11-15").
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = &word[digits..];
        let rest = if digits > 0 && rest.starts_with('.') {
            rest.trim_start_matches('.')
        } else {
            &word
        };
        if rest.is_empty() {
            return Ok(None);
        }
        let column = at.column + word.chars().count() - rest.chars().count();
        let at = Spot { column, ..at };
        let body = rest.trim_end_matches(['!', '?']);
        let mark = &rest[body.len()..];
        let mark_at = Spot {
            column: at.column + body.chars().count(),
            ..at
        };
        let nag = if mark.is_empty() {
            None
        } else {
            let nag = notes::mark_nag(mark).ok_or_else(|| {
                self.syntax(
                    mark_at,
                    format!("'{mark}' is not a move mark (! ? !! ?? !? ?!)"),
                )
            })?;
            Some(nag)
        };
        if body.is_empty() {
            // A mark standing apart from its move.
            self.nag(at, nag.expect("a word is not empty"), visiting)?;
            return Ok(None);
        }
        self.top().moved = true;
        if visiting {
            let r = self.visitor.mv(at, body);
            self.visit(r)?;
            if let Some(nag) = nag {
                let r = self.visitor.nag(mark_at, nag);
                self.visit(r)?;
            }
        }
        Ok(None)
    }

    /// End the open game, if there is one: at its result, where the next game starts, or
    /// where the text ends.
    fn end_game(&mut self) -> Result<Option<V::Game>, PdnError> {
        let g = &mut self.game;
        if g.phase == Phase::Between && (g.pending.is_empty() || self.games > 0) {
            // Nothing, or comments after the last game.
            g.pending.clear();
            return Ok(None);
        }
        if g.phase != Phase::Movetext && !g.pending.is_empty() {
            let at = g.pending[0].0;
            self.begin_movetext(at)?;
        }
        let g = &self.game;
        if g.lines.len() > 1 {
            let open = g.lines.last().expect("checked").open;
            return Err(self.error(open, ErrorKind::Unterminated("variation")));
        }
        // What the tag says becomes the game's result when the movetext gives none, and is
        // written back as the movetext's last word: it must be one.
        if let Some((at, t)) = g.result_tag.as_ref().filter(|(_, t)| !is_result(t)) {
            let kind = ErrorKind::Syntax(format!(
                "the Result tag says '{t}', which is not a result (1-0, 0-1, 1/2-1/2, *, \
                 or 2-0, 0-2, 1-1, 0-0)"
            ));
            return Err(self.error(*at, kind));
        }
        let (result, at) = match (&g.result, &g.result_tag) {
            (Some((at, m)), Some((_, t))) if m != t => {
                let kind = ErrorKind::ResultMismatch {
                    tag: t.clone(),
                    movetext: m.clone(),
                };
                return Err(self.error(*at, kind));
            }
            (Some((at, r)), _) | (None, Some((at, r))) => (r.clone(), Some(*at)),
            (None, None) => ("*".to_string(), None),
        };
        let end = GameEnd { result, at };
        let r = self.visitor.end_game(&end);
        let game = self.visit(r)?;
        self.game = Open::default();
        self.bytes = 0;
        self.games += 1;
        Ok(Some(game))
    }
}

/// One game of a text as `games` reads it, with how it ended.
#[derive(Debug)]
pub enum Ending<G> {
    /// Closed by its result or by the next game's first tag.
    Complete(G),
    /// Read well, but still open where the text ended: nothing closed it. A match writes a
    /// result after every game, so a file it is still writing (or one stopped) ends so.
    CutOff(G),
    /// A fault in the text, with its place; no game comes after it.
    Bad(PdnError, FaultAt),
}

/// Where a fault stood against the end of the text: what tells the last game of a file
/// still being written, cut anywhere, from a bad one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAt {
    /// Before the last line, or on a last line that ends a game with a result.
    Inside,
    /// On the last line, which does not end a game with a result: it may be a line written
    /// in part.
    LastLine,
    /// Where the text ends, in what only the end shows: a comment or a variation left
    /// open, or the open game's result wrong once it is closed.
    End,
}

impl<G> Ending<G> {
    /// The game, closed or cut off, or the fault: for a text that is whole, where a game
    /// open at its end is as good as closed.
    pub fn game(self) -> Result<G, PdnError> {
        match self {
            Ending::Complete(g) | Ending::CutOff(g) => Ok(g),
            Ending::Bad(e, _) => Err(e),
        }
    }
}

/// Whether a line ends a game: it is movetext, and its last word is a result.
fn ends_game(line: &str) -> bool {
    !line.trim_start().starts_with('[') && line.split_whitespace().last().is_some_and(is_result)
}

/// The games of a text given as lines, one at a time (see `games`).
pub struct Games<I: Iterator, V> {
    lines: Peekable<I>,
    reader: GameReader<V>,
    /// The last line read.
    last: Option<I::Item>,
    done: bool,
}

/// Every game of a text given as lines (without their line breaks: `BufRead::lines`,
/// `files::lines`, `str::lines`), each as `visitor` makes it with how it ended, read as a
/// stream: memory holds one line and one game. A line that cannot be had (`E`) or a fault
/// in the text ends the games.
pub fn games<I, S, E, V>(lines: I, visitor: V) -> Games<I::IntoIter, V>
where
    I: IntoIterator<Item = Result<S, E>>,
    S: AsRef<str>,
    V: Visitor,
{
    Games {
        lines: lines.into_iter().peekable(),
        reader: GameReader::new(visitor),
        last: None,
        done: false,
    }
}

impl<I, S, E, V> Games<I, V>
where
    I: Iterator<Item = Result<S, E>>,
    S: AsRef<str>,
    V: Visitor,
{
    /// A fault in the lines read so far, placed against the end of the text; the games
    /// end with it.
    fn fault(&mut self, e: PdnError) -> Ending<V::Game> {
        self.done = true;
        let last_line = match &self.last {
            Some(Ok(line)) => line.as_ref(),
            _ => "",
        };
        let ends = ends_game(last_line);
        let at = if self.lines.peek().is_none() && !ends {
            FaultAt::LastLine
        } else {
            FaultAt::Inside
        };
        Ending::Bad(e, at)
    }
}

impl<I, S, E, V> Iterator for Games<I, V>
where
    I: Iterator<Item = Result<S, E>>,
    S: AsRef<str>,
    V: Visitor,
{
    type Item = Result<Ending<V::Game>, E>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            if let Some(game) = self.reader.next_game() {
                return Some(Ok(match game {
                    Ok(g) => Ending::Complete(g),
                    Err(e) => self.fault(e),
                }));
            }
            match self.lines.next() {
                Some(Ok(line)) => {
                    let read = self.reader.line(line.as_ref());
                    self.last = Some(Ok(line));
                    if let Err(e) = read {
                        return Some(Ok(self.fault(e)));
                    }
                }
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
                None => {
                    self.done = true;
                    return self.reader.finish().map(|g| {
                        Ok(match g {
                            Ok(g) => Ending::CutOff(g),
                            Err(e) => Ending::Bad(e, FaultAt::End),
                        })
                    });
                }
            }
        }
        None
    }
}

/// The games of a PDN text in hand (see `games`), each closed or cut off alike: the text is
/// whole (`Ending::game`). Lines end at `\n` alone: a `\r` before it is white space to the
/// reader, but inside a comment it is the comment's, which so comes back byte for byte
/// (issue 66, item 11: `\r\n` in a comment came back `\n`).
pub fn games_in<'a, V: Visitor + 'a>(
    text: &'a str,
    visitor: V,
) -> impl Iterator<Item = Result<V::Game, PdnError>> + 'a {
    let lines = text
        .split_inclusive('\n')
        .map(|l| Ok::<_, Infallible>(l.strip_suffix('\n').unwrap_or(l)));
    games(lines, visitor).map(|read| {
        let Ok(ending) = read;
        ending.game()
    })
}

/// Every game of a PDN text, as trees checked by the rules (for `pdn::read` and the
/// crate's tests; every other reader goes through `games`).
pub(crate) fn read_trees(text: &str) -> Result<Vec<TreeGame>, PdnError> {
    games_in(text, TreeBuilder::default()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;

    fn hub(tree: &GameTree) -> Vec<String> {
        tree.main_moves().iter().map(Move::hub).collect()
    }

    fn error(text: &str) -> String {
        read_trees(text).unwrap_err().to_string()
    }

    /// Issue 69, item 6: read up to the first bad move, a game is what came before it, with
    /// the fault the whole read would have named, whether the move is illegal or after the
    /// end, in the main line or a variation; other faults are refused as ever.
    #[test]
    fn a_game_cut_at_its_first_bad_move() {
        let cut = |text: &str| {
            let mut games: Vec<_> = games_in(text, TreeBuilder::up_to_first_bad_move()).collect();
            assert_eq!(games.len(), 1, "{text}");
            games.remove(0)
        };
        // An illegal 7th ply: the first 6 stay, shown where the 7th was to be played.
        let text = "[Event \"e\"]\n[Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-24 28-19 1-0";
        let g = cut(text).unwrap();
        assert_eq!(hub(&g.tree).len(), 6);
        assert_eq!(g.result, "*");
        let c = g.cut.expect("cut");
        assert_eq!(c.node, *g.tree.main_line().last().unwrap());
        let whole = read_trees(text).unwrap_err();
        assert_eq!(
            PdnError {
                game: 1,
                at: c.at,
                kind: c.kind
            }
            .to_string(),
            whole.to_string()
        );
        assert!(
            whole.to_string().contains("move 4. '15-24' (ply 7)"),
            "{whole}"
        );
        // In a variation: the main line and the variation up to it; the rest is passed over.
        let g = cut("1. 11-15 23-19 (1... 22-18 2. 8-11 (2. 9-13) 30-26 {x}) 2. 8-11 *").unwrap();
        assert_eq!(hub(&g.tree), ["11-15", "23-19"]);
        let c = g.cut.unwrap();
        assert!(
            matches!(c.kind, ErrorKind::BadMove { ply: 3, .. }),
            "{:?}",
            c.kind
        );
        assert_eq!(
            g.tree.node(c.node).unwrap().mv.map(|m| m.hub()),
            Some("22-18".to_string())
        );
        // A whole game is not cut; a fault of another kind is still refused.
        assert_eq!(cut("1. 11-15 23-19 *").unwrap().cut, None);
        assert!(cut("1. 11-15 {oops *").is_err());
    }

    /// Issue 58, item 6: comments before the first tag are not a game of their own.
    #[test]
    fn comments_before_the_tags_are_not_a_game() {
        let game = |w: &str| format!("[White \"{w}\"]\n[Black \"b\"]\n1. 11-15 *\n");
        let root_comment = |g: &TreeGame| g.tree.node(g.tree.root()).unwrap().notes.comment.clone();
        for header in [
            "{ header }\n",
            "; exported\n",
            "{a}\n; b\n% escape\n",
            "\u{feff}{ header } ",
            "{ two\nlines }",
        ] {
            let text = format!("{header}{}{}", game("one"), game("two"));
            let games = read_trees(&text).unwrap();
            let whites: Vec<_> = games.iter().map(|g| g.tags[0].1.as_str()).collect();
            assert_eq!(whites, ["one", "two"], "{text}");
            // Kept, before the first game's first move.
            assert!(!root_comment(&games[0]).is_empty(), "{text}");
            assert!(root_comment(&games[1]).is_empty(), "{text}");
        }
        // Between games, a comment goes to the next game; after the last, it is left out.
        let games =
            read_trees("1. 11-15 * {about two}\n[Event \"2\"]\n1. 9-14 * {end}\n; done").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(root_comment(&games[1]), "about two");
        // A game of tags alone takes them too.
        let games = read_trees("{h}\n[Event \"x\"]\n").unwrap();
        assert_eq!((games.len(), root_comment(&games[0]).as_str()), (1, "h"));
    }

    /// Issue 58, item 7: a game of another variant is refused wherever its tag stands, and
    /// whatever visits it (the tags alone too).
    #[test]
    fn another_game_type_is_refused_wherever_it_stands() {
        let game = "[Event \"ok\"]\n[GameType \"23\"]\n1. 11-15 *\n";
        let cases = [
            (
                "[Event \"x\"] [GameType \"21\"]\n1. 11-15 *",
                "game 1, line 1, column 13",
            ),
            (
                "\u{feff}[GameType \"21\"]\n1. 11-15 *",
                "game 1, line 1, column 1",
            ),
            (
                "% escape\n[GameType \"21\"]\n1. 11-15 *",
                "game 1, line 2, column 1",
            ),
            (
                "{note} [GameType \"21\"]\n1. 11-15 *",
                "game 1, line 1, column 8",
            ),
            ("; note\n [gametype \"20\"]", "game 1, line 2, column 2"),
            (
                &format!("{game}[GameType \"21\"]\n1. 11-15 *"),
                "game 2, line 4, column 1",
            ),
            (
                &format!("{game}[Event \"y\"] [GameType \"\"]"),
                "game 2, line 4, column 13",
            ),
        ];
        for (text, place) in cases {
            for e in [
                read_trees(text).map(|_| ()).unwrap_err(),
                games_in(text, super::super::visitor::Tags::default())
                    .collect::<Result<Vec<_>, _>>()
                    .map(|_| ())
                    .unwrap_err(),
            ] {
                let e = e.to_string();
                assert!(e.starts_with(place), "{text}: {e}");
                assert!(e.contains("is not 23 (American pool checkers)"), "{e}");
            }
        }
        // 23, with or without the board's details, is taken.
        let g = read_trees(&format!("{game}[GameType \"23,W,8,8,A1,0\"]\n1. 9-14 *")).unwrap();
        assert_eq!(g.len(), 2);
        let long = format!("[GameType \"{}\"]", "2".repeat(500));
        assert!(error(&long).len() < 150, "{}", error(&long));
    }

    /// Issue 58, item 3: a variation that begins with the main line's move does not take
    /// the main line's place; what it adds after that move stands beside the main line's
    /// next move.
    #[test]
    fn a_variation_that_begins_with_the_main_move_stays_a_variation() {
        let g = &read_trees("1. 11-15 (1. 11-15 22-18) 23-19 2. 8-11 *").unwrap()[0];
        assert_eq!(hub(&g.tree), ["11-15", "23-19", "8-11"]);
        let first = g.tree.main_line()[1];
        let replies: Vec<_> = g
            .tree
            .children(first)
            .iter()
            .map(|&c| g.tree.node(c).unwrap().mv.unwrap().hub())
            .collect();
        assert_eq!(replies, ["23-19", "22-18"]);
        assert_eq!(g.tree.len(), 5);
        // Deeper: the variation follows two of the main line's moves, inside another one.
        let text = "1. 11-15 23-19 (1... 22-18 (1... 23-19 2. 9-14) 2. 15x22) 2. 8-11 22-17 *";
        let g = &read_trees(text).unwrap()[0];
        assert_eq!(hub(&g.tree), ["11-15", "23-19", "8-11", "22-17"]);
        let at = g.tree.main_line()[2];
        let replies: Vec<_> = g
            .tree
            .children(at)
            .iter()
            .map(|&c| g.tree.node(c).unwrap().mv.unwrap().hub())
            .collect();
        assert_eq!(replies, ["8-11", "9-14"]);
        // And the same line given twice merges into it.
        let g = &read_trees("1. 11-15 (1. 11-15 23-19) 23-19 *").unwrap()[0];
        assert_eq!(
            (hub(&g.tree), g.tree.len()),
            (vec!["11-15".into(), "23-19".into()], 3)
        );
        // What is written reads back the same.
        let again = &read_trees(&g.write()).unwrap()[0];
        assert!(again.tree.same_as(&g.tree));
    }

    /// Issue 58, item 5: a result the rules contradict is refused, from the tag or the
    /// movetext; the rules' own result, and `*`, are taken.
    #[test]
    fn a_result_the_rules_contradict_is_refused() {
        // White to move has no move: Black has won.
        let fen = "[FEN \"W:W32:B23,24,27,28\"]";
        for (text, place) in [
            (format!("{fen} [Result \"1-0\"] 1-0"), "line 1, column 43"),
            (format!("{fen}\n[Result \"1-0\"]"), "line 2, column 1"),
            (
                format!("{fen}\n[Result \"1/2-1/2\"]\n1/2-1/2"),
                "line 3, column 1",
            ),
            (format!("{fen}\n1-0"), "line 2, column 1"),
        ] {
            let e = error(&text);
            assert_eq!(
                e,
                format!(
                    "game 1, {place}: the result '{}' contradicts the rules: at the end of the \
                     main line, Black wins: White has no legal move",
                    if text.contains("1/2") {
                        "1/2-1/2"
                    } else {
                        "1-0"
                    }
                ),
                "{text}"
            );
        }
        for ok in ["0-1", "*", "0-2"] {
            let g = read_trees(&format!("{fen} [Result \"{ok}\"]")).unwrap();
            assert_eq!(g[0].result, ok);
        }
        // At the end of the main line; a game that goes on may have any result (a
        // resignation, a forfeit).
        let e = error("[FEN \"B:W18:B14\"] 1. 14x23 1-0");
        assert!(e.contains("Black wins"), "{e}");
        let g = read_trees("[FEN \"B:W32:B1\"] 1. 1-6 1-0").unwrap();
        assert_eq!(g[0].result, "1-0");
        // A draw by repetition says 1/2-1/2.
        let shuffle = "[FEN \"B:WK30:BK3\"]\n1. 3-7 30-26 2. 7-3 26-30 3. 3-7 30-26 4. 7-3 26-30";
        assert!(error(&format!("{shuffle} 0-1")).contains("draw by threefold repetition"));
    }

    #[test]
    fn layouts_that_read_to_the_same_tree() {
        let canonical = "[Event \"x\"]\n1. 11-15 23-19?! (1... 22-18 {sharp} 2. 15x22) 2. 8-11 *\n";
        let loose = "% a PDN escape line\n\u{20}[Event   \"x\"]  1.11-15 23-19 ?!\n(\n1...22-18\n{sharp}2.15x22)2.8-11 *";
        let a = read_trees(canonical).unwrap();
        let b = read_trees(loose).unwrap();
        assert!(a[0].tree.same_as(&b[0].tree));
        assert_eq!((&a[0].tags, &a[0].result), (&b[0].tags, &b[0].result));
        assert_eq!(hub(&a[0].tree), ["11-15", "23-19", "8-11"]);
        // Two games on one line, and one ended by the next one's tags.
        let games = read_trees("1. 11-15 * 1. 9-13 1-0\n1. 10-14\n[Event \"y\"]\n1. 9-14").unwrap();
        let lines: Vec<_> = games
            .iter()
            .map(|g| (hub(&g.tree), g.result.as_str()))
            .collect();
        assert_eq!(
            lines,
            vec![
                (vec!["11-15".to_string()], "*"),
                (vec!["9-13".to_string()], "1-0"),
                (vec!["10-14".to_string()], "*"),
                (vec!["9-14".to_string()], "*"),
            ]
        );
        // Tags alone make a game with no moves; a comment alone, one with a root comment.
        let g = read_trees("[Event \"x\"]\n[Result \"0-1\"]\n").unwrap();
        assert_eq!(
            (g.len(), g[0].tree.len(), g[0].result.as_str()),
            (1, 1, "0-1")
        );
        let g = read_trees("{just words}").unwrap();
        let root = g[0].tree.root();
        assert_eq!(g[0].tree.node(root).unwrap().notes.comment, "just words");
    }

    #[test]
    fn the_texts_the_old_reader_was_tested_on() {
        let text = "[Event \"x\"]\n[GameType \"23\"]\n\n1. 11-15 {a comment} 23-19 2.9-14 (2. 8-11 22-17) 22-17 1/2-1/2\n";
        let g = &read_trees(text).unwrap()[0];
        assert_eq!(hub(&g.tree), ["11-15", "23-19", "9-14", "22-17"]);
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(g.tree.len(), 7);
        let timed = &read_trees("1. 11-15 {time 0.250s} 23-19 {time 1.5s} 1/2-1/2").unwrap()[0];
        let times: Vec<_> = timed
            .tree
            .main_line()
            .iter()
            .map(|&n| timed.tree.node(n).unwrap().notes.time)
            .collect();
        use std::time::Duration;
        let ms = |m| Some(Duration::from_millis(m));
        assert_eq!(times, [None, ms(250), ms(1500)]);
        let g = read_trees("\u{feff}[Result \"1-0\"]\n1. 11-15 1-0\n").unwrap();
        assert_eq!((g.len(), g[0].result.as_str()), (1, "1-0"));
        assert!(read_trees("1. 11-15 *\n\u{feff}[Event \"x\"]\n*").is_err());
        assert_eq!(
            read_trees("[Result \"0-1\"]\n1. 11-15").unwrap()[0].result,
            "0-1"
        );
        let shuffle = "[FEN \"B:WK30:BK3\"]\n1. 3-7 30-26 2. 7-3 26-30 3. 3-7 30-26 4. 7-3 26-30";
        let g = read_trees(&format!("{shuffle} 1/2-1/2")).unwrap();
        assert_eq!(g[0].tree.main_moves().len(), 8);
        assert_eq!(
            error(&format!("{shuffle} 5. 3-7 1/2-1/2")),
            "game 1, line 2, column 56: move 5. '3-7' (ply 9) after the game ended (draw by threefold repetition)"
        );
    }

    #[test]
    fn errors_name_the_game_line_and_column() {
        let cases = [
            (
                "[Event \"a\"]\n1. 11-15 *\n[Result \"0-1\"]\n1. 11-15 1-0\n",
                "game 2, line 4, column 10: the Result tag says '0-1' but the movetext ends '1-0'",
            ),
            (
                "[Event \"a\"]\n[Result \"1/2-1/20-2\"]\n1. 11-15",
                "game 1, line 2, column 1: the Result tag says '1/2-1/20-2', which is not a result \
                 (1-0, 0-1, 1/2-1/2, *, or 2-0, 0-2, 1-1, 0-0)",
            ),
            (
                "[Event x]\n1. 11-15 *",
                "game 1, line 1, column 1: bad tag '[Event x' (expected [Name \"value\"] on one line)",
            ),
            (
                "[Event \"e\"]\n[FEN \"Q:W1\"]\n1. 11-15 *",
                "game 1, line 2, column 1: bad FEN tag: side to move must be W or B, not 'Q'",
            ),
            (
                "1. 11-15 *\n\n1. 11-15 23-19\n  2. 9-14 22-17 3. 14-19 *",
                "game 2, line 4, column 20: move 3. '14-19' (ply 5): illegal move '14-19'",
            ),
            (
                "1. 11-15 23-19 (2. 8-11 22-17) *",
                "game 1, line 1, column 20: move 1... '8-11' (ply 2): illegal move '8-11'",
            ),
            (
                "1. 11-15 23-19 (1... 22-18 2. 15x22 25x18 (2... 26x17 {open\n comment} 3. 8-11",
                "game 1, line 1, column 43: unterminated variation",
            ),
            ("1. 11-15 {oops *", "game 1, line 1, column 10: unterminated comment"),
            ("1. 11-15 23-19) *", "game 1, line 1, column 15: ')' with no '(' before it"),
            ("( 1. 11-15 ) *", "game 1, line 1, column 1: a variation with no move before it to stand for"),
            ("1. 11-15 ( ) *", "game 1, line 1, column 12: an empty variation"),
            ("1. 11-15 (1. 9-13 1-0) *", "game 1, line 1, column 19: result '1-0' inside a variation"),
            ("$3 1. 11-15 *", "game 1, line 1, column 1: a move mark or NAG with no move before it"),
            ("1. 11-15!!! *", "game 1, line 1, column 9: '!!!' is not a move mark (! ? !! ?? !? ?!)"),
            ("1. 11-15 *\n[Event \"x\"] 1. 9-14 { *", "game 2, line 2, column 21: unterminated comment"),
            ("1. 11-15 [Event \"x\"] 22-18 *", "game 2, line 1, column 22: move 1. '22-18' (ply 1): illegal move '22-18'"),
        ];
        for (text, want) in cases {
            assert_eq!(error(text), want, "{text}");
        }
        let mut r = GameReader::new(TreeBuilder::default());
        let long = "1. 11-15 ".repeat(MAX_MOVETEXT / 9 + 1);
        let e = r.line(&long).unwrap_err();
        assert_eq!(
            (e.game, e.at, e.kind),
            (1, Spot { line: 1, column: 1 }, ErrorKind::TooLong)
        );
    }

    /// Issue 66, item 6: variations nested as deep as `MAX_NESTING` are read (in linear
    /// time: a line outside asks nothing of the lines inside it), and one deeper is refused
    /// at its `(` by name, however deep the text goes, without a panic.
    #[test]
    fn nesting_is_bounded_by_name() {
        let nested = |n: usize| format!("1. 9-13 {}{} *", "(1. 9-13 ".repeat(n), ")".repeat(n));
        let games = read_trees(&nested(MAX_NESTING)).unwrap();
        // Each variation begins with the move it stands beside: the tree holds it once.
        assert_eq!(games[0].tree.len(), 2);
        let column = 9 + 9 * MAX_NESTING;
        for n in [MAX_NESTING + 1, 99_000] {
            assert_eq!(
                error(&nested(n)),
                format!(
                    "game 1, line 1, column {column}: variations nested deeper than \
                     {MAX_NESTING} (each inside the one before)"
                )
            );
        }
        // A level a line: the same.
        let deep = format!("1. 9-13\n{}", "(1. 9-13\n".repeat(MAX_NESTING + 1));
        let at = format!(
            "line {}, column 1: variations nested deeper than",
            MAX_NESTING + 2
        );
        assert!(error(&deep).contains(&at), "{}", error(&deep));
    }

    /// Issue 67, item 6: each game comes with how it ended: closed, cut off by the end of
    /// the text, or a fault placed against the end (what `stats` and `match --pdn` tell a
    /// file still being written from a bad one by).
    #[test]
    fn each_game_says_how_it_ended() {
        let endings = |text: &str| -> Vec<String> {
            let lines = text.split('\n').map(Ok::<_, Infallible>);
            games(lines, TreeBuilder::default())
                .map(|read| match read.unwrap() {
                    Ending::Complete(g) => format!("complete {}", g.result),
                    Ending::CutOff(g) => format!("cut off {}", g.tree.main_moves().len()),
                    Ending::Bad(e, at) => format!("{at:?} line {}", e.at.line),
                })
                .collect()
        };
        let game = "[Event \"x\"]\n1. 11-15 23-19 1-0";
        let cases: [(String, &[&str]); 9] = [
            (
                format!("{game}\n1. 9-14 *"),
                &["complete 1-0", "complete *"],
            ),
            // Closed by the next game's tags.
            (format!("1. 11-15\n{game}"), &["complete *", "complete 1-0"]),
            (
                format!("{game}\n1. 9-14 23-19"),
                &["complete 1-0", "cut off 2"],
            ),
            (
                format!("{game}\n1. 9-14 {{open"),
                &["complete 1-0", "End line 3"],
            ),
            (
                format!("{game}\n1. 9-14 (1. 10-14"),
                &["complete 1-0", "End line 3"],
            ),
            // A move cut in two on the last line, and a bad move on a line that ends a game.
            (
                format!("{game}\n1. 9-14 23-1"),
                &["complete 1-0", "LastLine line 3"],
            ),
            (
                format!("{game}\n1. 9-14 23-17 *"),
                &["complete 1-0", "Inside line 3"],
            ),
            (format!("1. 9-14 23-17\n{game}"), &["Inside line 1"]),
            // A line of tags does not end a game, whatever it ends with.
            ("[Event \"x\"] 1. 9-14 23-17 *".into(), &["LastLine line 1"]),
        ];
        for (text, want) in cases {
            assert_eq!(endings(&text), want, "{text}");
        }
        // A line that cannot be had ends the games, after those before it.
        let lines = [Ok("1. 11-15 *"), Err("unreadable"), Ok("1. 9-14 *")];
        let read: Vec<_> = games(lines, TreeBuilder::default()).collect();
        assert!(matches!(
            read[..],
            [Ok(Ending::Complete(_)), Err("unreadable")]
        ));
        // A text in hand takes a game open at its end as it reads.
        let g = games_in("1. 11-15 23-19", TreeBuilder::default())
            .next()
            .unwrap();
        assert_eq!(g.unwrap().tree.main_moves().len(), 2);
    }

    /// One game at a time: the reader holds no finished game, and its buffers do not grow
    /// with the number of games read.
    #[test]
    fn games_stream_through() {
        let mut r = GameReader::new(TreeBuilder::default());
        let mut n = 0;
        for i in 0..2000 {
            r.line(&format!("[Round \"{i}\"]")).unwrap();
            assert!(r.next_game().is_none());
            r.line("1. 11-15 23-19 (1... 22-18) 2. 8-11 1-0").unwrap();
            while let Some(g) = r.next_game() {
                g.unwrap();
                n += 1;
            }
            assert_eq!(n, i + 1);
            assert!(r.game.phase == Phase::Between && r.game.lines.is_empty());
        }
        assert!(r.tokens.capacity() < 64);
        assert!(r.finish().is_none());
    }
}
