//! An independent brute-force endgame solver, the tests' reference for the endgame databases
//! (issue 13). It shares no code with `poolshark_engine::egdb`: it takes only the rules core
//! (`Position`, move generation) and computes every value in the plainest way that is still
//! fast enough for a test.
//!
//! - Positions are enumerated by nested loops over squares, for both sides to move, and kept
//!   in a `HashMap` keyed by the pieces and the side to move.
//! - They are solved in *groups*: one material with its men fixed on their squares, the kings
//!   anywhere, either side to move. Only a quiet king move stays inside a group; a capture or a
//!   man move (a zeroing move) always leaves it, for a smaller material, a material with fewer
//!   men (a crowning), or the same material with a man one row further on. The groups are
//!   solved in that order, so every zeroing move leads to a value already known, and inside a
//!   group the values come from plain iteration to a fixed point.
//! - `wdl` (no count rule), `dtc` (plies to the next zeroing move, winner minimising among
//!   winning moves, loser maximising) and the R18 value from a fresh count, which comes from
//!   the states (position, plies since the last zeroing move), swept from the draw at 80
//!   down to 0.
//! - `dtm` (plies to the end of the game), only to check RULES.md's "longest win".
//! - `LoneKing`: three kings against one under R19, as states (position, the lone king's
//!   completed moves 0..=13).
//!
//! A terminal position (no legal move, R16) is lost whatever the counts say, as
//! `Game::result` has it: R16 is checked before R18 and R19.

#![allow(dead_code)]

use poolshark_engine::core::{movegen, rules};
use poolshark_engine::core::{Bitboard, Color, Move, Position};
use rayon::prelude::*;
use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A quick hasher for `Key`: std's SipHash guards against chosen keys, which these are not,
/// and the solver hashes some hundred million of them.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    fn finish(&self) -> u64 {
        // splitmix64's finaliser, so the low bits hashbrown indexes by are well mixed
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

pub type HashMap<K, V> = StdHashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// R18: the plies without a zeroing move after which the game is drawn.
pub const FORTY_MOVE_PLIES: usize = rules::FORTY_MOVE_PLIES as usize;
/// R19: the lone king's moves after which three kings against one is drawn.
pub const LONE_KING_MOVES: usize = rules::LONE_KING_MOVES as usize;

/// A game value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// The same result seen by the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// The value under R18 from a fresh count, set against the theoretical one (Syzygy's five).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome50 {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Outcome50 {
    /// From the theoretical value and the value under R18 from a fresh count.
    fn classify(wdl: Outcome, r18: Outcome) -> Outcome50 {
        match (wdl, r18) {
            (Outcome::Win, Outcome::Win) => Outcome50::Win,
            (Outcome::Win, Outcome::Draw) => Outcome50::CursedWin,
            (Outcome::Draw, Outcome::Draw) => Outcome50::Draw,
            (Outcome::Loss, Outcome::Draw) => Outcome50::BlessedLoss,
            (Outcome::Loss, Outcome::Loss) => Outcome50::Loss,
            _ => panic!("a count rule cannot turn {wdl:?} into {r18:?}"),
        }
    }

    /// What the game gives under R18 from a fresh count.
    pub fn under_r18(self) -> Outcome {
        match self {
            Outcome50::Win => Outcome::Win,
            Outcome50::Loss => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }
}

/// Everything the oracle knows about a position, for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub wdl: Outcome,
    pub wdl50: Outcome50,
    pub dtc: Option<u16>,
    /// Plies to the end of the game, the winner hurrying and the loser delaying (only to
    /// check RULES.md's "longest win"; the databases do not store it).
    pub dtm: Option<u16>,
}

/// A side to move without pieces has no move: lost on the spot (R16).
const LOST: Value = Value {
    wdl: Outcome::Loss,
    wdl50: Outcome50::Loss,
    dtc: Some(0),
    dtm: Some(0),
};

/// A position as a hash key: the pieces and the side to move (the Zobrist key left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    white: u32,
    black: u32,
    kings: u32,
    white_to_move: bool,
}

impl Key {
    pub fn of(pos: &Position) -> Key {
        Key {
            white: pos.white().0,
            black: pos.black().0,
            kings: pos.kings().0,
            white_to_move: pos.side() == Color::White,
        }
    }
}

/// Men and kings of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub white_men: u32,
    pub white_kings: u32,
    pub black_men: u32,
    pub black_kings: u32,
}

/// Squares where a man may stand: never on its own crowning row (R4, R14).
const WHITE_MAN_SQUARES: u32 = !0x0000_000F; // not 1-4
const BLACK_MAN_SQUARES: u32 = !0xF000_0000; // not 29-32

impl Material {
    pub fn new(white_men: u32, white_kings: u32, black_men: u32, black_kings: u32) -> Material {
        Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    pub fn of(pos: &Position) -> Material {
        let (w, b, k) = (pos.white(), pos.black(), pos.kings());
        Material::new(
            (w & !k).count(),
            (w & k).count(),
            (b & !k).count(),
            (b & k).count(),
        )
    }

    pub fn pieces(&self) -> u32 {
        self.men() + self.white_kings + self.black_kings
    }

    pub fn men(&self) -> u32 {
        self.white_men + self.black_men
    }

    /// Every material with 2 to `max_pieces` pieces and at least one piece a side, in an
    /// order in which each one's zeroing moves lead to materials before it: fewer pieces
    /// first (captures), then fewer men (crownings).
    pub fn all_up_to(max_pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for wm in 0..=max_pieces {
            for wk in 0..=max_pieces {
                for bm in 0..=max_pieces {
                    for bk in 0..=max_pieces {
                        let m = Material::new(wm, wk, bm, bk);
                        if wm + wk > 0 && bm + bk > 0 && m.pieces() <= max_pieces {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }

    /// The groups of this material: for each placement of the men, every position with the
    /// kings anywhere else and either side to move. The groups come in the order they are
    /// solved in: men furthest advanced first, since a man move advances a man by one row.
    pub fn groups(&self) -> Vec<Group> {
        let mut groups = Vec::new();
        for white_men in subsets(self.white_men, WHITE_MAN_SQUARES) {
            for black_men in subsets(self.black_men, BLACK_MAN_SQUARES & !white_men) {
                let mut group = Vec::new();
                let men = white_men | black_men;
                for white_kings in subsets(self.white_kings, !men) {
                    for black_kings in subsets(self.black_kings, !(men | white_kings)) {
                        for side in [Color::White, Color::Black] {
                            group.push(Position::new_unchecked(
                                Bitboard(white_men | white_kings),
                                Bitboard(black_men | black_kings),
                                Bitboard(white_kings | black_kings),
                                side,
                            ));
                        }
                    }
                }
                groups.push(Group {
                    advancement: advancement(white_men, black_men),
                    positions: group,
                });
            }
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.advancement));
        groups
    }

    /// Every position of this material, either side to move.
    pub fn positions(&self) -> Vec<Position> {
        self.groups()
            .into_iter()
            .flat_map(|g| g.positions)
            .collect()
    }
}

/// The positions of one material with the men on the same squares.
pub struct Group {
    /// Rows the men have advanced, all together (`advancement`).
    pub advancement: u32,
    pub positions: Vec<Position>,
}

/// Every set of `n` squares taken from `allowed` (bit i is square i + 1).
pub fn subsets(n: u32, allowed: u32) -> Vec<u32> {
    if n == 0 {
        return vec![0];
    }
    let mut out = Vec::new();
    for sq in 0..32 {
        if allowed & (1 << sq) != 0 {
            // The lowest square is `sq`; the others come from the squares above it.
            let above = allowed & u32::MAX.checked_shl(sq + 1).unwrap_or(0);
            for rest in subsets(n - 1, above) {
                out.push(1 << sq | rest);
            }
        }
    }
    out
}

/// Rows the men have advanced, all together: every man move adds exactly one.
fn advancement(white_men: u32, black_men: u32) -> u32 {
    let row = |sq: u32| sq / 4; // 0 is the row of squares 1-4
    let white: u32 = (0..32)
        .filter(|sq| white_men & (1 << sq) != 0)
        .map(|sq| 7 - row(sq))
        .sum();
    let black: u32 = (0..32)
        .filter(|sq| black_men & (1 << sq) != 0)
        .map(row)
        .sum();
    white + black
}

/// A capture or a man move: after one, R18's count starts again.
pub fn is_zeroing(pos: &Position, mv: &Move) -> bool {
    mv.is_capture() || !pos.kings().contains(mv.from)
}

/// One legal move of a position in a group, seen from the group.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// A quiet king move, to this position of the same group.
    Quiet(usize),
    /// A zeroing move, to a position whose value is already known.
    Zeroing(Value),
}

/// The moves of every position of a group, in one flat list.
struct Graph {
    /// The moves of position `i` are `edges[start[i]..start[i + 1]]`.
    start: Vec<usize>,
    edges: Vec<Edge>,
}

impl Graph {
    fn len(&self) -> usize {
        self.start.len() - 1
    }
    fn moves(&self, i: usize) -> &[Edge] {
        &self.edges[self.start[i]..self.start[i + 1]]
    }
}

/// The solved values of every position of every material up to some number of pieces.
pub struct Oracle {
    pub max_pieces: u32,
    values: HashMap<Key, Value>,
}

impl Oracle {
    /// Solve every material with 2 to `max_pieces` pieces.
    pub fn solve(max_pieces: u32) -> Oracle {
        let mut oracle = Oracle {
            max_pieces,
            values: HashMap::default(),
        };
        for material in Material::all_up_to(max_pieces) {
            let groups = material.groups();
            // Groups with the same advancement have no move between them: solve them side by
            // side, on every core.
            for level in groups.chunk_by(|a, b| a.advancement == b.advancement) {
                let solved: Vec<Vec<(Key, Value)>> = level
                    .par_iter()
                    .map(|g| oracle.solve_group(&g.positions))
                    .collect();
                oracle.values.extend(solved.into_iter().flatten());
            }
        }
        oracle
    }

    /// The value of a position within the solved materials, or of a side left without pieces.
    pub fn value(&self, pos: &Position) -> Value {
        if pos.us().is_empty() {
            return LOST;
        }
        match self.values.get(&Key::of(pos)) {
            Some(v) => *v,
            None => panic!("the oracle has no value for {pos:?}: solved out of order?"),
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The moves of each position of a group: its quiet king moves within the group, and its
    /// zeroing moves with their known values.
    fn graph(&self, group: &[Position]) -> Graph {
        let index: HashMap<Key, usize> = group
            .iter()
            .enumerate()
            .map(|(i, p)| (Key::of(p), i))
            .collect();
        let mut graph = Graph {
            start: vec![0],
            edges: Vec::new(),
        };
        for pos in group {
            for mv in movegen::legal_moves(pos).iter() {
                let next = pos.play(mv);
                graph.edges.push(if is_zeroing(pos, mv) {
                    Edge::Zeroing(self.value(&next))
                } else {
                    Edge::Quiet(index[&Key::of(&next)])
                });
            }
            graph.start.push(graph.edges.len());
        }
        graph
    }

    /// The values of a group whose zeroing moves all lead to solved positions.
    fn solve_group(&self, group: &[Position]) -> Vec<(Key, Value)> {
        let graph = self.graph(group);
        let wdl = solve_wdl(&graph);
        let dtc = solve_distance(&graph, &wdl, |_| 1);
        let dtm = solve_distance(&graph, &wdl, |v| 1 + v.dtm.expect("decided"));
        let r18 = solve_r18(&graph);
        group
            .iter()
            .enumerate()
            .map(|(i, pos)| {
                let value = Value {
                    wdl: wdl[i],
                    wdl50: Outcome50::classify(wdl[i], r18[i]),
                    dtc: dtc[i],
                    dtm: dtm[i],
                };
                (Key::of(pos), value)
            })
            .collect()
    }

    /// Three kings against one under R19, with the stronger side `strong`.
    pub fn lone_king(&self, strong: Color) -> LoneKing {
        let material = match strong {
            Color::White => Material::new(0, 3, 0, 1),
            Color::Black => Material::new(0, 1, 0, 3),
        };
        assert!(self.max_pieces >= 4, "R19 needs the 4-piece values solved");
        let group = material.positions();
        let graph = self.graph(&group);
        // The lone king's move completes one of its 13; a capture by it changes the material
        // and so leaves the group (an `Edge::Zeroing`) for the ordinary value there.
        let lone_to_move: Vec<bool> = group.iter().map(|p| p.side() != strong).collect();
        let best = |i: usize, layer_after: &dyn Fn(usize) -> Outcome| {
            graph
                .moves(i)
                .iter()
                .map(|e| match e {
                    Edge::Zeroing(v) => v.wdl.flip(),
                    Edge::Quiet(j) => layer_after(*j).flip(),
                })
                .max()
                .unwrap_or(Outcome::Loss)
        };
        // layers[m][i]: position i when the lone king has completed m moves. After its 13th
        // the game is drawn, unless the side to move has no move (R16 comes first).
        let mut layers = vec![Vec::new(); LONE_KING_MOVES + 1];
        layers[LONE_KING_MOVES] = (0..group.len())
            .map(|i| {
                if graph.moves(i).is_empty() {
                    Outcome::Loss
                } else {
                    Outcome::Draw
                }
            })
            .collect();
        for m in (0..LONE_KING_MOVES).rev() {
            // The lone king moves into layer m + 1; the three kings then move within layer m.
            let lone: Vec<Outcome> = (0..group.len())
                .map(|i| {
                    if lone_to_move[i] {
                        best(i, &|j| layers[m + 1][j])
                    } else {
                        Outcome::Draw // set below
                    }
                })
                .collect();
            let layer: Vec<Outcome> = (0..group.len())
                .map(|i| {
                    if lone_to_move[i] {
                        lone[i]
                    } else {
                        best(i, &|j| {
                            assert!(lone_to_move[j]);
                            lone[j]
                        })
                    }
                })
                .collect();
            layers[m] = layer;
        }
        let index = group
            .iter()
            .enumerate()
            .map(|(i, p)| (Key::of(p), i))
            .collect();
        LoneKing {
            strong,
            positions: group,
            index,
            layers,
        }
    }
}

/// R19's states for one colouring of three kings against one.
pub struct LoneKing {
    pub strong: Color,
    pub positions: Vec<Position>,
    index: HashMap<Key, usize>,
    layers: Vec<Vec<Outcome>>,
}

impl LoneKing {
    /// The value for the side to move when the lone king has completed `lone_moves` moves.
    pub fn value(&self, pos: &Position, lone_moves: usize) -> Outcome {
        self.layers[lone_moves][self.index[&Key::of(pos)]]
    }
}

/// The theoretical value of every position of a group, by iteration to a fixed point: a
/// position is won once a move reaches a lost position, lost once every move reaches a won
/// one (a position without moves at once), and what never settles is a draw.
fn solve_wdl(graph: &Graph) -> Vec<Outcome> {
    let mut known: Vec<Option<Outcome>> = vec![None; graph.len()];
    loop {
        let mut changed = false;
        for i in 0..graph.len() {
            if known[i].is_some() {
                continue;
            }
            // The result of a move for the side that makes it, where known yet.
            let result = |e: &Edge| match e {
                Edge::Zeroing(v) => Some(v.wdl.flip()),
                Edge::Quiet(j) => known[*j].map(Outcome::flip),
            };
            let moves = graph.moves(i);
            if moves.iter().any(|e| result(e) == Some(Outcome::Win)) {
                known[i] = Some(Outcome::Win);
                changed = true;
            } else if moves.iter().all(|e| result(e) == Some(Outcome::Loss)) {
                known[i] = Some(Outcome::Loss);
                changed = true;
            }
        }
        if !changed {
            return known
                .into_iter()
                .map(|k| k.unwrap_or(Outcome::Draw))
                .collect();
        }
    }
}

/// A distance for every won or lost position of a group (None for a draw): the winner takes
/// the winning move with the smallest, the loser the move with the largest. A quiet move costs
/// one ply more than the position it reaches, a zeroing move `exit_cost` of the value it
/// reaches (dtc: 1 whatever follows; dtm: 1 + the distance from there).
///
/// Found pass by pass: after the pass at `level` every position whose distance is at most
/// `level` has it, and a pass reads only values from earlier passes. A lost position is set
/// once every move's cost is known (the largest is final then); a won one once its cheapest
/// known winning move costs at most `level` (a cheaper one would be known by now).
fn solve_distance(
    graph: &Graph,
    wdl: &[Outcome],
    exit_cost: impl Fn(&Value) -> u16,
) -> Vec<Option<u16>> {
    let mut dist: Vec<Option<u16>> = vec![None; graph.len()];
    let decided = wdl.iter().filter(|w| **w != Outcome::Draw).count();
    let mut found = 0;
    let mut level = 0u16;
    while found < decided {
        let mut new = Vec::new();
        // The cheapest known win still above `level`: if this pass sets nothing, no distance
        // lies between `level` and it, and the next pass may start there.
        let mut next_win = u16::MAX;
        for i in 0..graph.len() {
            if wdl[i] == Outcome::Draw || dist[i].is_some() {
                continue;
            }
            let cost = |e: &Edge| match e {
                Edge::Zeroing(v) => Some(exit_cost(v)),
                Edge::Quiet(j) => dist[*j].map(|d| d + 1),
            };
            let moves = graph.moves(i);
            if wdl[i] == Outcome::Win {
                let wins = |e: &&Edge| match e {
                    Edge::Zeroing(v) => v.wdl == Outcome::Loss,
                    Edge::Quiet(j) => wdl[*j] == Outcome::Loss,
                };
                match moves.iter().filter(wins).filter_map(cost).min() {
                    Some(c) if c <= level => new.push((i, c)),
                    Some(c) => next_win = next_win.min(c),
                    None => {}
                }
            } else if let Some(costs) = moves.iter().map(cost).collect::<Option<Vec<u16>>>() {
                new.push((i, costs.into_iter().max().unwrap_or(0)));
            }
        }
        if new.is_empty() {
            assert!(
                next_win != u16::MAX,
                "a won or lost position without a distance"
            );
            level = next_win;
            continue;
        }
        found += new.len();
        for (i, d) in new {
            dist[i] = Some(d);
        }
        level += 1;
    }
    dist
}

/// The value under R18 from a fresh count of every position of a group: the states
/// (position, plies since the last zeroing move) from the draw at 80 plies down to 0. A quiet
/// move adds a ply to the count; a zeroing move starts it again, so it leads to the next
/// position's fresh-count value.
fn solve_r18(graph: &Graph) -> Vec<Outcome> {
    // At 80 plies the game is drawn, unless the side to move has no move at all (R16 first).
    let mut after: Vec<Outcome> = (0..graph.len())
        .map(|i| {
            if graph.moves(i).is_empty() {
                Outcome::Loss
            } else {
                Outcome::Draw
            }
        })
        .collect();
    for _count in (0..FORTY_MOVE_PLIES).rev() {
        let layer: Vec<Outcome> = (0..graph.len())
            .map(|i| {
                graph
                    .moves(i)
                    .iter()
                    .map(|e| match e {
                        Edge::Zeroing(v) => v.wdl50.under_r18().flip(),
                        Edge::Quiet(j) => after[*j].flip(),
                    })
                    .max()
                    .unwrap_or(Outcome::Loss)
            })
            .collect();
        // Each layer is the same function of the one after it, so once two layers agree,
        // every earlier layer is the same again: the sweep may stop here.
        if layer == after {
            break;
        }
        after = layer;
    }
    after
}

/// The position with the colours swapped and the board turned round (square n becomes
/// 33 - n): the same game for the other side.
pub fn flip_colours(pos: &Position) -> Position {
    let turn = |b: Bitboard| Bitboard(b.0.reverse_bits());
    Position::new_unchecked(
        turn(pos.black()),
        turn(pos.white()),
        turn(pos.kings()),
        pos.side().flip(),
    )
}
