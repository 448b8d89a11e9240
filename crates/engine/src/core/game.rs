//! The game state: a position with its history, and the end-of-game rules R16-R19.
//!
//! `DrawCounts` holds the two counters that the draw rules need, and is what the search
//! carries along its lines: plies since the last capture or man move (R18) and, while the
//! material is three kings against one, the lone king's moves (R19).

use crate::core::movegen;
use crate::core::moves::Move;
use crate::core::notation::{self, NotationError};
use crate::core::position::Position;
use crate::core::rules::{
    FORTY_MOVE_PLIES, LONE_KING_MOVES, LONE_KING_STRONG_KINGS, LONE_KING_WEAK_KINGS,
    REPETITIONS_FOR_DRAW,
};
use crate::core::square::Color;
use std::fmt;

// The counters are small because the search copies them at every node: the 40-move count
// must reach its limit in a `u16` and the lone king's in a `u8` (both saturate beyond).
const _: () = assert!(FORTY_MOVE_PLIES <= u16::MAX as u32);
const _: () = assert!(LONE_KING_MOVES <= u8::MAX as u32);

/// The draw-rule counters of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DrawCounts {
    /// Plies in a row with neither a capture nor a man move (R18).
    pub quiet_king_plies: u16,
    /// Moves made by the lone king since the material became three kings against one (R19),
    /// or `None` when the material is anything else.
    pub lone_king_moves: Option<u8>,
}

/// If one side has exactly three kings and nothing else and the other exactly one king and
/// nothing else (R19), the side with the lone king.
pub fn lone_king_side(pos: &Position) -> Option<Color> {
    if pos.men().any() || pos.kings().count() != LONE_KING_STRONG_KINGS + LONE_KING_WEAK_KINGS {
        return None;
    }
    match (pos.white().count(), pos.black().count()) {
        (LONE_KING_STRONG_KINGS, LONE_KING_WEAK_KINGS) => Some(Color::Black),
        (LONE_KING_WEAK_KINGS, LONE_KING_STRONG_KINGS) => Some(Color::White),
        _ => None,
    }
}

impl DrawCounts {
    /// The counts at a position where counting starts afresh (a game's first position).
    pub fn fresh(pos: &Position) -> DrawCounts {
        DrawCounts {
            quiet_king_plies: 0,
            lone_king_moves: lone_king_side(pos).map(|_| 0),
        }
    }

    /// The counts after `mv` is played in `before`, giving `after`.
    #[inline]
    pub fn after(&self, before: &Position, mv: &Move, after: &Position) -> DrawCounts {
        let king_move = before.kings().contains(mv.from);
        let quiet_king_plies = if mv.is_capture() || !king_move {
            0
        } else {
            self.quiet_king_plies.saturating_add(1)
        };
        let lone_king_moves = match lone_king_side(after) {
            None => None,
            Some(lone) => {
                // Same material as before (a quiet king move): the count goes on. Otherwise
                // (a capture or a crowning made it three against one) it starts now.
                match self.lone_king_moves {
                    Some(n) if !mv.is_capture() && king_move => Some(if before.side() == lone {
                        n.saturating_add(1)
                    } else {
                        n
                    }),
                    _ => Some(0),
                }
            }
        };
        DrawCounts {
            quiet_king_plies,
            lone_king_moves,
        }
    }

    /// Does a count already force a draw (R18, R19)?
    #[inline]
    pub fn draw_reason(&self) -> Option<DrawReason> {
        if self
            .lone_king_moves
            .is_some_and(|n| u32::from(n) >= LONE_KING_MOVES)
        {
            Some(DrawReason::ThirteenMoveRule)
        } else if u32::from(self.quiet_king_plies) >= FORTY_MOVE_PLIES {
            Some(DrawReason::FortyMoveRule)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// R17.
    Repetition,
    /// R18.
    FortyMoveRule,
    /// R19.
    ThirteenMoveRule,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::FortyMoveRule => "40-move rule",
            DrawReason::ThirteenMoveRule => "13-move rule",
        })
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Ongoing,
    /// The winner; the loser has no legal move (R16).
    Win(Color),
    Draw(DrawReason),
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Ongoing => write!(f, "ongoing"),
            GameResult::Win(c) => write!(
                f,
                "{} wins: {} has no legal move",
                c.name(),
                c.flip().name()
            ),
            GameResult::Draw(r) => write!(f, "draw by {r}"),
        }
    }
}

/// A game: its first position, every move since, and the counts along the way.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    counts: Vec<DrawCounts>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from a position, with the counts starting there.
    pub fn new(start: Position) -> Game {
        Game::with_counts(start, DrawCounts::fresh(&start))
    }

    /// A game from a position whose counts are known (for example from a protocol message).
    pub fn with_counts(start: Position, counts: DrawCounts) -> Game {
        Game {
            positions: vec![start],
            counts: vec![counts],
            moves: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }
    pub fn counts(&self) -> DrawCounts {
        *self.counts.last().expect("a game has counts")
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Play a move that is known to be legal.
    pub fn play(&mut self, mv: &Move) {
        let before = *self.position();
        let after = before.play(mv);
        let counts = self.counts().after(&before, mv, &after);
        self.positions.push(after);
        self.counts.push(counts);
        self.moves.push(*mv);
    }

    /// Parse a move (Hub or PDN notation), check it is legal, and play it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, NotationError> {
        let mv = notation::parse_move(self.position(), text)?;
        self.play(&mv);
        Ok(mv)
    }

    /// Take back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counts.pop();
        Some(mv)
    }

    /// Keys of the positions since the last capture or man move, oldest first, the current
    /// position excluded: the only ones a later position can repeat.
    pub fn repetition_keys(&self) -> Vec<u64> {
        let n = self.counts().quiet_king_plies as usize;
        let len = self.positions.len();
        let first = len.saturating_sub(n + 1);
        self.positions[first..len - 1]
            .iter()
            .map(|p| p.key())
            .collect()
    }

    /// How many times the current position has stood on the board, this time included.
    pub fn occurrences(&self) -> usize {
        let cur = self.position();
        let n = self.counts().quiet_king_plies as usize;
        let len = self.positions.len();
        let first = len.saturating_sub(n + 1);
        self.positions[first..].iter().filter(|p| *p == cur).count()
    }

    /// The result in the current position. A side with no legal move has lost (R16), which is
    /// checked first: a move that leaves the opponent without a move wins even if it is the
    /// last one before a count runs out.
    pub fn result(&self) -> GameResult {
        let pos = self.position();
        if movegen::legal_moves(pos).is_empty() {
            return GameResult::Win(pos.side().flip());
        }
        if let Some(reason) = self.counts().draw_reason() {
            return GameResult::Draw(reason);
        }
        if self.occurrences() >= REPETITIONS_FOR_DRAW {
            return GameResult::Draw(DrawReason::Repetition);
        }
        GameResult::Ongoing
    }
}
