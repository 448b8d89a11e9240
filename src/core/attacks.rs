//! Diagonal attack tables for the flying kings (RULES.md R7, R10).
//!
//! `king_attacks(sq, occ)` gives every square a king on `sq` sees along its two diagonals: the
//! empty squares up to the first occupied one in each direction, and that occupied square. The
//! answer comes from a table indexed, magic-bitboard style, by the occupancy bits on the two
//! diagonals through `sq` (leaving out `sq` and the board edges, whose occupancy never changes
//! the answer): `((occ & mask) * magic) >> shift`. The magics are found at start-up by a
//! seeded random search, so the tables are the same every run. `king_attacks_slow` walks the
//! rays one square at a time; a test compares the two on every square and every occupancy.

use crate::core::bitboard::Bitboard;
use crate::core::square::{Direction, Square};
use std::sync::LazyLock;

/// `RAYS[dir][sq]`: every square from `sq` (exclusive) to the board edge in direction `dir`.
pub static RAYS: [[Bitboard; 32]; 4] = build_rays();

/// `NEIGHBOURS[dir][sq]`: the adjacent square's bit in `dir`, or empty at the edge.
pub static NEIGHBOURS: [[Bitboard; 32]; 4] = build_neighbours();

const fn build_rays() -> [[Bitboard; 32]; 4] {
    let mut rays = [[Bitboard::EMPTY; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        let mut s = 0;
        while s < 32 {
            let mut bits = 0u32;
            let mut cur = Square::new(s as u8).neighbour(dir);
            while let Some(n) = cur {
                bits |= 1 << n.index();
                cur = n.neighbour(dir);
            }
            rays[d][s] = Bitboard(bits);
            s += 1;
        }
        d += 1;
    }
    rays
}

const fn build_neighbours() -> [[Bitboard; 32]; 4] {
    let mut out = [[Bitboard::EMPTY; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            if let Some(n) = Square::new(s as u8).neighbour(Direction::ALL[d]) {
                out[d][s] = Bitboard(1 << n.index());
            }
            s += 1;
        }
        d += 1;
    }
    out
}

/// The ray from `sq` in `dir`, to the edge.
#[inline]
pub fn ray(dir: Direction, sq: Square) -> Bitboard {
    RAYS[dir as usize][sq.index()]
}

/// The reference: walk each ray until the first occupied square, which is included.
pub fn king_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let mut cur = sq.neighbour(dir);
        while let Some(n) = cur {
            out |= Bitboard::from_square(n);
            if occ.contains(n) {
                break;
            }
            cur = n.neighbour(dir);
        }
    }
    out
}

/// The occupancy bits that can change a king's attacks from `sq`: both diagonals, less the
/// last square of each ray (nothing lies beyond it to block).
pub fn relevant_mask(sq: Square) -> Bitboard {
    let mut mask = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let r = ray(dir, sq);
        if r.any() {
            // The edge square of the ray is the one with no neighbour further along.
            let edge = r
                .iter()
                .find(|s| s.neighbour(dir).is_none())
                .expect("a ray ends at an edge");
            mask |= r & !Bitboard::from_square(edge);
        }
    }
    mask
}

#[derive(Clone, Copy, Debug)]
struct Magic {
    mask: u32,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The built king tables. Hot loops fetch them once with `tables()` and then call
/// `Tables::attacks`, which saves the `LazyLock` check on every lookup.
pub struct Tables {
    magics: [Magic; 32],
    attacks: Vec<Bitboard>,
}

impl Tables {
    /// Every square a king on `sq` sees along its diagonals, first blockers included.
    #[inline]
    pub fn attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = self.magics[sq.index()];
        let idx = ((occ.0 & m.mask) as u64).wrapping_mul(m.magic) >> m.shift;
        self.attacks[m.offset as usize + idx as usize]
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

/// Make sure the tables exist (so the first search or perft does not pay for them).
pub fn init() {
    LazyLock::force(&TABLES);
}

/// The king tables, built on first use.
#[inline]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// Every square a king on `sq` sees along its diagonals, first blockers included.
#[inline]
pub fn king_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    tables().attacks(sq, occ)
}

/// The squares a king on `sq` sees in one direction, the first blocker included.
#[inline]
pub fn king_attacks_dir(sq: Square, dir: Direction, occ: Bitboard) -> Bitboard {
    king_attacks(sq, occ) & ray(dir, sq)
}

/// A small, seeded generator: the magics must be the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Every subset of `mask` (the carry-rippler trick).
fn subsets(mask: u32) -> impl Iterator<Item = u32> {
    let mut sub = 0u32;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let cur = sub;
        sub = sub.wrapping_sub(mask) & mask;
        done = sub == 0;
        Some(cur)
    })
}

fn build_tables() -> Tables {
    let mut rng = SplitMix(0x05EE_D0FB_0A4D);
    let mut magics = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 32];
    let mut attacks = Vec::new();
    for sq in Square::all() {
        let mask = relevant_mask(sq).0;
        let occupancies: Vec<(u32, Bitboard)> = subsets(mask)
            .map(|occ| (occ, king_attacks_slow(sq, Bitboard(occ))))
            .collect();
        // A perfect hash into 2^popcount slots is not always quick to find (the centre
        // squares see nine bits), so after a while allow one more index bit.
        let mut bits = mask.count_ones().max(1);
        let (magic, table) = 'search: loop {
            let mut table = vec![None::<Bitboard>; 1 << bits];
            for _ in 0..200_000 {
                let candidate = rng.next() & rng.next() & rng.next();
                table.iter_mut().for_each(|e| *e = None);
                let ok = occupancies.iter().all(|&(occ, att)| {
                    let idx = ((occ as u64).wrapping_mul(candidate) >> (64 - bits)) as usize;
                    match table[idx] {
                        None => {
                            table[idx] = Some(att);
                            true
                        }
                        Some(prev) => prev == att,
                    }
                });
                if ok {
                    break 'search (candidate, table);
                }
            }
            bits += 1;
        };
        magics[sq.index()] = Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset: attacks.len() as u32,
        };
        attacks.extend(table.into_iter().map(|e| e.unwrap_or(Bitboard::EMPTY)));
    }
    Tables { magics, attacks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_reference_on_every_square_and_occupancy() {
        let mut rng = SplitMix(42);
        for sq in Square::all() {
            let mask = relevant_mask(sq).0;
            for occ in subsets(mask) {
                // Bits outside the mask (and on sq itself) must not matter.
                let noise = rng.next() as u32 & !mask;
                for extra in [0, noise, !mask] {
                    let o = Bitboard(occ | extra);
                    assert_eq!(
                        king_attacks(sq, o),
                        king_attacks_slow(sq, o),
                        "square {sq}, occ {o:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_diagonal_on_empty_board() {
        let a1 = Square::from_number(29).unwrap();
        let seen: Vec<u8> = king_attacks(a1, Bitboard::EMPTY)
            .iter()
            .map(|s| s.number())
            .collect();
        assert_eq!(seen, vec![4, 8, 11, 15, 18, 22, 25]);
    }

    #[test]
    fn rays_end_at_the_edges() {
        let s18 = Square::from_number(18).unwrap();
        let nums = |b: Bitboard| b.iter().map(|s| s.number()).collect::<Vec<_>>();
        assert_eq!(nums(ray(Direction::NE, s18)), vec![4, 8, 11, 15]);
        assert_eq!(nums(ray(Direction::SW, s18)), vec![22, 25, 29]);
        assert_eq!(nums(ray(Direction::NW, s18)), vec![5, 9, 14]);
        assert_eq!(nums(ray(Direction::SE, s18)), vec![23, 27, 32]);
    }
}
