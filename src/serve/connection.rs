//! One board's WebSocket, from hello to close: the native host of a `board::Board`. It reads
//! requests in order and hands each to the board, writes what the board sends, runs the
//! board's jobs (`board::run_job`) on a thread of their own with the board's engine, and
//! wakes the board when it asks (`Board::next_wake`: a timed game's flag, the tables' look
//! again). `server` owns the HTTP side that hands it the socket.
//!
//! - order: one request is handled at a time, and the next is read only once the replies
//!   to this one are written, so a flood only slows its own connection. The board handles
//!   it off the runtime's worker (`block_in_place`), so a slow one (a large PDN) never
//!   holds up another connection.
//! - silence: the socket is pinged after `ping_interval` without a message, and closed
//!   (its board freed, its search stopped) without an answer within `ping_timeout`, as
//!   is one that does not read what it is sent for that long.
//! - searches: one thread at a time; a job the board stops is stopped (`JobControl`) and
//!   waited for before the next starts, and a closed socket stops it.
//! - tables: the endgame tables answer the board (`board::Tables`) from files read in the
//!   background.

use crate::serve::board::{run_job, Board, BoardConfig, Job, JobControl, JobEvent, JobId, Out};
use crate::serve::protocol::Reply;
use crate::serve::server::App;
use axum::extract::ws::{Message, WebSocket};
use poolshark_engine::search::Engine;
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
    let config = BoardConfig {
        book: app.config.book.clone(),
        book_rng: poolshark_host::seeds::book_rng(),
        level_rng: poolshark_host::seeds::level_rng(),
        now: Arc::new(Instant::now),
        tables: tables.map(|db| db as Arc<dyn crate::serve::board::Tables>),
    };
    let mut board = Board::new(config);
    let mut host = Host {
        engine: Arc::new(Mutex::new(engine)),
        running: None,
        tx,
    };
    let mut outs = board.open();
    // When the client was last heard from, and when it was pinged since, if it was.
    let mut heard = Instant::now();
    let mut pinged: Option<Instant> = None;
    loop {
        // Acting on the board's outs may give more (a job that could not start).
        while !outs.is_empty() {
            let mut more = Vec::new();
            for out in std::mem::take(&mut outs) {
                match out {
                    Out::Send(reply) => {
                        if !send(&mut socket, &reply, limit).await {
                            host.stop().await;
                            return;
                        }
                    }
                    Out::Start(job) => {
                        if let Err(event) = host.start(job).await {
                            more.extend(board.event(event));
                        }
                    }
                    Out::Stop(id) => host.stop_job(id).await,
                }
            }
            outs = more;
        }
        let wake = match pinged {
            Some(at) => at + limits.ping_timeout,
            None => heard + limits.ping_interval,
        };
        let board_wake = board.next_wake();
        let board_due = Instant::now() + board_wake.unwrap_or_default();
        tokio::select! {
            message = socket.recv() => {
                heard = Instant::now();
                pinged = None;
                match message {
                    Some(Ok(Message::Text(text))) => {
                        // What the job reported before the request comes first: a "move
                        // now" plays the best move of the last `info` the board has.
                        while let Ok(event) = events.try_recv() {
                            host.ended(&event);
                            outs.extend(board.event(event));
                        }
                        // A request may take long (a large PDN to read): off this
                        // task's worker, so that every other board and page is served
                        // meanwhile.
                        let replies = tokio::task::block_in_place(|| board.request(text.as_str()));
                        outs.extend(replies);
                    }
                    Some(Ok(Message::Binary(_))) => outs.push(Out::Send(Reply::error(
                        "binary messages are not read: send JSON text",
                    ))),
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
            Some(event) = events.recv() => {
                host.ended(&event);
                outs = board.event(event);
            }
            _ = tokio::time::sleep_until(board_due.into()), if board_wake.is_some() => {
                outs = board.tick();
            }
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
    host.stop().await;
}

async fn no_engine(socket: &mut WebSocket, why: String, limit: Duration) {
    log::warn!("refused a board: no engine: {why}");
    send(socket, &Reply::error(format!("no engine: {why}")), limit).await;
}

/// The board's job on its thread.
struct Thread {
    id: JobId,
    control: Arc<JobControl>,
    /// Fires when the thread has ended (dropped with it, a panic included).
    finished: oneshot::Receiver<()>,
}

/// The native side of one board: its engine and the thread that runs its job.
struct Host {
    engine: Arc<Mutex<Engine>>,
    running: Option<Thread>,
    tx: mpsc::UnboundedSender<JobEvent>,
}

impl Drop for Host {
    /// However the connection ends (a closed tab, a failed write, a panic), its search
    /// must not run on: an analysis would never stop by itself.
    fn drop(&mut self) {
        if let Some(t) = &self.running {
            t.control.stop();
        }
    }
}

impl Host {
    /// Run `job` on its own thread with the board's engine, once the last job's thread
    /// has ended. Its events go to the loop; its end, a panic included, comes as
    /// `JobEvent::Finished` (a panic finds no move). The event to give the board if no
    /// thread could be had.
    async fn start(&mut self, job: Job) -> Result<(), JobEvent> {
        self.stop().await;
        let id = job.id;
        let control = Arc::new(JobControl::new());
        let (done_tx, finished) = oneshot::channel();
        let engine = Arc::clone(&self.engine);
        let tx = self.tx.clone();
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new()
            .name(format!("board-job-{id}"))
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let _done = done_tx;
                let run = std::panic::AssertUnwindSafe(|| {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    run_job(&mut engine, &job, &thread_control, &mut |event| {
                        let _ = tx.send(event);
                    });
                });
                if std::panic::catch_unwind(run).is_err() {
                    let _ = tx.send(JobEvent::Finished { id, best: None });
                }
            });
        match spawned {
            Ok(_) => {
                self.running = Some(Thread {
                    id,
                    control,
                    finished,
                });
                Ok(())
            }
            Err(e) => Err(JobEvent::Failed {
                id,
                message: e.to_string(),
            }),
        }
    }

    /// The job `id`, if it runs: stop it and wait for its thread to end.
    async fn stop_job(&mut self, id: JobId) {
        if self.running.as_ref().is_some_and(|t| t.id == id) {
            self.stop().await;
        }
    }

    /// Stop the running job, if any, and wait for its thread to end.
    async fn stop(&mut self) {
        if let Some(t) = self.running.take() {
            t.control.stop();
            let _ = t.finished.await;
        }
    }

    /// A job's last event: its thread is ending (no stop needed).
    fn ended(&mut self, event: &JobEvent) {
        if matches!(event, JobEvent::Finished { .. } | JobEvent::Failed { .. })
            && self.running.as_ref().is_some_and(|t| t.id == event.id())
        {
            // The thread ends once it has sent this: waiting for it is not needed, and the
            // next job's start waits for the engine's lock anyway.
            self.running = None;
        }
    }
}
