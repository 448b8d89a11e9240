//! The big pattern evaluation (issue 20's second candidate, after Scan's larger patterns):
//! windows of 4 rows by 6 files, 12 playable squares each, whose men (empty, own man, enemy
//! man: 3^12 = 531,441 states) index a table of learned weights, two sets of tables (the
//! full board and the ending) blended by the number of pieces, as `eval::pattern` does.
//!
//! The windows: top rows 0..=4 and first files 0 and 2, ten windows, each row of a window
//! three squares wide. Files 0..=5 and 2..=7 cover every file and rows 0..=3 to 4..=7 every
//! row, so every square is in two to eight windows.
//!
//! Kings are told apart from men, but not in the big windows: 5 states a square would be
//! 5^12 = 244 million states a window. In the big windows a king counts as an empty square,
//! and the kings have their own king-aware linear part: `pattern`'s linear terms (material,
//! king mobility, the long diagonal, runaways, trading down, tempo) and a table of a king's
//! value by its square, own and enemy, per phase (2 x 32 x 2 values). The other choice,
//! today's 4x4 windows with five states a square (5^8 = 390,625 states, 25 windows, two
//! phases), is 19.5 million more weights, 39 MB more file, twice the big windows' own
//! 10.6 million, for the kings that are on the board in a small part of the positions (and
//! in few states of each window): far more weights than the data has positions to fit them.
//! It was not measured.
//!
//! Everything is seen from the side to move, with `pattern::Oriented` (the board turned half
//! a turn for Black), and the king endings (no men) go to the hand terms, as for the small
//! patterns. The window states are gathered by BMI2's `pext` where the processor has it, else
//! with shifts (`indices_shifts`), with a square-by-square twin (`indices_slow`) that a test
//! holds both to. The weights are data (`BigPatternWeights`), in the file format of
//! `eval::big_pattern_file`, fitted by `tune::learn` (`learn --model big-patterns`).

use crate::core::{Bitboard, Position, Square};
use crate::eval::pattern::{self, Oriented, LINEAR, LINEAR_LEN, LINEAR_LIMIT, PATTERN_LIMIT};
use crate::eval::FULL;

pub use crate::eval::pattern::{PHASES, SCALE};

/// Playable squares in a window (4 rows of 3).
pub const WINDOW_SQUARES: usize = 12;
/// The states of one window: 3^12.
pub const STATES: usize = 531_441;
/// Window top rows: 0..=4.
const ROW_STEPS: usize = 5;
/// Window first files: 0 and 2 (`FILE_STEPS` of them, two files apart).
const FILE_STEPS: usize = 2;
/// The number of windows.
pub const WINDOWS: usize = ROW_STEPS * FILE_STEPS;
/// The king table: own kings (0) and enemy kings (1), by square.
pub const KING_SQUARES: usize = 2 * 32;

/// Where the kings' values start in a weights vector: after the linear terms.
pub const KINGS_AT: usize = LINEAR_LEN;
/// Where the window tables start in a weights vector: after the kings.
pub const TABLES_AT: usize = KINGS_AT + PHASES * KING_SQUARES;
/// The number of values in a weights vector: linear terms, the king table
/// `[side][square][phase]`, then the window tables `[window][state][phase]` (a state's two
/// phases side by side, so one cache line serves both).
pub const PARAMS: usize = TABLES_AT + PHASES * WINDOWS * STATES;

/// Where table value (`phase`, `window`, `state`) lies in a weights vector.
#[inline(always)]
pub const fn table_at(phase: usize, window: usize, state: usize) -> usize {
    TABLES_AT + (window * STATES + state) * PHASES + phase
}

/// Where the value of a king (`side` 0 own, 1 enemy) on square index `sq`, in `phase`, lies
/// in a weights vector.
#[inline(always)]
pub const fn king_at(phase: usize, side: usize, sq: usize) -> usize {
    KINGS_AT + (side * 32 + sq) * PHASES + phase
}

/// Window `w`'s top row and whether it starts at file 2 (`w = 2 * row + that`).
const fn corner(w: usize) -> (usize, usize) {
    (w / FILE_STEPS, w % FILE_STEPS)
}

/// The bit where window `w`'s gather starts: a window's squares on each of its rows are the
/// three bits from there (files 0..=5 are a row's bits 0..=2 whatever its parity, files
/// 2..=7 its bits 1..=3), rows four bits apart.
const fn shift(w: usize) -> u32 {
    let (r0, f) = corner(w);
    (4 * r0 + f) as u32
}

/// The 12 squares of a window at bit 0: three bits on each of four rows.
const WINDOW_MASK: u64 = 0x7777;

/// `BASE3[b]`: the 12 bits of `b` read as base-3 digits (bit i counts 3^i).
static BASE3: [u32; 1 << WINDOW_SQUARES] = {
    let mut out = [0u32; 1 << WINDOW_SQUARES];
    let mut b = 0;
    while b < out.len() {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < WINDOW_SQUARES {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        out[b] = v;
        b += 1;
    }
    out
};

/// Own men and enemy men, side by side in one u64 (enemy 32 bits up): kings are not in it.
#[inline(always)]
fn men(o: &Oriented) -> u64 {
    (o.own & !o.kings).0 as u64 | ((o.enemy & !o.kings).0 as u64) << 32
}

/// The state of every window, from the bitboards: `indices_pext` where the processor has
/// BMI2, else `indices_shifts`.
#[inline(always)]
pub fn indices(o: &Oriented) -> [u32; WINDOWS] {
    #[cfg(target_arch = "x86_64")]
    if pattern::has_bmi2() {
        // SAFETY: the processor has BMI2, checked just above.
        return unsafe { indices_pext(o) };
    }
    indices_shifts(o)
}

/// `indices` with BMI2's bit gather: one `pext` of both sides' men gives the window's 12
/// own bits, then its 12 enemy bits.
///
/// # Safety
/// The processor must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub unsafe fn indices_pext(o: &Oriented) -> [u32; WINDOWS] {
    use std::arch::x86_64::_pext_u64;
    let both = men(o);
    let mut out = [0u32; WINDOWS];
    for (w, slot) in out.iter_mut().enumerate() {
        let m = WINDOW_MASK << shift(w);
        let x = _pext_u64(both, m | m << 32);
        *slot = BASE3[(x & 0xFFF) as usize] + 2 * BASE3[(x >> 12) as usize];
    }
    out
}

/// `indices` with shifts and masks only: each row's three bits moved next to the last
/// row's, both sides at once.
#[inline(always)]
pub fn indices_shifts(o: &Oriented) -> [u32; WINDOWS] {
    let both = men(o);
    let two = |m: u64| m | m << 32;
    let mut out = [0u32; WINDOWS];
    for (w, slot) in out.iter_mut().enumerate() {
        let x = both >> shift(w);
        let y =
            (x & two(0x7)) | (x >> 1 & two(0x38)) | (x >> 2 & two(0x1C0)) | (x >> 3 & two(0xE00));
        *slot = BASE3[(y & 0xFFF) as usize] + 2 * BASE3[(y >> 32 & 0xFFF) as usize];
    }
    out
}

/// The squares of window `w`, in ascending order (the order of its base-3 digits).
pub fn window_squares(w: usize) -> Vec<Square> {
    let (r0, f) = corner(w);
    let (r0, f0) = (r0 as i32, 2 * f as i32);
    let mut out = Vec::new();
    for r in r0..r0 + 4 {
        for f in f0..f0 + 6 {
            if let Some(sq) = Square::from_row_file(r, f) {
                out.push(sq);
            }
        }
    }
    out.sort();
    out
}

/// `indices`, square by square: the reference the fast gathers are tested against.
pub fn indices_slow(o: &Oriented) -> [u32; WINDOWS] {
    let mut out = [0u32; WINDOWS];
    for (w, slot) in out.iter_mut().enumerate() {
        let squares = window_squares(w);
        assert_eq!(squares.len(), WINDOW_SQUARES);
        let mut v = 0;
        for sq in squares.iter().rev() {
            let man = !o.kings.contains(*sq);
            let digit = if man && o.own.contains(*sq) {
                1
            } else if man && o.enemy.contains(*sq) {
                2
            } else {
                0
            };
            v = v * 3 + digit;
        }
        *slot = v;
    }
    out
}

/// Everything the evaluation reads from a position, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BigFeatures {
    pub indices: [u32; WINDOWS],
    pub own_kings: Bitboard,
    pub enemy_kings: Bitboard,
    /// Pieces on the board, 0..=24 (the phase, as `pattern::PatternFeatures::pieces`).
    pub pieces: u8,
    pub linear: [i16; LINEAR_LEN],
}

/// The features of `pos`, from the side to move.
#[inline(always)]
pub fn features(pos: &Position) -> BigFeatures {
    let o = Oriented::new(pos);
    let pieces = pos.occupied().count().min(FULL as u32) as u8;
    BigFeatures {
        indices: indices(&o),
        own_kings: o.own & o.kings,
        enemy_kings: o.enemy & o.kings,
        pieces,
        linear: pattern::linear(&o, pieces),
    }
}

/// The learned weights, in stored units (1/SCALE of a hundredth of a man): the linear
/// terms, the king table `kings[(side * 32 + square) * PHASES + phase]` and the window
/// tables `tables[(window * STATES + state) * PHASES + phase]`.
#[derive(Clone, PartialEq, Eq)]
pub struct BigPatternWeights {
    pub linear: [i32; LINEAR_LEN],
    pub kings: Vec<i16>,
    pub tables: Vec<i16>,
}

impl std::fmt::Debug for BigPatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BigPatternWeights {{ linear: {:?}, kings: {:?}, tables: {} values }}",
            self.linear,
            self.kings,
            self.tables.len()
        )
    }
}

impl Default for BigPatternWeights {
    /// The linear part at the hand evaluation's values, every table value 0.
    fn default() -> Self {
        let mut linear = [0; LINEAR_LEN];
        for (i, (_, v)) in LINEAR.iter().enumerate() {
            linear[i] = v * SCALE;
        }
        BigPatternWeights {
            linear,
            kings: vec![0; PHASES * KING_SQUARES],
            tables: vec![0; PHASES * WINDOWS * STATES],
        }
    }
}

impl BigPatternWeights {
    /// From a weights vector in hundredths of a man (`PARAMS` values, as the trainer keeps
    /// them): each scaled, rounded and moved into its range.
    pub fn from_reals(v: &[f32]) -> BigPatternWeights {
        assert_eq!(v.len(), PARAMS, "big pattern weights vector length");
        let q = |x: f32, limit: i32| {
            let s = (x * SCALE as f32).round();
            if s.is_nan() {
                0
            } else {
                (s as i64).clamp(-limit as i64, limit as i64) as i32
            }
        };
        let mut linear = [0; LINEAR_LEN];
        for (i, l) in linear.iter_mut().enumerate() {
            *l = q(v[i], LINEAR_LIMIT);
        }
        let table = |r: &[f32]| r.iter().map(|&x| q(x, PATTERN_LIMIT) as i16).collect();
        BigPatternWeights {
            linear,
            kings: table(&v[KINGS_AT..TABLES_AT]),
            tables: table(&v[TABLES_AT..]),
        }
    }

    /// As a weights vector in hundredths of a man (the trainer's starting point).
    pub fn to_reals(&self) -> Vec<f32> {
        let s = SCALE as f32;
        let mut v: Vec<f32> = self.linear.iter().map(|&x| x as f32 / s).collect();
        v.extend(self.kings.iter().map(|&x| x as f32 / s));
        v.extend(self.tables.iter().map(|&x| x as f32 / s));
        v
    }

    /// The evaluation of features `f`, from the side to move, in hundredths of a man,
    /// within `EVAL_LIMIT`.
    #[inline(always)]
    pub fn score(&self, f: &BigFeatures) -> i32 {
        let (mut full, mut end) = (0i32, 0i32);
        for (w, &i) in f.indices.iter().enumerate() {
            let at = (w * STATES + i as usize) * PHASES;
            full += self.tables[at] as i32;
            end += self.tables[at + 1] as i32;
        }
        for (side, kings) in [f.own_kings, f.enemy_kings].into_iter().enumerate() {
            for sq in kings {
                let at = (side * 32 + sq.index()) * PHASES;
                full += self.kings[at] as i32;
                end += self.kings[at + 1] as i32;
            }
        }
        pattern::finish(full, end, f.pieces, &self.linear, &f.linear)
    }

    /// The evaluation of `pos`, from the side to move, in hundredths of a man. Made for
    /// positions with a man on the board, as `PatternWeights::evaluate`.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(&features(pos))
    }
}

/// The evaluation of features `f` under real weights `v` (`PARAMS` values, hundredths of a
/// man), before the clamp: what the trainer fits.
#[inline(always)]
pub fn raw_score(v: &[f32], f: &BigFeatures) -> f32 {
    let p = f.pieces as f32 / FULL as f32;
    let (mut full, mut end) = (0f32, 0f32);
    for (w, &i) in f.indices.iter().enumerate() {
        full += v[table_at(0, w, i as usize)];
        end += v[table_at(1, w, i as usize)];
    }
    for (side, kings) in [f.own_kings, f.enemy_kings].into_iter().enumerate() {
        for sq in kings {
            full += v[king_at(0, side, sq.index())];
            end += v[king_at(1, side, sq.index())];
        }
    }
    pattern::finish_real(full, end, p, &v[..LINEAR_LEN], &f.linear)
}

/// Add `de` times the gradient of `raw_score` at `f` to `g` (the trainer's step).
#[inline(always)]
pub fn add_gradient(g: &mut [f32], f: &BigFeatures, de: f32) {
    let p = f.pieces as f32 / FULL as f32;
    let (full, end) = (de * p, de * (1.0 - p));
    for (w, &i) in f.indices.iter().enumerate() {
        g[table_at(0, w, i as usize)] += full;
        g[table_at(1, w, i as usize)] += end;
    }
    for (side, kings) in [f.own_kings, f.enemy_kings].into_iter().enumerate() {
        for sq in kings {
            g[king_at(0, side, sq.index())] += full;
            g[king_at(1, side, sq.index())] += end;
        }
    }
    for (j, &x) in f.linear.iter().enumerate() {
        g[j] += de * x as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;

    #[test]
    fn windows_hold_twelve_squares_and_cover_the_board() {
        let mut seen = Bitboard::EMPTY;
        for w in 0..WINDOWS {
            let sq = window_squares(w);
            assert_eq!(sq.len(), WINDOW_SQUARES, "window {w}");
            let mut mask = Bitboard::EMPTY;
            sq.iter().for_each(|s| mask |= Bitboard::from_square(*s));
            assert_eq!(mask.0 as u64, WINDOW_MASK << shift(w), "window {w}");
            seen |= mask;
        }
        assert_eq!(seen, Bitboard::ALL);
    }

    fn check(o: &Oriented, what: &dyn std::fmt::Debug) {
        let slow = indices_slow(o);
        assert_eq!(indices(o), slow, "{what:?}");
        assert_eq!(indices_shifts(o), slow, "{what:?}");
        #[cfg(target_arch = "x86_64")]
        if pattern::has_bmi2() {
            // SAFETY: checked just above.
            assert_eq!(unsafe { indices_pext(o) }, slow, "{what:?}");
        }
        assert!(slow.iter().all(|&i| (i as usize) < STATES));
    }

    /// The fast gathers agree with the square-by-square reading, on random positions (with
    /// kings, which the windows see as empty) and on boards with every single square set.
    #[test]
    fn fast_indices_match_the_slow_reference() {
        for sq in 0..32 {
            let one = 1u32 << sq;
            for (own, enemy, kings) in [
                (one, 0, 0),
                (0, one, 0),
                (!one, one, 0),
                (one, !one, one),
                (!one, one, !one),
            ] {
                let o = Oriented {
                    own: Bitboard(own),
                    enemy: Bitboard(enemy & !own),
                    kings: Bitboard(kings),
                };
                check(&o, &sq);
            }
        }
        let mut with_kings = 0;
        for pos in RandomPositions::new(21, usize::MAX).take(5000) {
            with_kings += pos.kings().any() as usize;
            check(&Oriented::new(&pos), &pos);
        }
        assert!(with_kings > 500, "{with_kings}");
    }

    fn random_weights(seed: u64) -> BigPatternWeights {
        let mut rng = crate::core::rng::SplitMix64::new(seed);
        let mut w = BigPatternWeights::default();
        for x in w.tables.iter_mut().chain(w.kings.iter_mut()) {
            *x = (rng.below(2 * 200 + 1) as i32 - 200) as i16;
        }
        w
    }

    /// The same position seen from the other side scores the same.
    #[test]
    fn mirrored_positions_score_the_same() {
        let w = random_weights(3);
        let r = |b: Bitboard| Bitboard(b.0.reverse_bits());
        for pos in RandomPositions::new(8, usize::MAX).take(2000) {
            let m = Position::new_unchecked(
                r(pos.black()),
                r(pos.white()),
                r(pos.kings()),
                pos.side().flip(),
            );
            assert_eq!(w.evaluate(&pos), w.evaluate(&m), "{pos:?}");
        }
    }

    /// The integer evaluation is the real-valued one the trainer fits, up to rounding, and
    /// the gradient is the score's.
    #[test]
    fn integer_score_and_gradient_match_the_real_one() {
        let w = random_weights(5);
        let v = w.to_reals();
        assert_eq!(BigPatternWeights::from_reals(&v), w);
        let mut g = vec![0f32; PARAMS];
        for (n, pos) in RandomPositions::new(9, usize::MAX)
            .filter(|p| p.men().any())
            .take(3000)
            .enumerate()
        {
            let f = features(&pos);
            let real = raw_score(&v, &f);
            let int = w.score(&f) as f32;
            assert!((real - int).abs() <= 1.5, "{pos:?}: {real} vs {int}");
            if n % 30 == 0 {
                // The score is linear in the weights: the gradient dotted with them gives it.
                add_gradient(&mut g, &f, 1.0);
                let dot: f64 = g.iter().zip(&v).map(|(a, b)| (a * b) as f64).sum();
                assert!(
                    (dot as f32 - real).abs() < 1e-3 * real.abs().max(100.0),
                    "{dot} vs {real}"
                );
                add_gradient(&mut g, &f, -1.0);
            }
        }
    }
}
