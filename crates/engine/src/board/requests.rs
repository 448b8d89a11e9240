//! The page's requests (docs/BOARD.md) as the board answers them, by family: the engine's
//! (its move, analysis, a review, a retry, stop, the level), the notes' (annotations, tags,
//! lines added, the order of variations, saving), and the game's (a new game, a move, a
//! walk through it, a deletion, a load), which stop the search of the old position. Then
//! what follows: the reply, the state and the next search, or the error.

use super::protocol::{BudgetFields, Reply, Request};
use super::review_job;
use super::runner::Kind;
use super::session::Done;
use super::{Board, BoardError};
use crate::core::movegen;

impl Board {
    pub(super) fn handle(&mut self, request: Request) {
        // What a puzzle being solved does not allow is refused before anything changes.
        let refused = match &request {
            Request::Analyze { on: true, .. } => self.training_allows("analysis comes"),
            Request::EngineMove => self.training_allows("the engine moves"),
            Request::Review { .. } | Request::Retry { .. } => {
                let what = match request {
                    Request::Review { .. } => "review",
                    _ => "\"find a better move\"",
                };
                self.training_allows("the review comes")
                    .and_then(|()| self.session.review_allowed(what).map_err(BoardError::from))
            }
            Request::Players { .. } => self.training_allows("the players change"),
            Request::Chapter { .. }
            | Request::ChapterAdd { .. }
            | Request::ChapterDelete { .. } => self.training_allows("the chapters change"),
            Request::Explore => self.training_allows("the explorer opens"),
            _ => Ok(()),
        };
        if let Err(e) = refused {
            return self.error(e);
        }
        let ends_puzzle = matches!(
            request,
            Request::New { .. } | Request::LoadPdn { .. } | Request::Setup { .. }
        );
        let ends_practice = ends_puzzle || matches!(request, Request::Puzzle { .. });
        // A search stopped for a request that then fails is started again.
        let mut stopped = None;
        let done = match request {
            Request::Ping => Ok(Done::Reply(Reply::Pong)),
            Request::Explore => Ok(Done::Reply(self.explore())),
            Request::Puzzle {
                theme,
                id,
                streak,
                rated,
            } => {
                stopped = self.stop();
                self.start_puzzle(theme.as_deref(), id.as_deref(), streak, rated)
            }
            Request::PuzzlePlayer { rating, rd, vol } => self.set_puzzle_player(rating, rd, vol),
            Request::Practice { id } => {
                stopped = self.stop();
                self.start_practice(id.as_deref())
            }
            Request::Move { text } if self.puzzles.playing() => {
                stopped = self.stop();
                self.puzzle_move(&text)
            }
            Request::Move { text } if self.practice.is_some_and(|p| p.playing()) => {
                stopped = self.stop();
                self.practice_move(&text)
            }
            // A refused `analyze` changes nothing: no search stopped, none started.
            Request::Analyze { on, multipv } => match self.analysis_checked(on, multipv) {
                Ok(()) => Ok(self.analyze(on)),
                Err(e) => return self.error(e),
            },
            Request::Stop => Ok(self.stop_request()),
            Request::Review { budget } => self.review(budget),
            Request::Retry { ply, text, budget } => self.retry(ply, &text, budget),
            Request::EngineMove => self.engine_move(),
            request @ (Request::Level { .. }
            | Request::SavePdn { .. }
            | Request::Promote { .. }
            | Request::Annotate { .. }
            | Request::Tags { .. }
            | Request::AddLine { .. }
            | Request::ChapterRename { .. }
            | Request::ChapterMove { .. }) => self.notes_request(request),
            // Deleting the position shown stops its search (a review goes on).
            Request::Delete { node } => {
                let shown = self.session.node();
                let done = self.session.delete(node).map_err(BoardError::from);
                if self.session.node() != shown
                    && self.running.as_ref().is_some_and(|r| !r.kind.judges())
                {
                    stopped = self.stop();
                }
                done
            }
            // The rest change the game: the running search is for the old position. A
            // review goes on through undo, redo and goto: they leave the line it reviews.
            request => {
                let walk = matches!(
                    request,
                    Request::Undo | Request::Redo | Request::Goto { .. }
                );
                if !(walk && self.running.as_ref().is_some_and(|r| r.kind.judges())) {
                    stopped = self.stop();
                }
                self.game_request(request)
            }
        };
        if ends_puzzle && done.is_ok() {
            self.puzzles.end();
        }
        if ends_practice && done.is_ok() {
            self.practice = None;
        }
        self.answer(done, stopped);
    }

    /// `explore`: the opening explorer's moves at the position shown: the built-in book's
    /// (whatever `--no-book` says of the engine's play) and the shipped games'.
    fn explore(&self) -> Reply {
        use crate::board::view::history_move;
        use crate::book::explorer::{builtin_book, explore, GameSet};
        use crate::search::Score;
        let pos = self.session.game().position();
        let games = GameSet::builtin();
        let black = |s: i16| match pos.side() {
            crate::core::Color::Black => s,
            crate::core::Color::White => -s,
        };
        let moves = explore(builtin_book(), games, pos)
            .into_iter()
            .map(|e| {
                let shown = history_move(pos, &e.mv);
                super::protocol::ExplorerMove {
                    mv: shown.pdn,
                    hub: shown.hub,
                    path: shown.path,
                    score: e.score.map(|s| Score(i32::from(s)).hub()),
                    score_black: e.score.map(|s| Score(i32::from(black(s))).hub()),
                    games: e.tally.games,
                    black: e.tally.black,
                    draws: e.tally.draws,
                    white: e.tally.white,
                }
            })
            .collect();
        Reply::Explorer {
            node: self.session.node().index(),
            about: games.about(),
            count: games.len(),
            moves,
        }
    }

    /// Refuse `what` while a puzzle is being solved or a practice played.
    fn training_allows(&self, what: &'static str) -> Result<(), BoardError> {
        self.puzzles.allows(what)?;
        if self.practice.is_some_and(|p| p.playing()) {
            return Err(BoardError::Practice(format!(
                "an endgame practice is being played: {what} once it is solved or failed"
            )));
        }
        Ok(())
    }

    /// What follows a request: on an error, the search it stopped (`stopped`) or the next
    /// one starts again and the error is sent; else its reply, or the state after the next
    /// search has started.
    fn answer(&mut self, done: Result<Done, BoardError>, stopped: Option<Kind>) {
        match done {
            Err(e) => {
                match stopped {
                    Some(Kind::Move) => self.start(Kind::Move),
                    _ => self.next_search(false),
                }
                self.error(e);
            }
            Ok(Done::Reply(r)) => self.send(r),
            Ok(Done::Changed { auto }) => {
                self.next_search(auto);
                self.push_state();
            }
            Ok(Done::Loaded(games)) => {
                self.next_search(false);
                self.send(games);
                self.push_state();
            }
        }
    }

    /// `analyze` checked: on only while no timed game runs, and its lines in range.
    fn analysis_checked(&mut self, on: bool, multipv: Option<u64>) -> Result<(), BoardError> {
        self.session.analysis_allowed(on)?;
        self.set_multipv(multipv)?;
        Ok(())
    }

    /// `analyze`: on or off. The engine's move is not analysis: only `stop` drops it.
    /// Analysis, if on, starts once the move is played (`next_search`).
    fn analyze(&mut self, on: bool) -> Done {
        if self
            .running
            .as_ref()
            .is_none_or(|r| r.kind == Kind::Analysis)
        {
            self.stop();
        }
        self.analyzing = on;
        Done::Changed { auto: false }
    }

    /// "Move now": the engine's move stopped is played, its best so far (before its first
    /// `info`, the first legal move); the engine does not go on by itself (engine against
    /// engine pauses). A review stopped leaves analysis as it was (it resumes if on).
    fn stop_request(&mut self) -> Done {
        match self.halt() {
            Some(r) if r.kind == Kind::Move => {
                let first = || movegen::legal_moves(&r.root).as_slice().first().copied();
                if let Some(mv) = r.best.or_else(first) {
                    let played = self.session.play_engine(mv, r.node, r.root.key());
                    // A flag that fell first ends the game: the state says so.
                    if let (Err(e), None) = (played, self.session.end()) {
                        self.error(e.into());
                    }
                }
                self.analyzing = false;
            }
            Some(r) if r.kind.judges() => {}
            _ => self.analyzing = false,
        }
        Done::Changed { auto: false }
    }

    /// `review`: the game's main line, within `budget` a position.
    fn review(&mut self, budget: BudgetFields) -> Result<Done, BoardError> {
        let positions = review_job::review_positions(&self.session.main_game());
        let budget = self.judge_budget(budget, positions, "review")?;
        self.stop();
        self.start_review(budget);
        Ok(Done::Changed { auto: false })
    }

    /// `retry`: `text` tried before main-line ply `ply`, within `budget` a position.
    fn retry(&mut self, ply: usize, text: &str, budget: BudgetFields) -> Result<Done, BoardError> {
        let whole = self.session.main_game();
        let budget = self.judge_budget(budget, review_job::RETRY_POSITIONS, "retry")?;
        let (game, mv) = review_job::retry_position(&whole, ply, text)?;
        // The move played, tried again: the review's own verdict, not a second search's,
        // which may differ by a few hundredths (one move, one number).
        if let Some(judged) = self.session.review_judged(ply, &mv) {
            return Ok(Done::Reply(Reply::RetryResult(Box::new(judged))));
        }
        self.stop();
        let known = self.session.review_best(ply);
        self.start_retry(budget, &game, ply, &mv, known);
        Ok(Done::Changed { auto: false })
    }

    /// `engine_move`: the engine's move in the position shown, now.
    fn engine_move(&mut self) -> Result<Done, BoardError> {
        if let Some(end) = self.session.end() {
            return Err(BoardError::GameOver(end.reason.to_string()));
        }
        self.session.engine_move_allowed()?;
        self.stop();
        self.start(Kind::Move);
        Ok(Done::Changed { auto: false })
    }

    /// The requests that leave the position shown, and so any search: the level, saving,
    /// the order of variations, notes, tags and lines added.
    fn notes_request(&mut self, request: Request) -> Result<Done, BoardError> {
        let s = &mut self.session;
        let done = match request {
            Request::Level {
                movetime,
                depth,
                level,
            } => s.set_level(movetime, depth, level),
            Request::SavePdn { quiet, chapter } => Ok(match s.save_pdn_of(chapter) {
                Done::Reply(Reply::Pdn { pdn, .. }) => Done::Reply(Reply::Pdn { pdn, quiet }),
                other => other,
            }),
            Request::Promote { node, to_main } => s.promote(node, to_main),
            Request::Annotate {
                node,
                comment,
                nag,
                nags,
            } => s.annotate(
                node,
                comment.as_deref(),
                nag.as_ref().map(Option::as_deref),
                nags.as_deref(),
            ),
            Request::Tags { tags } => s.set_tags(&tags),
            Request::AddLine { node, moves } => s.add_line(node, &moves),
            Request::ChapterRename { index, name } => s.rename_chapter(index, &name),
            Request::ChapterMove { index, to } => s.move_chapter(index, to),
            _ => unreachable!("handle sends only these here"),
        };
        Ok(done?)
    }

    /// The requests that change the game shown (the search of the old position stopped
    /// already, unless a review runs on through a walk).
    fn game_request(&mut self, request: Request) -> Result<Done, BoardError> {
        let s = &mut self.session;
        let done = match request {
            Request::New {
                white,
                black,
                fen,
                clock,
            } => {
                let r = s.new_game(white, black, fen.as_deref(), clock);
                if r.is_ok() {
                    self.clear = true;
                    // Analysis would search on the players' clocks (`analysis_allowed`).
                    if self.session.clock_live() {
                        self.analyzing = false;
                    }
                }
                r
            }
            Request::Move { text } => s.play_text(&text),
            Request::Undo => s.undo(),
            Request::Redo => s.redo(),
            Request::Goto { ply, node } => s.goto(ply, node),
            Request::Setup { fen } => s.setup(&fen),
            Request::LoadPdn {
                pdn,
                game,
                path,
                clock,
                partial,
                study,
            } => {
                let path = path.as_deref();
                let loaded = match study {
                    true => s.load_study(&pdn, game, path, clock, partial),
                    false => s.load_pdn_partial(&pdn, game, path, clock, partial),
                };
                loaded.map(|(done, cut)| {
                    self.partial = cut;
                    done
                })
            }
            Request::Chapter { index } => s.chapter(index),
            Request::ChapterAdd { fen, pdn, name } => {
                s.add_chapters(fen.as_deref(), pdn.as_deref(), name.as_deref())
            }
            Request::ChapterDelete { index } => s.delete_chapter(index),
            Request::Players { white, black } => s.set_players(white, black),
            _ => unreachable!("handle sends only these here"),
        };
        Ok(done?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, BoardConfig, Out};

    fn board() -> Board {
        Board::new(BoardConfig::plain())
    }

    /// The `error` messages a request gets.
    fn errors(b: &mut Board, text: &str) -> usize {
        let is_error = |o: &Out| match o {
            Out::Send(r) => r.to_json().starts_with(r#"{"type":"error""#),
            _ => false,
        };
        b.request(text).iter().filter(|o| is_error(o)).count()
    }

    /// Analysis and its lines are the board's: kept through new games, setups and loads,
    /// and off when a timed game begins.
    #[test]
    fn new_games_and_loads_keep_analysis_a_timed_game_ends_it() {
        let mut b = board();
        b.request(r#"{"type":"analyze","on":true,"multipv":3}"#);
        assert!(b.analyzing);
        b.request(r#"{"type":"new","white":"human","black":"human"}"#);
        b.request(r#"{"type":"setup","fen":"W:W14:B9"}"#);
        b.request(r#"{"type":"load_pdn","pdn":"1. 11-15 23-19 *"}"#);
        assert!(b.analyzing);
        assert_eq!((b.multipv, b.analysis_limits().multipv), (3, 3));
        b.request(r#"{"type":"new","white":"human","black":"human","clock":{"base":60}}"#);
        assert!(!b.analyzing && b.running.is_none());
    }

    /// The replies' JSON, parsed.
    fn replies(b: &mut Board, text: &str) -> Vec<serde_json::Value> {
        b.request(text)
            .iter()
            .filter_map(|o| match o {
                Out::Send(r) => serde_json::from_str(&r.to_json()).ok(),
                _ => None,
            })
            .collect()
    }

    /// Issue 69, item 1: a study through the board's messages: loaded with `study`, its
    /// chapters in every state, another shown (stopping a review), added from a PDN as
    /// large as `load_pdn`'s, and refused while a puzzle is played.
    #[test]
    fn a_study_by_messages() {
        let mut b = board();
        let pdn = "[White \\\"Ann\\\"]\\n[Black \\\"Bob\\\"]\\n1. 11-15 *\\n\\n1. 9-13 *\\n\\n1. 10-14 22-18 *";
        let r = replies(
            &mut b,
            &format!(r#"{{"type":"load_pdn","pdn":"{pdn}","study":true,"game":2}}"#),
        );
        assert!(r.iter().all(|m| m["type"] != "games"), "{r:?}");
        let st = r.iter().find(|m| m["type"] == "state").expect("a state");
        assert_eq!(st["chapter"], 2);
        let names: Vec<&str> = st["chapters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Ann - Bob", "Chapter 2", "Chapter 3"]);
        assert_eq!(st["chapters"][2]["plies"], 2);
        b.request(r#"{"type":"review","nodes":1000}"#);
        assert!(b.running.is_some());
        let r = replies(&mut b, r#"{"type":"chapter","index":3}"#);
        let st = r.iter().find(|m| m["type"] == "state").expect("a state");
        assert_eq!(
            (st["chapter"].clone(), st["ply"].clone()),
            (3.into(), 2.into())
        );
        assert!(b.running.is_none(), "the review of another chapter stops");
        // A PDN to add passes the 64 KiB of other messages.
        let big = format!("{{{}}} 1. 11-15 *", "c".repeat(70_000));
        let add = serde_json::json!({"type": "chapter_add", "pdn": big}).to_string();
        assert!(add.len() > super::super::protocol::MAX_MESSAGE);
        let r = replies(&mut b, &add);
        let st = r.iter().find(|m| m["type"] == "state").expect("a state");
        assert_eq!(st["chapter"], 4);
        assert_eq!(errors(&mut b, r#"{"type":"chapter","index":5}"#), 1);
        b.request(r#"{"type":"puzzle"}"#);
        for req in [
            r#"{"type":"chapter","index":1}"#,
            r#"{"type":"chapter_add"}"#,
            r#"{"type":"chapter_delete","index":1}"#,
        ] {
            assert_eq!(errors(&mut b, req), 1, "{req}");
        }
    }

    /// Issue 69, item 4: `explore` lists the book's moves at the start, each legal with a
    /// score, the games' counts beside them; off the book, the games alone; refused while a
    /// puzzle is played (its book moves would be hints).
    #[test]
    fn the_explorer_lists_the_book_and_the_games() {
        let mut b = board();
        let r = replies(&mut b, r#"{"type":"explore"}"#);
        assert_eq!(r.len(), 1, "{r:?}");
        let e = &r[0];
        assert_eq!(e["type"], "explorer");
        assert_eq!(e["node"], 0);
        let moves = e["moves"].as_array().unwrap();
        let legal: Vec<String> = b
            .session
            .state()
            .legal
            .iter()
            .map(|m| m.pdn.clone())
            .collect();
        let book = crate::book::explorer::builtin_book().moves(&crate::core::Position::start());
        assert!(!book.is_empty());
        assert_eq!(
            moves.iter().filter(|m| m["score"].is_string()).count(),
            book.len()
        );
        for m in moves {
            assert!(
                legal.contains(&m["move"].as_str().unwrap().to_string()),
                "{m}"
            );
            let tally = |k: &str| m[k].as_u64().unwrap();
            assert!(tally("games") >= tally("black") + tally("draws") + tally("white"));
        }
        let games: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
        assert_eq!(
            games,
            e["count"].as_u64().unwrap(),
            "every game leaves the start"
        );
        // The first move's score from Black's view is the side to move's: Black moves first.
        assert_eq!(moves[0]["score"], moves[0]["score_black"]);
        b.request(r#"{"type":"puzzle"}"#);
        assert_eq!(errors(&mut b, r#"{"type":"explore"}"#), 1);
    }

    /// Issue 69, item 6: `partial` loads the moves before the first bad one, shows the
    /// position after them, and says where in the words of the error a whole load gives;
    /// the next state says nothing of it. Without `partial` the load is refused as ever.
    #[test]
    fn a_partial_load_stops_at_the_first_bad_move() {
        let mut b = board();
        let pdn = "[Event \\\"e\\\"]\\n[Result \\\"1-0\\\"]\\n1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-24 28-19 1-0";
        let whole = replies(&mut b, &format!(r#"{{"type":"load_pdn","pdn":"{pdn}"}}"#));
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0]["type"], "error");
        let why = whole[0]["message"].as_str().unwrap().to_string();
        assert!(why.contains("'15-24' (ply 7)"), "{why}");
        assert_eq!(b.session.ply(), 0, "a refused load changes nothing");
        let cut = replies(
            &mut b,
            &format!(r#"{{"type":"load_pdn","pdn":"{pdn}","partial":true}}"#),
        );
        let st = cut.iter().find(|m| m["type"] == "state").expect("a state");
        assert_eq!(st["partial"]["ply"], 7);
        assert_eq!(st["partial"]["message"], why.as_str());
        assert_eq!(st["history"].as_array().unwrap().len(), 6);
        assert_eq!(st["tags"]["Result"], "*", "the result was the whole game's");
        let next = replies(&mut b, r#"{"type":"goto","ply":3}"#);
        assert!(next
            .iter()
            .any(|m| m["type"] == "state" && m["partial"].is_null()));
        // A game read whole has no `partial`.
        let whole = replies(
            &mut b,
            r#"{"type":"load_pdn","pdn":"1. 11-15 *","partial":true}"#,
        );
        assert!(whole
            .iter()
            .any(|m| m["type"] == "state" && m["partial"].is_null()));
    }

    /// Issue 69, item 8: no review and no "find a better move" while a timed game's clocks
    /// run (it would score the position and draw the best line), in words that name it;
    /// both once the game is over.
    #[test]
    fn a_timed_game_refuses_the_review_until_it_ends() {
        let mut b = board();
        b.request(r#"{"type":"new","white":"human","black":"human","clock":{"base":60}}"#);
        b.request(r#"{"type":"move","move":"11-15"}"#);
        for (req, what) in [
            (r#"{"type":"review","nodes":1000}"#, "no review"),
            (
                r#"{"type":"retry","ply":1,"move":"9-13","nodes":1000}"#,
                "no \"find a better move\"",
            ),
        ] {
            let r = replies(&mut b, req);
            assert_eq!(r.len(), 1, "{req}: {r:?}");
            assert_eq!(r[0]["type"], "error");
            let m = r[0]["message"].as_str().unwrap();
            assert!(m.contains("a timed game is on") && m.contains(what), "{m}");
            assert!(b.running.is_none(), "nothing started");
        }
        // The same game untimed (loaded back) reviews.
        let r = replies(&mut b, r#"{"type":"load_pdn","pdn":"1. 11-15 23-19 *"}"#);
        assert!(r.iter().any(|m| m["type"] == "state"));
        let r = replies(&mut b, r#"{"type":"review","nodes":1000}"#);
        assert!(r.iter().all(|m| m["type"] != "error"), "{r:?}");
    }

    #[test]
    fn multipv_is_checked() {
        let mut b = board();
        assert_eq!(
            errors(&mut b, r#"{"type":"analyze","on":true,"multipv":0}"#),
            1
        );
        assert_eq!(
            errors(&mut b, r#"{"type":"analyze","on":true,"multipv":6}"#),
            1
        );
        assert!(!b.analyzing);
        assert_eq!(b.multipv, 1);
        assert_eq!(
            errors(&mut b, r#"{"type":"analyze","on":true,"multipv":5}"#),
            0
        );
        assert_eq!(b.multipv, 5);
        b.request(r#"{"type":"analyze","on":true}"#);
        assert_eq!(b.multipv, 1);
    }
}
