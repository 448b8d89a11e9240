//! A session's timed game: its clocks (`clock::Clock`, none in an untimed game), the time
//! source they read (`Now`), and the flag: the side that lost on time and the node where
//! its flag fell. The session tells it when a move is played or the game ends; it knows
//! nothing of the tree but the node of the flag.

// The session's `Instant`, whichever clock it reads.
use super::{Instant, Now, SessionError};
use crate::board::clock::{Clock, TimeControl};
use crate::board::protocol::{ClockState, Player};
use crate::board::view::color_name;
use crate::core::tree::NodeId;
use crate::core::Color;
use crate::search::Limits;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone)]
pub struct TimedGame {
    clock: Option<Clock>,
    flag: Option<(Color, NodeId)>,
    now: Now,
}

impl TimedGame {
    /// An untimed game whose clocks, once it is timed, read the time from `now`.
    pub fn new(now: Now) -> TimedGame {
        TimedGame {
            clock: None,
            flag: None,
            now,
        }
    }

    /// Where the clocks read the time.
    pub fn time_source(&self) -> Now {
        Arc::clone(&self.now)
    }

    /// A new game, timed with `control` if given.
    pub fn restart(&mut self, control: Option<TimeControl>) {
        self.clock = control.map(Clock::new);
        self.flag = None;
    }

    /// A timed game taken up again (`Clock::resume`), its clock reading the time from now.
    pub fn resume(
        &mut self,
        control: TimeControl,
        left: [Duration; 2],
        to_move: Color,
        readings: Vec<Duration>,
    ) {
        let now = (self.now)();
        self.clock = Some(Clock::resume(control, left, to_move, readings, now));
        self.flag = None;
    }

    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The side that lost on time and the node where its flag fell, if one did.
    pub fn flag(&self) -> Option<(Color, NodeId)> {
        self.flag
    }

    /// The search limits for `side`'s move while the clocks are in play (its time left and
    /// the increment), else None.
    pub fn limits(&self, side: Color) -> Option<Limits> {
        let c = self.clock.as_ref().filter(|c| c.is_live())?;
        Some(c.limits(side, (self.now)()))
    }

    /// Whether the game's clocks are live (a timed game not yet over).
    pub fn is_live(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.is_live())
    }

    /// Refuse to walk the game while its clock is live: a timed game has no take-backs.
    pub fn walk_allowed(&self) -> Result<(), SessionError> {
        match &self.clock {
            Some(c) if c.is_live() => Err(SessionError::TimedGame),
            _ => Ok(()),
        }
    }

    /// Refuse the engine's move for a side a person plays (`mover`) while the clocks are
    /// live: it would be the person's move, found on their clock by the engine.
    pub fn engine_move_allowed(&self, mover: Player) -> Result<(), SessionError> {
        if self.is_live() && mover == Player::Human {
            return Err(SessionError::TimedEngineMove);
        }
        Ok(())
    }

    /// Refuse to turn analysis on while the clocks are live (turning it off is always
    /// allowed): it would search on the players' clocks. The board turns it off when a
    /// timed game begins.
    /// A review (`what`: "review", "find a better move") only once the clocks stop: it
    /// scores the positions and draws the best line, which is analysis.
    pub fn review_allowed(&self, what: &'static str) -> Result<(), SessionError> {
        if self.is_live() {
            return Err(SessionError::TimedReview(what));
        }
        Ok(())
    }

    pub fn analysis_allowed(&self, on: bool) -> Result<(), SessionError> {
        if on && self.is_live() {
            return Err(SessionError::TimedAnalysis);
        }
        Ok(())
    }

    /// Let the flag fall if the running clock has reached zero, at node `at` (the position
    /// shown). True if it fell now.
    pub fn check_flag(&mut self, at: NodeId) -> bool {
        let now = (self.now)();
        let fell = match &mut self.clock {
            Some(c) if c.flag().is_none() => c.check_flag(now),
            _ => None,
        };
        if let Some(loser) = fell {
            self.flag = Some((loser, at));
        }
        fell.is_some()
    }

    /// When the running clock reaches zero, if one runs.
    pub fn flag_at(&self) -> Option<Instant> {
        self.clock.as_ref().and_then(Clock::flag_at)
    }

    /// The game has ended by the rules: the clocks stop for good.
    pub fn stop(&mut self) {
        let now = (self.now)();
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
    }

    /// `side` has moved: the mover's clock after the move, for its notes (`[%clk]`), where
    /// the move was timed.
    pub fn moved(&mut self, side: Color) -> Option<Duration> {
        let now = (self.now)();
        let c = self.clock.as_mut()?;
        // The flag was checked just before the move, so this cannot fail but for a clock
        // stepped past zero in between; the move stands, as the check allowed it.
        match c.moved(side, now) {
            Ok(Some(_)) => c.times().last().copied(),
            _ => None,
        }
    }

    /// Forget a flag whose node is gone (`exists` says which nodes are left).
    pub fn keep_flag_if(&mut self, exists: impl Fn(NodeId) -> bool) {
        if self.flag.is_some_and(|(_, at)| !exists(at)) {
            self.flag = None;
        }
    }

    /// The clocks for the `state` message.
    pub fn state(&self) -> Option<ClockState> {
        let c = self.clock.as_ref()?;
        let now = (self.now)();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Some(ClockState {
            black_ms: ms(c.left(Color::Black, now)),
            white_ms: ms(c.left(Color::White, now)),
            running: c.running().map(color_name),
            live: c.is_live(),
            base_ms: ms(c.control().base),
            inc_ms: ms(c.control().inc),
        })
    }
}
