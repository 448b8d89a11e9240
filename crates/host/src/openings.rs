//! Reading a match openings file a user names (`openings::parse` reads its text).

use crate::files::{self, Kind};
use poolshark_engine::core::Position;
use poolshark_engine::openings::parse;
use std::path::Path;

/// Read an openings file (a regular file, at most `Kind::Openings`'s limit). The error
/// names the path, and the line if one is bad.
pub fn load(path: &Path) -> Result<Vec<Position>, String> {
    let text =
        files::read_to_string(path, Kind::Openings).map_err(|e| format!("cannot read {e}"))?;
    parse(&text).map_err(|(line, e)| format!("{} line {line}: {e}", path.display()))
}
