//! The groups in memory, and the look-up of a position in them. The builder fills one of
//! these as it solves groups (each group reads the smaller ones), and `Egdb` probes one.
//!
//! Tables opened for play read a group's file from their `Store` the first time a probe needs it: an engine
//! started beside 6-piece tables (about 5 GB) holds only the groups its games reach, and
//! starts at once. A damaged file is then reported (once) when first needed. `Tables::lazy`
//! reads it there and then; `Tables::background` (a timed search: reading a 200 MB group
//! would cost a move's time) asks a loader thread for it and answers None until it is in.

use crate::core::movegen;
use crate::core::position::Position;
use crate::egdb::index::{canonical, flip, Group, MAX_PIECES};
use crate::egdb::pack::{BlockCache, Packed};
use crate::egdb::params::CACHE_SLOTS;
use crate::egdb::store::Store;
use crate::egdb::value::{self, TERMINAL_LOSS};
use crate::egdb::{group_file, Wdl, Wdl50};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, OnceLock};

/// Every group's values, by `Group::id`.
pub struct Tables {
    groups: Vec<Option<Table>>,
    lazy: Option<Lazy>,
    cache: Arc<BlockCache>,
}

/// One group in memory: every value (built, or unpacked with its capture positions
/// solved), or its compressed file (capture positions played at probe time).
enum Table {
    Plain(Vec<u16>),
    Packed(Packed),
}

/// Groups read from a store on first use.
struct Lazy {
    slots: Arc<Slots>,
    /// The loader thread's queue (background mode); None: read on the caller's thread.
    loader: Option<Sender<Group>>,
    /// The largest piece count with a file for every group, when opened.
    max_pieces: u32,
}

/// The groups of a store, each filled once (None inside: no usable file).
struct Slots {
    store: Arc<dyn Store>,
    values: Vec<OnceLock<Option<Packed>>>,
    /// Groups already asked of the loader.
    requested: Vec<AtomicBool>,
    /// The fewest pieces of a group whose file turned out unusable (u32::MAX: none yet):
    /// the tables are complete below it only.
    unusable: AtomicU32,
}

impl Slots {
    fn new(store: Arc<dyn Store>) -> Slots {
        Slots {
            store,
            values: (0..Group::IDS).map(|_| OnceLock::new()).collect(),
            requested: (0..Group::IDS).map(|_| AtomicBool::new(false)).collect(),
            unusable: AtomicU32::new(u32::MAX),
        }
    }

    /// Read a group now, if not yet read (one warning for a damaged file).
    fn fill(&self, g: Group) -> Option<&Packed> {
        self.values[g.id()]
            .get_or_init(|| {
                let v = match group_file::load(self.store.as_ref(), g) {
                    Ok(v) => v,
                    Err(why) => {
                        log::warn!("endgame table left out: {why}");
                        None
                    }
                };
                if v.is_none() {
                    self.unusable.fetch_min(g.pieces(), Ordering::Relaxed);
                }
                v
            })
            .as_ref()
    }
}

/// A group as a probe sees it.
enum TableRef<'a> {
    Plain(&'a [u16]),
    Packed(&'a Packed),
}

impl Default for Tables {
    fn default() -> Self {
        Tables::new()
    }
}

impl Tables {
    pub fn new() -> Tables {
        Tables {
            groups: (0..Group::IDS).map(|_| None).collect(),
            lazy: None,
            cache: Arc::new(BlockCache::new(CACHE_SLOTS)),
        }
    }

    /// The groups in `store`, each read when a probe first needs it (see the module notes).
    pub fn lazy(store: Arc<dyn Store>) -> Tables {
        let max_pieces = Tables::files_up_to(store.as_ref());
        Tables {
            lazy: Some(Lazy {
                slots: Arc::new(Slots::new(store)),
                loader: None,
                max_pieces,
            }),
            ..Tables::new()
        }
    }

    /// The groups in `store`, each read by a loader thread when a probe first asks for it;
    /// until then probes of it answer None (see the module notes). The thread ends with
    /// the tables.
    pub fn background(store: Arc<dyn Store>) -> Tables {
        let max_pieces = Tables::files_up_to(store.as_ref());
        let slots = Arc::new(Slots::new(store));
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
            lazy: Some(Lazy {
                slots,
                loader,
                max_pieces,
            }),
            ..Tables::new()
        }
    }

    /// The groups of up to `max` pieces found in `store`, each unpacked whole with its capture
    /// positions solved (smallest first, so their captures find their groups), and the reason
    /// for each file that exists but cannot be used.
    pub fn load(store: &dyn Store, max: u32) -> (Tables, Vec<String>) {
        let mut t = Tables::new();
        let mut bad = Vec::new();
        for n in 2..=max.min(MAX_PIECES) {
            for g in Group::all_with(n) {
                match group_file::load(store, g).and_then(|p| p.map(|p| t.unpack(&p)).transpose()) {
                    Ok(Some(v)) => t.insert(g, v),
                    Ok(None) => {}
                    Err(why) => bad.push(why),
                }
            }
        }
        (t, bad)
    }

    /// Every value of a compressed group, its capture positions solved from the groups
    /// present (an error if one its captures lead to is not).
    pub fn unpack(&self, p: &Packed) -> Result<Vec<u16>, String> {
        let g = p.group();
        let mut values = p
            .unpack()
            .map_err(|why| format!("{g}: damaged block: {why}"))?;
        values
            .par_iter_mut()
            .enumerate()
            .with_min_len(4096)
            .try_for_each(|(i, v)| {
                let pos = g.position(i as u64);
                if movegen::has_capture(&pos) {
                    *v = self.captures_value(&pos).ok_or_else(|| {
                        format!("{g}: a group its captures lead to is missing or unusable")
                    })?;
                }
                Ok::<(), String>(())
            })?;
        Ok(values)
    }

    /// The largest piece count for which `store` has a file for every group (0 if none),
    /// without reading them. A broken link counts as a file, so that the probe that reads it
    /// says what is wrong with it.
    pub fn files_up_to(store: &dyn Store) -> u32 {
        let mut best = 0;
        for n in 2..=MAX_PIECES {
            if Group::all_with(n)
                .iter()
                .all(|&g| store.exists(&group_file::name(g)).unwrap_or(true))
            {
                best = n;
            } else {
                break;
            }
        }
        best
    }

    /// Keep a group's every value (capture positions included).
    pub fn insert(&mut self, g: Group, values: Vec<u16>) {
        debug_assert_eq!(values.len() as u64, g.size());
        self.groups[g.id()] = Some(Table::Plain(values));
    }

    /// Keep a group compressed (capture positions played at probe time).
    pub fn insert_packed(&mut self, p: Packed) {
        let g = p.group();
        self.groups[g.id()] = Some(Table::Packed(p));
    }

    /// A group, if present (read now, if opened lazily and not read yet).
    fn table(&self, g: Group) -> Option<TableRef<'_>> {
        if g.pieces() > MAX_PIECES {
            return None;
        }
        match &self.groups[g.id()] {
            Some(Table::Plain(v)) => return Some(TableRef::Plain(v)),
            Some(Table::Packed(p)) => return Some(TableRef::Packed(p)),
            None => {}
        }
        let lazy = self.lazy.as_ref()?;
        if !g.valid() || g.pieces() > lazy.max_pieces {
            return None;
        }
        let slots = &lazy.slots;
        if let Some(v) = slots.values[g.id()].get() {
            return v.as_ref().map(TableRef::Packed);
        }
        match &lazy.loader {
            None => slots.fill(g).map(TableRef::Packed),
            Some(tx) => {
                if !slots.requested[g.id()].swap(true, Ordering::Relaxed) {
                    let _ = tx.send(g);
                }
                None
            }
        }
    }

    /// A group's every value, when it is held whole (built here, or `load`ed).
    pub fn plain(&self, g: Group) -> Option<&[u16]> {
        match self.table(g)? {
            TableRef::Plain(v) => Some(v),
            TableRef::Packed(_) => None,
        }
    }

    pub fn has(&self, g: Group) -> bool {
        self.table(g).is_some()
    }

    /// The groups present, smallest first.
    pub fn present(&self) -> Vec<Group> {
        (2..=MAX_PIECES)
            .flat_map(Group::all_with)
            .filter(|g| self.has(*g))
            .collect()
    }

    /// The largest piece count for which every group is present (0 if none); opened lazily,
    /// for which every group has a file, less any group found unusable when read.
    pub fn max_pieces(&self) -> u32 {
        if let Some(lazy) = &self.lazy {
            let unusable = lazy.slots.unusable.load(Ordering::Relaxed);
            return lazy.max_pieces.min(unusable.saturating_sub(1));
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

    /// The value of a position for its side to move, or None without its group (or, for a
    /// capture position in a compressed group, without a group its captures lead to). A side
    /// to move with no pieces left has lost (R16) and needs no table.
    #[inline]
    pub fn value(&self, pos: &Position) -> Option<u16> {
        let c = canonical(pos);
        if c.black().is_empty() {
            return Some(TERMINAL_LOSS);
        }
        let g = Group::of(&c);
        match self.table(g)? {
            TableRef::Plain(values) => Some(values[g.index(&c) as usize]),
            TableRef::Packed(p) => {
                if movegen::has_capture(&c) {
                    self.captures_value(&c)
                } else {
                    p.value(g.index(&c), &self.cache)
                }
            }
        }
    }

    /// The value of a capture position (Black to move) from its captures' values, as the
    /// builder gives it: every move is a capture, so every move restarts the 40-move count
    /// and the dtc of a win or a loss is 1.
    fn captures_value(&self, c: &Position) -> Option<u16> {
        let mut theory = Wdl::Loss;
        let mut fresh_win = false;
        let mut all_fresh_wins = true;
        for mv in movegen::legal_moves(c).iter() {
            let v = self.value(&flip(&c.play_unhashed(mv)))?;
            let class = value::class(v)?;
            theory = theory.max(match value::wdl_of(class) {
                Wdl::Loss => Wdl::Win,
                Wdl::Draw => Wdl::Draw,
                Wdl::Win => Wdl::Loss,
            });
            fresh_win |= class == Wdl50::Loss;
            all_fresh_wins &= class == Wdl50::Win;
        }
        Some(match theory {
            Wdl::Win if fresh_win => value::encode(Wdl50::Win, 1),
            Wdl::Win => value::encode(Wdl50::CursedWin, 1),
            Wdl::Loss if all_fresh_wins => value::encode(Wdl50::Loss, 1),
            Wdl::Loss => value::encode(Wdl50::BlessedLoss, 1),
            Wdl::Draw => value::encode(Wdl50::Draw, 0),
        })
    }
}
