//! Text in and out: PDN FEN, the Hub 33-character position string, and moves in Hub and PDN
//! notation (docs/RULES.md R4, R5). Parsing a move resolves it against the legal moves, so a
//! parsed move is always legal. Every error says what is wrong.

use crate::core::bitboard::Bitboard;
use crate::core::movegen::{self, PathSink};
use crate::core::moves::Move;
use crate::core::position::{Position, PositionError};
use crate::core::square::{Color, Square};
use std::fmt;

/// What is wrong with a piece of position or move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing to parse.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A character that has no meaning at that place.
    UnknownCharacter(char),
    /// A square number outside 1..=32 (or not a number).
    SquareOutOfRange(String),
    /// The same square listed twice.
    SquareTwice(u8),
    /// A FEN field that is not a `W` or `B` piece list.
    BadField(String),
    /// A Hub position string that is not 33 characters.
    WrongLength(usize),
    /// The pieces parse but do not form a valid position.
    Position(PositionError),
    /// Move text that is not `a-b` or `axbx...`.
    BadMoveSyntax(String),
    /// Well-formed move text that matches no legal move.
    IllegalMove(String),
    /// Move text that matches several legal moves.
    AmbiguousMove(String, Vec<String>),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty text"),
            NotationError::BadSide(s) => write!(f, "side to move must be W or B, not '{s}'"),
            NotationError::UnknownCharacter(c) => {
                write!(f, "unknown character '{}'", c.escape_default())
            }
            NotationError::SquareOutOfRange(s) => {
                write!(f, "square '{s}' is not a number from 1 to 32")
            }
            NotationError::SquareTwice(n) => write!(f, "square {n} is given twice"),
            NotationError::BadField(s) => write!(f, "FEN field '{s}' must start with W or B"),
            NotationError::WrongLength(n) => {
                write!(
                    f,
                    "a Hub position has 33 characters (side, then squares 1-32), not {n}"
                )
            }
            NotationError::Position(e) => write!(f, "invalid position: {e}"),
            NotationError::BadMoveSyntax(s) => {
                write!(f, "'{s}' is not a move (expected 11-15 or 22x15x18)")
            }
            NotationError::IllegalMove(s) => write!(f, "illegal move '{s}'"),
            NotationError::AmbiguousMove(s, options) => {
                write!(f, "ambiguous move '{s}': could be {}", options.join(" or "))
            }
        }
    }
}

impl std::error::Error for NotationError {}

impl From<PositionError> for NotationError {
    fn from(e: PositionError) -> Self {
        NotationError::Position(e)
    }
}

fn parse_side(s: &str) -> Result<Color, NotationError> {
    match s.trim() {
        "W" | "w" => Ok(Color::White),
        "B" | "b" => Ok(Color::Black),
        other => Err(NotationError::BadSide(other.to_string())),
    }
}

fn parse_square(s: &str) -> Result<Square, NotationError> {
    let t = s.trim();
    if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_digit()) {
        if let Some(c) = t.chars().find(|c| !c.is_ascii_digit()) {
            if !c.is_ascii_alphanumeric() {
                return Err(NotationError::UnknownCharacter(c));
            }
        }
        return Err(NotationError::SquareOutOfRange(t.to_string()));
    }
    t.parse::<u8>()
        .ok()
        .and_then(Square::from_number)
        .ok_or_else(|| NotationError::SquareOutOfRange(t.to_string()))
}

/// Read a PDN FEN such as `B:W21-32:B1-12` or `W:WK3,18:BK29,5` (R4). Lists may use `K` for
/// kings and `a-b` ranges; a trailing `.` is allowed; `startpos` names the start position.
pub fn parse_fen(text: &str) -> Result<Position, NotationError> {
    let text = text.trim().trim_end_matches('.').trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    if text.eq_ignore_ascii_case("startpos") {
        return Ok(Position::start());
    }
    let mut fields = text.split(':');
    let side = parse_side(fields.next().unwrap_or(""))?;
    let mut sets = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let mut seen = Bitboard::EMPTY;
    let mut seen_colour = [false; 2];
    for field in fields {
        let field = field.trim();
        let colour = match field.chars().next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => return Err(NotationError::BadField(field.to_string())),
        };
        if seen_colour[colour as usize] {
            return Err(NotationError::BadField(field.to_string()));
        }
        seen_colour[colour as usize] = true;
        let list = &field[1..];
        if list.trim().is_empty() {
            continue;
        }
        for item in list.split(',') {
            let item = item.trim();
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let squares: Vec<Square> = match body.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (parse_square(a)?, parse_square(b)?);
                    if a > b {
                        return Err(NotationError::SquareOutOfRange(item.to_string()));
                    }
                    (a.index()..=b.index())
                        .map(|i| Square::new(i as u8))
                        .collect()
                }
                None => vec![parse_square(body)?],
            };
            for sq in squares {
                if seen.contains(sq) {
                    return Err(NotationError::SquareTwice(sq.number()));
                }
                seen |= Bitboard::from_square(sq);
                sets[colour as usize] |= Bitboard::from_square(sq);
                if king {
                    kings |= Bitboard::from_square(sq);
                }
            }
        }
    }
    Ok(Position::new(
        sets[Color::White as usize],
        sets[Color::Black as usize],
        kings,
        side,
    )?)
}

/// Write a PDN FEN, every square listed: `B:W21,22,...:B1,...` with `K` before kings.
pub fn write_fen(pos: &Position) -> String {
    let list = |set: Bitboard| {
        set.iter()
            .map(|s| {
                if pos.kings().contains(s) {
                    format!("K{}", s.number())
                } else {
                    s.number().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        pos.side().letter(),
        list(pos.white()),
        list(pos.black())
    )
}

/// Read the Hub position string: side letter then 32 of `w b W B e` (R4).
pub fn parse_hub_position(text: &str) -> Result<Position, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(NotationError::WrongLength(chars.len()));
    }
    let side = parse_side(&chars[0].to_string())?;
    let (mut white, mut black, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, &c) in chars[1..].iter().enumerate() {
        let b = Bitboard::from_square(Square::new(i as u8));
        match c {
            'w' => white |= b,
            'b' => black |= b,
            'W' => {
                white |= b;
                kings |= b
            }
            'B' => {
                black |= b;
                kings |= b
            }
            'e' | '.' => {}
            other => return Err(NotationError::UnknownCharacter(other)),
        }
    }
    Ok(Position::new(white, black, kings, side)?)
}

/// Write the Hub position string.
pub fn write_hub_position(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(pos.side().letter());
    for sq in Square::all() {
        s.push(match pos.piece_at(sq) {
            Some((Color::White, false)) => 'w',
            Some((Color::White, true)) => 'W',
            Some((Color::Black, false)) => 'b',
            Some((Color::Black, true)) => 'B',
            None => 'e',
        });
    }
    s
}

/// Split move text into squares and its separator kind: `Some(false)` for `-`, `Some(true)`
/// for `x`.
fn split_move(text: &str) -> Result<(Vec<Square>, bool), NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let capture = t.contains(['x', 'X', ':']);
    let quiet = t.contains('-');
    if capture == quiet {
        return Err(NotationError::BadMoveSyntax(t.to_string()));
    }
    let parts: Vec<&str> = t.split(['x', 'X', ':', '-']).collect();
    if parts.len() < 2 || (quiet && parts.len() != 2) {
        return Err(NotationError::BadMoveSyntax(t.to_string()));
    }
    let squares = parts
        .iter()
        .map(|p| parse_square(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((squares, capture))
}

fn pick(text: &str, mut candidates: Vec<Move>) -> Result<Move, NotationError> {
    candidates.dedup();
    match candidates.len() {
        0 => Err(NotationError::IllegalMove(text.trim().to_string())),
        1 => Ok(candidates[0]),
        _ => Err(NotationError::AmbiguousMove(
            text.trim().to_string(),
            candidates.iter().map(|m| m.hub()).collect(),
        )),
    }
}

/// Read a move in Hub notation: `11-15`, or `from x to x captured...` with the captured
/// squares in any order. `from x to` alone is accepted when only one capture matches.
pub fn parse_hub_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let (squares, capture) = split_move(text)?;
    let legal = movegen::legal_moves(pos);
    let (from, to) = (squares[0], squares[1]);
    let candidates: Vec<Move> = if !capture {
        legal
            .iter()
            .filter(|m| !m.is_capture() && m.from == from && m.to == to)
            .copied()
            .collect()
    } else {
        let mut captured = Bitboard::EMPTY;
        for &s in &squares[2..] {
            if captured.contains(s) {
                return Err(NotationError::SquareTwice(s.number()));
            }
            captured |= Bitboard::from_square(s);
        }
        legal
            .iter()
            .filter(|m| {
                m.is_capture()
                    && m.from == from
                    && m.to == to
                    && (squares.len() == 2 || m.captured == captured)
            })
            .copied()
            .collect()
    };
    pick(text, candidates)
}

/// Every path of landing squares (origin excluded, destination included) that plays `mv`.
pub fn capture_paths(pos: &Position, mv: &Move) -> Vec<Vec<Square>> {
    let mut sink = PathSink::default();
    movegen::generate_captures(pos, &mut sink);
    sink.found
        .into_iter()
        .filter(|(m, _)| m == mv)
        .map(|(_, p)| p)
        .collect()
}

/// Read a move in PDN notation: `11-15`, or a capture by its landing squares `15x22x29`.
/// `from x to` is enough when one legal capture matches; intermediate squares may be left out
/// as long as the ones given are on the path in order. A full path (every landing square, as
/// `pdn_move` writes it) names its one move, since each step between two landing squares jumps
/// exactly one piece, even when a longer capture passes through the same squares:
/// `5x14x23x32` is that capture, not also `5x14x21x30x23x32`.
pub fn parse_pdn_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let (squares, capture) = split_move(text)?;
    let (from, to) = (squares[0], *squares.last().expect("at least two squares"));
    if !capture {
        let legal = movegen::legal_moves(pos);
        return pick(
            text,
            legal
                .iter()
                .filter(|m| !m.is_capture() && m.from == from && m.to == to)
                .copied()
                .collect(),
        );
    }
    let via = &squares[1..squares.len() - 1];
    let mut sink = PathSink::default();
    movegen::generate_captures(pos, &mut sink);
    let matching = |exact: bool| {
        sink.found
            .iter()
            .filter(|(m, path)| {
                let between = &path[..path.len().saturating_sub(1)];
                m.from == from
                    && m.to == to
                    && if exact {
                        between == via
                    } else {
                        is_subsequence(via, between)
                    }
            })
            .map(|(m, _)| *m)
            .collect::<Vec<_>>()
    };
    let exact = matching(true);
    let candidates = if exact.is_empty() {
        matching(false)
    } else {
        exact
    };
    let mut unique: Vec<Move> = Vec::new();
    for m in candidates {
        if !unique.contains(&m) {
            unique.push(m);
        }
    }
    pick(text, unique)
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// Read a move in either notation: Hub first, then PDN.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match parse_hub_move(pos, text) {
        Ok(m) => Ok(m),
        Err(hub_err @ (NotationError::IllegalMove(_) | NotationError::AmbiguousMove(..))) => {
            parse_pdn_move(pos, text).map_err(|_| hub_err)
        }
        Err(e) => Err(e),
    }
}

/// PDN text of a legal move: `11-15`, or a capture with all its landing squares `15x22x29`.
/// When several paths give the same move, the first one found is written.
pub fn pdn_move(pos: &Position, mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from, mv.to);
    }
    let path = capture_paths(pos, mv)
        .into_iter()
        .next()
        .unwrap_or_else(|| vec![mv.to]);
    let mut s = mv.from.number().to_string();
    for sq in path {
        s.push('x');
        s.push_str(&sq.number().to_string());
    }
    s
}

/// A board diagram for people: pieces on the left (`w`/`b` men, `W`/`B` kings, `.` empty
/// dark squares), square numbers on the right, then the side to move and the FEN.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    for row in 0..8 {
        let mut board = format!("{} ", 8 - row);
        let mut numbers = String::new();
        for file in 0..8 {
            match Square::from_row_file(row, file) {
                Some(sq) => {
                    let c = match pos.piece_at(sq) {
                        Some((Color::White, false)) => 'w',
                        Some((Color::White, true)) => 'W',
                        Some((Color::Black, false)) => 'b',
                        Some((Color::Black, true)) => 'B',
                        None => '.',
                    };
                    board.push_str(&format!(" {c}"));
                    numbers.push_str(&format!("{:>3}", sq.number()));
                }
                None => {
                    board.push_str("  ");
                    numbers.push_str("   ");
                }
            }
        }
        out.push_str(&format!("{board}     {}\n", numbers.trim_end()));
    }
    out.push_str("   a b c d e f g h\n");
    out.push_str(&format!("{} to move\n", pos.side().name()));
    out.push_str(&format!("FEN: {}\n", write_fen(pos)));
    out
}
