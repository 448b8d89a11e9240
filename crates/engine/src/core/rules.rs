//! The rules of American pool checkers as data: one constant per rule, each tagged with the
//! rule id of `docs/RULES.md` that it states.
//!
//! Where draughts variants differ (dctl describes each as a set of switches like these), pool
//! makes the choices below. The move generator implements these choices only, so the
//! switches are not read at run time: `movegen` and `position` assert them at compile time,
//! and a change here stops the build at the code that would have to change with it. The
//! numbers are used wherever the rules' numbers appear (`position`, `game`, the search).

use crate::core::square::Color;

/// R1: the 8x8 board is played on its 32 dark squares, one bit each of a `u32` bitboard.
pub const BOARD_SQUARES: usize = 32;

/// R3: Black makes the first move of a game.
pub const FIRST_TO_MOVE: Color = Color::Black;

/// R3: each side starts with this many men, Black's on the first squares (1-12), White's on
/// the last (21-32).
pub const START_MEN: u32 = 12;

/// R4: a position with more pieces than this for one side is invalid.
pub const MAX_PIECES_PER_SIDE: u32 = 12;

/// R7, R10: kings fly: they move and capture along a whole diagonal, not one square.
pub const KINGS_FLY: bool = true;

/// R8: if a capture exists, the side to move must capture.
pub const CAPTURE_IS_MANDATORY: bool = true;

/// R8: among captures the choice is free. No majority rule (the longest capture is not
/// required) and no king precedence.
pub const MAJORITY_CAPTURE: bool = false;

/// R9: men capture backward as well as forward (they move only forward, R6).
pub const MEN_CAPTURE_BACKWARD: bool = true;

/// R11: a capture goes on while the capturing piece can jump again.
pub const CAPTURE_TO_THE_END: bool = true;

/// R12: a flying king that jumps must land where it can jump on, if such a square exists.
pub const KING_LANDS_TO_CONTINUE: bool = true;

/// R13, the Turkish strike: captured pieces stay on the board, blocking, until the move is
/// complete, and then all leave together.
pub const CAPTURED_REMOVED_AT_END: bool = true;

/// R14: a man that reaches the far row during a capture and can jump on goes on as a man;
/// it is crowned only if its move ends on the far row (no crowning in passing).
pub const CROWNED_IN_PASSING: bool = false;

/// R15: two jump paths with the same origin, destination and captured set are one move.
pub const DUPLICATE_PATHS_MERGED: bool = true;

/// R17: the game is drawn when a position stands on the board for this many times.
pub const REPETITIONS_FOR_DRAW: usize = 3;

/// R18: moves by each side in a row without a capture or a man move that draw the game...
pub const FORTY_MOVES: u32 = 40;
/// ...counted in plies, as the game and the search count them.
pub const FORTY_MOVE_PLIES: u32 = 2 * FORTY_MOVES;

/// R19: the lone king's moves that draw three kings against one once it has made them.
pub const LONE_KING_MOVES: u32 = 13;
/// R19: the count runs while one side has exactly this many kings and nothing else...
pub const LONE_KING_STRONG_KINGS: u32 = 3;
/// ...and the other side a single king and nothing else.
pub const LONE_KING_WEAK_KINGS: u32 = 1;

// The square numbering (R2) is a bit index into a `u32` bitboard.
const _: () = assert!(BOARD_SQUARES == u32::BITS as usize);
// The start position fits the board with rows to spare and is itself valid (R3, R4).
const _: () = assert!(2 * START_MEN < BOARD_SQUARES as u32);
const _: () = assert!(START_MEN <= MAX_PIECES_PER_SIDE);
