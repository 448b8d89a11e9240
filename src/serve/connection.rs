//! One board's WebSocket, from hello to close: the state machine that reads requests in
//! order, runs at most one search (a move, analysis, a review or a retry) at a time on its own
//! thread, and writes replies. `server` owns the HTTP side that hands it the socket.
//!
//! - order: one request is handled at a time, and the next is read only once the replies
//!   to this one are written, so a flood only slows its own connection.
//! - silence: the socket is pinged after `ping_interval` without a message, and closed
//!   (its board freed, its search stopped) without an answer within `ping_timeout`, as
//!   is one that does not read what it is sent for that long.
//! - searches: one per connection; a new request stops the running one first, and a closed
//!   socket stops it. A game review is one of them: it pauses analysis (which resumes
//!   when it ends), is refused while the engine thinks about its move, and runs on while
//!   the page walks the game (undo, redo, goto, promote, delete), which does not change
//!   what it reviews: the main line as it was when the review began, whose nodes keep the
//!   marks and scores as they come (`Session::record_review`). A retry (a move tried in a
//!   position of the main line, judged as a review judges) runs the same way, and ends with
//!   one `retry_result`.
//! - clocks: in a timed game a timer wakes the loop when the running clock reaches zero,
//!   and the flag ends the game there (the engine's search for that side is dropped).
//! - tables: a `state` carries the endgame tables' verdict on the position shown. Where the
//!   tables cover it but its group is still being read (in the background, so that no
//!   search waits for a file), the board looks again every `TABLES_LOOK_EVERY` and sends a
//!   state of its own once the verdict is in, rather than at the next request.

use crate::book::Policy;
use crate::core::tree::NodeId;
use crate::core::{Game, Move};
use crate::review::ReviewControl;
use crate::search::{Engine, SearchControl};
use crate::serve::limits::{TABLES_LOOK_EVERY, TABLES_LOOK_FOR};
use crate::serve::protocol::{self, Reply, Request};
use crate::serve::review::{PlyReport, Tally};
use crate::serve::server::App;
use crate::serve::session::{info_reply, verdict, Done, Session};
use axum::extract::ws::{Message, WebSocket};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Stack for a search thread, which runs the main search worker itself (as the Hub does).
const SEARCH_STACK: usize = 16 << 20;

/// Write one message, giving up after `limit` (a client that does not read).
async fn send_message(socket: &mut WebSocket, message: Message, limit: Duration) -> bool {
    match tokio::time::timeout(limit, socket.send(message)).await {
        Ok(sent) => sent.is_ok(),
        Err(_) => {
            log::warn!(
                "closed a WebSocket that read nothing for {:.1} s",
                limit.as_secs_f64()
            );
            false
        }
    }
}

async fn send(socket: &mut WebSocket, reply: &Reply, limit: Duration) -> bool {
    send_message(socket, Message::Text(reply.to_json().into()), limit).await
}

/// One connection, from hello to close.
pub(super) async fn run(mut socket: WebSocket, app: Arc<App>) {
    let limits = app.config.limits.clone();
    let limit = limits.ping_timeout;
    let _board = match app.boards.admit() {
        Ok(board) => board,
        Err(refusal) => {
            log::warn!("refused a board: {refusal}");
            send(&mut socket, &Reply::error(refusal.to_string()), limit).await;
            send_message(&mut socket, Message::Close(None), limit).await;
            return;
        }
    };
    let (hash, threads) = (app.config.hash_mb, app.config.threads);
    let weights = app.config.weights.clone();
    let params = app.config.params.clone();
    let egdb = app.config.egdb.clone();
    let tables = egdb.clone();
    let engine = tokio::task::spawn_blocking(move || {
        Engine::try_new(hash, threads).map(|mut e| {
            e.weights = weights;
            e.params = params;
            e.egdb = egdb;
            e
        })
    })
    .await;
    let engine = match engine {
        Ok(Ok(e)) => e,
        Ok(Err(e)) => return no_engine(&mut socket, e.to_string(), limit).await,
        Err(e) => return no_engine(&mut socket, e.to_string(), limit).await,
    };
    let (tx, mut events) = mpsc::unbounded_channel();
    let mut conn = Connection {
        session: Session::default(),
        engine: Arc::new(Mutex::new(engine)),
        search: None,
        searches: 0,
        tx,
        out: Vec::new(),
        book: app.config.book.clone(),
        rng: crate::book::rng_from_env(),
        level_rng: crate::search::level::rng_from_env(),
        egdb: tables,
        tables_look: None,
    };
    conn.out.push(Reply::Hello {
        version: env!("CARGO_PKG_VERSION"),
    });
    conn.push_state();
    // When the client was last heard from, and when it was pinged since, if it was.
    let mut heard = Instant::now();
    let mut pinged: Option<Instant> = None;
    loop {
        for reply in std::mem::take(&mut conn.out) {
            if !send(&mut socket, &reply, limit).await {
                conn.stop().await;
                return;
            }
        }
        let wake = match pinged {
            Some(at) => at + limits.ping_timeout,
            None => heard + limits.ping_interval,
        };
        let flag_at = conn.session.flag_at();
        let tables_look = conn.tables_look.is_some();
        let tables_due = conn.tables_look.map_or(wake, |(next, _)| next);
        tokio::select! {
            message = socket.recv() => {
                heard = Instant::now();
                pinged = None;
                match message {
                    Some(Ok(Message::Text(text))) => conn.request(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => conn.out.push(Reply::error(
                        "binary messages are not read: send JSON text",
                    )),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        // A frame past MAX_FRAME, or a broken socket: the stream cannot go on.
                        let reply = Reply::error(format!("connection closed: {e}"));
                        send(&mut socket, &reply, limit).await;
                        break;
                    }
                }
            },
            Some(event) = events.recv() => conn.event(event).await,
            _ = tokio::time::sleep_until(flag_at.unwrap_or(wake).into()), if flag_at.is_some() => {
                conn.flag_fell().await;
            }
            _ = tokio::time::sleep_until(tables_due.into()), if tables_look => conn.look_at_tables(),
            _ = tokio::time::sleep_until(wake.into()) => {
                if pinged.is_some() {
                    log::warn!(
                        "closed a silent WebSocket: no answer to a ping in {:.1} s",
                        limits.ping_timeout.as_secs_f64()
                    );
                    break;
                }
                if !send_message(&mut socket, Message::Ping(Default::default()), limit).await {
                    break;
                }
                pinged = Some(Instant::now());
            }
        }
    }
    conn.stop().await;
}

async fn no_engine(socket: &mut WebSocket, why: String, limit: Duration) {
    log::warn!("refused a board: no engine: {why}");
    send(socket, &Reply::error(format!("no engine: {why}")), limit).await;
}

/// What a search thread reports.
enum Event {
    /// A reply from the running search: an `info`, or a retry's `retry_result`.
    Info {
        id: u64,
        reply: Reply,
    },
    /// A review's move.
    Ply {
        id: u64,
        report: PlyReport,
    },
    Done {
        id: u64,
        best: Option<Move>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The engine's move: played when found.
    Move,
    /// Analysis: runs until stopped, with `info` as it deepens.
    Analysis,
    /// A game review: `review_ply` per move, then `review_done`.
    Review,
    /// A move tried in a position of the game: one `retry_result`.
    Retry,
}

impl Kind {
    /// What runs, in thread names and errors: a search (a move or analysis) or a review.
    fn name(self) -> &'static str {
        match self {
            Kind::Move | Kind::Analysis => "search",
            Kind::Review => "review",
            Kind::Retry => "retry",
        }
    }

    /// A review or a retry: it judges the game's main line, which walking the game
    /// (undo, redo, goto) does not change, and stopping it leaves analysis as it was.
    fn judges(self) -> bool {
        matches!(self, Kind::Review | Kind::Retry)
    }
}

/// How to stop what runs: a search, or a review (which stops its current search).
enum Stopper {
    Search(Arc<SearchControl>),
    Review(Arc<ReviewControl>),
}

impl Stopper {
    fn stop(&self) {
        match self {
            Stopper::Search(c) => c.stop(),
            Stopper::Review(c) => c.stop(),
        }
    }
}

struct Search {
    id: u64,
    kind: Kind,
    /// The node searched and its position's key, to check the move still fits when it
    /// comes.
    node: NodeId,
    key: u64,
    control: Stopper,
    /// A review's marks over the plies forwarded so far.
    tally: Tally,
    /// The best move found, once the thread has ended.
    finished: oneshot::Receiver<Option<Move>>,
}

struct Connection {
    session: Session,
    engine: Arc<Mutex<Engine>>,
    search: Option<Search>,
    searches: u64,
    tx: mpsc::UnboundedSender<Event>,
    /// Replies to write before reading the next request.
    out: Vec<Reply>,
    book: Option<Arc<crate::book::Book>>,
    rng: crate::book::Rng,
    /// The generator of the playing level's picks (`search::level`).
    level_rng: crate::book::Rng,
    /// The endgame tables, for the verdict in each `state`.
    egdb: Option<Arc<crate::egdb::Egdb>>,
    /// While the tables cover the position shown but have not answered yet (its group is
    /// being read): when to look again, and when to stop looking.
    tables_look: Option<(Instant, Instant)>,
}

impl Drop for Connection {
    /// However the connection ends (a closed tab, a failed write, a panic), its search
    /// must not run on: an analysis would never stop by itself.
    fn drop(&mut self) {
        if let Some(s) = &self.search {
            s.control.stop();
        }
    }
}

impl Connection {
    fn push_state(&mut self) {
        let mut state = self.session.state();
        self.tables_look = None;
        if let Some(db) = &self.egdb {
            let pos = self.session.game().position();
            state.egdb = verdict(db, pos);
            if state.egdb.is_none() && pos.occupied().count() <= db.max_pieces() {
                let now = Instant::now();
                self.tables_look = Some((now + TABLES_LOOK_EVERY, now + TABLES_LOOK_FOR));
            }
        }
        self.out.push(Reply::State(Box::new(state)));
    }

    /// The tables were silent on the position shown while its group was read: send the
    /// state again once they answer (the probe asks the loader for any group still needed).
    fn look_at_tables(&mut self) {
        let Some((_, until)) = self.tables_look else {
            return;
        };
        let Some(db) = &self.egdb else { return };
        let pos = self.session.game().position();
        let now = Instant::now();
        if verdict(db, pos).is_some() {
            self.push_state();
        } else if now < until && pos.occupied().count() <= db.max_pieces() {
            self.tables_look = Some((now + TABLES_LOOK_EVERY, until));
        } else {
            // A group found unusable lowers `max_pieces`: the tables will not answer.
            self.tables_look = None;
        }
    }

    async fn request(&mut self, text: &str) {
        let request = match protocol::parse(text) {
            Ok(r) => r,
            Err(e) => return self.out.push(Reply::error(e)),
        };
        // A search stopped for a request that then fails is started again.
        let mut stopped = None;
        let done = match request {
            Request::Ping => Ok(Done::Reply(Reply::Pong)),
            Request::SavePdn => Ok(self.session.save_pdn()),
            Request::Level {
                movetime,
                depth,
                level,
            } => self.session.set_level(movetime, depth, level),
            // "Move now": the engine's move stopped is played, its best so far; the engine
            // does not go on by itself (engine against engine pauses).
            // A review stopped leaves analysis as it was (it resumes if on).
            Request::Stop => {
                match self.halt().await {
                    Some((Kind::Move, node, key, Some(mv))) => {
                        let played = self.session.play_engine(mv, node, key);
                        // A flag that fell first ends the game: the state says so.
                        if let (Err(e), None) = (played, self.session.end()) {
                            self.out.push(Reply::error(e));
                        }
                        self.session.analyzing = false;
                    }
                    Some((kind, ..)) if kind.judges() => {}
                    _ => self.session.analyzing = false,
                }
                Ok(Done::Changed { auto: false })
            }
            Request::Review { budget } => {
                let positions = crate::serve::review::review_positions(&self.session.main_game());
                match self.judge_budget(budget, positions, "review") {
                    Err(e) => Err(e),
                    Ok(budget) => {
                        self.stop().await;
                        self.start_review(budget);
                        Ok(Done::Changed { auto: false })
                    }
                }
            }
            Request::Retry { ply, text, budget } => {
                let whole = self.session.main_game();
                let positions = crate::serve::review::RETRY_POSITIONS;
                match self
                    .judge_budget(budget, positions, "retry")
                    .and_then(|budget| {
                        let (game, mv) = crate::serve::review::retry_position(&whole, ply, &text)?;
                        Ok((budget, game, mv))
                    }) {
                    Err(e) => Err(e),
                    Ok((budget, game, mv)) => {
                        self.stop().await;
                        self.start_retry(budget, game, ply, mv);
                        Ok(Done::Changed { auto: false })
                    }
                }
            }
            Request::Analyze { on, multipv } => {
                if let Err(e) = self.session.set_multipv(multipv) {
                    return self.out.push(Reply::error(e));
                }
                // The engine's move is not analysis: only `stop` drops it. Analysis, if on,
                // starts once the move is played (`next_search`).
                if self
                    .search
                    .as_ref()
                    .is_none_or(|s| s.kind == Kind::Analysis)
                {
                    self.stop().await;
                }
                self.session.analyzing = on;
                Ok(Done::Changed { auto: false })
            }
            Request::EngineMove => {
                if let Some(end) = self.session.end() {
                    Err(format!(
                        "the game is over ({}): no move to search",
                        end.reason
                    ))
                } else {
                    self.stop().await;
                    self.start(Kind::Move);
                    Ok(Done::Changed { auto: false })
                }
            }
            // The order of variations: the position shown, and so any search, stays.
            Request::Promote { node, to_main } => self.session.promote(node, to_main),
            // Deleting the position shown stops its search (a review goes on).
            Request::Delete { node } => {
                let shown = self.session.node();
                let done = self.session.delete(node);
                if self.session.node() != shown
                    && self.search.as_ref().is_some_and(|s| !s.kind.judges())
                {
                    stopped = self.stop().await;
                }
                done
            }
            // The rest change the game: the running search is for the old position. A
            // review goes on through undo, redo and goto: they leave the line it reviews.
            other => {
                let walk = matches!(other, Request::Undo | Request::Redo | Request::Goto { .. });
                if !(walk && self.search.as_ref().is_some_and(|s| s.kind.judges())) {
                    stopped = self.stop().await;
                }
                match other {
                    Request::New {
                        white,
                        black,
                        fen,
                        clock,
                    } => {
                        let r = self.session.new_game(white, black, fen.as_deref(), clock);
                        if r.is_ok() {
                            self.engine
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .clear();
                        }
                        r
                    }
                    Request::Move { text } => self.session.play_text(&text),
                    Request::Undo => self.session.undo(),
                    Request::Redo => self.session.redo(),
                    Request::Goto { ply, node } => self.session.goto(ply, node),
                    Request::Setup { fen } => self.session.setup(&fen),
                    Request::LoadPdn { pdn, game } => self.session.load_pdn(&pdn, game),
                    Request::Players { white, black } => self.session.set_players(white, black),
                    _ => unreachable!("handled above"),
                }
            }
        };
        match done {
            Err(e) => {
                match stopped {
                    Some(Kind::Move) => self.start(Kind::Move),
                    _ => self.next_search(false),
                }
                self.push_state_if_changed();
                self.out.push(Reply::error(e));
            }
            Ok(Done::Reply(r)) => self.out.push(r),
            Ok(Done::Changed { auto }) => {
                self.next_search(auto);
                if let Some((games, loaded, count)) = self.session.games.take() {
                    self.out.push(Reply::Games {
                        games,
                        loaded,
                        count,
                    });
                }
                self.push_state();
            }
        }
    }

    /// After an error the state is sent again only if a stopped search changed the flags.
    fn push_state_if_changed(&mut self) {
        let thinking = self.search.as_ref().is_some_and(|s| s.kind == Kind::Move);
        if self.session.thinking != thinking {
            self.session.thinking = thinking;
            self.push_state();
        }
    }

    /// Start what should run now: the engine's move when it plays the side to move (with
    /// `auto`), else analysis when it is on. Nothing while a search runs.
    fn next_search(&mut self, auto: bool) {
        if self.search.is_some() || self.session.end().is_some() {
            return;
        }
        if auto && self.session.engine_to_move() {
            self.start(Kind::Move);
        } else if self.session.analyzing {
            self.start(Kind::Analysis);
        }
    }

    /// A book move for the engine's move, as the Hub picks one (`book::Policy`).
    fn book_move(&mut self) -> Option<Move> {
        let book = self.book.as_ref()?;
        let m = Policy::default().pick(book, self.session.game(), &mut self.rng)?;
        Some(m.mv)
    }

    /// Start a search of the position shown on its own thread (or, for the engine's move,
    /// take a book move: it comes as a search's end at once).
    fn start(&mut self, kind: Kind) {
        self.searches += 1;
        let id = self.searches;
        let control = Arc::new(SearchControl::new());
        // A playing level picks every move itself, the opening's too.
        let play_level = match kind {
            Kind::Move => self.session.play_level(),
            _ => None,
        };
        let seed = self.level_rng.next_u64();
        if kind == Kind::Move && play_level.is_none() {
            if let Some(mv) = self.book_move() {
                let (done_tx, finished) = oneshot::channel();
                let _ = done_tx.send(Some(mv));
                let _ = self.tx.send(Event::Done { id, best: Some(mv) });
                self.record(id, kind, Stopper::Search(control), finished);
                self.session.thinking = true;
                return;
            }
        }
        let game = self.session.game().clone();
        let limits = match kind {
            Kind::Move => self.session.move_limits(),
            Kind::Analysis => self.session.analysis_limits(),
            Kind::Review | Kind::Retry => {
                unreachable!("these start with start_review, start_retry")
            }
        };
        let thread_control = Arc::clone(&control);
        let root = *game.position();
        let started = self.launch(id, kind, Stopper::Search(control), move |engine, tx| {
            let mut on_info = |info: &crate::search::Info| {
                let _ = tx.send(Event::Info {
                    id,
                    reply: info_reply(&root, info),
                });
            };
            let out = match play_level {
                Some(l) => {
                    let mut rng = crate::book::Rng::new(seed);
                    let c = &thread_control;
                    crate::search::level::search(
                        engine,
                        &game,
                        l,
                        &limits,
                        c,
                        &mut rng,
                        &mut on_info,
                    )
                }
                None => engine.search(&game, &limits, &thread_control, &mut on_info),
            };
            out.best
        });
        if started {
            self.session.thinking = kind == Kind::Move;
        }
    }

    /// The budget of a `review` or a `retry` (`what`) of `positions` positions, checked
    /// (`serve::review::budget` bounds the whole), and refused while the engine thinks about
    /// its move or a review runs (each would wait for the other).
    fn judge_budget(
        &self,
        fields: protocol::BudgetFields,
        positions: usize,
        what: &str,
    ) -> Result<crate::review::Budget, String> {
        let budget = crate::serve::review::budget(fields, positions, what)?;
        if self.session.thinking {
            return Err(format!(
                "the engine is thinking about its move: wait for it or stop it (move now), \
                 then {what}"
            ));
        }
        if self.search.as_ref().is_some_and(|s| s.kind == Kind::Review) {
            return Err(format!(
                "a review is running: wait for it or stop it, then {what}"
            ));
        }
        Ok(budget)
    }

    /// `review`: the game's main line, on its own thread, each position within `budget`.
    /// Analysis pauses (the caller stopped it) and starts again at the end.
    fn start_review(&mut self, budget: crate::review::Budget) {
        self.searches += 1;
        let id = self.searches;
        let control = Arc::new(ReviewControl::new());
        let game = self.session.main_game();
        let nodes: Vec<u64> = self.session.main_line().iter().map(|n| n.index()).collect();
        let thread_control = Arc::clone(&control);
        self.launch(
            id,
            Kind::Review,
            Stopper::Review(control),
            move |engine, tx| {
                crate::review::review(&game, budget, engine, &thread_control, |ply| {
                    let pos = &game.positions()[ply.ply - 1];
                    let report = PlyReport::new(ply, pos, nodes[ply.ply]);
                    let _ = tx.send(Event::Ply { id, report });
                });
                None
            },
        );
    }

    /// `retry`: `mv` tried in `game`'s position (before ply `ply` of the game), judged on
    /// its own thread within `budget`, answered with `retry_result`. Analysis pauses as for
    /// a review.
    fn start_retry(&mut self, budget: crate::review::Budget, game: Game, ply: usize, mv: Move) {
        self.searches += 1;
        let id = self.searches;
        let control = Arc::new(ReviewControl::new());
        let thread_control = Arc::clone(&control);
        self.launch(
            id,
            Kind::Retry,
            Stopper::Review(control),
            move |engine, tx| {
                let judged =
                    crate::review::try_move(&game, ply, &mv, budget, engine, &thread_control);
                if let Some(p) = judged {
                    let judgement = crate::serve::review::judgement(&p, game.position());
                    let reply = Reply::RetryResult(Box::new(judgement));
                    let _ = tx.send(Event::Info { id, reply });
                }
                None
            },
        );
    }

    /// Run `work` (a search or a review, numbered `id`) on its own thread with the board's
    /// engine, and make it the running search. Its end, a panic included, comes as
    /// `Event::Done` with the move `work` found. False, with an error reply, if no thread
    /// could be had.
    fn launch(
        &mut self,
        id: u64,
        kind: Kind,
        control: Stopper,
        work: impl FnOnce(&Engine, &mpsc::UnboundedSender<Event>) -> Option<Move> + Send + 'static,
    ) -> bool {
        let (done_tx, finished) = oneshot::channel();
        let engine = Arc::clone(&self.engine);
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("board-{}", kind.name()))
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let run = std::panic::AssertUnwindSafe(|| {
                    let engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    work(&engine, &tx)
                });
                let best = std::panic::catch_unwind(run).unwrap_or(None);
                let _ = tx.send(Event::Done { id, best });
                let _ = done_tx.send(best);
            });
        if let Err(e) = spawned {
            self.out
                .push(Reply::error(format!("cannot start a {}: {e}", kind.name())));
            return false;
        }
        self.record(id, kind, control, finished);
        true
    }

    /// Make search `id` the running one, for the position shown.
    fn record(
        &mut self,
        id: u64,
        kind: Kind,
        control: Stopper,
        finished: oneshot::Receiver<Option<Move>>,
    ) {
        self.search = Some(Search {
            id,
            kind,
            node: self.session.node(),
            key: self.session.game().position().key(),
            control,
            tally: Tally::default(),
            finished,
        });
    }

    /// Stop the running search, if any, and wait for its thread to end. Returns its kind.
    async fn stop(&mut self) -> Option<Kind> {
        self.halt().await.map(|(kind, ..)| kind)
    }

    /// `stop`, returning also the position searched (node and key) and the best move found.
    /// A review stopped says so (`review_done` with `stopped`, its counts those of the
    /// plies sent).
    async fn halt(&mut self) -> Option<(Kind, NodeId, u64, Option<Move>)> {
        let s = self.search.take()?;
        s.control.stop();
        let best = s.finished.await.unwrap_or(None);
        self.session.thinking = false;
        if s.kind == Kind::Review {
            self.out.push(s.tally.done(true));
        }
        Some((s.kind, s.node, s.key, best))
    }

    /// The timer of a timed game: if the running clock has reached zero, the flag ends the
    /// game, and an engine's search for its move is dropped.
    async fn flag_fell(&mut self) {
        if !self.session.check_flag() {
            return;
        }
        if self.search.as_ref().is_some_and(|s| s.kind == Kind::Move) {
            self.stop().await;
        }
        self.push_state();
    }

    async fn event(&mut self, event: Event) {
        match event {
            Event::Info { id, reply } => {
                if self.search.as_ref().is_some_and(|s| s.id == id) {
                    self.out.push(reply);
                }
            }
            Event::Ply { id, mut report } => {
                if let Some(s) = self.search.as_mut().filter(|s| s.id == id) {
                    s.tally.add(&report);
                    report.record(&mut self.session);
                    self.out.push(report.reply);
                }
            }
            Event::Done { id, best } => {
                if self.search.as_ref().is_none_or(|s| s.id != id) {
                    return; // a search stopped on purpose: its move is not wanted
                }
                let s = self.search.take().expect("checked above");
                let _ = s.finished.await;
                self.session.thinking = false;
                let mut auto = false;
                if s.kind == Kind::Review {
                    self.out.push(s.tally.done(false));
                }
                if s.kind == Kind::Move {
                    match best.map(|mv| self.session.play_engine(mv, s.node, s.key)) {
                        Some(Ok(())) => auto = true,
                        // Its flag fell first: the state says so.
                        Some(Err(_)) if self.session.end().is_some() => {}
                        Some(Err(e)) => self.out.push(Reply::error(e)),
                        None => self.out.push(Reply::error("the engine found no move")),
                    }
                }
                self.next_search(auto);
                self.push_state();
            }
        }
    }
}
