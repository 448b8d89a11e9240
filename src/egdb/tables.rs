//! The groups in memory, and the look-up of a position in them. The builder fills one of
//! these as it solves groups (each group reads the smaller ones), and `Egdb` probes one.
//!
//! Tables opened for play read a group's file the first time a probe needs it: an engine
//! started beside 6-piece tables (about 5 GB) holds only the groups its games reach, and
//! starts at once. A damaged file is then reported (once) when first needed. `Tables::lazy`
//! reads it there and then; `Tables::background` (a timed search: reading a 200 MB group
//! would cost a move's time) asks a loader thread for it and answers None until it is in.

use crate::core::position::Position;
use crate::egdb::file;
use crate::egdb::index::{canonical, Group, MAX_PIECES};
use crate::egdb::value::TERMINAL_LOSS;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, OnceLock};

/// Every group's values, by `Group::id`.
pub struct Tables {
    groups: Vec<Option<Vec<u16>>>,
    lazy: Option<Lazy>,
}

/// Groups read from a folder on first use.
struct Lazy {
    slots: Arc<Slots>,
    /// The loader thread's queue (background mode); None: read on the caller's thread.
    loader: Option<Sender<Group>>,
    /// The largest piece count with a file for every group, when opened.
    max_pieces: u32,
}

/// The groups of a folder, each filled once (None inside: no usable file).
struct Slots {
    dir: PathBuf,
    values: Vec<OnceLock<Option<Vec<u16>>>>,
    /// Groups already asked of the loader.
    requested: Vec<AtomicBool>,
}

impl Slots {
    fn new(dir: &Path) -> Slots {
        Slots {
            dir: dir.into(),
            values: (0..Group::IDS).map(|_| OnceLock::new()).collect(),
            requested: (0..Group::IDS).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// Read a group now, if not yet read (one warning for a damaged file).
    fn fill(&self, g: Group) -> Option<&[u16]> {
        self.values[g.id()]
            .get_or_init(|| match file::load(&self.dir, g) {
                Ok(v) => v,
                Err(why) => {
                    log::warn!("endgame table left out: {why}");
                    None
                }
            })
            .as_deref()
    }
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
            lazy: None,
        }
    }

    /// The groups in `dir`, each read when a probe first needs it (see the module notes).
    pub fn lazy(dir: &Path) -> Tables {
        Tables {
            groups: vec![None; Group::IDS],
            lazy: Some(Lazy {
                slots: Arc::new(Slots::new(dir)),
                loader: None,
                max_pieces: Tables::files_up_to(dir),
            }),
        }
    }

    /// The groups in `dir`, each read by a loader thread when a probe first asks for it;
    /// until then probes of it answer None (see the module notes). The thread ends with
    /// the tables.
    pub fn background(dir: &Path) -> Tables {
        let slots = Arc::new(Slots::new(dir));
        let (tx, rx) = channel::<Group>();
        let theirs = Arc::clone(&slots);
        let spawned = std::thread::Builder::new()
            .name("egdb-loader".into())
            .spawn(move || {
                while let Ok(g) = rx.recv() {
                    theirs.fill(g);
                }
            });
        let loader = match spawned {
            Ok(_) => Some(tx),
            Err(e) => {
                log::warn!("no endgame table loader thread ({e}); tables read when probed");
                None
            }
        };
        Tables {
            groups: vec![None; Group::IDS],
            lazy: Some(Lazy {
                slots,
                loader,
                max_pieces: Tables::files_up_to(dir),
            }),
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

    /// The largest piece count for which `dir` has a file for every group (0 if none),
    /// without reading them.
    pub fn files_up_to(dir: &Path) -> u32 {
        let mut best = 0;
        for n in 2..=MAX_PIECES {
            if Group::all_with(n)
                .iter()
                .all(|&g| file::path(dir, g).is_file())
            {
                best = n;
            } else {
                break;
            }
        }
        best
    }

    pub fn insert(&mut self, g: Group, values: Vec<u16>) {
        debug_assert_eq!(values.len() as u64, g.size());
        self.groups[g.id()] = Some(values);
    }

    /// A group's values, if present (read now, if opened lazily and not read yet).
    pub fn group(&self, g: Group) -> Option<&[u16]> {
        if g.pieces() > MAX_PIECES {
            return None;
        }
        if let Some(v) = self.groups[g.id()].as_deref() {
            return Some(v);
        }
        let lazy = self.lazy.as_ref()?;
        if !g.valid() || g.pieces() > lazy.max_pieces {
            return None;
        }
        let slots = &lazy.slots;
        if let Some(v) = slots.values[g.id()].get() {
            return v.as_deref();
        }
        match &lazy.loader {
            None => slots.fill(g),
            Some(tx) => {
                if !slots.requested[g.id()].swap(true, Ordering::Relaxed) {
                    let _ = tx.send(g);
                }
                None
            }
        }
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

    /// The largest piece count for which every group is present (0 if none); opened lazily,
    /// for which every group has a file.
    pub fn max_pieces(&self) -> u32 {
        if let Some(lazy) = &self.lazy {
            return lazy.max_pieces;
        }
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
