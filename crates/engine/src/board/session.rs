//! One connection's game, without the socket, made of parts that each keep their own
//! invariants: the `cursor` (the game tree, the node shown, the current line and the game
//! to it), the `roster` (who plays each side, the engine's level), the `record` (a loaded
//! game's tags and result, the tags set since) and the `timed` game (its clocks and flag,
//! read from the time source `Now`; while they run the game cannot be walked), and the
//! `study` around it (the other chapters, each a game as it was left). Every
//! request is checked here against the rules, and a rejected one leaves the session as it
//! was. What the board's jobs need (thinking, analysis, its lines) is the board's.

use crate::board::clock::TimeControl;
use crate::board::protocol::{ClockSpec, GameEnd, Player, Reply, State};
use crate::board::view;
use crate::core::tree::{GameTree, NodeId};
use crate::core::{movegen, notation, Color, Game, GameResult, Move, Position};
use crate::search::level::PlayLevel;
use crate::search::Limits;
use crate::time_source::Instant;
use std::collections::BTreeMap;
use std::sync::Arc;

mod annotate;
mod cursor;
mod error;
mod node;
mod pdn_io;
mod record;
mod reviewed;
mod roster;
mod size;
mod study;
mod timed;

pub use crate::board::view::TIME_FORFEIT;
pub use annotate::AnnotateError;
use cursor::Cursor;
pub use error::SessionError;
pub use node::{BestLine, NodeData, ReviewNote};
use record::Record;
pub use reviewed::BEST_LINE_PLIES;
use roster::Roster;
pub use roster::DEFAULT_LEVEL;
use study::Study;
pub use study::{chapter_name, StudyError, MAX_CHAPTERS, NAME_TAG};
use timed::TimedGame;

/// Where a session reads the time for its clock: the real time, or a test's hand.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The longest line (the main line or a variation) a PDN may load, and a move may make.
/// Every real game is far shorter (the draw rules end one long before); the bound keeps a
/// hostile file from making huge `state` messages, and sizes a saved game (`size`).
pub const MAX_PLIES: usize = 2000;

/// The most moves a board's tree holds, variations included: a loaded game with more is
/// refused, and so is a new move past it. Every `state` carries the tree, and this bounds it
/// (with `annotate::MAX_COMMENTS`, which bounds the comments) to a few megabytes.
pub const MAX_MOVES: usize = 4000;

/// What the server does after a request the session accepted.
#[derive(Debug)]
pub enum Done {
    /// The game changed: send the state. With `auto`, the engine moves next if it plays
    /// the side to move (after a human move or a new game, not after undo or goto).
    Changed { auto: bool },
    /// A game of a text of several was loaded: send this reply (the `games` list), then
    /// the state.
    Loaded(Reply),
    /// Send this reply; nothing changed.
    Reply(Reply),
}

/// One connection's game.
pub struct Session {
    cursor: Cursor,
    roster: Roster,
    record: Record,
    timed: TimedGame,
    study: Study,
}

impl Default for Session {
    fn default() -> Session {
        Session::new(Position::start(), Player::Engine, Player::Human)
    }
}

impl Session {
    /// A new game from `start` (Black human and White engine by default).
    pub fn new(start: Position, white: Player, black: Player) -> Session {
        Session {
            cursor: Cursor::new(start),
            roster: Roster::new(white, black, DEFAULT_LEVEL),
            record: Record::default(),
            timed: TimedGame::new(Arc::new(Instant::now)),
            study: Study::default(),
        }
    }

    /// The session with its clock reading the time from `now` (the host's, or a test's
    /// hand).
    pub fn with_time_source(mut self, now: Now) -> Session {
        self.timed = TimedGame::new(now);
        self
    }

    /// The game up to the position shown, for the search.
    pub fn game(&self) -> &Game {
        self.cursor.game()
    }

    pub fn tree(&self) -> &GameTree<NodeData> {
        self.cursor.tree()
    }

    /// The node shown.
    pub fn node(&self) -> NodeId {
        self.cursor.node()
    }

    /// The main line's nodes, the root first: what a review reviews.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.cursor.tree().main_line()
    }

    /// The main line as a game, from the start: what a review reviews.
    pub fn main_game(&self) -> Game {
        self.cursor.main_game()
    }

    /// The current line's nodes, the root first (`Cursor::line`).
    pub fn line(&self) -> Vec<NodeId> {
        self.cursor.line()
    }

    /// Plies played to reach the position shown.
    pub fn ply(&self) -> usize {
        self.cursor.ply()
    }

    pub fn player(&self, side: Color) -> Player {
        self.roster.player(side)
    }

    /// Is the game on, with the engine to move?
    pub fn engine_to_move(&self) -> bool {
        self.end().is_none() && self.player(self.game().position().side()) == Player::Engine
    }

    /// The search limits for an engine move: in a timed game its clock, with the search's
    /// own time management (a depth level still caps the depth); else the level. A playing
    /// level, if one is set, further limits them (`play_level`).
    pub fn move_limits(&self) -> Limits {
        let side = self.game().position().side();
        self.roster.move_limits(self.timed.limits(side))
    }

    /// The playing level of the engine's moves; None for full strength.
    pub fn play_level(&self) -> Option<PlayLevel> {
        self.roster.play_level()
    }

    /// Whether a timed game's clocks are live (its game not yet over).
    pub fn clock_live(&self) -> bool {
        self.timed.is_live()
    }

    /// `new`: a new game from the start or a FEN, with these players, timed with `clock`
    /// if given; the level and the time source stay.
    pub fn new_game(
        &mut self,
        white: Player,
        black: Player,
        fen: Option<&str>,
        clock: Option<ClockSpec>,
    ) -> Result<Done, SessionError> {
        let start = match fen {
            Some(f) => notation::parse_fen(f)
                .map_err(|e| SessionError::Fen(f.to_string(), e.to_string()))?,
            None => Position::start(),
        };
        let control = clock
            .map(|c| TimeControl::from_seconds(c.base, c.inc))
            .transpose()
            .map_err(SessionError::Clock)?;
        *self = Session {
            cursor: Cursor::new(start),
            roster: Roster::new(white, black, self.roster.level()),
            record: Record::default(),
            timed: TimedGame::new(self.timed.time_source()),
            study: Study::default(),
        };
        self.timed.restart(control);
        Ok(Done::Changed { auto: true })
    }

    /// Refuse to walk the game while its clock is live: a timed game has no take-backs.
    fn walk_allowed(&self) -> Result<(), SessionError> {
        self.timed.walk_allowed()
    }

    /// Refuse the engine's move for a side a person plays while the clocks are live.
    pub fn engine_move_allowed(&self) -> Result<(), SessionError> {
        let side = self.game().position().side();
        self.timed.engine_move_allowed(self.player(side))
    }

    /// Refuse to turn analysis on while the clocks are live.
    pub fn analysis_allowed(&self, on: bool) -> Result<(), SessionError> {
        self.timed.analysis_allowed(on)
    }

    /// A review or a retry (`what`) only while no timed game's clocks run.
    pub fn review_allowed(&self, what: &'static str) -> Result<(), SessionError> {
        self.timed.review_allowed(what)
    }

    /// Let the flag fall if the running clock has reached zero. True if it fell now: at the
    /// node shown, which is the last move of a game that could not be walked.
    pub fn check_flag(&mut self) -> bool {
        self.timed.check_flag(self.cursor.node())
    }

    /// When the running clock reaches zero, if one runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.timed.flag_at()
    }

    /// The clock's part of a move by the side to move, before it is played: an error if
    /// that side's flag has fallen (the move does not count).
    fn clock_allows_move(&mut self) -> Result<(), SessionError> {
        self.check_flag();
        if let Some(end) = self.end() {
            return Err(SessionError::GameOver(end.reason.to_string()));
        }
        Ok(())
    }

    /// Play a move the clock allowed: the mover's clock after it goes into the move's
    /// notes (for `[%clk]`), and the clocks stop for good where the rules end the game.
    fn play_clocked(&mut self, mv: Move) -> Result<(), SessionError> {
        let side = self.game().position().side();
        self.cursor.play(mv)?;
        if let Some(reading) = self.timed.moved(side) {
            let at = self.cursor.node();
            if let Some(notes) = self.cursor.notes_mut(at) {
                notes.clock = Some(reading);
            }
        }
        if self.game().result() != GameResult::Ongoing {
            self.timed.stop();
        }
        Ok(())
    }

    /// `players`: who plays each side from the position shown on; the game is kept, and
    /// the engine moves next if it plays the side to move.
    pub fn set_players(&mut self, white: Player, black: Player) -> Result<Done, SessionError> {
        self.roster.set_players(white, black);
        Ok(Done::Changed { auto: true })
    }

    /// `setup`: a position to study, both sides human.
    pub fn setup(&mut self, fen: &str) -> Result<Done, SessionError> {
        self.new_game(Player::Human, Player::Human, Some(fen), None)?;
        Ok(Done::Changed { auto: false })
    }

    /// `level`: seconds per move or a depth, a playing level, or both (`Roster::set_level`).
    pub fn set_level(
        &mut self,
        movetime: Option<f64>,
        depth: Option<u32>,
        level: Option<u64>,
    ) -> Result<Done, SessionError> {
        self.roster.set_level(movetime, depth, level)?;
        Ok(Done::Changed { auto: false })
    }

    /// `move`: a human move in Hub or PDN notation.
    pub fn play_text(&mut self, text: &str) -> Result<Done, SessionError> {
        self.clock_allows_move()?;
        let mv = notation::parse_move(self.game().position(), text)
            .map_err(|e| SessionError::IllegalMove(text.to_string(), e.to_string()))?;
        self.play_clocked(mv)?;
        Ok(Done::Changed { auto: true })
    }

    /// Play a legal move in the position shown, unclocked (`Cursor::play`).
    pub fn play(&mut self, mv: Move) -> Result<(), SessionError> {
        self.cursor.play(mv)
    }

    /// The engine's move, found for node `node` (position key `key`): played if that node
    /// is still the one shown, the move is legal there, and the engine's flag has not fallen.
    pub fn play_engine(&mut self, mv: Move, node: NodeId, key: u64) -> Result<(), SessionError> {
        let pos = self.game().position();
        if self.node() != node || pos.key() != key || !movegen::legal_moves(pos).contains(&mv) {
            return Err(SessionError::StaleEngineMove(mv));
        }
        self.clock_allows_move()?;
        self.play_clocked(mv)
    }

    /// `undo`, `redo`, `goto`, `promote`, `delete`: the cursor's walks and edits
    /// (`Cursor`), none while a timed game's clocks are live.
    fn walk(
        &mut self,
        step: impl FnOnce(&mut Cursor) -> Result<(), SessionError>,
    ) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        step(&mut self.cursor)?;
        Ok(Done::Changed { auto: false })
    }

    pub fn undo(&mut self) -> Result<Done, SessionError> {
        self.walk(Cursor::undo)
    }

    pub fn redo(&mut self) -> Result<Done, SessionError> {
        self.walk(Cursor::redo)
    }

    pub fn goto(&mut self, ply: Option<usize>, node: Option<u64>) -> Result<Done, SessionError> {
        self.walk(|c| c.goto(ply, node))
    }

    pub fn promote(&mut self, node: u64, to_main: bool) -> Result<Done, SessionError> {
        self.walk(|c| c.promote(node, to_main))
    }

    /// `delete`: a flag that fell on a deleted node goes with it.
    pub fn delete(&mut self, node: u64) -> Result<Done, SessionError> {
        let done = self.walk(|c| c.delete(node))?;
        let tree = self.cursor.tree();
        self.timed.keep_flag_if(|at| tree.node(at).is_some());
        Ok(done)
    }

    /// `add_line` (`Cursor::add_line`).
    pub fn add_line(&mut self, node: u64, moves: &[String]) -> Result<Done, SessionError> {
        self.walk(|c| c.add_line(node, moves))
    }

    /// `annotate`: node `node`'s comment, mark and other NAGs (`annotate::annotated`). A
    /// mark set here is the move's own: a later review leaves it (`record_review`). The
    /// position shown stays.
    pub fn annotate(
        &mut self,
        node: u64,
        comment: Option<&str>,
        nag: Option<Option<&str>>,
        nags: Option<&[u64]>,
    ) -> Result<Done, SessionError> {
        let id = self.cursor.live(node)?;
        let tree = self.cursor.tree();
        let n = tree.node(id).expect("live");
        let others = || annotate::comments_but(tree, id) + self.study.others().comments;
        let notes =
            annotate::annotated(n.notes.clone(), n.mv.is_none(), others, comment, nag, nags)?;
        let before = std::mem::replace(self.cursor.notes_mut(id).expect("live"), notes);
        if let Err(e) = self.check_size() {
            *self.cursor.notes_mut(id).expect("live") = before;
            return Err(e);
        }
        if let (Some(_), Some((_, data))) = (nag, self.cursor.notes_and_data_mut(id)) {
            reviewed::mark_set_by_hand(data);
        }
        Ok(Done::Changed { auto: false })
    }

    /// `tags`: the roster's tags as given, each set (an empty value removes it, but for
    /// `Result`); the tags not given stay, and the game's other tags (GameType, FEN,
    /// TimeControl, ...) are not the page's to set. A `Result` stands while the main line
    /// ends where it ends now, as a loaded game's does. All are checked before any is set.
    pub fn set_tags(&mut self, tags: &BTreeMap<String, String>) -> Result<Done, SessionError> {
        let end = self.cursor.main_end();
        let result = annotate::checked_tags(tags, || self.cursor.tree().result_at(end))?;
        let before = self.record.clone();
        self.record.edit(tags, result.map(|r| (end, r)));
        if let Err(e) = self.check_size() {
            self.record = before;
            return Err(e);
        }
        Ok(Done::Changed { auto: false })
    }

    /// What the player's words take saved (`size`).
    fn words_bytes(&self) -> usize {
        let begun_here = self.record.loaded_tags().is_none();
        let timed = self.timed.clock().is_some();
        size::words_bytes(self.tags_now(), begun_here, timed, self.tree())
    }

    /// Refuse a game whose words, with the other chapters' of a study, pass `size::WORDS`:
    /// saved, it might not load back.
    fn check_size(&self) -> Result<(), SessionError> {
        size::check(self.words_bytes() + self.study.others().words + self.study.overhead())
    }

    /// Keep a review's verdict on a main-line move (`reviewed::record`): the mark the move
    /// shows now (`review_ply`'s `node_mark`), or None when the node is gone.
    pub fn record_review(
        &mut self,
        node: NodeId,
        score: &str,
        note: ReviewNote,
    ) -> Option<Option<&'static str>> {
        let (notes, data) = self.cursor.notes_and_data_mut(node)?;
        Some(reviewed::record(notes, data, score, note))
    }

    /// The review's best line before main-line ply `ply` (from 1), if the move was reviewed.
    pub fn review_best(&self, ply: usize) -> Option<BestLine> {
        reviewed::best_before(self.tree(), ply)
    }

    /// The review's own verdict where `mv` is the move played at main-line ply `ply` and the
    /// review judged it (`reviewed::judged`).
    pub fn review_judged(
        &self,
        ply: usize,
        mv: &crate::core::Move,
    ) -> Option<crate::board::protocol::Judgement> {
        reviewed::judged(self.tree(), ply, mv)
    }

    /// How the game at the position shown has ended, if it has: by the rules, or on time
    /// where the flag fell there.
    pub fn end(&self) -> Option<GameEnd> {
        let flag = self.timed.flag().filter(|&(_, at)| at == self.node());
        view::game_end(self.game(), flag.map(|(loser, _)| loser))
    }

    /// The `state` message, but for what the board adds (`thinking`, `analyzing` and the
    /// tables' `egdb`, false and none here).
    pub fn state(&self) -> State {
        let pos = self.game().position();
        let result = self.end();
        let (chapters, chapter) = self.chapters();
        State {
            fen: notation::write_fen(pos),
            side: view::color_name(pos.side()),
            pieces: view::pieces(pos),
            legal: view::legal_moves(pos, result.is_some()),
            history: self.cursor.history(),
            ply: self.ply(),
            node: self.node().index(),
            line: self.cursor.line().iter().map(|id| id.index()).collect(),
            nodes: self.cursor.nodes(),
            start_fen: notation::write_fen(&self.tree().start()),
            white: self.player(Color::White),
            black: self.player(Color::Black),
            thinking: false,
            analyzing: false,
            result,
            counts: view::counts(self.game()),
            level: self.roster.level(),
            egdb: None,
            clock: self.timed.state(),
            tags: self.tags_now().into_iter().collect(),
            review: reviewed::summary(self.tree()),
            puzzle: None,
            practice: None,
            partial: None,
            chapters,
            chapter,
        }
    }
}

/// What the session's tests share: a game between two people from the start, and the PDN
/// `save_pdn` writes of a session.
#[cfg(test)]
mod testing {
    use super::{Done, Player, Position, Reply, Session};

    pub(super) fn human() -> Session {
        Session::new(Position::start(), Player::Human, Player::Human)
    }

    /// Grow the game shown at random: a main line to the game's end (or 150 plies), then
    /// variations from random nodes of it until the tree holds `moves` moves.
    pub(super) fn grow(s: &mut Session, rng: &mut crate::core::rng::SplitMix64, moves: usize) {
        use crate::core::movegen;
        while s.ply() < 150 && s.end().is_none() {
            let legal = movegen::legal_moves(s.game().position());
            s.play(*rng.pick(legal.as_slice())).unwrap();
        }
        let main = s.main_line();
        while s.tree().len() <= moves {
            let legal = movegen::legal_moves(s.game().position());
            if legal.is_empty() || s.end().is_some() || s.ply() > 60 {
                let at = main[rng.below(main.len() - 1)];
                s.goto(None, Some(at.index())).unwrap();
                continue;
            }
            s.play(*rng.pick(legal.as_slice())).unwrap();
        }
    }

    pub(super) fn pdn_of(s: &Session) -> String {
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("no PDN: save_pdn did not answer with a pdn")
        };
        pdn
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{human, pdn_of};
    use super::*;
    use crate::board::protocol::{Judgement, SearchInfo, TreeNode};
    use crate::board::view::search_info;
    use crate::core::pdn;
    use crate::core::tree::MAX_NODES;
    use std::time::Duration;

    fn play(s: &mut Session, moves: &str) {
        for m in moves.split_whitespace() {
            s.play_text(m).unwrap();
        }
    }

    fn hubs(s: &Session) -> Vec<String> {
        s.state().legal.into_iter().map(|m| m.hub).collect()
    }

    #[test]
    fn start_state() {
        let st = Session::default().state();
        assert_eq!(st.side, "black");
        assert_eq!(st.legal.len(), 7);
        assert_eq!(st.pieces.len(), 24);
        assert_eq!(st.pieces[&12], "b");
        assert_eq!((st.white, st.black), (Player::Engine, Player::Human));
        assert_eq!(st.counts.forty_limit, 80);
        assert_eq!(st.counts.thirteen, None);
        assert!(st.result.is_none());
        assert!(!Session::default().engine_to_move());
    }

    #[test]
    fn undo_redo_goto_walk_the_line_and_another_move_adds_one() {
        let mut s = human();
        play(&mut s, "11-15 22-18 15x22");
        assert_eq!(s.state().history[2].pdn, "15x22");
        assert_eq!(s.state().history[2].hub, "15x22x18");
        s.undo().unwrap();
        s.undo().unwrap();
        assert_eq!((s.ply(), s.state().history.len()), (1, 3));
        s.redo().unwrap();
        assert_eq!(s.ply(), 2);
        // Playing the move redo would play keeps the rest of the line.
        play(&mut s, "15x22");
        assert_eq!(s.state().history.len(), 3);
        assert_eq!(s.tree().len(), 4);
        s.goto(Some(0), None).unwrap();
        assert!(s.undo().is_err());
        assert!(s.goto(Some(4), None).is_err());
        s.goto(Some(3), None).unwrap();
        assert!(s.redo().is_err());
        s.goto(Some(1), None).unwrap();
        // Another move is a variation: it is the current line now, and the old line stays.
        play(&mut s, "23-19");
        assert_eq!(s.state().history.len(), 2);
        assert_eq!(s.tree().len(), 5);
        assert_eq!(pdns(&s, &s.main_line()), ["11-15", "22-18", "15x22"]);
        assert!(s
            .play_text("1-5")
            .unwrap_err()
            .to_string()
            .starts_with("illegal move 1-5"));
        assert_eq!(s.ply(), 2);
        assert!(s.goto(None, None).is_err() && s.goto(Some(0), Some(0)).is_err());
    }

    fn pdns(s: &Session, line: &[NodeId]) -> Vec<String> {
        line.iter()
            .filter_map(|&id| s.tree().node(id)?.data.shown.clone().map(|m| m.pdn))
            .collect()
    }

    /// A review's verdict with `mark` and best move `best` (its whole line).
    fn note(mark: Option<&str>, best: &str) -> ReviewNote {
        ReviewNote {
            mark: mark.and_then(crate::review::marks::Mark::from_suffix),
            best: Some(BestLine {
                mv: best.into(),
                score: "0.05".into(),
                line: vec![best.into()],
            }),
            loss: 0.5,
            accuracy: 60.0,
        }
    }

    fn node_of(s: &Session, id: NodeId) -> TreeNode {
        let st = s.state();
        st.nodes.into_iter().find(|n| n.id == id.index()).unwrap()
    }

    #[test]
    fn moves_follow_the_tree_or_add_variations_and_the_state_carries_it() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11 22-17");
        let main = s.main_line();
        s.goto(Some(2), None).unwrap();
        // The same move follows: nothing new, the line and its end kept.
        play(&mut s, "8-11");
        assert_eq!((s.node(), s.tree().len()), (main[3], 5));
        assert_eq!(s.state().history.len(), 4);
        // Another adds a variation beside it, and becomes the current line.
        s.goto(Some(2), None).unwrap();
        play(&mut s, "9-14 22-18");
        let v = s.line();
        assert_eq!(pdns(&s, &v), ["11-15", "23-19", "9-14", "22-18"]);
        assert_eq!(s.main_line(), main);
        let st = s.state();
        assert_eq!((st.ply, st.node), (4, v[4].index()));
        assert_eq!(st.line, v.iter().map(|n| n.index()).collect::<Vec<_>>());
        assert_eq!(st.nodes.len(), 7);
        // Each node after its parent, the main line first; children in their order.
        let ids: Vec<u64> = st.nodes.iter().map(|n| n.id).collect();
        let want: Vec<u64> = [main[0], main[1], main[2], main[3], main[4], v[3], v[4]]
            .iter()
            .map(|n| n.index())
            .collect();
        assert_eq!(ids, want);
        let branch = &st.nodes[2];
        assert_eq!(branch.children, [main[3].index(), v[3].index()]);
        assert_eq!(st.nodes[0].parent, None);
        assert!(st.nodes[0].mv.is_none());
        let n = node_of(&s, v[3]);
        assert_eq!(n.parent, Some(main[2].index()));
        assert_eq!(n.mv.as_ref().unwrap().pdn, "9-14");
        let json = Reply::State(Box::new(st)).to_json();
        assert!(
            json.contains(&format!(
                r#"{{"id":{},"parent":{},"pdn":"9-14","hub":"9-14","captured":[],"path":[9,14],"children":[{}],"mark":null,"eval":null}}"#,
                v[3].index(),
                main[2].index(),
                v[4].index()
            )),
            "{json}"
        );
        // An engine move goes into the tree the same way.
        let key = s.game().position().key();
        let mv = movegen::legal_moves(s.game().position())[0];
        s.play_engine(mv, s.node(), key).unwrap();
        assert_eq!(s.tree().len(), 8);
    }

    #[test]
    fn goto_a_node_and_walk_its_line() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11 22-17");
        let main = s.main_line();
        s.goto(Some(1), None).unwrap();
        play(&mut s, "22-18 15x22 25x18");
        let var = s.line();
        // Into the main line by node id: its line is the current one.
        s.goto(None, Some(main[3].index())).unwrap();
        assert_eq!((s.ply(), s.state().line.len()), (3, 5));
        assert_eq!(
            s.game().position(),
            &s.tree().node(main[3]).unwrap().position
        );
        // Back into the variation at its second move; back and forth along it.
        s.goto(None, Some(var[3].index())).unwrap();
        assert_eq!(s.line(), var);
        s.undo().unwrap();
        s.undo().unwrap();
        assert_eq!(s.node(), var[1]);
        assert_eq!(s.line(), var, "going back keeps the line");
        s.redo().unwrap();
        assert_eq!(
            s.node(),
            var[2],
            "redo goes down the variation, not the main line"
        );
        s.goto(Some(4), None).unwrap();
        assert_eq!(s.node(), var[4]);
        assert_eq!(s.game().moves().len(), 4);
        assert_eq!(
            s.game().position(),
            &s.tree().node(var[4]).unwrap().position
        );
        // Unknown ids are refused and change nothing.
        for bad in [999, u64::from(u32::MAX), u64::MAX] {
            let e = s.goto(None, Some(bad)).unwrap_err().to_string();
            assert_eq!(e, format!("no node {bad} in the game tree"));
        }
        assert_eq!(s.node(), var[4]);
    }

    #[test]
    fn promote_and_delete_variations() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11");
        let main = s.main_line();
        s.goto(Some(1), None).unwrap();
        play(&mut s, "22-18");
        let a = s.node();
        s.goto(Some(1), None).unwrap();
        play(&mut s, "24-20 15-19");
        let b = s.line()[2];
        let b2 = s.node();
        assert_eq!(s.tree().children(main[1]), &[main[2], a, b]);
        // One step up; the position shown and the line stay.
        s.promote(b.index(), false).unwrap();
        assert_eq!(s.tree().children(main[1]), &[main[2], b, a]);
        assert_eq!((s.node(), s.ply()), (b2, 3));
        // To the main line.
        s.promote(b2.index(), true).unwrap();
        assert_eq!(s.main_line(), vec![main[0], main[1], b, b2]);
        assert_eq!(node_of(&s, main[1]).children[0], b.index());
        assert!(s
            .promote(0, false)
            .unwrap_err()
            .to_string()
            .contains("cannot be deleted or promoted"));
        assert!(s
            .promote(77, true)
            .unwrap_err()
            .to_string()
            .contains("no node 77"));
        // Delete the line shown: the board goes to the position before it.
        s.delete(b.index()).unwrap();
        assert_eq!(s.node(), main[1]);
        assert_eq!(s.ply(), 1);
        assert_eq!(s.main_line(), main, "the old main line is first again");
        assert_eq!(s.tree().len(), 5);
        assert!(s.goto(None, Some(b2.index())).is_err());
        assert!(s
            .delete(b.index())
            .unwrap_err()
            .to_string()
            .contains("no node"));
        assert!(s
            .delete(0)
            .unwrap_err()
            .to_string()
            .contains("start position"));
        // Deleting a line elsewhere leaves the position shown and its line.
        s.goto(None, Some(main[3].index())).unwrap();
        s.delete(a.index()).unwrap();
        assert_eq!((s.node(), s.line()), (main[3], main.clone()));
        // Deleting the moves after the shown one on its line shortens the line.
        s.goto(Some(1), None).unwrap();
        s.delete(main[2].index()).unwrap();
        assert_eq!((s.node(), s.line()), (main[1], main[..2].to_vec()));
        assert!(s.redo().is_err());
    }

    #[test]
    fn review_marks_stay_on_the_main_line() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11 22-17 9-13");
        let main = s.main_line();
        s.record_review(main[2], "-1.20", note(Some("??"), "9-14"));
        s.record_review(main[3], "-1.10", note(None, "9-14"));
        s.record_review(main[4], "-0.40", note(Some("?!"), "9-14"));
        // A variation at the marked move, played and made the main line, then dropped back.
        s.goto(Some(1), None).unwrap();
        play(&mut s, "22-18 15x22");
        let v = s.node();
        s.promote(v.index(), true).unwrap();
        assert_eq!(s.main_line()[2], s.line()[2]);
        s.promote(main[2].index(), false).unwrap();
        assert_eq!(s.main_line(), main);
        let n = node_of(&s, main[2]);
        assert_eq!((n.mark, n.eval.as_deref()), (Some("??"), Some("-1.20")));
        assert_eq!(n.best.as_deref(), Some("9-14"));
        let n = node_of(&s, main[3]);
        assert_eq!((n.mark, n.eval.as_deref()), (None, Some("-1.10")));
        assert_eq!(node_of(&s, v).mark, None);
        // A review again replaces its own marks but leaves a player's other NAGs.
        s.cursor.notes_mut(main[4]).unwrap().nags.push(14);
        s.record_review(main[4], "0.00", note(None, "9-14"));
        assert_eq!(s.tree().node(main[4]).unwrap().notes.nags, [14]);
        s.record_review(main[4], "-0.90", note(Some("?"), "9-14"));
        assert_eq!(s.tree().node(main[4]).unwrap().notes.nags, [2, 14]);
        let n = node_of(&s, main[4]);
        assert_eq!((n.mark, n.nags.clone()), (Some("?"), vec![14]));
        // A node deleted since: nothing.
        s.delete(v.index()).unwrap();
        s.record_review(v, "1.00", note(Some("??"), "9-14"));
        // Saved and loaded, the marks and scores come back.
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        let flat = pdn.replace('\n', " ");
        assert!(
            flat.contains("23-19?? {[%eval -1.20] [%review 0.50 60.0 ??]}"),
            "{pdn}"
        );
        assert!(
            flat.contains("22-17? $14 {[%eval -0.90] [%review 0.50 60.0 ?]}"),
            "{pdn}"
        );
        let mut t = human();
        t.load_pdn(&pdn, None).unwrap();
        assert!(t.tree().same_as(s.tree()));
    }

    /// Review the board's main line as the server does (one thread, a fixed node budget,
    /// each move's verdict recorded as it is forwarded): the `review_ply` messages.
    fn review_on_board(s: &mut Session) -> Vec<Judgement> {
        use crate::board::review_job::PlyReport;
        use crate::review::{self, Budget, ReviewControl};
        let engine = crate::search::Engine::new(4, 1);
        let (game, nodes) = (s.main_game(), s.main_line());
        let mut reports = Vec::new();
        let summary = review::review(
            &game,
            Budget::Nodes(2_000),
            &engine,
            &ReviewControl::new(),
            |ply| {
                let pos = &game.positions()[ply.ply - 1];
                reports.push((PlyReport::new(ply, pos), nodes[ply.ply]));
            },
        );
        assert!(summary.complete);
        reports
            .into_iter()
            .map(|(r, node)| match r.record(s, node) {
                Reply::ReviewPly(j) => *j,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    /// A review keeps the marks and NAGs a loaded game came with, and adds its own only to
    /// moves without one (issue 58: `23-19?!` and `8-11 $4` were dropped, `??` replaced).
    #[test]
    fn a_review_keeps_the_marks_a_loaded_game_came_with() {
        let text = "1. 11-15?? {a comment} 23-19?! 2. 8-11 $4 22-17 3. 15-18 *";
        let mut s = human();
        s.load_pdn(text, None).unwrap();
        let plies = review_on_board(&mut s);
        // 15-18 drops a man: the review's own mark, on a move that had none.
        let verdicts: Vec<_> = plies.iter().map(|j| (j.mark, j.node_mark)).collect();
        assert_eq!(verdicts[4], (Some("??"), Some(Some("??"))), "{plies:?}");
        let kept = [Some("??"), Some("?!"), Some("??"), None, Some("??")];
        for (j, want) in plies.iter().zip(kept) {
            assert_eq!(j.node_mark, Some(want), "{j:?}");
        }
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        let flat = pdn.replace('\n', " ");
        for note in [
            "11-15?? {[%eval",
            "23-19?! {[%eval",
            "8-11?? {[%eval",
            "15-18?? {",
        ] {
            assert!(flat.contains(note), "{note}: {pdn}");
        }
        assert!(flat.contains("a comment}"), "{pdn}");
        // Reviewed again, the same: the review replaces only what it added.
        let again = review_on_board(&mut s);
        assert_eq!(
            again.iter().map(|j| j.node_mark).collect::<Vec<_>>(),
            plies.iter().map(|j| j.node_mark).collect::<Vec<_>>()
        );
        // A mark the review disagrees with stays too: the review says `??`, the file `!?`.
        let mut s = human();
        s.load_pdn(&text.replace("15-18", "15-18!? $14"), None)
            .unwrap();
        let plies = review_on_board(&mut s);
        assert_eq!(plies[4].mark, Some("??"));
        assert_eq!(plies[4].node_mark, Some(Some("!?")));
        let last = *s.main_line().last().unwrap();
        assert_eq!(s.tree().node(last).unwrap().notes.nags, [5, 14]);
        assert_eq!(
            node_of(&s, last).best.as_deref(),
            Some(plies[4].best.as_str())
        );
    }

    /// PDN texts with all a tree keeps: tags out of order, variations three deep, comments
    /// before and after moves, marks, NAGs, scores, clocks and move times.
    const CORPUS: &str = "[GameType \"23\"]\n[Event \"club night\"]\n[Annotator \"me\"]\n\
[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n\
{A quiet opening.} 1. 11-15 {[%eval 0.05] [%clk 0:05:00]} 23-19?! {[%eval -0.10]} \
({Sharper:} 1... 22-18!? {trades at once} 2. 15x22 25x18 (2... 26x17 3. 9-13 (3. 8-11 $14 {three deep} \
17-14 (3... 24-19 {four}) 4. 10x17) 17-14) 3. 8-11) 2. 8-11 $1 {[%clk 0:04:58.5]} \
22-17 {time 0.250s} 3. 9-13 17-14?? 1/2-1/2\n\n\
[Event \"second\"]\n[FEN \"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n\
1. 22-18 (1. 23-19 9-14 (1... 10-14 2. 19-15 (2. 22-17 {deep}) 2... 11x18)) 1... 11-16 *\n";

    /// Load each game, save it, load that: the same tree, tags and result; and saving
    /// again gives the same text.
    fn round_trip(text: &str, number: usize) {
        let mut s = human();
        s.load_pdn(text, Some(number)).unwrap();
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        let mut t = human();
        t.load_pdn(&pdn, None)
            .unwrap_or_else(|e| panic!("{e}\n{pdn}"));
        assert!(t.tree().same_as(s.tree()), "{pdn}");
        // Every tag kept, in the roster's order; a Result tag added where there was none.
        let (loaded, saved) = (
            s.record.loaded_tags().unwrap(),
            t.record.loaded_tags().unwrap(),
        );
        let mut want: Vec<_> = pdn::writer::ordered_tags(loaded)
            .into_iter()
            .cloned()
            .collect();
        if !want.iter().any(|(k, _)| k == "Result") {
            want.push(("Result".into(), s.result_text()));
            want = pdn::writer::ordered_tags(&want)
                .into_iter()
                .cloned()
                .collect();
        }
        assert_eq!(saved, &want, "{pdn}");
        assert_eq!(t.result_text(), s.result_text());
        let Done::Reply(Reply::Pdn { pdn: again, .. }) = t.save_pdn() else {
            panic!("a pdn reply")
        };
        assert_eq!(again, pdn);
        // And the tree is the one the text holds.
        let read = &pdn::read_trees(text).unwrap()[number - 1];
        assert!(read.tree.same_as(s.tree()));
    }

    /// Issue 58, item 4: the board saves as it loads comments that the writer once changed:
    /// two time comments on one move (they swapped places on each save), a `{` inside a
    /// comment (dropped, so `{[%ev{al 0.05]}` came back a real score), halves of a command
    /// in two comments, and `}` in `;` comments, after a move and before a variation's.
    #[test]
    fn save_and_load_round_trip_odd_comments() {
        let text = "{[%eval 2} {x]} 1. 11-15 {time 1s} {time 2s} 23-19 {[%ev{al 0.05]} \
                    (; a } b\n1... 22-18 ; c } d\n{e\nf}) 2. 8-11 $14 {time} {1s} *\n";
        round_trip(text, 1);
        let mut s = human();
        s.load_pdn(text, None).unwrap();
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        let flat = pdn.replace('\n', " ");
        assert!(
            flat.contains("11-15 {time 1.000s} {time 2s} 23-19 {[%ev{al 0.05]}"),
            "{pdn}"
        );
        assert!(
            flat.contains("(; a } b 1... 22-18 ; c } d {e f}) 2. 8-11 $14 {time} {1s} *"),
            "{pdn}"
        );
    }

    #[test]
    fn save_and_load_round_trip_on_a_corpus() {
        let games = pdn::read_trees(CORPUS).unwrap();
        assert_eq!(games.len(), 2);
        // Three variations deep (four in the first game), comments and clocks read.
        let deepest = |tree: &GameTree| {
            tree.preorder()
                .iter()
                .map(|&id| tree.path(id).unwrap().iter().filter(|&&i| i > 0).count())
                .max()
                .unwrap()
        };
        assert_eq!(deepest(&games[0].tree), 4);
        assert_eq!(deepest(&games[1].tree), 3);
        for n in 1..=2 {
            round_trip(CORPUS, n);
        }
        let mut s = human();
        s.load_pdn(CORPUS, None).unwrap();
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        // The tags kept, the roster first; the rest in their order.
        assert!(pdn.starts_with("[Event \"club night\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n[GameType \"23\"]\n[Annotator \"me\"]\n"), "{pdn}");
        let st = s.state();
        assert_eq!(st.nodes[0].comment, "A quiet opening.");
        let marked = st.nodes.iter().find(|n| n.mark == Some("!?")).unwrap();
        assert_eq!(
            (marked.before.as_str(), marked.comment.as_str()),
            ("Sharper:", "trades at once")
        );
        // Random trees, each move with notes of every kind.
        let mut rng = crate::core::rng::SplitMix64::new(3);
        let mut text = String::new();
        for g in 0..12 {
            let tree = random_tree(&mut rng, 60 + 20 * g);
            let tags = vec![
                ("Round".to_string(), g.to_string()),
                ("Event".to_string(), "random".to_string()),
            ];
            text.push_str(&pdn::writer::write(&tags, &tree, "*"));
        }
        for n in 1..=12 {
            round_trip(&text, n);
        }
    }

    /// A tree of about `size` moves from the start: lines played out from random nodes, so
    /// variations nest, and notes of every kind on some moves.
    fn random_tree(rng: &mut crate::core::rng::SplitMix64, size: usize) -> GameTree {
        let mut tree = GameTree::new(Position::start());
        while tree.len() < size {
            let nodes = tree.preorder();
            let mut at = nodes[rng.below(nodes.len())];
            for _ in 0..1 + rng.below(8) {
                let legal = movegen::legal_moves(&tree.node(at).unwrap().position);
                if legal.is_empty() || tree.result_at(at).unwrap() != GameResult::Ongoing {
                    break;
                }
                let next = tree.play(at, *rng.pick(legal.as_slice())).unwrap();
                let first = tree.children(at)[0] == next;
                at = next;
                let notes = tree.notes_mut(at).unwrap();
                match rng.below(8) {
                    0 => notes.nags = vec![1 + rng.below(6) as u8],
                    1 => notes.nags = vec![1 + rng.below(6) as u8, 10 + rng.below(9) as u8],
                    2 => notes.eval = Some(format!("{:.2}", rng.below(400) as f64 / 100.0 - 2.0)),
                    3 => notes.comment = format!("idea {}", rng.below(100)),
                    4 => notes.clock = Some(Duration::from_millis(100 * rng.below(3000) as u64)),
                    5 if !first => notes.before = "instead".into(),
                    _ => {}
                }
            }
        }
        tree
    }

    #[test]
    fn a_bad_pdn_names_the_game_line_and_column_and_changes_nothing() {
        let mut s = human();
        s.load_pdn(CORPUS, None).unwrap();
        s.goto(Some(3), None).unwrap();
        let before = s.state();
        let bad = "[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 11-15 23-19\n2. 8-11 (2. 9-14 22-18 (2... 22-17 3. 14-23)) *\n";
        let e = s.load_pdn(bad, Some(1)).unwrap_err().to_string();
        assert_eq!(
            e,
            "bad PDN: game 2, line 6, column 39: move 3. '14-23' (ply 5): illegal move '14-23'"
        );
        let after = s.state();
        assert_eq!((after.node, &after.line), (before.node, &before.line));
        assert_eq!(after.nodes.len(), before.nodes.len());
        assert!(s.tree().same_as(&pdn::read_trees(CORPUS).unwrap()[0].tree));
    }

    /// Random moves played from random positions of the tree until the board refuses one
    /// as past `MAX_MOVES`.
    fn fill(s: &mut Session, rng: &mut crate::core::rng::SplitMix64) {
        let mut played = 0;
        let full = loop {
            let legal = movegen::legal_moves(s.game().position());
            if legal.is_empty() || s.end().is_some() || s.ply() > 60 {
                s.goto(Some(rng.below(s.ply() + 1)), None).unwrap();
                continue;
            }
            match s.play(*rng.pick(legal.as_slice())) {
                Ok(()) => played += 1,
                Err(e) => break e.to_string(),
            }
        };
        assert!(full.contains("holds 4000 moves"), "{full}");
        assert_eq!(s.tree().len(), MAX_MOVES + 1);
        assert!(played >= MAX_MOVES);
    }

    /// docs/BOARD.md gives the bounds the board enforces.
    #[test]
    fn the_docs_give_the_trees_bounds() {
        let doc = include_str!("../../../../docs/BOARD.md");
        let thousands = |n: usize| {
            let digits = n.to_string();
            let groups: Vec<&str> = digits
                .as_bytes()
                .rchunks(3)
                .rev()
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect();
            groups.join(",")
        };
        let load = crate::board::protocol::MAX_PDN_MESSAGE;
        for said in [
            format!("Refused once the tree holds {MAX_MOVES} moves"),
            format!("The tree holds at most {MAX_MOVES} moves at once"),
            format!("loaded or played, at most {MAX_PLIES} plies"),
            format!(
                "`load_pdn` and `chapter_add` up to {} bytes",
                thousands(load)
            ),
            format!("A study holds at most {} chapters", study::MAX_CHAPTERS),
            format!("main lines of {MAX_PLIES} moves together"),
            format!("{{\"load_pdn\":{load},"),
            format!("the rest, {} bytes,", thousands(size::WORDS)),
            format!(
                "variations nested more than {} deep",
                crate::core::pdn::MAX_NESTING
            ),
            format!("plus {} times", thousands(MAX_NODES)),
        ] {
            assert!(doc.contains(&said), "docs/BOARD.md: {said}");
        }
    }

    /// What bounds the board is the moves it holds, not the ids it gave (issue 58: after
    /// 2^18 moves played and deleted the board refused every move, "the game tree is
    /// full"). A deleted node's id stays refused after its place is taken.
    #[test]
    fn moves_played_and_deleted_for_ever_still_play() {
        let mut s = human();
        play(&mut s, "11-15");
        let kept = s.node();
        let mut gone = Vec::new();
        for i in 0..MAX_NODES + 100 {
            play(&mut s, "23-19");
            let id = s.node();
            s.delete(id.index()).unwrap();
            assert_eq!(s.node(), kept);
            if i % 50_000 == 0 {
                gone.push(id);
            }
        }
        play(&mut s, "22-18");
        assert_eq!(pdns(&s, &s.line()), ["11-15", "22-18"]);
        for old in gone {
            let e = format!("no node {} in the game tree", old.index());
            assert_eq!(s.goto(None, Some(old.index())).unwrap_err().to_string(), e);
            assert_eq!(s.delete(old.index()).unwrap_err().to_string(), e);
            assert_eq!(s.promote(old.index(), true).unwrap_err().to_string(), e);
        }
        assert_eq!(s.node(), s.line()[2], "nothing moved");
        // The documented bound still holds, with its message.
        fill(&mut s, &mut crate::core::rng::SplitMix64::new(3));
    }

    #[test]
    fn the_tree_is_bounded() {
        let mut rng = crate::core::rng::SplitMix64::new(9);
        let big = random_tree(&mut rng, MAX_MOVES + 2);
        let text = pdn::writer::write(&[], &big, "*");
        let e = human().load_pdn(&text, None).unwrap_err().to_string();
        assert!(e.contains("the board loads at most 4000"), "{e}");
        // Played up to the bound; then only moves already in the tree.
        let mut s = human();
        fill(&mut s, &mut rng);
        s.goto(Some(0), None).unwrap();
        let first = s
            .tree()
            .node(s.tree().children(s.node())[0])
            .unwrap()
            .mv
            .unwrap();
        s.play(first).unwrap();
        // The state of a full tree stays within a frame the page reads.
        let json = Reply::State(Box::new(s.state())).to_json();
        assert!(json.len() < 1 << 20, "{}", json.len());
    }

    #[test]
    fn both_captures_of_the_same_squares_are_offered() {
        let mut s = human();
        s.setup("W:WK2:B3,7,8,K9,17,28").unwrap();
        let st = s.state();
        assert_eq!(hubs(&s), ["2x4x8x9x17", "2x4x7x8"]);
        assert_eq!(st.legal[0].captured, [8, 9, 17]);
        assert_eq!(st.legal[1].captured, [7, 8]);
        for m in &st.legal {
            assert_eq!((m.path[0], *m.path.last().unwrap()), (2, 4));
            assert_eq!(m.pdn.split('x').count(), m.path.len());
        }
    }

    #[test]
    fn a_finished_game_takes_no_move() {
        let mut s = human();
        s.setup("W:W14:B9").unwrap();
        play(&mut s, "14x5");
        let st = s.state();
        let end = st.result.unwrap();
        assert_eq!(
            (end.winner, end.reason.as_str()),
            (Some("white"), "no pieces left (R16)")
        );
        assert!(st.legal.is_empty());
        assert!(s
            .play_text("5-1")
            .unwrap_err()
            .to_string()
            .contains("the game is over"));
        s.undo().unwrap();
        assert!(s.state().result.is_none());
    }

    #[test]
    fn a_side_with_men_but_no_move_loses_by_no_legal_move() {
        let mut s = human();
        s.setup("W:W32:B23,24,27,28").unwrap();
        let end = s.state().result.unwrap();
        assert_eq!(
            (end.winner, end.reason.as_str()),
            (Some("black"), "no legal move (R16)")
        );
    }

    #[test]
    fn players_keep_the_game() {
        let mut s = human();
        s.load_pdn("1. 11-15 23-19 *", None).unwrap();
        s.set_players(Player::Engine, Player::Human).unwrap();
        assert_eq!((s.ply(), s.player(Color::White)), (2, Player::Engine));
    }

    #[test]
    fn one_game_of_several_is_loaded_and_all_are_listed() {
        let mut s = human();
        let two = "[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 22-18 *\n";
        let Ok(Done::Loaded(Reply::Games { games, loaded, .. })) = s.load_pdn(two, Some(2)) else {
            panic!("no list of games")
        };
        assert_eq!(s.state().history[0].pdn, "9-13");
        assert_eq!(loaded, 2);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["Event"], "a");
        assert_eq!((games[1].number, games[1].plies), (2, 2));
        assert!(s
            .load_pdn(two, Some(3))
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        let one = s.load_pdn("1. 11-15 *", None);
        assert!(
            matches!(one, Ok(Done::Changed { auto: false })),
            "one game: no list"
        );
    }

    #[test]
    fn history_moves_carry_their_path_and_captures() {
        let mut s = human();
        s.setup("W:W26:B6,8,14,15,21,22,23").unwrap();
        let hub = s.state().legal[0].hub.clone();
        play(&mut s, &hub);
        let h = &s.state().history[0];
        assert_eq!(h.path.first(), Some(&26));
        assert_eq!(h.path.last(), Some(&1));
        assert_eq!(h.captured.len(), 3);
    }

    #[test]
    fn info_scores_for_black_flip_on_whites_turn() {
        let info = crate::search::Info {
            depth: 1,
            mean_depth: 1.0,
            score: crate::search::Score(25),
            nodes: 1,
            time: Duration::ZERO,
            pv: Vec::new(),
            multipv: None,
        };
        let white = notation::parse_fen("W:W21-32:B1-12").unwrap();
        let SearchInfo {
            score, score_black, ..
        } = search_info(&white, &info);
        assert_eq!((score.as_str(), score_black.as_str()), ("0.25", "-0.25"));
        let SearchInfo { score_black, .. } = search_info(&Position::start(), &info);
        assert_eq!(score_black, "0.25");
    }

    #[test]
    fn the_engine_move_must_fit_the_position_shown() {
        let mut s = Session::new(Position::start(), Player::Engine, Player::Human);
        play(&mut s, "11-15");
        assert!(s.engine_to_move());
        let key = s.game().position().key();
        let node = s.node();
        let mv = movegen::legal_moves(s.game().position())[0];
        s.undo().unwrap();
        assert!(
            s.play_engine(mv, node, key).is_err(),
            "the position changed"
        );
        s.redo().unwrap();
        s.play_engine(mv, node, key).unwrap();
        assert_eq!(s.ply(), 2);
    }

    #[test]
    fn the_thirteen_move_count_in_plies() {
        let mut s = human();
        s.setup("W:WK1,K2,K3:BK32").unwrap();
        assert_eq!(s.state().counts.thirteen, Some(0));
        assert_eq!(s.state().counts.thirteen_limit, 26);
        play(&mut s, "1-5");
        assert_eq!(s.state().counts.thirteen, Some(0));
        let lone = s.state().legal[0].hub.clone();
        play(&mut s, &lone);
        assert_eq!(s.state().counts.thirteen, Some(2));
        assert_eq!(s.state().counts.forty, 2);
    }

    #[test]
    fn pdn_round_trip() {
        let mut s = human();
        s.setup("W:W14:B9,10,K1").unwrap();
        play(&mut s, "14x5");
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        assert!(pdn.contains("[GameType \"23\"]\n"), "{pdn}");
        assert!(pdn.contains("[FEN \"W:W14:BK1,9,10\"]\n"), "{pdn}");
        let mut t = Session::default();
        t.load_pdn(&pdn, None).unwrap();
        assert_eq!(t.state().start_fen, "W:W14:BK1,9,10");
        assert_eq!(t.state().history[0].pdn, "14x5");
        assert_eq!(
            [Color::White, Color::Black].map(|c| t.player(c)),
            [Player::Human; 2]
        );
        assert!(t
            .load_pdn("[GameType \"21\"]\n*", None)
            .unwrap_err()
            .to_string()
            .contains("GameType"));
        assert!(t
            .load_pdn("[GameType \"23,W,8,8,A1,0\"]\n1. 11-15 *", None)
            .is_ok());
        assert!(t
            .load_pdn("1. 11-17 *", None)
            .unwrap_err()
            .to_string()
            .starts_with("bad PDN"));
        // Two kings walking to and fro, as long as a board loads: each move is legal text,
        // but the third repetition ends the game, and a move after it is refused.
        let mut long = String::from("[FEN \"W:WK30:BK3\"]\n");
        for _ in 0..(MAX_PLIES / 4 + 1) {
            long.push_str("30-26 3-7 26-30 7-3 ");
        }
        long.push('*');
        let e = t.load_pdn(&long, None).unwrap_err().to_string();
        assert!(e.contains("after the game ended"), "{e}");
        assert_eq!(
            t.state().history.len(),
            1,
            "a rejected load changes nothing"
        );
    }

    #[test]
    fn the_main_game_keeps_the_moves_taken_back() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11");
        s.goto(Some(1), None).unwrap();
        assert_eq!(s.main_game().moves().len(), 3);
        assert_eq!(s.game().moves().len(), 1);
    }

    /// A session whose clock reads a time moved by hand, and the hand.
    fn timed(white: Player, base: f64, inc: f64) -> (Session, Arc<std::sync::Mutex<Instant>>) {
        let t = Arc::new(std::sync::Mutex::new(Instant::now()));
        let hand = Arc::clone(&t);
        let mut s = Session::new(Position::start(), Player::Human, Player::Human)
            .with_time_source(Arc::new(move || *hand.lock().unwrap()));
        let clock = ClockSpec { base, inc };
        s.new_game(white, Player::Human, None, Some(clock)).unwrap();
        (s, t)
    }

    fn wait(t: &std::sync::Mutex<Instant>, ms: u64) {
        *t.lock().unwrap() += Duration::from_millis(ms);
    }

    #[test]
    fn a_flag_fall_ends_the_game_for_the_other_side() {
        let (mut s, t) = timed(Player::Human, 2.0, 0.0);
        let c = s.state().clock.unwrap();
        assert_eq!((c.black_ms, c.white_ms, c.running), (2000, 2000, None));
        wait(&t, 5000); // the first move is free
        play(&mut s, "11-15");
        wait(&t, 1900);
        assert!(!s.check_flag());
        let c = s.state().clock.unwrap();
        assert_eq!(
            (c.black_ms, c.white_ms, c.running),
            (2000, 100, Some("white"))
        );
        assert_eq!(
            s.flag_at(),
            Some(*t.lock().unwrap() + Duration::from_millis(100))
        );
        wait(&t, 100);
        assert!(s.check_flag());
        assert!(!s.check_flag(), "a flag falls once");
        let st = s.state();
        let end = st.result.unwrap();
        assert_eq!(
            (end.winner, end.reason.as_str()),
            (Some("black"), TIME_FORFEIT)
        );
        assert!(st.legal.is_empty());
        let c = st.clock.unwrap();
        assert_eq!((c.white_ms, c.running), (0, None));
        assert!(s
            .play_text("22-18")
            .unwrap_err()
            .to_string()
            .contains(TIME_FORFEIT));
        let pdn = pdn_of(&s);
        assert!(pdn.contains("[Result \"0-1\"]"), "{pdn}");
        assert!(pdn.contains("[TimeControl \"2+0\"]"), "{pdn}");
        assert!(pdn.contains("[Termination \"time forfeit\"]"), "{pdn}");
        assert!(pdn.contains("11-15 {[%clk 0:00:02]} 0-1"), "{pdn}");
    }

    #[test]
    fn a_move_sent_after_the_flag_does_not_count() {
        let (mut s, t) = timed(Player::Human, 2.0, 0.0);
        play(&mut s, "11-15");
        wait(&t, 2500);
        // No timer has looked yet: the move itself finds the flag.
        let e = s.play_text("22-18").unwrap_err().to_string();
        assert!(e.contains(TIME_FORFEIT), "{e}");
        assert_eq!(s.ply(), 1);
        assert_eq!(s.end().unwrap().winner, Some("black"));
    }

    #[test]
    fn clocks_take_the_increment_and_go_into_the_pdn() {
        let (mut s, t) = timed(Player::Human, 300.0, 3.0);
        wait(&t, 9000);
        play(&mut s, "11-15");
        wait(&t, 4000);
        play(&mut s, "23-19");
        wait(&t, 20_550);
        play(&mut s, "8-11");
        let c = s.state().clock.unwrap();
        assert_eq!((c.black_ms, c.white_ms), (282_450, 299_000));
        assert_eq!(
            (c.base_ms, c.inc_ms, c.running),
            (300_000, 3000, Some("white"))
        );
        let pdn = pdn_of(&s);
        assert!(pdn.contains("[TimeControl \"300+3\"]"), "{pdn}");
        assert!(pdn.contains("[Result \"*\"]"), "{pdn}");
        assert!(!pdn.contains("Termination"), "{pdn}");
        assert!(
            pdn.contains(
                "1. 11-15 {[%clk 0:05:00]} 23-19 {[%clk 0:04:59]} 2. 8-11 {[%clk 0:04:42.4]} *"
            ),
            "{pdn}"
        );
        // The clocks read back as the tree's notes.
        let back = pdn::read_trees(&pdn).unwrap().remove(0);
        let line = back.tree.main_line();
        let third = back.tree.node(line[3]).unwrap();
        assert_eq!(third.notes.clock, Some(Duration::from_millis(282_400)));
    }

    #[test]
    fn no_take_backs_while_the_clock_is_live_and_study_after_the_end() {
        let (mut s, t) = timed(Player::Human, 60.0, 0.0);
        play(&mut s, "11-15 23-19");
        let ids = s.line();
        for e in [
            s.undo(),
            s.redo(),
            s.goto(Some(0), None),
            s.goto(None, Some(ids[1].index())),
            s.promote(ids[2].index(), true),
            s.delete(ids[2].index()),
        ] {
            assert!(e.unwrap_err().to_string().starts_with("a timed game is on"));
        }
        assert_eq!(s.ply(), 2);
        wait(&t, 60_000);
        assert!(s.check_flag());
        assert_eq!(s.end().unwrap().winner, Some("white"));
        // After the flag the game can be walked; the flag is the result at its end only.
        s.goto(Some(1), None).unwrap();
        assert!(s.end().is_none());
        s.redo().unwrap();
        assert_eq!(s.end().unwrap().reason, TIME_FORFEIT);
        // Another move from before the flag is an (untimed) variation: the flag stays at
        // the end of the main line, which is the game's result.
        s.goto(Some(1), None).unwrap();
        play(&mut s, "22-18");
        assert!(s.end().is_none());
        assert!(s.state().clock.unwrap().running.is_none());
        let pdn = pdn_of(&s);
        assert!(
            pdn.contains("1. 11-15 {[%clk 0:01:00]} 23-19 {[%clk 0:01:00]} (1... 22-18) 1-0"),
            "{pdn}"
        );
        assert!(pdn.contains("[Termination \"time forfeit\"]"), "{pdn}");
        // Made the main line, the variation is the game: no flag at its end.
        let v = s.node();
        s.promote(v.index(), true).unwrap();
        let pdn = pdn_of(&s);
        assert!(
            pdn.contains("[Result \"*\"]") && !pdn.contains("Termination"),
            "{pdn}"
        );
    }

    #[test]
    fn a_result_by_the_rules_stops_the_clock() {
        let t = Arc::new(std::sync::Mutex::new(Instant::now()));
        let hand = Arc::clone(&t);
        let mut s = human().with_time_source(Arc::new(move || *hand.lock().unwrap()));
        let clock = Some(ClockSpec {
            base: 5.0,
            inc: 1.0,
        });
        s.new_game(Player::Human, Player::Human, Some("W:W18:B14,1"), clock)
            .unwrap();
        play(&mut s, "18x9");
        wait(&t, 1000);
        play(&mut s, "1-6");
        wait(&t, 1500);
        play(&mut s, "9x2");
        let st = s.state();
        assert_eq!(st.result.unwrap().winner, Some("white"));
        let c = st.clock.unwrap();
        assert_eq!((c.black_ms, c.white_ms, c.running), (5000, 4500, None));
        assert_eq!(s.flag_at(), None);
        wait(&t, 60_000);
        assert!(!s.check_flag());
        s.undo().unwrap();
    }

    #[test]
    fn the_engine_moves_on_its_clock_and_not_after_its_flag() {
        let (mut s, t) = timed(Player::Engine, 60.0, 2.0);
        play(&mut s, "11-15");
        assert!(s.engine_to_move());
        wait(&t, 10_000);
        let limits = s.move_limits();
        assert_eq!(limits.time, Some(Duration::from_secs(50)));
        assert_eq!(limits.inc, Duration::from_secs(2));
        assert_eq!(limits.move_time, None);
        s.set_level(None, Some(7), None).unwrap();
        assert_eq!(s.move_limits().depth, Some(7));
        let key = s.game().position().key();
        let mv = movegen::legal_moves(s.game().position())[0];
        wait(&t, 50_000);
        let node = s.node();
        assert!(s.play_engine(mv, node, key).is_err(), "its flag fell first");
        assert!(!s.engine_to_move());
        assert_eq!(s.end().unwrap().winner, Some("black"));
        // An untimed game goes back to the level.
        s.new_game(Player::Engine, Player::Human, None, None)
            .unwrap();
        assert!(s.state().clock.is_none());
        assert_eq!(s.move_limits().time, None);
    }

    #[test]
    fn a_bad_time_control_is_refused_and_nothing_changes() {
        let mut s = human();
        play(&mut s, "11-15");
        for (base, inc) in [(0.0, 0.0), (-5.0, 1.0), (f64::NAN, 0.0), (60.0, -1.0)] {
            let clock = Some(ClockSpec { base, inc });
            let e = s
                .new_game(Player::Human, Player::Human, None, clock)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("clock "), "{e}");
        }
        assert_eq!(s.ply(), 1);
        assert!(s.state().clock.is_none());
    }

    #[test]
    fn level_is_checked() {
        let mut s = human();
        assert!(s.set_level(Some(0.0), None, None).is_err());
        assert!(s.set_level(Some(f64::NAN), None, None).is_err());
        assert!(s.set_level(None, Some(0), None).is_err());
        assert!(s.set_level(Some(1.0), Some(3), None).is_err());
        assert!(s.set_level(None, None, None).is_err());
        assert!(s.set_level(None, None, Some(11)).is_err());
        assert!(s.set_level(Some(2.0), None, Some(11)).is_err());
        assert!(s.set_level(Some(1.0), Some(3), Some(2)).is_err());
        assert_eq!(s.roster.level(), DEFAULT_LEVEL);
        s.set_level(None, Some(5), None).unwrap();
        assert_eq!(s.move_limits().depth, Some(5));
        assert_eq!(s.play_level(), None);
    }

    /// A level alone keeps the limit; a limit alone is full strength again, and so is 0.
    #[test]
    fn a_playing_level_joins_the_limit() {
        let mut s = human();
        s.set_level(None, Some(6), None).unwrap();
        s.set_level(None, None, Some(3)).unwrap();
        assert_eq!(s.play_level().map(PlayLevel::get), Some(3));
        assert_eq!(s.move_limits().depth, Some(6));
        s.set_level(Some(0.5), None, Some(7)).unwrap();
        assert_eq!(s.play_level().map(PlayLevel::get), Some(7));
        assert_eq!(s.move_limits().move_time, Some(Duration::from_millis(500)));
        s.set_level(Some(2.0), None, None).unwrap();
        assert_eq!(s.play_level(), None);
        s.set_level(None, None, Some(4)).unwrap();
        s.set_level(None, None, Some(0)).unwrap();
        assert_eq!(s.play_level(), None);
        assert_eq!(s.move_limits().move_time, Some(Duration::from_secs(2)));
        // The level is part of the state and survives a new game.
        s.set_level(None, None, Some(2)).unwrap();
        s.new_game(Player::Human, Player::Engine, None, None)
            .unwrap();
        assert_eq!(s.state().level.level.map(PlayLevel::get), Some(2));
    }

    /// Issue 61, Build 6: a review lasts. The saved PDN holds each marked move's best line
    /// as a variation tagged `[%review best]` with its `[%eval]`, and each reviewed move's
    /// `[%review]`; loaded back, the tree is the one saved (the review's lines are not
    /// players' variations), and each node's review and the summary are as they were.
    /// Defect 3: the summary follows the main line.
    #[test]
    fn a_review_is_saved_and_loaded_back_with_its_best_lines() {
        let mut s = human();
        s.load_pdn("1. 11-15 23-19 2. 8-11 22-17 3. 15-18 24-20 *", None)
            .unwrap();
        let plies = review_on_board(&mut s);
        let marked: Vec<&Judgement> = plies.iter().filter(|j| j.mark.is_some()).collect();
        assert!(!marked.is_empty(), "{plies:?}");
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        let flat = pdn.replace('\n', " ");
        for j in &marked {
            let variation = format!("{} {{[%eval {}] [%review best]}}", j.best, j.best_score);
            assert!(flat.contains(&variation), "{variation}: {pdn}");
        }
        assert!(flat.contains("[%review 0.00 100.0]"), "{pdn}");
        let mut t = human();
        t.load_pdn(&pdn, None).unwrap();
        assert!(t.tree().same_as(s.tree()), "{pdn}");
        let (main, loaded) = (s.main_line(), t.main_line());
        for j in &marked {
            let (before, after) = (node_of(&s, main[j.ply]), node_of(&t, loaded[j.ply]));
            assert_eq!(after.best.as_deref(), Some(j.best.as_str()));
            assert_eq!(after.review, before.review);
            let review = after.review.expect("a review");
            assert_eq!(review.best_score.as_deref(), Some(j.best_score.as_str()));
            assert_eq!(review.best_path, j.best_path);
            assert_eq!(review.mark, j.mark);
        }
        let summary = s.state().review.expect("a summary");
        assert_eq!((summary.plies, summary.of), (6, 6));
        assert_eq!(t.state().review, Some(summary.clone()));
        // Saved again, the same text.
        let Done::Reply(Reply::Pdn { pdn: again, .. }) = t.save_pdn() else {
            panic!("a pdn reply")
        };
        assert_eq!(again, pdn);
        // A main-line move deleted: the summary is of the moves left.
        t.delete(loaded[6].index()).unwrap();
        let shorter = t.state().review.expect("a summary");
        assert_eq!((shorter.plies, shorter.of), (5, 5));
        // A variation made the main line at the first move: nothing of it is reviewed.
        t.goto(Some(0), None).unwrap();
        play(&mut t, "9-13");
        let v = t.node();
        t.promote(v.index(), true).unwrap();
        assert_eq!(t.state().review, None);
    }
}
