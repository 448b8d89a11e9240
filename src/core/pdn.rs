//! PDN games, rules notation: writing finished games (GameType 23, American pool checkers)
//! and reading them back. The match runner's own tags (pairs, forfeits) are `arena::tags`'s.
//! Moves are written in PDN notation with their landing squares, so any PDN reader can
//! follow them; the reader replays every move with the rules core, so a file that reads back
//! is a file of legal games. A match writes the time each move took as a comment after it,
//! `{time 0.102s}`, which readers that skip comments pass over; a review (`review`) adds a
//! mark glued to a move (`11-16??`) and a comment of its own (`MoveNote`), which the reader
//! passes over in the same way.

pub mod error;
mod lexer;
mod movetext;
pub mod notes;
pub mod reader;
pub mod writer;

use crate::core::game::GameResult;
use crate::core::notation::{self, NotationError};
use crate::core::{Color, Game, Move, Position};
use std::fmt;
use std::time::Duration;

/// A game for PDN: its tags (in order) and moves from the start position in the `FEN` tag.
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

    /// PDN text of the game, tags then movetext wrapped at 80 columns, then a blank line.
    pub fn write(&self) -> String {
        self.write_with_notes(&[])
    }

    /// `write`, with `notes[i]` after move `i` (a move past the end of `notes` has none):
    /// its mark glued to the move, then its comment, before the move's time.
    pub fn write_with_notes(&self, notes: &[MoveNote]) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            out.push_str(&format!("[{k} \"{}\"]\n", v.replace(['"', '\\'], "'")));
        }
        let mut tokens = Vec::new();
        let mut pos = self.start;
        for (i, mv) in self.moves.iter().enumerate() {
            // Black moves first: a move number before each Black move; `N...` when a game
            // starts with White to move.
            // Moves are numbered in pairs from the first move of the game, whichever side
            // makes it (so a game from a FEN with White to move reads `1. w b 2. w b`, which
            // readers that pair moves from the FEN's side, such as pydraughts, follow). A
            // number goes with the move after it, so a line never ends on a number.
            let note = notes.get(i);
            let mut text = notation::pdn_move(&pos, mv);
            text.push_str(note.map_or("", |n| n.mark));
            if i % 2 == 0 {
                tokens.push(format!("{}. {text}", i / 2 + 1));
            } else {
                tokens.push(text);
            }
            if let Some(n) = note.filter(|n| !n.comment.is_empty()) {
                // A brace would end the comment early (or open one nobody closes).
                tokens.push(format!("{{{}}}", n.comment.replace(['{', '}'], "")));
            }
            if let Some(t) = self.times.get(i) {
                tokens.push(time_comment(*t));
            }
            pos = pos.play(mv);
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

/// What a review writes with one move: a mark glued to it (`?!`, `?`, `??` or none) and a
/// comment after it (none when empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    pub mark: &'static str,
    pub comment: String,
}

/// What is wrong with PDN text.
#[derive(Debug, Clone, PartialEq)]
pub enum PdnError {
    BadTag {
        game: usize,
        line: String,
    },
    BadFen {
        game: usize,
        error: NotationError,
    },
    BadMove {
        game: usize,
        ply: usize,
        text: String,
        error: NotationError,
    },
    Unterminated {
        game: usize,
        what: &'static str,
    },
    /// A game's movetext longer than `MAX_MOVETEXT`.
    TooLong {
        game: usize,
    },
    /// The `Result` tag and the result at the end of the movetext disagree.
    ResultMismatch {
        game: usize,
        tag: String,
        movetext: String,
    },
    /// A move after the rules ended the game (a win, or a draw by R17-R19: a game ends at
    /// the third repetition, and the moves after it are not part of it).
    AfterEnd {
        game: usize,
        ply: usize,
        text: String,
        end: GameResult,
    },
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::BadTag { game, line } => write!(f, "game {game}: bad tag line '{line}'"),
            PdnError::BadFen { game, error } => write!(f, "game {game}: bad FEN tag: {error}"),
            PdnError::BadMove {
                game,
                ply,
                text,
                error,
            } => {
                write!(f, "game {game}: move {ply} '{text}': {error}")
            }
            PdnError::Unterminated { game, what } => write!(f, "game {game}: unterminated {what}"),
            PdnError::TooLong { game } => write!(
                f,
                "game {game}: movetext longer than {MAX_MOVETEXT} bytes (no result to end it?)"
            ),
            PdnError::ResultMismatch {
                game,
                tag,
                movetext,
            } => write!(
                f,
                "game {game}: the Result tag says '{tag}' but the movetext ends '{movetext}'"
            ),
            PdnError::AfterEnd {
                game,
                ply,
                text,
                end,
            } => write!(
                f,
                "game {game}: move {ply} '{text}' after the game ended ({end})"
            ),
        }
    }
}

impl std::error::Error for PdnError {}

/// Today's date as PDN's `Date` tag writes it (`YYYY.MM.DD`, UTC).
pub fn pdn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
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

/// A move's time as a comment: `{time 0.102s}` (milliseconds).
pub fn time_comment(t: Duration) -> String {
    format!("{{time {:.3}s}}", t.as_secs_f64())
}

/// The time in a `time 0.102s` comment (without its braces), if it is one.
fn parse_time_comment(text: &str) -> Option<Duration> {
    let seconds = text
        .trim()
        .strip_prefix("time ")?
        .trim()
        .strip_suffix('s')?;
    let v: f64 = seconds.parse().ok()?;
    (0.0..1e9).contains(&v).then(|| Duration::from_secs_f64(v))
}

fn is_result(t: &str) -> bool {
    matches!(
        t,
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "*" | "0-0"
    )
}

/// The longest movetext of one game that is read (about 100,000 moves): the reader holds
/// one game at a time, and this bounds it.
pub const MAX_MOVETEXT: usize = 1 << 20;

/// Read every game of a PDN text (see `Reader`).
pub fn read(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut reader = Reader::default();
    let mut games = Vec::new();
    for line in text.lines() {
        games.extend(reader.line(line)?);
    }
    games.extend(reader.finish()?);
    Ok(games)
}

/// Reads games line by line, holding one game at a time, so that a file of a million games
/// needs the memory of one. Tags are `[Name "value"]`; the movetext may hold move numbers,
/// comments in braces, variations in parentheses (skipped) and a result. A UTF-8 byte order
/// mark before the first line is skipped. A game whose `Result` tag and movetext result
/// disagree is an error (which of them is true cannot be told), and so is a move after the
/// rules ended the game.
#[derive(Default)]
pub struct Reader {
    tags: Vec<(String, String)>,
    movetext: String,
    /// Games read so far.
    games: usize,
    started: bool,
}

impl Reader {
    /// Take the next line (without its line break): the game it ends, if it ends one.
    pub fn line(&mut self, line: &str) -> Result<Option<PdnGame>, PdnError> {
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        let l = line.trim();
        if l.starts_with('[') {
            let done = if self.movetext.trim().is_empty() {
                None
            } else {
                self.flush()?
            };
            let inner = l.strip_prefix('[').and_then(|s| s.strip_suffix(']'));
            let parsed = inner.and_then(|s| {
                let (name, rest) = s.trim().split_once(char::is_whitespace)?;
                let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
                Some((name.to_string(), value.to_string()))
            });
            match parsed {
                Some(t) => self.tags.push(t),
                None => {
                    return Err(PdnError::BadTag {
                        game: self.games + 1,
                        line: l.to_string(),
                    })
                }
            }
            Ok(done)
        } else {
            if self.movetext.len() + line.len() > MAX_MOVETEXT {
                return Err(PdnError::TooLong {
                    game: self.games + 1,
                });
            }
            self.movetext.push_str(line);
            self.movetext.push('\n');
            if l.split_whitespace().last().is_some_and(is_result) {
                self.flush()
            } else {
                Ok(None)
            }
        }
    }

    /// The text has ended: the game still open, if any.
    pub fn finish(&mut self) -> Result<Option<PdnGame>, PdnError> {
        self.flush()
    }

    fn flush(&mut self) -> Result<Option<PdnGame>, PdnError> {
        if self.tags.is_empty() && self.movetext.trim().is_empty() {
            return Ok(None);
        }
        let n = self.games + 1;
        let tags = std::mem::take(&mut self.tags);
        let movetext = std::mem::take(&mut self.movetext);
        self.games += 1;
        let start = match tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
            Some((_, fen)) => {
                notation::parse_fen(fen).map_err(|error| PdnError::BadFen { game: n, error })?
            }
            None => Position::start(),
        };
        let (moves, times, result) = parse_movetext(n, start, &movetext)?;
        let tag = tags
            .iter()
            .find(|(k, _)| k == "Result")
            .map(|(_, v)| v.clone());
        let result = match (result, tag) {
            (Some(m), Some(t)) if m != t => {
                return Err(PdnError::ResultMismatch {
                    game: n,
                    tag: t,
                    movetext: m,
                })
            }
            (Some(r), _) | (None, Some(r)) => r,
            (None, None) => "*".into(),
        };
        Ok(Some(PdnGame {
            tags,
            start,
            moves,
            times,
            result,
        }))
    }
}

/// The moves of a movetext, the time of each (when every move has one) and its result.
type Movetext = (Vec<Move>, Vec<Duration>, Option<String>);

fn parse_movetext(game: usize, start: Position, text: &str) -> Result<Movetext, PdnError> {
    // Drop comments and variations first; a `{time ...}` comment outside a variation stays
    // as a `{N}` token, N its index in `times`.
    let mut clean = String::new();
    let (mut brace, mut paren) = (false, 0usize);
    let mut comment = String::new();
    let mut comment_times = Vec::new();
    for c in text.chars() {
        match c {
            '{' if !brace => {
                brace = true;
                comment.clear();
            }
            '}' if brace => {
                brace = false;
                if paren == 0 {
                    if let Some(t) = parse_time_comment(&comment) {
                        clean.push_str(&format!(" {{{}}} ", comment_times.len()));
                        comment_times.push(t);
                    }
                }
            }
            _ if brace => comment.push(c),
            '(' if !brace => paren += 1,
            ')' if !brace && paren > 0 => paren -= 1,
            _ if brace || paren > 0 => {}
            _ => clean.push(c),
        }
    }
    if brace {
        return Err(PdnError::Unterminated {
            game,
            what: "comment",
        });
    }
    if paren > 0 {
        return Err(PdnError::Unterminated {
            game,
            what: "variation",
        });
    }
    let mut played = Game::new(start);
    let mut moves = Vec::new();
    let mut times: Vec<Option<Duration>> = Vec::new();
    let mut result = None;
    for token in clean.split_whitespace() {
        if let Some(k) = token.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            if let (Some(slot), Ok(k)) = (times.last_mut(), k.parse::<usize>()) {
                *slot = comment_times.get(k).copied();
            }
            continue;
        }
        if is_result(token) {
            result = Some(token.to_string());
            continue;
        }
        // Move numbers: "12." or "12..." possibly glued to the move ("12.11-15").
        let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let t = if t.len() < token.len() && t.starts_with('.') {
            t.trim_start_matches('.')
        } else {
            token
        };
        let t = t.trim_end_matches(['!', '?', '*']);
        if t.is_empty() {
            continue;
        }
        let end = played.result();
        if end != GameResult::Ongoing {
            return Err(PdnError::AfterEnd {
                game,
                ply: moves.len() + 1,
                text: t.to_string(),
                end,
            });
        }
        let mv =
            notation::parse_pdn_move(played.position(), t).map_err(|error| PdnError::BadMove {
                game,
                ply: moves.len() + 1,
                text: t.to_string(),
                error,
            })?;
        played.play(&mv);
        moves.push(mv);
        times.push(None);
    }
    let times = times
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default();
    Ok((moves, times, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;

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
        assert!(
            flat.contains(" 8-11?? {a brace 1-0} {time 0.005s} 22-17? {time 0.005s}"),
            "{text}"
        );
        assert_eq!(read(&text).unwrap(), vec![game]);
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
            "game 2: the Result tag says '0-1' but the movetext ends '1-0'"
        );
        // Either alone gives the result.
        assert_eq!(read("[Result \"0-1\"]\n1. 11-15").unwrap()[0].result, "0-1");
        let mut r = Reader::default();
        let long = "1. 11-15 ".repeat(MAX_MOVETEXT / 9 + 1);
        assert!(matches!(r.line(&long), Err(PdnError::TooLong { game: 1 })));
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
        assert!(matches!(e, PdnError::AfterEnd { ply: 9, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "game 1: move 9 '3-7' after the game ended (draw by threefold repetition)"
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(
            read("[Event x]\n1. 11-15 *"),
            Err(PdnError::BadTag { .. })
        ));
        assert!(matches!(
            read("[FEN \"Q:W1\"]\n1. 11-15 *"),
            Err(PdnError::BadFen { .. })
        ));
        assert!(matches!(
            read("1. 11-17 *"),
            Err(PdnError::BadMove { ply: 1, .. })
        ));
        assert!(matches!(
            read("1. 11-15 {oops *"),
            Err(PdnError::Unterminated { .. })
        ));
    }
}
