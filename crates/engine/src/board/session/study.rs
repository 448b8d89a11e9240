//! A study: the board's games as chapters, in order, one of them shown (issue 69, item 1).
//! The chapter shown is the session's `cursor` and `record`; the others wait here as they
//! were left (their tree, the node shown, a review and notes), each with the tags and result
//! it saves frozen (`Chapter`), so that what it writes no longer follows the board's players
//! or clock. A lone game is a study of one chapter.
//!
//! Together the chapters keep within one game's bounds: `MAX_MOVES` moves, `MAX_PLIES`
//! main-line moves (a review's room is kept for each), `size::WORDS` of words and
//! `annotate::MAX_COMMENTS` of comments, and at most `MAX_CHAPTERS` chapters. The chapter
//! shown gets the room the others leave (`Room`), and its words are checked with theirs
//! (`Session::check_size`), so that a study saves within `protocol::MAX_SAVED_PDN` and that
//! text loads back as the same study.

use super::cursor::{Cursor, Room};
use super::pdn_io::{self, board_tags};
use super::record::Record;
use super::timed::TimedGame;
use super::{annotate, size, Done, Session, SessionError, MAX_MOVES, MAX_PLIES};
use crate::board::protocol::{ChapterInfo, ClockResume, PartialLoad, Player};
use crate::core::{notation, Position};
use std::collections::BTreeMap;
use std::fmt;

/// The most chapters a study holds (as many as a lichess study).
pub const MAX_CHAPTERS: usize = 64;

/// The tag a chapter's own name is saved in (as lichess writes a study's chapters).
pub const NAME_TAG: &str = "ChapterName";

/// Why a study's request was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum StudyError {
    /// Chapter `index` (from 1) of a study of `count`.
    NoChapter { index: usize, count: usize },
    /// Deleting the one chapter left.
    LastChapter,
    /// A study past `MAX_CHAPTERS`.
    TooManyChapters(usize),
    /// The chapters' comments together past `annotate::MAX_COMMENTS`.
    Comments(usize),
    /// A name that cannot stand in a tag (why).
    BadName(&'static str),
    /// `chapter_add` with both a FEN and a PDN.
    AddShape,
    /// The chapters' moves together past `MAX_MOVES`.
    Moves(usize),
}

impl fmt::Display for StudyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StudyError::NoChapter { index, count } => write!(
                f,
                "no chapter {index}: the study has {count} chapter{} (from 1)",
                if *count == 1 { "" } else { "s" }
            ),
            StudyError::LastChapter => {
                f.write_str("a study keeps one chapter at least: this is its last")
            }
            StudyError::TooManyChapters(n) => write!(
                f,
                "a study holds at most {MAX_CHAPTERS} chapters; this would make {n}"
            ),
            StudyError::Comments(n) => write!(
                f,
                "the study's comments would take {n} bytes together; a board keeps {}: \
                 shorten some",
                annotate::MAX_COMMENTS
            ),
            StudyError::BadName(why) => write!(f, "chapter name: {why}"),
            StudyError::Moves(n) => write!(
                f,
                "the study's chapters would hold {n} moves together, variations counted; a \
                 board keeps at most {MAX_MOVES}"
            ),
            StudyError::AddShape => {
                f.write_str("chapter_add takes a fen or a pdn, or neither (the position shown)")
            }
        }
    }
}

/// What a chapter takes of the study's bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Used {
    pub moves: usize,
    pub main_plies: usize,
    /// What its words take saved (`size::words_bytes`).
    pub words: usize,
    /// Its comments, in bytes.
    pub comments: usize,
}

impl Used {
    fn plus(self, o: Used) -> Used {
        Used {
            moves: self.moves + o.moves,
            main_plies: self.main_plies + o.main_plies,
            words: self.words + o.words,
            comments: self.comments + o.comments,
        }
    }
}

/// A chapter not shown: its game as it was left, with the tags and result it saves.
#[derive(Clone)]
pub(super) struct Chapter {
    cursor: Cursor,
    record: Record,
    used: Used,
}

impl Chapter {
    /// `cursor`'s game with `record`, a loaded game's or one frozen (`Record::loaded`).
    fn new(cursor: Cursor, record: Record) -> Chapter {
        let mut c = Chapter {
            cursor,
            record,
            used: Used::default(),
        };
        c.used = used(&c.cursor, c.tags(), false, false);
        c
    }

    /// The result it saves: the one frozen with it while its main line ends there (always,
    /// as it waits; `*` otherwise).
    fn result(&self) -> String {
        let end = self.cursor.main_end();
        self.record.result_at(end).unwrap_or("*").to_string()
    }

    /// The tags it saves, in PDN's order.
    fn tags(&self) -> Vec<(String, String)> {
        let tags = self.record.tags(&self.result(), Vec::new);
        crate::core::pdn::writer::ordered_tags(&tags)
            .into_iter()
            .cloned()
            .collect()
    }

    fn text(&self) -> String {
        pdn_io::game_text(&self.tags(), self.cursor.tree(), &self.result())
    }
}

/// What a game takes of the study's bounds: `cursor`'s tree with `tags` (see
/// `size::words_bytes` for `begun_here` and `timed`).
fn used(cursor: &Cursor, tags: Vec<(String, String)>, begun_here: bool, timed: bool) -> Used {
    let tree = cursor.tree();
    Used {
        moves: tree.len() - 1,
        main_plies: cursor.main_plies(),
        words: size::words_bytes(tags, begun_here, timed, tree),
        comments: annotate::comments(tree),
    }
}

/// The chapters in order: `None` where the chapter shown stands (the session's own).
#[derive(Clone)]
pub(super) struct Study {
    chapters: Vec<Option<Chapter>>,
}

impl Default for Study {
    /// A lone game.
    fn default() -> Study {
        Study {
            chapters: vec![None],
        }
    }
}

impl Study {
    pub fn len(&self) -> usize {
        self.chapters.len()
    }

    /// The chapter shown, from 0.
    pub fn shown(&self) -> usize {
        self.chapters
            .iter()
            .position(Option::is_none)
            .expect("one chapter is shown")
    }

    /// What the chapters not shown take together.
    pub fn others(&self) -> Used {
        self.chapters
            .iter()
            .flatten()
            .fold(Used::default(), |a, c| a.plus(c.used))
    }

    /// The room the chapters not shown leave the one shown.
    pub fn room(&self) -> Room {
        let o = self.others();
        Room {
            moves: MAX_MOVES.saturating_sub(o.moves),
            main_plies: MAX_PLIES.saturating_sub(o.main_plies),
        }
    }

    /// What a study of this many chapters writes beyond one game's room: a result and its
    /// line breaks for each chapter after the first.
    pub fn overhead(&self) -> usize {
        (self.len() - 1) * size::RESULT_BYTES
    }

    /// A chapter from 1, checked.
    fn index(&self, index: usize) -> Result<usize, StudyError> {
        match index {
            1.. if index <= self.len() => Ok(index - 1),
            _ => Err(StudyError::NoChapter {
                index,
                count: self.len(),
            }),
        }
    }
}

/// A chapter's name: its own (`NAME_TAG`), else its players' where both are named, else its
/// event, else `Chapter N` (`number` from 1). A game begun on the board (its event the
/// board's) is `Chapter N` too: its players are "Human" and "poolshark".
pub fn chapter_name(tags: &[(String, String)], number: usize) -> String {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty() && *v != "?")
    };
    if let Some(name) = tag(NAME_TAG) {
        return name.to_string();
    }
    if tag("Event") == Some(pdn_io::BOARD_EVENT) {
        return format!("Chapter {number}");
    }
    if let (Some(w), Some(b)) = (tag("White"), tag("Black")) {
        return format!("{w} - {b}");
    }
    match tag("Event") {
        Some(event) => event.to_string(),
        None => format!("Chapter {number}"),
    }
}

impl Session {
    /// The study's chapters as the state lists them, and the one shown (from 1).
    pub(super) fn chapters(&self) -> (Vec<ChapterInfo>, usize) {
        let list = self
            .study
            .chapters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (tags, plies, result) = match c {
                    Some(c) => (c.tags(), c.used.main_plies, c.result()),
                    None => (
                        self.tags_now(),
                        self.cursor.main_plies(),
                        self.result_text(),
                    ),
                };
                ChapterInfo {
                    name: chapter_name(&tags, i + 1),
                    plies,
                    result,
                }
            })
            .collect();
        (list, self.study.shown() + 1)
    }

    /// The whole study as PDN: every chapter in order, a blank line between them.
    pub(super) fn study_text(&self) -> String {
        let texts: Vec<String> = self
            .study
            .chapters
            .iter()
            .map(|c| match c {
                Some(c) => c.text(),
                None => self.game_text(),
            })
            .collect();
        texts.join("\n")
    }

    /// What the chapter shown takes of the study's bounds.
    fn used_here(&self) -> Used {
        let begun_here = self.record.loaded_tags().is_none();
        let timed = self.timed.clock().is_some();
        used(&self.cursor, self.tags_now(), begun_here, timed)
    }

    /// Refuse a study past its bounds: the chapter shown with the others.
    pub(super) fn check_study(&self) -> Result<(), SessionError> {
        let all = self.study.others().plus(self.used_here());
        if self.study.len() > MAX_CHAPTERS {
            return Err(StudyError::TooManyChapters(self.study.len()).into());
        }
        if all.moves > MAX_MOVES {
            return Err(StudyError::Moves(all.moves).into());
        }
        if all.main_plies > MAX_PLIES {
            return Err(SessionError::MainLinesFull);
        }
        if all.comments > annotate::MAX_COMMENTS {
            return Err(StudyError::Comments(all.comments).into());
        }
        self.check_size()
    }

    /// The chapter shown put away, its tags and result frozen as it saves them now.
    fn put_away(&mut self) -> Chapter {
        let record = Record::loaded(self.tags_now(), self.cursor.main_end(), self.result_text());
        let cursor = std::mem::replace(&mut self.cursor, Cursor::new(Position::start()));
        Chapter::new(cursor, record)
    }

    /// Show chapter `i` (from 0), the one shown put away: both sides human, untimed (a timed
    /// game's record is in its tags and moves), the cursor given the room the others leave.
    fn show_chapter(&mut self, i: usize) {
        let shown = self.study.shown();
        if i == shown {
            return;
        }
        let away = self.put_away();
        let next = self.study.chapters[i].take().expect("a chapter put away");
        self.study.chapters[shown] = Some(away);
        self.cursor = next.cursor;
        self.record = next.record;
        self.timed = TimedGame::new(self.timed.time_source());
        self.roster.set_players(Player::Human, Player::Human);
        self.cursor.set_room(self.study.room());
    }

    /// The session as it is, to go back to where a change to the study is refused.
    fn snapshot(&self) -> Session {
        Session {
            cursor: self.cursor.clone(),
            roster: self.roster,
            record: self.record.clone(),
            timed: self.timed.clone(),
            study: self.study.clone(),
        }
    }

    /// `chapter`: show chapter `index` (from 1) at the node it was left at; none while a
    /// timed game's clocks run.
    pub fn chapter(&mut self, index: usize) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let i = self.study.index(index)?;
        self.show_chapter(i);
        Ok(Done::Changed { auto: false })
    }

    /// `chapter_add`: new chapters after the last, the first of them shown: the position
    /// shown as a new game (no `fen` nor `pdn`), a FEN's, or every game of a PDN text. A
    /// `name` names the first. Refused whole, nothing changed, past the study's bounds.
    pub fn add_chapters(
        &mut self,
        fen: Option<&str>,
        pdn: Option<&str>,
        name: Option<&str>,
    ) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let name = name.map(checked_name).transpose()?;
        let number = self.study.len() + 1;
        let mut games = match (fen, pdn) {
            (Some(_), Some(_)) => return Err(StudyError::AddShape.into()),
            (None, Some(text)) => {
                let most = MAX_CHAPTERS + 1 - self.study.len();
                pdn_io::read_all(text, 1, None, false, false, most)?
                    .into_iter()
                    .map(pdn_io::placed)
                    .collect::<Result<Vec<_>, _>>()?
            }
            (fen, None) => {
                let start = match fen {
                    Some(f) => notation::parse_fen(f)
                        .map_err(|e| SessionError::Fen(f.to_string(), e.to_string()))?,
                    None => *self.game().position(),
                };
                let cursor = Cursor::new(start);
                let players = [Player::Human, Player::Human];
                let mut tags = board_tags(players, start, None, false, "*");
                tags.push((NAME_TAG.into(), format!("Chapter {number}")));
                let record = Record::loaded(tags, cursor.main_end(), "*".into());
                vec![(cursor, record)]
            }
        };
        if let (Some(name), Some((_, record))) = (name, games.first_mut()) {
            record.edit(&BTreeMap::from([(NAME_TAG.to_string(), name)]), None);
        }
        let before = self.snapshot();
        let first = self.study.len();
        for (cursor, record) in games {
            self.study.chapters.push(Some(Chapter::new(cursor, record)));
        }
        self.show_chapter(first);
        if let Err(e) = self.check_study() {
            *self = before;
            return Err(e);
        }
        Ok(Done::Changed { auto: false })
    }

    /// `chapter_rename`: chapter `index`'s own name (`NAME_TAG`; empty drops it, and the
    /// name comes from its tags again).
    pub fn rename_chapter(&mut self, index: usize, name: &str) -> Result<Done, SessionError> {
        let i = self.study.index(index)?;
        let edit = BTreeMap::from([(NAME_TAG.to_string(), checked_name(name)?)]);
        let before = self.snapshot();
        match &mut self.study.chapters[i] {
            Some(c) => {
                c.record.edit(&edit, None);
                c.used = used(&c.cursor, c.tags(), false, false);
            }
            None => self.record.edit(&edit, None),
        }
        if let Err(e) = self.check_study() {
            *self = before;
            return Err(e);
        }
        Ok(Done::Changed { auto: false })
    }

    /// `chapter_move`: chapter `index` to place `to` (both from 1), the others in their
    /// order; the chapter shown stays shown.
    pub fn move_chapter(&mut self, index: usize, to: usize) -> Result<Done, SessionError> {
        let (i, to) = (self.study.index(index)?, self.study.index(to)?);
        let c = self.study.chapters.remove(i);
        self.study.chapters.insert(to, c);
        Ok(Done::Changed { auto: false })
    }

    /// `chapter_delete`: chapter `index` (from 1) and all it holds; where it is the one
    /// shown, the next is shown (the one before, for the last). A study keeps one chapter.
    pub fn delete_chapter(&mut self, index: usize) -> Result<Done, SessionError> {
        let i = self.study.index(index)?;
        if self.study.len() == 1 {
            return Err(StudyError::LastChapter.into());
        }
        if i == self.study.shown() {
            self.walk_allowed()?;
            self.show_chapter(if i + 1 < self.study.len() {
                i + 1
            } else {
                i - 1
            });
        }
        self.study.chapters.remove(i);
        self.cursor.set_room(self.study.room());
        Ok(Done::Changed { auto: false })
    }

    /// `load_pdn` with `study`: every game of the text as a chapter, chapter `shown` (from 1;
    /// default the first) on the board at `path` (as `load_pdn_at`), with a timed game's
    /// clocks taken up there. With `partial`, each game is read up to its first move that
    /// cannot be played; the note is the first cut's. Refused whole past the study's bounds,
    /// the board as it was.
    pub fn load_study(
        &mut self,
        text: &str,
        shown: Option<usize>,
        path: Option<&[String]>,
        clock: Option<ClockResume>,
        partial: bool,
    ) -> Result<(Done, Option<PartialLoad>), SessionError> {
        let clock = pdn_io::resumed(clock)?;
        let shown = shown.unwrap_or(1);
        let timed = clock.is_some();
        let games = pdn_io::read_all(text, shown, path, timed, partial, MAX_CHAPTERS)?;
        let cut = games.iter().find_map(|g| g.cut.clone());
        let mut chapters = Vec::new();
        let mut here = None;
        for (i, g) in games.into_iter().enumerate() {
            let game = pdn_io::placed(g)?;
            if i + 1 == shown {
                here = Some(game);
                chapters.push(None);
            } else {
                chapters.push(Some(Chapter::new(game.0, game.1)));
            }
        }
        let here = here.expect("the chapter shown was read");
        let mut next = self.with_game(here, Study { chapters });
        next.check_study()?;
        next.resume_clock(clock);
        *self = next;
        Ok((Done::Changed { auto: false }, cut))
    }
}

/// A chapter's name as given, trimmed, if it can stand in a tag.
fn checked_name(name: &str) -> Result<String, StudyError> {
    let name = name.trim();
    match annotate::tag_value_fault(name) {
        Some(why) => Err(StudyError::BadName(why)),
        None => Ok(name.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::annotate::{MAX_COMMENT, MAX_COMMENTS};
    use super::super::testing::{human, pdn_of as saved};
    use super::super::{BestLine, ReviewNote};
    use super::*;
    use crate::board::protocol::{self, json_string_len, Request, MAX_SAVED_PDN};
    use crate::core::rng::SplitMix64;
    use crate::core::tree::NodeId;
    use crate::core::{movegen, notation};
    use crate::review::marks::Mark;

    fn play(s: &mut Session, moves: &str) {
        for m in moves.split_whitespace() {
            s.play_text(m).unwrap();
        }
    }

    /// Six games, told apart by their players and first moves.
    fn six_games() -> String {
        let firsts = ["11-15", "9-13", "10-14", "11-16", "12-16", "9-14"];
        firsts
            .iter()
            .enumerate()
            .map(|(i, m)| {
                format!(
                    "[Event \"Club\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n1. {m} 22-18 *\n"
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn names(s: &Session) -> Vec<String> {
        s.state().chapters.into_iter().map(|c| c.name).collect()
    }

    fn error(r: Result<Done, SessionError>) -> String {
        match r {
            Err(e) => e.to_string(),
            Ok(d) => panic!("accepted: {d:?}"),
        }
    }

    /// Issue 69, "done when": a 6-game PDN loads as a 6-chapter study; a note made in
    /// chapter 3 stays while another is shown; save, load and save give the same text.
    #[test]
    fn a_six_game_text_is_a_six_chapter_study() {
        let mut s = human();
        let (done, cut) = s
            .load_study(&six_games(), Some(3), None, None, false)
            .unwrap();
        assert!(matches!(done, Done::Changed { auto: false }) && cut.is_none());
        let st = s.state();
        assert_eq!(st.chapters.len(), 6);
        assert_eq!(st.chapter, 3);
        assert_eq!(st.chapters[0].name, "W0 - B0");
        assert_eq!(
            (st.chapters[2].plies, st.chapters[2].result.as_str()),
            (2, "*")
        );
        assert_eq!(st.history[0].pdn, "10-14", "chapter 3 is shown");
        // A note in chapter 3, at its first move; then chapter 5 and back.
        let first = s.main_line()[1].index();
        s.annotate(first, Some("a quiet start"), Some(Some("!")), None)
            .unwrap();
        s.goto(Some(1), None).unwrap();
        s.chapter(5).unwrap();
        assert_eq!(s.state().chapter, 5);
        assert_eq!(s.state().history[0].pdn, "12-16");
        assert_eq!(
            s.ply(),
            2,
            "a chapter first shown is at its main line's end"
        );
        s.chapter(3).unwrap();
        let n = s.state().nodes.into_iter().find(|n| n.id == first).unwrap();
        assert_eq!((n.comment.as_str(), n.mark), ("a quiet start", Some("!")));
        assert_eq!(s.ply(), 1, "chapter 3 at the node it was left at");
        // The whole study saved, loaded as a study, saved again.
        let text = saved(&s);
        assert_eq!(text.matches("[Event \"Club\"]").count(), 6, "{text}");
        assert!(text.contains("10-14 {a quiet start}") || text.contains("10-14! {a quiet start}"));
        let mut t = human();
        t.load_study(&text, Some(3), None, None, false).unwrap();
        assert_eq!(saved(&t), text, "save, load, save");
        assert_eq!(names(&t), names(&s));
        // The chapter shown alone: one game, the same as the study's third.
        let Done::Reply(crate::board::protocol::Reply::Pdn { pdn: one, .. }) = s.save_pdn_of(true)
        else {
            panic!("no PDN")
        };
        assert_eq!(one.matches("[Event").count(), 1);
        assert!(one.contains("10-14") && text.contains(&one), "{one}");
        // Loaded as one game, the text is the first chapter alone.
        let mut u = human();
        u.load_pdn(&text, None).unwrap();
        assert_eq!(u.state().chapters.len(), 1);
    }

    /// Chapters are added from the position shown, a FEN or a PDN, renamed, reordered and
    /// deleted; each keeps its own game; what is refused changes nothing.
    #[test]
    fn chapters_are_added_renamed_moved_and_deleted() {
        let mut s = human();
        play(&mut s, "11-15 23-19");
        s.add_chapters(None, None, None).unwrap();
        let st = s.state();
        assert_eq!((st.chapters.len(), st.chapter), (2, 2));
        assert_eq!(st.chapters[1].name, "Chapter 2");
        assert_eq!(
            st.chapters[0].name, "Chapter 1",
            "a game begun on the board"
        );
        assert_eq!(st.fen, s.state().start_fen);
        assert!(st.start_fen.starts_with("B:"), "{}", st.start_fen);
        assert_eq!(st.history.len(), 0, "a new chapter from the position shown");
        let fen = "W:W21,22:B1,2";
        s.add_chapters(Some(fen), None, Some("  Kings ahead "))
            .unwrap();
        assert_eq!(names(&s)[2], "Kings ahead");
        assert_eq!(s.state().start_fen, fen);
        s.add_chapters(None, Some(&six_games()), None).unwrap();
        assert_eq!(s.state().chapters.len(), 9);
        assert_eq!(s.state().chapter, 4, "the first chapter added is shown");
        assert_eq!(names(&s)[3], "W0 - B0");
        // Renamed: the name is saved with the chapter, and an empty one drops it.
        s.rename_chapter(1, "Opening").unwrap();
        assert_eq!(names(&s)[0], "Opening");
        assert!(saved(&s).contains("[ChapterName \"Opening\"]"));
        s.rename_chapter(4, "Mine").unwrap();
        assert_eq!(names(&s)[3], "Mine");
        s.rename_chapter(4, "").unwrap();
        assert_eq!(names(&s)[3], "W0 - B0");
        let e = error(s.rename_chapter(1, "a\nb"));
        assert!(e.starts_with("chapter name: a line break"), "{e}");
        // Moved: the chapter shown stays shown.
        s.move_chapter(4, 1).unwrap();
        assert_eq!(names(&s)[..2], ["W0 - B0", "Opening"]);
        assert_eq!(s.state().chapter, 1);
        s.move_chapter(2, 9).unwrap();
        assert_eq!(names(&s)[8], "Opening");
        // Deleted: the one shown gives way to the next.
        s.chapter(9).unwrap();
        assert_eq!(s.state().history.len(), 2, "the first game as it was");
        s.delete_chapter(9).unwrap();
        assert_eq!((s.state().chapters.len(), s.state().chapter), (8, 8));
        s.chapter(1).unwrap();
        s.delete_chapter(3).unwrap();
        assert_eq!(s.state().chapter, 1);
        for bad in [0, 8, 99] {
            let before = saved(&s);
            let e = error(s.chapter(bad));
            assert_eq!(
                e,
                format!("no chapter {bad}: the study has 7 chapters (from 1)")
            );
            assert!(s.move_chapter(bad, 1).is_err() && s.delete_chapter(bad).is_err());
            assert_eq!(saved(&s), before);
        }
        while s.state().chapters.len() > 1 {
            s.delete_chapter(1).unwrap();
        }
        assert_eq!(
            error(s.delete_chapter(1)),
            "a study keeps one chapter at least: this is its last"
        );
        assert!(s.add_chapters(Some(fen), Some("*"), None).is_err());
        let e = error(s.add_chapters(Some("W:nonsense"), None, None));
        assert!(e.starts_with("bad FEN"), "{e}");
        assert_eq!(s.state().chapters.len(), 1);
    }

    /// A study keeps within one game's bounds: chapters, moves, main lines, comments; a
    /// request past them is refused with the study as it was.
    #[test]
    fn a_study_keeps_within_the_bounds() {
        let mut s = human();
        let games = "1. 11-15 *\n".repeat(MAX_CHAPTERS);
        s.load_study(&games, None, None, None, false).unwrap();
        assert_eq!(s.state().chapters.len(), MAX_CHAPTERS);
        let e = error(s.add_chapters(None, None, None));
        assert!(e.contains("at most 64 chapters"), "{e}");
        assert_eq!(s.state().chapters.len(), MAX_CHAPTERS);
        let more = "1. 11-15 *\n".repeat(MAX_CHAPTERS + 1);
        let e = s
            .load_study(&more, None, None, None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most 64 chapters"), "{e}");
        // Main lines: 1,990 plies in the other chapters leave 10 to this one.
        let mut rng = SplitMix64::new(69);
        let mut s = human();
        let long = |rng: &mut SplitMix64, plies: usize| {
            let mut t = human();
            while t.ply() < plies && t.end().is_none() {
                let legal = movegen::legal_moves(t.game().position());
                t.play(*rng.pick(legal.as_slice())).unwrap();
            }
            t
        };
        let mut texts = Vec::new();
        let mut plies = 0;
        while plies < MAX_PLIES - 10 {
            let t = long(&mut rng, (MAX_PLIES - 10 - plies).min(150));
            plies += t.main_line().len() - 1;
            texts.push(saved(&t));
        }
        texts.push("1. 11-15 *\n".into());
        let n = texts.len();
        s.load_study(&texts.join("\n"), Some(n), None, None, false)
            .unwrap();
        assert_eq!(s.cursor.main_plies(), 1);
        let first_legal = |s: &Session| movegen::legal_moves(s.game().position()).as_slice()[0];
        for _ in 0..9 {
            s.play(first_legal(&s)).unwrap();
        }
        let mv = first_legal(&s);
        let e = s.play(mv).unwrap_err().to_string();
        assert!(
            e.contains("main lines would pass 2000 moves together"),
            "{e}"
        );
        // A variation is not the main line: it may go on.
        s.undo().unwrap();
        while movegen::legal_moves(s.game().position()).len() < 2 {
            s.undo().unwrap();
        }
        let other = movegen::legal_moves(s.game().position()).as_slice()[1];
        s.play(other).unwrap();
        while s.ply() < 11 {
            s.play(first_legal(&s)).unwrap();
        }
        let variation = s.node().index();
        let e = error(s.promote(variation, true));
        assert!(e.contains("main lines would pass"), "{e}");
        // Chapter 1 deleted, there is room again.
        s.delete_chapter(1).unwrap();
        s.promote(variation, true).unwrap();
        // Comments: the study's together.
        let mut s = human();
        s.load_study(&"1. 11-15 *\n".repeat(3), None, None, None, false)
            .unwrap();
        let text = "c".repeat(MAX_COMMENT);
        let mut written = 0;
        for c in 1..=3 {
            s.chapter(c).unwrap();
            let first = s.main_line()[1].index();
            for node in [0, first] {
                s.annotate(node, Some(&text), None, None).unwrap();
                written += MAX_COMMENT;
            }
        }
        assert_eq!(written, 6 * MAX_COMMENT, "six comments fit");
        let used = s.study.others().plus(s.used_here());
        assert_eq!(used.comments, written);
    }

    /// Comments past 1 MiB across chapters are refused.
    #[test]
    fn the_comments_of_all_chapters_count_together() {
        let mut s = human();
        let n = MAX_COMMENTS / MAX_COMMENT + 2;
        let games = "1. 11-15 23-19 2. 8-11 22-17 *\n".repeat(n.min(MAX_CHAPTERS));
        s.load_study(&games, None, None, None, false).unwrap();
        let text = "c".repeat(MAX_COMMENT);
        let mut refused = None;
        'all: for c in 1..=s.study.len() {
            s.chapter(c).unwrap();
            let nodes: Vec<u64> = s.tree().preorder().iter().map(|n| n.index()).collect();
            for node in nodes {
                let before = saved(&s);
                if let Err(e) = s.annotate(node, Some(&text), None, None) {
                    assert_eq!(saved(&s), before, "nothing changed");
                    refused = Some(e.to_string());
                    break 'all;
                }
            }
        }
        let e = refused.expect("refused");
        assert!(e.contains("comments would pass 1048576 bytes"), "{e}");
    }

    /// A timed game's chapter cannot be left while its clocks run.
    #[test]
    fn no_other_chapter_while_the_clocks_run() {
        let mut s = human();
        s.load_study(&six_games(), None, None, None, false).unwrap();
        let clock = crate::board::protocol::ClockSpec {
            base: 60.0,
            inc: 0.0,
        };
        s.new_game(Player::Human, Player::Human, None, Some(clock))
            .unwrap();
        assert_eq!(
            s.state().chapters.len(),
            1,
            "a new game is a study of its own"
        );
        s.add_chapters(None, None, None).unwrap_err();
        assert_eq!(s.state().chapters.len(), 1);
        // A study restored with a timed game on its chapter shown: no walking away.
        let mut s = human();
        let resume = ClockResume {
            base: 60.0,
            inc: 0.0,
            black_ms: 50_000,
            white_ms: 50_000,
        };
        s.load_study(&six_games(), Some(2), None, Some(resume), false)
            .unwrap();
        assert!(s.clock_live());
        let e = error(s.chapter(1));
        assert!(e.starts_with("a timed game is on"), "{e}");
        assert!(s.delete_chapter(2).is_err());
        assert_eq!(s.state().chapter, 2);
    }

    /// A review, the node shown and the players stay with their chapter: the review's marks
    /// and best lines come back when it is shown again, and in the saved study.
    #[test]
    fn each_chapter_keeps_its_review() {
        let mut s = human();
        s.load_study(&six_games(), Some(2), None, None, false)
            .unwrap();
        let node = s.main_line()[1];
        let note = ReviewNote {
            mark: Some(Mark::Mistake),
            best: Some(BestLine {
                mv: "11-15".into(),
                score: "0.40".into(),
                line: vec!["11-15".into()],
            }),
            loss: 0.8,
            accuracy: 40.0,
        };
        s.record_review(node, "-0.40", note);
        s.chapter(1).unwrap();
        assert!(s.state().review.is_none());
        s.chapter(2).unwrap();
        let st = s.state();
        assert_eq!(st.review.as_ref().map(|r| r.plies), Some(1));
        let text = saved(&s);
        let mut t = human();
        t.load_study(&text, Some(2), None, None, false).unwrap();
        assert_eq!(t.state().review, st.review);
        t.chapter(1).unwrap();
        assert!(t.state().review.is_none());
    }

    /// The largest study a board holds saves, and what it saves loads: eight chapters of
    /// `MAX_MOVES` moves together, every move with 8 NAGs, a score and the longest clock,
    /// 1 MiB of comments all `"`, each chapter's roster tags and name 200 `"` each, every
    /// main-line move reviewed with a best line. The `load_pdn` the page sends after a
    /// reload is within the message limit, parses, and loads as the same study.
    #[test]
    fn the_largest_study_saves_and_loads_back() {
        let mut rng = SplitMix64::new(691);
        let mut s = human();
        let long = "\"".repeat(200);
        let roster: BTreeMap<String, String> = ["Event", "Site", "Date", "Round", "White", "Black"]
            .iter()
            .map(|k| (k.to_string(), long.clone()))
            .collect();
        let per = MAX_MOVES / 8;
        let mut comments = MAX_COMMENTS;
        for c in 0..8 {
            if c > 0 {
                let start = notation::write_fen(&Position::start());
                s.add_chapters(Some(&start), None, None).unwrap();
            }
            super::super::testing::grow(&mut s, &mut rng, per);
            let main = s.main_line();
            let nodes: Vec<NodeId> = s.tree().preorder();
            let longest = std::time::Duration::new(999_999 * 3600 + 3599, 999_999_999);
            for &id in &nodes[1..] {
                let notes = s.cursor.notes_mut(id).unwrap();
                notes.nags = vec![4, 255, 254, 253, 252, 251, 250, 249, 248];
                notes.eval = Some("-99.99".into());
                notes.clock = Some(longest);
            }
            for &id in nodes.iter().take(MAX_COMMENTS / MAX_COMMENT / 8 + 1) {
                let length = comments.min(MAX_COMMENT);
                if length == 0 {
                    break;
                }
                s.annotate(id.index(), Some(&"\"".repeat(length)), None, None)
                    .unwrap();
                comments -= length;
            }
            s.set_tags(&roster).unwrap();
            s.rename_chapter(c + 1, &long).unwrap();
            for &id in &main[1..] {
                let n = s.tree().node(id).unwrap();
                let before = s.tree().node(n.parent.unwrap()).unwrap().position;
                let legal = movegen::legal_moves(&before);
                let mut line = Vec::new();
                let mut pos = before;
                for _ in 0..8 {
                    let legal = movegen::legal_moves(&pos);
                    let Some(&mv) = legal.as_slice().first() else {
                        break;
                    };
                    line.push(notation::pdn_move(&pos, &mv));
                    pos = pos.play(&mv);
                }
                let best = (legal.len() > 1).then(|| BestLine {
                    mv: line[0].clone(),
                    score: "-99.99".into(),
                    line,
                });
                let note = ReviewNote {
                    mark: Some(Mark::Blunder),
                    best,
                    loss: 20.0,
                    accuracy: 0.0,
                };
                s.record_review(id, "-99.99", note);
            }
        }
        assert_eq!(comments, 0, "1 MiB of comments");
        assert_eq!(s.study.others().plus(s.used_here()).moves, MAX_MOVES);
        let pdn = saved(&s);
        let message = serde_json::json!({"type": "load_pdn", "pdn": pdn, "study": true, "game": 8});
        let message = serde_json::to_string(&message).unwrap();
        eprintln!(
            "the largest study: {} bytes of PDN, {} in JSON ({MAX_SAVED_PDN} allowed)",
            pdn.len(),
            json_string_len(&pdn)
        );
        assert!(json_string_len(&pdn) <= MAX_SAVED_PDN);
        let Ok(Request::LoadPdn { pdn: text, .. }) = protocol::parse(&message) else {
            panic!("the load_pdn message does not parse")
        };
        let mut t = human();
        t.load_study(&text, Some(8), None, None, false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved(&t), pdn, "save, load, save");
        assert_eq!(t.state().chapters, s.state().chapters);
    }
}
