//! Growing a book by dropout expansion: search every move of a position, add it to the
//! book, minimax, and expand next the position whose path from the start loses least.
//!
//! A candidate's priority is `PLY_COST` per ply from the start plus, at each position on
//! the way, how much worse the move taken scores than the best move there (for both sides).
//! The lowest priority goes first, so the book grows deep along the main lines and wide where
//! moves score alike. After each expansion the caller may save the book, so a build can be
//! stopped at any time and resumed from the saved file.

use crate::book::tree::{minimax, to_i16};
use crate::book::{Book, BookMove};
use crate::core::{movegen, Game, Position};
use crate::search::tt::TableError;
use crate::search::{Engine, Limits, SearchControl};
use std::collections::HashMap;

/// Priority cost of one ply, in hundredths of a man: a move 0.04 worse than the best costs
/// as much as one ply of depth.
pub const PLY_COST: i32 = 4;
/// Moves that score this much worse than the best are never expanded (beyond any margin
/// the engine plays with).
pub const MAX_DROP: i32 = 100;

/// What a build searches with and how far it goes.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Positions up to this many plies from the start may be expanded.
    pub plies: u32,
    /// Stop when the book holds this many positions.
    pub positions: usize,
    pub limits: Limits,
    pub threads: usize,
    pub hash_mb: usize,
}

/// One step's report: positions in the book, the ply of the position just expanded, and the
/// start position's minimaxed score.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub positions: usize,
    pub ply: u32,
    pub root_score: i32,
}

/// Grow `book` from the start position until it holds `cfg.positions` positions or nothing
/// is left to expand within `cfg.plies`. `after_step` runs after each expansion (to save and
/// report); if it returns false the build stops there. An error if the table of
/// `cfg.hash_mb` cannot be had.
pub fn grow(
    book: &mut Book,
    cfg: &BuildConfig,
    after_step: &mut dyn FnMut(&Book, Progress) -> bool,
) -> Result<(), TableError> {
    let root = Position::start();
    let engine = Engine::try_new(cfg.hash_mb, cfg.threads)?;
    while book.len() < cfg.positions {
        let Some((pos, ply)) = next_candidate(book, &root, cfg.plies) else {
            break;
        };
        expand(book, &engine, &cfg.limits, &pos);
        minimax(book, &root);
        let root_score = book
            .moves(&root)
            .first()
            .map(|m| m.score as i32)
            .unwrap_or(0);
        let progress = Progress {
            positions: book.len(),
            ply,
            root_score,
        };
        if !after_step(book, progress) {
            break;
        }
    }
    Ok(())
}

/// Search every legal move of `pos` and enter them in the book with their scores.
pub fn expand(book: &mut Book, engine: &Engine, limits: &Limits, pos: &Position) {
    let mut moves = Vec::new();
    for mv in movegen::legal_moves(pos).iter() {
        let child = pos.play(mv);
        let out = engine.search(
            &Game::new(child),
            limits,
            &SearchControl::new(),
            &mut |_| {},
        );
        moves.push(BookMove {
            mv: *mv,
            score: to_i16(-out.score.0),
        });
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    book.insert(pos.key(), moves);
}

/// The position outside the book with the lowest priority, within `plies` of the start, and
/// its ply. The start position itself comes first while the book is empty.
pub fn next_candidate(book: &Book, root: &Position, plies: u32) -> Option<(Position, u32)> {
    if !book.contains(root.key()) {
        return Some((*root, 0));
    }
    let mut best_seen: HashMap<u64, i32> = HashMap::new();
    let mut found: Option<(i32, Position, u32)> = None;
    let mut stack = vec![(*root, 0u32, 0i32)];
    while let Some((pos, ply, priority)) = stack.pop() {
        let moves = book.moves(&pos);
        let Some(best) = moves.first().map(|m| m.score as i32) else {
            continue;
        };
        for m in &moves {
            let drop = best - m.score as i32;
            if drop > MAX_DROP || ply + 1 >= plies {
                continue;
            }
            let p = priority + drop + PLY_COST;
            let child = pos.play(&m.mv);
            let key = child.key();
            if best_seen.get(&key).is_some_and(|&q| q <= p) {
                continue;
            }
            best_seen.insert(key, p);
            if book.contains(key) {
                stack.push((child, ply + 1, p));
            } else if movegen::legal_moves(&child).is_empty() {
                // A finished game: nothing to expand.
            } else if found.as_ref().is_none_or(|f| p < f.0) {
                found = Some((p, child, ply + 1));
            }
        }
    }
    found.map(|(_, pos, ply)| (pos, ply))
}
