//! One connection's game, without the socket: the game tree (`core::tree`) with the node
//! shown and the line it is on, who plays each side, the engine's level, a loaded game's
//! tags, and the `state` message built from the rules core. Every request is checked here
//! against the rules, and a rejected one leaves the session as it was.
//!
//! Nothing is lost by playing: a move where the game goes on already follows that move when
//! it is the same, and starts a variation when it is another. Only `delete` removes moves.
//! The *current line* is the line the page walks (`history`, its move list's highlighted
//! line): from the root through `tip`, the deepest node chosen on it, then on along first
//! children. Going back along it (undo, goto an earlier move) keeps it, so that redo goes
//! back down the same variation; going to a node off it makes that node's line current.
//!
//! A review reviews the main line, and its marks and scores are kept in the main line's
//! nodes (`record_review`), so they stay with their moves whatever else is played.
//!
//! A timed game (`timed`: its clocks and flag) reads the time from the session's time source
//! (`Now`), which a test replaces. While it runs the game cannot be walked (no take-backs), so its
//! moves make the main line, each with the mover's clock after it in its notes (`[%clk]`).

use crate::board::clock::TimeControl;
use crate::board::protocol::{
    ClockSpec, Counts, GameEnd, HistoryMove, LegalMove, Level, Limit, PdnGameTags, Player, Reply,
    SearchInfo, State, TreeNode, MAX_DEPTH, MAX_MOVETIME, MAX_MULTIPV,
};
use crate::core::game::DrawReason;
use crate::core::pdn::notes as pdn_notes;
use crate::core::rules::{FORTY_MOVE_PLIES, LONE_KING_MOVES};
use crate::core::tree::{GameTree, NodeId, TreeError};
use crate::core::{movegen, notation, Color, Game, GameResult, Move, Position};
use crate::search::level::PlayLevel;
use crate::search::Limits;
use crate::time_source::Instant;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

mod annotate;
mod error;
mod pdn_io;
mod reviewed;
mod size;
mod timed;

pub use annotate::AnnotateError;
pub use error::SessionError;
use reviewed::Reviewed;
pub use reviewed::{BestLine, ReviewNote, BEST_LINE_PLIES};
use timed::TimedGame;

/// Where a session reads the time for its clock: the real time, or a test's hand.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The reason a flag fall gives in `GameEnd`.
pub const TIME_FORFEIT: &str = "time forfeit";

/// The longest line (the main line or a variation) a PDN may load, and a move may make.
/// Every real game is far shorter (the draw rules end one long before); the bound keeps a
/// hostile file from making huge `state` messages, and sizes a saved game (`size`).
pub const MAX_PLIES: usize = 2000;

/// The most moves a board's tree holds, variations included: a loaded game with more is
/// refused, and so is a new move past it. Every `state` carries the tree, and this bounds it
/// (with `annotate::MAX_COMMENTS`, which bounds the comments) to a few megabytes.
pub const MAX_MOVES: usize = 4000;

/// The engine's strength until the page sets one: a second a move, full strength.
pub const DEFAULT_LEVEL: Level = Level {
    limit: Limit::Movetime(1.0),
    level: None,
};

/// What the server does after a request the session accepted.
#[derive(Debug)]
pub enum Done {
    /// The game changed: send the state. With `auto`, the engine moves next if it plays
    /// the side to move (after a human move or a new game, not after undo or goto).
    Changed { auto: bool },
    /// Send this reply; nothing changed.
    Reply(Reply),
}

/// One connection's game.
pub struct Session {
    tree: GameTree,
    /// The node shown; always on the way from the root to `tip`.
    at: NodeId,
    /// The deepest node chosen on the current line (see the module's doc).
    tip: NodeId,
    /// The game from the start to `at`, with its history (for the draw rules and the
    /// search).
    game: Game,
    /// How each node's move is shown (PDN, Hub, path, captures), made once when it is added.
    shown: HashMap<NodeId, HistoryMove>,
    /// A loaded game's tags, which `save_pdn` writes again; `None` for a game begun here.
    tags: Option<Vec<(String, String)>>,
    /// The roster's tags set by `tags`, over `tags` or the board's (an empty value leaves
    /// the tag out); `Result` is `loaded_result`'s.
    tag_edits: Vec<(String, String)>,
    /// A loaded game's result, and the main line's last node when it was loaded: the result
    /// stands while the main line ends there.
    loaded_result: Option<(NodeId, String)>,
    /// What the review said of each reviewed move beyond its notes' mark and score: its
    /// verdict and best line (`reviewed`, saved in the PDN as `[%review]`) and the mark it added,
    /// which the next review may replace.
    reviewed: HashMap<NodeId, Reviewed>,
    pub white: Player,
    pub black: Player,
    pub level: Level,
    /// An engine move is being searched (set by the server).
    pub thinking: bool,
    /// Analysis is on (set by the server); kept through new games and loads.
    pub analyzing: bool,
    /// Analysis lines (1 to `MAX_MULTIPV`); kept like `analyzing`.
    pub multipv: usize,
    /// After a `load_pdn` of several games: the first games' tags (`pdn_io::MAX_LISTED`),
    /// the number shown and how many there are, for the server to send once
    /// (`Reply::Games`).
    pub games: Option<(Vec<PdnGameTags>, usize, usize)>,
    /// The clocks of a timed game (set by `new` with a time control) and its flag.
    timed: TimedGame,
}

impl Default for Session {
    fn default() -> Session {
        Session::new(Position::start(), Player::Engine, Player::Human)
    }
}

impl Session {
    /// A new game from `start` (Black human and White engine by default).
    pub fn new(start: Position, white: Player, black: Player) -> Session {
        let tree = GameTree::new(start);
        let root = tree.root();
        Session {
            tree,
            at: root,
            tip: root,
            game: Game::new(start),
            shown: HashMap::new(),
            tags: None,
            tag_edits: Vec::new(),
            loaded_result: None,
            reviewed: HashMap::new(),
            white,
            black,
            level: DEFAULT_LEVEL,
            thinking: false,
            analyzing: false,
            multipv: 1,
            games: None,
            timed: TimedGame::new(Arc::new(Instant::now)),
        }
    }

    /// The session with its clock reading the time from `now` (the host's, or a test's
    /// hand).
    pub fn with_time_source(mut self, now: Now) -> Session {
        self.timed = TimedGame::new(now);
        self
    }

    /// Start again from `start` with these players, keeping the level, analysis and time
    /// source; untimed.
    fn restart(&mut self, start: Position, white: Player, black: Player) {
        *self = self.fresh(start, white, black);
    }

    /// A new game from `start` with these players and this session's level, analysis and
    /// time source; untimed.
    fn fresh(&self, start: Position, white: Player, black: Player) -> Session {
        let mut s = Session::new(start, white, black).with_time_source(self.timed.time_source());
        s.level = self.level;
        s.analyzing = self.analyzing;
        s.multipv = self.multipv;
        s
    }

    /// The game up to the position shown, for the search.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// The node shown.
    pub fn node(&self) -> NodeId {
        self.at
    }

    /// The main line's nodes, the root first: what a review reviews.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.tree.main_line()
    }

    /// The main line as a game, from the start: what a review reviews.
    pub fn main_game(&self) -> Game {
        let end = *self.tree.main_line().last().expect("the root at least");
        self.tree.game_at(end).expect("a live node")
    }

    /// The current line's nodes, the root first (see the module's doc).
    pub fn line(&self) -> Vec<NodeId> {
        self.tree.line_through(self.tip).expect("the tip is live")
    }

    /// Is `id` on the way from the root to `tip` (`tip` included)?
    fn leads_to_tip(&self, id: NodeId) -> bool {
        let mut n = Some(self.tip);
        while let Some(x) = n {
            if x == id {
                return true;
            }
            n = self.tree.node(x).and_then(|n| n.parent);
        }
        false
    }

    /// Show the live node `id`, with `game` the game to it; a node off the way to `tip`
    /// makes its own line the current one.
    fn show_with(&mut self, id: NodeId, game: Game) {
        if !self.leads_to_tip(id) {
            self.tip = id;
        }
        self.at = id;
        self.game = game;
    }

    /// Show the live node `id`.
    fn show(&mut self, id: NodeId) {
        let game = self.tree.game_at(id).expect("a live node");
        self.show_with(id, game);
    }

    /// `analyze`'s lines: 1 when not given, else 1 to `MAX_MULTIPV`.
    pub fn set_multipv(&mut self, multipv: Option<u64>) -> Result<(), SessionError> {
        let n = multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&n) {
            return Err(SessionError::Multipv(n));
        }
        self.multipv = n as usize;
        Ok(())
    }

    /// The search limits for analysis: until stopped, with `multipv` lines.
    pub fn analysis_limits(&self) -> Limits {
        Limits {
            infinite: true,
            analyze: true,
            multipv: self.multipv,
            ..Limits::default()
        }
    }

    /// Plies played to reach the position shown.
    pub fn ply(&self) -> usize {
        self.game.moves().len()
    }

    pub fn player(&self, side: Color) -> Player {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Is the game on, with the engine to move?
    pub fn engine_to_move(&self) -> bool {
        self.end().is_none() && self.player(self.game.position().side()) == Player::Engine
    }

    /// The search limits for an engine move: in a timed game its clock, with the search's
    /// own time management (a depth level still caps the depth); else the level. A playing
    /// level, if one is set, further limits them (`play_level`).
    pub fn move_limits(&self) -> Limits {
        if let Some(mut limits) = self.timed.limits(self.game.position().side()) {
            if let Limit::Depth(d) = self.level.limit {
                limits.depth = Some(d);
            }
            return limits;
        }
        match self.level.limit {
            Limit::Movetime(s) => Limits {
                move_time: Some(Duration::from_secs_f64(s)),
                ..Limits::default()
            },
            Limit::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }

    /// The playing level of the engine's moves; None for full strength.
    pub fn play_level(&self) -> Option<PlayLevel> {
        self.level.level
    }

    /// `new`: a new game from the start or a FEN, with these players, timed with `clock`
    /// if given.
    pub fn new_game(
        &mut self,
        white: Player,
        black: Player,
        fen: Option<&str>,
        clock: Option<ClockSpec>,
    ) -> Result<Done, SessionError> {
        let start = match fen {
            Some(f) => parse_fen(f)?,
            None => Position::start(),
        };
        let control = clock
            .map(|c| TimeControl::from_seconds(c.base, c.inc))
            .transpose()
            .map_err(SessionError::Clock)?;
        self.restart(start, white, black);
        self.timed.restart(control);
        // Analysis would search on the players' clocks (`analysis_allowed`).
        if self.timed.is_live() {
            self.analyzing = false;
        }
        Ok(Done::Changed { auto: true })
    }

    /// Refuse to walk the game while its clock is live: a timed game has no take-backs.
    fn walk_allowed(&self) -> Result<(), SessionError> {
        self.timed.walk_allowed()
    }

    /// Refuse the engine's move for a side a person plays while the clocks are live: it
    /// would be the person's move, found on their clock by the engine.
    pub fn engine_move_allowed(&self) -> Result<(), SessionError> {
        let side = self.game.position().side();
        if self.timed.is_live() && self.player(side) == Player::Human {
            return Err(SessionError::TimedEngineMove);
        }
        Ok(())
    }

    /// Refuse to turn analysis on while the clocks are live (turning it off is always
    /// allowed); a timed game begins with it off (`new_game`).
    pub fn analysis_allowed(&self, on: bool) -> Result<(), SessionError> {
        if on && self.timed.is_live() {
            return Err(SessionError::TimedAnalysis);
        }
        Ok(())
    }

    /// Let the flag fall if the running clock has reached zero. True if it fell now: at the
    /// node shown, which is the last move of a game that could not be walked.
    pub fn check_flag(&mut self) -> bool {
        self.timed.check_flag(self.at)
    }

    /// When the running clock reaches zero, if one runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.timed.flag_at()
    }

    /// Stop the clock for good if the game at the position shown has ended by the rules.
    fn stop_clock_at_the_end(&mut self) {
        if self.game.result() != GameResult::Ongoing {
            self.timed.stop();
        }
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

    /// The clock's part of a move just played by `side` (the node shown): the mover's clock
    /// after it goes into the move's notes, for `[%clk]`.
    fn clock_moved(&mut self, side: Color) {
        if let Some(reading) = self.timed.moved(side) {
            if let Some(notes) = self.tree.notes_mut(self.at) {
                notes.clock = Some(reading);
            }
        }
        self.stop_clock_at_the_end();
    }

    /// `players`: who plays each side from the position shown on; the game is kept, and
    /// the engine moves next if it plays the side to move.
    pub fn set_players(&mut self, white: Player, black: Player) -> Result<Done, SessionError> {
        self.white = white;
        self.black = black;
        Ok(Done::Changed { auto: true })
    }

    /// `setup`: a position to study, both sides human.
    pub fn setup(&mut self, fen: &str) -> Result<Done, SessionError> {
        self.new_game(Player::Human, Player::Human, Some(fen), None)?;
        Ok(Done::Changed { auto: false })
    }

    /// `level`: seconds per move or a depth (one of them), a playing level, or both. A limit
    /// without a level is full strength; a level alone keeps the limit in force. Level 0 is
    /// full strength.
    pub fn set_level(
        &mut self,
        movetime: Option<f64>,
        depth: Option<u32>,
        level: Option<u64>,
    ) -> Result<Done, SessionError> {
        let limit = match (movetime, depth) {
            (Some(s), None) if s.is_finite() && s > 0.0 && s <= MAX_MOVETIME => Limit::Movetime(s),
            (Some(s), None) => return Err(SessionError::Movetime(s)),
            (None, Some(d)) if (1..=MAX_DEPTH).contains(&d) => Limit::Depth(d),
            (None, Some(d)) => return Err(SessionError::Depth(d)),
            (None, None) if level.is_some() => self.level.limit,
            _ => return Err(SessionError::LevelShape),
        };
        let level = match level {
            None | Some(0) => None,
            Some(n) => Some(PlayLevel::new(n).map_err(SessionError::PlayLevel)?),
        };
        self.level = Level { limit, level };
        Ok(Done::Changed { auto: false })
    }

    /// `move`: a human move in Hub or PDN notation.
    pub fn play_text(&mut self, text: &str) -> Result<Done, SessionError> {
        self.clock_allows_move()?;
        let mv = notation::parse_move(self.game.position(), text)
            .map_err(|e| SessionError::IllegalMove(text.to_string(), e.to_string()))?;
        let side = self.game.position().side();
        self.play(mv)?;
        self.clock_moved(side);
        Ok(Done::Changed { auto: true })
    }

    /// Play a legal move in the position shown: the same move as one already played here
    /// follows it, another adds a variation (refused when the tree holds `MAX_MOVES`).
    pub fn play(&mut self, mv: Move) -> Result<(), SessionError> {
        let known = self
            .tree
            .children(self.at)
            .iter()
            .any(|&c| self.tree.node(c).and_then(|n| n.mv) == Some(mv));
        if !known && self.tree.len() > MAX_MOVES {
            return Err(SessionError::TreeFull);
        }
        // Every line stays as long as a loaded one may be, so that a saved game loads.
        if !known && self.ply() >= MAX_PLIES {
            return Err(SessionError::LineFull);
        }
        let before = *self.game.position();
        let id = self.tree.play(self.at, mv)?;
        self.shown
            .entry(id)
            .or_insert_with(|| history_move(&before, &mv));
        let mut game = std::mem::replace(&mut self.game, Game::new(before));
        game.play(&mv);
        self.show_with(id, game);
        Ok(())
    }

    /// The engine's move, found for node `node` (position key `key`): played if that node
    /// is still the one shown, the move is legal there, and the engine's flag has not fallen.
    pub fn play_engine(&mut self, mv: Move, node: NodeId, key: u64) -> Result<(), SessionError> {
        let pos = self.game.position();
        if self.at != node || pos.key() != key || !movegen::legal_moves(pos).contains(&mv) {
            return Err(SessionError::StaleEngineMove(mv));
        }
        self.clock_allows_move()?;
        let side = self.game.position().side();
        self.play(mv)?;
        self.clock_moved(side);
        Ok(())
    }

    /// `undo`: the position before, on the same line.
    pub fn undo(&mut self) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let Some(parent) = self.tree.node(self.at).and_then(|n| n.parent) else {
            return Err(SessionError::NothingToTakeBack);
        };
        let mut game = std::mem::replace(&mut self.game, Game::new(self.tree.start()));
        game.undo();
        self.show_with(parent, game);
        Ok(Done::Changed { auto: false })
    }

    /// `redo`: the next move of the current line.
    pub fn redo(&mut self) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let Some(&next) = self.line().get(self.ply() + 1) else {
            return Err(SessionError::NothingToPlayForward);
        };
        let mv = self.tree.node(next).and_then(|n| n.mv).expect("a move");
        let mut game = std::mem::replace(&mut self.game, Game::new(self.tree.start()));
        game.play(&mv);
        self.show_with(next, game);
        Ok(Done::Changed { auto: false })
    }

    /// `goto`: a node of the tree by its id, or the position after `ply` plies of the
    /// current line.
    pub fn goto(&mut self, ply: Option<usize>, node: Option<u64>) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let id = match (ply, node) {
            (Some(ply), None) => {
                let line = self.line();
                *line.get(ply).ok_or(SessionError::PlyOutOfRange {
                    ply,
                    plies: line.len() - 1,
                })?
            }
            (None, Some(n)) => self.live(n)?,
            _ => return Err(SessionError::GotoShape),
        };
        self.show(id);
        Ok(Done::Changed { auto: false })
    }

    /// The node a client names, if it is in the tree.
    fn live(&self, n: u64) -> Result<NodeId, SessionError> {
        let id = NodeId::from_index(n);
        match self.tree.node(id) {
            Some(_) => Ok(id),
            None => Err(TreeError::NoSuchNode(id).into()),
        }
    }

    /// `promote`: a variation one place up among its siblings, or (`to_main`) into the main
    /// line. The position shown and the current line stay.
    pub fn promote(&mut self, node: u64, to_main: bool) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let id = NodeId::from_index(node);
        let done = match to_main {
            true => self.tree.promote_to_main(id),
            false => self.tree.promote(id),
        };
        done?;
        Ok(Done::Changed { auto: false })
    }

    /// `delete`: a node and every move after it. Where the position shown goes with them,
    /// the board shows the position before the deleted move.
    pub fn delete(&mut self, node: u64) -> Result<Done, SessionError> {
        self.walk_allowed()?;
        let parent = self.tree.delete(NodeId::from_index(node))?;
        if self.tree.node(self.tip).is_none() {
            self.tip = parent;
        }
        if self.tree.node(self.at).is_none() {
            self.show(parent);
        }
        let tree = &self.tree;
        self.timed.keep_flag_if(|at| tree.node(at).is_some());
        self.shown.retain(|&id, _| tree.node(id).is_some());
        self.reviewed.retain(|&id, _| tree.node(id).is_some());
        Ok(Done::Changed { auto: false })
    }

    /// How the game at the position shown has ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        let (winner, reason) = match self.game.result() {
            GameResult::Ongoing => match self.timed.flag() {
                Some((loser, at)) if at == self.at => {
                    (Some(color_name(loser.flip())), TIME_FORFEIT)
                }
                _ => return None,
            },
            // R16: the loser has no legal move, either because it has no piece left.
            GameResult::Win(c) if self.game.position().pieces(c.flip()).is_empty() => {
                (Some(color_name(c)), "no pieces left (R16)")
            }
            GameResult::Win(c) => (Some(color_name(c)), "no legal move (R16)"),
            GameResult::Draw(DrawReason::Repetition) => (None, "repetition (R17)"),
            GameResult::Draw(DrawReason::FortyMoveRule) => (None, "40-move rule (R18)"),
            GameResult::Draw(DrawReason::ThirteenMoveRule) => (None, "13-move rule (R19)"),
        };
        Some(GameEnd {
            winner,
            reason: reason.into(),
        })
    }

    /// How node `id`'s move is shown (None at the root).
    fn move_shown(&self, id: NodeId) -> Option<HistoryMove> {
        if let Some(m) = self.shown.get(&id) {
            return Some(m.clone());
        }
        let node = self.tree.node(id)?;
        let before = self.tree.node(node.parent?)?.position;
        Some(history_move(&before, &node.mv?))
    }

    /// Node `id` as the page gets it.
    fn tree_node(&self, id: NodeId) -> Option<TreeNode> {
        let node = self.tree.node(id)?;
        let notes = &node.notes;
        let mark = notes.nags.iter().find_map(|&n| pdn_notes::nag_mark(n));
        let mut nags = notes.nags.clone();
        if let Some(i) = nags.iter().position(|&n| pdn_notes::nag_mark(n).is_some()) {
            nags.remove(i);
        }
        Some(TreeNode {
            id: id.index(),
            parent: node.parent.map(NodeId::index),
            mv: self.move_shown(id),
            children: node.children.iter().map(|c| c.index()).collect(),
            mark,
            nags,
            eval: notes.eval.clone(),
            best: self
                .reviewed
                .get(&id)
                .and_then(|r| r.note.best.as_ref())
                .map(|b| b.mv.clone()),
            review: self.node_review(id),
            comment: notes.comment.clone(),
            before: notes.before.clone(),
        })
    }

    /// The `state` message.
    pub fn state(&self) -> State {
        let pos = self.game.position();
        let mut pieces = BTreeMap::new();
        for n in 1..=32u8 {
            let sq = crate::core::Square::from_number(n).expect("squares 1-32");
            if let Some((c, king)) = pos.piece_at(sq) {
                let p = match (c, king) {
                    (Color::Black, false) => "b",
                    (Color::White, false) => "w",
                    (Color::Black, true) => "B",
                    (Color::White, true) => "W",
                };
                pieces.insert(n, p);
            }
        }
        let result = self.end();
        // A finished game offers no moves, even where the rules would still generate some
        // (a draw by a count or by repetition).
        let legal = if result.is_some() {
            Vec::new()
        } else {
            movegen::legal_moves(pos)
                .iter()
                .map(|mv| legal_move(pos, mv))
                .collect()
        };
        let counts = self.game.counts();
        let line = self.line();
        State {
            fen: notation::write_fen(pos),
            side: color_name(pos.side()),
            pieces,
            legal,
            history: line.iter().filter_map(|&id| self.move_shown(id)).collect(),
            ply: self.ply(),
            node: self.at.index(),
            line: line.iter().map(|id| id.index()).collect(),
            nodes: self
                .tree
                .preorder()
                .into_iter()
                .filter_map(|id| self.tree_node(id))
                .collect(),
            start_fen: notation::write_fen(&self.tree.start()),
            white: self.white,
            black: self.black,
            thinking: self.thinking,
            analyzing: self.analyzing,
            result,
            counts: Counts {
                forty: u32::from(counts.quiet_king_plies),
                forty_limit: FORTY_MOVE_PLIES,
                // In plies like the 40-move count (two per lone king move), so that the
                // page shows both as moves the same way.
                thirteen: counts.lone_king_moves.map(|n| 2 * u32::from(n)),
                thirteen_limit: 2 * LONE_KING_MOVES,
            },
            level: self.level,
            egdb: None,
            clock: self.timed.state(),
            tags: self.tags_now().into_iter().collect(),
            review: self.review_summary(),
        }
    }
}

/// A move played, as `history` and the tree's nodes show it.
fn history_move(before: &Position, mv: &Move) -> HistoryMove {
    let shown = legal_move(before, mv);
    HistoryMove {
        pdn: shown.pdn,
        hub: shown.hub,
        captured: shown.captured,
        path: shown.path,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_fen(fen: &str) -> Result<Position, SessionError> {
    notation::parse_fen(fen).map_err(|e| SessionError::Fen(fen.to_string(), e.to_string()))
}

/// A legal move as the page gets it. Of several paths that take the same pieces (one move,
/// R15) the first is shown.
pub(crate) fn legal_move(pos: &Position, mv: &Move) -> LegalMove {
    let mut path = vec![mv.from.number()];
    if mv.is_capture() {
        let landing = notation::capture_paths(pos, mv).into_iter().next();
        path.extend(
            landing
                .unwrap_or_else(|| vec![mv.to])
                .iter()
                .map(|s| s.number()),
        );
    } else {
        path.push(mv.to.number());
    }
    LegalMove {
        hub: mv.hub(),
        pdn: notation::pdn_move(pos, mv),
        from: mv.from.number(),
        to: mv.to.number(),
        captured: mv.captured.into_iter().map(|s| s.number()).collect(),
        path,
    }
}

/// The `info` message for one search iteration from `root`.
pub fn info_reply(root: &Position, info: &crate::search::Info) -> Reply {
    Reply::Info(Box::new(search_info(root, info)))
}

/// One search iteration from `root` as the page gets it (`info`).
pub fn search_info(root: &Position, info: &crate::search::Info) -> SearchInfo {
    let mut pos = *root;
    let mut pv_pdn = Vec::new();
    for mv in &info.pv {
        pv_pdn.push(notation::pdn_move(&pos, mv));
        pos = pos.play(mv);
    }
    let black = match root.side() {
        Color::Black => info.score,
        Color::White => -info.score,
    };
    SearchInfo {
        depth: info.depth,
        score: info.score.hub(),
        score_black: black.hub(),
        nodes: info.nodes,
        time: info.time.as_secs_f64(),
        pv: info.pv.iter().map(|m| m.hub()).collect(),
        pv_pdn,
        multipv: info.multipv,
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
    use crate::board::protocol::Judgement;
    use crate::core::pdn;
    use crate::core::tree::MAX_NODES;

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
            .filter_map(|&id| s.move_shown(id).map(|m| m.pdn))
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
        s.tree.notes_mut(main[4]).unwrap().nags.push(14);
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
        use crate::board::review::PlyReport;
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
        let (loaded, saved) = (s.tags.as_ref().unwrap(), t.tags.as_ref().unwrap());
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
            format!("`load_pdn` up to {} bytes", thousands(load)),
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
    fn new_games_and_loads_keep_analysis_and_players_keep_the_game() {
        let mut s = human();
        s.analyzing = true;
        s.new_game(Player::Engine, Player::Human, None, None)
            .unwrap();
        assert!(s.analyzing);
        s.setup("W:W14:B9").unwrap();
        assert!(s.analyzing);
        s.load_pdn("1. 11-15 23-19 *", None).unwrap();
        assert!(s.analyzing);
        s.set_players(Player::Engine, Player::Human).unwrap();
        assert_eq!((s.ply(), s.white), (2, Player::Engine));
    }

    #[test]
    fn one_game_of_several_is_loaded_and_all_are_listed() {
        let mut s = human();
        let two = "[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 22-18 *\n";
        s.load_pdn(two, Some(2)).unwrap();
        assert_eq!(s.state().history[0].pdn, "9-13");
        let (games, loaded, _) = s.games.take().expect("the list of games");
        assert_eq!(loaded, 2);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["Event"], "a");
        assert_eq!((games[1].number, games[1].plies), (2, 2));
        assert!(s
            .load_pdn(two, Some(3))
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        s.load_pdn("1. 11-15 *", None).unwrap();
        assert!(s.games.is_none(), "one game: no list");
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
        assert_eq!((t.white, t.black), (Player::Human, Player::Human));
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
    fn multipv_is_checked_and_kept_through_new_games() {
        let mut s = human();
        assert!(s.set_multipv(Some(0)).is_err());
        assert!(s.set_multipv(Some(6)).is_err());
        assert_eq!(s.multipv, 1);
        s.set_multipv(Some(3)).unwrap();
        s.new_game(Player::Human, Player::Human, None, None)
            .unwrap();
        assert_eq!(s.analysis_limits().multipv, 3);
        s.set_multipv(None).unwrap();
        assert_eq!(s.multipv, 1);
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
        assert_eq!(s.level, DEFAULT_LEVEL);
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
