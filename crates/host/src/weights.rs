//! Reading an evaluation weights file (hand weights or a network) a user names.

use crate::files::{self, Kind};
use poolshark_engine::eval::{Weights, WeightsError};
use std::path::Path;

/// Read a weights file (a regular file, at most `Kind::Weights`'s limit): see
/// `Weights::from_file_bytes` for what it may hold.
pub fn load(path: &Path) -> Result<Weights, WeightsError> {
    let name = path.display().to_string();
    let bytes = files::read(path, Kind::Weights).map_err(|e| WeightsError::Io {
        path: name.clone(),
        message: e.reason(),
    })?;
    Weights::from_file_bytes(&name, bytes)
}
