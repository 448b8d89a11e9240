//! The packed data file: training positions in 16 bytes each, behind a header with a magic,
//! a version, the run's seed, the record count and a checksum. Its one writer (`write`) and
//! its one reader (`parse`), which `selfplay --format packed`, `label`, `learn`, `tune` and
//! `poolshark data` all call. The text data line (`tune::dataline`) says the same in about 50
//! bytes; a packed file holds 30 M positions in 480 MB.
//!
//! **Header** (80 bytes, little-endian): the magic `PSPACKED`; the version (u32, 2); the
//! record size (u32, 16); the seed of the self-play run (u64: a record's game is `SEED-GAME`,
//! as in the text data); the record count (u64); the checksum (u64); and the run's settings
//! (`Run`, 40 bytes at 40..80), which give a game number its meaning. The settings are: a
//! u32 of flags (bit 0: recorded at all, bit 1: `--keep-duplicates`); `--random-plies`
//! (u32); `--nodes` (u64); `--games` (u64); the shard's index and count (two u32; count 0:
//! joined from shards by `data merge`); and a hash of the weights (u64,
//! `label::weights_hash`). A file converted from text data records none (flags 0).
//! The checksum is FNV-1a 64 (`poolshark_engine::checksum`, the project's one file checksum) over the
//! 32 header bytes before it, the settings and every record. Any changed, missing or extra
//! byte changes it or the length; at 30 M records it costs about half a second, next to
//! seconds to read the file. Version 1 files (a 40-byte header, no settings) are still read,
//! as files that record no settings.
//!
//! **Record** (16 bytes, little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 0..4 | the occupied squares, a `Bitboard` (bit `i` is square `i + 1`) |
//! | 4..10 | two bits for each occupied square, lowest square first: bit 0 set for a White piece, bit 1 for a king; the bits past the last piece are 0 |
//! | 10..12 | the search score (i16), White's side, in hundredths of a man, at most `SEARCH_CLAMP`; `NO_SEARCH` (-32768) where none was made |
//! | 12..16 | a u32: bits 0-26 the game's index in the run, bit 27 the side to move (1: White), bits 28-29 White's result (0 lost, 1 drawn, 2 won), bits 30-31 the endgame tables' value for White (0 none, 1 loss, 2 draw, 3 win) |
//!
//! Twelve pieces a side at most make 24 two-bit codes, 48 bits. The ply is not kept (nothing
//! reads it), which leaves the whole of the last word to the game and the labels.
//!
//! Reading checks the magic, version, record size, length, checksum and then every record
//! (a legal position, a known result, a score in range, no stray bits), and the error names
//! the file and what is wrong with it.

use crate::dataline::{self, DataLine};
use crate::selfplay::SEARCH_CLAMP;
use poolshark_engine::checksum::fnv1a;
use poolshark_engine::core::{Bitboard, Color, Position};

/// The first 8 bytes of every packed data file.
pub const MAGIC: [u8; 8] = *b"PSPACKED";
/// The format version this build writes; it reads this and `VERSION_1`.
pub const VERSION: u32 = 2;
/// The first version, whose header holds no settings.
pub const VERSION_1: u32 = 1;
/// Bytes a record.
pub const RECORD: usize = 16;
/// Bytes of the header.
pub const HEADER: usize = 80;
/// Bytes of a version 1 header.
pub const HEADER_1: usize = 40;
/// The search field of a position nobody searched.
pub const NO_SEARCH: i16 = i16::MIN;
/// Games a run may number (27 bits).
pub const MAX_GAMES: u32 = 1 << 27;

/// An endgame-table value, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    WhiteLoses,
    Draw,
    WhiteWins,
}

impl Exact {
    /// White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f64 {
        match self {
            Exact::WhiteLoses => 0.0,
            Exact::Draw => 0.5,
            Exact::WhiteWins => 1.0,
        }
    }
}

/// One training position with its labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    pub pos: Position,
    /// White's score in the game: 0, 0.5 or 1.
    pub white_score: f64,
    /// The search score there, White's side, in hundredths of a man, within `SEARCH_CLAMP`.
    pub search: Option<i32>,
    /// The game's index in the run (below `MAX_GAMES`).
    pub game: u32,
    /// The endgame tables' value, where they cover the position.
    pub exact: Option<Exact>,
}

/// What a fit reads from a record: its data line, with the game `SEED-GAME` hashed as the
/// text data's, and the tables' value, where known, in place of the game's result (the
/// result the game has with best play from here).
pub fn training_line(r: &Record, seed: u64) -> DataLine {
    DataLine {
        pos: r.pos,
        white_score: r.exact.map_or(r.white_score, Exact::white_score),
        search: r.search,
        game: Some(dataline::game_hash(&crate::selfplay::game_id(
            seed,
            r.game as usize,
        ))),
    }
}

/// The 16 bytes of `r`. The search score is clamped to `SEARCH_CLAMP`; the result must be
/// 0, 0.5 or 1 and the game below `MAX_GAMES` (`check` says so for input that is not known
/// to be).
pub fn encode(r: &Record) -> [u8; RECORD] {
    let mut out = [0u8; RECORD];
    let (white, kings) = (r.pos.white(), r.pos.kings());
    let occupied = r.pos.occupied();
    let mut codes = 0u64;
    for (k, sq) in occupied.iter().enumerate() {
        let bit = Bitboard::from_square(sq);
        let code =
            u64::from(!(white & bit).is_empty()) | (u64::from(!(kings & bit).is_empty()) << 1);
        codes |= code << (2 * k);
    }
    out[0..4].copy_from_slice(&occupied.0.to_le_bytes());
    out[4..10].copy_from_slice(&codes.to_le_bytes()[..6]);
    let search = r
        .search
        .map_or(NO_SEARCH, |s| s.clamp(-SEARCH_CLAMP, SEARCH_CLAMP) as i16);
    out[10..12].copy_from_slice(&search.to_le_bytes());
    let result = (r.white_score * 2.0).round() as u32;
    let exact = match r.exact {
        None => 0,
        Some(Exact::WhiteLoses) => 1,
        Some(Exact::Draw) => 2,
        Some(Exact::WhiteWins) => 3,
    };
    let word = (r.game & (MAX_GAMES - 1))
        | (u32::from(r.pos.side() == Color::White) << 27)
        | ((result & 3) << 28)
        | (exact << 30);
    out[12..16].copy_from_slice(&word.to_le_bytes());
    out
}

/// Why `r` cannot be written as it is, if it cannot.
pub fn check(r: &Record) -> Result<(), String> {
    if ![0.0, 0.5, 1.0].contains(&r.white_score) {
        return Err(format!(
            "White's score {} is not 0, 0.5 or 1 (a packed file keeps game results only)",
            r.white_score
        ));
    }
    if r.game >= MAX_GAMES {
        return Err(format!(
            "game {} is past the last one a file numbers ({})",
            r.game,
            MAX_GAMES - 1
        ));
    }
    Ok(())
}

/// The record in `b`, or what is wrong with it.
pub fn decode(b: &[u8; RECORD]) -> Result<Record, String> {
    let occupied = u32::from_le_bytes(b[0..4].try_into().expect("4 bytes"));
    let mut c = [0u8; 8];
    c[..6].copy_from_slice(&b[4..10]);
    let codes = u64::from_le_bytes(c);
    let n = occupied.count_ones();
    if n > 24 {
        return Err(format!("{n} pieces: a position has at most 24"));
    }
    if n < 24 && codes >> (2 * n) != 0 {
        return Err(format!("piece bits set past the {n} pieces"));
    }
    let (mut white, mut kings) = (0u32, 0u32);
    for (k, sq) in Bitboard(occupied).iter().enumerate() {
        let code = (codes >> (2 * k)) & 3;
        let bit = Bitboard::from_square(sq).0;
        if code & 1 != 0 {
            white |= bit;
        }
        if code & 2 != 0 {
            kings |= bit;
        }
    }
    let word = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
    let side = if word >> 27 & 1 == 1 {
        Color::White
    } else {
        Color::Black
    };
    let pos = Position::new(
        Bitboard(white),
        Bitboard(occupied & !white),
        Bitboard(kings),
        side,
    )
    .map_err(|e| format!("not a position: {e:?}"))?;
    let white_score = match word >> 28 & 3 {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        _ => return Err("result code 3 is no result".into()),
    };
    let search = match i16::from_le_bytes([b[10], b[11]]) {
        NO_SEARCH => None,
        s if i32::from(s).abs() <= SEARCH_CLAMP => Some(i32::from(s)),
        s => return Err(format!("search score {s} is beyond {SEARCH_CLAMP}")),
    };
    let exact = match word >> 30 {
        0 => None,
        1 => Some(Exact::WhiteLoses),
        2 => Some(Exact::Draw),
        _ => Some(Exact::WhiteWins),
    };
    Ok(Record {
        pos,
        white_score,
        search,
        game: word & (MAX_GAMES - 1),
        exact,
    })
}

/// The self-play settings a file's games were played with, besides the seed: two files
/// whose games share a number hold the same games only if these are the same too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// `--games`: the whole run's, of which `shard` is a part.
    pub games: u64,
    pub nodes: u64,
    pub random_plies: u32,
    /// `label::weights_hash` of the evaluation both sides played with.
    pub weights: u64,
    pub keep_duplicates: bool,
    /// The shard of the run this file holds; None for a file `data merge` joined from
    /// shards (it may hold any of the run's games).
    pub shard: Option<poolshark_engine::shard::Shard>,
}

impl Run {
    /// The first setting, shard aside, that differs from `other`'s: how each file was
    /// made, in the options' words (`--nodes 3000`, `--nodes 1000`).
    pub fn differs(&self, other: &Run) -> Option<(String, String)> {
        let keep = |r: &Run| match r.keep_duplicates {
            true => "--keep-duplicates".to_string(),
            false => "no --keep-duplicates".to_string(),
        };
        let weights = |r: &Run| format!("weights {:016x}", r.weights);
        let each: [&dyn Fn(&Run) -> String; 5] = [
            &|r| format!("--nodes {}", r.nodes),
            &|r| format!("--random-plies {}", r.random_plies),
            &|r| format!("--games {}", r.games),
            &weights,
            &keep,
        ];
        each.iter()
            .map(|f| (f(self), f(other)))
            .find(|(a, b)| a != b)
    }

    fn encode(run: Option<&Run>) -> [u8; HEADER - HEADER_1] {
        let mut out = [0u8; HEADER - HEADER_1];
        let Some(r) = run else { return out };
        let flags = 1 | u32::from(r.keep_duplicates) << 1;
        let (index, count) = r.shard.map_or((0, 0), |s| (s.index as u32, s.count as u32));
        out[0..4].copy_from_slice(&flags.to_le_bytes());
        out[4..8].copy_from_slice(&r.random_plies.to_le_bytes());
        out[8..16].copy_from_slice(&r.nodes.to_le_bytes());
        out[16..24].copy_from_slice(&r.games.to_le_bytes());
        out[24..28].copy_from_slice(&index.to_le_bytes());
        out[28..32].copy_from_slice(&count.to_le_bytes());
        out[32..40].copy_from_slice(&r.weights.to_le_bytes());
        out
    }

    fn decode(b: &[u8]) -> Result<Option<Run>, String> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let flags = u32_at(0);
        if flags > 3 {
            return Err(format!("unknown settings flags {flags:#x}"));
        }
        if flags & 1 == 0 {
            return match b.iter().all(|&x| x == 0) {
                true => Ok(None),
                false => Err("settings where the flags say there are none".into()),
            };
        }
        let (index, count) = (u32_at(24) as usize, u32_at(28) as usize);
        let shard = match count {
            0 if index == 0 => None,
            0 => return Err(format!("shard {index} of a merged file")),
            _ if index >= count => return Err(format!("shard {index}/{count}")),
            _ => Some(poolshark_engine::shard::Shard { index, count }),
        };
        Ok(Some(Run {
            games: u64_at(16),
            nodes: u64_at(8),
            random_plies: u32_at(4),
            weights: u64_at(32),
            keep_duplicates: flags & 2 != 0,
            shard,
        }))
    }
}

/// A whole file: its header fields and records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    pub seed: u64,
    /// The settings its games were played with; None where they are not known (converted
    /// from text data, or a version 1 file).
    pub run: Option<Run>,
    pub records: Vec<Record>,
}

/// Whether `bytes` start as a packed file does (else they may be text data lines).
pub fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// The file of `records` from a run seeded `seed`, played with `run`'s settings if known.
pub fn write(seed: u64, run: Option<&Run>, records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + RECORD * records.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD as u32).to_le_bytes());
    out.extend_from_slice(&seed.to_le_bytes());
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&Run::encode(run));
    for r in records {
        out.extend_from_slice(&encode(r));
    }
    let sum = checksum(&out);
    out[32..40].copy_from_slice(&sum.to_le_bytes());
    out
}

/// FNV-1a over the header before the checksum field and everything after it.
fn checksum(file: &[u8]) -> u64 {
    // FNV-1a runs byte by byte, so the two parts hash as one stream.
    let mut h = fnv1a(&file[..32]);
    for &b in &file[40..] {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The header of a packed file, checked: (seed, settings, record count, header size).
/// `name` names the file in the error.
pub fn header(bytes: &[u8], name: &str) -> Result<(u64, Option<Run>, usize, usize), String> {
    let bad = |why: String| format!("{name}: {why}");
    if !is_packed(bytes) {
        return Err(bad("not a packed data file (no PSPACKED magic)".into()));
    }
    if bytes.len() < 16 {
        return Err(bad(format!(
            "cut short: {} bytes, less than a header",
            bytes.len()
        )));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    let size = match version {
        VERSION => HEADER,
        VERSION_1 => HEADER_1,
        _ => {
            return Err(bad(format!(
                "format version {version}; this build reads versions {VERSION_1} and {VERSION}"
            )))
        }
    };
    if bytes.len() < size {
        return Err(bad(format!(
            "cut short: {} bytes, less than the {size}-byte header",
            bytes.len()
        )));
    }
    if u32_at(12) as usize != RECORD {
        return Err(bad(format!(
            "records of {} bytes; version {version} has {RECORD}",
            u32_at(12)
        )));
    }
    let (seed, count) = (u64_at(16), u64_at(24));
    let body = (bytes.len() - size) as u64;
    if body / RECORD as u64 != count || !body.is_multiple_of(RECORD as u64) {
        return Err(bad(format!(
            "the header says {count} records ({} bytes) but {body} bytes follow it: cut short \
             or damaged",
            count.saturating_mul(RECORD as u64)
        )));
    }
    if checksum(bytes) != u64_at(32) {
        return Err(bad("checksum mismatch: the file is damaged".into()));
    }
    let run = match version {
        VERSION => {
            Run::decode(&bytes[HEADER_1..HEADER]).map_err(|e| bad(format!("settings: {e}")))?
        }
        _ => None,
    };
    Ok((seed, run, count as usize, size))
}

/// Read a whole packed file; `name` names it in errors, with the record's number (from 0)
/// where one is bad.
pub fn parse(bytes: &[u8], name: &str) -> Result<File, String> {
    use rayon::prelude::*;
    let (seed, run, _, size) = header(bytes, name)?;
    let records = bytes[size..]
        .par_chunks(RECORD)
        .enumerate()
        .map(|(i, c)| {
            decode(c.try_into().expect("whole records"))
                .map_err(|e| format!("{name}: record {i}: {e}"))
        })
        .collect::<Result<Vec<Record>, String>>()?;
    Ok(File { seed, run, records })
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::notation::parse_fen;
    use poolshark_engine::core::random_games::RandomPositions;

    fn record(fen: &str, score: f64, search: Option<i32>, game: u32) -> Record {
        Record {
            pos: parse_fen(fen).unwrap(),
            white_score: score,
            search,
            game,
            exact: None,
        }
    }

    /// Every position of many random games (openings to king endings, either side to move)
    /// encodes to 16 bytes and back to itself, with every label.
    #[test]
    fn every_legal_position_round_trips() {
        let exacts = [
            None,
            Some(Exact::WhiteLoses),
            Some(Exact::Draw),
            Some(Exact::WhiteWins),
        ];
        for (i, pos) in RandomPositions::new(39, 200).take(100_000).enumerate() {
            let r = Record {
                pos,
                white_score: [0.0, 0.5, 1.0][i % 3],
                search: [
                    None,
                    Some(-SEARCH_CLAMP),
                    Some(0),
                    Some(i as i32 % 700 - 350),
                    Some(SEARCH_CLAMP),
                ][i % 5],
                game: (i as u32 * 7919) % MAX_GAMES,
                exact: exacts[i % 4],
            };
            let back = decode(&encode(&r)).unwrap();
            assert_eq!(
                back,
                r,
                "{}",
                poolshark_engine::core::notation::write_fen(&pos)
            );
            assert_eq!(back.pos.key(), pos.key());
        }
    }

    #[test]
    fn full_boards_and_extremes_round_trip() {
        for fen in [
            "B:W21-32:B1-12",
            "W:WK1,K2,K3,K4,5-12:BK29,K30,K31,K32,13-20",
            "W:WK32:BK1",
        ] {
            let r = Record {
                game: MAX_GAMES - 1,
                exact: Some(Exact::WhiteWins),
                ..record(fen, 1.0, Some(-SEARCH_CLAMP), 0)
            };
            assert_eq!(decode(&encode(&r)).unwrap(), r, "{fen}");
        }
        // Scores past the clamp are written at it.
        let r = record("B:W21-32:B1-12", 0.5, Some(30_000), 3);
        assert_eq!(decode(&encode(&r)).unwrap().search, Some(SEARCH_CLAMP));
        assert!(check(&record("B:W21-32:B1-12", 0.25, None, 0)).is_err());
        assert!(check(&record("B:W21-32:B1-12", 0.5, None, MAX_GAMES)).is_err());
        assert!(check(&record("B:W21-32:B1-12", 0.5, None, MAX_GAMES - 1)).is_ok());
    }

    fn sample() -> Vec<Record> {
        RandomPositions::new(5, 120)
            .take(500)
            .enumerate()
            .map(|(i, pos)| Record {
                pos,
                white_score: 0.5,
                search: Some(i as i32),
                game: i as u32 / 50,
                exact: None,
            })
            .collect()
    }

    const RUN: Run = Run {
        games: 1000,
        nodes: 3000,
        random_plies: 4,
        weights: 0x1234_5678_9abc_def0,
        keep_duplicates: true,
        shard: Some(poolshark_engine::shard::Shard { index: 2, count: 7 }),
    };

    /// Issue 58, item 8: a file keeps the settings its games were played with, merged or
    /// not, and a version 1 file (no settings) is still read, as one that records none.
    #[test]
    fn the_runs_settings_round_trip_and_version_1_still_reads() {
        let records = sample();
        for run in [
            Some(RUN),
            Some(Run {
                shard: None,
                keep_duplicates: false,
                ..RUN
            }),
            None,
        ] {
            let bytes = write(5, run.as_ref(), &records);
            assert_eq!(bytes.len(), HEADER + RECORD * records.len());
            let f = parse(&bytes, "a.psd").unwrap();
            assert_eq!((f.seed, f.run, &f.records), (5, run, &records));
        }
        let mut v1 = write(5, None, &records);
        v1.drain(HEADER_1..HEADER);
        v1[8..12].copy_from_slice(&VERSION_1.to_le_bytes());
        let sum = checksum(&v1);
        v1[32..40].copy_from_slice(&sum.to_le_bytes());
        let f = parse(&v1, "old.psd").unwrap();
        assert_eq!((f.seed, f.run, f.records), (5, None, records));
        // A shard past its count, with a good checksum, is refused.
        let mut b = write(5, Some(&RUN), &[]);
        b[64..68].copy_from_slice(&7u32.to_le_bytes());
        let sum = checksum(&b);
        b[32..40].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(
            parse(&b, "s.psd").unwrap_err(),
            "s.psd: settings: shard 7/7"
        );
    }

    #[test]
    fn a_file_round_trips() {
        let records = sample();
        let bytes = write(2030, None, &records);
        assert_eq!(bytes.len(), HEADER + RECORD * records.len());
        let f = parse(&bytes, "a.psd").unwrap();
        assert_eq!((f.seed, f.records), (2030, records));
        let empty = write(7, None, &[]);
        assert_eq!(
            parse(&empty, "e").unwrap(),
            File {
                seed: 7,
                run: None,
                records: vec![]
            }
        );
    }

    /// Every single-byte change anywhere, a cut, an extra byte, another version or magic: each
    /// is refused, and the error names the file.
    #[test]
    fn damage_is_refused_with_the_file_named() {
        let bytes = write(11, Some(&RUN), &sample()[..40]);
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= flip;
                let e = parse(&b, "d.psd").unwrap_err();
                assert!(e.starts_with("d.psd: "), "byte {i}: {e}");
            }
        }
        let why = |b: &[u8]| parse(b, "d.psd").unwrap_err();
        assert!(why(&bytes[..bytes.len() - 1]).contains("cut short"));
        assert!(why(&bytes[..20]).contains("cut short"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(why(&longer).contains("bytes follow"));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(why(&v3).contains("version 3"), "{}", why(&v3));
        assert!(why(b"B:W21-32:B1-12 ; 1\n").contains("not a packed data file"));
        // A record damaged with a matching checksum: named by its number.
        let mut recs = vec![[0u8; RECORD]; 3];
        recs[0] = encode(&sample()[0]);
        recs[1] = encode(&sample()[1]);
        recs[2] = encode(&sample()[2]);
        recs[2][15] |= 0x30; // result code 3
        let mut b = write(11, None, &[]);
        b[24..32].copy_from_slice(&3u64.to_le_bytes());
        for r in &recs {
            b.extend_from_slice(r);
        }
        let sum = checksum(&b);
        b[32..40].copy_from_slice(&sum.to_le_bytes());
        let e = why(&b);
        assert_eq!(e, "d.psd: record 2: result code 3 is no result");
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let good = encode(&record("B:W21-32:B1-12", 1.0, Some(5), 1));
        let damaged = |f: &dyn Fn(&mut [u8; RECORD])| {
            let mut b = good;
            f(&mut b);
            decode(&b).unwrap_err()
        };
        // A White man on its crowning row (square 1).
        let man_on_1 = damaged(&|b| b[4] |= 0x01);
        assert!(man_on_1.contains("not a position"), "{man_on_1}");
        assert!(damaged(&|b| b[10..12].copy_from_slice(&3001i16.to_le_bytes())).contains("beyond"));
        // Fewer pieces, stray bits past them.
        let few = encode(&record("W:WK10:B5", 0.5, None, 0));
        let mut b = few;
        b[5] = 0xff;
        assert!(decode(&b).unwrap_err().contains("past the 2 pieces"));
    }

    #[test]
    fn training_lines_carry_the_game_and_the_exact_value() {
        let mut r = record("W:WK10,K14:B25", 0.5, Some(120), 42);
        let line = training_line(&r, 2030);
        assert_eq!(line.white_score, 0.5);
        assert_eq!(line.game, Some(dataline::game_hash("2030-42")));
        r.exact = Some(Exact::WhiteWins);
        assert_eq!(training_line(&r, 2030).white_score, 1.0);
        assert_eq!(training_line(&r, 2030).search, Some(120));
    }
}
