//! How late the engine's answers reach the client's clock, measured from the clock itself, so
//! the time kept in hand grows when the machine is loaded.
//!
//! The client charges a move from the moment it writes `go` to the moment it reads `done`.
//! The engine sees only its own part of that: from reading `go` to writing `done`. The rest
//! (pipes, and above all waiting for a core when several engines share a machine) is lag, and
//! under load it reaches 100 ms and more, while a fixed reserve of 50 ms lost games on time
//! at 0.2 s + 5 ms. The clock tells the engine what it was charged: it had `time + inc` when it
//! started its last move, and the next `time` is what the client left it. The difference,
//! less the engine's own time, is the lag of that move. The worst recent lag, with a margin,
//! becomes the reserve (`Limits::overhead`) of the next move; it decays, so one stall does not
//! slow the rest of the match.

use crate::search::time::OVERHEAD;
use std::time::Duration;

/// The reserve is this multiple of the worst recent lag (a stall can come on top of a stall).
const LAG_MARGIN: f64 = 1.5;
/// Each move, the remembered worst lag shrinks to this fraction before the new one is added.
const LAG_DECAY: f64 = 0.95;
/// A lag above this is no lag but a clock the client set anew (another game, another time
/// control); it is ignored.
const MAX_LAG: Duration = Duration::from_secs(2);

/// The clocked move in flight: what the engine had when it started, and, once it is done, how
/// long it took by its own measure.
#[derive(Clone, Copy, Debug)]
struct Move {
    had: Duration,
    took: Option<Duration>,
}

/// The lag seen on clocked moves, and the reserve that follows from it.
#[derive(Clone, Debug, Default)]
pub struct LagMeter {
    last: Option<Move>,
    /// The worst lag seen lately (decaying).
    worst: Duration,
}

impl LagMeter {
    pub fn new() -> LagMeter {
        LagMeter::default()
    }

    /// A `go` with the clock at `time` (before the increment is added) and increment `inc`,
    /// or with no clock (`None`: a move time, a depth, analysis or pondering). Learns the lag
    /// of the last clocked move from the clock, and returns the reserve for this one.
    pub fn go(&mut self, clock: Option<(Duration, Duration)>) -> Duration {
        if let (Some(last), Some((time, _))) = (self.last, clock) {
            if let Some(took) = last.took {
                self.worst = self.worst.mul_f64(LAG_DECAY);
                // A clock above what the engine had is a clock set anew: nothing to learn.
                if let Some(charged) = last.had.checked_sub(time) {
                    let lag = charged.saturating_sub(took);
                    if lag <= MAX_LAG {
                        self.worst = self.worst.max(lag);
                    }
                }
            }
        }
        self.last = clock.map(|(time, inc)| Move {
            had: time + inc,
            took: None,
        });
        self.reserve()
    }

    /// The move started by the last `go` ended after `took` by the engine's own clock.
    pub fn done(&mut self, took: Duration) {
        if let Some(last) = &mut self.last {
            last.took = Some(took);
        }
    }

    /// The time to keep in hand: the fixed overhead, or more when the lag says so.
    pub fn reserve(&self) -> Duration {
        OVERHEAD.max(self.worst.mul_f64(LAG_MARGIN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn without_lag_the_reserve_is_the_fixed_overhead() {
        let mut lag = LagMeter::new();
        // 1 s + 10 ms; each move takes 20 ms and the client charges exactly that.
        let mut time = ms(1000);
        for _ in 0..10 {
            assert_eq!(lag.go(Some((time, ms(10)))), OVERHEAD);
            lag.done(ms(20));
            time = time + ms(10) - ms(20);
        }
    }

    #[test]
    fn a_late_answer_raises_the_reserve_and_it_decays() {
        let mut lag = LagMeter::new();
        lag.go(Some((ms(200), ms(5))));
        lag.done(ms(3));
        // The client charged 3 ms of search and 100 ms of lag.
        let reserve = lag.go(Some((ms(205 - 103), ms(5))));
        assert_eq!(reserve, ms(150));
        lag.done(ms(3));
        // A move with no lag after it: the reserve shrinks, but stays above the overhead.
        let next = lag.go(Some((ms(107 - 3), ms(5))));
        assert!(next < reserve && next > OVERHEAD, "{next:?}");
        // Many quiet moves later it is back to the overhead.
        let mut time = ms(104);
        for _ in 0..100 {
            lag.done(ms(3));
            time = time + ms(5) - ms(3);
            lag.go(Some((time, ms(5))));
        }
        assert_eq!(lag.reserve(), OVERHEAD);
    }

    #[test]
    fn clocks_set_anew_and_unclocked_moves_teach_nothing() {
        let mut lag = LagMeter::new();
        lag.go(Some((ms(200), ms(5))));
        lag.done(ms(3));
        // A new game with a fresh clock: more than the engine had.
        assert_eq!(lag.go(Some((ms(60_000), ms(0)))), OVERHEAD);
        lag.done(ms(3));
        // A new, shorter time control: a "lag" of seconds is no lag.
        assert_eq!(lag.go(Some((ms(10_000), ms(0)))), OVERHEAD);
        // A move time in between: the next clocked move has nothing to compare with.
        lag.go(None);
        lag.done(ms(500));
        assert_eq!(lag.go(Some((ms(1000), ms(0)))), OVERHEAD);
        // A move stopped before it was done (no `done` recorded) teaches nothing either.
        assert_eq!(lag.go(Some((ms(100), ms(0)))), OVERHEAD);
    }
}
