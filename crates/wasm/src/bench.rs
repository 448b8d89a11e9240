//! `bench` in the browser's build, as `poolshark bench` runs it with its defaults (depth
//! `DEFAULT_DEPTH`, one thread, the built-in network): a line per position on
//! `Channel::Err`, then `nodes N nps X` on `Channel::Out`. `scripts/web-bench.sh` runs it
//! under node to compare with the native build.

use crate::host::{emit, report_panics, Channel};
use poolshark_engine::bench;
use poolshark_engine::eval::Weights;

/// Run the bench to `depth` with a table of `hash_mb` MiB; 0 when it ran, 1 when the table
/// could not be had (the reason on `Channel::Err`).
#[no_mangle]
pub extern "C" fn poolshark_bench(depth: u32, hash_mb: u32) -> u32 {
    report_panics();
    let n = bench::POSITIONS.len();
    let weights = Weights::builtin();
    let run = bench::run(depth, 1, hash_mb as usize, &weights, &mut |i, fen, out| {
        emit(
            Channel::Err,
            &format!("position {}/{n} nodes {} fen {fen}", i + 1, out.nodes),
        )
    });
    match run {
        Ok(r) => {
            emit(Channel::Out, &format!("nodes {} nps {}", r.nodes, r.nps()));
            0
        }
        Err(e) => {
            emit(Channel::Err, &format!("error: {e}"));
            1
        }
    }
}
