//! Opening books on disk: reading and saving a book file a user names, and the book for
//! play (`POOLSHARK_BOOK`, else the built-in one).

use crate::files::{self, FileError, Kind};
use poolshark_engine::book::{Book, BookError};
use std::path::Path;

/// Read a book file (at most `Kind::Book`'s limit, a regular file only).
pub fn load(path: &Path) -> Result<Book, BookError> {
    let bytes = files::read(path, Kind::Book).map_err(|e| BookError::Io(e.to_string()))?;
    Book::from_bytes(&bytes)
}

/// Save `book` atomically (`files::save`): an interrupted save leaves the old file whole,
/// and a target that is not a regular file is refused.
pub fn save(book: &Book, path: &Path) -> Result<(), FileError> {
    files::save(path, &book.to_bytes())
}

/// The book for play: the file named by `POOLSHARK_BOOK`, else the built-in one. If it
/// cannot be read, say why on stderr and play without one (`None`: every move searched).
pub fn load_for_play() -> Option<Book> {
    let result = match std::env::var_os("POOLSHARK_BOOK") {
        Some(path) => load(Path::new(&path)),
        None => Book::builtin(),
    };
    match result {
        Ok(book) => Some(book),
        Err(e) => {
            log::warn!("opening book: {e}; playing without a book");
            None
        }
    }
}
