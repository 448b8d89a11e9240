//! One connection's game, without the socket: the start position, the moves (with the
//! ones taken back kept for redo), who plays each side, the engine's level, and the `state`
//! message built from the rules core. Every request is checked here against the rules, and
//! a rejected one leaves the session as it was. A timed game's clock (`clock`) reads the
//! time from the session's time source (`Now`), which a test replaces.

use crate::core::game::DrawReason;
use crate::core::pdn::{self, PdnGame};
use crate::core::rules::{FORTY_MOVE_PLIES, LONE_KING_MOVES};
use crate::core::{movegen, notation, Color, Game, GameResult, Move, Position};
use crate::search::Limits;
use crate::serve::clock::{Clock, TimeControl};
use crate::serve::protocol::{
    ClockSpec, ClockState, Counts, GameEnd, HistoryMove, LegalMove, Level, PdnGameTags, Player,
    Reply, State, Verdict, MAX_DEPTH, MAX_MOVETIME, MAX_MULTIPV,
};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a session reads the time for its clock: the real time, or a test's hand.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The reason a flag fall gives in `GameEnd`.
pub const TIME_FORFEIT: &str = "time forfeit";

/// The longest game a PDN may load. Every real game is far shorter (the draw rules end
/// one long before); the bound keeps a hostile file from making huge `state` messages.
pub const MAX_PLIES: usize = 2000;

/// The engine's strength until the page sets one: a second a move.
pub const DEFAULT_LEVEL: Level = Level::Movetime(1.0);

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
    start: Position,
    /// The whole line of play, moves taken back included (they are what redo plays).
    line: Vec<Move>,
    /// PDN and Hub text of each move of `line`.
    history: Vec<HistoryMove>,
    /// The game up to the position shown (`game.moves()` is a prefix of `line`).
    game: Game,
    pub white: Player,
    pub black: Player,
    pub level: Level,
    /// An engine move is being searched (set by the server).
    pub thinking: bool,
    /// Analysis is on (set by the server); kept through new games and loads.
    pub analyzing: bool,
    /// Analysis lines (1 to `MAX_MULTIPV`); kept like `analyzing`.
    pub multipv: usize,
    /// After a `load_pdn` of several games: their tags and the number shown, for the
    /// server to send once (`Reply::Games`).
    pub games: Option<(Vec<PdnGameTags>, usize)>,
    /// A timed game's clock (set by `new` with a time control).
    clock: Option<Clock>,
    now: Now,
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
            start,
            line: Vec::new(),
            history: Vec::new(),
            game: Game::new(start),
            white,
            black,
            level: DEFAULT_LEVEL,
            thinking: false,
            analyzing: false,
            multipv: 1,
            games: None,
            clock: None,
            now: Arc::new(Instant::now),
        }
    }

    /// The session with its clock reading the time from `now` (for tests).
    pub fn with_time_source(mut self, now: Now) -> Session {
        self.now = now;
        self
    }

    /// Start again from `start` with these players, keeping the level, analysis and time
    /// source; untimed.
    fn restart(&mut self, start: Position, white: Player, black: Player) {
        let (level, analyzing, multipv) = (self.level, self.analyzing, self.multipv);
        let now = Arc::clone(&self.now);
        *self = Session::new(start, white, black);
        self.level = level;
        self.analyzing = analyzing;
        self.multipv = multipv;
        self.now = now;
    }

    /// The game up to the position shown, for the search.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The whole line (moves taken back included) from the start, as a game: what a
    /// review reviews and `save_pdn` writes.
    pub fn whole_game(&self) -> Game {
        let mut game = Game::new(self.start);
        for mv in &self.line {
            game.play(mv);
        }
        game
    }

    /// `analyze`'s lines: 1 when not given, else 1 to `MAX_MULTIPV`.
    pub fn set_multipv(&mut self, multipv: Option<u64>) -> Result<(), String> {
        let n = multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&n) {
            return Err(format!("multipv {n} is not from 1 to {MAX_MULTIPV}"));
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
    /// own time management (a depth level still caps the depth); else the level.
    pub fn move_limits(&self) -> Limits {
        if let Some(c) = self.clock.as_ref().filter(|c| c.is_live()) {
            let mut limits = c.limits(self.game.position().side(), (self.now)());
            if let Level::Depth(d) = self.level {
                limits.depth = Some(d);
            }
            return limits;
        }
        match self.level {
            Level::Movetime(s) => Limits {
                move_time: Some(Duration::from_secs_f64(s)),
                ..Limits::default()
            },
            Level::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }

    /// `new`: a new game from the start or a FEN, with these players, timed with `clock`
    /// if given.
    pub fn new_game(
        &mut self,
        white: Player,
        black: Player,
        fen: Option<&str>,
        clock: Option<ClockSpec>,
    ) -> Result<Done, String> {
        let start = match fen {
            Some(f) => parse_fen(f)?,
            None => Position::start(),
        };
        let control = clock
            .map(|c| TimeControl::from_seconds(c.base, c.inc))
            .transpose()?;
        self.restart(start, white, black);
        self.clock = control.map(Clock::new);
        Ok(Done::Changed { auto: true })
    }

    /// Refuse to walk the game while its clock is live: a timed game has no take-backs.
    fn walk_allowed(&self) -> Result<(), String> {
        match &self.clock {
            Some(c) if c.is_live() => Err(
                "a timed game is on: no taking back or stepping through it until it ends \
                 (or start a new game)"
                    .into(),
            ),
            _ => Ok(()),
        }
    }

    /// Let the flag fall if the running clock has reached zero. True if it fell now.
    pub fn check_flag(&mut self) -> bool {
        let now = (self.now)();
        match &mut self.clock {
            Some(c) if c.flag().is_none() => c.check_flag(now).is_some(),
            _ => false,
        }
    }

    /// When the running clock reaches zero, if one runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.clock.as_ref().and_then(Clock::flag_at)
    }

    /// Stop the clock for good if the game at the position shown has ended by the rules.
    fn stop_clock_at_the_end(&mut self) {
        if self.game.result() != GameResult::Ongoing {
            let now = (self.now)();
            if let Some(c) = &mut self.clock {
                c.stop(now);
            }
        }
    }

    /// The clock's part of a move by the side to move, before it is played: an error if
    /// that side's flag has fallen (the move does not count).
    fn clock_allows_move(&mut self) -> Result<(), String> {
        self.check_flag();
        if let Some(end) = self.end() {
            return Err(format!(
                "the game is over ({}): no more moves; take back or start a new game",
                end.reason
            ));
        }
        Ok(())
    }

    /// The clock's part of a move just played by `side`.
    fn clock_moved(&mut self, side: Color) {
        let now = (self.now)();
        if let Some(c) = &mut self.clock {
            // The flag was checked just before the move, so this cannot fail but for a
            // clock stepped past zero in between; the move stands, as the check allowed it.
            let _ = c.moved(side, now);
        }
        self.stop_clock_at_the_end();
    }

    /// `players`: who plays each side from the position shown on; the game is kept, and
    /// the engine moves next if it plays the side to move.
    pub fn set_players(&mut self, white: Player, black: Player) -> Result<Done, String> {
        self.white = white;
        self.black = black;
        Ok(Done::Changed { auto: true })
    }

    /// `setup`: a position to study, both sides human.
    pub fn setup(&mut self, fen: &str) -> Result<Done, String> {
        self.new_game(Player::Human, Player::Human, Some(fen), None)?;
        Ok(Done::Changed { auto: false })
    }

    /// `level`: exactly one of seconds per move or depth.
    pub fn set_level(&mut self, movetime: Option<f64>, depth: Option<u32>) -> Result<Done, String> {
        self.level = match (movetime, depth) {
            (Some(s), None) if s.is_finite() && s > 0.0 && s <= MAX_MOVETIME => Level::Movetime(s),
            (Some(s), None) => {
                return Err(format!(
                    "movetime {s} is not a number of seconds above 0 and at most {MAX_MOVETIME}"
                ))
            }
            (None, Some(d)) if (1..=MAX_DEPTH).contains(&d) => Level::Depth(d),
            (None, Some(d)) => return Err(format!("depth {d} is not from 1 to {MAX_DEPTH}")),
            _ => return Err("a level is either movetime (seconds) or depth, one of them".into()),
        };
        Ok(Done::Changed { auto: false })
    }

    /// `move`: a human move in Hub or PDN notation.
    pub fn play_text(&mut self, text: &str) -> Result<Done, String> {
        self.clock_allows_move()?;
        let mv = notation::parse_move(self.game.position(), text)
            .map_err(|e| format!("illegal move {}: {e}", super::protocol::short(text)))?;
        let side = self.game.position().side();
        self.play(mv);
        self.clock_moved(side);
        Ok(Done::Changed { auto: true })
    }

    /// Play a legal move in the position shown. Playing the move that redo would play keeps
    /// the rest of the line; any other move replaces it.
    pub fn play(&mut self, mv: Move) {
        let ply = self.ply();
        if self.line.get(ply) != Some(&mv) {
            self.line.truncate(ply);
            self.history.truncate(ply);
            if let Some(c) = &mut self.clock {
                c.truncate(ply);
            }
            let shown = legal_move(self.game.position(), &mv);
            self.history.push(HistoryMove {
                pdn: shown.pdn,
                hub: shown.hub,
                captured: shown.captured,
                path: shown.path,
            });
            self.line.push(mv);
        }
        self.game.play(&mv);
    }

    /// The engine's move, found for the position at `ply` with key `key`: played if the
    /// position shown is still that one, the move is legal there, and the engine's flag has
    /// not fallen.
    pub fn play_engine(&mut self, mv: Move, ply: usize, key: u64) -> bool {
        let pos = self.game.position();
        if self.ply() != ply || pos.key() != key || !movegen::legal_moves(pos).contains(&mv) {
            return false;
        }
        if self.clock_allows_move().is_err() {
            return false;
        }
        let side = self.game.position().side();
        self.play(mv);
        self.clock_moved(side);
        true
    }

    pub fn undo(&mut self) -> Result<Done, String> {
        self.walk_allowed()?;
        if self.game.undo().is_none() {
            return Err("nothing to take back: this is the first position".into());
        }
        Ok(Done::Changed { auto: false })
    }

    pub fn redo(&mut self) -> Result<Done, String> {
        self.walk_allowed()?;
        match self.line.get(self.ply()) {
            Some(&mv) => {
                self.game.play(&mv);
                Ok(Done::Changed { auto: false })
            }
            None => Err("nothing to play forward: this is the last position".into()),
        }
    }

    /// `goto`: the position after `ply` plies of the line.
    pub fn goto(&mut self, ply: usize) -> Result<Done, String> {
        self.walk_allowed()?;
        if ply > self.line.len() {
            return Err(format!(
                "ply {ply} is out of range: the game has {} plies",
                self.line.len()
            ));
        }
        let mut game = Game::new(self.start);
        for mv in &self.line[..ply] {
            game.play(mv);
        }
        self.game = game;
        Ok(Done::Changed { auto: false })
    }

    /// `load_pdn`: game `number` (from 1; default the first) of a PDN text (GameType 23, or
    /// none given), shown at its end, both sides human. A text of several games leaves their
    /// tags in `games`.
    pub fn load_pdn(&mut self, text: &str, number: Option<usize>) -> Result<Done, String> {
        // The game type first: the moves of another game mean nothing under these rules.
        if let Some(t) = game_type(text) {
            if t.split(',').next().map(str::trim) != Some("23") {
                return Err(format!(
                    "GameType \"{}\" is not 23 (American pool checkers)",
                    super::protocol::short(t)
                ));
            }
        }
        let games = pdn::read(text).map_err(|e| format!("bad PDN: {e}"))?;
        if games.is_empty() {
            return Err("the PDN holds no game".into());
        }
        let number = number.unwrap_or(1);
        if number == 0 || number > games.len() {
            return Err(format!(
                "game {number} is out of range: the PDN holds {} game{}",
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ));
        }
        let list: Vec<PdnGameTags> = games
            .iter()
            .enumerate()
            .map(|(i, g)| PdnGameTags {
                number: i + 1,
                tags: g.tags.iter().cloned().collect(),
                plies: g.moves.len(),
            })
            .collect();
        let count = games.len();
        let g = games.into_iter().nth(number - 1).expect("checked above");
        if g.moves.len() > MAX_PLIES {
            return Err(format!(
                "the game has {} plies; the board loads at most {MAX_PLIES}",
                g.moves.len()
            ));
        }
        self.restart(g.start, Player::Human, Player::Human);
        for mv in g.moves {
            self.play(mv);
        }
        if count > 1 {
            self.games = Some((list, number));
        }
        Ok(Done::Changed { auto: false })
    }

    /// `save_pdn`: the whole line (moves taken back included) as PDN, GameType 23; a timed
    /// game with its `TimeControl` and each timed move's clock after it (`[%clk]`).
    pub fn save_pdn(&self) -> Done {
        let end = self.whole_game();
        let flag = self.line_flag();
        let result = match end.result() {
            GameResult::Ongoing => match flag {
                Some(loser) => pdn::result_text(Some(loser.flip())),
                None => "*",
            },
            GameResult::Win(c) => pdn::result_text(Some(c)),
            GameResult::Draw(_) => pdn::result_text(None),
        };
        let name = |p: Player| match p {
            Player::Human => "Human",
            Player::Engine => "poolshark",
        };
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "poolshark board".into()),
            ("Date".into(), pdn::pdn_date()),
            ("White".into(), name(self.white).into()),
            ("Black".into(), name(self.black).into()),
            ("Result".into(), result.into()),
            ("GameType".into(), "23".into()),
        ];
        if self.start != Position::start() {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), notation::write_fen(&self.start)));
        }
        if let Some(c) = &self.clock {
            tags.push(("TimeControl".into(), c.control().tag()));
            if flag.is_some() {
                tags.push(("Termination".into(), TIME_FORFEIT.into()));
            }
        }
        let game = PdnGame {
            tags,
            start: self.start,
            moves: self.line.clone(),
            times: Vec::new(),
            result: result.into(),
        };
        let mut game = game.tree();
        if let Some(c) = &self.clock {
            let line = game.tree.main_line();
            for (&id, &t) in line[1..].iter().zip(&c.times()) {
                if let Some(n) = game.tree.notes_mut(id) {
                    n.clock = Some(t);
                }
            }
        }
        Done::Reply(Reply::Pdn { pdn: game.write() })
    }

    /// The side that lost on time at the end of the line, if a flag fell there.
    fn line_flag(&self) -> Option<Color> {
        match self.clock.as_ref()?.flag()? {
            (loser, at) if at == self.line.len() => Some(loser),
            _ => None,
        }
    }

    /// The clocks for the `state` message.
    fn clock_state(&self) -> Option<ClockState> {
        let c = self.clock.as_ref()?;
        let now = (self.now)();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Some(ClockState {
            black_ms: ms(c.left(Color::Black, now)),
            white_ms: ms(c.left(Color::White, now)),
            running: c.running().map(color_name),
            base_ms: ms(c.control().base),
            inc_ms: ms(c.control().inc),
        })
    }

    /// How the game at the position shown has ended, if it has.
    pub fn end(&self) -> Option<GameEnd> {
        let (winner, reason) = match self.game.result() {
            GameResult::Ongoing => match self.line_flag() {
                Some(loser) if self.ply() == self.line.len() => {
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
        State {
            fen: notation::write_fen(pos),
            side: color_name(pos.side()),
            pieces,
            legal,
            history: self.history.clone(),
            ply: self.ply(),
            start_fen: notation::write_fen(&self.start),
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
            clock: self.clock_state(),
        }
    }
}

/// The endgame tables' verdict on `pos` for Black, or None where no table covers it (or
/// its group is not read yet).
pub fn verdict(egdb: &crate::egdb::Egdb, pos: &Position) -> Option<Verdict> {
    use crate::egdb::{Wdl, Wdl50};
    let probe = egdb.probe(pos)?;
    let flip = pos.side() == Color::White;
    let wdl = match (probe.wdl, flip) {
        (Wdl::Win, false) | (Wdl::Loss, true) => "win",
        (Wdl::Loss, false) | (Wdl::Win, true) => "loss",
        (Wdl::Draw, _) => "draw",
    };
    let wdl50 = match (probe.wdl50, flip) {
        (w, false) => w,
        (Wdl50::Win, true) => Wdl50::Loss,
        (Wdl50::CursedWin, true) => Wdl50::BlessedLoss,
        (Wdl50::Draw, true) => Wdl50::Draw,
        (Wdl50::BlessedLoss, true) => Wdl50::CursedWin,
        (Wdl50::Loss, true) => Wdl50::Win,
    };
    Some(Verdict {
        black: wdl,
        dtc: probe.dtc,
        black50: wdl50.name(),
    })
}

/// The value of the first game's `GameType` tag, if its tags have one.
fn game_type(pdn: &str) -> Option<&str> {
    for line in pdn.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let tag = line.strip_prefix('[')?;
        if let Some(rest) = tag.strip_prefix("GameType") {
            return rest
                .trim()
                .trim_end_matches(']')
                .trim()
                .strip_prefix('"')?
                .split('"')
                .next();
        }
    }
    None
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_fen(fen: &str) -> Result<Position, String> {
    notation::parse_fen(fen).map_err(|e| format!("bad FEN '{}': {e}", super::protocol::short(fen)))
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
    Reply::Info {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn human() -> Session {
        Session::new(Position::start(), Player::Human, Player::Human)
    }

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
    fn undo_redo_goto_keep_the_line_until_another_move() {
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
        s.goto(0).unwrap();
        assert!(s.undo().is_err());
        assert!(s.goto(4).is_err());
        s.goto(3).unwrap();
        assert!(s.redo().is_err());
        s.goto(1).unwrap();
        play(&mut s, "23-19");
        assert_eq!(s.state().history.len(), 2);
        assert!(s
            .play_text("1-5")
            .unwrap_err()
            .starts_with("illegal move 1-5"));
        assert_eq!(s.ply(), 2);
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
        assert!(s.play_text("5-1").unwrap_err().contains("the game is over"));
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
        let (games, loaded) = s.games.take().expect("the list of games");
        assert_eq!(loaded, 2);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags["Event"], "a");
        assert_eq!((games[1].number, games[1].plies), (2, 2));
        assert!(s
            .load_pdn(two, Some(3))
            .unwrap_err()
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
        let Reply::Info {
            score, score_black, ..
        } = info_reply(&white, &info)
        else {
            panic!("an info reply")
        };
        assert_eq!((score.as_str(), score_black.as_str()), ("0.25", "-0.25"));
        let Reply::Info { score_black, .. } = info_reply(&Position::start(), &info) else {
            panic!("an info reply")
        };
        assert_eq!(score_black, "0.25");
    }

    #[test]
    fn the_engine_move_must_fit_the_position_shown() {
        let mut s = Session::new(Position::start(), Player::Engine, Player::Human);
        play(&mut s, "11-15");
        assert!(s.engine_to_move());
        let key = s.game().position().key();
        let mv = movegen::legal_moves(s.game().position())[0];
        s.undo().unwrap();
        assert!(!s.play_engine(mv, 1, key), "the position changed");
        s.redo().unwrap();
        assert!(s.play_engine(mv, 1, key));
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
        let Done::Reply(Reply::Pdn { pdn }) = s.save_pdn() else {
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
            .contains("GameType"));
        assert!(t
            .load_pdn("[GameType \"23,W,8,8,A1,0\"]\n1. 11-15 *", None)
            .is_ok());
        assert!(t
            .load_pdn("1. 11-17 *", None)
            .unwrap_err()
            .starts_with("bad PDN"));
        // Two kings walking to and fro, as long as a board loads: each move is legal text,
        // but the third repetition ends the game, and a move after it is refused.
        let mut long = String::from("[FEN \"W:WK30:BK3\"]\n");
        for _ in 0..(MAX_PLIES / 4 + 1) {
            long.push_str("30-26 3-7 26-30 7-3 ");
        }
        long.push('*');
        let e = t.load_pdn(&long, None).unwrap_err();
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
    fn the_whole_game_keeps_the_moves_taken_back() {
        let mut s = human();
        play(&mut s, "11-15 23-19 8-11");
        s.goto(1).unwrap();
        assert_eq!(s.whole_game().moves().len(), 3);
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

    fn pdn_of(s: &Session) -> String {
        let Done::Reply(Reply::Pdn { pdn }) = s.save_pdn() else {
            panic!("a pdn reply")
        };
        pdn
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
        assert!(s.play_text("22-18").unwrap_err().contains(TIME_FORFEIT));
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
        let e = s.play_text("22-18").unwrap_err();
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
        for e in [s.undo(), s.redo(), s.goto(0)] {
            assert!(e.unwrap_err().starts_with("a timed game is on"));
        }
        assert_eq!(s.ply(), 2);
        wait(&t, 60_000);
        assert!(s.check_flag());
        assert_eq!(s.end().unwrap().winner, Some("white"));
        // After the flag the game can be walked; the flag is the result at its end only.
        s.goto(1).unwrap();
        assert!(s.end().is_none());
        s.redo().unwrap();
        assert_eq!(s.end().unwrap().reason, TIME_FORFEIT);
        // Another move from before the flag makes another (untimed) line: the flag goes.
        s.goto(1).unwrap();
        play(&mut s, "22-18");
        assert!(s.end().is_none());
        assert!(s.state().clock.unwrap().running.is_none());
        assert!(pdn_of(&s).contains("1. 11-15 {[%clk 0:01:00]} 22-18 *"));
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
        s.set_level(None, Some(7)).unwrap();
        assert_eq!(s.move_limits().depth, Some(7));
        let key = s.game().position().key();
        let mv = movegen::legal_moves(s.game().position())[0];
        wait(&t, 50_000);
        assert!(!s.play_engine(mv, 1, key), "its flag fell first");
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
                .unwrap_err();
            assert!(e.starts_with("clock "), "{e}");
        }
        assert_eq!(s.ply(), 1);
        assert!(s.state().clock.is_none());
    }

    #[test]
    fn level_is_checked() {
        let mut s = human();
        assert!(s.set_level(Some(0.0), None).is_err());
        assert!(s.set_level(Some(f64::NAN), None).is_err());
        assert!(s.set_level(None, Some(0)).is_err());
        assert!(s.set_level(Some(1.0), Some(3)).is_err());
        assert!(s.set_level(None, None).is_err());
        assert_eq!(s.level, DEFAULT_LEVEL);
        s.set_level(None, Some(5)).unwrap();
        assert_eq!(s.move_limits().depth, Some(5));
    }
}
