//! Legal move generation (docs/RULES.md R6-R15).
//!
//! Captures come first: if the side to move has any, only captures are legal (R8), and every
//! capture is generated whatever its length (free choice). A capture goes on while the piece
//! can jump (R11); a king lands where it can go on capturing if it can (R12); captured pieces
//! stay on the board, blocking, until the move ends, and the mover's origin counts as empty
//! (R13); men jump backward too (R9) and are not crowned in passing (R14). Paths that end in
//! the same move identity are dropped as duplicates (R15).

use crate::core::attacks::{self, Tables, NEIGHBOURS, RAYS};
use crate::core::bitboard::Bitboard;
use crate::core::moves::{Move, MoveList};
use crate::core::position::Position;
use crate::core::rules;
use crate::core::square::{Color, Direction, Square};

// This generator implements pool's choices (`rules`) and no other variant's: each assertion
// names the code a different choice would have to change.
const _: () = assert!(
    rules::KINGS_FLY,
    "king_jumps and for_each_quiet use the flying tables"
);
const _: () = assert!(rules::CAPTURE_IS_MANDATORY, "generate drops quiet moves");
const _: () = assert!(
    !rules::MAJORITY_CAPTURE,
    "generate keeps captures of every length"
);
const _: () = assert!(
    rules::MEN_CAPTURE_BACKWARD,
    "man_jumps tries all four directions"
);
const _: () = assert!(
    rules::CAPTURE_TO_THE_END,
    "man_jumps and king_jumps add only ends"
);
const _: () = assert!(rules::KING_LANDS_TO_CONTINUE, "king_jumps filters landings");
const _: () = assert!(
    rules::CAPTURED_REMOVED_AT_END,
    "captured pieces stay in ctx.occ"
);
const _: () = assert!(!rules::CROWNED_IN_PASSING, "man_jumps goes on as a man");
const _: () = assert!(rules::DUPLICATE_PATHS_MERGED, "the sinks drop equal moves");

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
    /// One-piece captures that end at once: a man jumped in `dir` to each square of
    /// `landings`. Such a capture has one path, so it is never a duplicate (R15).
    #[inline]
    fn add_single_jumps(&mut self, dir: Direction, landings: Bitboard) {
        let back = &NEIGHBOURS[dir.opposite() as usize];
        for l in landings {
            let over = back[l.index()];
            let origin = back[over.lsb().index()].lsb();
            self.enter(l);
            self.add(Move::capture(origin, l, over));
            self.leave();
        }
    }
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
    #[inline]
    fn add_single_jumps(&mut self, dir: Direction, landings: Bitboard) {
        let back = &NEIGHBOURS[dir.opposite() as usize];
        for l in landings {
            let over = back[l.index()];
            self.push(Move::capture(back[over.lsb().index()].lsb(), l, over));
        }
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

/// Counts distinct captures without listing them (perft's last ply). Only captures of two or
/// more pieces are kept, to drop their duplicates (R15).
struct CaptureCounter {
    n: usize,
    multi: MoveList,
}

impl CaptureSink for CaptureCounter {
    #[inline]
    fn add(&mut self, mv: Move) {
        if mv.captured.count() >= 2 {
            if self.multi.contains(&mv) {
                return;
            }
            self.multi.push(mv);
        }
        self.n += 1;
    }
    #[inline]
    fn add_single_jumps(&mut self, _dir: Direction, landings: Bitboard) {
        self.n += landings.count() as usize;
    }
}

/// What stays fixed while one piece's capture is explored.
struct CaptureCtx {
    origin: Square,
    them: Bitboard,
    /// Every piece but the mover (its origin counts as empty, R13). Captured pieces stay in.
    occ: Bitboard,
    tables: &'static Tables,
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

/// The number of legal moves, without building a move list (perft's last ply).
pub fn count_moves(pos: &Position) -> usize {
    let men = pos.us() & !pos.kings();
    let src = jump_sources(pos.them(), pos.empty());
    let man_jumps_exist = (any_dir(&src) & men).any();
    if man_jumps_exist || (pos.us() & pos.kings()).any() {
        let mut counter = CaptureCounter {
            n: 0,
            multi: MoveList::new(),
        };
        captures_from(pos, &src, &mut counter);
        if counter.n > 0 {
            return counter.n;
        }
    }
    count_quiet(pos)
}

/// Per direction (indexed like `Direction::ALL`): the squares from which a man would jump a
/// piece of `them` onto a square of `free` in that direction, whoever stands there.
#[inline]
fn jump_sources(them: Bitboard, free: Bitboard) -> [Bitboard; 4] {
    // Jump back from the landing squares; the square passed over holds a piece of `them`.
    [
        free.jump_se() & them.step_se(),
        free.jump_sw() & them.step_sw(),
        free.jump_ne() & them.step_ne(),
        free.jump_nw() & them.step_nw(),
    ]
}

#[inline]
fn any_dir(src: &[Bitboard; 4]) -> Bitboard {
    src[0] | src[1] | src[2] | src[3]
}

/// Does the side to move have a capture (and so only captures)?
pub fn has_capture(pos: &Position) -> bool {
    can_capture(pos, pos.us(), pos.them())
}

/// Could the pieces `us` capture one of `them`, on this board?
#[inline]
fn can_capture(pos: &Position, us: Bitboard, them: Bitboard) -> bool {
    let men = us & !pos.kings();
    if (any_dir(&jump_sources(them, pos.empty())) & men).any() {
        return true;
    }
    let t = attacks::tables();
    let occ = pos.occupied();
    (us & pos.kings())
        .iter()
        .any(|k| king_sees_jump(t, k, occ, them, Bitboard::EMPTY))
}

/// Can a king on `sq` jump a piece of `them` not yet in `captured`?
#[inline]
fn king_sees_jump(
    t: &Tables,
    sq: Square,
    occ: Bitboard,
    them: Bitboard,
    captured: Bitboard,
) -> bool {
    let targets = t.attacks(sq, occ) & them & !captured;
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
    captures_from(pos, &jump_sources(pos.them(), pos.empty()), list);
}

/// `generate_captures`, given the position's `jump_sources`.
#[inline]
fn captures_from<S: CaptureSink>(pos: &Position, src: &[Bitboard; 4], list: &mut S) {
    let us = pos.us();
    let them = pos.them();
    let occupied = pos.occupied();
    let men = us & !pos.kings();
    let tables = attacks::tables();
    for d in Direction::ALL {
        let jumpers = src[d as usize] & men;
        if jumpers.is_empty() {
            continue;
        }
        let landings = jump(jumpers, d);
        // A man goes on from its landing square if it can jump in another direction than
        // straight back over the piece just taken. In the other directions neither its
        // origin nor the piece just taken is in the way, so the whole-board sets answer.
        let back = d.opposite() as usize;
        let mut onward = Bitboard::EMPTY;
        for (e, s) in src.iter().enumerate() {
            if e != back {
                onward |= *s;
            }
        }
        let going_on = landings & onward;
        list.add_single_jumps(d, landings & !going_on);
        let behind = &NEIGHBOURS[back];
        for l in going_on {
            let over = behind[l.index()];
            let origin = behind[over.lsb().index()].lsb();
            let ctx = CaptureCtx {
                origin,
                them,
                occ: occupied & !Bitboard::from_square(origin),
                tables,
            };
            list.enter(l);
            man_jumps(&ctx, l, over, list);
            list.leave();
        }
    }
    for origin in us & pos.kings() {
        let ctx = CaptureCtx {
            origin,
            them,
            occ: occupied & !Bitboard::from_square(origin),
            tables,
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
    let t = ctx.tables;
    let seen = t.attacks(cur, ctx.occ);
    let targets = seen & ctx.them & !captured;
    if targets.is_empty() {
        return;
    }
    for rays in &RAYS {
        let target = targets & rays[cur.index()];
        if target.is_empty() {
            continue;
        }
        let tgt = target.lsb();
        let landings = t.attacks(tgt, ctx.occ) & rays[tgt.index()] & !ctx.occ;
        if landings.is_empty() {
            continue;
        }
        let now_captured = captured | target;
        // R12: if some landing square lets the king jump on, it must land on one of those.
        let going_on: Bitboard = landings
            .iter()
            .filter(|&l| king_sees_jump(t, l, ctx.occ, ctx.them, now_captured))
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
    for_each_quiet(pos, |mv| list.push(mv));
}

/// Calls `f` with each non-capturing move, in `generate_quiet` order. Perft's next-to-last
/// ply plays them straight from here, without a list.
#[inline]
pub fn for_each_quiet(pos: &Position, mut f: impl FnMut(Move)) {
    let empty = pos.empty();
    let men = pos.us() & !pos.kings();
    let (a, b) = forward_dirs(pos.side());
    for d in [a, b] {
        let back = &NEIGHBOURS[d.opposite() as usize];
        for to in step(men, d) & empty {
            f(Move::quiet(back[to.index()].lsb(), to));
        }
    }
    let kings = pos.us() & pos.kings();
    if kings.any() {
        let t = attacks::tables();
        let occ = pos.occupied();
        for from in kings {
            for to in t.attacks(from, occ) & empty {
                f(Move::quiet(from, to));
            }
        }
    }
}

#[inline]
fn count_quiet(pos: &Position) -> usize {
    let empty = pos.empty();
    let men = pos.us() & !pos.kings();
    let (a, b) = forward_dirs(pos.side());
    // One popcount for both directions (a square may be reached from two men).
    let both = (step(men, a) & empty).0 as u64 | ((step(men, b) & empty).0 as u64) << 32;
    let mut n = both.count_ones();
    let kings = pos.us() & pos.kings();
    if kings.any() {
        let t = attacks::tables();
        let occ = pos.occupied();
        for from in kings {
            n += (t.attacks(from, occ) & empty).count();
        }
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
fn jump(b: Bitboard, d: Direction) -> Bitboard {
    match d {
        Direction::NW => b.jump_nw(),
        Direction::NE => b.jump_ne(),
        Direction::SW => b.jump_sw(),
        Direction::SE => b.jump_se(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    /// The bulk counter and the capture test must agree with the move list everywhere.
    fn check_tree(pos: &Position, depth: u32) {
        let list = legal_moves(pos);
        assert_eq!(count_moves(pos), list.len(), "{pos:?}");
        let captures = list.iter().any(|m| m.is_capture());
        assert_eq!(has_capture(pos), captures, "{pos:?}");
        if depth > 0 {
            for mv in list.iter() {
                check_tree(&pos.play(mv), depth - 1);
            }
        }
    }

    #[test]
    fn count_moves_and_the_capture_tests_match_the_move_list() {
        let text = include_str!("../../../../tests/data/perft_random.txt");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(" ; ").next().unwrap();
            check_tree(&parse_fen(fen).unwrap(), 3);
        }
        check_tree(&Position::start(), 6);
    }
}
