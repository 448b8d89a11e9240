//! Where a set of endgame tables is kept: the trait its host implements (a folder of files
//! natively), so that the engine opens, reads and writes tables without a file system of
//! its own. A table is named as its file is (`group_file::name`, `lone_king::NAME`).

/// A set of tables, each stored under a name.
pub trait Store: Send + Sync {
    /// Whether anything is stored under `name`. Something that cannot be read counts (a
    /// broken link, say), so that reading it says what is wrong with it; `Err` where even
    /// that cannot be told, with the reason and the place.
    fn exists(&self, name: &str) -> Result<bool, String>;
    /// The bytes stored under `name`, refused before they are read if there are more than
    /// `max`. The error names the place (`place`) and the reason.
    fn read(&self, name: &str, max: u64) -> Result<Vec<u8>, String>;
    /// Store `bytes` under `name`, whole or not at all. The error names the place.
    fn save(&self, name: &str, bytes: &[u8]) -> Result<(), String>;
    /// Where `name` is kept, for messages (its path).
    fn place(&self, name: &str) -> String;
}
