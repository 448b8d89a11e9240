//! Reading PDN games line by line, one game held at a time, so that a file of a million
//! games needs the memory of one: tags, then the movetext (`movetext`), up to the result or
//! the next game's first tag. Every error names the game, the line and the column.
//!
//! A UTF-8 byte order mark before the first line is skipped. A game whose `Result` tag and
//! movetext result disagree is an error (which of them is true cannot be told), and so are a
//! `Result` tag that is not a result and a move after the rules ended the game.

use super::error::{ErrorKind, PdnError, Spot};
use super::lexer::{Lexer, Token};
use super::movetext::{is_result, Builder, Step};
use super::MAX_MOVETEXT;
use crate::core::notation;
use crate::core::tree::GameTree;
use crate::core::Position;

/// One game as read: its tags in order, its tree and its result (`*` when neither the
/// movetext nor a `Result` tag gives one).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeGame {
    pub tags: Vec<(String, String)>,
    pub tree: GameTree,
    pub result: String,
}

/// The game being read.
#[derive(Default)]
struct Open {
    tags: Vec<(String, String)>,
    /// Where each tag stood, for the errors about them.
    tag_spots: Vec<Spot>,
    /// Once the movetext has started.
    moves: Option<Builder>,
}

/// Reads games line by line (see the module's doc).
#[derive(Default)]
pub struct TreeReader {
    lexer: Lexer,
    game: Open,
    /// Bytes of the open game's lines so far.
    bytes: usize,
    /// Games finished so far.
    games: usize,
    tokens: Vec<(Spot, Token)>,
}

impl TreeReader {
    /// Take the next line (without its line break): the games it ends, in order.
    pub fn line(&mut self, line: &str) -> Result<Vec<TreeGame>, PdnError> {
        let line = if self.lexer.line_number() == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let game = self.games + 1;
        if self.bytes + line.len() > MAX_MOVETEXT {
            return Err(PdnError {
                game,
                at: Spot {
                    line: self.lexer.line_number() + 1,
                    column: 1,
                },
                kind: ErrorKind::TooLong,
            });
        }
        self.bytes += line.len() + 1;
        let mut tokens = std::mem::take(&mut self.tokens);
        tokens.clear();
        let lexed = self.lexer.line(line, &mut tokens);
        let mut done = Vec::new();
        // The tokens before a fault still count: a game they end is returned first.
        let result = tokens
            .drain(..)
            .try_for_each(|(at, t)| self.token(at, t, &mut done));
        self.tokens = tokens;
        result?;
        lexed.map_err(|(at, kind)| self.error(at, kind))?;
        Ok(done)
    }

    /// The text has ended: the game still open, if any.
    pub fn finish(&mut self) -> Result<Option<TreeGame>, PdnError> {
        self.lexer
            .finish()
            .map_err(|(at, kind)| self.error(at, kind))?;
        self.end_game()
    }

    fn error(&self, at: Spot, kind: ErrorKind) -> PdnError {
        PdnError {
            game: self.games + 1,
            at,
            kind,
        }
    }

    fn token(&mut self, at: Spot, token: Token, done: &mut Vec<TreeGame>) -> Result<(), PdnError> {
        if let Token::Tag { name, value } = token {
            if self.game.moves.is_some() {
                done.extend(self.end_game()?);
            }
            self.game.tags.push((name, value));
            self.game.tag_spots.push(at);
            return Ok(());
        }
        if self.game.moves.is_none() {
            let start = self.start()?;
            self.game.moves = Some(Builder::new(start, at));
        }
        let moves = self.game.moves.as_mut().expect("made above");
        let step = moves
            .token(at, token)
            .map_err(|(at, kind)| self.error(at, kind))?;
        if step == Step::End {
            done.extend(self.end_game()?);
        }
        Ok(())
    }

    /// The start position: the `FEN` tag's, or the usual start.
    fn start(&self) -> Result<Position, PdnError> {
        let g = &self.game;
        match g
            .tags
            .iter()
            .position(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        {
            Some(i) => notation::parse_fen(&g.tags[i].1)
                .map_err(|e| self.error(g.tag_spots[i], ErrorKind::BadFen(e))),
            None => Ok(Position::start()),
        }
    }

    /// End the open game, if there is one: at its result, or where the next game or the
    /// text starts or ends.
    fn end_game(&mut self) -> Result<Option<TreeGame>, PdnError> {
        if self.game.moves.is_none() && self.game.tags.is_empty() {
            return Ok(None);
        }
        let (tree, result) = match self.game.moves.take() {
            Some(b) => b.finish().map_err(|(at, kind)| self.error(at, kind))?,
            None => (GameTree::new(self.start()?), None),
        };
        let g = std::mem::take(&mut self.game);
        self.bytes = 0;
        // The Result tag and where it stands.
        let result_tag = g
            .tags
            .iter()
            .position(|(k, _)| k == "Result")
            .map(|i| (i, &g.tags[i].1));
        // What the tag says becomes the game's result when the movetext gives none, and is
        // written back as the movetext's last word: it must be one.
        if let Some((i, t)) = result_tag.filter(|(_, t)| !is_result(t)) {
            let kind = ErrorKind::Syntax(format!(
                "the Result tag says '{t}', which is not a result (1-0, 0-1, 1/2-1/2, *, \
                 or 2-0, 0-2, 1-1, 0-0)"
            ));
            return Err(self.error(g.tag_spots[i], kind));
        }
        let tag = result_tag.map(|(_, t)| t);
        let result = match (result, tag) {
            (Some((at, m)), Some(t)) if m != *t => {
                let kind = ErrorKind::ResultMismatch {
                    tag: t.clone(),
                    movetext: m,
                };
                return Err(self.error(at, kind));
            }
            (Some((_, r)), _) => r,
            (None, Some(t)) => t.clone(),
            (None, None) => "*".into(),
        };
        self.games += 1;
        Ok(Some(TreeGame {
            tags: g.tags,
            tree,
            result,
        }))
    }
}

/// Every game of a PDN text, as trees.
pub fn read_trees(text: &str) -> Result<Vec<TreeGame>, PdnError> {
    let mut reader = TreeReader::default();
    let mut games = Vec::new();
    for line in text.lines() {
        games.extend(reader.line(line)?);
    }
    games.extend(reader.finish()?);
    Ok(games)
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
            "game 1, line 2, column 56: move 9 '3-7' after the game ended (draw by threefold repetition)"
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
                "game 2, line 4, column 20: move 5 '14-19': illegal move '14-19'",
            ),
            (
                "1. 11-15 23-19 (2. 8-11 22-17) *",
                "game 1, line 1, column 20: move 2 '8-11': illegal move '8-11'",
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
            ("1. 11-15 [Event \"x\"] 22-18 *", "game 2, line 1, column 22: move 1 '22-18': illegal move '22-18'"),
        ];
        for (text, want) in cases {
            assert_eq!(error(text), want, "{text}");
        }
        let mut r = TreeReader::default();
        let long = "1. 11-15 ".repeat(MAX_MOVETEXT / 9 + 1);
        let e = r.line(&long).unwrap_err();
        assert_eq!(
            (e.game, e.at, e.kind),
            (1, Spot { line: 1, column: 1 }, ErrorKind::TooLong)
        );
    }

    /// One game at a time: the reader holds no finished game, and its buffers do not grow
    /// with the number of games read.
    #[test]
    fn games_stream_through() {
        let mut r = TreeReader::default();
        let mut n = 0;
        for i in 0..2000 {
            n += r.line(&format!("[Round \"{i}\"]")).unwrap().len();
            n += r
                .line("1. 11-15 23-19 (1... 22-18) 2. 8-11 1-0")
                .unwrap()
                .len();
            assert_eq!(n, i + 1);
            assert!(r.game.tags.is_empty() && r.game.moves.is_none());
        }
        assert!(r.tokens.capacity() < 64);
        assert_eq!(r.finish().unwrap(), None);
    }
}
