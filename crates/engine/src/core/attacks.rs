//! Diagonal attack tables for the flying kings (docs/RULES.md R7, R10).
//!
//! `king_attacks(sq, occ)` gives every square a king on `sq` sees along its two diagonals: the
//! empty squares up to the first occupied one in each direction, and that occupied square. The
//! answer comes from a table indexed, magic-bitboard style, by the occupancy bits on the two
//! diagonals through `sq` (leaving out `sq` and the board edges, whose occupancy never changes
//! the answer): `((occ & mask) * magic) >> shift`. The magics are found at start-up by a
//! seeded random search, so the tables are the same every run. `king_attacks_slow` walks the
//! rays one square at a time; a test compares the two on every square and every occupancy.

use crate::core::bitboard::Bitboard;
use crate::core::rng::SplitMix64;
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

/// Fill a table for one square with `magic` and `bits` index bits, or None if two
/// occupancies with different attacks collide.
fn fill_table(occupancies: &[(u32, Bitboard)], magic: u64, bits: u32) -> Option<Vec<Bitboard>> {
    let mut table = vec![None::<Bitboard>; 1 << bits];
    for &(occ, att) in occupancies {
        let idx = ((occ as u64).wrapping_mul(magic) >> (64 - bits)) as usize;
        match table[idx] {
            None => table[idx] = Some(att),
            Some(prev) if prev == att => {}
            Some(_) => return None,
        }
    }
    Some(
        table
            .into_iter()
            .map(|e| e.unwrap_or(Bitboard::EMPTY))
            .collect(),
    )
}

fn occupancies(sq: Square) -> Vec<(u32, Bitboard)> {
    subsets(relevant_mask(sq).0)
        .map(|occ| (occ, king_attacks_slow(sq, Bitboard(occ))))
        .collect()
}

/// Search for a magic for `sq`: seeded random sparse candidates. A perfect hash into
/// 2^popcount slots is not always quick to find (the centre squares see nine bits), so after
/// a while one more index bit is allowed. Returns (magic, bits).
pub fn find_magic(sq: Square, seed: u64) -> (u64, u32) {
    let mut rng = SplitMix64::new(seed ^ sq.index() as u64);
    let occ = occupancies(sq);
    let mut bits = relevant_mask(sq).count().max(1);
    loop {
        for _ in 0..200_000 {
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if fill_table(&occ, candidate, bits).is_some() {
                return (candidate, bits);
            }
        }
        bits += 1;
    }
}

/// The seed of the magic search. `KNOWN_MAGICS` holds the magics `find_magic(sq,
/// MAGIC_SEED)` found once (`cargo run --release --example print_magics` prints them again),
/// kept so start-up does not repeat the search (a test checks each still works; a failing
/// one would be searched for again).
pub const MAGIC_SEED: u64 = 0x05EE_D0FB_0A4D;
#[rustfmt::skip]
const KNOWN_MAGICS: [(u64, u32); 32] = [
    (0x40C108205000E800, 5),
    (0x008280C880080040, 5),
    (0x0040C00080004012, 5),
    (0xC020314000000020, 6),
    (0x8040C08400024000, 5),
    (0x0010608508000470, 5),
    (0x0012804400019000, 5),
    (0x8020211030400400, 5),
    (0x418120A00800A020, 5),
    (0x0020808000144090, 7),
    (0x0488404000004020, 7),
    (0x2040602020400040, 5),
    (0x0440240800000004, 5),
    (0x0481081018010860, 7),
    (0x0038200200040002, 10),
    (0x0A0810A800040000, 5),
    (0x0142070400002080, 5),
    (0x8101000200090000, 10),
    (0x0040802800404010, 7),
    (0x0049031004004084, 5),
    (0x1040402002004040, 5),
    (0x01A0202A090C0420, 7),
    (0x0004041000000000, 7),
    (0x021024E000001440, 5),
    (0x0045040060004081, 5),
    (0x8041A20808880015, 5),
    (0x0040414408480500, 5),
    (0x00415040048A0100, 5),
    (0x1090402004001080, 6),
    (0x2004602000000050, 5),
    (0x8440206088000010, 5),
    (0x0210409020040080, 5),
];

fn build_tables() -> Tables {
    let mut magics = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 32];
    let mut attacks = Vec::new();
    for sq in Square::all() {
        let occ = occupancies(sq);
        let (known, known_bits) = KNOWN_MAGICS[sq.index()];
        let (magic, bits, table) = match fill_table(&occ, known, known_bits) {
            Some(t) => (known, known_bits, t),
            None => {
                let (m, b) = find_magic(sq, MAGIC_SEED);
                (
                    m,
                    b,
                    fill_table(&occ, m, b).expect("a magic that was just checked"),
                )
            }
        };
        magics[sq.index()] = Magic {
            mask: relevant_mask(sq).0,
            magic,
            shift: 64 - bits,
            offset: attacks.len() as u32,
        };
        attacks.extend(table);
    }
    Tables { magics, attacks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_magics_are_valid() {
        for sq in Square::all() {
            let (m, b) = KNOWN_MAGICS[sq.index()];
            assert!(fill_table(&occupancies(sq), m, b).is_some(), "square {sq}");
            assert!(b <= relevant_mask(sq).count() + 1);
        }
    }

    #[test]
    fn table_matches_reference_on_every_square_and_occupancy() {
        let mut rng = SplitMix64::new(42);
        for sq in Square::all() {
            let mask = relevant_mask(sq).0;
            for occ in subsets(mask) {
                // Bits outside the mask (and on sq itself) must not matter.
                let noise = rng.next_u64() as u32 & !mask;
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
