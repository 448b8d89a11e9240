//! The board's core (`serve::board`) driven with messages alone: no socket, no thread. Its
//! jobs run inline here with `run_job`, each crossing to the engine and back as JSON (as a
//! browser's worker gets them), and their events are fed back as the server's loop feeds
//! them.

use poolshark::search::Engine;
use poolshark::serve::board::{
    run_job, Board, BoardConfig, Job, JobControl, JobEvent, JobId, JobKind, Out,
};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A board, an engine for its jobs, and what the board asked for.
struct Driver {
    board: Board,
    engine: Engine,
    /// The messages sent, as the page reads them.
    sent: Vec<Value>,
    /// Jobs started and not yet run.
    jobs: Vec<Job>,
    stopped: Vec<JobId>,
}

impl Driver {
    fn new() -> Driver {
        Driver::with(BoardConfig::plain())
    }

    fn with(config: BoardConfig) -> Driver {
        let mut d = Driver {
            board: Board::new(config),
            engine: Engine::new(4, 1),
            sent: Vec::new(),
            jobs: Vec::new(),
            stopped: Vec::new(),
        };
        let outs = d.board.open();
        d.take(outs);
        d
    }

    fn take(&mut self, outs: Vec<Out>) {
        for out in outs {
            match out {
                Out::Send(reply) => self
                    .sent
                    .push(serde_json::from_str(&reply.to_json()).unwrap()),
                Out::Start(job) => {
                    // A job is plain data: it reads back from its JSON.
                    let text = serde_json::to_string(&job).unwrap();
                    self.jobs.push(serde_json::from_str(&text).unwrap());
                }
                Out::Stop(id) => self.stopped.push(id),
            }
        }
    }

    fn send(&mut self, request: Value) {
        let outs = self.board.request(&request.to_string());
        self.take(outs);
    }

    fn feed(&mut self, event: JobEvent) {
        let text = serde_json::to_string(&event).unwrap();
        let outs = self.board.event(serde_json::from_str(&text).unwrap());
        self.take(outs);
    }

    /// Run job `job` inline to its end: its events, in order.
    fn events_of(&mut self, job: &Job) -> Vec<JobEvent> {
        let mut events = Vec::new();
        run_job(&mut self.engine, job, &JobControl::new(), &mut |e| {
            events.push(e)
        });
        events
    }

    /// The next job started, taken off the list.
    fn job(&mut self) -> Job {
        assert!(
            !self.jobs.is_empty(),
            "no job started; sent: {:?}",
            self.sent
        );
        self.jobs.remove(0)
    }

    /// The messages of type `kind` sent so far, taken off the list with all before them.
    fn all(&mut self, kind: &str) -> Vec<Value> {
        let sent = std::mem::take(&mut self.sent);
        sent.into_iter().filter(|m| m["type"] == kind).collect()
    }

    /// The last message of type `kind`; the list is emptied.
    fn last(&mut self, kind: &str) -> Value {
        let sent = self.sent.clone();
        self.all(kind)
            .pop()
            .unwrap_or_else(|| panic!("no {kind} in {sent:?}"))
    }
}

fn game_moves(state: &Value) -> Vec<String> {
    state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["hub"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn open_says_hello_and_sends_the_state() {
    let mut d = Driver::new();
    assert_eq!(d.sent[0]["type"], "hello");
    let s = d.last("state");
    assert_eq!(
        (s["ply"].clone(), s["thinking"].clone()),
        (json!(0), json!(false))
    );
    assert!(d.jobs.is_empty());
}

#[test]
fn bad_requests_get_the_errors_they_always_got() {
    use poolshark::serve::protocol::{parse, Reply};
    use poolshark::serve::session::Session;
    let mut d = Driver::new();
    for text in [
        "{",
        r#"{"type":"fly"}"#,
        r#"{"type":"move","move":"11-20"}"#,
    ] {
        let outs = d.board.request(text);
        d.take(outs);
        let why = match parse(text) {
            Err(e) => e,
            Ok(_) => match Session::default().play_text("11-20") {
                Err(e) => e.to_string(),
                Ok(_) => panic!("11-20 is not legal at the start"),
            },
        };
        let expected: Value = serde_json::from_str(&Reply::error(why).to_json()).unwrap();
        assert_eq!(d.last("error"), expected, "for {text}");
    }
    assert!(d.jobs.is_empty());
}

#[test]
fn the_engine_answers_a_move_through_a_job() {
    let mut d = Driver::new();
    d.send(json!({"type":"level","depth":4}));
    d.send(json!({"type":"new","white":"engine","black":"human"}));
    d.send(json!({"type":"move","move":"11-15"}));
    assert_eq!(d.last("state")["thinking"], true);
    let job = d.job();
    assert!(matches!(job.kind, JobKind::Move { .. }), "{job:?}");
    let events = d.events_of(&job);
    let Some(JobEvent::Finished {
        best: Some(best), ..
    }) = events.last().cloned()
    else {
        panic!("a move job ends with its move: {events:?}")
    };
    for e in events {
        d.feed(e);
    }
    let infos = d.all("info");
    // `all` took the state too: look at the board's own.
    let state = d.board.session().state();
    assert!(!infos.is_empty());
    assert_eq!(state.history.len(), 2);
    assert_eq!(state.history[1].hub, best);
    assert!(!state.thinking);
    assert!(d.jobs.is_empty(), "the human is to move: nothing runs");
}

#[test]
fn stop_ends_analysis_at_once_and_its_late_events_are_dropped() {
    let mut d = Driver::new();
    d.send(json!({"type":"analyze","on":true}));
    let job = d.job();
    let JobKind::Analyze { limits, .. } = &job.kind else {
        panic!("{job:?}")
    };
    assert!(limits.infinite);
    assert_eq!(d.last("state")["analyzing"], true);
    d.send(json!({"type":"stop"}));
    assert_eq!(d.stopped, [job.id]);
    assert_eq!(d.last("state")["analyzing"], false);
    assert_eq!(d.board.running(), None);
    // The job was not told and runs on (a worker not yet ended): nothing it says counts.
    let mut finite = job.clone();
    if let JobKind::Analyze { limits, .. } = &mut finite.kind {
        limits.infinite = false;
        limits.depth = Some(3);
    }
    let events = d.events_of(&finite);
    assert!(events.len() > 1);
    for e in events {
        d.feed(e);
    }
    assert!(d.sent.is_empty(), "{:?}", d.sent);
    assert!(d.jobs.is_empty());
}

#[test]
fn move_now_plays_the_best_move_of_the_last_info() {
    let mut d = Driver::new();
    d.send(json!({"type":"level","depth":5}));
    d.send(json!({"type":"new","white":"engine","black":"human"}));
    d.send(json!({"type":"move","move":"9-13"}));
    let job = d.job();
    let infos: Vec<JobEvent> = d
        .events_of(&job)
        .into_iter()
        .filter(|e| matches!(e, JobEvent::Info { .. }))
        .collect();
    let Some(JobEvent::Info { info, .. }) = infos.last().cloned() else {
        panic!("no info")
    };
    // The search has reported its iterations but not its end when `stop` comes.
    for e in infos {
        d.feed(e);
    }
    d.send(json!({"type":"stop"}));
    assert_eq!(d.stopped, [job.id]);
    let s = d.last("state");
    assert_eq!(game_moves(&s)[1], info.pv[0]);
    assert_eq!(s["thinking"], false);
    // The search's own end, when it comes, plays nothing more.
    d.feed(JobEvent::Finished {
        id: job.id,
        best: Some(info.pv[0].clone()),
    });
    assert!(d.sent.is_empty());
    assert_eq!(d.board.session().state().history.len(), 2);
}

/// Play ten plies between two humans, each a legal move picked by its index (the same game
/// every time).
fn play_a_game(d: &mut Driver) {
    for k in 0..10 {
        let state = d.board.session().state();
        let mv = state.legal[(k * 3) % state.legal.len()].hub.clone();
        d.send(json!({"type":"move","move":mv}));
    }
    assert!(d.jobs.is_empty(), "humans on both sides: no job");
    d.sent.clear();
}

/// The review of the game at 3,000 nodes a position: its `review_ply` messages and `review_done`.
fn review(d: &mut Driver) -> (Vec<Value>, Value) {
    d.send(json!({"type":"review","nodes":3000}));
    let job = d.job();
    assert!(matches!(job.kind, JobKind::Review { .. }), "{job:?}");
    for e in d.events_of(&job) {
        d.feed(e);
    }
    let sent = std::mem::take(&mut d.sent);
    let plies = sent
        .iter()
        .filter(|m| m["type"] == "review_ply")
        .cloned()
        .collect();
    let done = sent
        .into_iter()
        .find(|m| m["type"] == "review_done")
        .expect("review_done");
    (plies, done)
}

#[test]
fn a_review_at_a_fixed_budget_is_the_same_whatever_ran_before() {
    let mut d = Driver::new();
    d.send(json!({"type":"players","white":"human","black":"human"}));
    play_a_game(&mut d);
    let (first, done) = review(&mut d);
    assert_eq!(first.len(), 10);
    assert_eq!(done["stopped"], false);
    assert_eq!(done["black"]["moves"], 5);
    assert_eq!(done["white"]["moves"], 5);
    // The engine's table now holds a review and a deep analysis of another position.
    d.send(json!({"type":"goto","ply":3}));
    d.send(json!({"type":"analyze","on":true}));
    let mut analysis = d.job();
    if let JobKind::Analyze { limits, .. } = &mut analysis.kind {
        limits.infinite = false;
        limits.depth = Some(9);
    }
    d.events_of(&analysis);
    d.send(json!({"type":"analyze","on":false}));
    d.sent.clear();
    let (again, _) = review(&mut d);
    // The same on a fresh engine, as another host would run it.
    let mut fresh = Driver::new();
    fresh.send(json!({"type":"players","white":"human","black":"human"}));
    play_a_game(&mut fresh);
    let (elsewhere, _) = review(&mut fresh);
    let key = |plies: &[Value]| -> Vec<Value> {
        plies
            .iter()
            .map(|p| {
                json!([
                    p["ply"],
                    p["move"],
                    p["best"],
                    p["score"],
                    p["best_score"],
                    p["mark"]
                ])
            })
            .collect()
    };
    assert_eq!(key(&first), key(&again));
    assert_eq!(key(&first), key(&elsewhere));
}

#[test]
fn a_stopped_review_counts_the_plies_forwarded() {
    let mut d = Driver::new();
    d.send(json!({"type":"players","white":"human","black":"human"}));
    play_a_game(&mut d);
    d.send(json!({"type":"review","nodes":1000}));
    let job = d.job();
    let events = d.events_of(&job);
    let plies: Vec<JobEvent> = events
        .iter()
        .filter(|e| matches!(e, JobEvent::ReviewPly { .. }))
        .cloned()
        .collect();
    assert_eq!(plies.len(), 10);
    d.sent.clear();
    for e in plies.iter().take(3).cloned() {
        d.feed(e);
    }
    assert_eq!(d.all("review_ply").len(), 3);
    d.send(json!({"type":"stop"}));
    assert_eq!(d.stopped, [job.id]);
    let done = d.last("review_done");
    assert_eq!(done["stopped"], true);
    let moves = |side: &str| done[side]["moves"].as_u64().unwrap();
    assert_eq!(moves("black") + moves("white"), 3);
    for e in events.into_iter().skip(3) {
        d.feed(e);
    }
    assert!(d.sent.is_empty(), "{:?}", d.sent);
}

#[test]
fn a_retry_is_judged_by_its_job() {
    let mut d = Driver::new();
    d.send(json!({"type":"players","white":"human","black":"human"}));
    play_a_game(&mut d);
    d.send(json!({"type":"retry","ply":1,"move":"9-14","nodes":2000}));
    let job = d.job();
    let JobKind::Retry { ply, played, .. } = &job.kind else {
        panic!("{job:?}")
    };
    assert_eq!((*ply, played.as_str()), (1, "9-14"));
    d.sent.clear();
    for e in d.events_of(&job) {
        d.feed(e);
    }
    let r = d.last("retry_result");
    assert_eq!(
        (r["ply"].clone(), r["move"].clone()),
        (json!(1), json!("9-14"))
    );
    assert!(r.get("node").is_none());
}

#[test]
fn the_flag_falls_on_a_tick_and_stops_the_engines_search() {
    let t = Arc::new(Mutex::new(Instant::now()));
    let clock = Arc::clone(&t);
    let mut config = BoardConfig::plain();
    config.now = Arc::new(move || *clock.lock().unwrap());
    let mut d = Driver::with(config);
    d.send(json!({"type":"new","white":"engine","black":"human","clock":{"base":2.0}}));
    assert_eq!(
        d.board.next_wake(),
        None,
        "no clock runs before the first move"
    );
    d.send(json!({"type":"move","move":"11-15"}));
    let job = d.job();
    assert_eq!(d.board.next_wake(), Some(Duration::from_secs(2)));
    *t.lock().unwrap() += Duration::from_millis(1500);
    let outs = d.board.tick();
    assert!(outs.is_empty(), "too soon: {outs:?}");
    assert_eq!(d.board.next_wake(), Some(Duration::from_millis(500)));
    *t.lock().unwrap() += Duration::from_millis(500);
    let outs = d.board.tick();
    d.take(outs);
    assert_eq!(d.stopped, [job.id]);
    let s = d.last("state");
    assert_eq!(s["result"]["winner"], "black", "{s}");
    assert_eq!(s["thinking"], false);
    assert_eq!(d.board.next_wake(), None);
    // The search's move, if it comes, is not played.
    d.feed(JobEvent::Finished {
        id: job.id,
        best: Some("22-18".into()),
    });
    assert!(d.sent.is_empty());
}

#[test]
fn a_new_game_clears_the_table_for_the_next_job() {
    let mut d = Driver::new();
    d.send(json!({"type":"analyze","on":true}));
    assert!(!d.job().clear);
    d.send(json!({"type":"new"}));
    assert!(d.job().clear, "the first job of a new game starts afresh");
    d.send(json!({"type":"move","move":"11-15"}));
    assert!(!d.job().clear);
}

#[test]
fn a_game_crosses_as_data_with_its_start_and_counts() {
    use poolshark::core::Game;
    use poolshark::serve::board::GameData;
    // Kings only, 30 quiet plies already (a position from a protocol message): a job's game
    // must carry the 40-move count (R18), as it carries the set-up position and every move.
    let start = poolshark::core::notation::parse_fen("W:WK30,K31:BK1,K2").unwrap();
    let counts = poolshark::core::game::DrawCounts {
        quiet_king_plies: 30,
        lone_king_moves: None,
    };
    let mut game = Game::with_counts(start, counts);
    for _ in 0..4 {
        let mv = poolshark::core::movegen::legal_moves(game.position()).as_slice()[0];
        game.play(&mv);
    }
    let data = GameData::of(&game);
    let text = serde_json::to_string(&data).unwrap();
    let back = serde_json::from_str::<GameData>(&text)
        .unwrap()
        .game()
        .unwrap();
    assert_eq!(back.positions(), game.positions());
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.counts(), game.counts());
    assert_eq!(game.counts().quiet_king_plies, 34);
    // A move that does not fit is refused, not played.
    let mut bad = data.clone();
    bad.moves.insert(0, "11-15".into());
    assert!(bad.game().is_err());
}

/// Issue 61, defect 8: a retry at a reviewed move is judged against the review's best move
/// and score, not a second search's: the retry's job carries them, and `retry_result` says
/// the review's `best` and `best_score`. The state's `review` sums the main line's reviewed
/// moves as `review_done` does.
#[test]
fn a_retry_after_a_review_gives_the_reviews_score() {
    let mut d = Driver::new();
    d.send(json!({"type":"players","white":"human","black":"human"}));
    play_a_game(&mut d);
    let (plies, done) = review(&mut d);
    let summary = d.board.session().state().review.expect("a summary");
    assert_eq!((summary.plies, summary.of), (10, 10));
    for side in ["black", "white"] {
        let sent = serde_json::to_value(if side == "black" {
            summary.black
        } else {
            summary.white
        })
        .unwrap();
        for key in ["inaccuracies", "mistakes", "blunders", "moves"] {
            assert_eq!(sent[key], done[side][key], "{side} {key}");
        }
    }
    let third = &plies[2];
    d.send(json!({"type":"retry","ply":3,"move":third["move"],"nodes":2000}));
    let job = d.job();
    let JobKind::Retry { known, .. } = &job.kind else {
        panic!("{job:?}")
    };
    let known = known.as_ref().expect("the review's best line");
    assert_eq!(
        (json!(known.mv), json!(known.score)),
        (third["best"].clone(), third["best_score"].clone())
    );
    d.sent.clear();
    for e in d.events_of(&job) {
        d.feed(e);
    }
    let r = d.last("retry_result");
    assert_eq!(
        (&r["best"], &r["best_score"]),
        (&third["best"], &third["best_score"]),
        "{r}"
    );
}
