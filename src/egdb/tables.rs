//! The groups in memory, and the look-up of a position in them. The builder fills one of
//! these as it solves groups (each group reads the smaller ones), and `Egdb` probes one.

use crate::core::position::Position;
use crate::egdb::file;
use crate::egdb::index::{canonical, Group, MAX_PIECES};
use crate::egdb::value::TERMINAL_LOSS;
use std::path::Path;

/// Every group's values, by `Group::id`.
pub struct Tables {
    groups: Vec<Option<Vec<u16>>>,
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            groups: vec![None; Group::IDS],
        }
    }

    /// The groups of up to `max` pieces found in `dir`, and the reason for each file that
    /// exists but cannot be used.
    pub fn load(dir: &Path, max: u32) -> (Tables, Vec<String>) {
        let mut t = Tables::new();
        let mut bad = Vec::new();
        for n in 2..=max.min(MAX_PIECES) {
            for g in Group::all_with(n) {
                match file::load(dir, g) {
                    Ok(Some(v)) => t.insert(g, v),
                    Ok(None) => {}
                    Err(why) => bad.push(why),
                }
            }
        }
        (t, bad)
    }

    pub fn insert(&mut self, g: Group, values: Vec<u16>) {
        debug_assert_eq!(values.len() as u64, g.size());
        self.groups[g.id()] = Some(values);
    }

    /// A group's values, if present.
    pub fn group(&self, g: Group) -> Option<&[u16]> {
        if g.pieces() > MAX_PIECES {
            return None;
        }
        self.groups[g.id()].as_deref()
    }

    pub fn has(&self, g: Group) -> bool {
        self.group(g).is_some()
    }

    /// The groups present, smallest first.
    pub fn present(&self) -> Vec<Group> {
        (2..=MAX_PIECES)
            .flat_map(Group::all_with)
            .filter(|g| self.has(*g))
            .collect()
    }

    /// The largest piece count for which every group is present (0 if none).
    pub fn max_pieces(&self) -> u32 {
        let mut best = 0;
        for n in 2..=MAX_PIECES {
            if Group::all_with(n).iter().all(|g| self.has(*g)) {
                best = n;
            } else {
                break;
            }
        }
        best
    }

    /// The stored value of a position for its side to move, or None without its group. A side
    /// to move with no pieces left has lost (R16) and needs no table.
    #[inline]
    pub fn value(&self, pos: &Position) -> Option<u16> {
        let c = canonical(pos);
        if c.black().is_empty() {
            return Some(TERMINAL_LOSS);
        }
        let g = Group::of(&c);
        let values = self.group(g)?;
        Some(values[g.index(&c) as usize])
    }
}
