//! The evaluation as a feature vector: `evaluate(pos, w)` equals the dot product of
//! `w.to_vec()` and `features(pos, w)`, up to the integer rounding `evaluate` does.
//!
//! The tuner computes these once per position and then fits the weights by linear algebra
//! alone. Two parts of the evaluation are not linear in the weights and are taken as they
//! stand under `w`: which side is ahead in material (for `trade_down`) and the king endings
//! (a drawn three-against-one scales everything down). Both rarely change as weights move.

use super::{
    back_row, dead_draw, en_prise, forward_cone, man_steps, material, rows_advanced, stuck_men,
    BRIDGE, CENTRE, FULL, LONG_DIAGONAL,
};
use crate::core::attacks::king_attacks;
use crate::core::{Color, Position};
use crate::eval::weights::{self, Weights};

/// Where each field starts in the vector (see `weights::LAYOUT`).
mod at {
    pub const MAN: usize = 0;
    pub const KING: usize = 1;
    pub const TRADE_DOWN: usize = 2;
    pub const ADVANCE: usize = 3;
    pub const BACK_RANK_GUARD: usize = 10;
    pub const CENTRE: usize = 11;
    pub const RUNAWAY: usize = 12;
    pub const KING_MOBILITY: usize = 13;
    pub const LONG_DIAGONAL: usize = 14;
    pub const LONE_KING: usize = 15;
    pub const TEMPO: usize = 16;
    pub const ADVANCE_LATE: usize = 17;
    pub const KING_LATE: usize = 24;
    pub const BRIDGE: usize = 25;
    pub const STUCK_MAN: usize = 26;
    pub const MAN_MOBILITY: usize = 27;
    pub const EN_PRISE: usize = 28;
}

/// The features of `pos` from the side to move, in `weights::LAYOUT` order.
pub fn features(pos: &Position, w: &Weights) -> Vec<f32> {
    let mut f = vec![0f32; weights::len()];
    if dead_draw(pos) {
        return f;
    }
    let pieces = pos.occupied().count() as i32;
    let late = (FULL - pieces) as f32 / FULL as f32;
    for c in [Color::White, Color::Black] {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        side_features(pos, c, sign, late, &mut f);
    }
    let material = material(pos, Color::White, w) - material(pos, Color::Black, w);
    if material != 0 {
        f[at::TRADE_DOWN] += (material.signum() * (FULL - pieces)) as f32;
    }
    king_ending(pos, &mut f);
    if pos.side() == Color::Black {
        f.iter_mut().for_each(|x| *x = -*x);
    }
    f[at::TEMPO] += 1.0;
    f
}

/// Adds `sign` times side `c`'s terms (White +1, Black -1).
fn side_features(pos: &Position, c: Color, sign: f32, late: f32, f: &mut [f32]) {
    let own = pos.pieces(c);
    let men = own & !pos.kings();
    let kings = own & pos.kings();
    let enemy = pos.pieces(c.flip());
    let enemy_men = enemy & !pos.kings();
    let enemy_kings = enemy & pos.kings();
    f[at::MAN] += sign * men.count() as f32;
    f[at::KING] += sign * kings.count() as f32;
    f[at::KING_LATE] += sign * late * kings.count() as f32;
    for sq in men {
        let adv = rows_advanced(c, sq);
        f[at::ADVANCE + adv.min(6)] += sign;
        f[at::ADVANCE_LATE + adv.min(6)] += sign * late;
        if enemy_kings.is_empty() && (forward_cone(c, sq) & enemy).is_empty() {
            f[at::RUNAWAY] += sign * (adv as f32 + 1.0) / 7.0;
        }
    }
    if enemy_men.any() {
        f[at::BACK_RANK_GUARD] += sign * (men & back_row(c)).count() as f32;
        if (men & BRIDGE[c as usize]) == BRIDGE[c as usize] {
            f[at::BRIDGE] += sign;
        }
    }
    f[at::CENTRE] += sign * (men & CENTRE).count() as f32;
    f[at::STUCK_MAN] += sign * stuck_men(pos, c).count() as f32;
    f[at::MAN_MOBILITY] += sign * man_steps(pos, c) as f32;
    f[at::EN_PRISE] += sign * en_prise(pos, c).count() as f32;
    let occ = pos.occupied();
    for k in kings {
        f[at::KING_MOBILITY] += sign * (king_attacks(k, occ) & !occ).count() as f32;
    }
    f[at::LONG_DIAGONAL] += sign * (kings & LONG_DIAGONAL).count() as f32;
}

/// `eval::king_ending` on the features (White's view, before the tempo).
fn king_ending(pos: &Position, f: &mut [f32]) {
    if pos.men().any() {
        return;
    }
    let (nw, nb) = (pos.white().count(), pos.black().count());
    let (strong, lone) = match (nw, nb) {
        (_, 1) if nw > 1 => (Color::White, pos.black()),
        (1, _) if nb > 1 => (Color::Black, pos.white()),
        _ => return,
    };
    if (lone & LONG_DIAGONAL).any() && pos.pieces(strong).count() == 3 {
        f.iter_mut().for_each(|x| *x /= 16.0);
        return;
    }
    f[at::LONE_KING] += if strong == Color::White { 1.0 } else { -1.0 };
}

/// The dot product of weights and features.
pub fn dot(w: &[f32], f: &[f32]) -> f32 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::random_games::RandomPositions;
    use crate::eval::evaluate;

    /// Positions from random games, endings included.
    fn random_positions(n: usize) -> Vec<Position> {
        RandomPositions::new(11, usize::MAX).take(n).collect()
    }

    #[test]
    fn dot_of_features_is_the_evaluation() {
        let handset = Weights::handset();
        let mut other = handset.to_vec();
        // Non-zero values for every term, so each one is checked.
        for (i, x) in other.iter_mut().enumerate() {
            *x += (i as i32 * 5) % 13 + 1;
        }
        let mut fens = vec![
            "W:WK1,K2,K3:BK18",
            "W:WK1,K2,K3:BK14",
            "B:WK1,K2,K3:BK14",
            "W:WK1,K2:BK14",
            "W:W30,32,21:B1,3,12",
        ]
        .into_iter()
        .map(|s| crate::core::notation::parse_fen(s).unwrap())
        .collect::<Vec<_>>();
        fens.extend(random_positions(3000));
        for w in [handset, Weights::from_vec(&other), Weights::default()] {
            let wf: Vec<f32> = w.to_vec().iter().map(|&x| x as f32).collect();
            for pos in &fens {
                let e = evaluate(pos, &w) as f32;
                let d = dot(&wf, &features(pos, &w));
                // evaluate rounds the runaway term per man, the late terms and the drawn
                // king ending once each.
                let slack = pos.men().count() as f32 + 2.0;
                assert!((e - d).abs() <= slack, "{pos:?}: eval {e} dot {d}");
            }
        }
    }
}
