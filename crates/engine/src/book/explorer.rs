//! The opening explorer (issue 69, item 4): at a position, the book's moves with their
//! scores, and how a shipped set of poolshark's own games went from it, move by move, with
//! their results, as lichess's explorer shows games.
//!
//! The games are `books/explorer.games`, built into the binary: a line a game, its result
//! then its first moves in Hub notation (`GameSet::write`, made by `poolshark explorer
//! build`). Read once (`GameSet::builtin`), every position their moves reach is tallied by
//! its key, so that transpositions meet. A move that does not read where it stands is an
//! error naming its line: a file never yields an illegal move.

use super::{Book, BookMove};
use crate::core::{movegen, notation, Move, Position};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The games built into the binary.
pub static DEFAULT_GAMES: &str = include_str!("../../../../books/explorer.games");

/// The most plies of a game the file keeps: the explorer is of openings.
pub const MAX_PLIES: usize = 24;

/// The line of the file that says which games it holds.
const ABOUT: &str = "# about: ";

/// The book built into the binary, read once, for the explorer (whatever the engine's play
/// does with a book).
pub fn builtin_book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::builtin().expect("the built-in book reads"))
}

/// How the games that went through a position with one move ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u32,
    pub black: u32,
    pub draws: u32,
    pub white: u32,
}

impl Tally {
    fn add(&mut self, result: Outcome) {
        self.games += 1;
        match result {
            Outcome::Black => self.black += 1,
            Outcome::White => self.white += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Unknown => {}
        }
    }
}

/// A game's result as the file writes it (`1-0` White won, as PDN's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Black,
    White,
    Draw,
    Unknown,
}

impl Outcome {
    /// A PDN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn from_pdn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::White),
            "0-1" => Some(Outcome::Black),
            "1/2-1/2" => Some(Outcome::Draw),
            "*" => Some(Outcome::Unknown),
            _ => None,
        }
    }

    fn pdn(self) -> &'static str {
        match self {
            Outcome::White => "1-0",
            Outcome::Black => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }
}

/// Why a games file was refused: its line (from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesError {
    pub line: usize,
    pub why: String,
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "explorer games, line {}: {}", self.line, self.why)
    }
}

/// A set of games, tallied by position.
#[derive(Clone, Debug, Default)]
pub struct GameSet {
    /// What the games are (the file's `# about:` line).
    about: String,
    count: usize,
    /// Each position's moves in the games, by key, in the order first met.
    at: HashMap<u64, Vec<(Move, Tally)>>,
}

impl GameSet {
    /// The set built into the binary (read once).
    pub fn builtin() -> &'static GameSet {
        static SET: OnceLock<GameSet> = OnceLock::new();
        SET.get_or_init(|| GameSet::parse(DEFAULT_GAMES).expect("the shipped games read"))
    }

    /// A games file: comments (`#`), and a line a game, its result then its moves from the
    /// start in Hub notation, each legal where it stands.
    pub fn parse(text: &str) -> Result<GameSet, GamesError> {
        let mut set = GameSet::default();
        for (i, line) in text.lines().enumerate() {
            let error = |why: String| GamesError { line: i + 1, why };
            if let Some(about) = line.strip_prefix(ABOUT) {
                set.about = about.trim().to_string();
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let result = words.next().unwrap_or_default();
            let result = Outcome::from_pdn(result).ok_or_else(|| {
                error(format!("'{result}' is not a result (1-0, 0-1, 1/2-1/2, *)"))
            })?;
            let mut pos = Position::start();
            let mut line_moves = Vec::new();
            for (ply, text) in words.enumerate() {
                if ply >= MAX_PLIES {
                    return Err(error(format!("more than {MAX_PLIES} moves")));
                }
                let mv = notation::parse_move(&pos, text)
                    .map_err(|e| error(format!("move {} '{text}': {e}", ply + 1)))?;
                line_moves.push((pos.key(), mv));
                pos = pos.play(&mv);
            }
            for (key, mv) in line_moves {
                let moves = set.at.entry(key).or_default();
                match moves.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, t)) => t.add(result),
                    None => {
                        let mut t = Tally::default();
                        t.add(result);
                        moves.push((mv, t));
                    }
                }
            }
            set.count += 1;
        }
        Ok(set)
    }

    /// The file of `games` (each its result and its moves from the start, cut to `plies`),
    /// saying what they are (`about`).
    pub fn write(games: &[(Outcome, Vec<Move>)], about: &str, plies: usize) -> String {
        let mut out = String::from(
            "# poolshark's opening explorer games (docs/BOARD.md, \"Opening explorer\"): a line a\n\
             # game, its result, then its first moves in Hub notation.\n",
        );
        out.push_str(&format!("{ABOUT}{}\n", about.trim()));
        for (result, moves) in games {
            out.push_str(result.pdn());
            for mv in moves.iter().take(plies.min(MAX_PLIES)) {
                out.push(' ');
                out.push_str(&mv.hub());
            }
            out.push('\n');
        }
        out
    }

    pub fn about(&self) -> &str {
        &self.about
    }

    /// How many games the set holds.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The moves the games played at `pos`, those legal there (a key collision can only
    /// drop moves).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, Tally)> {
        let legal = movegen::legal_moves(pos);
        self.at
            .get(&pos.key())
            .map(|v| {
                v.iter()
                    .filter(|(m, _)| legal.contains(m))
                    .copied()
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A move of the explorer: its book score if the book has it, and the games' tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explored {
    pub mv: Move,
    /// The book's score, hundredths of a man for the side to move; None off the book.
    pub score: Option<i16>,
    pub tally: Tally,
}

/// The explorer's moves at `pos`: every move of the book or of the games, the book's best
/// first (by score), then the games' most played.
pub fn explore(book: &Book, games: &GameSet, pos: &Position) -> Vec<Explored> {
    let mut out: Vec<Explored> = book
        .moves(pos)
        .into_iter()
        .map(|BookMove { mv, score }| Explored {
            mv,
            score: Some(score),
            tally: Tally::default(),
        })
        .collect();
    for (mv, tally) in games.moves(pos) {
        match out.iter_mut().find(|e| e.mv == mv) {
            Some(e) => e.tally = tally,
            None => out.push(Explored {
                mv,
                score: None,
                tally,
            }),
        }
    }
    out.sort_by_key(|e| {
        (
            e.score.is_none(),
            std::cmp::Reverse(e.score.unwrap_or(0)),
            std::cmp::Reverse(e.tally.games),
        )
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> GameSet {
        GameSet::parse(text).unwrap()
    }

    #[test]
    fn games_are_tallied_by_position_and_transpositions_meet() {
        let s = set(
            "# about: three\n0-1 11-15 23-19 8-11\n1-0 11-15 23-19 9-14\n1/2-1/2 11-15 22-18\n",
        );
        assert_eq!((s.len(), s.about()), (3, "three"));
        let start = s.moves(&Position::start());
        assert_eq!(start.len(), 1);
        assert_eq!(start[0].0.hub(), "11-15");
        let t = start[0].1;
        assert_eq!((t.games, t.black, t.draws, t.white), (3, 1, 1, 1));
        let after =
            Position::start().play(&notation::parse_move(&Position::start(), "11-15").unwrap());
        let replies: Vec<(String, u32)> = s
            .moves(&after)
            .iter()
            .map(|(m, t)| (m.hub(), t.games))
            .collect();
        assert_eq!(replies, [("23-19".into(), 2), ("22-18".into(), 1)]);
        // 11-15 23-19 9-14 and 9-14 23-19 11-15 reach one position.
        let t = set("0-1 11-15 23-19 9-14 22-17\n1-0 9-14 23-19 11-15 22-17\n");
        let mut pos = Position::start();
        for m in ["9-14", "23-19", "11-15"] {
            pos = pos.play(&notation::parse_move(&pos, m).unwrap());
        }
        let moves = t.moves(&pos);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].1.games, 2);
    }

    #[test]
    fn a_bad_line_is_refused_by_its_number() {
        for (text, line, why) in [
            ("0-1 11-15\n2-0 9-13\n", 2, "'2-0' is not a result"),
            ("0-1 11-15 11-15\n", 1, "move 2 '11-15'"),
            ("# c\n\n1-0 11-15 23-19 15-24\n", 3, "move 3 '15-24'"),
        ] {
            let e = GameSet::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text}");
            assert!(e.why.contains(why), "{e}");
        }
        let long = format!("* {}", "11-15 23-19 ".repeat(13));
        assert!(GameSet::parse(&long).is_err());
    }

    #[test]
    fn written_games_read_back() {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            let mv = notation::parse_move(&pos, m).unwrap();
            moves.push(mv);
            pos = pos.play(&mv);
        }
        let text = GameSet::write(
            &[(Outcome::Draw, moves.clone()), (Outcome::Black, moves)],
            "two",
            3,
        );
        let s = set(&text);
        assert_eq!((s.len(), s.about()), (2, "two"));
        assert!(text.contains("1/2-1/2 11-15 23-19 8-11\n"), "{text}");
    }

    /// The shipped set reads, and the explorer at the start lists the book's moves, each
    /// legal, with a score, and the games' moves.
    #[test]
    fn the_shipped_set_and_the_book_at_the_start() {
        let games = GameSet::builtin();
        assert!(games.len() >= 100, "{} games", games.len());
        assert!(!games.about().is_empty());
        let book = Book::builtin().unwrap();
        let start = Position::start();
        let moves = explore(&book, games, &start);
        let legal = movegen::legal_moves(&start);
        assert!(moves.iter().all(|e| legal.contains(&e.mv)));
        let booked: Vec<_> = moves.iter().filter(|e| e.score.is_some()).collect();
        assert_eq!(booked.len(), book.moves(&start).len());
        assert!(!booked.is_empty());
        let played: u32 = moves.iter().map(|e| e.tally.games).sum();
        assert_eq!(played as usize, games.len(), "every game has a first move");
        // Best book move first.
        let scores: Vec<i16> = booked.iter().map(|e| e.score.unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    }
}
