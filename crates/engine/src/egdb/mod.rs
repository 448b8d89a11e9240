//! Endgame databases: every position with few pieces solved exactly, under pool's own rules.
//!
//! For each material group (`index::Group`) a table holds, for every position with Black to
//! move (White to move is looked up as its colour flip, `index::flip`), the value for the side
//! to move: its theoretical result (`Wdl`, R16 only), its result under the 40-move rule from a
//! a fresh count (`Wdl50`, R18) and its distance to the next capture or man move (dtc).
//! Files leave capture positions out, and a probe plays their captures (`Tables::value`).
//!
//! - `index`: the perfect index of a group, and the colour flip.
//! - `value`: a value's 16-bit form.
//! - `pack`: a group's values compressed in blocks, and the cache of decompressed blocks.
//! - `group_file`: a group's checksummed file.
//! - `store`: where the files are kept (the trait a host implements: a folder natively).
//! - `manifest`: the list of files a static host serves to the browser.
//! - `params`: block size, compression level, cache size.
//! - `tables`: the groups in memory, and looking a position up in them.
//! - `build`: retrograde analysis, smallest groups first (`build`).
//! - `verify`: re-checking every stored value against its successors.
//! - `speed`: timing probes.
//!
//! Three kings against a lone king under the 13-move rule (R19) is a separate small table,
//! `lone_king`.

// The builder writes compressed files: only the native build has zstd to compress them.
#[cfg(feature = "native")]
pub mod build;
pub mod group_file;
pub mod index;
pub mod lone_king;
pub mod manifest;
pub mod pack;
pub mod params;
pub mod speed;
pub mod store;
pub mod tables;
pub mod value;
pub mod verify;

use crate::core::position::Position;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub use store::Store;
pub use tables::Tables;

/// The theoretical result for the side to move (R16 only: no draw counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

/// The result for the side to move under the 40-move rule (R18) from a fresh count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl50 {
    /// Lost even with the count.
    Loss,
    /// Lost in theory, saved by the 40-move rule.
    BlessedLoss,
    Draw,
    /// Won in theory, but every win needs more than 80 plies without a capture or man move
    /// somewhere.
    CursedWin,
    Win,
}

impl Wdl {
    /// `W`, `D` or `L`, as `egdb probe` prints it.
    pub fn letter(self) -> char {
        match self {
            Wdl::Loss => 'L',
            Wdl::Draw => 'D',
            Wdl::Win => 'W',
        }
    }
}

impl Wdl50 {
    /// The name `egdb probe` prints.
    pub fn name(self) -> &'static str {
        match self {
            Wdl50::Loss => "loss",
            Wdl50::BlessedLoss => "blessed-loss",
            Wdl50::Draw => "draw",
            Wdl50::CursedWin => "cursed-win",
            Wdl50::Win => "win",
        }
    }
}

/// What a probe answers for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub wdl: Wdl,
    pub wdl50: Wdl50,
    /// Plies to the next capture or man move on the best line (None for a draw).
    pub dtc: Option<u16>,
}

impl fmt::Display for Probe {
    /// The `egdb probe` line: `wdl=W wdl50=win dtc=7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wdl={} wdl50={} dtc=",
            self.wdl.letter(),
            self.wdl50.name()
        )?;
        match self.dtc {
            Some(d) => write!(f, "{d}"),
            None => write!(f, "-"),
        }
    }
}

/// Why tables could not be opened or built.
#[derive(Debug)]
pub enum EgdbError {
    /// The directory is missing or unreadable.
    Dir(PathBuf, String),
    /// A table file could not be written.
    Write(String),
    /// Too many pieces asked for.
    TooManyPieces(u32),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Dir(p, why) => write!(f, "endgame tables in {}: {why}", p.display()),
            EgdbError::Write(why) => write!(f, "writing an endgame table: {why}"),
            EgdbError::TooManyPieces(n) => write!(
                f,
                "{n} pieces asked for; tables are indexed for at most {}",
                index::MAX_PIECES
            ),
        }
    }
}

impl std::error::Error for EgdbError {}

/// Opened endgame tables: the groups found in a store, and the lone-king table if built.
pub struct Egdb {
    tables: Tables,
    lone_king: LoneSlot,
}

/// The lone-king table: read at open, or (`open_lazy`) when first probed.
struct LoneSlot {
    table: OnceLock<Option<lone_king::LoneKing>>,
    /// Where to read it from when first probed; None: read at open (or none).
    store: Option<Arc<dyn Store>>,
}

impl LoneSlot {
    fn now(store: &dyn Store) -> LoneSlot {
        LoneSlot {
            table: OnceLock::from(Egdb::lone_king(store)),
            store: None,
        }
    }

    fn get(&self) -> Option<&lone_king::LoneKing> {
        self.table
            .get_or_init(|| self.store.as_deref().and_then(Egdb::lone_king))
            .as_ref()
    }
}

impl Egdb {
    /// Open whatever tables `store` holds, each unpacked whole now. Missing groups are fine;
    /// a file that is truncated or corrupt gets one warning naming it, and its group is
    /// treated as absent.
    pub fn open(store: &dyn Store) -> Egdb {
        let (tables, bad) = Tables::load(store, index::MAX_PIECES);
        for why in bad {
            log::warn!("endgame table left out: {why}");
        }
        Egdb {
            tables,
            lone_king: LoneSlot::now(store),
        }
    }

    /// Open the tables in `store` for play: each group, and the lone-king table, is read when
    /// a probe first needs it (and a damaged file reported then, once). Groups beyond the
    /// largest piece count with every file present are not probed.
    pub fn open_lazy(store: Arc<dyn Store>) -> Egdb {
        Egdb {
            lone_king: LoneSlot {
                table: OnceLock::new(),
                store: Some(Arc::clone(&store)),
            },
            tables: Tables::lazy(store),
        }
    }

    /// Open the tables in `store` for a timed search: as `open_lazy`, but a group is read by
    /// a loader thread when first asked for, and probes of it answer None until it is in, so
    /// a search never waits for a file.
    pub fn open_background(store: Arc<dyn Store>) -> Egdb {
        Egdb {
            lone_king: LoneSlot::now(store.as_ref()),
            tables: Tables::background(store),
        }
    }

    /// The lone-king table in `store`, if there is a usable one (a warning if not).
    fn lone_king(store: &dyn Store) -> Option<lone_king::LoneKing> {
        lone_king::LoneKing::load(store).unwrap_or_else(|why| {
            log::warn!("endgame table left out: {why}");
            None
        })
    }

    /// Tables already in memory (a fresh build, for example).
    pub fn from_tables(tables: Tables) -> Egdb {
        Egdb {
            tables,
            lone_king: LoneSlot {
                table: OnceLock::from(None),
                store: None,
            },
        }
    }

    /// The groups in memory.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The largest piece count for which every group is present (0 if none).
    pub fn max_pieces(&self) -> u32 {
        self.tables.max_pieces()
    }

    /// The value of `pos` for its side to move, or None when no table covers it.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        value::decode(self.tables.value(pos)?)
    }

    /// Three kings against one lone king (R19): the value for the side to move when the lone
    /// king has already made `lone_moves` moves (0..=12) under the 13-move count. None when
    /// the material is not three kings against one or the table is not built.
    pub fn probe_lone_king(&self, pos: &Position, lone_moves: u32) -> Option<Wdl> {
        self.lone_king.get()?.probe(pos, lone_moves)
    }
}
