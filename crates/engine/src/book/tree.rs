//! A book seen as a tree from the start position: the positions it reaches, minimaxing the
//! scores through it, and joining two books.

use crate::book::{Book, BookMove};
use crate::core::Position;
use crate::search::Score;
use std::collections::{HashMap, HashSet, VecDeque};

/// Every book position reachable from `root` through book moves, with its distance in
/// plies, nearest first.
pub fn reachable(book: &Book, root: &Position) -> Vec<(Position, u32)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut queue = VecDeque::new();
    if book.contains(root.key()) {
        seen.insert(root.key());
        queue.push_back((*root, 0));
    }
    while let Some((pos, ply)) = queue.pop_front() {
        for m in book.moves(&pos) {
            let child = pos.play(&m.mv);
            if book.contains(child.key()) && seen.insert(child.key()) {
                queue.push_back((child, ply + 1));
            }
        }
        out.push((pos, ply));
    }
    out
}

/// A child's value seen from its parent: negated, and a proved result one ply further away.
pub fn from_child(value: i32) -> i16 {
    let s = Score(-value);
    let s = if s.is_win() {
        Score(s.0 - 1)
    } else if s.is_loss() {
        Score(s.0 + 1)
    } else {
        s
    };
    to_i16(s.0)
}

/// A search score clamped into the book's 16 bits (it always fits; the clamp is a guard).
pub fn to_i16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
}

/// Give every move that leads to another book position the value of that position, from
/// the leaves up, for every position reachable from `root`. Moves to positions outside the
/// book keep their searched scores.
pub fn minimax(book: &mut Book, root: &Position) {
    let mut memo = HashMap::new();
    let mut path = HashSet::new();
    value(book, root, &mut memo, &mut path);
}

fn value(
    book: &mut Book,
    pos: &Position,
    memo: &mut HashMap<u64, i32>,
    path: &mut HashSet<u64>,
) -> Option<i32> {
    let key = pos.key();
    if let Some(v) = memo.get(&key) {
        return Some(*v);
    }
    if !book.contains(key) || !path.insert(key) {
        // Outside the book, or a cycle (only kings can make one): the stored scores stand.
        return None;
    }
    let mut moves = book.moves(pos);
    for m in &mut moves {
        let child = pos.play(&m.mv);
        if let Some(v) = value(book, &child, memo, path) {
            m.score = from_child(v);
        }
    }
    path.remove(&key);
    let best = moves.iter().map(|m| m.score as i32).max();
    if let Some(entry) = book.get_mut(key) {
        for stored in entry.iter_mut() {
            if let Some(m) = moves.iter().find(|m| m.mv == stored.mv) {
                stored.score = m.score;
            }
        }
    }
    let best = best?;
    memo.insert(key, best);
    Some(best)
}

/// The union of two books: a position in both keeps `a`'s moves and gains `b`'s others.
/// Scores are minimaxed again from `root`, since each book may reach deeper than the other.
pub fn merge(a: &Book, b: &Book, root: &Position) -> Book {
    let mut out = a.clone();
    for (key, moves) in b.entries() {
        match out.get_mut(key) {
            Some(have) => {
                for m in moves {
                    if !have.iter().any(|h| h.mv == m.mv) {
                        have.push(*m);
                    }
                }
            }
            None => out.insert(key, moves.to_vec()),
        }
    }
    minimax(&mut out, root);
    out
}

/// The first book move that is not legal in its position, if any: `(position, move)`.
/// Only positions reachable from `root` can be checked (a key does not give its position).
pub fn illegal_move(book: &Book, root: &Position) -> Option<(Position, BookMove)> {
    for (pos, _) in reachable(book, root) {
        let legal = crate::core::movegen::legal_moves(&pos);
        if let Some(m) = book
            .get(pos.key())
            .unwrap_or(&[])
            .iter()
            .find(|m| !legal.contains(&m.mv))
        {
            return Some((pos, *m));
        }
    }
    None
}
