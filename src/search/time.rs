//! Time management: how long to think, from the limits of one search.
//!
//! A search gets a soft budget (do not start another iteration past it) and a hard one (stop
//! now). With a clock, the budget is a share of the remaining time plus most of the
//! increment, capped well below the time left so the clock never runs out.

use crate::search::Limits;
use std::time::Duration;

/// Time kept in hand for process and pipe latency, unless the front end asks for more
/// (`Limits::overhead`, which the Hub raises when it sees its answers arrive late).
pub const OVERHEAD: Duration = Duration::from_millis(50);
/// Moves assumed still to play when the clock gives no count.
const DEFAULT_MOVES_TO_GO: u32 = 30;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

impl Budget {
    pub fn from_limits(limits: &Limits) -> Budget {
        if limits.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(mt) = limits.move_time {
            let t = mt
                .saturating_sub(Duration::from_millis(5))
                .max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(left) = limits.time {
            let mtg = limits
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, 100);
            let usable = left.saturating_sub(limits.overhead.unwrap_or(OVERHEAD));
            // Never plan on more than what is left, spread over the moves to go.
            let share = usable / mtg + limits.inc.mul_f64(0.8);
            let max_hard = if mtg == 1 {
                usable.mul_f64(0.9)
            } else {
                usable.mul_f64(0.3)
            };
            let s = share.min(max_hard);
            let h = (share * 3).min(max_hard);
            soft = Some(soft.map_or(s.mul_f64(0.6), |x| x.min(s.mul_f64(0.6))));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        Budget { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_stays_well_inside_the_time_left() {
        for secs in [0.05, 0.5, 2.0, 60.0, 600.0] {
            for inc in [0.0, 0.1, 1.0] {
                let limits = Limits {
                    time: Some(Duration::from_secs_f64(secs)),
                    inc: Duration::from_secs_f64(inc),
                    ..Limits::default()
                };
                let b = Budget::from_limits(&limits);
                let hard = b.hard.unwrap();
                assert!(
                    hard <= Duration::from_secs_f64(secs).mul_f64(0.3),
                    "{secs}+{inc}: {hard:?}"
                );
                assert!(b.soft.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn a_larger_reserve_plans_less_and_stays_inside_the_clock() {
        let clock = |overhead| {
            Budget::from_limits(&Limits {
                time: Some(Duration::from_millis(200)),
                inc: Duration::from_millis(5),
                overhead,
                ..Limits::default()
            })
        };
        let fixed = clock(None);
        let loaded = clock(Some(Duration::from_millis(150)));
        assert!(loaded.hard.unwrap() < fixed.hard.unwrap());
        // Never more than the time left over the reserve.
        assert!(loaded.hard.unwrap() <= Duration::from_millis(50));
        // A reserve above the whole clock leaves nothing to plan with, and no panic.
        let none = clock(Some(Duration::from_secs(1)));
        assert!(none.hard.unwrap() <= Duration::from_millis(5));
    }

    #[test]
    fn move_time_and_infinite() {
        let b = Budget::from_limits(&Limits {
            move_time: Some(Duration::from_millis(500)),
            ..Limits::default()
        });
        assert_eq!(b.hard, Some(Duration::from_millis(495)));
        let b = Budget::from_limits(&Limits {
            infinite: true,
            ..Limits::default()
        });
        assert_eq!(
            b,
            Budget {
                soft: None,
                hard: None
            }
        );
    }
}
