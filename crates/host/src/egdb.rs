//! Endgame tables in a folder: the engine's `egdb::Store` over files (one a group, as
//! `group_file::name` names them), opening a folder's tables, and building them with
//! progress bars on stderr.

use crate::files::{self, Kind};
use indicatif::{ProgressBar, ProgressStyle};
use poolshark_engine::egdb::build::Progress;
use poolshark_engine::egdb::index::Group;
use poolshark_engine::egdb::{group_file, lone_king, Egdb, EgdbError, Store, Tables};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A folder of table files.
pub struct Folder {
    dir: PathBuf,
}

impl Folder {
    pub fn new(dir: &Path) -> Folder {
        Folder { dir: dir.into() }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Store for Folder {
    /// A symbolic link counts, even one that leads nowhere (reading it then says why), so a
    /// broken link is reported rather than taken for a missing table.
    fn exists(&self, name: &str) -> Result<bool, String> {
        let p = self.path(name);
        match std::fs::symlink_metadata(&p) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(format!("{}: {e}", p.display())),
        }
    }

    fn read(&self, name: &str, max: u64) -> Result<Vec<u8>, String> {
        files::read_at_most(&self.path(name), Kind::Egdb, max).map_err(|e| e.to_string())
    }

    /// Written atomically (`files::save`).
    fn save(&self, name: &str, bytes: &[u8]) -> Result<(), String> {
        files::save(&self.path(name), bytes).map_err(|e| e.to_string())
    }

    fn place(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}

/// The file that holds group `g` in `dir`.
pub fn group_path(dir: &Path, g: Group) -> PathBuf {
    dir.join(group_file::name(g))
}

/// The lone-king table's file in `dir`.
pub fn lone_king_path(dir: &Path) -> PathBuf {
    dir.join(lone_king::NAME)
}

/// The files the set in `dir` lacks (`group_file::missing`).
pub fn missing(dir: &Path) -> Vec<PathBuf> {
    group_file::missing(&Folder::new(dir))
        .iter()
        .map(|name| dir.join(name))
        .collect()
}

fn folder(dir: &Path) -> Result<Folder, EgdbError> {
    if !dir.is_dir() {
        return Err(EgdbError::Dir(dir.into(), "not a directory".into()));
    }
    Ok(Folder::new(dir))
}

/// Open whatever tables `dir` holds, each read whole now (`Egdb::open`).
pub fn open(dir: &Path) -> Result<Egdb, EgdbError> {
    Ok(Egdb::open(&folder(dir)?))
}

/// Open the tables in `dir` for play, each group read when first probed (`Egdb::open_lazy`).
pub fn open_lazy(dir: &Path) -> Result<Egdb, EgdbError> {
    Ok(Egdb::open_lazy(Arc::new(folder(dir)?)))
}

/// Open the tables in `dir` for a timed search, each group read by a loader thread
/// (`Egdb::open_background`).
pub fn open_background(dir: &Path) -> Result<Egdb, EgdbError> {
    Ok(Egdb::open_background(Arc::new(folder(dir)?)))
}

/// The groups of up to `max` pieces in `dir`, each read whole, and why each unusable file
/// is (`Tables::load`).
pub fn load_tables(dir: &Path, max: u32) -> (Tables, Vec<String>) {
    Tables::load(&Folder::new(dir), max)
}

/// Build every group up to `pieces` pieces into `dir` (created if need be) on `threads`
/// threads, with a progress bar (resumable: finished groups are loaded).
pub fn build(dir: &Path, pieces: u32, threads: usize) -> Result<(), EgdbError> {
    build_tables(dir, pieces, threads).map(|_| ())
}

/// `build`, keeping the tables in memory for the caller.
pub fn build_tables(dir: &Path, pieces: u32, threads: usize) -> Result<Tables, EgdbError> {
    if pieces > poolshark_engine::egdb::index::MAX_PIECES {
        return Err(EgdbError::TooManyPieces(pieces));
    }
    std::fs::create_dir_all(dir).map_err(|e| EgdbError::Dir(dir.into(), e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| EgdbError::Dir(dir.into(), e.to_string()))?;
    let store = Folder::new(dir);
    let bar = Bar::new();
    pool.install(|| poolshark_engine::egdb::build::build(&store, pieces, &bar))
}

/// A build's progress as an indicatif bar on stderr.
struct Bar(ProgressBar);

impl Bar {
    fn new() -> Bar {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{wide_bar}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        Bar(bar)
    }
}

impl Progress for Bar {
    fn start(&self, positions: u64) {
        self.0.set_length(positions);
    }
    fn status(&self, text: String) {
        self.0.set_message(text);
    }
    fn advance(&self, positions: u64) {
        self.0.inc(positions);
    }
    fn finish(&self, text: String) {
        self.0.finish_with_message(text);
    }
}
