//! Perft: count the leaf nodes of the legal-move tree to a depth, on one or more threads.
//! The last ply is counted in bulk (the number of legal moves, without playing them).

use poolshark_engine::core::movegen;
use poolshark_engine::core::moves::{Move, MoveList};
use poolshark_engine::core::position::Position;
use rayon::prelude::*;

/// Leaf count of the move tree below `pos` at `depth`, on this thread.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_moves(pos) as u64,
        2 => perft2(pos),
        _ => {
            let mut list = MoveList::new();
            movegen::generate(pos, &mut list);
            // Perft reads no key, so the children skip the Zobrist update.
            list.iter()
                .map(|mv| perft(&pos.play_unhashed(mv), depth - 1))
                .sum()
        }
    }
}

/// Depth 2: count each child's moves. Quiet moves are played as they are found, with no list.
fn perft2(pos: &Position) -> u64 {
    let mut list = MoveList::new();
    movegen::generate_captures(pos, &mut list);
    if !list.is_empty() {
        return list
            .iter()
            .map(|mv| movegen::count_moves(&pos.play_unhashed(mv)) as u64)
            .sum();
    }
    let mut n = 0;
    movegen::for_each_quiet(pos, |mv| {
        n += movegen::count_moves(&pos.play_unhashed(&mv)) as u64;
    });
    n
}

/// Leaf count on a rayon pool of `threads` threads. Splits two plies deep so that the work
/// spreads evenly; the count is the same as `perft`.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        return perft(pos, depth);
    }
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(_) => return perft(pos, depth),
    };
    let mut tasks = Vec::new();
    for mv in movegen::legal_moves(pos).iter() {
        let child = pos.play(mv);
        for mv2 in movegen::legal_moves(&child).iter() {
            tasks.push(child.play(mv2));
        }
    }
    pool.install(|| tasks.par_iter().map(|p| perft(p, depth - 2)).sum())
}

/// Per root move counts (`--divide`), in move generation order.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    movegen::legal_moves(pos)
        .iter()
        .map(|mv| (*mv, perft_parallel(&pos.play(mv), depth - 1, threads)))
        .collect()
}
