//! The board's session in the browser: one `Board` (the session core that `poolshark serve`
//! runs for each WebSocket) per module instance, in the page's board worker
//! (`web/engine/board-host.js`). Requests and job events come in as JSON text; what the
//! board answers goes out in order on `Channel::Reply` (a message for the page),
//! `Channel::Start` (a job, JSON, for the search worker) and `Channel::Stop` (a job's id).

use crate::host::{emit, report_panics, take, Channel};
use crate::tables::PageStore;
use poolshark_engine::board::{Board, BoardConfig, JobEvent, Out, Tables};
use poolshark_engine::egdb::manifest::Manifest;
use poolshark_engine::egdb::Egdb;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static BOARD: RefCell<Option<Board>> = const { RefCell::new(None) };
}

/// Act on the board's answers, in order.
fn send(outs: Vec<Out>) {
    for out in outs {
        match out {
            Out::Send(reply) => emit(Channel::Reply, &reply.to_json()),
            Out::Start(job) => match serde_json::to_string(&job) {
                Ok(text) => emit(Channel::Start, &text),
                Err(e) => emit(Channel::Err, &format!("a job that is not JSON: {e}")),
            },
            Out::Stop(id) => emit(Channel::Stop, &id.to_string()),
        }
    }
}

/// Call `f` with the board, then act on its answers; without a board (no
/// `poolshark_board_new` yet) say so on `Channel::Err`.
fn with_board(f: impl FnOnce(&mut Board) -> Vec<Out>) {
    let outs = BOARD.with(|b| b.borrow_mut().as_mut().map(f));
    match outs {
        Some(outs) => send(outs),
        None => emit(Channel::Err, "no board: call poolshark_board_new first"),
    }
}

/// A new board (the one before it dropped): the built-in book, the page's clock, and the
/// endgame tables its host serves, from their list (`egdb/index.json`'s text, at `ptr`, from
/// `poolshark_alloc(len)`), or none where the text is empty. A list that cannot be read is
/// reported on `Channel::Err` and the board has no tables.
///
/// # Safety
/// As `host::take`.
#[no_mangle]
pub unsafe extern "C" fn poolshark_board_new(ptr: *mut u8, len: usize) {
    report_panics();
    // SAFETY: the caller's contract is `take`'s.
    let list = unsafe { take(ptr, len) };
    let mut config = BoardConfig::browser();
    config.tables = tables(&list);
    let board = Board::new(config);
    BOARD.with(|b| *b.borrow_mut() = Some(board));
}

/// The tables of the list `text` (empty: none), each file read when first probed.
fn tables(text: &str) -> Option<Arc<dyn Tables>> {
    if text.trim().is_empty() {
        return None;
    }
    match Manifest::parse(text) {
        Ok(list) => Some(Arc::new(Egdb::open_lazy(Arc::new(PageStore::new(list))))),
        Err(why) => {
            emit(Channel::Err, &format!("no endgame tables: {why}"));
            None
        }
    }
}

/// The messages for a page that has just connected (`hello`, `state`).
#[no_mangle]
pub extern "C" fn poolshark_board_open() {
    with_board(|b| b.open());
}

/// One request (docs/BOARD.md) as JSON text at `ptr` (from `poolshark_alloc(len)`).
///
/// # Safety
/// As `host::take`.
#[no_mangle]
pub unsafe extern "C" fn poolshark_board_request(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's contract is `take`'s.
    let text = unsafe { take(ptr, len) };
    with_board(|b| b.request(&text));
}

/// One event of the running job, as JSON text (what `poolshark_engine_run` emitted).
///
/// # Safety
/// As `host::take`.
#[no_mangle]
pub unsafe extern "C" fn poolshark_board_event(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's contract is `take`'s.
    let text = unsafe { take(ptr, len) };
    match serde_json::from_str::<JobEvent>(&text) {
        Ok(event) => with_board(|b| b.event(event)),
        Err(e) => emit(
            Channel::Err,
            &format!("a job event that cannot be read: {e}"),
        ),
    }
}

/// Wake the board (a clock's flag): the host calls it once `poolshark_board_next_wake_ms`
/// has passed.
#[no_mangle]
pub extern "C" fn poolshark_board_tick() {
    with_board(|b| b.tick());
}

/// Milliseconds until the board wants `poolshark_board_tick`, or -1 for never.
#[no_mangle]
pub extern "C" fn poolshark_board_next_wake_ms() -> f64 {
    BOARD.with(|b| {
        b.borrow()
            .as_ref()
            .and_then(|b| b.next_wake())
            .map_or(-1.0, |d| d.as_secs_f64() * 1000.0)
    })
}
