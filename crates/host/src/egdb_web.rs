//! The endgame tables for the static page (`poolshark egdb web`): a folder's tables of up to
//! N pieces copied as they are (each group's file is compressed block by block already), the
//! lone-king table compressed whole (one byte a state: 3.7 MB, about 100 KB compressed), and
//! the list of them (`egdb::manifest`), which the page reads first and which is written last,
//! so that a folder with a list is whole.

use crate::egdb::Folder;
use crate::files;
use poolshark_engine::egdb::index::{Group, MAX_PIECES};
use poolshark_engine::egdb::manifest::{FileEntry, Manifest, NAME, ZST};
use poolshark_engine::egdb::{group_file, lone_king, pack, Store};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the tables could not be written for the page.
#[derive(Debug)]
pub enum WebError {
    /// A file the page needs is not in the tables' folder.
    Missing {
        dir: PathBuf,
        name: String,
        pieces: u32,
    },
    /// A table file that cannot be used (its place and why).
    Bad(String),
    /// More pieces than the tables are indexed for.
    TooManyPieces(u32),
    /// The folder written to: not writable, or holding files that are not an earlier list's.
    Out(PathBuf, String),
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebError::Missing { dir, name, pieces } => write!(
                f,
                "{} has no {name}: build the tables first (poolshark egdb build --pieces {pieces} \
                 --dir {})",
                dir.display(),
                dir.display()
            ),
            WebError::Bad(why) => write!(f, "a table file that cannot be used: {why}"),
            WebError::TooManyPieces(n) => write!(
                f,
                "{n} pieces asked for; tables are indexed for at most {MAX_PIECES}"
            ),
            WebError::Out(dir, why) => write!(f, "{}: {why}", dir.display()),
        }
    }
}

impl std::error::Error for WebError {}

/// What was written: files and their bytes (the list included).
#[derive(Debug, PartialEq, Eq)]
pub struct Written {
    pub files: usize,
    pub bytes: u64,
}

/// Write the tables of up to `pieces` pieces in `dir` into `out` for the page. `out` is made
/// if need be; a folder that already holds files must be one this wrote before (it has the
/// list), and what its list names is replaced.
pub fn export(dir: &Path, pieces: u32, out: &Path) -> Result<Written, WebError> {
    if pieces > MAX_PIECES {
        return Err(WebError::TooManyPieces(pieces));
    }
    let from = Folder::new(dir);
    let mut list = Manifest {
        pieces,
        ..Manifest::default()
    };
    let mut payload: Vec<(String, Vec<u8>)> = Vec::new();
    for g in (2..=pieces).flat_map(Group::all_with) {
        let name = group_file::name(g);
        let bytes = read(&from, dir, &name, group_file::max_len(g), pieces)?;
        group_file::decode(g, bytes.clone())
            .map_err(|why| WebError::Bad(format!("{}: {why}", from.place(&name))))?;
        list.files.insert(
            name.clone(),
            FileEntry {
                bytes: bytes.len() as u64,
                zst: None,
            },
        );
        payload.push((name, bytes));
    }
    // Three kings against one needs 4 pieces.
    if pieces >= 4 {
        let name = lone_king::NAME.to_string();
        let bytes = read(&from, dir, &name, lone_king::LoneKing::max_len(), pieces)?;
        lone_king::LoneKing::decode(&bytes)
            .map_err(|why| WebError::Bad(format!("{}: {why}", from.place(&name))))?;
        let packed = pack::zstd_whole(&bytes);
        list.files.insert(
            name.clone(),
            FileEntry {
                bytes: bytes.len() as u64,
                zst: Some(packed.len() as u64),
            },
        );
        payload.push((format!("{name}{ZST}"), packed));
    }
    let text = serde_json::to_string_pretty(&list).expect("a list is JSON") + "\n";
    clear(out)?;
    let mut written = Written { files: 0, bytes: 0 };
    for (name, bytes) in payload
        .iter()
        .chain([(NAME.to_string(), text.into_bytes())].iter())
    {
        files::save(&out.join(name), bytes)
            .map_err(|e| WebError::Out(out.into(), e.to_string()))?;
        written.files += 1;
        written.bytes += bytes.len() as u64;
    }
    Ok(written)
}

fn read(from: &Folder, dir: &Path, name: &str, max: u64, pieces: u32) -> Result<Vec<u8>, WebError> {
    let missing = || WebError::Missing {
        dir: dir.into(),
        name: name.into(),
        pieces,
    };
    if !from.exists(name).map_err(WebError::Bad)? {
        return Err(missing());
    }
    from.read(name, max).map_err(WebError::Bad)
}

/// Make `out` ready: made if missing; an earlier list's files removed (the list first, so
/// that a folder left half-written has none); anything else there refused.
fn clear(out: &Path) -> Result<(), WebError> {
    let err = |e: std::io::Error| WebError::Out(out.into(), e.to_string());
    std::fs::create_dir_all(out).map_err(err)?;
    let names: Vec<String> = std::fs::read_dir(out)
        .map_err(err)?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    if names.is_empty() {
        return Ok(());
    }
    let earlier = std::fs::read_to_string(out.join(NAME))
        .ok()
        .and_then(|t| Manifest::parse(&t).ok());
    let Some(earlier) = earlier else {
        return Err(WebError::Out(
            out.into(),
            format!("holds files and no {NAME} of an earlier export: name an empty or new folder"),
        ));
    };
    let ours = |n: &str| {
        n == NAME
            || earlier.files.contains_key(n)
            || n.strip_suffix(ZST)
                .is_some_and(|n| earlier.files.contains_key(n))
    };
    if let Some(other) = names.iter().find(|n| !ours(n)) {
        return Err(WebError::Out(
            out.into(),
            format!("holds {other}, which its {NAME} does not name: name an empty or new folder"),
        ));
    }
    std::fs::remove_file(out.join(NAME)).map_err(err)?;
    for n in names.iter().filter(|n| n.as_str() != NAME) {
        std::fs::remove_file(out.join(n)).map_err(err)?;
    }
    Ok(())
}
