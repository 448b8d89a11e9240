//! PDN games (PDN 3.0), rules notation: reading and writing whole game trees (`tree`), with
//! their tags, variations, comments, marks and NAGs, scores and clocks; the match runner's
//! games (GameType 23, American pool checkers) as their main line. The match runner's own
//! tags (pairs, forfeits) are `arena::tags`'s.
//!
//! One reader (`reader`, on `lexer`, calling a `visitor`: `movetext`'s tree builder, or
//! tags alone) and one writer (`writer`) serve every use: `games` is the one iterator of
//! games, streaming, each with how it ended (`Ending`); `PdnGame` is a game's main line,
//! read from the tree and written as one. Moves are written in PDN notation with their
//! landing squares, so any PDN reader can follow them; the reader replays every move with the
//! rules core, so a file that reads back is a file of legal games. A match writes the time
//! each move took as a comment after it, `{time 0.102s}`; a review (`review`) adds a mark
//! glued to a move (`11-16??`) and a comment of its own (`MoveNote`) with the score,
//! `[%eval -1.05]`.

pub mod error;
mod lexer;
mod movetext;
pub mod notes;
mod reader;
pub mod visitor;
pub mod writer;

pub use error::{move_number, ErrorKind, PdnError, Spot};
pub use movetext::TreeBuilder;
pub use notes::time_comment;
pub(crate) use reader::read_trees;
pub use reader::{games, games_in, Cut, Ending, FaultAt, Games, TreeGame};
pub use visitor::{GameEnd, GameTags, Only, Tags, Visit, Visitor};

use crate::core::tree::{self, GameTree};
use crate::core::{Color, Game, Move, Position};
use std::time::Duration;

/// A game's main line for PDN: its tags (in order) and moves from the start position in the
/// `FEN` tag.
#[derive(Clone, Debug, PartialEq)]
pub struct PdnGame {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// The time each move took (written as `{time 0.102s}` after it): one per move, or
    /// empty when not known. Read back only when every move has one.
    pub times: Vec<Duration>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, from White's point of view as PDN writes it... see
    /// `result_text`.
    pub result: String,
}

/// The PDN result text: White's score first. Black moves first in checkers, but PDN keeps
/// the White-first order of the tags' roster.
pub fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

impl PdnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game replayed: positions, counts and the result the rules give.
    pub fn replay(&self) -> Game {
        let mut g = Game::new(self.start);
        for mv in &self.moves {
            g.play(mv);
        }
        g
    }

    /// The game as a tree of one line, each move with its time. The line stops before a
    /// move that cannot be played there (never, for a game read or played by the rules).
    pub fn tree(&self) -> TreeGame {
        let mut tree = GameTree::new(self.start);
        let mut at = tree.root();
        for (i, mv) in self.moves.iter().enumerate() {
            let Ok(next) = tree.play(at, *mv) else { break };
            at = next;
            tree.notes_mut(at).expect("just played").time = self.times.get(i).copied();
        }
        TreeGame {
            tags: self.tags.clone(),
            tree,
            result: self.result.clone(),
            cut: None,
        }
    }

    /// PDN text of the game, tags then movetext wrapped at 80 columns, then a blank line.
    pub fn write(&self) -> String {
        self.tree().write()
    }

    /// `write`, with `notes[i]` after move `i` (see `TreeGame::write_with_notes`).
    pub fn write_with_notes(&self, notes: &[MoveNote]) -> String {
        self.tree().write_with_notes(notes)
    }
}

impl TreeGame {
    /// PDN text of the game (`writer`).
    pub fn write(&self) -> String {
        writer::write(&self.tags, &self.tree, &self.result)
    }

    /// `write`, with a review's `notes[i]` on the main line's move `i` (a move past the end
    /// of `notes` has none): its mark (if any) goes where the move has no mark of its own
    /// (`notes::add_review_mark`: the file's marks stay), the first `[%eval]` of its comment
    /// replaces the move's score, and the rest of its comment goes before the move's own.
    /// Variations and every other note stay as they were.
    pub fn write_with_notes(&self, notes: &[MoveNote]) -> String {
        let mut tree = self.tree.clone();
        for (&id, note) in tree.main_line()[1..].iter().zip(notes) {
            let n = tree.notes_mut(id).expect("a live node");
            let mut review = tree::Notes::default();
            notes::add_comment(&mut review, &note.comment);
            if let Some(nag) = notes::mark_nag(note.mark) {
                notes::add_review_mark(n, nag);
            }
            if review.eval.is_some() {
                n.eval = review.eval;
            }
            notes::join(&mut review.comment, &n.comment);
            n.comment = review.comment;
        }
        writer::write(&self.tags, &tree, &self.result)
    }
}

impl From<TreeGame> for PdnGame {
    /// The main line of a game read as a tree.
    fn from(g: TreeGame) -> PdnGame {
        let line = g.tree.main_line();
        let node = |&id: &_| g.tree.node(id).expect("a live node");
        let times = line[1..]
            .iter()
            .map(|id| node(id).notes.time)
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        PdnGame {
            start: g.tree.start(),
            moves: g.tree.main_moves(),
            times,
            tags: g.tags,
            result: g.result,
        }
    }
}

/// What a review writes with one move: a mark glued to it (`?!`, `?`, `??` or none) and a
/// comment after it (none when empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    pub mark: &'static str,
    pub comment: String,
}

/// Today's date as PDN's `Date` tag writes it (`YYYY.MM.DD`, UTC).
pub fn pdn_date() -> String {
    let days = (crate::time_source::unix_time().as_secs() / 86_400) as i64;
    date_of_day(days)
}

/// The PDN date (`YYYY.MM.DD`) of a day counted from 1970-01-01, by the civil-from-days
/// algorithm (Howard Hinnant's).
pub fn date_of_day(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The longest text of one game that is read: the reader holds one game at a time, and this
/// bounds it (4 MiB: the largest game a board saves, `board::protocol::MAX_SAVED_PDN`, with
/// a megabyte of comments in it, reads back; more moves than a tree holds are refused as
/// such, `ErrorKind::TooManyMoves`).
pub const MAX_MOVETEXT: usize = 4 << 20;

/// The deepest variations are read nested, each inside the one before: far deeper than any
/// annotator nests them, and as deep as a board's tree can make them (two moves a level:
/// `board::session::MAX_MOVES` nest half as deep). A deeper one is an error, so that a
/// hostile text of nested parentheses is refused at once.
pub const MAX_NESTING: usize = 2000;

/// Read every game of a PDN text, each as its main line (see `read_trees`).
pub fn read(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    Ok(read_trees(text)?.into_iter().map(PdnGame::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37, defect 11: tags and moves on one line read as on separate lines.
    #[test]
    fn tags_and_moves_on_one_line() {
        let one = read("[Event \"x\"] [Result \"*\"] 1. 11-15 23-19 *\n").unwrap();
        let many = read("[Event \"x\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n").unwrap();
        assert_eq!(one, many);
        assert_eq!(one[0].moves.len(), 2);
        assert_eq!(one[0].tag("Event"), Some("x"));
        // A `]` in a tag's value does not end it; an unclosed tag is still an error.
        let g = read("[Event \"a]b\"] 1. 11-15 *\n").unwrap();
        assert_eq!(g[0].tag("Event"), Some("a]b"));
        assert!(read("[Event \"x\" 1. 11-15 *\n").is_err());
    }

    use crate::core::game::GameResult;
    use crate::core::movegen::legal_moves;
    use crate::core::notation;

    #[test]
    fn dates_of_days() {
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(59), "1970.03.01");
        assert_eq!(date_of_day(11_016), "2000.02.29");
        assert_eq!(date_of_day(19_782), "2024.02.29");
        assert_eq!(date_of_day(-1), "1969.12.31");
        let today = pdn_date();
        assert_eq!(today.len(), 10);
        assert!(today.as_str() >= "2024.01.01", "{today}");
    }

    #[test]
    fn round_trip_of_random_games() {
        let mut rng = crate::core::rng::SplitMix64::new(5);
        let mut text = String::new();
        let mut written = Vec::new();
        for g in 0..10 {
            let start = if g % 2 == 0 {
                Position::start()
            } else {
                notation::parse_fen("W:W21-32:B1-8,10,11,12,14").unwrap()
            };
            // Played to the rules' end at most: moves after it do not read back.
            let mut played = Game::new(start);
            let mut moves = Vec::new();
            for _ in 0..120 {
                if played.result() != GameResult::Ongoing {
                    break;
                }
                let legal = legal_moves(played.position());
                let mv = *rng.pick(legal.as_slice());
                played.play(&mv);
                moves.push(mv);
            }
            let tags = vec![
                ("Event".to_string(), "test".to_string()),
                ("Round".into(), (g + 1).to_string()),
                ("GameType".into(), "23".into()),
                ("FEN".into(), notation::write_fen(&start)),
            ];
            // Every other game carries move times, which read back.
            let times = if g % 2 == 0 {
                (0..moves.len() as u64)
                    .map(|k| Duration::from_millis(k * 37 % 5000))
                    .collect()
            } else {
                Vec::new()
            };
            let game = PdnGame {
                tags,
                start,
                moves,
                times,
                result: "*".into(),
            };
            text.push_str(&game.write());
            written.push(game);
        }
        let read_back = read(&text).unwrap();
        assert_eq!(read_back, written);
    }

    #[test]
    fn marks_and_comments_read_back() {
        let start = Position::start();
        let mut g = Game::new(start);
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            g.play_text(m).unwrap();
        }
        let game = PdnGame {
            tags: vec![("Result".into(), "*".into())],
            start,
            moves: g.moves().to_vec(),
            times: vec![Duration::from_millis(5); 4],
            result: "*".into(),
        };
        let note = |mark, comment: &str| MoveNote {
            mark,
            comment: comment.into(),
        };
        let notes = [
            note("", "[%eval 0.05]"),
            note("?!", "[%eval 0.40] best 24-19 [%eval 0.02]"),
            note("??", "a {brace} 1-0"),
            note("?", ""),
        ];
        let text = game.write_with_notes(&notes);
        // (Lines wrap at 80 columns, between tokens.)
        let flat = text.replace('\n', " ");
        assert!(
            flat.contains("1. 11-15 {[%eval 0.05]} {time 0.005s} 23-19?! {[%eval 0.40]"),
            "{text}"
        );
        // A comment with a `}` goes after `;`, to the end of its line.
        assert!(
            text.contains(" 8-11?? ; a {brace} 1-0\n{time 0.005s} 22-17? {time 0.005s}"),
            "{text}"
        );
        assert_eq!(read(&text).unwrap(), vec![game]);
    }

    #[test]
    fn a_review_keeps_the_marks_a_game_came_with() {
        let games = read_trees("1. 11-15?? 23-19 2. 8-11 $4 22-17 *").unwrap();
        let note = MoveNote {
            mark: "?!",
            comment: "[%eval 0.40]".into(),
        };
        let text = games[0].write_with_notes(&vec![note; 4]);
        let flat = text.replace('\n', " ");
        for kept in ["11-15?? {", "23-19?! {", "8-11?? {", "22-17?! {"] {
            assert!(flat.contains(kept), "{kept}: {text}");
        }
    }

    #[test]
    fn reads_comments_variations_and_numbers() {
        let text = "[Event \"x\"]\n[GameType \"23\"]\n\n1. 11-15 {a comment} 23-19 2.9-14 (2. 8-11 22-17) 22-17 1/2-1/2\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].result, "1/2-1/2");
        // Times only when every move has one.
        assert!(games[0].times.is_empty());
        let timed = read("1. 11-15 {time 0.250s} 23-19 {time 1.5s} 1/2-1/2").unwrap();
        assert_eq!(
            timed[0].times,
            vec![Duration::from_millis(250), Duration::from_millis(1500)]
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_results_must_agree() {
        let games = read("\u{feff}[Result \"1-0\"]\n1. 11-15 1-0\n").unwrap();
        assert_eq!((games.len(), games[0].result.as_str()), (1, "1-0"));
        assert_eq!(read("\u{feff}1. 11-15 *").unwrap()[0].moves.len(), 1);
        // Only the first line's: elsewhere it is not PDN.
        assert!(read("1. 11-15 *\n\u{feff}[Event \"x\"]\n*").is_err());
        let e = read("[Event \"a\"]\n1. 11-15 *\n[Result \"0-1\"]\n1. 11-15 1-0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 2, line 4, column 10: the Result tag says '0-1' but the movetext ends '1-0'"
        );
        // Either alone gives the result.
        assert_eq!(read("[Result \"0-1\"]\n1. 11-15").unwrap()[0].result, "0-1");
        let long = "1. 11-15 ".repeat(MAX_MOVETEXT / 9 + 1);
        let e = read(&long).unwrap_err();
        assert_eq!((e.game, e.kind), (1, ErrorKind::TooLong));
    }

    /// A game ends at the third repetition (R17): the moves up to it read, one more does not.
    #[test]
    fn moves_after_the_end_of_the_game_are_an_error() {
        let shuffle = "[FEN \"B:WK30:BK3\"]\n1. 3-7 30-26 2. 7-3 26-30 3. 3-7 30-26 4. 7-3 26-30";
        let games = read(&format!("{shuffle} 1/2-1/2")).unwrap();
        assert_eq!(games[0].moves.len(), 8);
        assert_eq!(
            games[0].replay().result(),
            GameResult::Draw(crate::core::game::DrawReason::Repetition)
        );
        let e = read(&format!("{shuffle} 5. 3-7 1/2-1/2")).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::AfterEnd { ply: 9, .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "game 1, line 2, column 56: move 5. '3-7' (ply 9) after the game ended (draw by threefold repetition)"
        );
    }

    #[test]
    fn errors() {
        let kind = |text: &str| read(text).unwrap_err().kind;
        assert!(matches!(
            kind("[Event x]\n1. 11-15 *"),
            ErrorKind::BadTag(_)
        ));
        assert!(matches!(
            kind("[FEN \"Q:W1\"]\n1. 11-15 *"),
            ErrorKind::BadFen(_)
        ));
        assert!(matches!(
            kind("1. 11-17 *"),
            ErrorKind::BadMove { ply: 1, .. }
        ));
        assert_eq!(kind("1. 11-15 {oops *"), ErrorKind::Unterminated("comment"));
    }

    /// What a tree keeps and a `PdnGame` does not: variations, comments and marks beside
    /// its main line, which `read` passes over and `read_trees` keeps.
    #[test]
    fn the_main_line_of_a_tree() {
        let text = "[Event \"x\"]\n{start} 1. 11-15 {time 0.1s} (1. 9-14 {time 0.2s}) 23-19?! {time 0.3s} *";
        let game = &read(text).unwrap()[0];
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.times, [100, 300].map(Duration::from_millis));
        let tree = &read_trees(text).unwrap()[0].tree;
        assert_eq!(
            (tree.len(), tree.main_moves(), &game.start),
            (4, game.moves.clone(), &tree.start())
        );
        // Written again from the main line: the marks given, the rest gone.
        let note = MoveNote {
            mark: "?!",
            comment: "[%eval 0.40] best 22-18".into(),
        };
        let again = game.write_with_notes(&[MoveNote::default(), note]);
        assert_eq!(
            again,
            "[Event \"x\"]\n1. 11-15 {time 0.100s} 23-19?! {[%eval 0.40] best 22-18} {time 0.300s} *\n\n"
        );
    }
}
