//! Three kings against a lone king under the 13-move rule (R19): a small table with the lone
//! king's move count in its index (not built yet).

use crate::core::position::Position;
use crate::egdb::Wdl;
use std::path::Path;

pub struct LoneKing {
    _values: Vec<u8>,
}

impl LoneKing {
    /// The table in `dir`, if built.
    pub fn load(_dir: &Path) -> Result<Option<LoneKing>, String> {
        Ok(None)
    }

    pub fn probe(&self, _pos: &Position, _lone_moves: u32) -> Option<Wdl> {
        None
    }
}
