//! The Hub loop: it owns the engine, the game and the limits, handles each command, and runs
//! each search on a thread of its own.
//!
//! Events come from one channel: lines from the stdin reader and the end of each search.
//! While a search runs only `ping`, `ponder-hit` and `stop` are handled at once; any other
//! line stops the search, waits for its `done`, and is then handled. The engine moves into
//! the search thread and comes back when it ends, so no lock guards it.
//!
//! A new table's pages are faulted in on a background thread (`search::tt`). `init` is
//! answered with `ready` only once that is done, so a client that waits for `ready` never
//! has its clock charged for it; meanwhile the loop answers every other line as usual.

use crate::hub::command::{parse, Command, GoMode, HubError, Level};
use crate::hub::input::{spawn_reader, Event};
use crate::hub::lag::LagMeter;
use crate::hub::output;
use crate::hub::params::{max_tt_log2, Params};
use crate::hub_syntax::shown;
use poolshark_engine::book::{Book, Rng};
use poolshark_engine::core::{movegen, Game};
use poolshark_engine::egdb::Egdb;
use poolshark_engine::eval::Weights;
use poolshark_engine::search::level::{self, PlayLevel};
use poolshark_engine::search::params::SearchParams;
use poolshark_engine::search::tt::Readiness;
use poolshark_engine::search::{max_threads, Engine, Limits, Outcome, SearchControl};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack for the search thread, which runs the main search worker itself.
const SEARCH_STACK: usize = 16 << 20;

/// What the loop should do after a command.
enum Flow {
    Continue,
    Quit,
}

struct Search {
    id: u64,
    control: Arc<SearchControl>,
    /// Gives the engine back, with the time from `go` to `done` by the engine's clock.
    handle: JoinHandle<(Engine, Duration)>,
}

struct Hub {
    /// None only while a search holds it.
    engine: Option<Engine>,
    params: Params,
    /// None after a `pos` that failed, until the next good one.
    game: Option<Game>,
    level: Level,
    search: Option<Search>,
    searches: u64,
    tx: Sender<Event>,
    /// None when the book could not be loaded: the engine then always searches.
    book: Option<Book>,
    rng: Rng,
    /// The generator of the `level` picks (`search::level`), seedable for tests.
    level_rng: Rng,
    /// The weights in force (from `eval-file`), for an engine made afresh.
    weights: Weights,
    /// The endgame tables of `egdb-path` (given to the engine while `egdb` is true).
    egdb: Option<Arc<Egdb>>,
    /// Whether the current table's pages are in memory.
    table: Arc<Readiness>,
    /// `ready` lines owed for `init`s that came while the table was being prepared.
    ready_owed: usize,
    /// How late answers reach the client's clock, and so the reserve to keep.
    lag: LagMeter,
}

/// Run the loop on stdin and stdout until `quit` or the end of input. Returns the exit code.
pub fn run() -> i32 {
    run_with("")
}

/// `run`, with the evaluation weights from `eval_file` (empty: the built-in ones) as if the
/// client had set `eval-file`. A bad file ends it at once with exit code 2.
pub fn run_with(eval_file: &str) -> i32 {
    let (tx, rx) = channel();
    if let Err(e) = spawn_reader(tx.clone()) {
        log::error!("cannot start the stdin reader: {e}");
        return 1;
    }
    let mut hub = Hub::new(tx, Params::new(max_tt_log2(), max_threads()));
    hub.book = poolshark_host::book::load_for_play();
    hub.load_default_egdb();
    if !eval_file.is_empty() {
        if let Err(e) = hub.set_param("eval-file", eval_file) {
            eprintln!("error: {e}");
            return 2;
        }
    }
    hub.serve(&rx)
}

impl Hub {
    /// A Hub at rest with these parameters (the table as large as they say, if it can be
    /// had), the start position and no book.
    fn new(tx: Sender<Event>, params: Params) -> Hub {
        let weights = Weights::builtin();
        let engine = fresh_engine(&params, &weights);
        Hub {
            params: Params {
                tt_log2: engine.tt().log2_entries(),
                ..params
            },
            table: engine.tt().readiness(),
            engine: Some(engine),
            game: Some(Game::new(poolshark_engine::core::Position::start())),
            level: Level::default(),
            search: None,
            searches: 0,
            tx,
            book: None,
            rng: poolshark_host::seeds::book_rng(),
            level_rng: poolshark_host::seeds::level_rng(),
            weights,
            egdb: None,
            ready_owed: 0,
            lag: LagMeter::new(),
        }
    }

    /// Open the tables in the default `egdb-path` if that folder exists (damaged files are
    /// left out with a warning).
    fn load_default_egdb(&mut self) {
        let dir = std::path::Path::new(&self.params.egdb_path);
        if dir.is_dir() {
            match poolshark_host::egdb::open_background(dir) {
                Ok(db) => self.egdb = Some(Arc::new(db)),
                Err(e) => log::warn!("{e}"),
            }
            let active = self.active_egdb();
            self.engine().egdb = active;
        }
    }

    /// The tables the engine should probe: those loaded, unless `egdb` is off.
    fn active_egdb(&self) -> Option<Arc<Egdb>> {
        self.egdb.clone().filter(|_| self.params.egdb)
    }

    /// Make the engine afresh from the parameters and weights in force (after the search
    /// thread, which held the old one, failed).
    fn replace_engine(&mut self) {
        let mut engine = fresh_engine(&self.params, &self.weights);
        engine.egdb = self.active_egdb();
        // Checked when it was set (`Params::with`).
        if let Ok(p) = SearchParams::default().with_assignments(&self.params.search_params) {
            engine.params = p;
        }
        self.params.tt_log2 = engine.tt().log2_entries();
        self.table = engine.tt().readiness();
        self.engine = Some(engine);
    }

    /// Answer `init` with `ready` once the table is ready (now, or when a watcher says so).
    fn owe_ready(&mut self) {
        self.ready_owed += 1;
        self.pay_ready();
    }

    /// Print the `ready` lines owed if the current table is ready; else watch it.
    fn pay_ready(&mut self) {
        if self.ready_owed == 0 {
            return;
        }
        if self.table.is_ready() {
            for _ in 0..self.ready_owed {
                output::line("ready");
            }
            self.ready_owed = 0;
            return;
        }
        let table = Arc::clone(&self.table);
        let tx = self.tx.clone();
        let watcher = std::thread::Builder::new()
            .name("hub-table".into())
            .spawn(move || {
                table.wait();
                let _ = tx.send(Event::TableReady);
            });
        if let Err(e) = watcher {
            // No thread to watch with: wait here rather than never answer.
            log::warn!("cannot start a thread to watch the table ({e}); waiting for it");
            self.table.wait();
            self.pay_ready();
        }
    }

    fn serve(&mut self, rx: &Receiver<Event>) -> i32 {
        loop {
            let Ok(event) = rx.recv() else { return 0 };
            match event {
                Event::Eof => {
                    // The client is gone: stop the search and leave without waiting for it.
                    if let Some(s) = &self.search {
                        s.control.stop();
                    }
                    log::debug!("end of input");
                    return 0;
                }
                Event::SearchDone(id) => {
                    if self.search.as_ref().is_some_and(|s| s.id == id) {
                        self.finish_search();
                    }
                }
                Event::TableReady => self.pay_ready(),
                Event::TooLong { length, first_word } => {
                    self.end_search();
                    if first_word == "pos" {
                        // Searching the previous position instead would answer the wrong
                        // question.
                        self.game = None;
                        self.level = Level::default();
                        output::error(&format!(
                            "pos line of {length} bytes is too long; no position until the \
                             next good pos"
                        ));
                    } else {
                        output::error(&format!("line of {length} bytes is too long; ignored"));
                    }
                }
                Event::Line(line) => {
                    let command = parse(&line);
                    if let Some(s) = &self.search {
                        match command {
                            Ok(Command::Ping) => output::line("pong"),
                            Ok(Command::PonderHit) => s.control.ponder_hit(),
                            Ok(Command::Stop) => s.control.stop(),
                            Ok(Command::Empty) => {}
                            _ => {
                                self.end_search();
                                if let Flow::Quit = self.handle(&line, command) {
                                    return 0;
                                }
                            }
                        }
                    } else if let Flow::Quit = self.handle(&line, command) {
                        return 0;
                    }
                }
            }
        }
    }

    /// Stop the running search, if any, and wait for its `done`.
    fn end_search(&mut self) {
        if let Some(s) = &self.search {
            s.control.stop();
            self.finish_search();
        }
    }

    /// Take the engine back from a search that has ended (or is ending).
    fn finish_search(&mut self) {
        let Some(s) = self.search.take() else { return };
        match s.handle.join() {
            Ok((engine, took)) => {
                self.engine = Some(engine);
                self.lag.done(took);
            }
            Err(_) => {
                // The thread catches search panics, so this is out of the ordinary: start over.
                log::error!("the search thread failed; making a new engine");
                self.replace_engine();
            }
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine
            .as_mut()
            .expect("the engine is home whenever no search runs")
    }

    fn handle(&mut self, line: &str, command: Result<Command, HubError>) -> Flow {
        let command = match command {
            Ok(c) => c,
            Err(e) => {
                if line.split_ascii_whitespace().next() == Some("pos") {
                    // Searching the previous position instead would answer the wrong question.
                    self.game = None;
                    self.level = Level::default();
                    output::error(&format!("{e}; no position until the next good pos"));
                } else {
                    output::error(&e);
                }
                return Flow::Continue;
            }
        };
        match command {
            Command::Empty => {}
            Command::Hub => self.hello(),
            Command::Init => self.owe_ready(),
            Command::Ping => output::line("pong"),
            // A stop or ponder-hit that crossed the search's `done` on the way: nothing to do.
            Command::Stop | Command::PonderHit => {}
            Command::Quit => return Flow::Quit,
            Command::NewGame => {
                self.engine().clear();
                self.lag.reset();
            }
            Command::SetParam { name, value } => {
                if let Err(e) = self.set_param(&name, &value) {
                    output::error(&e);
                }
            }
            Command::Pos { start, moves } => {
                self.level = Level::default();
                self.game = None;
                let mut game = Game::new(start);
                for (i, text) in moves.iter().enumerate() {
                    if let Err(e) = game.play_text(text) {
                        output::error(&HubError::Refused(format!(
                            "moves: move {} ({}): {e}; no position until the next good pos",
                            i + 1,
                            shown(text)
                        )));
                        return Flow::Continue;
                    }
                }
                self.game = Some(game);
            }
            Command::Level(level) => merge(&mut self.level, level),
            Command::Go(mode) => self.go(mode),
        }
        Flow::Continue
    }

    fn hello(&self) {
        output::line(&format!(
            "id name=poolshark version={} author=\"the poolshark authors\" country=US",
            env!("CARGO_PKG_VERSION")
        ));
        for line in self.params.param_lines() {
            output::line(&format!("param {line}"));
        }
        for d in self.params.declared() {
            log::info!("param {}: {}", d.name, d.help);
        }
        output::line("wait");
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), HubError> {
        let next = self.params.with(name, value)?;
        if next.tt_log2 != self.params.tt_log2 {
            let engine = self.engine();
            let result = engine.try_set_tt_log2(next.tt_log2);
            let now = engine.tt().log2_entries();
            self.table = engine.tt().readiness();
            self.params.tt_log2 = now;
            if result.is_err() {
                let gib = (1u64 << next.tt_log2) as f64 * 16.0 / (1u64 << 30) as f64;
                return Err(HubError::Refused(format!(
                    "tt-size={}: cannot allocate {gib:.1} GiB; tt-size stays {now}",
                    next.tt_log2
                )));
            }
        }
        if next.threads != self.params.threads {
            self.engine().set_threads(next.threads);
        }
        if next.eval_file != self.params.eval_file {
            let weights = if next.eval_file.is_empty() {
                Ok(Weights::builtin())
            } else {
                poolshark_host::weights::load(std::path::Path::new(&next.eval_file))
            };
            match weights {
                Ok(w) => {
                    // What the table holds was scored by the old evaluation.
                    self.engine().set_weights(w.clone());
                    self.weights = w;
                }
                Err(e) => {
                    return Err(HubError::Refused(format!(
                        "eval-file: {e}; the weights stay as they were"
                    )))
                }
            }
        }
        if next.search_params != self.params.search_params {
            // Checked by `Params::with`; an error here would be a mistake in this file.
            match SearchParams::default().with_assignments(&next.search_params) {
                Ok(p) => self.engine().params = p,
                Err(e) => return Err(HubError::Refused(format!("search-params: {e}"))),
            }
        }
        if next.egdb_path != self.params.egdb_path {
            self.egdb = if next.egdb_path.is_empty() {
                None
            } else {
                let dir = std::path::Path::new(&next.egdb_path);
                match poolshark_host::egdb::open_background(dir) {
                    Ok(db) => Some(Arc::new(db)),
                    Err(e) => {
                        return Err(HubError::Refused(format!(
                            "egdb-path: {e}; the tables stay as they were"
                        )))
                    }
                }
            };
        }
        let tt_log2 = self.params.tt_log2;
        self.params = Params { tt_log2, ..next };
        let active = self.active_egdb();
        self.engine().egdb = active;
        Ok(())
    }

    fn go(&mut self, mode: GoMode) {
        let game = match &self.game {
            None => Err("no position: the last pos was rejected".to_string()),
            Some(g) if movegen::legal_moves(g.position()).is_empty() => {
                Err(format!("no legal move: {}", g.result()))
            }
            Some(g) => Ok(g.clone()),
        };
        let game = match game {
            Ok(g) => g,
            Err(message) => {
                // Every go gets its done, so a client waiting for one does not hang.
                output::error(&message);
                output::line("done");
                return;
            }
        };
        let started = Instant::now();
        let clock = match (mode, self.level.time) {
            (GoMode::Think, Some(t)) => Some((
                Duration::from_secs_f64(t.max(0.0)),
                self.level.inc.unwrap_or(Duration::ZERO),
            )),
            _ => None,
        };
        let reserve = self.lag.go(clock, game.position());
        // A level plays its own pick from the first move on: no book, no analysis.
        let play_level = self
            .params
            .level
            .filter(|_| mode != GoMode::Analyze)
            .map(|l| (l, Rng::new(self.level_rng.next_u64())));
        let book_move = match play_level {
            Some(_) => None,
            None => self.book_move(&game, mode),
        };
        if let Some(mv) = book_move {
            output::line(&format!("done move={}", mv.hub()));
            self.lag.done(started.elapsed());
            return;
        }
        let limits = Limits {
            overhead: Some(reserve),
            multipv: self.params.multipv,
            ..limits(&self.level, mode)
        };
        let control = Arc::new(SearchControl::new());
        control.set_pondering(mode == GoMode::Ponder);
        self.searches += 1;
        let id = self.searches;
        let engine = self.engine.take().expect("no search is running");
        let tx = self.tx.clone();
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new()
            .name("hub-search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                search_and_report(&engine, &game, &limits, &thread_control, play_level);
                let took = started.elapsed();
                let _ = tx.send(Event::SearchDone(id));
                (engine, took)
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(Search {
                    id,
                    control,
                    handle,
                })
            }
            Err(e) => {
                // The closure, and the engine in it, is gone with the failed spawn.
                self.replace_engine();
                output::error(&format!("cannot start the search thread: {e}"));
                output::line("done");
            }
        }
    }
}

impl Hub {
    /// A book move for `go think`, when the book is on, the game is within `book-ply` plies
    /// of the position given by `pos`, and the book knows the position. Analysis and
    /// pondering always search.
    fn book_move(&mut self, game: &Game, mode: GoMode) -> Option<poolshark_engine::core::Move> {
        if mode != GoMode::Think || !self.params.book {
            return None;
        }
        let book = self.book.as_ref()?;
        let m = self.params.book_policy.pick(book, game, &mut self.rng)?;
        Some(m.mv)
    }
}

/// An engine as `params` and `weights` say, with the table of `tt_log2` if it can be had
/// (else a smaller one: check `tt().log2_entries()`).
fn fresh_engine(params: &Params, weights: &Weights) -> Engine {
    let mut engine = Engine::new(1, params.threads);
    if let Err(e) = engine.try_set_tt_log2(params.tt_log2) {
        log::warn!("hash table of 2^{} entries: {e}", params.tt_log2);
    }
    engine.weights = weights.clone();
    engine
}

/// Run one search, printing `info` lines and then exactly one `done` (`end_lines`). At a
/// level, the move is the level's pick (`search::level`), drawn from the generator given.
fn search_and_report(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    play_level: Option<(PlayLevel, Rng)>,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut on_info = |info: &poolshark_engine::search::Info| {
            output::line(&format!("info {}", output::info_fields(info)))
        };
        match play_level {
            Some((l, mut rng)) => {
                level::search(engine, game, l, limits, control, &mut rng, &mut on_info)
            }
            None => engine.search(game, limits, control, &mut on_info),
        }
    }));
    for line in end_lines(result, game) {
        output::line(&line);
    }
}

/// The lines that end a search of `game`: `done move=...`; or an `error` and an empty
/// `done`, when there is no legal move or the search could not run (it panicked). A move
/// the search did not choose is never played: a client must see that the engine failed,
/// not a move picked blindly.
fn end_lines(result: std::thread::Result<Outcome>, game: &Game) -> Vec<String> {
    match result {
        Ok(outcome) => match outcome.best {
            Some(best) => {
                let ponder = outcome
                    .ponder
                    .map(|m| format!(" ponder={}", m.hub()))
                    .unwrap_or_default();
                vec![format!("done move={}{ponder}", best.hub())]
            }
            None => vec![
                output::error_line(&format!("no legal move: {}", game.result())),
                "done".to_string(),
            ],
        },
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            log::error!("the search failed: {why}");
            vec![
                output::error_line(&format!("internal error in the search: {why}")),
                "done".to_string(),
            ]
        }
    }
}

/// Fold a `level` line into the limits set since the last `pos`.
fn merge(into: &mut Level, level: Level) {
    into.depth = level.depth.or(into.depth);
    into.nodes = level.nodes.or(into.nodes);
    into.move_time = level.move_time.or(into.move_time);
    into.time = level.time.or(into.time);
    into.moves = level.moves.or(into.moves);
    into.inc = level.inc.or(into.inc);
    into.infinite |= level.infinite;
}

/// The search limits for `go`. The increment is added to the clock before the move, as the
/// protocol says; a negative clock counts as empty.
fn limits(level: &Level, mode: GoMode) -> Limits {
    let inc = level.inc.unwrap_or(Duration::ZERO);
    Limits {
        depth: level.depth,
        nodes: level.nodes,
        move_time: level.move_time,
        time: level
            .time
            .map(|t| Duration::from_secs_f64(t.max(0.0)) + inc),
        inc,
        moves_to_go: level.moves,
        infinite: level.infinite,
        analyze: mode == GoMode::Analyze,
        overhead: None,
        multipv: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_add_up_and_the_increment_joins_the_clock() {
        let mut level = Level::default();
        merge(
            &mut level,
            Level {
                time: Some(-0.5),
                ..Level::default()
            },
        );
        merge(
            &mut level,
            Level {
                inc: Some(Duration::from_secs(2)),
                depth: Some(7),
                ..Level::default()
            },
        );
        let l = limits(&level, GoMode::Think);
        assert_eq!(l.time, Some(Duration::from_secs(2)));
        assert_eq!(l.depth, Some(7));
        assert!(!l.analyze && !l.infinite);
        assert!(limits(&level, GoMode::Analyze).analyze);
    }

    /// The engine made after a failed search thread keeps the user's settings, the weights
    /// of `eval-file` among them.
    #[test]
    fn a_replacement_engine_keeps_the_settings() {
        let (tx, _rx) = channel();
        let mut hub = Hub::new(tx, Params::new(17, 4));
        let handset = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/handset.txt");
        hub.set_param("eval-file", handset).unwrap();
        hub.set_param("threads", "3").unwrap();
        hub.set_param("search-params", "lmr_divisor:3.5").unwrap();
        let loaded = hub.engine().weights.clone();
        assert_ne!(
            loaded,
            Weights::default(),
            "handset.txt differs from the built-in"
        );
        hub.engine = None;
        hub.replace_engine();
        let engine = hub.engine();
        assert_eq!(engine.weights, loaded);
        assert_eq!(engine.threads(), 3);
        assert_eq!(engine.params.lmr_divisor, 3.5);
        assert_eq!(engine.tt().log2_entries(), 17);
    }

    /// A search that could not run (it panicked) ends in an `error` that says why and an
    /// empty `done`: never a move it did not search.
    #[test]
    fn a_failed_search_answers_an_error_and_an_empty_done() {
        let game = Game::new(poolshark_engine::core::Position::start());
        for payload in [
            Box::new("clamp: min > max") as Box<dyn std::any::Any + Send>,
            Box::new(String::from("clamp: min > max")),
        ] {
            let lines = end_lines(Err(payload), &game);
            assert_eq!(lines.len(), 2, "{lines:?}");
            assert!(lines[0].starts_with("error message="), "{lines:?}");
            assert!(lines[0].contains("clamp: min > max"), "{lines:?}");
            assert_eq!(lines[1], "done");
        }
        let lines = end_lines(Err(Box::new(7u8)), &game);
        assert_eq!(lines[1], "done");
        // A search that ran gives its move.
        let engine = Engine::new(1, 1);
        let out = engine.search(
            &game,
            &Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &SearchControl::new(),
            &mut |_| {},
        );
        let want = format!(
            "done move={} ponder={}",
            out.best.unwrap().hub(),
            out.ponder.unwrap().hub()
        );
        assert_eq!(end_lines(Ok(out), &game), vec![want]);
    }
}
