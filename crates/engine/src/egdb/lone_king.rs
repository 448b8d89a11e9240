//! Three kings against a lone king under the 13-move rule (R19): a small table with the lone
//! king's move count (0 to 12) in its index.
//!
//! A state is a position of three kings against one with either side to move, and the number
//! of moves the lone king has made since the material became three against one. The count
//! only grows, by one on each lone-king move, so the states are solved from count 12 down,
//! each level from the next with no iteration: the strong side to move at count n looks at
//! the lone side to move at count n, which looks at the strong side at n + 1. After the lone
//! king's 13th move the game is drawn unless the strong side has no move (R16 comes first, as
//! in `Game::result`). A capture by the lone king ends R19 (two kings against one, the 40-move
//! count at zero): that is the main table's value under R18 from a fresh count. Positions
//! are indexed as the main tables index them (`Group::index`, Black to move after the flip).

use crate::core::movegen;
use crate::core::position::Position;
use crate::core::rules::LONE_KING_MOVES;
use crate::egdb::index::{canonical, flip, Group};
use crate::egdb::store::Store;
use crate::egdb::verify::Report;
use crate::egdb::{pack, value, Tables, Wdl, Wdl50};
use rayon::prelude::*;

/// Three kings to move against one.
const STRONG: Group = Group::new(0, 3, 0, 1);
/// The lone king to move against three.
const LONE: Group = Group::new(0, 1, 0, 3);
/// What a capture by the lone king leaves: two kings to move against one.
const AFTER_CAPTURE: Group = Group::new(0, 2, 0, 1);
/// Counts 0..=12: the lone king's moves made so far.
const COUNTS: usize = LONE_KING_MOVES as usize;

const MAGIC: [u8; 8] = *b"PSLONE\r\n";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 8;

/// The name of the table's file in a set of tables.
pub const NAME: &str = "lone13.egdb";

/// The solved states: for each count, the strong side's values, then the lone side's (a
/// `Wdl` code each: 0 loss, 1 draw, 2 win, for the side to move).
pub struct LoneKing {
    values: Vec<u8>,
}

fn code(w: Wdl) -> u8 {
    match w {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

fn wdl(c: u8) -> Wdl {
    match c {
        0 => Wdl::Loss,
        1 => Wdl::Draw,
        _ => Wdl::Win,
    }
}

/// The mover's result from the value of the position its move leads to.
fn negate(w: Wdl) -> Wdl {
    match w {
        Wdl::Loss => Wdl::Win,
        Wdl::Draw => Wdl::Draw,
        Wdl::Win => Wdl::Loss,
    }
}

impl LoneKing {
    fn offset(strong_to_move: bool, count: usize) -> usize {
        let (s, l) = (STRONG.size() as usize, LONE.size() as usize);
        count * (s + l) + if strong_to_move { 0 } else { s }
    }

    fn len() -> usize {
        COUNTS * (STRONG.size() + LONE.size()) as usize
    }

    /// Solve it from the main tables' two kings against one; `None` when they do not hold
    /// every position a capture reaches.
    pub fn solve(tables: &Tables) -> Option<LoneKing> {
        if !tables.has(AFTER_CAPTURE) {
            return None;
        }
        let mut values = vec![0u8; Self::len()];
        for n in (0..COUNTS).rev() {
            // The lone king to move, at count n: its move makes the count n + 1.
            // `None` when a capture's two kings against one is not in the tables (a damaged
            // group): then the table cannot be solved.
            let lone: Option<Vec<u8>> = (0..LONE.size())
                .into_par_iter()
                .map(|i| {
                    let pos = LONE.position(i);
                    let mut best = Wdl::Loss;
                    for mv in movegen::legal_moves(&pos).iter() {
                        let child = flip(&pos.play_unhashed(mv));
                        let w = if mv.is_capture() {
                            let v = tables.value(&child)?;
                            match value::class(v).expect("a solved value") {
                                Wdl50::Loss => Wdl::Win,
                                Wdl50::Win => Wdl::Loss,
                                _ => Wdl::Draw,
                            }
                        } else if n + 1 == COUNTS {
                            // The 13th move: drawn, unless it leaves no move (R16 first).
                            if movegen::legal_moves(&child).is_empty() {
                                Wdl::Win
                            } else {
                                Wdl::Draw
                            }
                        } else {
                            let at = Self::offset(true, n + 1) + STRONG.index(&child) as usize;
                            negate(wdl(values[at]))
                        };
                        best = best.max(w);
                    }
                    Some(code(best))
                })
                .collect();
            let lone = lone?;
            let at = Self::offset(false, n);
            values[at..at + lone.len()].copy_from_slice(&lone);
            // The strong side to move at count n: a capture takes the lone king.
            let strong: Vec<u8> = (0..STRONG.size())
                .into_par_iter()
                .map(|i| {
                    let pos = STRONG.position(i);
                    let mut best = Wdl::Loss;
                    for mv in movegen::legal_moves(&pos).iter() {
                        let w = if mv.is_capture() {
                            Wdl::Win
                        } else {
                            let child = flip(&pos.play_unhashed(mv));
                            let at = Self::offset(false, n) + LONE.index(&child) as usize;
                            negate(wdl(values[at]))
                        };
                        best = best.max(w);
                    }
                    code(best)
                })
                .collect();
            let at = Self::offset(true, n);
            values[at..at + strong.len()].copy_from_slice(&strong);
        }
        Some(LoneKing { values })
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut data = Vec::with_capacity(HEADER + self.values.len());
        data.extend_from_slice(&MAGIC);
        data.extend_from_slice(&VERSION.to_le_bytes());
        data.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        data.extend_from_slice(&pack::checksum(&self.values).to_le_bytes());
        data.extend_from_slice(&self.values);
        data
    }

    /// The table from a file's bytes, or why they cannot be used.
    pub fn decode(bytes: &[u8]) -> Result<LoneKing, String> {
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err("not a lone-king table (bad magic or truncated)".into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(format!(
                "format version {version}, this build reads {VERSION}"
            ));
        }
        let count = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        if count != Self::len() as u64 || bytes.len() != HEADER + Self::len() {
            return Err(format!(
                "{} bytes, {} expected (truncated or padded)",
                bytes.len(),
                HEADER + Self::len()
            ));
        }
        let values = &bytes[HEADER..];
        if pack::checksum(values) != u64::from_le_bytes(bytes[20..28].try_into().expect("8")) {
            return Err("checksum mismatch (the file is corrupt)".into());
        }
        if values.iter().any(|&v| v > 2) {
            return Err("invalid value".into());
        }
        Ok(LoneKing {
            values: values.to_vec(),
        })
    }

    /// The bytes of its file.
    pub fn max_len() -> u64 {
        (HEADER + Self::len()) as u64
    }

    /// Store it, whole or not at all.
    pub fn save(&self, store: &dyn Store) -> Result<(), String> {
        store.save(NAME, &self.encode())
    }

    /// The table in `store`: None if there is no file, Err (with the place) if it is
    /// unusable.
    pub fn load(store: &dyn Store) -> Result<Option<LoneKing>, String> {
        if !store.exists(NAME)? {
            return Ok(None);
        }
        let bytes = store.read(NAME, LoneKing::max_len())?;
        LoneKing::decode(&bytes)
            .map(Some)
            .map_err(|why| format!("{}: {why}", store.place(NAME)))
    }

    /// Check every state against the main tables (`egdb verify`): the table is solved again
    /// from them and compared state by state. None when the tables lack two kings against
    /// one, so nothing can be checked.
    pub fn verify(&self, tables: &Tables) -> Option<Report> {
        let fresh = LoneKing::solve(tables)?;
        let mut report = Report {
            checked: self.values.len() as u64,
            ..Report::default()
        };
        let (s, l) = (STRONG.size() as usize, LONE.size() as usize);
        for (at, _) in self
            .values
            .iter()
            .zip(&fresh.values)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
        {
            report.mismatches += 1;
            if report.examples.len() < 5 {
                let (count, rest) = (at / (s + l), at % (s + l));
                let pos = if rest < s {
                    STRONG.position(rest as u64)
                } else {
                    LONE.position((rest - s) as u64)
                };
                report.examples.push(format!(
                    "{} (lone13.egdb, the lone king's move {count})",
                    crate::core::notation::write_fen(&pos)
                ));
            }
        }
        Some(report)
    }

    /// The value for the side to move when the lone king has made `lone_moves` moves.
    pub fn probe(&self, pos: &Position, lone_moves: u32) -> Option<Wdl> {
        if lone_moves as usize >= COUNTS {
            return None;
        }
        let c = canonical(pos);
        let g = Group::of(&c);
        let strong = if g == STRONG {
            true
        } else if g == LONE {
            false
        } else {
            return None;
        };
        let at = Self::offset(strong, lone_moves as usize) + g.index(&c) as usize;
        Some(wdl(self.values[at]))
    }
}
