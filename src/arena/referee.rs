//! The referee: plays one game between two engine processes with the runner's own clock,
//! checks every move with the rules core, and ends the game by R16-R19 or by forfeit (an
//! illegal move, a crash, silence or a flag fall), recording why.

use crate::arena::client::{EngineError, EngineProcess};
use crate::core::game::GameResult;
use crate::core::notation::{parse_hub_move, write_hub_position};
use crate::core::{Color, Game, Move, Position};
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
    for e in engines.iter_mut() {
        let _ = e.new_game();
    }
    let end = |game: &Game, winner: Option<Color>, termination: String, forfeit: Option<Color>| {
        GameRecord {
            start,
            moves: game.moves().to_vec(),
            winner,
            termination,
            forfeit,
        }
    };
    loop {
        match game.result() {
            GameResult::Win(c) => {
                return end(
                    &game,
                    Some(c),
                    format!("{} has no legal move", c.flip().name()),
                    None,
                );
            }
            GameResult::Draw(r) => return end(&game, None, format!("draw by {r}"), None),
            GameResult::Ongoing => {}
        }
        let side = game.position().side();
        let i = side as usize;
        let tc = tcs[i];
        let (level, timeout) = match tc {
            TimeControl::Clock { inc, .. } => {
                clocks[i] += inc;
                (
                    format!(
                        "time={:.3} inc={:.3}",
                        clocks[i].as_secs_f64(),
                        inc.as_secs_f64()
                    ),
                    clocks[i] + Duration::from_millis(1000),
                )
            }
            TimeControl::MoveTime(t) => (
                format!("move-time={:.3}", t.as_secs_f64()),
                t * 3 + Duration::from_secs(2),
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
                let why = if matches!(tc, TimeControl::Clock { .. }) {
                    "lost on time"
                } else {
                    "did not answer"
                };
                return end(
                    &game,
                    Some(loser.flip()),
                    format!("{} {why}", loser.name()),
                    Some(loser),
                );
            }
            Err(e) => {
                return end(
                    &game,
                    Some(loser.flip()),
                    format!("{} forfeits: {e}", loser.name()),
                    Some(loser),
                )
            }
        };
        if let TimeControl::Clock { .. } = tc {
            if elapsed > clocks[i] {
                return end(
                    &game,
                    Some(loser.flip()),
                    format!("{} lost on time", loser.name()),
                    None,
                );
            }
            clocks[i] -= elapsed;
        }
        match parse_hub_move(game.position(), &text) {
            Ok(mv) => game.play(&mv),
            Err(e) => {
                return end(
                    &game,
                    Some(loser.flip()),
                    format!("{} played an illegal move {text}: {e}", loser.name()),
                    Some(loser),
                )
            }
        }
        if game.moves().len() > 5000 {
            return end(
                &game,
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
