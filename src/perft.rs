//! Perft: count the leaf nodes of the legal-move tree to a depth, on one or more threads.
//! The last ply is counted in bulk (the number of legal moves, without playing them).

use crate::core::movegen;
use crate::core::moves::{Move, MoveList};
use crate::core::position::Position;
use rayon::prelude::*;

/// Leaf count of the move tree below `pos` at `depth`, on this thread.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_moves(pos) as u64,
        _ => {
            let mut list = MoveList::new();
            movegen::generate(pos, &mut list);
            // Perft reads no key, so the children skip the Zobrist update.
            if depth == 2 {
                list.iter()
                    .map(|mv| movegen::count_moves(&pos.play_unhashed(mv)) as u64)
                    .sum()
            } else {
                list.iter()
                    .map(|mv| perft(&pos.play_unhashed(mv), depth - 1))
                    .sum()
            }
        }
    }
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
