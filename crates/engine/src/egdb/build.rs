//! Building the tables: retrograde analysis, group by group, smallest first.
//!
//! Order. Captures lead to groups with fewer pieces and crowning to groups with fewer men, so
//! groups are built by piece count, then by men count (`Group::all_with`). A group and its
//! colour swap are built together (a move leads from one to the other). Inside them the
//! positions that share their men's squares form a *unit* (a men placement, with its flip in
//! the swapped group), closed under king moves. Man moves raise the men's advancement
//! (`index::advancement`), so units are solved from the most advanced down, in parallel within
//! one advancement level: every capture and man move (a *zeroing* move, which restarts the
//! 40-move count) leads to a position already solved, and only king moves stay in the unit.
//!
//! A unit is two retrograde passes over its king moves, each a breadth-first search from the
//! positions decided by their zeroing moves, the winner minimising and the loser maximising
//! the distance:
//! - with the zeroing moves valued by their theoretical results: the theoretical result and
//!   the dtc (plies to the next zeroing move);
//! - with them valued under R18 from a fresh count (the count restarts after them): a side
//!   wins under R18 exactly when this distance is at most 80 (`FORTY_MOVE_PLIES`), with the
//!   loss checked before the count (R16 first, as `Game::result`), as Syzygy does for chess.
//!
//! A finished group is stored at once (`group_file::save`), and a later run loads it
//! instead. The build tells its host how far it is through `Progress` (the command line
//! draws a bar).

use crate::core::attacks::king_attacks;
use crate::core::bitboard::Bitboard;
use crate::core::movegen;
use crate::core::position::Position;
use crate::core::rules::FORTY_MOVE_PLIES;
use crate::core::square::Color;
use crate::egdb::index::{advancement, flip, Group, MAX_PIECES};
use crate::egdb::lone_king::LoneKing;
use crate::egdb::store::Store;
use crate::egdb::value::{self, TERMINAL_LOSS};
use crate::egdb::{group_file, EgdbError, Tables, Wdl, Wdl50};
use rayon::prelude::*;
use std::time::Instant;

/// What a build tells its host as it goes. Called from the build's threads.
pub trait Progress: Sync {
    /// The build will solve or load `positions` positions in all.
    fn start(&self, positions: u64);
    /// What it is doing now (the groups done, the group being solved).
    fn status(&self, text: String);
    /// `positions` more are done.
    fn advance(&self, positions: u64);
    /// It is over (a last status).
    fn finish(&self, text: String);
}

/// Build every group up to `pieces` pieces into `store` (resumable: finished groups are
/// loaded, not solved again), on the current rayon pool, and keep them in memory for the
/// caller.
pub fn build(store: &dyn Store, pieces: u32, progress: &dyn Progress) -> Result<Tables, EgdbError> {
    if pieces > MAX_PIECES {
        return Err(EgdbError::TooManyPieces(pieces));
    }
    run(store, pieces, progress)
}

/// Each group with its colour swap, in build order (a symmetric group once).
pub fn pairs(pieces: u32) -> Vec<(Group, Group)> {
    (2..=pieces)
        .flat_map(Group::all_with)
        .filter(|g| *g <= g.swapped())
        .map(|g| (g, g.swapped()))
        .collect()
}

fn run(store: &dyn Store, pieces: u32, progress: &dyn Progress) -> Result<Tables, EgdbError> {
    let pairs = pairs(pieces);
    let groups: u64 = pairs.iter().map(|(g, s)| if g == s { 1 } else { 2 }).sum();
    let total: u64 = pairs
        .iter()
        .map(|(g, s)| if g == s { g.size() } else { 2 * g.size() })
        .sum();
    progress.start(total);
    let mut tables = Tables::new();
    let mut done = 0;
    for (g, s) in pairs {
        progress.status(format!("groups {done}/{groups}, {g}"));
        let n = if g == s { g.size() } else { 2 * g.size() };
        let loaded = [g, s].map(|x| {
            match group_file::load(store, x).and_then(|p| p.map(|p| tables.unpack(&p)).transpose())
            {
                Ok(v) => v,
                Err(why) => {
                    log::warn!("rebuilding an unusable table: {why}");
                    None
                }
            }
        });
        if let [Some(a), b] = loaded {
            if g == s || b.is_some() {
                tables.insert(g, a);
                if let Some(b) = b {
                    tables.insert(s, b);
                }
                done += if g == s { 1 } else { 2 };
                progress.advance(n);
                continue;
            }
        }
        let start = Instant::now();
        let (a, b) = solve_pair(&tables, g, s, progress);
        let secs = start.elapsed().as_secs_f64();
        log::info!(
            "{g}{}: {n} positions in {secs:.2} s ({:.0}/s)",
            if g == s {
                String::new()
            } else {
                format!(" and {s}")
            },
            n as f64 / secs.max(1e-9)
        );
        group_file::save(store, g, &a).map_err(EgdbError::Write)?;
        tables.insert(g, a);
        if g != s {
            group_file::save(store, s, &b).map_err(EgdbError::Write)?;
            tables.insert(s, b);
        }
        done += if g == s { 1 } else { 2 };
    }
    progress.finish(format!("groups {done}/{groups}"));
    build_lone_king(store, &tables)?;
    Ok(tables)
}

/// The R19 table, once its groups are built (resumable like a group).
fn build_lone_king(store: &dyn Store, tables: &Tables) -> Result<(), EgdbError> {
    match LoneKing::load(store) {
        Ok(Some(_)) => return Ok(()),
        Ok(None) => {}
        Err(why) => log::warn!("rebuilding an unusable table: {why}"),
    }
    if let Some(t) = LoneKing::solve(tables) {
        t.save(store).map_err(EgdbError::Write)?;
    }
    Ok(())
}

/// A men placement of `g` with the flipped one of `s` (one slot when they coincide).
struct UnitKey {
    m: u64,
    m2: u64,
    adv: u32,
}

/// Solve a group and its colour swap `s` (the same group when symmetric): their values.
pub fn solve_pair(
    tables: &Tables,
    g: Group,
    s: Group,
    progress: &dyn Progress,
) -> (Vec<u16>, Vec<u16>) {
    let k = g.kings_count();
    debug_assert_eq!(k, s.kings_count());
    let mut units = Vec::new();
    for m in 0..g.men_count() {
        let (bmen, wmen) = g.men_at(m);
        let m2 = s.men_index(wmen.reverse_bits(), bmen.reverse_bits());
        if g == s && m2 < m {
            continue;
        }
        units.push(UnitKey {
            m,
            m2,
            adv: advancement(bmen, wmen),
        });
    }
    units.sort_by_key(|u| std::cmp::Reverse(u.adv));
    let mut vg = vec![0u16; g.size() as usize];
    let mut vs = if g == s {
        Vec::new()
    } else {
        vec![0u16; s.size() as usize]
    };
    let mut start = 0;
    while start < units.len() {
        let adv = units[start].adv;
        let end = start + units[start..].iter().take_while(|u| u.adv == adv).count();
        let results: Vec<Vec<u16>> = {
            let ctx = Ctx {
                tables,
                g,
                s,
                vg: &vg,
                vs: if g == s { &vg } else { &vs },
            };
            units[start..end]
                .par_iter()
                .map(|u| {
                    let out = Unit::new(&ctx, u).solve();
                    progress.advance(out.len() as u64);
                    out
                })
                .collect()
        };
        let k = k as usize;
        for (u, out) in units[start..end].iter().zip(results) {
            let (m, m2) = (u.m as usize, u.m2 as usize);
            vg[m * k..(m + 1) * k].copy_from_slice(&out[..k]);
            if out.len() > k {
                let dest = if g == s { &mut vg } else { &mut vs };
                dest[m2 * k..(m2 + 1) * k].copy_from_slice(&out[k..]);
            }
        }
        start = end;
    }
    (vg, vs)
}

/// What the builder reads: the finished groups, and the pair being built (whose units of
/// higher advancement are done).
struct Ctx<'a> {
    tables: &'a Tables,
    g: Group,
    s: Group,
    vg: &'a [u16],
    vs: &'a [u16],
}

impl Ctx<'_> {
    /// The value of a solved position with Black to move.
    fn value(&self, c: &Position) -> u16 {
        if c.black().is_empty() {
            return TERMINAL_LOSS;
        }
        let gr = Group::of(c);
        let values = if gr == self.g {
            self.vg
        } else if gr == self.s {
            self.vs
        } else {
            self.tables
                .plain(gr)
                .expect("the groups a move leads to are built first")
        };
        values[gr.index(c) as usize]
    }
}

/// The best a zeroing move offers the side to move, per pass: 0 none, then loss, draw, win.
const NONE: u8 = 0;
const LOSS: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 3;

/// A position of a unit, before the search: its king moves and its best zeroing moves.
#[derive(Clone, Copy, Default)]
struct Node {
    king_moves: u8,
    /// The best zeroing move by theoretical value.
    theory: u8,
    /// The best zeroing move under R18 from a fresh count.
    fresh: u8,
}

/// One unit: one or two slots of positions sharing their men, `kings` positions each.
struct Unit<'a> {
    ctx: &'a Ctx<'a>,
    kings: u64,
    /// Each slot's group and men (black, white).
    slots: [(Group, u32, u32); 2],
    n_slots: usize,
}

/// A search's outcome per position: 0 unknown (a draw at the end), 1 win, 2 lost.
const UNKNOWN: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

impl<'a> Unit<'a> {
    fn new(ctx: &'a Ctx<'a>, key: &UnitKey) -> Unit<'a> {
        let (bmen, wmen) = ctx.g.men_at(key.m);
        let (bmen2, wmen2) = ctx.s.men_at(key.m2);
        let n_slots = if ctx.g == ctx.s && key.m == key.m2 {
            1
        } else {
            2
        };
        Unit {
            ctx,
            kings: ctx.g.kings_count(),
            slots: [(ctx.g, bmen, wmen), (ctx.s, bmen2, wmen2)],
            n_slots,
        }
    }

    fn len(&self) -> usize {
        (self.kings as usize) * self.n_slots
    }

    fn position(&self, local: u32) -> Position {
        let slot = (u64::from(local) / self.kings) as usize;
        let (g, bmen, wmen) = self.slots[slot];
        let (bk, wk) = g.kings_at(bmen | wmen, u64::from(local) % self.kings);
        Position::new_unchecked(
            Bitboard(wmen | wk),
            Bitboard(bmen | bk),
            Bitboard(bk | wk),
            Color::Black,
        )
    }

    /// The slot a king move from `slot` leads to (the colour flip of its men).
    fn other(&self, slot: usize) -> usize {
        if self.n_slots == 2 {
            1 - slot
        } else {
            0
        }
    }

    /// The local number of a position with Black to move in `slot`.
    fn local(&self, slot: usize, c: &Position) -> u32 {
        let (g, bmen, wmen) = self.slots[slot];
        let k = c.kings().0;
        (slot as u64 * self.kings + g.kings_index(bmen | wmen, c.black().0 & k, c.white().0 & k))
            as u32
    }

    fn node(&self, local: u32) -> Node {
        let pos = self.position(local);
        let mut node = Node::default();
        for mv in movegen::legal_moves(&pos).iter() {
            if mv.is_capture() || !pos.kings().contains(mv.from) {
                let v = self.ctx.value(&flip(&pos.play_unhashed(mv)));
                let class = value::class(v).expect("a solved value");
                let theory = match value::wdl_of(class) {
                    Wdl::Loss => WIN,
                    Wdl::Draw => DRAW,
                    Wdl::Win => LOSS,
                };
                let fresh = match class {
                    Wdl50::Loss => WIN,
                    Wdl50::Win => LOSS,
                    _ => DRAW,
                };
                node.theory = node.theory.max(theory);
                node.fresh = node.fresh.max(fresh);
            } else {
                node.king_moves += 1;
            }
        }
        node
    }

    /// The positions whose king moves lead to `local` (White's king moved back, White to
    /// move, seen flipped). A king move is legal only where no capture is.
    fn predecessors(&self, local: u32, out: &mut Vec<u32>) {
        out.clear();
        let q = self.position(local);
        let slot = self.other((u64::from(local) / self.kings) as usize);
        let occ = q.occupied();
        for t in (q.white() & q.kings()).iter() {
            let tb = Bitboard::from_square(t);
            for s in (king_attacks(t, occ) & !occ).iter() {
                let moved = tb ^ Bitboard::from_square(s);
                let p = Position::new_unchecked(
                    q.white() ^ moved,
                    q.black(),
                    q.kings() ^ moved,
                    Color::White,
                );
                if movegen::has_capture(&p) {
                    continue;
                }
                out.push(self.local(slot, &flip(&p)));
            }
        }
    }

    /// A retrograde pass with zeroing moves valued by `exit`: each position's outcome and
    /// distance (plies to the deciding zeroing move or to the loser's last move).
    fn pass(&self, nodes: &[Node], exit: impl Fn(&Node) -> u8) -> (Vec<u8>, Vec<u16>) {
        let n = nodes.len();
        let mut state = vec![UNKNOWN; n];
        let mut dist = vec![0u16; n];
        let mut left: Vec<u8> = nodes.iter().map(|x| x.king_moves).collect();
        let mut cur = Vec::new();
        let mut next = Vec::new();
        for (i, x) in nodes.iter().enumerate() {
            let e = exit(x);
            if x.king_moves == 0 && e == NONE {
                state[i] = LOST;
                cur.push(i as u32);
            } else if e == WIN {
                state[i] = WON;
                dist[i] = 1;
                next.push(i as u32);
            } else if x.king_moves == 0 && e == LOSS {
                state[i] = LOST;
                dist[i] = 1;
                next.push(i as u32);
            }
        }
        let mut preds = Vec::new();
        let mut d: u16 = 0;
        while !cur.is_empty() || !next.is_empty() {
            for &q in &cur {
                self.predecessors(q, &mut preds);
                for &p in &preds {
                    let p = p as usize;
                    if state[p] != UNKNOWN {
                        continue;
                    }
                    if state[q as usize] == LOST {
                        state[p] = WON;
                        dist[p] = d + 1;
                        next.push(p as u32);
                    } else {
                        left[p] -= 1;
                        if left[p] == 0 && exit(&nodes[p]) <= LOSS {
                            state[p] = LOST;
                            dist[p] = d + 1;
                            next.push(p as u32);
                        }
                    }
                }
            }
            cur = std::mem::take(&mut next);
            d += 1;
        }
        (state, dist)
    }

    /// Every position's value, slot by slot.
    fn solve(&self) -> Vec<u16> {
        let nodes: Vec<Node> = (0..self.len() as u32)
            .into_par_iter()
            .with_min_len(512)
            .map(|i| self.node(i))
            .collect();
        let (theory, dtc) = self.pass(&nodes, |x| x.theory);
        let (fresh, fdist) = self.pass(&nodes, |x| x.fresh);
        let in_time = |i: usize| u32::from(fdist[i]) <= FORTY_MOVE_PLIES;
        (0..nodes.len())
            .map(|i| match theory[i] {
                WON => {
                    let c = if fresh[i] == WON && in_time(i) {
                        Wdl50::Win
                    } else {
                        Wdl50::CursedWin
                    };
                    value::encode(c, dtc[i])
                }
                LOST => {
                    let c = if fresh[i] == LOST && in_time(i) {
                        Wdl50::Loss
                    } else {
                        Wdl50::BlessedLoss
                    };
                    value::encode(c, dtc[i])
                }
                _ => value::encode(Wdl50::Draw, 0),
            })
            .collect()
    }
}
