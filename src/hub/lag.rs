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
//!
//! Only a clock drop that the engine's own move explains is lag: the `go` must come two plies
//! after the position of the last clocked move (its move and the reply), at the same
//! increment, with no more time than it had. Anything else (another game, another time
//! control, a position set up anew) teaches nothing, and a new time control or a `new-game`
//! ([`LagMeter::reset`]) forgets the lag seen so far: a client that set a shorter clock for the
//! next game once cost the engine seconds in hand and moves played at depth 1.

use poolshark_engine::core::{movegen, Position};
use poolshark_engine::search::time::OVERHEAD;
use std::time::Duration;

/// The reserve is this multiple of the worst recent lag (a stall can come on top of a stall).
const LAG_MARGIN: f64 = 1.5;
/// Each move, the remembered worst lag shrinks to this fraction before the new one is added.
const LAG_DECAY: f64 = 0.95;
/// A lag above this is no lag but a clock the client set anew (another game, another time
/// control); it is ignored.
const MAX_LAG: Duration = Duration::from_secs(2);

/// The clocked move in flight: the position it was asked about, what the engine had when it
/// started and at which increment, and, once it is done, how long it took by its own measure.
#[derive(Clone, Copy, Debug)]
struct Move {
    from: Position,
    had: Duration,
    inc: Duration,
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

    /// A `go` about `from` with the clock at `time` (before the increment is added) and
    /// increment `inc`, or with no clock (`None`: a move time, a depth, analysis or pondering).
    /// Learns the lag of the last clocked move from the clock, and returns the reserve for this
    /// one.
    pub fn go(&mut self, clock: Option<(Duration, Duration)>, from: &Position) -> Duration {
        if let (Some(last), Some((time, inc))) = (self.last, clock) {
            if inc != last.inc || time > last.had {
                // A new time control, or a clock set anew: the lag seen so far was measured
                // against another clock.
                self.worst = Duration::ZERO;
            } else if let Some(took) = last.took {
                self.worst = self.worst.mul_f64(LAG_DECAY);
                if two_plies_after(&last.from, from) {
                    let lag = (last.had - time).saturating_sub(took);
                    if lag <= MAX_LAG {
                        self.worst = self.worst.max(lag);
                    }
                }
            }
        }
        self.last = clock.map(|(time, inc)| Move {
            from: *from,
            had: time + inc,
            inc,
            took: None,
        });
        self.reserve()
    }

    /// Forget everything: a `new-game` says nothing before it bears on what follows.
    pub fn reset(&mut self) {
        *self = LagMeter::default();
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

/// Whether `after` is the position two plies (a move and its reply) after `before`.
fn two_plies_after(before: &Position, after: &Position) -> bool {
    movegen::legal_moves(before).iter().any(|m| {
        let reply = before.play(m);
        movegen::legal_moves(&reply)
            .iter()
            .any(|r| reply.play(r) == *after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The positions of one game, every second ply: those the engine is asked about when it
    /// plays one side. Each ply plays the first legal move.
    fn game(moves: usize) -> Vec<Position> {
        let mut pos = Position::start();
        let mut out = vec![pos];
        while out.len() < moves {
            for _ in 0..2 {
                let mv = movegen::legal_moves(&pos).iter().next().copied();
                pos = pos.play(&mv.expect("a legal move"));
            }
            out.push(pos);
        }
        out
    }

    #[test]
    fn without_lag_the_reserve_is_the_fixed_overhead() {
        let mut lag = LagMeter::new();
        // 1 s + 10 ms; each move takes 20 ms and the client charges exactly that.
        let mut time = ms(1000);
        for from in game(10) {
            assert_eq!(lag.go(Some((time, ms(10))), &from), OVERHEAD);
            lag.done(ms(20));
            time = time + ms(10) - ms(20);
        }
    }

    #[test]
    fn a_late_answer_raises_the_reserve_and_it_decays() {
        let line = game(12);
        let mut lag = LagMeter::new();
        lag.go(Some((ms(200), ms(5))), &line[0]);
        lag.done(ms(3));
        // The client charged 3 ms of search and 100 ms of lag.
        let reserve = lag.go(Some((ms(205 - 103), ms(5))), &line[1]);
        assert_eq!(reserve, ms(150));
        lag.done(ms(3));
        // A move with no lag after it: the reserve shrinks, but stays above the overhead.
        let next = lag.go(Some((ms(107 - 3), ms(5))), &line[2]);
        assert!(next < reserve && next > OVERHEAD, "{next:?}");
        // Many quiet moves later it is back to the overhead. (The reserve decays on every
        // clocked move, whether it teaches a lag or not, so the positions may repeat.)
        let mut time = ms(104);
        for from in line[3..].iter().cycle().take(100) {
            lag.done(ms(3));
            time = time + ms(5) - ms(3);
            lag.go(Some((time, ms(5))), from);
        }
        assert_eq!(lag.reserve(), OVERHEAD);
    }

    #[test]
    fn clocks_set_anew_and_unclocked_moves_teach_nothing() {
        let line = game(6);
        let mut lag = LagMeter::new();
        lag.go(Some((ms(200), ms(5))), &line[0]);
        lag.done(ms(3));
        // A new game with a fresh clock: more than the engine had.
        assert_eq!(lag.go(Some((ms(60_000), ms(0))), &line[1]), OVERHEAD);
        lag.done(ms(3));
        // A new, shorter time control: a "lag" of seconds is no lag.
        assert_eq!(lag.go(Some((ms(10_000), ms(0))), &line[2]), OVERHEAD);
        // A move time in between: the next clocked move has nothing to compare with.
        lag.go(None, &line[3]);
        lag.done(ms(500));
        assert_eq!(lag.go(Some((ms(1000), ms(0))), &line[4]), OVERHEAD);
        // A move stopped before it was done (no `done` recorded) teaches nothing either.
        assert_eq!(lag.go(Some((ms(100), ms(0))), &line[5]), OVERHEAD);
    }

    /// Issue 37, defect 3: a game at 4 s, then the next at 2.5 s, without a word between
    /// them. The start of the second game is no move of the engine's: its clock teaches
    /// nothing, and the engine keeps no seconds in hand.
    #[test]
    fn a_shorter_clock_in_the_next_game_is_no_lag() {
        let line = game(8);
        let mut lag = LagMeter::new();
        let mut time = ms(4000);
        for from in &line {
            lag.go(Some((time, ms(0))), from);
            lag.done(ms(100));
            time -= ms(100);
        }
        // The second game starts from the start position with 2.5 s.
        assert_eq!(lag.go(Some((ms(2500), ms(0))), &line[0]), OVERHEAD);
        lag.done(ms(100));
        assert_eq!(lag.go(Some((ms(2400), ms(0))), &line[1]), OVERHEAD);
    }

    /// A clock drop two plies later but of a position the engine's move does not lead to
    /// (the client set up another game in mid-stream) is no lag either.
    #[test]
    fn a_drop_without_the_engines_move_is_no_lag() {
        let line = game(4);
        let mut lag = LagMeter::new();
        lag.go(Some((ms(3000), ms(0))), &line[3]);
        lag.done(ms(10));
        assert_eq!(lag.go(Some((ms(1500), ms(0))), &line[1]), OVERHEAD);
    }

    /// `new-game` and a new time control forget the lag seen so far.
    #[test]
    fn new_game_and_new_level_reset_the_reserve() {
        let line = game(3);
        let lagged = || {
            let mut lag = LagMeter::new();
            lag.go(Some((ms(1000), ms(10))), &line[0]);
            lag.done(ms(10));
            assert_eq!(lag.go(Some((ms(1010 - 410), ms(10))), &line[1]), ms(600));
            lag.done(ms(10));
            lag
        };
        let mut lag = lagged();
        lag.reset();
        assert_eq!(lag.reserve(), OVERHEAD);
        assert_eq!(lag.go(Some((ms(500), ms(10))), &line[2]), OVERHEAD);
        // The same game goes on at another increment: a new level.
        let mut lag = lagged();
        assert_eq!(lag.go(Some((ms(500), ms(20))), &line[2]), OVERHEAD);
    }
}
