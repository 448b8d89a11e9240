//! The engine in the browser's search worker (`web/engine/search.js`): one `Engine` per
//! module instance, one thread, with the table the page asks for, running each job the board
//! sends to its end and emitting its events on `Channel::Event` as JSON. The worker is
//! ended to stop a job, so no stop is read here.

use crate::host::{emit, report_panics, take, Channel};
use poolshark_engine::board::{run_job, Job, JobControl};
use poolshark_engine::search::Engine;
use std::cell::RefCell;

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// A new engine with a table of `hash_mb` MiB: 0, or 1 with the reason on `Channel::Err`.
#[no_mangle]
pub extern "C" fn poolshark_engine_new(hash_mb: u32) -> u32 {
    report_panics();
    match Engine::try_new(hash_mb as usize, 1) {
        Ok(engine) => {
            ENGINE.with(|e| *e.borrow_mut() = Some(engine));
            0
        }
        Err(e) => {
            emit(Channel::Err, &format!("no engine: {e}"));
            1
        }
    }
}

/// Run one job (JSON text, as the board emitted it on `Channel::Start`) to its end.
///
/// # Safety
/// As `host::take`.
#[no_mangle]
pub unsafe extern "C" fn poolshark_engine_run(ptr: *mut u8, len: usize) {
    // SAFETY: the caller's contract is `take`'s.
    let text = unsafe { take(ptr, len) };
    let job: Job = match serde_json::from_str(&text) {
        Ok(job) => job,
        Err(e) => {
            emit(Channel::Err, &format!("a job that cannot be read: {e}"));
            return;
        }
    };
    ENGINE.with(|e| match e.borrow_mut().as_mut() {
        Some(engine) => {
            run_job(
                engine,
                &job,
                &JobControl::new(),
                &mut |event| match serde_json::to_string(&event) {
                    Ok(text) => emit(Channel::Event, &text),
                    Err(e) => emit(Channel::Err, &format!("an event that is not JSON: {e}")),
                },
            )
        }
        None => emit(Channel::Err, "no engine: call poolshark_engine_new first"),
    });
}
