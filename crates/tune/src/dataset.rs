//! A data set from its shards: packed files (`tune::packed`) joined in shard order with each
//! position kept once (`Merger`, `merge`), the endgame tables' value added where they cover a
//! position (`label_exact`), and text data lines converted to records and back (`from_text`,
//! `to_text`). `poolshark data` runs them; `cluster/poolshark_cluster.py data` calls it.
//!
//! A shard is made from the run's seed and its index alone (`selfplay --shard I/N --format
//! packed` writes its games in game order), so shards merged in index order give the same
//! bytes however many workers played them. A position met again (in a later game or shard)
//! is dropped and counted (`Merged::duplicates`): the first record of it is kept, labels and
//! all. Positions are told apart by their 64-bit Zobrist key; at 30 M positions the odds that
//! two different ones share a key, and one is wrongly dropped, are about 1 in 40,000.

use crate::dataline;
use crate::packed::{self, Exact, File, Record, Run};
use poolshark_engine::core::{Color, Position};
use poolshark_engine::egdb::{Egdb, Wdl50};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What `merge` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Records read from the shards.
    pub records: usize,
    /// Records dropped because their position was already in.
    pub duplicates: usize,
}

/// Shards joined one at a time, in the order they are added, each position kept once: only
/// the merged records and the keys seen stay in memory, never every shard at once.
#[derive(Default)]
pub struct Merger {
    out: Option<(String, File)>,
    /// Every shard added so far: its name and the settings it records.
    shards: Vec<(String, Option<Run>)>,
    seen: HashSet<u64>,
    counts: Merged,
}

impl Merger {
    /// Add shard `f` (`name` names it in errors). Every shard must come from the same run
    /// (seed and settings: a game number means nothing across runs), and no two may hold the
    /// same games (`overlap`).
    pub fn add(&mut self, name: &str, f: File) -> Result<(), String> {
        let (first, out) = self.out.get_or_insert_with(|| {
            (
                name.to_string(),
                File {
                    seed: f.seed,
                    run: f.run,
                    records: Vec::new(),
                },
            )
        });
        if f.seed != out.seed {
            return Err(format!(
                "{name} is from the run seeded {}, {first} from {}: merge one run's shards \
                 (learn takes several files)",
                f.seed, out.seed
            ));
        }
        for (other, run) in &self.shards {
            overlap(name, f.run.as_ref(), other, run.as_ref())?;
        }
        self.shards.push((name.to_string(), f.run));
        if self.shards.len() > 1 {
            // Joined from shards: it may hold any of the run's games.
            if let Some(r) = &mut out.run {
                r.shard = None;
            }
        }
        self.counts.records += f.records.len();
        for r in f.records {
            if self.seen.insert(r.pos.key()) {
                out.records.push(r);
            } else {
                self.counts.duplicates += 1;
            }
        }
        Ok(())
    }

    /// The merged file and the counts; an error if no shard was added.
    pub fn finish(self) -> Result<(File, Merged), String> {
        let (_, f) = self.out.ok_or("no shards to merge")?;
        Ok((f, self.counts))
    }
}

/// Why shard `name` (made with `run`) cannot be merged with shard `other` (made with
/// `other_run`), if it cannot: made with other settings, so that one game number would name
/// two games; or holding the same games (one shard given twice, shards of two splits, a
/// merged file with one of its shards). Files that record no settings (from text data, or
/// version 1) are taken only with one another, as before settings were recorded.
pub fn overlap(
    name: &str,
    run: Option<&Run>,
    other: &str,
    other_run: Option<&Run>,
) -> Result<(), String> {
    let (a, b) = match (run, other_run) {
        (None, None) => return Ok(()),
        (Some(a), Some(b)) => (a, b),
        (None, Some(_)) | (Some(_), None) => {
            let (none, some) = if run.is_none() {
                (name, other)
            } else {
                (other, name)
            };
            return Err(format!(
                "shard {none} records no self-play settings (converted from text data, or made \
                 by an older poolshark) and shard {some} does: their game numbers cannot be \
                 told apart; take the shards of one selfplay run"
            ));
        }
    };
    if let Some((x, y)) = a.differs(b) {
        return Err(format!(
            "shard {name} was made with {x}, shard {other} with {y}: they are not shards of one \
             run, and one game number would name two games"
        ));
    }
    match (a.shard, b.shard) {
        (Some(x), Some(y)) if x.count == y.count && x.index != y.index => Ok(()),
        (Some(x), Some(y)) if x == y => Err(format!(
            "shard {name} and shard {other} are both shard {x} of the run: one shard given twice"
        )),
        (Some(x), Some(y)) => Err(format!(
            "shard {name} was made with --shard {x}, shard {other} with --shard {y}: their \
             games overlap; take the shards of one split"
        )),
        _ => Err(format!(
            "shard {name} and shard {other} hold games of the same run, and one of them is \
             already merged: take the shards themselves"
        )),
    }
}

/// Join `shards` (name, file) in the order given into one file, each position once
/// (`Merger`).
pub fn merge(shards: &[(String, File)]) -> Result<(File, Merged), String> {
    let mut m = Merger::default();
    for (name, f) in shards {
        m.add(name, f.clone())?;
    }
    m.finish()
}

/// The tables' value of `pos` for White, if they cover it: the value under the 40-move rule
/// from a fresh count (the rule self-play is played under), a cursed win or blessed loss
/// counting as the draw it is in play.
pub fn exact(egdb: &Egdb, pos: &Position) -> Option<Exact> {
    let p = egdb.probe(pos)?;
    let mover = match p.wdl50 {
        Wdl50::Win => 1,
        Wdl50::Loss => -1,
        Wdl50::CursedWin | Wdl50::Draw | Wdl50::BlessedLoss => 0,
    };
    let white = if pos.side() == Color::White {
        mover
    } else {
        -mover
    };
    Some(match white {
        1 => Exact::WhiteWins,
        -1 => Exact::WhiteLoses,
        _ => Exact::Draw,
    })
}

/// Set every record's `exact` from the tables (None where they do not cover it); the
/// number of records they cover.
pub fn label_exact(records: &mut [Record], egdb: &Egdb) -> usize {
    let max = egdb.max_pieces();
    let mut n = 0;
    for r in records.iter_mut() {
        r.exact = if r.pos.occupied().count() <= max {
            exact(egdb, &r.pos)
        } else {
            None
        };
        n += usize::from(r.exact.is_some());
    }
    n
}

/// Text data lines (`tune::dataline`) as a packed file. Games named `SEED-INDEX` with one
/// seed (as `selfplay` writes them) keep their numbers, so the held-out games are the same;
/// any other names are numbered in the order they first appear, a line without one being a
/// game of its own.
pub fn from_text(text: &str, name: &str) -> Result<File, String> {
    let mut lines = Vec::new();
    for (n, line) in dataline::numbered(text) {
        let d = dataline::parse(line).map_err(|e| format!("{name}: line {n}: {e}"))?;
        lines.push((n, d, dataline::game_field(line)));
    }
    let seed_index = |g: Option<&str>| -> Option<(u64, u32)> {
        let (s, i) = g?.split_once('-')?;
        let i: u32 = i.parse().ok()?;
        (i < packed::MAX_GAMES).then_some((s.parse().ok()?, i))
    };
    let first_seed = lines.first().and_then(|l| seed_index(l.2)).map(|s| s.0);
    let one_run = first_seed.is_some()
        && lines
            .iter()
            .all(|l| seed_index(l.2).map(|s| s.0) == first_seed);
    let mut numbers = std::collections::HashMap::new();
    let mut next = 0u32;
    let mut records = Vec::with_capacity(lines.len());
    for (n, d, g) in &lines {
        let game = match (one_run, g) {
            (true, _) => seed_index(*g).expect("checked").1,
            (false, Some(g)) => *numbers.entry(*g).or_insert_with(|| {
                next += 1;
                next - 1
            }),
            (false, None) => {
                next += 1;
                next - 1
            }
        };
        let r = Record {
            pos: d.pos,
            white_score: d.white_score,
            search: d.search,
            game,
            exact: None,
        };
        packed::check(&r).map_err(|e| format!("{name}: line {n}: {e}"))?;
        records.push(r);
    }
    Ok(File {
        run: None,
        seed: if one_run {
            first_seed.expect("checked")
        } else {
            0
        },
        records,
    })
}

/// A packed file as text data lines (the tables' values are not in that format and are left
/// out).
pub fn to_text(f: &File) -> String {
    let mut out = String::new();
    for r in &f.records {
        let id = crate::selfplay::game_id(f.seed, r.game as usize);
        out.push_str(&dataline::write(&r.pos, r.white_score, r.search, Some(&id)));
    }
    out
}

/// The files of `paths` in shard order: each file as given, and each directory's `*.psd`
/// files ordered by the number in their name (`shard-7.psd` before `shard-10.psd`), then by
/// name. A file still being written (`.psd.part`, a temporary name) is not one.
pub fn shard_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            out.push(p.clone());
            continue;
        }
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.extension().is_some_and(|x| x == EXTENSION) && f.is_file())
            .collect();
        if v.is_empty() {
            return Err(format!("{}: no .{EXTENSION} data files", p.display()));
        }
        v.sort_by_key(|f| (number_in(f), f.clone()));
        out.extend(v);
    }
    Ok(out)
}

/// A data file's contents: text data lines or a packed file.
pub enum Data {
    Text(String),
    Packed(File),
}

/// Read the data file at `path`, packed (up to `Kind::PackedData`'s limit) or text (up to
/// `Kind::TuneData`'s), told apart by the packed magic; with a hash of its bytes (the
/// trainer's checkpoint knows its data by it). The error names the file.
pub fn read(path: &Path) -> Result<(Data, u64), String> {
    use poolshark_host::files::{self, Kind};
    let bytes = files::read(path, Kind::PackedData).map_err(|e| format!("cannot read {e}"))?;
    let hash = poolshark_engine::checksum::fnv1a(&bytes);
    let name = path.display().to_string();
    if packed::is_packed(&bytes) {
        return Ok((Data::Packed(packed::parse(&bytes, &name)?), hash));
    }
    if bytes.len() as u64 > Kind::TuneData.limit() {
        return Err(format!(
            "cannot read {name}: larger than {} MiB, the limit for text tuning data (a packed \
             file may be larger: poolshark data convert)",
            Kind::TuneData.limit() >> 20
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("cannot read {name}: neither packed data nor text"))?;
    Ok((Data::Text(text), hash))
}

/// The extension of packed data files.
pub const EXTENSION: &str = "psd";

/// The last run of digits in a file's name, if any (`shard-00012.psd`: 12).
fn number_in(path: &Path) -> Option<u64> {
    let name = path.file_stem()?.to_str()?;
    let end = name.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = name[..end]
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    name[start..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::notation::parse_fen;

    fn rec(fen: &str, game: u32, score: f64) -> Record {
        Record {
            pos: parse_fen(fen).unwrap(),
            white_score: score,
            search: Some(game as i32),
            game,
            exact: None,
        }
    }

    /// Issue 58, item 8: shards that would give one game number to two games, or hold the
    /// same games twice, are refused by the setting or shard that shows it.
    #[test]
    fn overlapping_or_unlike_shards_are_refused() {
        use poolshark_engine::shard::Shard;
        let run = |index, count, nodes| Run {
            games: 12,
            nodes,
            random_plies: 4,
            weights: 1,
            keep_duplicates: false,
            shard: (count > 0).then_some(Shard { index, count }),
        };
        let ok = |a: Run, b: Run| overlap("b", Some(&b), "a", Some(&a));
        ok(run(0, 2, 10), run(1, 2, 10)).unwrap();
        assert_eq!(
            ok(run(0, 2, 10), run(1, 2, 30)).unwrap_err(),
            "shard b was made with --nodes 30, shard a with --nodes 10: they are not shards of \
             one run, and one game number would name two games"
        );
        assert!(ok(run(0, 2, 10), run(0, 2, 10))
            .unwrap_err()
            .contains("given twice"));
        assert!(ok(run(0, 1, 10), run(0, 1, 10))
            .unwrap_err()
            .contains("given twice"));
        assert!(ok(run(0, 2, 10), run(1, 3, 10))
            .unwrap_err()
            .contains("--shard 1/3"));
        assert!(ok(run(0, 0, 10), run(1, 2, 10))
            .unwrap_err()
            .contains("already merged"));
        let e = overlap("b", None, "a", Some(&run(0, 2, 10))).unwrap_err();
        assert!(
            e.starts_with("shard b records no self-play settings"),
            "{e}"
        );
        overlap("b", None, "a", None).unwrap();
    }

    #[test]
    fn merge_keeps_the_first_record_of_each_position_in_shard_order() {
        let a = File {
            seed: 9,
            run: None,
            records: vec![rec("B:W21-32:B1-12", 0, 1.0), rec("W:W21-32:B1-12", 0, 1.0)],
        };
        let b = File {
            seed: 9,
            run: None,
            records: vec![rec("B:W21-32:B1-12", 1, 0.0), rec("B:W22-32:B1-12", 1, 0.0)],
        };
        let (m, s) = merge(&[("a".into(), a.clone()), ("b".into(), b.clone())]).unwrap();
        assert_eq!(
            s,
            Merged {
                records: 4,
                duplicates: 1
            }
        );
        assert_eq!(m.records, vec![a.records[0], a.records[1], b.records[1]]);
        let (m2, _) = merge(&[("b".into(), b), ("a".into(), a.clone())]).unwrap();
        assert_eq!(m2.records[0].white_score, 0.0);
        let other = File {
            seed: 10,
            ..a.clone()
        };
        let e = merge(&[("a".into(), a), ("o".into(), other)]).unwrap_err();
        assert!(e.starts_with("o is from the run seeded 10"), "{e}");
        assert!(merge(&[]).is_err());
    }

    #[test]
    fn text_converts_to_records_and_back() {
        let start = "W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        let text = format!("# c\nB:{start} ; 1 ; - ; 2030-5\nW:{start} ; 0.5 ; -40 ; 2030-7\n");
        let text = text.as_str();
        let f = from_text(text, "t").unwrap();
        assert_eq!(f.seed, 2030);
        assert_eq!(f.records.iter().map(|r| r.game).collect::<Vec<_>>(), [5, 7]);
        assert_eq!(to_text(&f), text.trim_start_matches("# c\n"));
        // Other names: numbered as they come; no name: a game of its own.
        let f = from_text("B:W21-32:B1-12 ; 1 ; - ; x\nW:W21-32:B1-12 ; 1 ; - ; x\nB:W22-32:B1-12 ; 1\nB:W23-32:B1-12 ; 1 ; - ; y\n", "t").unwrap();
        assert_eq!(f.seed, 0);
        let games: Vec<u32> = f.records.iter().map(|r| r.game).collect();
        assert_eq!(games[0], games[1]);
        assert!(
            games[2] != games[0] && games[3] != games[2] && games[3] != games[0],
            "{games:?}"
        );
        let e = from_text("B:W21-32:B1-12 ; 0.3\n", "t").unwrap_err();
        assert!(e.starts_with("t: line 1: White's score 0.3"), "{e}");
    }

    #[test]
    fn the_tables_value_is_from_whites_side() {
        // Three kings against one man: White wins with either side to move.
        let dir = std::env::temp_dir().join(format!("poolshark-dataset-{}", std::process::id()));
        let tables = poolshark_host::egdb::build_tables(&dir, 4, 1).expect("2-4 piece tables");
        std::fs::remove_dir_all(&dir).unwrap();
        let db = Egdb::from_tables(tables);
        for fen in ["W:WK10,K14,K18:B25", "B:WK10,K14,K18:B25"] {
            assert_eq!(
                exact(&db, &parse_fen(fen).unwrap()),
                Some(Exact::WhiteWins),
                "{fen}"
            );
        }
        assert_eq!(
            exact(&db, &parse_fen("B:WK10,K14,K18:BK25,K29").unwrap()),
            None
        );
        let mut recs = vec![
            rec("B:W21-32:B1-12", 0, 0.5),
            rec("B:WK10,K14,K18:B25", 1, 0.5),
        ];
        assert_eq!(label_exact(&mut recs, &db), 1);
        assert_eq!(
            (recs[0].exact, recs[1].exact),
            (None, Some(Exact::WhiteWins))
        );
    }

    #[test]
    fn shard_files_come_in_index_order() {
        let dir = std::env::temp_dir().join(format!("poolshark-shards-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for n in [
            "shard-10.psd",
            "shard-2.psd",
            "shard-1.psd",
            "shard-3.psd.part",
            "notes.txt",
        ] {
            std::fs::write(dir.join(n), b"").unwrap();
        }
        let names: Vec<String> = shard_files(std::slice::from_ref(&dir))
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["shard-1.psd", "shard-2.psd", "shard-10.psd"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
