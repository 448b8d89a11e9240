//! The referee: plays one game between two engine processes with the runner's own clock,
//! checks every move with the rules core, and ends the game by R16-R19 or by forfeit (an
//! illegal move, a crash, silence or a flag fall), recording why and how long each move took.

use crate::arena::client::{EngineError, EngineProcess, NEW_GAME_TIMEOUT};
use poolshark_engine::core::game::GameResult;
use poolshark_engine::core::notation::{parse_hub_move, write_hub_position};
use poolshark_engine::core::{Color, Game, Move, Position};
use std::time::Duration;

/// How the engines are limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Base time and increment (added before each move).
    Clock {
        base: Duration,
        inc: Duration,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

impl TimeControl {
    /// `10+0.1` (seconds + increment) or `10`.
    pub fn parse_clock(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let num = |t: &str| -> Result<f64, String> {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
                .ok_or_else(|| format!("'{s}' is not a time control like 10+0.1"))
        };
        let (b, i) = (num(base)?, num(inc)?);
        if b <= 0.0 {
            return Err(format!("'{s}': the base time must be positive"));
        }
        Ok(TimeControl::Clock {
            base: Duration::from_secs_f64(b),
            inc: Duration::from_secs_f64(i),
        })
    }
}

/// The fixed part of the margin a move may take past `--movetime` before it is lost on time.
pub const MOVE_TIME_GRACE: Duration = Duration::from_millis(250);
/// The part of the margin that grows with the move time: a quarter of it.
pub const MOVE_TIME_GRACE_DIVISOR: u32 = 4;

/// The longest a move may take under a fixed move time `t`: `t + t/4 + 0.25 s`. The margin
/// covers process start-up, pipes and a loaded machine, not a search that ignores `t`.
pub fn move_time_allowed(t: Duration) -> Duration {
    t + t / MOVE_TIME_GRACE_DIVISOR + MOVE_TIME_GRACE
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start: Position,
    pub moves: Vec<Move>,
    /// None for a draw.
    pub winner: Option<Color>,
    pub termination: String,
    /// Whether an engine lost by forfeit rather than on the board (the runner restarts it).
    pub forfeit: Option<Color>,
    /// The engine of this colour could not search (`EngineError::SearchFailed`): the game
    /// is not scored, and the runner stops the match (`termination` says why).
    pub failed: Option<Color>,
    /// The time each move in `moves` took, from `go` to `done` as the runner saw it.
    pub times: Vec<Duration>,
}

/// Play one game. `engines[0]` plays White, `engines[1]` Black, each under its own time
/// control in `tcs` (same order). `move_timeout` bounds the wait for a move when a time
/// control has no clock.
pub fn play_game(
    engines: [&mut EngineProcess; 2],
    start: Position,
    tcs: [TimeControl; 2],
    move_timeout: Duration,
) -> GameRecord {
    let [white, black] = engines;
    let mut engines = [white, black];
    let mut game = Game::new(start);
    let mut clocks = [Duration::ZERO; 2];
    for (clock, tc) in clocks.iter_mut().zip(tcs) {
        if let TimeControl::Clock { base, .. } = tc {
            *clock = base;
        }
    }
    let hub_start = write_hub_position(&start);
    let mut times = Vec::new();
    let end = |game: &Game,
               times: Vec<Duration>,
               winner: Option<Color>,
               termination: String,
               forfeit: Option<Color>| GameRecord {
        start,
        moves: game.moves().to_vec(),
        winner,
        termination,
        forfeit,
        failed: None,
        times,
    };
    // Each engine confirms `new-game` with a `pong` before any clock runs.
    for (side, e) in [Color::White, Color::Black]
        .into_iter()
        .zip(engines.iter_mut())
    {
        if let Err(e) = e.new_game(NEW_GAME_TIMEOUT) {
            return end(
                &game,
                times,
                Some(side.flip()),
                format!("{} forfeits: {e}", side.name()),
                Some(side),
            );
        }
    }
    loop {
        match game.result() {
            GameResult::Win(c) => {
                return end(
                    &game,
                    times,
                    Some(c),
                    format!("{} has no legal move", c.flip().name()),
                    None,
                );
            }
            GameResult::Draw(r) => return end(&game, times, None, format!("draw by {r}"), None),
            GameResult::Ongoing => {}
        }
        let side = game.position().side();
        let i = side as usize;
        let tc = tcs[i];
        let (level, timeout) = match tc {
            TimeControl::Clock { inc, .. } => {
                // The Hub's `time` is the clock before this move's increment, which the
                // engine adds itself (docs/PROTOCOL.md); sending it after would count the
                // increment twice.
                let level = format!(
                    "time={:.3} inc={:.3}",
                    clocks[i].as_secs_f64(),
                    inc.as_secs_f64()
                );
                clocks[i] += inc;
                (level, clocks[i] + Duration::from_millis(1000))
            }
            TimeControl::MoveTime(t) => (
                format!("move-time={:.3}", t.as_secs_f64()),
                move_time_allowed(t),
            ),
            TimeControl::Depth(d) => (format!("depth={d}"), move_timeout),
            TimeControl::Nodes(n) => (format!("nodes={n}"), move_timeout),
        };
        let history: Vec<String> = game.moves().iter().map(|m| m.hub()).collect();
        let reply = engines[i].think(&hub_start, &history.join(" "), &level, timeout);
        let loser = side;
        let (text, elapsed) = match reply {
            Ok(r) => r,
            Err(EngineError::Timeout(_)) => {
                let why = match tc {
                    TimeControl::Clock { .. } => "lost on time".to_string(),
                    TimeControl::MoveTime(t) => format!(
                        "lost on time (no move within {:.3} s, move time {:.3} s)",
                        timeout.as_secs_f64(),
                        t.as_secs_f64()
                    ),
                    _ => "did not answer".to_string(),
                };
                return end(
                    &game,
                    times,
                    Some(loser.flip()),
                    format!("{} {why}", loser.name()),
                    Some(loser),
                );
            }
            Err(e @ EngineError::SearchFailed(_)) => {
                return GameRecord {
                    failed: Some(loser),
                    ..end(
                        &game,
                        times,
                        None,
                        format!("{} could not search: {e}", loser.name()),
                        None,
                    )
                };
            }
            Err(e) => {
                return end(
                    &game,
                    times,
                    Some(loser.flip()),
                    format!("{} forfeits: {e}", loser.name()),
                    Some(loser),
                )
            }
        };
        match tc {
            TimeControl::Clock { .. } if elapsed > clocks[i] => {
                return end(
                    &game,
                    times,
                    Some(loser.flip()),
                    format!("{} lost on time", loser.name()),
                    None,
                );
            }
            TimeControl::Clock { .. } => clocks[i] -= elapsed,
            TimeControl::MoveTime(t) if elapsed > timeout => {
                return end(
                    &game,
                    times,
                    Some(loser.flip()),
                    format!(
                        "{} lost on time ({:.3} s for a move, move time {:.3} s, limit {:.3} s)",
                        loser.name(),
                        elapsed.as_secs_f64(),
                        t.as_secs_f64(),
                        timeout.as_secs_f64()
                    ),
                    None,
                );
            }
            _ => {}
        }
        match parse_hub_move(game.position(), &text) {
            Ok(mv) => {
                game.play(&mv);
                times.push(elapsed);
            }
            Err(e) => {
                return end(
                    &game,
                    times,
                    Some(loser.flip()),
                    format!("{} played an illegal move {text}: {e}", loser.name()),
                    Some(loser),
                )
            }
        }
        if game.moves().len() > 5000 {
            return end(
                &game,
                times,
                None,
                "adjudicated a draw after 5000 plies".into(),
                None,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_clocks() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            })
        );
        assert!(TimeControl::parse_clock("abc").is_err());
        assert!(TimeControl::parse_clock("0+1").is_err());
        assert!(TimeControl::parse_clock("-5").is_err());
    }
}
