//! The static evaluation: a score for the side to move, in hundredths of a man.
//!
//! Two evaluations live here: the learned network (`nnue`), which the engine plays with
//! while men are on the board, and the hand evaluation below (`hand`), which scores king
//! endings for it and which `--weights tuning/weights.txt` plays everywhere. Which one
//! scores a position is decided once, in `choose` (from `Weights::evaluation`); `evaluate`
//! and the search's incremental path (`search::worker`) both follow it.
//!
//! It covers material (a king is worth about three men, and trading down is good when
//! ahead), advancement, back-rank guards, centre control, runaway men, king mobility and the
//! long diagonal in king endings, where three kings beat one only off the long diagonal and
//! two kings cannot beat one; and, tapered by phase, advancement and king value as pieces come
//! off, the bridge, men that cannot move, the men's quiet steps (mobility) and pieces an enemy
//! man could jump at once (en prise). All numbers come from `Weights`.
//!
//! The evaluation is written once, in `terms`, against a `Sink`: `Sum` adds the terms up for
//! play (monomorphised and inlined, so it compiles to plain arithmetic on the fields), and
//! `features::Features` counts them, giving the same evaluation as a vector to dot with the
//! weights, for the tuner.

pub mod features;
pub mod nnue;
pub mod weights;
pub mod weights_file;

use crate::core::attacks::king_attacks;
use crate::core::{Bitboard, Color, Position, Square};
use nnue::Network;
use weights::AT;
pub use weights::{Evaluation, Weights};
pub use weights_file::WeightsError;

/// The long diagonal a1-h8: squares 4, 8, 11, 15, 18, 22, 25, 29.
pub const LONG_DIAGONAL: Bitboard = Bitboard(
    (1 << 3) | (1 << 7) | (1 << 10) | (1 << 14) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 28),
);
/// The bridge of each colour: White 30 and 32, Black 1 and 3.
pub const BRIDGE: [Bitboard; 2] = [Bitboard((1 << 29) | (1 << 31)), Bitboard(1 | (1 << 2))];
/// Pieces on the board at the start; `24 - pieces` is how far the game has gone.
pub const FULL: i32 = 24;

/// Squares 14, 15, 18, 19.
pub const CENTRE: Bitboard = Bitboard((1 << 13) | (1 << 14) | (1 << 17) | (1 << 18));

/// Rows advanced by a man of `c` on `sq`: 0 on its own back row, 6 next to the crowning row.
#[inline]
pub fn rows_advanced(c: Color, sq: Square) -> usize {
    match c {
        Color::White => 7 - sq.row() as usize,
        Color::Black => sq.row() as usize,
    }
}

/// `CONES[colour][sq]`: the squares a man could ever walk through on its way to crowning
/// (its forward cone), `sq` excluded.
static CONES: [[Bitboard; 32]; 2] = build_cones();

/// A man's cone is every square some rows ahead of it and no more files to either side than
/// rows ahead: each step forward moves it one file, and dark squares keep the parity right.
const fn build_cones() -> [[Bitboard; 32]; 2] {
    let mut out = [[Bitboard::EMPTY; 32]; 2];
    let mut pair = 0;
    while pair < 32 * 32 {
        let (from, to) = (
            Square::new((pair / 32) as u8),
            Square::new((pair % 32) as u8),
        );
        // Rows toward row 0, White's way forward; negative for Black's.
        let ahead = from.row() as i32 - to.row() as i32;
        let wide = (from.file() as i32 - to.file() as i32).abs();
        let c = if ahead > 0 {
            Color::White
        } else {
            Color::Black
        };
        if ahead != 0 && wide <= ahead.abs() {
            let cone = &mut out[c as usize][from.index()];
            *cone = Bitboard(cone.0 | 1 << to.index());
        }
        pair += 1;
    }
    out
}

#[inline]
pub fn forward_cone(c: Color, sq: Square) -> Bitboard {
    CONES[c as usize][sq.index()]
}

/// Kings only, one side with a lone king and the other with at most two: nobody can force a
/// win (docs/RULES.md R19 draws even three kings against one that do not win in 13 moves),
/// so the value is exactly 0.
pub fn dead_draw(pos: &Position) -> bool {
    pos.men().is_empty()
        && matches!(
            (pos.white().count(), pos.black().count()),
            (1, 1) | (1, 2) | (2, 1)
        )
}

/// The evaluation never goes beyond this, in hundredths of a man (eighty men), whatever
/// the weights: below the endgame tables' wins (`Score::DB_WIN` less 99 plies, 8,901) and far
/// below the proved-win scores of the search (`Score::WIN_BOUND`, 29,744), so a static score
/// is never read as a database win or a won game. The shipped weights stay well inside it
/// (a few thousand at most), so the clamp changes nothing for them.
pub const EVAL_LIMIT: i32 = 8_000;

/// Where the evaluation's terms go. The evaluation is written once (`terms`) against this:
/// `Sum` adds the terms up under the weights for play, `features::Features` counts them
/// for the tuner. A term is named by its index in `Weights::to_vec()`, as `AT.king` or
/// `AT.advance + rows`.
pub trait Sink {
    /// `n` times value `i`.
    fn add(&mut self, i: usize, n: i32);
    /// `n / d` times value `i` (play rounds toward zero, each call on its own).
    fn add_ratio(&mut self, i: usize, n: i32, d: i32);
    /// `n` times value `i` among the late terms, which `taper` scales by phase.
    fn add_late(&mut self, i: usize, n: i32);
    /// Add the late terms, scaled by `(FULL - pieces) / FULL` (play rounds once, toward zero).
    fn taper(&mut self, pieces: i32);
    /// Divide everything so far by `d` (play rounds toward zero). Only after `taper`.
    fn divide(&mut self, d: i32);
    /// Everything so far from the other side's view. Only after `taper`.
    fn negate(&mut self);
}

/// The sink for play: the weighted sum, in whole hundredths of a man.
pub struct Sum<'a> {
    w: &'a Weights,
    score: i32,
    late: i32,
}

impl<'a> Sum<'a> {
    #[inline(always)]
    pub fn new(w: &'a Weights) -> Sum<'a> {
        Sum {
            w,
            score: 0,
            late: 0,
        }
    }

    /// The sum (after `taper`).
    #[inline(always)]
    pub fn score(&self) -> i32 {
        self.score
    }
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, i: usize, n: i32) {
        self.score += self.w.get(i) * n;
    }
    #[inline(always)]
    fn add_ratio(&mut self, i: usize, n: i32, d: i32) {
        self.score += self.w.get(i) * n / d;
    }
    #[inline(always)]
    fn add_late(&mut self, i: usize, n: i32) {
        self.late += self.w.get(i) * n;
    }
    #[inline(always)]
    fn taper(&mut self, pieces: i32) {
        self.score += self.late * (FULL - pieces) / FULL;
        self.late = 0;
    }
    #[inline(always)]
    fn divide(&mut self, d: i32) {
        self.score /= d;
    }
    #[inline(always)]
    fn negate(&mut self) {
        self.score = -self.score;
    }
}

/// Which evaluation scores a position: `choose` gives it.
#[derive(Clone, Copy, Debug)]
pub enum Choice<'a> {
    /// The network, from scratch (`Network::evaluate`) or through the search's cache.
    Network(&'a Network),
    /// The hand terms (`hand`).
    Hand,
}

/// The one place the evaluation of `pos` is chosen: the network of `w`, if it has one,
/// while a man is on the board, and the hand terms otherwise. King endings (no men left) go
/// to the hand terms: self-play at a few thousand nodes draws most of them by the 13-move
/// count, so a learned evaluation undervalues the kings there, and with it the search
/// missed 3 kings against 1 wins (tests/search.rs) that the hand terms steer to.
#[inline(always)]
pub fn choose<'a>(pos: &Position, w: &'a Weights) -> Choice<'a> {
    match &w.evaluation {
        Evaluation::Network(n) if pos.men().any() => Choice::Network(n),
        _ => Choice::Hand,
    }
}

/// The evaluation, from the side to move, within `EVAL_LIMIT`: as `choose` says.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    match choose(pos, w) {
        Choice::Network(n) => n.evaluate(pos),
        Choice::Hand => hand(pos, w),
    }
}

/// The hand evaluation, from the side to move, within `EVAL_LIMIT`.
pub fn hand(pos: &Position, w: &Weights) -> i32 {
    let mut sum = Sum::new(w);
    terms(pos, w, &mut sum);
    sum.score().clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Every term of the evaluation of `pos`, from the side to move, into `s`. `w` decides only
/// what is not linear in the weights: which side is ahead in material (for `trade_down`).
#[inline(always)]
pub fn terms<S: Sink>(pos: &Position, w: &Weights, s: &mut S) {
    if dead_draw(pos) {
        return;
    }
    side_terms(pos, Color::White, 1, s);
    side_terms(pos, Color::Black, -1, s);
    let pieces = pos.occupied().count() as i32;
    s.taper(pieces);

    // Trading down when ahead: the fewer pieces, the more a material lead counts.
    let material = material(pos, Color::White, w) - material(pos, Color::Black, w);
    if material != 0 {
        s.add(AT.trade_down, material.signum() * (FULL - pieces));
    }

    king_ending_terms(pos, s);
    if pos.side() == Color::Black {
        s.negate();
    }
    s.add(AT.tempo, 1);
}

pub fn material(pos: &Position, c: Color, w: &Weights) -> i32 {
    let own = pos.pieces(c);
    (own & !pos.kings()).count() as i32 * w.man + (own & pos.kings()).count() as i32 * w.king
}

/// Side `c`'s terms, times `sign` (White 1, Black -1), the late ones included.
#[inline(always)]
fn side_terms<S: Sink>(pos: &Position, c: Color, sign: i32, s: &mut S) {
    let own = pos.pieces(c);
    let men = own & !pos.kings();
    let kings = own & pos.kings();
    let enemy = pos.pieces(c.flip());
    let enemy_men = enemy & !pos.kings();
    let enemy_kings = enemy & pos.kings();
    let count = |b: Bitboard| sign * b.count() as i32;
    s.add(AT.man, count(men));
    s.add(AT.king, count(kings));
    s.add_late(AT.king_late, count(kings));

    for sq in men {
        let adv = rows_advanced(c, sq);
        s.add(AT.advance + adv.min(6), sign);
        s.add_late(AT.advance_late + adv.min(6), sign);
        // A runaway: nothing of the enemy's in the way, and no enemy king to chase it.
        if enemy_kings.is_empty() && (forward_cone(c, sq) & enemy).is_empty() {
            s.add_ratio(AT.runaway, sign * (adv as i32 + 1), 7);
        }
    }
    if enemy_men.any() {
        s.add(AT.back_rank_guard, count(men & back_row(c)));
        if (men & BRIDGE[c as usize]) == BRIDGE[c as usize] {
            s.add(AT.bridge, sign);
        }
    }
    s.add(AT.centre, count(men & CENTRE));
    s.add(AT.stuck_man, count(stuck_men(pos, c)));
    s.add(AT.man_mobility, sign * man_steps(pos, c));
    s.add(AT.en_prise, count(en_prise(pos, c)));

    let occ = pos.occupied();
    for k in kings {
        s.add(AT.king_mobility, count(king_attacks(k, occ) & !occ));
    }
    s.add(AT.long_diagonal, count(kings & LONG_DIAGONAL));
}

/// The own back row of `c`.
#[inline]
pub fn back_row(c: Color) -> Bitboard {
    match c {
        Color::White => Bitboard::ROW_BOTTOM,
        Color::Black => Bitboard::ROW_TOP,
    }
}

/// Men of `c` with no empty square to step to (they may still capture).
#[inline]
pub fn stuck_men(pos: &Position, c: Color) -> Bitboard {
    let empty = !pos.occupied();
    let men = pos.pieces(c) & !pos.kings();
    // A man can step if an empty square lies one step ahead: look back from the empty ones.
    let movable = match c {
        Color::White => Bitboard(empty.step_sw().0 | empty.step_se().0),
        Color::Black => Bitboard(empty.step_nw().0 | empty.step_ne().0),
    };
    men & !movable
}

/// Quiet steps the men of `c` have: pairs of a man and an empty square ahead of it.
#[inline]
pub fn man_steps(pos: &Position, c: Color) -> i32 {
    let empty = !pos.occupied();
    let men = pos.pieces(c) & !pos.kings();
    let (a, b) = match c {
        Color::White => (men.step_nw(), men.step_ne()),
        Color::Black => (men.step_sw(), men.step_se()),
    };
    ((a & empty).count() + (b & empty).count()) as i32
}

/// Pieces of `c` an enemy man could jump at once: an enemy man next to it on one side, an
/// empty square on the other (men capture in all four directions). Kings' long captures are
/// left out.
#[inline]
pub fn en_prise(pos: &Position, c: Color) -> Bitboard {
    let empty = !pos.occupied();
    let attackers = pos.pieces(c.flip()) & !pos.kings();
    // A piece taken by a jump to the north-east has the attacker south-west of it and the
    // landing square north-east of it; and so on for the other three directions.
    let taken = (attackers.step_ne() & empty.step_sw())
        | (attackers.step_nw() & empty.step_se())
        | (attackers.step_se() & empty.step_nw())
        | (attackers.step_sw() & empty.step_ne());
    pos.pieces(c) & taken
}

/// What the king-ending rule says of a position: no men, three or more kings against a
/// lone king (two against one is a `dead_draw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingEnding {
    /// Three kings against a lone king on the long diagonal: a draw with correct play, so
    /// the evaluation keeps only a small edge (divided by 16), and the stronger side still
    /// tries.
    Held,
    /// The lone king is off the long diagonal, or faces more than three: this side should
    /// win (`lone_king_off_diagonal`).
    Winning(Color),
}

/// The king ending of `pos`, if it is one: the one statement of the rule, which the hand
/// evaluation and the pattern evaluation both follow.
#[inline(always)]
pub fn king_ending(pos: &Position) -> Option<KingEnding> {
    if pos.men().any() {
        return None;
    }
    let (nw, nb) = (pos.white().count(), pos.black().count());
    let (strong, strong_count, lone) = match (nw, nb) {
        (n, 1) if n > 2 => (Color::White, n, pos.black()),
        (1, n) if n > 2 => (Color::Black, n, pos.white()),
        _ => return None,
    };
    if (lone & LONG_DIAGONAL).any() && strong_count == 3 {
        Some(KingEnding::Held)
    } else {
        Some(KingEnding::Winning(strong))
    }
}

/// The king-ending terms (`king_ending`), from White's side.
#[inline(always)]
fn king_ending_terms<S: Sink>(pos: &Position, s: &mut S) {
    match king_ending(pos) {
        None => {}
        Some(KingEnding::Held) => s.divide(16),
        Some(KingEnding::Winning(c)) => {
            let sign = if c == Color::White { 1 } else { -1 };
            s.add(AT.lone_king_off_diagonal, sign);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;
    use crate::core::random_games::RandomPositions;

    #[test]
    fn the_king_ending_rule() {
        let at = |fen: &str| king_ending(&parse_fen(fen).unwrap());
        assert_eq!(at("W:WK1,K2,K3:BK15"), Some(KingEnding::Held));
        assert_eq!(at("B:WK15:BK1,K2,K3"), Some(KingEnding::Held));
        let white = Some(KingEnding::Winning(Color::White));
        assert_eq!(at("B:WK1,K2,K3:BK13"), white);
        assert_eq!(at("W:WK1,K2,K3,K4:BK15"), white);
        assert_eq!(
            at("W:WK13:BK1,K2,K4"),
            Some(KingEnding::Winning(Color::Black))
        );
        for none in ["W:WK1,K2:BK13", "W:WK1,K2:BK13,K14", "W:WK1,K2,6:BK13"] {
            assert_eq!(at(none), None, "{none}");
        }
    }

    fn eval(fen: &str) -> i32 {
        evaluate(&parse_fen(fen).unwrap(), &Weights::default())
    }

    /// The engine's evaluation: the network while a man is on the board, the hand terms in
    /// king endings (each position below scores differently under the two, so a wrong
    /// dispatch shows); hand weights score everything with the hand terms.
    #[test]
    fn the_builtin_evaluation_is_the_network_with_men_and_the_hand_terms_without() {
        let (built, hand_weights) = (Weights::builtin(), Weights::default());
        let network = built.network().expect("the built-in network");
        for fen in ["W:W18,21,23,25:B1,5,9,K20", "B:W22,K30:B3,11"] {
            let pos = parse_fen(fen).unwrap();
            let e = evaluate(&pos, &built);
            assert!(matches!(choose(&pos, &built), Choice::Network(_)), "{fen}");
            assert_eq!(e, network.evaluate(&pos), "{fen}");
            assert_ne!(e, evaluate(&pos, &hand_weights), "{fen}");
            assert!(matches!(choose(&pos, &hand_weights), Choice::Hand), "{fen}");
        }
        for fen in ["W:WK2,K3,K14:BK20", "B:WK1,K24:BK17,K9"] {
            let pos = parse_fen(fen).unwrap();
            let e = evaluate(&pos, &built);
            assert!(matches!(choose(&pos, &built), Choice::Hand), "{fen}");
            assert_eq!(e, hand(&pos, &built), "{fen}");
            assert_eq!(e, evaluate(&pos, &hand_weights), "{fen}");
            assert_ne!(e, network.evaluate(&pos), "{fen}");
        }
    }

    /// The cones are what repeated forward steps reach.
    #[test]
    fn a_cone_is_what_forward_steps_reach() {
        for c in [Color::White, Color::Black] {
            for sq in Square::all() {
                let step = |b: Bitboard| match c {
                    Color::White => Bitboard(b.step_nw().0 | b.step_ne().0),
                    Color::Black => Bitboard(b.step_sw().0 | b.step_se().0),
                };
                let reached = std::iter::successors(Some(step(Bitboard(1 << sq.index()))), |&b| {
                    b.any().then(|| step(b))
                })
                .fold(0, |acc, b| acc | b.0);
                assert_eq!(forward_cone(c, sq).0, reached, "{c:?} {}", sq.number());
            }
        }
    }

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        assert_eq!(eval("B:W21-32:B1-12"), Weights::default().tempo);
    }

    /// The same position seen from the other side: rotate the board, swap the colours.
    fn mirror(p: &Position) -> Position {
        let r = |b: Bitboard| Bitboard(b.0.reverse_bits());
        Position::new_unchecked(r(p.black()), r(p.white()), r(p.kings()), p.side().flip())
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        let w = Weights::default();
        for pos in RandomPositions::new(7, usize::MAX).take(400) {
            assert_eq!(evaluate(&pos, &w), evaluate(&mirror(&pos), &w), "{pos:?}");
        }
    }

    #[test]
    fn man_steps_and_en_prise_match_a_square_by_square_check() {
        use crate::core::square::Direction;
        let all = [Direction::NW, Direction::NE, Direction::SW, Direction::SE];
        for pos in RandomPositions::new(5, usize::MAX).take(2000) {
            let empty = |sq: Option<Square>| sq.is_some_and(|t| !pos.occupied().contains(t));
            for c in [Color::White, Color::Black] {
                let ahead = match c {
                    Color::White => [Direction::NW, Direction::NE],
                    Color::Black => [Direction::SW, Direction::SE],
                };
                let mut steps = 0;
                for sq in pos.pieces(c) & !pos.kings() {
                    steps += ahead.iter().filter(|&&d| empty(sq.neighbour(d))).count() as i32;
                }
                assert_eq!(man_steps(&pos, c), steps, "{pos:?}");
                let enemy_men = pos.pieces(c.flip()) & !pos.kings();
                let mut slow = Bitboard::EMPTY;
                for sq in pos.pieces(c) {
                    // Attacked from d: an enemy man one step toward d, empty the other way.
                    let hit = all.iter().any(|&d| {
                        let from = sq.neighbour(d).is_some_and(|t| enemy_men.contains(t));
                        from && empty(sq.neighbour(d.opposite()))
                    });
                    if hit {
                        slow = Bitboard(slow.0 | (1 << sq.index()));
                    }
                }
                assert_eq!(en_prise(&pos, c), slow, "{pos:?}");
            }
        }
    }

    #[test]
    fn stuck_men_match_a_square_by_square_check() {
        use crate::core::square::Direction;
        for pos in RandomPositions::new(3, usize::MAX).take(2000) {
            for c in [Color::White, Color::Black] {
                let dirs = match c {
                    Color::White => [Direction::NW, Direction::NE],
                    Color::Black => [Direction::SW, Direction::SE],
                };
                let mut slow = Bitboard::EMPTY;
                for sq in pos.pieces(c) & !pos.kings() {
                    let free = dirs
                        .iter()
                        .any(|&d| sq.neighbour(d).is_some_and(|t| !pos.occupied().contains(t)));
                    if !free {
                        slow = Bitboard(slow.0 | (1 << sq.index()));
                    }
                }
                assert_eq!(stuck_men(&pos, c), slow, "{pos:?}");
            }
        }
    }

    #[test]
    fn material_dominates() {
        assert!(eval("W:W21,22,23:B10,11") > 50);
        assert!(eval("B:W21,22,23:B10,11") < -50);
        assert!(
            eval("W:WK21:B10,11") > 50,
            "a king is worth more than two men"
        );
    }

    /// Weights with each value at one end of its range: all at the bottom, all at the top,
    /// and mixes drawn by a fixed xorshift sequence.
    fn extreme_weights() -> Vec<Weights> {
        use weights::{term_at, LEN};
        let pick = |top: &dyn Fn(usize) -> bool| -> Weights {
            let v: Vec<i32> = (0..LEN)
                .map(|i| {
                    let r = &term_at(i).range;
                    if top(i) {
                        *r.end()
                    } else {
                        *r.start()
                    }
                })
                .collect();
            Weights::from_vec(&v)
        };
        let mut out = vec![pick(&|_| false), pick(&|_| true)];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = x;
            out.push(pick(&|i| bits >> i & 1 == 1));
        }
        out
    }

    /// The worst weights a file may hold never give a score in (or near) the range of
    /// proved wins and losses, nor overflow on the way: issue 11 had `king_mobility 30000`
    /// read as a proved loss.
    #[test]
    fn extreme_weights_in_range_stay_far_from_the_win_scores() {
        use crate::search::score::Score;
        const _: () = assert!(EVAL_LIMIT < Score::WIN_BOUND.0 / 2);
        let mut positions: Vec<Position> = [
            "W:WK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12:BK32",
            "B:WK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12:B13",
            "W:W21-32:B1-12",
            "W:W5,6,7,8,9,10,11,12,13,14,15,16:B20",
            "W:W21,22,K18:B5,6,9,K14",
        ]
        .iter()
        .map(|f| parse_fen(f).unwrap())
        .collect();
        positions.extend(RandomPositions::new(13, usize::MAX).take(3000));
        let (mut clamped, mut most) = (0, 0f64);
        for w in extreme_weights() {
            let wf: Vec<f64> = w.to_vec().iter().map(|&x| x as f64).collect();
            for pos in &positions {
                let e = evaluate(pos, &w);
                assert!(e.abs() <= EVAL_LIMIT, "{pos:?}: {e}\n{w:?}");
                assert!(!Score(e).is_decisive(), "{pos:?}: {e}");
                // The unclamped sum, exactly: far inside i32, so nothing wrapped on the way.
                let raw: f64 = features::features(pos, &w)
                    .iter()
                    .zip(&wf)
                    .map(|(&f, w)| f as f64 * w)
                    .sum();
                assert!(raw.abs() < 1e6, "{pos:?}: {raw}");
                most = most.max(raw.abs());
                clamped += (raw.abs() > EVAL_LIMIT as f64) as usize;
            }
        }
        // The clamp is exercised here, so the bound above is the clamp's doing where needed.
        assert!(clamped > 0, "largest {most}");
    }

    /// With the most extreme `king_mobility` a file may hold, the position that showed the
    /// false proved loss searches to a plain score, and the search with every weight at the
    /// top of its range finishes.
    #[test]
    fn searches_with_extreme_weights_give_no_proved_result() {
        use crate::core::Game;
        use crate::search::{Engine, Limits, SearchControl};
        let game = Game::new(parse_fen("W:W21,22,K18:B5,6,9,K14").unwrap());
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let mut engine = Engine::new(4, 1);
        let top = extreme_weights()[1].clone();
        engine.weights.king_mobility = top.king_mobility;
        for w in [engine.weights.clone(), top] {
            engine.weights = w;
            engine.clear();
            let out = engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
            assert!(!out.score.is_decisive(), "{:?}", out.score);
            assert_eq!(out.depth, 8);
        }
    }

    #[test]
    fn shipped_weights_stay_far_inside_the_clamp() {
        for w in [Weights::default(), Weights::handset()] {
            for pos in RandomPositions::new(17, usize::MAX).take(3000) {
                let e = evaluate(&pos, &w);
                assert!(e.abs() < EVAL_LIMIT / 2, "{pos:?}: {e}");
            }
        }
    }

    #[test]
    fn king_endings() {
        // Three kings against one on the long diagonal: drawish. Off it: winning.
        let on = eval("W:WK1,K2,K3:BK18");
        let off = eval("W:WK1,K2,K3:BK14");
        assert!(off > on + 300, "on {on} off {off}");
        assert!(on.abs() < 100, "{on}");
        // Two kings against one: a draw.
        assert_eq!(eval("W:WK1,K2:BK14"), 0);
        assert_eq!(eval("B:WK1:BK14,K20"), 0);
    }
}
