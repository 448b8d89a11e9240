//! Time management: how long to think, from the limits of one search.
//!
//! A search gets a soft budget (do not start another iteration past it) and a hard one (stop
//! now). With a clock, the budget is a share of the remaining time plus most of the
//! increment, capped well below the time left so the clock never runs out.

use crate::search::params::SearchParams;
use crate::search::Limits;
use std::time::Duration;

/// Time kept in hand for process and pipe latency, unless the front end asks for more
/// (`Limits::overhead`, which the Hub raises when it sees its answers arrive late). Not a
/// tunable: it is a safety margin for the protocol, and playing strength does not choose it.
pub const OVERHEAD: Duration = Duration::from_millis(50);
/// Kept back from a fixed time per move, for the same latency (a margin, not a tunable).
const MOVE_TIME_MARGIN: Duration = Duration::from_millis(5);
/// The most moves to go a clock may claim (more are taken as this many).
const MAX_MOVES_TO_GO: u32 = 100;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget of one search: a pure function of its limits and the time-management
    /// parameters (`SearchParams::time_*`, `moves_to_go_default`).
    pub fn from_limits(limits: &Limits, p: &SearchParams) -> Budget {
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
                .saturating_sub(MOVE_TIME_MARGIN)
                .max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(left) = limits.time {
            let mtg = limits
                .moves_to_go
                .unwrap_or(p.moves_to_go_default)
                .clamp(1, MAX_MOVES_TO_GO);
            let usable = left.saturating_sub(limits.overhead.unwrap_or(OVERHEAD));
            // Never plan on more than what is left, spread over the moves to go.
            let share = usable / mtg + limits.inc.mul_f64(p.time_inc_share);
            let max_hard = if mtg == 1 {
                usable.mul_f64(p.time_last_move_share)
            } else {
                usable.mul_f64(p.time_max_share)
            };
            let s = share.min(max_hard);
            let h = (share * p.time_hard_factor).min(max_hard);
            let s = s.mul_f64(p.time_soft_share);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        Budget { soft, hard }
    }

    /// Whether a search `elapsed` into its clock must stop now.
    pub fn past_hard(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }

    /// Whether a search `elapsed` into its clock should start no new iteration.
    pub fn past_soft(&self, elapsed: Duration) -> bool {
        self.soft.is_some_and(|s| elapsed >= s)
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
                let b = Budget::from_limits(&limits, &SearchParams::default());
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
            Budget::from_limits(
                &Limits {
                    time: Some(Duration::from_millis(200)),
                    inc: Duration::from_millis(5),
                    overhead,
                    ..Limits::default()
                },
                &SearchParams::default(),
            )
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
        let p = SearchParams::default();
        let b = Budget::from_limits(
            &Limits {
                move_time: Some(Duration::from_millis(500)),
                ..Limits::default()
            },
            &p,
        );
        assert_eq!(b.hard, Some(Duration::from_millis(495)));
        let b = Budget::from_limits(
            &Limits {
                infinite: true,
                ..Limits::default()
            },
            &p,
        );
        assert_eq!(
            b,
            Budget {
                soft: None,
                hard: None,
            }
        );
    }

    /// Over a grid of clocks, increments, moves to go and reserves, under the default
    /// parameters and under extreme ones: the hard limit never passes the time left over
    /// the reserve, the soft one never passes the hard one, and the stop decisions at a
    /// given elapsed time (no real clock) follow the limits.
    #[test]
    fn the_hard_limit_never_passes_the_time_left() {
        let ms = Duration::from_millis;
        let extreme = SearchParams {
            time_inc_share: 1.0,
            time_last_move_share: 1.0,
            time_max_share: 1.0,
            time_hard_factor: 10,
            time_soft_share: 1.0,
            moves_to_go_default: 1,
            ..SearchParams::default()
        };
        let mut checked = 0;
        for p in [SearchParams::default(), extreme] {
            for left in [0, 1, 10, 49, 50, 51, 120, 1_000, 10_000, 600_000] {
                for inc in [0, 1, 10, 100, 1_000, 5_000] {
                    for mtg in [None, Some(0), Some(1), Some(2), Some(10), Some(500)] {
                        for overhead in [None, Some(ms(0)), Some(ms(300))] {
                            for move_time in [None, Some(ms(0)), Some(ms(20))] {
                                let limits = Limits {
                                    time: Some(ms(left)),
                                    inc: ms(inc),
                                    moves_to_go: mtg,
                                    overhead,
                                    move_time,
                                    ..Limits::default()
                                };
                                let b = Budget::from_limits(&limits, &p);
                                let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                                let usable = ms(left).saturating_sub(overhead.unwrap_or(OVERHEAD));
                                let what = format!("{limits:?}: {b:?}");
                                assert!(hard <= usable, "{what}");
                                assert!(soft <= hard, "{what}");
                                if let Some(mt) = move_time {
                                    assert!(hard <= mt.max(ms(1)), "{what}");
                                }
                                // The stop decisions at fake elapsed times.
                                assert!(b.past_hard(hard) && b.past_soft(soft), "{what}");
                                assert!(b.past_hard(usable + ms(1)), "{what}");
                                if hard > Duration::ZERO {
                                    assert!(!b.past_hard(hard - Duration::from_nanos(1)));
                                }
                                if soft > Duration::ZERO {
                                    assert!(!b.past_soft(soft - Duration::from_nanos(1)));
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 10 * 6 * 6 * 3 * 3);
        // Without a limit, nothing stops the search.
        let none = Budget::from_limits(
            &Limits {
                infinite: true,
                time: Some(ms(10)),
                ..Limits::default()
            },
            &SearchParams::default(),
        );
        assert!(!none.past_hard(Duration::from_secs(1 << 30)) && !none.past_soft(ms(1 << 40)));
    }

    /// The time parameters are read: a larger soft share plans a later soft limit.
    #[test]
    fn the_time_parameters_are_applied() {
        let limits = Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let p = SearchParams::default();
        let mut q = p.clone();
        q.set("time_soft_share", 0.9).unwrap();
        q.set("moves_to_go_default", 20.0).unwrap();
        let (a, b) = (
            Budget::from_limits(&limits, &p),
            Budget::from_limits(&limits, &q),
        );
        assert!(b.soft.unwrap() > a.soft.unwrap());
        assert!(b.hard.unwrap() > a.hard.unwrap());
    }
}
