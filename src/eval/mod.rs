//! The static evaluation: a score for the side to move, in hundredths of a man.
//!
//! It covers material (a king is worth about three men, and trading down is good when
//! ahead), advancement, back-rank guards, centre control, runaway men, king mobility and the
//! long diagonal in king endings, where three kings beat one only off the long diagonal and
//! two kings cannot beat one; and, tapered by phase, advancement and king value as pieces come
//! off, the bridge, men that cannot move, the men's quiet steps (mobility) and pieces an enemy
//! man could jump at once (en prise). All numbers come from `Weights`; `features`
//! gives the same evaluation as a vector to dot with them, for the tuner.

pub mod features;
pub mod file;
pub mod weights;

use crate::core::attacks::king_attacks;
use crate::core::{Bitboard, Color, Position, Square};
pub use weights::Weights;

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

const fn build_cones() -> [[Bitboard; 32]; 2] {
    let mut out = [[Bitboard::EMPTY; 32]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 32 {
            let mut cone = 0u32;
            let mut frontier = Bitboard(1 << s);
            let mut i = 0;
            while i < 7 {
                frontier = if c == Color::White as usize {
                    Bitboard(frontier.step_nw().0 | frontier.step_ne().0)
                } else {
                    Bitboard(frontier.step_sw().0 | frontier.step_se().0)
                };
                cone |= frontier.0;
                i += 1;
            }
            out[c][s] = Bitboard(cone);
            s += 1;
        }
        c += 1;
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

/// The evaluation, from the side to move.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    if dead_draw(pos) {
        return 0;
    }
    let white = side_terms(pos, Color::White, w);
    let black = side_terms(pos, Color::Black, w);
    let mut score = white - black;
    let pieces = pos.occupied().count() as i32;
    let late = late_terms(pos, Color::White, w) - late_terms(pos, Color::Black, w);
    score += late * (FULL - pieces) / FULL;

    // Trading down when ahead: the fewer pieces, the more a material lead counts.
    let material = material(pos, Color::White, w) - material(pos, Color::Black, w);
    if material != 0 {
        score += material.signum() * w.trade_down * (24 - pieces);
    }

    score = king_ending(pos, score, w);
    let from_side = if pos.side() == Color::White {
        score
    } else {
        -score
    };
    from_side + w.tempo
}

pub fn material(pos: &Position, c: Color, w: &Weights) -> i32 {
    let own = pos.pieces(c);
    (own & !pos.kings()).count() as i32 * w.man + (own & pos.kings()).count() as i32 * w.king
}

fn side_terms(pos: &Position, c: Color, w: &Weights) -> i32 {
    let own = pos.pieces(c);
    let men = own & !pos.kings();
    let kings = own & pos.kings();
    let enemy = pos.pieces(c.flip());
    let enemy_men = enemy & !pos.kings();
    let enemy_kings = enemy & pos.kings();
    let mut s = material(pos, c, w);

    for sq in men {
        let adv = rows_advanced(c, sq);
        s += w.advance[adv.min(6)];
        // A runaway: nothing of the enemy's in the way, and no enemy king to chase it.
        if enemy_kings.is_empty() && (forward_cone(c, sq) & enemy).is_empty() {
            s += w.runaway * (adv as i32 + 1) / 7;
        }
    }
    if enemy_men.any() {
        s += (men & back_row(c)).count() as i32 * w.back_rank_guard;
        if (men & BRIDGE[c as usize]) == BRIDGE[c as usize] {
            s += w.bridge;
        }
    }
    s += (men & CENTRE).count() as i32 * w.centre;
    s += stuck_men(pos, c).count() as i32 * w.stuck_man;
    s += man_steps(pos, c) * w.man_mobility;
    s += en_prise(pos, c).count() as i32 * w.en_prise;

    let occ = pos.occupied();
    for k in kings {
        s += (king_attacks(k, occ) & !occ).count() as i32 * w.king_mobility;
    }
    s += (kings & LONG_DIAGONAL).count() as i32 * w.long_diagonal;
    s
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

/// The terms that grow as pieces come off, before scaling by `(FULL - pieces) / FULL`.
fn late_terms(pos: &Position, c: Color, w: &Weights) -> i32 {
    let own = pos.pieces(c);
    let mut s = (own & pos.kings()).count() as i32 * w.king_late;
    for sq in own & !pos.kings() {
        s += w.advance_late[rows_advanced(c, sq).min(6)];
    }
    s
}

/// King endings with no men: three or more kings beat one only when the lone king is off the
/// long diagonal (two against one is a `dead_draw`).
fn king_ending(pos: &Position, score: i32, w: &Weights) -> i32 {
    if pos.men().any() {
        return score;
    }
    let (nw, nb) = (pos.white().count(), pos.black().count());
    let (strong, lone) = match (nw, nb) {
        (_, 1) if nw > 1 => (Color::White, pos.black()),
        (1, _) if nb > 1 => (Color::Black, pos.white()),
        _ => return score,
    };
    let strong_count = pos.pieces(strong).count();
    if (lone & LONG_DIAGONAL).any() && strong_count == 3 {
        // A draw with correct play: keep only a small edge so the stronger side still tries.
        return score / 16;
    }
    let bonus = w.lone_king_off_diagonal;
    if strong == Color::White {
        score + bonus
    } else {
        score - bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;
    use crate::core::random_games::RandomPositions;

    fn eval(fen: &str) -> i32 {
        evaluate(&parse_fen(fen).unwrap(), &Weights::default())
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
