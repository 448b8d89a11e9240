//! Who plays each side and the engine's level: what the page sets with `players` and
//! `level`, kept through new games and loads (a load makes both sides human).

use super::SessionError;
use crate::board::protocol::{Level, Limit, Player, MAX_DEPTH, MAX_MOVETIME};
use crate::core::Color;
use crate::search::level::PlayLevel;
use crate::search::Limits;
use std::time::Duration;

/// The engine's strength until the page sets one: a second a move, full strength.
pub const DEFAULT_LEVEL: Level = Level {
    limit: Limit::Movetime(1.0),
    level: None,
};

/// The players and the level.
#[derive(Clone, Copy, Debug)]
pub struct Roster {
    white: Player,
    black: Player,
    level: Level,
}

impl Roster {
    pub fn new(white: Player, black: Player, level: Level) -> Roster {
        Roster {
            white,
            black,
            level,
        }
    }

    pub fn player(&self, side: Color) -> Player {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub fn set_players(&mut self, white: Player, black: Player) {
        self.white = white;
        self.black = black;
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// The playing level of the engine's moves; None for full strength.
    pub fn play_level(&self) -> Option<PlayLevel> {
        self.level.level
    }

    /// Seconds per move or a depth (one of them), a playing level, or both. A limit
    /// without a level is full strength; a level alone keeps the limit in force. Level 0 is
    /// full strength.
    pub fn set_level(
        &mut self,
        movetime: Option<f64>,
        depth: Option<u32>,
        level: Option<u64>,
    ) -> Result<(), SessionError> {
        let limit = match (movetime, depth) {
            (Some(s), None) if s.is_finite() && s > 0.0 && s <= MAX_MOVETIME => Limit::Movetime(s),
            (Some(s), None) => return Err(SessionError::Movetime(s)),
            (None, Some(d)) if (1..=MAX_DEPTH).contains(&d) => Limit::Depth(d),
            (None, Some(d)) => return Err(SessionError::Depth(d)),
            (None, None) if level.is_some() => self.level.limit,
            _ => return Err(SessionError::LevelShape),
        };
        let level = match level {
            None | Some(0) => None,
            Some(n) => Some(PlayLevel::new(n).map_err(SessionError::PlayLevel)?),
        };
        self.level = Level { limit, level };
        Ok(())
    }

    /// The search limits for an engine move: `timed`, a timed game's clock limits with the
    /// search's own time management, where the clocks are in play (a depth level still caps
    /// the depth); else the level's.
    pub fn move_limits(&self, timed: Option<Limits>) -> Limits {
        if let Some(mut limits) = timed {
            if let Limit::Depth(d) = self.level.limit {
                limits.depth = Some(d);
            }
            return limits;
        }
        match self.level.limit {
            Limit::Movetime(s) => Limits {
                move_time: Some(Duration::from_secs_f64(s)),
                ..Limits::default()
            },
            Limit::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }
}
