//! `Position`: the pieces and the side to move, a small `Copy` value, with its Zobrist key
//! kept up to date by `play` (copy-make). Validation of a position built from parts lives
//! here too (docs/RULES.md R4).

use crate::core::bitboard::Bitboard;
use crate::core::moves::Move;
use crate::core::rules::{self, BOARD_SQUARES, FIRST_TO_MOVE, MAX_PIECES_PER_SIDE, START_MEN};
use crate::core::square::{Color, Square};
use crate::core::zobrist::{self, piece_row};
use std::fmt;

/// The pieces and the side to move. `play` makes a new position (copy-make).
///
/// ```
/// use poolshark_engine::core::{movegen, Bitboard, Color, Position, PositionError, Square};
/// let start = Position::start();
/// assert_eq!(start.side(), Color::Black);
/// assert_eq!((start.black().count(), start.white().count()), (12, 12));
/// assert_eq!(start.empty().count(), 8);
/// let moves = movegen::legal_moves(&start);
/// assert_eq!(moves.len(), 7);
/// let mv = *moves.iter().find(|m| m.hub() == "11-15").unwrap();
/// let next = start.play(&mv);
/// assert_eq!(next.side(), Color::White);
/// let sq = |n| Square::from_number(n).unwrap();
/// assert_eq!(next.piece_at(sq(15)), Some((Color::Black, false)));
/// assert_eq!(next.piece_at(sq(11)), None);
/// assert_eq!(start.piece_at(sq(11)), Some((Color::Black, false)), "start is unchanged");
/// // The key kept up to date by `play` is the one computed from scratch.
/// assert_eq!(next.key(), next.compute_key());
/// assert_ne!(next.key(), start.key());
/// // Parts that no game can reach are refused (docs/RULES.md R4).
/// let one = Bitboard::from_square(sq(1));
/// assert_eq!(
///     Position::new(one, one, Bitboard::EMPTY, Color::Black),
///     Err(PositionError::Overlap(sq(1)))
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Color,
    key: u64,
}

/// What makes a set of pieces an invalid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds a white and a black piece.
    Overlap(Square),
    /// A man on the row where it would have been crowned.
    ManOnCrowningRow(Color, Square),
    /// More than `rules::MAX_PIECES_PER_SIDE` pieces for one side.
    TooManyPieces(Color, u32),
    /// The side that is not to move has no pieces (the game ended a move ago).
    NoPiecesForWaitingSide(Color),
    /// A king marked on an empty square.
    KingOnEmptySquare(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(s) => {
                write!(f, "square {s} holds both a white and a black piece")
            }
            PositionError::ManOnCrowningRow(c, s) => {
                write!(
                    f,
                    "a {} man on square {s}, its crowning row",
                    c.name().to_lowercase()
                )
            }
            PositionError::TooManyPieces(c, n) => {
                write!(
                    f,
                    "{} has {n} pieces, more than {MAX_PIECES_PER_SIDE}",
                    c.name()
                )
            }
            PositionError::NoPiecesForWaitingSide(c) => {
                write!(f, "{} has no pieces but is not to move", c.name())
            }
            PositionError::KingOnEmptySquare(s) => write!(f, "a king on empty square {s}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The start (docs/RULES.md R3): Black men on 1-12, White men on 21-32, Black to move.
    pub fn start() -> Position {
        // Square n is bit n - 1: Black's men fill the low bits, White's the high ones.
        let first = Bitboard((1 << START_MEN) - 1);
        let last = Bitboard(first.0 << (BOARD_SQUARES as u32 - START_MEN));
        Position::new(last, first, Bitboard::EMPTY, FIRST_TO_MOVE)
            .expect("the start position is valid")
    }

    /// A position from its parts, checked against docs/RULES.md R4.
    pub fn new(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Position, PositionError> {
        if let Some(s) = (white & black).iter().next() {
            return Err(PositionError::Overlap(s));
        }
        if let Some(s) = (kings & !(white | black)).iter().next() {
            return Err(PositionError::KingOnEmptySquare(s));
        }
        if let Some(s) = (white & !kings & Bitboard::ROW_TOP).iter().next() {
            return Err(PositionError::ManOnCrowningRow(Color::White, s));
        }
        if let Some(s) = (black & !kings & Bitboard::ROW_BOTTOM).iter().next() {
            return Err(PositionError::ManOnCrowningRow(Color::Black, s));
        }
        for (c, set) in [(Color::White, white), (Color::Black, black)] {
            if set.count() > MAX_PIECES_PER_SIDE {
                return Err(PositionError::TooManyPieces(c, set.count()));
            }
        }
        let waiting = if side == Color::White { black } else { white };
        if waiting.is_empty() {
            return Err(PositionError::NoPiecesForWaitingSide(side.flip()));
        }
        Ok(Position::new_unchecked(white, black, kings, side))
    }

    /// A position from parts already known to be valid (for example, after a legal move).
    pub fn new_unchecked(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Position {
        let mut p = Position {
            white,
            black,
            kings,
            side,
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::set_key(zobrist::WHITE_MAN, self.white & !self.kings)
            ^ zobrist::set_key(zobrist::WHITE_KING, self.white & self.kings)
            ^ zobrist::set_key(zobrist::BLACK_MAN, self.black & !self.kings)
            ^ zobrist::set_key(zobrist::BLACK_KING, self.black & self.kings);
        if self.side == Color::Black {
            k ^= zobrist::BLACK_TO_MOVE;
        }
        k
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn white(&self) -> Bitboard {
        self.white
    }
    #[inline]
    pub fn black(&self) -> Bitboard {
        self.black
    }
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }
    #[inline]
    pub fn men(&self) -> Bitboard {
        (self.white | self.black) & !self.kings
    }
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    /// The side to move's pieces.
    #[inline]
    pub fn us(&self) -> Bitboard {
        self.pieces(self.side)
    }
    /// The opponent's pieces.
    #[inline]
    pub fn them(&self) -> Bitboard {
        self.pieces(self.side.flip())
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !(self.white | self.black)
    }

    /// The row where the side to move's men are crowned.
    #[inline]
    pub fn crowning_row(c: Color) -> Bitboard {
        match c {
            Color::White => Bitboard::ROW_TOP,
            Color::Black => Bitboard::ROW_BOTTOM,
        }
    }

    /// The position after `mv`, which must be legal here. Captured pieces leave together at
    /// the end (R13); a man is crowned only if it ends on its crowning row (R14).
    ///
    /// A move is applied in one step from its origin, destination and captured set, which is
    /// all the Turkish strike and crowning at the end need; the asserts name the rules a
    /// path-by-path application would be needed for.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        const _: () = assert!(rules::CAPTURED_REMOVED_AT_END, "captures leave one by one");
        const _: () = assert!(!rules::CROWNED_IN_PASSING, "a man crowned mid-capture");
        self.play_with::<true>(mv)
    }

    /// `play` without the Zobrist update, for counting (perft) where no key is read: the
    /// result's `key()` is stale, so it must not be stored or compared.
    #[inline]
    pub fn play_unhashed(&self, mv: &Move) -> Position {
        self.play_with::<false>(mv)
    }

    /// The one implementation of a move; `HASH` says whether to keep the key up to date.
    #[inline(always)]
    fn play_with<const HASH: bool>(&self, mv: &Move) -> Position {
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);
        let side = self.side;
        let them = side.flip();
        let was_king = self.kings.contains(mv.from);
        let crowned = !was_king && (to & Position::crowning_row(side)).any();

        let mut key = self.key;
        if HASH {
            key ^= zobrist::BLACK_TO_MOVE;
            key ^= zobrist::square_key(piece_row(side, was_king), mv.from);
            key ^= zobrist::square_key(piece_row(side, was_king || crowned), mv.to);
            let their_kings = mv.captured & self.kings;
            key ^= zobrist::set_key(piece_row(them, true), their_kings);
            key ^= zobrist::set_key(piece_row(them, false), mv.captured & !their_kings);
        }

        let moved = from ^ to; // empty when from == to
        let mut kings = self.kings & !mv.captured;
        if was_king {
            kings ^= moved;
        } else if crowned {
            kings |= to;
        }
        let (white, black) = match side {
            Color::White => (self.white ^ moved, self.black & !mv.captured),
            Color::Black => (self.white & !mv.captured, self.black ^ moved),
        };
        Position {
            white,
            black,
            kings,
            side: them,
            key,
        }
    }

    /// The piece on a square: (colour, is king), or None.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, bool)> {
        let king = self.kings.contains(sq);
        if self.white.contains(sq) {
            Some((Color::White, king))
        } else if self.black.contains(sq) {
            Some((Color::Black, king))
        } else {
            None
        }
    }

    /// The same position with the other side to move (for tests and analysis tools).
    pub fn with_side(&self, side: Color) -> Position {
        Position::new_unchecked(self.white, self.black, self.kings, side)
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::core::notation::write_fen(self))
    }
}
