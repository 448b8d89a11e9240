//! Legal move generation (RULES.md R6-R15).
//!
//! Captures come first: if the side to move has any, only captures are legal (R8), and every
//! capture is generated whatever its length (free choice). A capture goes on while the piece
//! can jump (R11); a king lands where it can go on capturing if it can (R12); captured pieces
//! stay on the board, blocking, until the move ends, and the mover's origin counts as empty
//! (R13); men jump backward too (R9) and are not crowned in passing (R14). Paths that end in
//! the same move identity are dropped as duplicates (R15).

use crate::core::attacks::{king_attacks, NEIGHBOURS, RAYS};
use crate::core::bitboard::Bitboard;
use crate::core::moves::{Move, MoveList};
use crate::core::position::Position;
use crate::core::square::{Color, Direction, Square};

/// `JUMPS[dir][sq]`: the landing square of a man's jump from `sq` in `dir`, or empty.
static JUMPS: [[Bitboard; 32]; 4] = build_jumps();

const fn build_jumps() -> [[Bitboard; 32]; 4] {
    let mut out = [[Bitboard::EMPTY; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let mut s = 0;
        while s < 32 {
            if let Some(over) = Square::new(s as u8).neighbour(dir) {
                if let Some(land) = over.neighbour(dir) {
                    out[d][s] = Bitboard(1 << land.index());
                }
            }
            s += 1;
        }
        d += 1;
    }
    out
}

/// Where the capture search reports to: a `MoveList` keeps distinct moves; a `PathSink`
/// also records the landing squares of every path (for PDN text). For a `MoveList` the
/// `enter`/`leave` calls compile to nothing.
pub trait CaptureSink {
    /// The piece lands on `sq` and goes on from there.
    #[inline]
    fn enter(&mut self, _sq: Square) {}
    /// Undo the last `enter`.
    #[inline]
    fn leave(&mut self) {}
    /// A complete capture.
    fn add(&mut self, mv: Move);
}

impl CaptureSink for MoveList {
    #[inline]
    fn add(&mut self, mv: Move) {
        // Only a capture of two or more pieces can be reached by two paths (R15).
        if mv.captured.count() >= 2 && self.contains(&mv) {
            return;
        }
        self.push(mv);
    }
}

/// Collects every capture path: the move and its landing squares, origin excluded.
#[derive(Default)]
pub struct PathSink {
    path: Vec<Square>,
    pub found: Vec<(Move, Vec<Square>)>,
}

impl CaptureSink for PathSink {
    fn enter(&mut self, sq: Square) {
        self.path.push(sq);
    }
    fn leave(&mut self) {
        self.path.pop();
    }
    fn add(&mut self, mv: Move) {
        self.found.push((mv, self.path.clone()));
    }
}

/// What stays fixed while one piece's capture is explored.
struct CaptureCtx {
    origin: Square,
    them: Bitboard,
    /// Every piece but the mover (its origin counts as empty, R13). Captured pieces stay in.
    occ: Bitboard,
}

/// All legal moves of the position, into `list` (cleared first).
pub fn generate(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate_captures(pos, list);
    if list.is_empty() {
        generate_quiet(pos, list);
    }
}

/// All legal moves, in a fresh list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// The number of legal moves, without building quiet moves (perft's last ply).
pub fn count_moves(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate_captures(pos, &mut list);
    if !list.is_empty() {
        return list.len();
    }
    count_quiet(pos)
}

/// Men of the side to move that have a jump available, found with whole-board shifts.
#[inline]
fn capturing_men(pos: &Position) -> Bitboard {
    let men = pos.us() & !pos.kings();
    let them = pos.them();
    let empty = pos.empty();
    // For each direction, step back from the empty landing squares over an enemy piece.
    (empty.step_se() & them).step_se() & men
        | (empty.step_sw() & them).step_sw() & men
        | (empty.step_ne() & them).step_ne() & men
        | (empty.step_nw() & them).step_nw() & men
}

/// Does the side to move have a capture (and so only captures)?
pub fn has_capture(pos: &Position) -> bool {
    if capturing_men(pos).any() {
        return true;
    }
    let occ = pos.occupied();
    let them = pos.them();
    (pos.us() & pos.kings())
        .iter()
        .any(|k| king_sees_jump(k, occ, them, Bitboard::EMPTY))
}

/// Can a king on `sq` jump a piece of `them` not yet in `captured`?
#[inline]
fn king_sees_jump(sq: Square, occ: Bitboard, them: Bitboard, captured: Bitboard) -> bool {
    let targets = king_attacks(sq, occ) & them & !captured;
    if targets.is_empty() {
        return false;
    }
    Direction::ALL.iter().any(|&d| {
        let t = targets & RAYS[d as usize][sq.index()];
        t.any() && (NEIGHBOURS[d as usize][t.lsb().index()] & !occ).any()
    })
}

/// All captures of the side to move, into `list` (appended).
pub fn generate_captures<S: CaptureSink>(pos: &Position, list: &mut S) {
    let us = pos.us();
    let them = pos.them();
    for origin in capturing_men(pos) {
        let ctx = CaptureCtx {
            origin,
            them,
            occ: pos.occupied() & !Bitboard::from_square(origin),
        };
        man_jumps(&ctx, origin, Bitboard::EMPTY, list);
    }
    for origin in us & pos.kings() {
        let ctx = CaptureCtx {
            origin,
            them,
            occ: pos.occupied() & !Bitboard::from_square(origin),
        };
        king_jumps(&ctx, origin, Bitboard::EMPTY, list);
    }
}

/// A man on `cur` has taken `captured` so far; jump on while it can (R9, R11, R14).
fn man_jumps<S: CaptureSink>(ctx: &CaptureCtx, cur: Square, captured: Bitboard, list: &mut S) {
    let mut jumped = false;
    for d in 0..4 {
        let over = NEIGHBOURS[d][cur.index()] & ctx.them & !captured;
        if over.is_empty() {
            continue;
        }
        let land = JUMPS[d][cur.index()] & !ctx.occ;
        if land.is_empty() {
            continue;
        }
        jumped = true;
        list.enter(land.lsb());
        man_jumps(ctx, land.lsb(), captured | over, list);
        list.leave();
    }
    if !jumped && captured.any() {
        list.add(Move::capture(ctx.origin, cur, captured));
    }
}

/// A king on `cur` has taken `captured` so far; jump on (R10-R13).
fn king_jumps<S: CaptureSink>(ctx: &CaptureCtx, cur: Square, captured: Bitboard, list: &mut S) {
    let seen = king_attacks(cur, ctx.occ);
    let targets = seen & ctx.them & !captured;
    if targets.is_empty() {
        return;
    }
    for rays in &RAYS {
        let target = targets & rays[cur.index()];
        if target.is_empty() {
            continue;
        }
        let t = target.lsb();
        let landings = king_attacks(t, ctx.occ) & rays[t.index()] & !ctx.occ;
        if landings.is_empty() {
            continue;
        }
        let now_captured = captured | target;
        // R12: if some landing square lets the king jump on, it must land on one of those.
        let going_on: Bitboard = landings
            .iter()
            .filter(|&l| king_sees_jump(l, ctx.occ, ctx.them, now_captured))
            .collect();
        if going_on.any() {
            for l in going_on {
                list.enter(l);
                king_jumps(ctx, l, now_captured, list);
                list.leave();
            }
        } else {
            for l in landings {
                list.enter(l);
                list.add(Move::capture(ctx.origin, l, now_captured));
                list.leave();
            }
        }
    }
}

/// Non-capturing moves: men one step forward (R6), kings any distance (R7).
pub fn generate_quiet(pos: &Position, list: &mut MoveList) {
    let empty = pos.empty();
    let men = pos.us() & !pos.kings();
    let (a, b) = forward_dirs(pos.side());
    for d in [a, b] {
        let back = d.opposite() as usize;
        for to in step(men, d) & empty {
            list.push(Move::quiet(NEIGHBOURS[back][to.index()].lsb(), to));
        }
    }
    let occ = pos.occupied();
    for from in pos.us() & pos.kings() {
        for to in king_attacks(from, occ) & empty {
            list.push(Move::quiet(from, to));
        }
    }
}

fn count_quiet(pos: &Position) -> usize {
    let empty = pos.empty();
    let men = pos.us() & !pos.kings();
    let (a, b) = forward_dirs(pos.side());
    let mut n = (step(men, a) & empty).count() + (step(men, b) & empty).count();
    let occ = pos.occupied();
    for from in pos.us() & pos.kings() {
        n += (king_attacks(from, occ) & empty).count();
    }
    n as usize
}

/// The two directions a man of `side` moves in.
#[inline]
pub const fn forward_dirs(side: Color) -> (Direction, Direction) {
    match side {
        Color::White => (Direction::NW, Direction::NE),
        Color::Black => (Direction::SW, Direction::SE),
    }
}

#[inline]
fn step(b: Bitboard, d: Direction) -> Bitboard {
    match d {
        Direction::NW => b.step_nw(),
        Direction::NE => b.step_ne(),
        Direction::SW => b.step_sw(),
        Direction::SE => b.step_se(),
    }
}

/// Does the side to move have a non-capturing move? (Cheaper than generating them.)
pub fn has_quiet_move(pos: &Position) -> bool {
    let empty = pos.empty();
    let men = pos.us() & !pos.kings();
    let (a, b) = forward_dirs(pos.side());
    if ((step(men, a) | step(men, b)) & empty).any() {
        return true;
    }
    let kings = pos.us() & pos.kings();
    ((kings.step_nw() | kings.step_ne() | kings.step_sw() | kings.step_se()) & empty).any()
}
