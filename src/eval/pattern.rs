//! The pattern evaluation (after Scan's): the board is cut into overlapping 4x4 windows of
//! 8 playable squares, each window's contents (empty, own piece, enemy piece) index a table
//! of learned weights, and two sets of tables, one for the full board and one for the
//! ending, are blended by the number of pieces. A small linear part on top keeps what a
//! window cannot see: the kings (material, mobility, long diagonal), runaway men and trading
//! down when ahead.
//!
//! It was the engine's evaluation before the network (`eval::nnue`) and loads with
//! `--weights tuning/patterns.bin`; it scores the positions with a man on the board, and
//! king endings (no men) go to the hand terms
//! (`eval::evaluate`), which carry the lone-king rules, so the patterns never see one and
//! are not fitted to them (`tune::learn`).
//!
//! Everything is seen from the side to move: for Black the board is turned half a turn
//! (`reverse_bits`) and the colours swapped, so one set of tables serves both sides, a
//! position and its mirror image score the same by construction, and the tables learn what
//! having the move is worth.
//!
//! The window indices are gathered from the bitboards (`indices`: BMI2's `pext` where the
//! processor has it, else shifts and masks), with a slow square-by-square twin
//! (`indices_slow`) that a test compares both with. They are computed
//! from scratch at each evaluation, not kept up to date in `play`: the gather measured about
//! 28 ns of an evaluation's 95 (`bench --eval`), which is all an incremental update
//! could save, and that update would cost something at every move made, searched or not
//! (tuning/README.md). The weights (`PatternWeights`) are data, read from the binary format of
//! `eval::pattern_file`; they are tuned by `tune::learn`.

use crate::core::attacks::king_attacks;
use crate::core::{Bitboard, Color, Position};
use crate::eval::{forward_cone, EVAL_LIMIT, FULL, LONG_DIAGONAL};

/// Playable squares in a window (4 rows of 2).
pub const WINDOW_SQUARES: usize = 8;
/// The states of one window: 3^8.
pub const STATES: usize = 6561;
/// Windows per row and per column of the board: every 4x4 window (top-left corner on rows
/// and files 0..=4), so neighbouring windows overlap by three columns or rows.
const WINDOW_STEPS: usize = 5;
/// The number of windows.
pub const WINDOWS: usize = WINDOW_STEPS * WINDOW_STEPS;
/// Table sets: 0 for the full board, 1 for the ending; a position blends them by its pieces.
pub const PHASES: usize = 2;
/// Weights are stored in 1/SCALE of a hundredth of a man, so that small pattern weights
/// survive rounding; the sum is divided by SCALE at the end.
pub const SCALE: i32 = 16;
/// Every table value lies within this, in stored units (three men a window at most).
pub const PATTERN_LIMIT: i32 = 300 * SCALE;
/// Every linear weight lies within this, in stored units (ten men per unit of a term).
pub const LINEAR_LIMIT: i32 = 1000 * SCALE;

/// Declares the linear terms once: the `Linear` names (`f.linear[Linear::King as usize]`)
/// and the `LINEAR` table of names and starting values, in one order.
macro_rules! linear_terms {
    ($( $(#[doc = $doc:literal])* $term:ident = $name:literal, $start:expr; )*) => {
        /// The linear terms, each as own minus enemy (from the side to move) unless said
        /// otherwise, by their place in a weights vector and in `PatternFeatures::linear`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Linear {
            $( $(#[doc = $doc])* $term, )*
        }

        /// The linear terms' names and starting values (hundredths of a man: the hand
        /// evaluation's), in `Linear`'s order. The evaluation, the trainer and the file
        /// format all use this order.
        pub const LINEAR: &[(&str, i32)] = &[ $( ($name, $start), )* ];
    };
}

linear_terms! {
    Man = "man", 100;
    King = "king", 300;
    /// Per row a runaway man still has to go, counted as (rows advanced + 1) (0..=7).
    Runaway = "runaway", 9;
    KingMobility = "king_mobility", 2;
    LongDiagonal = "long_diagonal", 12;
    /// Sign of the material balance times the pieces traded off (24 - pieces).
    TradeDown = "trade_down", 4;
    /// A constant: the value of having the move, besides what the tables say.
    Tempo = "tempo", 3;
}

/// The number of linear terms.
pub const LINEAR_LEN: usize = LINEAR.len();
const _: () = assert!(Linear::Tempo as usize == LINEAR_LEN - 1);

/// The number of values in a weights vector: linear terms, then the tables
/// `[window][state][phase]`: the two phases' values of a state side by side, so one cache
/// line read serves both.
pub const PARAMS: usize = LINEAR_LEN + PHASES * WINDOWS * STATES;

/// Where table value (`phase`, `window`, `state`) lies in a weights vector.
#[inline(always)]
pub const fn table_at(phase: usize, window: usize, state: usize) -> usize {
    LINEAR_LEN + (window * STATES + state) * PHASES + phase
}

/// The shifts that gather window `w`'s 8 bits: the four rows start at bit `4 * row`, and on
/// each row the window's two squares are at offset `even` (rows of the window's first-row
/// parity) or `odd` (the others) within the row's four bits.
#[derive(Clone, Copy)]
struct Gather {
    row_shift: u32,
    first: u32,
    second: u32,
}

const fn gather(w: usize) -> Gather {
    let (r0, f0) = ((w / WINDOW_STEPS) as u32, (w % WINDOW_STEPS) as u32);
    // On an even row, bit c is file 2c + 1; on an odd row, file 2c. The window's files
    // f0..=f0+3 start at bit f0 / 2 (even rows) or (f0 + 1) / 2 (odd rows).
    let (even, odd) = (f0 / 2, f0.div_ceil(2));
    let (first, second) = if r0 % 2 == 0 {
        (even, odd)
    } else {
        (odd, even)
    };
    Gather {
        row_shift: 4 * r0,
        first,
        second,
    }
}

static GATHER: [Gather; WINDOWS] = {
    let mut out = [Gather {
        row_shift: 0,
        first: 0,
        second: 0,
    }; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        out[w] = gather(w);
        w += 1;
    }
    out
};

/// `BASE3[b]`: the 8 bits of `b` read as base-3 digits (bit i counts 3^i).
static BASE3: [u16; 256] = {
    let mut out = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u32, 1u32, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        out[b] = v as u16;
        b += 1;
    }
    out
};

/// A position as the side to move sees it: its pieces move up the board (toward square 1)
/// as White's do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oriented {
    pub own: Bitboard,
    pub enemy: Bitboard,
    pub kings: Bitboard,
}

impl Oriented {
    #[inline(always)]
    pub fn new(pos: &Position) -> Oriented {
        match pos.side() {
            Color::White => Oriented {
                own: pos.white(),
                enemy: pos.black(),
                kings: pos.kings(),
            },
            // Half a turn: square i goes to 31 - i, which is what reversing the bits does.
            Color::Black => Oriented {
                own: Bitboard(pos.black().0.reverse_bits()),
                enemy: Bitboard(pos.white().0.reverse_bits()),
                kings: Bitboard(pos.kings().0.reverse_bits()),
            },
        }
    }
}

/// The state of every window, from the bitboards: `indices_pext` where the processor has
/// BMI2 (one bit gather per window), else `indices_shifts`.
#[inline(always)]
pub fn indices(o: &Oriented) -> [u16; WINDOWS] {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: the processor has BMI2, checked just above.
        return unsafe { indices_pext(o) };
    }
    indices_shifts(o)
}

/// Whether the processor has BMI2's `pext` (checked once).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_bmi2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not checked yet, 1: no, 2: yes.
    static BMI2: AtomicU8 = AtomicU8::new(0);
    match BMI2.load(Ordering::Relaxed) {
        0 => {
            let yes = std::arch::is_x86_feature_detected!("bmi2");
            BMI2.store(1 + yes as u8, Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

/// Window `w`'s squares as a mask of own pieces, and the same squares of enemy pieces 32
/// bits up: the `pext` mask over `Oriented` packed into one u64.
static PEXT_MASKS: [u64; WINDOWS] = {
    let mut out = [0u64; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let g = gather(w);
        let mut m = 0u64;
        let mut r = 0;
        while r < 4 {
            let off = if r % 2 == 0 { g.first } else { g.second };
            m |= 3u64 << (g.row_shift + 4 * r + off);
            r += 1;
        }
        out[w] = m | m << 32;
        w += 1;
    }
    out
};

/// `indices` with BMI2's bit gather: `pext` of own and enemy pieces at once gives the
/// window's own byte and enemy byte.
///
/// # Safety
/// The processor must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub unsafe fn indices_pext(o: &Oriented) -> [u16; WINDOWS] {
    use std::arch::x86_64::_pext_u64;
    let both = o.own.0 as u64 | (o.enemy.0 as u64) << 32;
    let mut out = [0u16; WINDOWS];
    for (slot, &m) in out.iter_mut().zip(PEXT_MASKS.iter()) {
        let x = _pext_u64(both, m);
        *slot = BASE3[(x & 0xFF) as usize] + 2 * BASE3[(x >> 8) as usize];
    }
    out
}

/// `indices` with shifts and masks only: own and enemy pieces side by side in one u64 so
/// one set of shifts gathers both, then each window's two bytes read as base-3 digits (own
/// 1, enemy 2).
#[inline(always)]
pub fn indices_shifts(o: &Oriented) -> [u16; WINDOWS] {
    let both = o.own.0 as u64 | (o.enemy.0 as u64) << 32;
    // Rows 0 and 2 of the window (first) and rows 1 and 3 (second), two bits each.
    const FIRST: u64 = 0x0303_0000_0303;
    const SECOND: u64 = 0x3030_0000_3030;
    const PAIRS: u64 = 0x0F0F_0000_0F0F;
    const BYTE: u64 = 0x00FF_0000_00FF;
    let mut out = [0u16; WINDOWS];
    for (w, g) in GATHER.iter().enumerate() {
        let x = both >> g.row_shift;
        let mut y = ((x >> g.first) & FIRST) | ((x >> g.second) & SECOND);
        y = (y | y >> 2) & PAIRS;
        y = (y | y >> 4) & BYTE;
        out[w] = BASE3[(y & 0xFF) as usize] + 2 * BASE3[(y >> 32 & 0xFF) as usize];
    }
    out
}

/// The squares of window `w`, in ascending order (the order of its base-3 digits).
pub fn window_squares(w: usize) -> Vec<crate::core::Square> {
    let (r0, f0) = ((w / WINDOW_STEPS) as i32, (w % WINDOW_STEPS) as i32);
    let mut out = Vec::new();
    for r in r0..r0 + 4 {
        for f in f0..f0 + 4 {
            if let Some(sq) = crate::core::Square::from_row_file(r, f) {
                out.push(sq);
            }
        }
    }
    out.sort();
    out
}

/// `indices`, square by square: the reference the fast gather is tested against.
pub fn indices_slow(o: &Oriented) -> [u16; WINDOWS] {
    let mut out = [0u16; WINDOWS];
    for (w, slot) in out.iter_mut().enumerate() {
        let squares = window_squares(w);
        assert_eq!(squares.len(), WINDOW_SQUARES);
        let mut v = 0;
        for sq in squares.iter().rev() {
            let digit = if o.own.contains(*sq) {
                1
            } else if o.enemy.contains(*sq) {
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

/// Everything the evaluation reads from a position: the window states, the piece count that
/// sets the phase and the linear features.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternFeatures {
    pub indices: [u16; WINDOWS],
    /// Pieces on the board, 0..=24: the full-board tables count `pieces / 24`, the ending's
    /// the rest.
    pub pieces: u8,
    pub linear: [i16; LINEAR_LEN],
}

/// The features of `pos`, from the side to move.
#[inline(always)]
pub fn features(pos: &Position) -> PatternFeatures {
    let o = Oriented::new(pos);
    let pieces = pos.occupied().count().min(FULL as u32) as u8;
    PatternFeatures {
        indices: indices(&o),
        pieces,
        linear: linear(&o, pieces),
    }
}

/// The linear features of `o`, with `pieces` on the board (also the big patterns',
/// `eval::big_pattern`).
#[inline(always)]
pub fn linear(o: &Oriented, pieces: u8) -> [i16; LINEAR_LEN] {
    let mut out = [0; LINEAR_LEN];
    let occ = o.own | o.enemy;
    let side = |own: Bitboard, enemy: Bitboard, c: Color| {
        let men = own & !o.kings;
        let kings = own & o.kings;
        let enemy_kings = enemy & o.kings;
        let mut runaway = 0;
        if enemy_kings.is_empty() {
            for sq in men {
                if (forward_cone(c, sq) & enemy).is_empty() {
                    runaway += crate::eval::rows_advanced(c, sq) as i32 + 1;
                }
            }
        }
        let mut mobility = 0;
        for k in kings {
            mobility += (king_attacks(k, occ) & !occ).count() as i32;
        }
        [
            men.count() as i32,
            kings.count() as i32,
            runaway,
            mobility,
            (kings & LONG_DIAGONAL).count() as i32,
        ]
    };
    // The enemy moves down the board: as Black does in the oriented position.
    let a = side(o.own, o.enemy, Color::White);
    let b = side(o.enemy, o.own, Color::Black);
    let per_side = [
        Linear::Man,
        Linear::King,
        Linear::Runaway,
        Linear::KingMobility,
        Linear::LongDiagonal,
    ];
    for (i, term) in per_side.into_iter().enumerate() {
        out[term as usize] = (a[i] - b[i]) as i16;
    }
    let material = (a[0] - b[0]) + 3 * (a[1] - b[1]);
    out[Linear::TradeDown as usize] = (material.signum() * (FULL - pieces as i32)) as i16;
    out[Linear::Tempo as usize] = 1;
    out
}

/// The learned weights, in stored units (1/SCALE of a hundredth of a man): the linear terms
/// and the tables, `tables[(window * STATES + state) * PHASES + phase]`.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    pub linear: [i32; LINEAR_LEN],
    pub tables: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The tables are hundreds of thousands of numbers: name their size only.
        write!(
            f,
            "PatternWeights {{ linear: {:?}, tables: {} values }}",
            self.linear,
            self.tables.len()
        )
    }
}

impl Default for PatternWeights {
    /// The linear part at the hand evaluation's values, every table value 0.
    fn default() -> Self {
        let mut linear = [0; LINEAR_LEN];
        for (i, (_, v)) in LINEAR.iter().enumerate() {
            linear[i] = v * SCALE;
        }
        PatternWeights {
            linear,
            tables: vec![0; PHASES * WINDOWS * STATES],
        }
    }
}

impl PatternWeights {
    /// From a weights vector in hundredths of a man (`PARAMS` values, as the trainer keeps
    /// them): each scaled, rounded and moved into its range.
    pub fn from_reals(v: &[f32]) -> PatternWeights {
        assert_eq!(v.len(), PARAMS, "pattern weights vector length");
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
        let tables = v[LINEAR_LEN..]
            .iter()
            .map(|&x| q(x, PATTERN_LIMIT) as i16)
            .collect();
        PatternWeights { linear, tables }
    }

    /// As a weights vector in hundredths of a man (the trainer's starting point).
    pub fn to_reals(&self) -> Vec<f32> {
        let mut v: Vec<f32> = self
            .linear
            .iter()
            .map(|&x| x as f32 / SCALE as f32)
            .collect();
        v.extend(self.tables.iter().map(|&x| x as f32 / SCALE as f32));
        v
    }

    /// The evaluation of features `f`, from the side to move, in hundredths of a man,
    /// within `EVAL_LIMIT`.
    #[inline(always)]
    pub fn score(&self, f: &PatternFeatures) -> i32 {
        let (mut full, mut end) = (0i32, 0i32);
        for (w, &i) in f.indices.iter().enumerate() {
            let at = (w * STATES + i as usize) * PHASES;
            full += self.tables[at] as i32;
            end += self.tables[at + 1] as i32;
        }
        finish(full, end, f.pieces, &self.linear, &f.linear)
    }

    /// The evaluation of `pos`, from the side to move, in hundredths of a man. Made for
    /// positions with a man on the board: play sends king endings to the hand terms
    /// (`eval::evaluate`), whose lone-king rules the patterns do not have.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(&features(pos))
    }
}

/// The evaluation of features `f` under real weights `v` (`PARAMS` values, hundredths of a
/// man), before the clamp: what the trainer fits.
#[inline(always)]
pub fn raw_score(v: &[f32], f: &PatternFeatures) -> f32 {
    let p = f.pieces as f32 / FULL as f32;
    let (mut full, mut end) = (0f32, 0f32);
    for (w, &i) in f.indices.iter().enumerate() {
        full += v[table_at(0, w, i as usize)];
        end += v[table_at(1, w, i as usize)];
    }
    finish_real(full, end, p, &v[..LINEAR_LEN], &f.linear)
}

/// The end of a pattern score (these patterns' and the big ones'): the two phases' table
/// sums blended by the pieces on the board, the linear part added, in hundredths of a man
/// within `EVAL_LIMIT`.
#[inline(always)]
pub(crate) fn finish(
    full: i32,
    end: i32,
    pieces: u8,
    weights: &[i32; LINEAR_LEN],
    values: &[i16; LINEAR_LEN],
) -> i32 {
    let p = pieces as i32;
    let mut sum = (full * p + end * (FULL - p)) / FULL;
    for (w, x) in weights.iter().zip(values) {
        sum += w * *x as i32;
    }
    (sum / SCALE).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// `finish` under real weights (`p` the full board's share), before the clamp: the trainer's.
#[inline(always)]
pub(crate) fn finish_real(full: f32, end: f32, p: f32, weights: &[f32], values: &[i16]) -> f32 {
    let mut sum = full * p + end * (1.0 - p);
    for (w, x) in weights.iter().zip(values) {
        sum += w * *x as f32;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;

    #[test]
    fn windows_hold_eight_squares_and_cover_the_board() {
        let mut seen = Bitboard::EMPTY;
        for w in 0..WINDOWS {
            let sq = window_squares(w);
            assert_eq!(sq.len(), WINDOW_SQUARES, "window {w}");
            sq.iter().for_each(|s| seen |= Bitboard::from_square(*s));
        }
        assert_eq!(seen, Bitboard::ALL);
    }

    /// The fast gather agrees with the square-by-square reading, on random positions and on
    /// boards with every single square set (so each bit's place in each window is checked).
    #[test]
    fn fast_indices_match_the_slow_reference() {
        for sq in 0..32 {
            for (own, enemy) in [(1u32 << sq, 0), (0, 1u32 << sq), (!(1u32 << sq), 1 << sq)] {
                let o = Oriented {
                    own: Bitboard(own),
                    enemy: Bitboard(enemy & !own),
                    kings: Bitboard::EMPTY,
                };
                assert_eq!(indices(&o), indices_slow(&o), "square {sq}");
                assert_eq!(indices_shifts(&o), indices_slow(&o), "square {sq}");
            }
        }
        for pos in RandomPositions::new(21, usize::MAX).take(5000) {
            let o = Oriented::new(&pos);
            assert_eq!(indices(&o), indices_slow(&o), "{pos:?}");
            assert_eq!(indices_shifts(&o), indices_slow(&o), "{pos:?}");
            #[cfg(target_arch = "x86_64")]
            if has_bmi2() {
                // SAFETY: checked just above.
                assert_eq!(unsafe { indices_pext(&o) }, indices_slow(&o), "{pos:?}");
            }
            assert!(indices(&o).iter().all(|&i| (i as usize) < STATES));
        }
    }

    fn random_weights(seed: u64) -> PatternWeights {
        let mut rng = crate::core::rng::SplitMix64::new(seed);
        let mut w = PatternWeights::default();
        for x in w.tables.iter_mut() {
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

    /// The integer evaluation is the real-valued one the trainer fits, up to rounding.
    #[test]
    fn integer_score_matches_the_real_one() {
        let w = random_weights(5);
        let v = w.to_reals();
        assert_eq!(PatternWeights::from_reals(&v), w);
        for pos in RandomPositions::new(9, usize::MAX)
            .filter(|p| p.men().any())
            .take(3000)
        {
            let f = features(&pos);
            let real = raw_score(&v, &f);
            let int = w.score(&f) as f32;
            assert!((real - int).abs() <= 1.5, "{pos:?}: {real} vs {int}");
        }
    }
}
