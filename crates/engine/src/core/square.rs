//! `Square` (one of the 32 playable squares), `Direction` and `Color`, with the board geometry:
//! rows, files, algebraic names, neighbours and the diagonal rays the king tables use.

use std::fmt;

/// A playable square, stored as its bit index 0..32 (square number minus one, docs/RULES.md R2).
///
/// ```
/// use poolshark_engine::core::{Direction, Square};
/// let sq = Square::from_number(11).unwrap();
/// assert_eq!(sq.index(), 10);
/// assert_eq!((sq.row(), sq.file()), (2, 5));
/// assert_eq!(sq.algebraic(), "f6");
/// assert_eq!(sq.to_string(), "11");
/// // One step toward rank 1 and file a: Black's 11-15.
/// assert_eq!(sq.neighbour(Direction::SW), Square::from_number(15));
/// // Square 1 is on White's far edge: nothing lies beyond it.
/// assert_eq!(Square::from_number(1).unwrap().neighbour(Direction::NE), None);
/// assert_eq!(Square::from_number(32).unwrap().algebraic(), "g1");
/// assert_eq!(Square::from_number(0), None);
/// assert_eq!(Square::from_number(33), None);
/// assert_eq!(Square::all().count(), Square::COUNT);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = crate::core::rules::BOARD_SQUARES;

    /// From a bit index 0..32.
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 32);
        Square(index)
    }
    /// From a square number 1..=32, as written in FEN and move text.
    pub const fn from_number(n: u8) -> Option<Square> {
        if n >= 1 && n <= 32 {
            Some(Square(n - 1))
        } else {
            None
        }
    }
    /// The bit index, 0..32.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square number, 1..=32.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
    /// Row from White's far side: 0 is rank 8, 7 is rank 1.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }
    /// File 0..8, a..h.
    #[inline]
    pub const fn file(self) -> u8 {
        let c = self.0 % 4;
        if self.row().is_multiple_of(2) {
            2 * c + 1
        } else {
            2 * c
        }
    }
    /// The square at a row and file, if it is a playable (dark) square on the board.
    pub const fn from_row_file(row: i32, file: i32) -> Option<Square> {
        if row < 0 || row > 7 || file < 0 || file > 7 || (row + file) % 2 == 0 {
            return None;
        }
        Some(Square((row * 4 + file / 2) as u8))
    }
    /// The adjacent square in a direction, if any.
    pub const fn neighbour(self, dir: Direction) -> Option<Square> {
        let (dr, df) = dir.delta();
        Square::from_row_file(self.row() as i32 + dr, self.file() as i32 + df)
    }
    /// All 32 squares in ascending order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32u8).map(Square)
    }
    /// Algebraic name, e.g. `b8` for square 1.
    pub fn algebraic(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, 8 - self.row())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The four diagonal directions, seen from White's side (north is toward rank 8).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    NW = 0,
    NE = 1,
    SW = 2,
    SE = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [Direction::NW, Direction::NE, Direction::SW, Direction::SE];

    /// (row delta, file delta).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::NW => (-1, -1),
            Direction::NE => (-1, 1),
            Direction::SW => (1, -1),
            Direction::SE => (1, 1),
        }
    }
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NW => Direction::SE,
            Direction::NE => Direction::SW,
            Direction::SW => Direction::NE,
            Direction::SE => Direction::NW,
        }
    }
}

/// A side. Black moves first (docs/RULES.md R3).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// The letter used in FEN and Hub text.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_rules_r2() {
        let name = |n: u8| Square::from_number(n).unwrap().algebraic();
        assert_eq!(name(1), "b8");
        assert_eq!(name(4), "h8");
        assert_eq!(name(5), "a7");
        assert_eq!(name(29), "a1");
        assert_eq!(name(32), "g1");
        assert!(Square::from_number(0).is_none());
        assert!(Square::from_number(33).is_none());
        for sq in Square::all() {
            assert_eq!(
                Square::from_row_file(sq.row() as i32, sq.file() as i32),
                Some(sq)
            );
        }
    }

    #[test]
    fn neighbours_are_mutual() {
        for sq in Square::all() {
            for d in Direction::ALL {
                if let Some(n) = sq.neighbour(d) {
                    assert_eq!(n.neighbour(d.opposite()), Some(sq));
                }
            }
        }
        // a1 (29) has only one neighbour, b2 (25).
        let a1 = Square::from_number(29).unwrap();
        let n: Vec<_> = Direction::ALL
            .iter()
            .filter_map(|&d| a1.neighbour(d))
            .collect();
        assert_eq!(n, vec![Square::from_number(25).unwrap()]);
    }
}
