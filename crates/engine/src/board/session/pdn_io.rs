//! A session's game as PDN: `load_pdn` puts game N of a PDN text on the board (`read`: its
//! tree, notes, a review saved with it, and tags, checked whole), `save_pdn` writes the
//! whole tree back with the tags and result the session has now (`tags_now`: a loaded
//! game's, `Result` brought up to date, or the board's own, `board_tags`). The reading and
//! writing themselves are `core::pdn`'s; the session's parts keep what is loaded.

use super::cursor::Cursor;
use super::node::NodeData;
use super::record::Record;
use super::roster::Roster;
use super::study::Study;
use super::timed::TimedGame;
use super::{reviewed, Done, Session, SessionError};
use super::{BEST_LINE_PLIES, MAX_MOVES, MAX_PLIES, TIME_FORFEIT};
use crate::board::clock::{Clock, TimeControl};
use crate::board::protocol::{ClockResume, PartialLoad, PdnGameTags, Player, Reply};
use crate::board::view::history_move;
use crate::core::pdn;
use crate::core::tree::{GameTree, NodeId};
use crate::core::{notation, Color, GameResult, Move, Position};

/// The names a game begun on the board gives its players in its tags.
pub(super) const HUMAN: &str = "Human";
pub(super) const ENGINE: &str = "poolshark";
/// The event a game begun on the board has in its tags.
pub(super) const BOARD_EVENT: &str = "poolshark board";

/// The most games a `games` message lists (with the one shown, if after them): a text of
/// a few megabytes may hold a million games, which the page cannot offer in a list.
pub const MAX_LISTED: usize = 1000;

/// A game read from a PDN text, checked, to go on the board.
pub(super) struct Loaded {
    /// Its tree, each move shown and the review saved with it back on its moves.
    pub(super) tree: GameTree<NodeData>,
    /// Its tags, `SetUp` and `FEN` as the board writes them back.
    pub(super) tags: Vec<(String, String)>,
    /// Its main line's last node and the result it was read with.
    pub(super) end: NodeId,
    /// The node to show without a path: the main line's end, or where a partial read was cut.
    pub(super) shown: NodeId,
    pub(super) result: String,
    /// The moves of the path asked for, read on positions alone.
    pub(super) path: Option<Vec<Move>>,
    /// The `games` list of a text of several games, for the page once.
    pub(super) games: Option<Reply>,
    /// Read up to its first bad move (`partial`): where it was cut, and why.
    pub(super) cut: Option<PartialLoad>,
}

/// Game `number` (from 1; default the first) of a PDN text (GameType 23, or none given),
/// with its variations, comments, marks and tags, and the moves of `path` (Hub or PDN, from
/// the start) read on its positions; an error where the text, the game or a move of the
/// path does not read, the game is larger than the board keeps, or (`timed`, a timed game
/// to go on at the main line's end) the path leads elsewhere.
///
/// With `partial`, the game is read up to its first move that cannot be played (illegal, or
/// after the rules ended it) and shown where that move was to be played; `Loaded::cut` then
/// says where, in the words the whole read's error would have used.
pub(super) fn read(
    text: &str,
    number: Option<usize>,
    path: Option<&[String]>,
    timed: bool,
    partial: bool,
) -> Result<Loaded, SessionError> {
    let number = number.unwrap_or(1);
    // One game at a time: each is built and checked, and only the one loaded is kept.
    let mut list: Vec<PdnGameTags> = Vec::new();
    let mut chosen = None;
    let mut count = 0;
    for (i, g) in pdn::games_in(text, builder(partial)).enumerate() {
        let g = g.map_err(|e| SessionError::Pdn(e.to_string()))?;
        count += 1;
        // A text of many games is listed in part: the first ones and the one shown.
        if i >= MAX_LISTED && i + 1 != number {
            continue;
        }
        list.push(PdnGameTags {
            number: i + 1,
            tags: g.tags.iter().cloned().collect(),
            plies: g.tree.main_line().len() - 1,
        });
        if i + 1 == number {
            chosen = Some(g);
        }
    }
    if count == 0 {
        return Err(SessionError::NoGame);
    }
    let Some(g) = chosen.filter(|_| number > 0) else {
        return Err(SessionError::GameOutOfRange { number, count });
    };
    let mut loaded = converted(g, number, path, timed)?;
    loaded.games = (count > 1).then_some(Reply::Games {
        games: list,
        loaded: number,
        count,
    });
    Ok(loaded)
}

/// How a text's games are read: whole, or (`partial`) up to a game's first bad move.
fn builder(partial: bool) -> pdn::TreeBuilder {
    if partial {
        pdn::TreeBuilder::up_to_first_bad_move()
    } else {
        pdn::TreeBuilder::default()
    }
}

/// Every game of a PDN text, each read as `read` reads one (game `shown`, from 1, with
/// `path` and `timed`), for a study: an error where the text holds none, more than `most`,
/// or a game that does not read.
pub(super) fn read_all(
    text: &str,
    shown: usize,
    path: Option<&[String]>,
    timed: bool,
    partial: bool,
    most: usize,
) -> Result<Vec<Loaded>, SessionError> {
    let mut all = Vec::new();
    for (i, g) in pdn::games_in(text, builder(partial)).enumerate() {
        if i == most {
            return Err(SessionError::TooManyGames(most));
        }
        let g = g.map_err(|e| SessionError::Pdn(e.to_string()))?;
        let here = i + 1 == shown;
        all.push(converted(g, i + 1, path.filter(|_| here), timed && here)?);
    }
    if all.is_empty() {
        return Err(SessionError::NoGame);
    }
    if shown == 0 || shown > all.len() {
        return Err(SessionError::GameOutOfRange {
            number: shown,
            count: all.len(),
        });
    }
    Ok(all)
}

/// Game `number` of a text, read (`g`), checked and made ready for the board, with the
/// moves of `path` read on its positions (see `read`).
fn converted(
    g: pdn::TreeGame,
    number: usize,
    path: Option<&[String]>,
    timed: bool,
) -> Result<Loaded, SessionError> {
    let main = g.tree.main_line();
    // A saved game holds the board's moves and a review's best lines, which go back to
    // their moves below: the tree left must be no larger than the board's.
    let longest = longest_line(&g.tree);
    if longest > MAX_PLIES + BEST_LINE_PLIES {
        return Err(SessionError::TooManyPlies(longest));
    }
    if g.tree.len() - 1 > MAX_MOVES + MAX_PLIES * BEST_LINE_PLIES {
        return Err(SessionError::TooManyMoves(g.tree.len() - 1));
    }
    let end = *main.last().expect("the root at least");
    let cut = g.cut.as_ref().map(|c| {
        let ply = match &c.kind {
            pdn::ErrorKind::BadMove { ply, .. } | pdn::ErrorKind::AfterEnd { ply, .. } => *ply,
            _ => 0,
        };
        let error = pdn::PdnError {
            game: number,
            at: c.at,
            kind: c.kind.clone(),
        };
        (
            c.node,
            PartialLoad {
                ply,
                message: SessionError::Pdn(error.to_string()).to_string(),
            },
        )
    });
    // The path read first, on positions alone: a move that is not legal changes nothing.
    let mut moves = Vec::new();
    if let Some(path) = path {
        let mut pos = g.tree.start();
        for (i, text) in path.iter().enumerate() {
            let mv = notation::parse_move(&pos, text).map_err(|e| SessionError::PdnPath {
                ply: i + 1,
                text: text.clone(),
                why: e.to_string(),
            })?;
            pos = pos.play(&mv);
            moves.push(mv);
        }
    }
    let main_moves: Vec<_> = main[1..]
        .iter()
        .map(|&id| g.tree.node(id).and_then(|n| n.mv))
        .collect();
    // A timed game goes on at the main line's end: the path follows the main line there
    // (or on past it, which its moves then extend).
    let at_end = path.is_none()
        || (moves.len() >= main_moves.len()
            && moves.iter().zip(&main_moves).all(|(m, k)| Some(*m) == *k));
    if timed && !at_end {
        return Err(SessionError::Clock(
            "a timed game goes on at its last move: the path must lead to the main line's end"
                .into(),
        ));
    }
    let mut tags = g.tags;
    setup_tags(&mut tags, g.tree.start());
    // The result given was the whole game's: the part read says nothing of its end.
    if cut.is_some() {
        for (name, value) in tags.iter_mut() {
            if name.eq_ignore_ascii_case("Result") {
                *value = "*".into();
            }
        }
    }
    let mut tree = g.tree.with_data(|_, _| NodeData::default());
    reviewed::restore(&mut tree);
    let longest = longest_line(&tree);
    if longest > MAX_PLIES {
        return Err(SessionError::TooManyPlies(longest));
    }
    if tree.len() - 1 > MAX_MOVES {
        return Err(SessionError::TooManyMoves(tree.len() - 1));
    }
    for id in tree.preorder() {
        let shown = tree.node(id).and_then(|n| {
            let before = tree.node(n.parent?)?.position;
            Some(history_move(&before, &n.mv?))
        });
        if let Some(data) = tree.data_mut(id) {
            data.shown = shown;
        }
    }
    // Shown where the bad move was to be played, else at the main line's end.
    let (shown, cut) = match cut {
        Some((node, note)) => (node, Some(note)),
        None => (end, None),
    };
    Ok(Loaded {
        tree,
        tags,
        end,
        shown,
        cut,
        result: g.result,
        path: path.map(|_| moves),
        games: None,
    })
}

/// The tags of a game begun on the board: its players, its start where it is not the
/// usual one, and a timed game's time control and, where a flag fell at the main line's
/// end (`flag_fell`), its termination.
pub(super) fn board_tags(
    players: [Player; 2],
    start: Position,
    clock: Option<&Clock>,
    flag_fell: bool,
    result: &str,
) -> Vec<(String, String)> {
    let name = |p: Player| match p {
        Player::Human => HUMAN,
        Player::Engine => ENGINE,
    };
    let [white, black] = players;
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), BOARD_EVENT.into()),
        ("Date".into(), pdn::pdn_date()),
        ("White".into(), name(white).into()),
        ("Black".into(), name(black).into()),
        ("Result".into(), result.into()),
        ("GameType".into(), "23".into()),
    ];
    if start != Position::start() {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), notation::write_fen(&start)));
    }
    if let Some(c) = clock {
        tags.push(("TimeControl".into(), c.control().tag()));
        if flag_fell {
            tags.push(("Termination".into(), TIME_FORFEIT.into()));
        }
    }
    tags
}

impl Session {
    /// The tags `save_pdn` writes: a loaded game's or the board's, the `Result` brought up
    /// to date, with the tags set here over them (an empty one left out), in PDN's order.
    pub fn tags_now(&self) -> Vec<(String, String)> {
        let result = self.result_text();
        let board = || {
            let players = [Color::White, Color::Black].map(|c| self.player(c));
            let (start, flag) = (self.tree().start(), self.main_flag().is_some());
            board_tags(players, start, self.timed.clock(), flag, &result)
        };
        let tags = self.record.tags(&result, board);
        pdn::writer::ordered_tags(&tags)
            .into_iter()
            .cloned()
            .collect()
    }

    /// `load_pdn`: game `number` (from 1; default the first) of a PDN text, shown at the
    /// end of its main line, both sides human (`load_pdn_at`).
    pub fn load_pdn(&mut self, text: &str, number: Option<usize>) -> Result<Done, SessionError> {
        self.load_pdn_at(text, number, None, None)
    }

    /// `load_pdn` (`pdn_io::read`) shown at the node `path` leads to (the moves from the
    /// start, each following the move the game has there or, where it has not, played as a
    /// new variation), or at the main line's end for none. A move of the path that is not
    /// legal is an error and the game on the board stays. With `clock`, a timed game goes on
    /// at the main line's end (where the path must lead) with those times left, the side to
    /// move's clock running from now, and the moves' `[%clk]` readings as its record; a game
    /// over there is loaded untimed. A text of several games answers with their list.
    pub fn load_pdn_at(
        &mut self,
        text: &str,
        number: Option<usize>,
        path: Option<&[String]>,
        clock: Option<ClockResume>,
    ) -> Result<Done, SessionError> {
        self.load_pdn_partial(text, number, path, clock, false)
            .map(|(done, _)| done)
    }

    /// `load_pdn_at`; with `partial`, a game with a move that cannot be played is loaded up
    /// to it and shown where it was to be played (or at `path`), and the note says where
    /// (`state.partial`, for the state that answers this load).
    pub fn load_pdn_partial(
        &mut self,
        text: &str,
        number: Option<usize>,
        path: Option<&[String]>,
        clock: Option<ClockResume>,
        partial: bool,
    ) -> Result<(Done, Option<PartialLoad>), SessionError> {
        let clock = resumed(clock)?;
        let g = read(text, number, path, clock.is_some(), partial)?;
        let cut = g.cut.clone();
        let games = g.games.clone();
        // The game is made apart and checked whole: a refused load changes nothing.
        let mut next = self.with_game(placed(g)?, Study::default());
        next.check_size()?;
        next.resume_clock(clock);
        *self = next;
        let done = match games {
            Some(games) => Done::Loaded(games),
            None => Done::Changed { auto: false },
        };
        Ok((done, cut))
    }

    /// A session of this one's level and time source with `game` on the board (both sides
    /// human, untimed) among the chapters of `study`.
    pub(super) fn with_game(&self, (cursor, record): (Cursor, Record), study: Study) -> Session {
        let mut next = Session {
            cursor,
            roster: Roster::new(Player::Human, Player::Human, self.roster.level()),
            record,
            timed: TimedGame::new(self.timed.time_source()),
            study,
        };
        next.cursor.set_room(next.study.room());
        next
    }

    /// A timed game (`control`, with the clocks the page kept) taken up again at the main
    /// line's end, unless the game is over there.
    pub(super) fn resume_clock(&mut self, clock: Option<(TimeControl, ClockResume)>) {
        let Some((control, c)) = clock else { return };
        if self.end().is_some() {
            return;
        }
        let readings = self.main_line()[1..]
            .iter()
            .map(|&id| self.tree().node(id).and_then(|n| n.notes.clock))
            .map(Option::unwrap_or_default)
            .collect();
        let left = [c.black_ms, c.white_ms].map(std::time::Duration::from_millis);
        let side = self.game().position().side();
        self.timed.resume(control, left, side, readings);
    }

    /// `save_pdn`: every chapter in order (`study`), each written as `game_text` writes the
    /// game shown.
    pub fn save_pdn(&self) -> Done {
        self.save_pdn_of(false)
    }

    /// `save_pdn`, of the chapter shown alone where `chapter` (a study's chapter as a game of
    /// its own, as `game_text` writes it), else of the whole study.
    pub fn save_pdn_of(&self, chapter: bool) -> Done {
        Done::Reply(Reply::Pdn {
            quiet: false,
            pdn: if chapter {
                self.game_text()
            } else {
                self.study_text()
            },
        })
    }

    /// The game shown as PDN (`pdn::writer`): the whole tree, a review's verdicts in it
    /// (`reviewed::to_save`), with `tags_now`; a timed game with its `TimeControl` and each
    /// timed move's clock after it (`[%clk]`).
    pub(super) fn game_text(&self) -> String {
        game_text(&self.tags_now(), self.tree(), &self.result_text())
    }

    /// The side that lost on time at the main line's end, if a flag fell there.
    fn main_flag(&self) -> Option<Color> {
        let (loser, at) = self.timed.flag()?;
        let tree = self.tree();
        (tree.children(at).is_empty() && tree.is_main_line(at)).then_some(loser)
    }

    /// The result `save_pdn` writes: a loaded (or set) one while the main line ends where it
    /// did, else the rules' (or a flag's) at the main line's end (`*` while the game goes on).
    pub(super) fn result_text(&self) -> String {
        let end = self.cursor.main_end();
        if let Some(result) = self.record.result_at(end) {
            return result.to_string();
        }
        match self.tree().result_at(end).expect("a live node") {
            GameResult::Ongoing => match self.main_flag() {
                Some(loser) => pdn::result_text(Some(loser.flip())),
                None => "*",
            },
            GameResult::Win(c) => pdn::result_text(Some(c)),
            GameResult::Draw(_) => pdn::result_text(None),
        }
        .into()
    }
}

/// A game as PDN: its tags, its tree with a review's verdicts in it, and its result.
pub(super) fn game_text(
    tags: &[(String, String)],
    tree: &GameTree<NodeData>,
    result: &str,
) -> String {
    pdn::writer::write(tags, &reviewed::to_save(tree), result)
}

/// A timed game's clocks as a page kept them, with their time control checked.
pub(super) fn resumed(
    clock: Option<ClockResume>,
) -> Result<Option<(TimeControl, ClockResume)>, SessionError> {
    clock
        .map(|c| {
            TimeControl::from_seconds(c.base, c.inc)
                .map(|control| (control, c))
                .map_err(SessionError::Clock)
        })
        .transpose()
}

/// A game read, on the board: its tree shown at the path's end (played where the tree has
/// not its moves) or at `Loaded::shown`, with its tags and result.
pub(super) fn placed(g: Loaded) -> Result<(Cursor, Record), SessionError> {
    let mut cursor = Cursor::at_root(g.tree);
    match g.path {
        Some(moves) => moves.into_iter().try_for_each(|mv| cursor.play(mv))?,
        None => cursor.show(g.shown),
    }
    Ok((cursor, Record::loaded(g.tags, g.end, g.result)))
}

/// The longest line of a tree: the most plies from the start to a move.
fn longest_line<D>(tree: &GameTree<D>) -> usize {
    let mut longest = 0;
    let mut stack = vec![(tree.root(), 0)];
    while let Some((id, ply)) = stack.pop() {
        longest = longest.max(ply);
        stack.extend(tree.children(id).iter().map(|&c| (c, ply + 1)));
    }
    longest
}

/// A loaded game's `SetUp` and `FEN` tags as the board writes them back: the FEN tag gives
/// the start whatever `SetUp` says (as python-chess and lichess read it), so `SetUp "1"`
/// goes with it, and neither where it gives the usual start; a `SetUp` with no FEN says
/// nothing and goes (issue 66, item 11: `[SetUp "0"]` with a FEN was written back as it
/// came, which readers that trust `SetUp` take for the usual start).
fn setup_tags(tags: &mut Vec<(String, String)>, start: Position) {
    tags.retain(|(k, _)| !k.eq_ignore_ascii_case("SetUp"));
    let is_fen = |(k, _): &(String, String)| k.eq_ignore_ascii_case("FEN");
    let Some(fen) = tags.iter().position(is_fen) else {
        return;
    };
    if start == Position::start() {
        tags.retain(|t| !is_fen(t));
    } else {
        tags.insert(fen, ("SetUp".into(), "1".into()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{human, pdn_of as saved};
    use super::*;

    /// Issue 58, item 7: the board refuses a game of another variant wherever its tag stands,
    /// in any game of the text, and keeps the game it has.
    #[test]
    fn another_game_type_is_refused_anywhere_in_the_text() {
        let ok = "[GameType \"23\"]\n1. 11-15 *\n";
        for text in [
            "[Event \"x\"] [GameType \"21\"]\n1. 32-28 *".to_string(),
            "\u{feff}[GameType \"21\"]\n1. 32-28 *".into(),
            "% escape\n[GameType \"21\"]\n1. 32-28 *".into(),
            "{a note}\n[GameType \"21\"]\n1. 32-28 *".into(),
            format!("{ok}[GameType \"21\"]\n1. 32-28 *"),
        ] {
            let mut s = human();
            s.play_text("9-13").unwrap();
            let Err(e) = s.load_pdn(&text, None).map_err(|e| e.to_string()) else {
                panic!("{text}: loaded")
            };
            assert!(e.contains("GameType \"21\" is not 23"), "{text}: {e}");
            assert_eq!(s.tree().len(), 2, "the game on the board stays");
        }
    }

    /// Issue 58, item 3: a variation that begins with the main line's move is loaded and
    /// saved beside the main line, which stays the main line.
    #[test]
    fn a_variation_on_the_main_move_keeps_the_main_line() {
        let mut s = human();
        s.load_pdn("1. 11-15 (1. 11-15 22-18) 23-19 2. 8-11 *", None)
            .unwrap();
        let main: Vec<String> = s.tree().main_moves().iter().map(|m| m.hub()).collect();
        assert_eq!(main, ["11-15", "23-19", "8-11"]);
        let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
            panic!("no PDN")
        };
        assert!(
            pdn.contains("1. 11-15 23-19 (1... 22-18) 2. 8-11 *"),
            "{pdn}"
        );
    }

    /// Issue 66, item 6: variations nested as deep as the reader reads load, save and load
    /// back the same; deeper ones are refused by name, the board as it was; and none of it
    /// recurses: it all runs on a thread with a quarter of the stack a wasm module has.
    #[test]
    fn deep_nesting_loads_to_the_bound_and_is_refused_past_it() {
        use crate::core::pdn::MAX_NESTING;
        let run = || {
            let nested = |n: usize| format!("1. 9-13 {}{} *", "(1. 9-13 ".repeat(n), ")".repeat(n));
            let mut s = human();
            s.load_pdn(&nested(MAX_NESTING), None).unwrap();
            let Done::Reply(Reply::Pdn { pdn, .. }) = s.save_pdn() else {
                panic!("no PDN")
            };
            let mut t = human();
            t.load_pdn(&pdn, None).unwrap();
            assert!(t.tree().same_as(s.tree()));
            for n in [MAX_NESTING + 1, 99_000] {
                let e = t.load_pdn(&nested(n), None).unwrap_err().to_string();
                let want = format!("variations nested deeper than {MAX_NESTING}");
                assert!(e.contains(&want), "{e}");
                assert!(t.tree().same_as(s.tree()), "the game on the board stays");
            }
            // Parentheses alone, opened and never closed, and closed and never opened.
            for text in [
                "1. 9-13 ".to_string() + &"(".repeat(200_000),
                ")".repeat(200_000),
            ] {
                assert!(t.load_pdn(&text, None).is_err());
            }
        };
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }

    /// Issue 66, item 11: the FEN tag gives the start whatever `SetUp` says, and is written
    /// back with `SetUp "1"` (neither for the usual start); save, load, save is byte-equal.
    #[test]
    fn setup_follows_the_fen() {
        let fen = "W:W21,22:B1,2";
        let start = notation::write_fen(&Position::start());
        for (tags, want) in [
            (format!("[SetUp \"0\"]\n[FEN \"{fen}\"]"), Some(fen)),
            (format!("[FEN \"{fen}\"]"), Some(fen)),
            (format!("[FEN \"{fen}\"]\n[setup \"0\"]"), Some(fen)),
            (format!("[SetUp \"1\"]\n[FEN \"{start}\"]"), None),
            ("[SetUp \"1\"]".to_string(), None),
            ("[SetUp \"0\"]".to_string(), None),
        ] {
            let mut s = human();
            s.load_pdn(&format!("[Event \"e\"]\n{tags}\n*"), None)
                .unwrap();
            let pdn = saved(&s);
            let setup = pdn.matches("SetUp").count() + pdn.matches("setup").count();
            match want {
                Some(fen) => {
                    assert!(
                        pdn.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")),
                        "{tags}: {pdn}"
                    );
                    assert_eq!(setup, 1, "{tags}: {pdn}");
                    assert_ne!(s.tree().start(), Position::start());
                }
                None => {
                    assert_eq!(setup, 0, "{tags}: {pdn}");
                    assert!(!pdn.contains("FEN"), "{tags}: {pdn}");
                }
            }
            let mut t = human();
            t.load_pdn(&pdn, None).unwrap();
            assert_eq!(saved(&t), pdn, "save, load, save");
        }
    }

    /// Issue 66, item 11: `\r\n` in a comment came back `\n`; now byte for byte, and a
    /// text whose lines end in `\r\n` reads as one whose lines end in `\n`.
    #[test]
    fn a_carriage_return_in_a_comment_stays() {
        let mut s = human();
        s.load_pdn(
            "[Event \"e\"]\r\n1. 11-15 {one\r\ntwo} 22-18 ; end\r\n*\r\n",
            None,
        )
        .unwrap();
        let first = s.tree().main_line()[1];
        assert_eq!(s.tree().node(first).unwrap().notes.comment, "one\r\ntwo");
        let last = s.tree().main_line()[2];
        assert_eq!(s.tree().node(last).unwrap().notes.comment, "end");
        let pdn = saved(&s);
        assert!(pdn.contains("{one\r\ntwo}"), "{pdn}");
        let mut t = human();
        t.load_pdn(&pdn, None).unwrap();
        assert_eq!(saved(&t), pdn, "save, load, save");
    }

    /// Issue 58, item 12: a text of many games is answered with a bounded list, the count,
    /// and the game shown even when it is past the list.
    #[test]
    fn many_games_are_listed_in_part_with_their_count() {
        let text = "* ".repeat(MAX_LISTED * 3);
        let mut s = human();
        let Ok(Done::Loaded(Reply::Games {
            games: list,
            loaded,
            count,
        })) = s.load_pdn(&text, Some(2500))
        else {
            panic!("no list of games")
        };
        assert_eq!(
            (loaded, count, list.len()),
            (2500, MAX_LISTED * 3, MAX_LISTED + 1)
        );
        let numbers: Vec<_> = list.iter().map(|g| g.number).collect();
        assert_eq!((numbers[0], numbers[MAX_LISTED - 1]), (1, MAX_LISTED));
        assert_eq!(numbers[MAX_LISTED], 2500);
        let e = s
            .load_pdn(&text, Some(MAX_LISTED * 3 + 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("the PDN holds 3000 games"), "{e}");
        let Ok(Done::Loaded(Reply::Games { games, count, .. })) = s.load_pdn("* *", Some(2)) else {
            panic!("no list of games")
        };
        assert_eq!((games.len(), count), (2, 2));
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// Issue 66, item 6: how long a board takes to load deeply nested variations, many
    /// variations side by side, and one long line. A measurement, not a test: run with
    /// `cargo test --profile ci -p poolshark-engine --lib load_times -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn load_times() {
        let nested = |n: usize| format!("1. 9-13 {}{} *", "(1. 9-13 ".repeat(n), ")".repeat(n));
        let side_by_side = |n: usize| format!("1. 11-15 {} *", "(1. 9-13) ".repeat(n));
        let lines = |n: usize| format!("1. 11-15 {} *", "(1. 9-13)\n".repeat(n));
        for (what, make) in [
            ("nested", &nested as &dyn Fn(usize) -> String),
            ("side by side, one line", &side_by_side),
            ("side by side, a line each", &lines),
        ] {
            for n in [2000, 12_500, 25_000, 50_000, 99_000, 396_000] {
                let text = make(n);
                let mut s = Session::new(Position::start(), Player::Human, Player::Human);
                let t = crate::time_source::Instant::now();
                let r = s
                    .load_pdn(&text, None)
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                let r = match r {
                    Ok(()) => "loaded".to_string(),
                    Err(e) => crate::board::protocol::short(&e),
                };
                eprintln!("{what}: {n} ({} bytes): {ms:.1} ms, {r}", text.len());
            }
        }
    }
}
