//! A board game's chess clock: a time control (base + increment, checked), both sides' time
//! left, which clock runs, the flag, and each move's clock reading for the PDN (`[%clk]`).
//!
//! The clock reads no time by itself: every call that needs the time is given `now`, so the
//! session decides where the time comes from and a test moves it by hand. Its rules
//! (docs/BOARD.md, "Clocks"):
//! - the first move of the game starts the clocks: it takes no time and gets no increment,
//!   and from then on the side to move's clock runs;
//! - a move stops the mover's clock, adds the increment to it (Fischer) and starts the
//!   other side's;
//! - a clock that reaches zero before its side moves is a flag: the clock stops, for good;
//! - the game's end (a result by the rules, a flag) stops the clocks for good, and moves
//!   played after that are untimed.

use crate::core::Color;
use crate::search::Limits;
use crate::time_source::Instant;
use std::time::Duration;

/// The shortest base time a page may ask for, and the longest.
pub const MIN_BASE: f64 = 1.0;
pub const MAX_BASE: f64 = 10.0 * 3600.0;
/// The largest increment.
pub const MAX_INC: f64 = 600.0;
/// Clock readings in the PDN are cut to this (`[%clk 0:04:58.3]`): finer figures are noise
/// from the server's own latency.
const PDN_RESOLUTION: Duration = Duration::from_millis(100);

/// A time control: each side's time at the start and what each move adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub inc: Duration,
}

impl TimeControl {
    /// A control from seconds as the page sends them: a base from `MIN_BASE` to `MAX_BASE`
    /// and an increment from 0 to `MAX_INC`, both rounded to the millisecond.
    pub fn from_seconds(base: f64, inc: f64) -> Result<TimeControl, String> {
        if !(base.is_finite() && (MIN_BASE..=MAX_BASE).contains(&base)) {
            return Err(format!(
                "clock base {base} is not a number of seconds from {MIN_BASE} to {MAX_BASE}"
            ));
        }
        if !(inc.is_finite() && (0.0..=MAX_INC).contains(&inc)) {
            return Err(format!(
                "clock increment {inc} is not a number of seconds from 0 to {MAX_INC}"
            ));
        }
        let ms = |s: f64| Duration::from_millis((s * 1000.0).round() as u64);
        Ok(TimeControl {
            base: ms(base),
            inc: ms(inc),
        })
    }

    /// PDN's `TimeControl` tag, seconds + increment as PGN writes it: `300+3`.
    pub fn tag(&self) -> String {
        format!("{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

/// Which clock runs, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the first move: no clock runs.
    Waiting,
    /// `side`'s clock runs since `since`.
    Running { side: Color, since: Instant },
    /// The game has ended (or a flag fell): no clock runs again.
    Stopped,
}

/// Both sides' clocks in one game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Time left when each side's clock last stopped, indexed by `side_index`.
    left: [Duration; 2],
    phase: Phase,
    /// The side whose flag fell, if one did, and after how many timed moves.
    flag: Option<(Color, usize)>,
    /// The mover's clock after each timed move, in the order played: the first `times.len()`
    /// plies of the game's line.
    times: Vec<Duration>,
}

fn side_index(side: Color) -> usize {
    match side {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.base; 2],
            phase: Phase::Waiting,
            flag: None,
            times: Vec::new(),
        }
    }

    /// A game's clocks taken up again after `readings.len()` timed moves (the mover's clock
    /// after each, the first of the line first), `left` each side's time (Black's, White's)
    /// and `to_move`'s clock running from `now`; before the first move, none runs yet.
    pub fn resume(
        control: TimeControl,
        left: [Duration; 2],
        to_move: Color,
        readings: Vec<Duration>,
        now: Instant,
    ) -> Clock {
        let phase = if readings.is_empty() {
            Phase::Waiting
        } else {
            Phase::Running {
                side: to_move,
                since: now,
            }
        };
        Clock {
            control,
            left,
            phase,
            flag: None,
            times: readings,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// `side`'s time left at `now` (zero once its flag fell).
    pub fn left(&self, side: Color, now: Instant) -> Duration {
        let stored = self.left[side_index(side)];
        match self.phase {
            Phase::Running { side: s, since } if s == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// The side whose clock runs now, if one does.
    pub fn running(&self) -> Option<Color> {
        match self.phase {
            Phase::Running { side, .. } => Some(side),
            _ => None,
        }
    }

    /// Whether the clock is still in play: before the first move or running.
    pub fn is_live(&self) -> bool {
        self.phase != Phase::Stopped
    }

    /// The side that lost on time, if a flag fell, and after how many moves of the line
    /// (the clock counts from the game's first move).
    pub fn flag(&self) -> Option<(Color, usize)> {
        self.flag
    }

    /// When the running clock reaches zero, if one runs: the moment to check the flag.
    pub fn flag_at(&self) -> Option<Instant> {
        match self.phase {
            Phase::Running { side, since } => Some(since + self.left[side_index(side)]),
            _ => None,
        }
    }

    /// Let the flag fall if the running clock has reached zero at `now`. Returns the side
    /// that lost on time (now or before).
    pub fn check_flag(&mut self, now: Instant) -> Option<Color> {
        if let Phase::Running { side, .. } = self.phase {
            if self.left(side, now).is_zero() {
                self.left[side_index(side)] = Duration::ZERO;
                self.phase = Phase::Stopped;
                self.flag = Some((side, self.times.len()));
            }
        }
        self.flag.map(|(side, _)| side)
    }

    /// `side` has moved at `now`: its clock stops, gets the increment, and the other side's
    /// starts. The mover's clock after the move is recorded and returned. Err with the side
    /// whose flag fell if `side`'s time ran out before the move (the move does not count).
    /// A move after the clocks stopped for good is untimed: Ok(None).
    pub fn moved(&mut self, side: Color, now: Instant) -> Result<Option<Duration>, Color> {
        if let Some(loser) = self.check_flag(now) {
            return Err(loser);
        }
        let i = side_index(side);
        match self.phase {
            Phase::Stopped => return Ok(None),
            Phase::Waiting => {}
            Phase::Running { since, .. } => {
                // The side to move is the one whose clock runs; a move by the other side
                // (never, through the session) is charged nothing.
                if self.running() == Some(side) {
                    self.left[i] =
                        self.left[i].saturating_sub(now.saturating_duration_since(since));
                }
                self.left[i] += self.control.inc;
            }
        }
        self.phase = Phase::Running {
            side: side.flip(),
            since: now,
        };
        let after = self.left[i];
        self.times.push(after);
        Ok(Some(after))
    }

    /// The game ended at `now` (by the rules): the running clock is charged and stopped,
    /// for good.
    pub fn stop(&mut self, now: Instant) {
        if let Phase::Running { side, since } = self.phase {
            let i = side_index(side);
            self.left[i] = self.left[i].saturating_sub(now.saturating_duration_since(since));
        }
        self.phase = Phase::Stopped;
    }

    /// The mover's clock after each timed move, from the first move: for `[%clk]`, cut to
    /// `PDN_RESOLUTION`.
    pub fn times(&self) -> Vec<Duration> {
        let step = PDN_RESOLUTION.as_nanos();
        self.times
            .iter()
            .map(|t| Duration::from_nanos((t.as_nanos() / step * step) as u64))
            .collect()
    }

    /// Forget the readings past the first `plies` moves (the line was cut there), and a
    /// flag that fell after them: that game is no longer the line.
    pub fn truncate(&mut self, plies: usize) {
        self.times.truncate(plies);
        if self.flag.is_some_and(|(_, at)| plies < at) {
            self.flag = None;
        }
    }

    /// The search limits for `side`'s move at `now`: its time left and the increment, for
    /// the search's own time management (`search::time`), as the Hub passes a clock.
    pub fn limits(&self, side: Color, now: Instant) -> Limits {
        Limits {
            time: Some(self.left(side, now)),
            inc: self.control.inc,
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pdn::notes::clock_text;
    use crate::search::params::SearchParams;
    use crate::search::time::Budget;

    const S: fn(u64) -> Duration = Duration::from_secs;
    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn five_three() -> TimeControl {
        TimeControl::from_seconds(300.0, 3.0).unwrap()
    }

    #[test]
    fn controls_are_checked() {
        assert_eq!(five_three().base, S(300));
        assert_eq!(five_three().tag(), "300+3");
        assert_eq!(TimeControl::from_seconds(2.0, 0.5).unwrap().tag(), "2+0.5");
        for (base, inc) in [
            (0.0, 0.0),
            (0.5, 0.0),
            (-60.0, 1.0),
            (f64::NAN, 1.0),
            (f64::INFINITY, 0.0),
            (MAX_BASE + 1.0, 0.0),
            (60.0, -1.0),
            (60.0, f64::NAN),
            (60.0, MAX_INC + 1.0),
        ] {
            let e = TimeControl::from_seconds(base, inc).unwrap_err();
            assert!(e.starts_with("clock "), "{e}");
        }
    }

    #[test]
    fn the_first_move_starts_the_clocks_and_each_move_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(five_three());
        assert_eq!(c.running(), None);
        assert_eq!(c.flag_at(), None);
        // Black thinks 10 s over the first move: untimed, no increment.
        assert_eq!(c.moved(Color::Black, t0 + S(10)), Ok(Some(S(300))));
        assert_eq!(c.running(), Some(Color::White));
        assert_eq!(c.left(Color::White, t0 + S(14)), S(296));
        assert_eq!(c.left(Color::Black, t0 + S(14)), S(300));
        // White: 4 s used, 3 s back.
        assert_eq!(c.moved(Color::White, t0 + S(14)), Ok(Some(S(299))));
        // Black: 20.5 s used.
        assert_eq!(
            c.moved(Color::Black, t0 + S(34) + MS(500)),
            Ok(Some(MS(282_500)))
        );
        assert_eq!(c.flag_at(), Some(t0 + S(34) + MS(500) + S(299)));
        assert_eq!(c.times(), [S(300), S(299), MS(282_500)]);
        c.truncate(1);
        assert_eq!(c.times(), [S(300)]);
    }

    #[test]
    fn readings_for_the_pdn_are_cut_to_tenths() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::from_seconds(60.0, 0.0).unwrap());
        c.moved(Color::Black, t0).unwrap();
        c.moved(Color::White, t0 + MS(1_234)).unwrap();
        assert_eq!(c.times()[1], MS(58_700));
        assert_eq!(clock_text(c.times()[1]), "0:00:58.7");
    }

    #[test]
    fn a_flag_falls_at_zero_and_stops_the_clocks() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl::from_seconds(2.0, 0.0).unwrap());
        c.moved(Color::Black, t0).unwrap();
        let at = c.flag_at().unwrap();
        assert_eq!(at, t0 + S(2));
        assert_eq!(c.check_flag(at - MS(1)), None);
        assert_eq!(c.left(Color::White, at - MS(1)), MS(1));
        assert_eq!(c.check_flag(at), Some(Color::White));
        assert_eq!(c.left(Color::White, at + S(5)), Duration::ZERO);
        assert_eq!(c.running(), None);
        assert!(!c.is_live());
        // A move that comes after the flag is not counted.
        let mut late = Clock::new(TimeControl::from_seconds(2.0, 0.0).unwrap());
        late.moved(Color::Black, t0).unwrap();
        assert_eq!(late.moved(Color::White, t0 + S(3)), Err(Color::White));
        assert_eq!(late.times().len(), 1);
        assert_eq!(late.flag(), Some((Color::White, 1)));
        late.truncate(1);
        assert_eq!(late.flag(), Some((Color::White, 1)));
        late.truncate(0);
        assert_eq!(late.flag(), None, "the flagged line was cut");
    }

    #[test]
    fn the_end_of_the_game_stops_the_clocks_for_good() {
        let t0 = Instant::now();
        let mut c = Clock::new(five_three());
        c.moved(Color::Black, t0).unwrap();
        c.stop(t0 + S(7));
        assert_eq!(c.left(Color::White, t0 + S(100)), S(293));
        assert_eq!(c.check_flag(t0 + S(1000)), None);
        assert_eq!(c.moved(Color::White, t0 + S(1000)), Ok(None));
        assert_eq!(c.times().len(), 1);
    }

    /// The engine's search on a board clock gets the Hub's clock limits, and the search's
    /// own time management plans well inside the time left, whatever the clock shows.
    #[test]
    fn the_engine_budget_stays_inside_its_clock() {
        let t0 = Instant::now();
        let p = SearchParams::default();
        for (base, inc) in [(2.0, 0.0), (60.0, 1.0), (300.0, 3.0), (900.0, 10.0)] {
            let mut c = Clock::new(TimeControl::from_seconds(base, inc).unwrap());
            c.moved(Color::Black, t0).unwrap();
            for used in [0.0, 0.5, 0.9] {
                let now = t0 + Duration::from_secs_f64(base * used);
                let limits = c.limits(Color::White, now);
                let left = c.left(Color::White, now);
                assert_eq!(limits.time, Some(left));
                assert_eq!(limits.inc, c.control().inc);
                let b = Budget::from_limits(&limits, &p);
                let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                assert!(hard > Duration::ZERO, "{base}+{inc} at {used}");
                assert!(hard < left, "{base}+{inc} at {used}: {hard:?} of {left:?}");
                assert!(soft <= hard);
            }
        }
    }
}
