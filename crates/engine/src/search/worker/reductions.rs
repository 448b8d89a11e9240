//! The late-move reductions: how many plies a quiet move's search is cut by, from the
//! remaining depth and the move's number, built once per search from its parameters.

use crate::search::params::SearchParams;

/// Rows (remaining depth) and columns (move number) of the reduction table; larger values
/// share its last row or column.
const LMR_TABLE: usize = 64;

/// Quiet-move reductions in plies, by remaining depth and move number:
/// `lmr_base + ln(depth) ln(move) / lmr_divisor`, none for the first move or at depth 0.
pub struct Reductions([[i32; LMR_TABLE]; LMR_TABLE]);

impl Reductions {
    pub fn new(p: &SearchParams) -> Reductions {
        let mut table = [[0; LMR_TABLE]; LMR_TABLE];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (p.lmr_base + (d as f64).ln() * (m as f64).ln() / p.lmr_divisor) as i32;
            }
        }
        Reductions(table)
    }

    #[inline]
    pub(super) fn get(&self, depth: i32, move_number: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(LMR_TABLE - 1)][move_number.min(LMR_TABLE - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is the formula, grows with depth and move number, never reduces the first
    /// move or depth 0, and clamps beyond its last row and column.
    #[test]
    fn reductions_follow_the_formula() {
        let p = SearchParams::default();
        let r = Reductions::new(&p);
        for d in 0..LMR_TABLE as i32 {
            assert_eq!(r.get(d, 0), 0);
            for m in 1..LMR_TABLE {
                let want = if d == 0 {
                    0
                } else {
                    (p.lmr_base + (d as f64).ln() * (m as f64).ln() / p.lmr_divisor) as i32
                };
                assert_eq!(r.get(d, m), want, "depth {d} move {m}");
                assert!(r.get(d, m) >= r.get(d, m - 1));
                if d > 0 {
                    assert!(r.get(d, m) >= r.get(d - 1, m));
                }
            }
        }
        assert_eq!(r.get(500, 900), r.get(63, 63));
    }
}
