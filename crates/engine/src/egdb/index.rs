//! The perfect index of a material group: every position of a group, with Black to move, gets
//! one number in `0..size`, with no unused numbers (binomial placement, as Kingsrow indexes).
//!
//! A position with White to move is stored as its colour-flipped twin with Black to move
//! (`flip`: the board turned half a turn, square n to square 33 - n, and the colours swapped),
//! so one side to move is enough.
//!
//! The number is `men * kings_count + kings`: the men's squares are the major part, so the
//! positions that share their men (a *slice*, closed under king moves) are one contiguous run.
//!
//! Men: Black's men stand on squares 1-28 and White's on 5-32 (never on their own crowning
//! row, R4). Black's men are split by how many stand on 1-4, where no white man can be: with
//! `k` of them there, the black men are `C(4, k) * C(24, bm - k)` placements and the white
//! men choose among the `28 - (bm - k)` squares of 5-32 left free. Kings: Black's among the
//! squares the men leave free, then White's among the rest.

use crate::core::bitboard::Bitboard;
use crate::core::position::Position;
use crate::core::square::Color;
use std::fmt;

/// The most pieces a table is indexed for (7: the largest; groups stay small).
pub const MAX_PIECES: u32 = 7;

/// Squares 1-4 (bits 0-3): Black's men may stand there, White's may not.
const BLACK_ONLY: u32 = 0x0000_000F;
/// Squares 5-28: either side's men.
const SHARED: u32 = 0x0FFF_FFF0;
/// Squares 5-32: White's men.
const WHITE_MEN: u32 = 0xFFFF_FFF0;

/// Binomial coefficients C(n, k) for n, k <= 32.
static BINOMIAL: [[u64; 33]; 33] = binomials();

const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// C(n, k), 0 when k > n.
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The bits of `x` under `mask`, packed down to the low bits (BMI2's `pext`, used when the
/// CPU has it: indexing is most of a build's time).
#[inline]
fn pext(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2, checked just above.
        return unsafe { bmi2::pext(x, mask) };
    }
    pext_soft(x, mask)
}

/// The low bits of `x` spread onto the bits of `mask` (BMI2's `pdep`, when the CPU has it).
#[inline]
fn pdep(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2, checked just above.
        return unsafe { bmi2::pdep(x, mask) };
    }
    pdep_soft(x, mask)
}

#[cfg(target_arch = "x86_64")]
mod bmi2 {
    #[target_feature(enable = "bmi2")]
    pub fn pext(x: u32, mask: u32) -> u32 {
        std::arch::x86_64::_pext_u32(x, mask)
    }
    #[target_feature(enable = "bmi2")]
    pub fn pdep(x: u32, mask: u32) -> u32 {
        std::arch::x86_64::_pdep_u32(x, mask)
    }
}

/// `pext` without BMI2.
#[inline]
fn pext_soft(x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

/// `pdep` without BMI2.
#[inline]
fn pdep_soft(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while mask != 0 && x != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask &= mask - 1;
    }
    out
}

/// The colex rank of a set of bits among the sets of the same size (combinatorial number
/// system): sum of C(position, i + 1) over its i-th lowest bit.
#[inline]
fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += binomial(set.trailing_zeros(), i);
        i += 1;
        set &= set - 1;
    }
    r
}

/// The set of `k` bits with colex rank `r` (the inverse of `rank`).
#[inline]
fn unrank(mut r: u64, k: u32) -> u32 {
    let mut set = 0;
    let mut p = 32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r.
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        set |= 1 << p;
        r -= binomial(p, i);
    }
    set
}

/// A material group: black men, black kings, white men, white kings, with Black to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    pub bm: u8,
    pub bk: u8,
    pub wm: u8,
    pub wk: u8,
}

impl fmt::Display for Group {
    /// `b12w01`: Black's men and kings, then White's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}{}w{}{}", self.bm, self.bk, self.wm, self.wk)
    }
}

impl Group {
    pub const fn new(bm: u8, bk: u8, wm: u8, wk: u8) -> Group {
        Group { bm, bk, wm, wk }
    }

    /// The group of a position with Black to move (any side's pieces may be missing).
    pub fn of(pos: &Position) -> Group {
        let k = pos.kings();
        Group {
            bm: (pos.black() & !k).count() as u8,
            bk: (pos.black() & k).count() as u8,
            wm: (pos.white() & !k).count() as u8,
            wk: (pos.white() & k).count() as u8,
        }
    }

    /// Parse the `Display` form back (a table's file name).
    pub fn parse(s: &str) -> Option<Group> {
        let b = s.as_bytes();
        if b.len() != 6 || b[0] != b'b' || b[3] != b'w' {
            return None;
        }
        let d = |c: u8| c.is_ascii_digit().then(|| c - b'0');
        let g = Group::new(d(b[1])?, d(b[2])?, d(b[4])?, d(b[5])?);
        (g.pieces() <= MAX_PIECES && g.valid()).then_some(g)
    }

    pub fn pieces(&self) -> u32 {
        u32::from(self.bm + self.bk + self.wm + self.wk)
    }
    pub fn men(&self) -> u32 {
        u32::from(self.bm + self.wm)
    }
    /// Both sides have a piece, and the men fit their squares.
    pub fn valid(&self) -> bool {
        self.bm + self.bk > 0 && self.wm + self.wk > 0 && self.bm <= 28 && self.wm <= 28
    }
    /// The same material with the colours swapped (the other side to move).
    pub fn swapped(&self) -> Group {
        Group::new(self.wm, self.wk, self.bm, self.bk)
    }
    /// A dense number for lookup arrays (every count below 8).
    pub fn id(&self) -> usize {
        ((self.bm as usize * 8 + self.bk as usize) * 8 + self.wm as usize) * 8 + self.wk as usize
    }
    pub const IDS: usize = 8 * 8 * 8 * 8;

    /// Every group of exactly `n` pieces, in build order: fewer men first, since crowning
    /// turns a man into a king and leads from a group to one with fewer men.
    pub fn all_with(n: u32) -> Vec<Group> {
        let n = n as u8;
        let mut out = Vec::new();
        for bm in 0..=n {
            for bk in 0..=n - bm {
                for wm in 0..=n - bm - bk {
                    let wk = n - bm - bk - wm;
                    let g = Group::new(bm, bk, wm, wk);
                    if g.valid() {
                        out.push(g);
                    }
                }
            }
        }
        out.sort_by_key(|g| (g.men(), *g));
        out
    }

    /// Placements of the men with `k` black men on squares 1-4.
    fn men_part(&self, k: u32) -> u64 {
        let (bm, wm) = (u32::from(self.bm), u32::from(self.wm));
        if k > bm || bm - k > 24 {
            return 0;
        }
        binomial(4, k) * binomial(24, bm - k) * binomial(28 - (bm - k), wm)
    }

    /// The number of men placements.
    pub fn men_count(&self) -> u64 {
        (0..=4).map(|k| self.men_part(k)).sum()
    }

    /// The number of king placements, the same for every placement of the men.
    pub fn kings_count(&self) -> u64 {
        let free = 32 - self.men();
        binomial(free, u32::from(self.bk)) * binomial(free - u32::from(self.bk), u32::from(self.wk))
    }

    /// The number of positions (Black to move).
    pub fn size(&self) -> u64 {
        self.men_count() * self.kings_count()
    }

    /// The index of a men placement (black men, white men as bitboards).
    pub fn men_index(&self, bmen: u32, wmen: u32) -> u64 {
        let k = (bmen & BLACK_ONLY).count_ones();
        let j = u32::from(self.bm) - k;
        let offset: u64 = (0..k).map(|i| self.men_part(i)).sum();
        let a = rank(bmen & BLACK_ONLY);
        let b = rank((bmen & SHARED) >> 4);
        let wfree = WHITE_MEN & !bmen;
        let c = rank(pext(wmen, wfree));
        offset + (a * binomial(24, j) + b) * binomial(28 - j, u32::from(self.wm)) + c
    }

    /// The men placement (black men, white men) of an index.
    pub fn men_at(&self, mut index: u64) -> (u32, u32) {
        let mut k = 0;
        while index >= self.men_part(k) {
            index -= self.men_part(k);
            k += 1;
        }
        let j = u32::from(self.bm) - k;
        let nw = binomial(28 - j, u32::from(self.wm));
        let c = index % nw;
        let ab = index / nw;
        let (a, b) = (ab / binomial(24, j), ab % binomial(24, j));
        let bmen = unrank(a, k) | (unrank(b, j) << 4);
        let wmen = pdep(unrank(c, u32::from(self.wm)), WHITE_MEN & !bmen);
        (bmen, wmen)
    }

    /// The index of a king placement, given the men's squares.
    pub fn kings_index(&self, men: u32, bkings: u32, wkings: u32) -> u64 {
        let free = !men;
        let free2 = free & !bkings;
        let nw = binomial(free2.count_ones(), u32::from(self.wk));
        rank(pext(bkings, free)) * nw + rank(pext(wkings, free2))
    }

    /// The king placement (black kings, white kings) of an index, given the men's squares.
    pub fn kings_at(&self, men: u32, index: u64) -> (u32, u32) {
        let free = !men;
        let nfree2 = free.count_ones() - u32::from(self.bk);
        let nw = binomial(nfree2, u32::from(self.wk));
        let bk = pdep(unrank(index / nw, u32::from(self.bk)), free);
        let wk = pdep(unrank(index % nw, u32::from(self.wk)), free & !bk);
        (bk, wk)
    }

    /// The index of a position of this group with Black to move.
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(pos.side(), Color::Black);
        let k = pos.kings().0;
        let (b, w) = (pos.black().0, pos.white().0);
        let (bmen, wmen) = (b & !k, w & !k);
        self.men_index(bmen, wmen) * self.kings_count()
            + self.kings_index(bmen | wmen, b & k, w & k)
    }

    /// The position (Black to move) with this index.
    pub fn position(&self, index: u64) -> Position {
        let kc = self.kings_count();
        let (bmen, wmen) = self.men_at(index / kc);
        let (bk, wk) = self.kings_at(bmen | wmen, index % kc);
        Position::new_unchecked(
            Bitboard(wmen | wk),
            Bitboard(bmen | bk),
            Bitboard(bk | wk),
            Color::Black,
        )
    }
}

/// The position turned half a turn with the colours swapped: the same game, the other side's
/// view. Square n goes to 33 - n (bit i to bit 31 - i), so each side's men still move toward
/// their own crowning row.
#[inline]
pub fn flip(pos: &Position) -> Position {
    Position::new_unchecked(
        Bitboard(pos.black().0.reverse_bits()),
        Bitboard(pos.white().0.reverse_bits()),
        Bitboard(pos.kings().0.reverse_bits()),
        pos.side().flip(),
    )
}

/// The stored form of a position: itself with Black to move, its flip with White to move.
#[inline]
pub fn canonical(pos: &Position) -> Position {
    if pos.side() == Color::Black {
        *pos
    } else {
        flip(pos)
    }
}

/// How far the men have advanced (each man's rows from its own back row, summed). Every man
/// move raises it by one and `flip` keeps it, so men placements solved in falling order of
/// this number only ever look at placements already solved.
pub fn advancement(bmen: u32, wmen: u32) -> u32 {
    let b: u32 = Bitboard(bmen).iter().map(|s| s.index() as u32 / 4).sum();
    let w: u32 = Bitboard(wmen)
        .iter()
        .map(|s| 7 - s.index() as u32 / 4)
        .sum();
    b + w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for k in 0..=4 {
            for r in 0..binomial(10, k) {
                let s = unrank(r, k);
                assert_eq!(s.count_ones(), k);
                assert!(s < 1 << 10);
                assert_eq!(rank(s), r);
            }
        }
    }

    #[test]
    fn the_bmi2_and_the_soft_bit_moves_agree() {
        let mut r = crate::core::rng::SplitMix64::new(5);
        for _ in 0..100_000 {
            let (x, m) = (r.next_u64() as u32, r.next_u64() as u32);
            assert_eq!(pext(x, m), pext_soft(x, m));
            assert_eq!(pdep(x, m), pdep_soft(x, m));
        }
    }

    #[test]
    fn pext_and_pdep_are_inverse() {
        let mask = 0xF0F0_1234;
        for x in 0..256u32 {
            assert_eq!(
                pext(pdep(x, mask), mask),
                x & ((1 << mask.count_ones()) - 1)
            );
        }
    }

    #[test]
    fn group_names_parse_back() {
        for n in 2..=5 {
            for g in Group::all_with(n) {
                assert_eq!(Group::parse(&g.to_string()), Some(g));
            }
        }
        assert_eq!(Group::parse("b00w11"), None);
        assert_eq!(Group::parse("b1w1"), None);
    }

    #[test]
    fn flip_is_an_involution_keeping_advancement() {
        let p = crate::core::notation::parse_fen("W:W21,K3,30:B5,K10,28").unwrap();
        assert_eq!(flip(&flip(&p)), p);
        let f = flip(&p);
        assert_eq!(f.side(), Color::Black);
        let k = p.kings().0;
        let fk = f.kings().0;
        assert_eq!(
            advancement(p.black().0 & !k, p.white().0 & !k),
            advancement(f.black().0 & !fk, f.white().0 & !fk)
        );
    }
}
