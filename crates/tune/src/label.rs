//! Labelling: search the positions of a data file again, deeper than self-play did, and
//! write each with the new search score in place of the old one.
//!
//! Self-play searches each move at a few thousand nodes, so its search scores, and the
//! blend `learn` aims at, mostly teach the evaluation what a shallow search already sees.
//! A fit aimed at a deeper search's scores (`learn --lambda` near 0) learns to see part of
//! those extra plies in one call (distillation).
//!
//! Input and output are data lines, `FEN ; White's score ; search score`
//! (`tune::dataline`); the game's score is copied. Each thread has its own engine
//! and takes the lines in chunks of `CHUNK`, so a chunk's positions (mostly from one game)
//! share a table; a chunk's lines are written together, in the input's order (a chunk done
//! before an earlier one waits for it). The searches are `analyze` searches, so a
//! position with one legal move is searched too, not answered at depth 1 as in play.
//!
//! A packed file (`tune::packed`) is labelled record by record (`scores`): the output keeps
//! each record's game, result and tables' value, in the input's order, and is written whole
//! at the end.
//!
//! The output starts with a settings line, `# poolshark label nodes N weights HASH data
//! KEYS` (a comment to `learn` and `tune`; KEYS is a hash of the --data positions in order).
//! A run given an output that exists continues it only if that line is its own
//! (`check_existing`): a file of something else is refused untouched, and so is one labelled
//! at other nodes or with other weights, whose scores would not mix, or from other --data,
//! which a resume would silently add to it.

use crate::dataline;
use crate::selfplay::{map_in_parallel, white_search_score, write_in_parallel, SEARCH_CLAMP};
use poolshark_engine::core::{Game, Position};
use poolshark_engine::eval::Weights;
use poolshark_engine::search::{Engine, Limits, SearchControl};
use std::collections::HashSet;

/// Lines a thread takes at once.
pub const CHUNK: usize = 64;

/// One line to label: its position, the game's score (White's) and the game's id, if the
/// line names it (kept, so that the labelled file still holds out by game).
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub pos: Position,
    pub white_score: f64,
    pub game: Option<String>,
}

pub struct LabelConfig {
    /// Nodes per search.
    pub nodes: u64,
    pub threads: usize,
    /// Each thread's table, in MiB.
    pub hash_mb: usize,
    pub weights: Weights,
}

/// The positions of data text `text` (`name` names it in errors), less those whose key is in
/// `skip` or that came earlier; each kept key is added to `skip`.
pub fn parse(text: &str, name: &str, skip: &mut HashSet<u64>) -> Result<Vec<Item>, String> {
    let mut out = Vec::new();
    for (n, line) in dataline::numbered(text) {
        let d = dataline::parse(line).map_err(|e| format!("{name}: line {n}: {e}"))?;
        if skip.insert(d.pos.key()) {
            out.push(Item {
                pos: d.pos,
                white_score: d.white_score,
                game: dataline::game_field(line).map(str::to_string),
            });
        }
    }
    Ok(out)
}

/// What the first line of a labelled file starts with.
pub const HEADER: &str = "# poolshark label";

/// The first line of a file labelled with these settings (with its newline): the nodes per
/// search and a hash of the weights, the two settings that change the scores written, and
/// the positions of the --data (`keys_hash`, before --limit, so a larger --limit goes on).
/// A run continues only a file with the same line. It is a `#` comment, which every reader
/// of data lines skips.
pub fn header(nodes: u64, weights: &Weights, positions: &[Position]) -> String {
    format!(
        "{HEADER} nodes {nodes} weights {:016x} data {:016x}\n",
        weights_hash(weights),
        keys_hash(positions)
    )
}

/// A hash of `positions`' keys, in order: which positions, and in what order, a run labels.
pub fn keys_hash(positions: &[Position]) -> u64 {
    positions
        .iter()
        .fold(poolshark_engine::checksum::fnv1a(b""), |h, p| {
            poolshark_engine::checksum::fnv1a_from(h, &p.key().to_le_bytes())
        })
}

/// A hash of everything in `w` that the evaluation uses: the hand terms and, when it is the
/// evaluation, the network.
pub fn weights_hash(w: &Weights) -> u64 {
    let mut bytes = poolshark_engine::eval::weights_file::write(w, "").into_bytes();
    if let Some(n) = w.network() {
        bytes.extend(poolshark_engine::eval::nnue::network_file::write(n));
    }
    poolshark_engine::checksum::fnv1a(&bytes)
}

/// An existing output file, checked before anything is written to it.
#[derive(Debug, PartialEq)]
pub struct Existing {
    /// The bytes to keep: whole lines only (a stop can leave the last one cut short).
    pub keep: usize,
    /// Positions already labelled there.
    pub items: Vec<Item>,
}

/// Check `text`, the contents of an existing output file (`name` names it), against the
/// header this run would write (`header`). An empty file is a fresh start. Anything else
/// must be a file that `label` wrote with the same settings, every whole line a data line:
/// else the error says why, and nothing may be written to it.
pub fn check_existing(
    text: &str,
    header: &str,
    name: &str,
    skip: &mut HashSet<u64>,
) -> Result<Existing, String> {
    if text.is_empty() {
        return Ok(Existing {
            keep: 0,
            items: Vec::new(),
        });
    }
    let first = text.lines().next().unwrap_or_default();
    if !text.starts_with(HEADER) || !text.contains('\n') {
        return Err(format!(
            "{name} exists and is not a file label wrote (its first line is not '{HEADER} ...'): \
             refusing to change it; name a new file or remove it"
        ));
    }
    let settings = |line: &str| line.split(" data ").next().unwrap_or_default().to_string();
    if first != header.trim_end() && settings(first) == settings(header.trim_end()) {
        return Err(format!(
            "{name} was labelled from other --data ('{first}', this run: '{}'): a run goes on \
             only from its own --data, and would add these positions to it; name a new file",
            header.trim_end()
        ));
    }
    if first != header.trim_end() {
        return Err(format!(
            "{name} was labelled with other settings ('{first}', this run: '{}'): refusing to \
             mix them; name a new file",
            header.trim_end()
        ));
    }
    let keep = text.rfind('\n').map_or(0, |i| i + 1);
    let items = parse(&text[..keep], name, skip)
        .map_err(|e| format!("{name} is not a labelled data file: {e}"))?;
    Ok(Existing { keep, items })
}

/// The score of a `nodes`-node search of `pos` (as a game that starts there), from White's
/// side and clamped as self-play writes it.
pub fn search_score(engine: &mut Engine, pos: &Position, nodes: u64) -> i32 {
    let limits = Limits {
        nodes: Some(nodes),
        analyze: true,
        ..Limits::default()
    };
    let game = Game::new(*pos);
    let out = engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
    white_search_score(pos, out.score.0)
}

/// Label `items` on `cfg.threads` threads, writing each finished chunk's lines to `sink`;
/// `progress` sees the number of positions done.
pub fn run(
    items: &[Item],
    cfg: &LabelConfig,
    sink: &mut (dyn FnMut(&str) -> std::io::Result<()> + Send),
    progress: &mut (dyn FnMut(usize) + Send),
) -> std::io::Result<()> {
    let engine = || {
        let mut engine = Engine::new(cfg.hash_mb, 1);
        engine.weights = cfg.weights.clone();
        engine
    };
    let chunk = |engine: &mut Engine, i: usize| {
        let chunk = &items[i * CHUNK..((i + 1) * CHUNK).min(items.len())];
        // Each chunk from an empty table: its scores hang on its positions alone.
        engine.clear();
        let mut text = String::new();
        for item in chunk {
            let s = search_score(engine, &item.pos, cfg.nodes);
            text.push_str(&dataline::write(
                &item.pos,
                item.white_score,
                Some(s),
                item.game.as_deref(),
            ));
        }
        (text, chunk.len())
    };
    let jobs = items.len().div_ceil(CHUNK);
    let mut positions = |_, n| progress(n);
    write_in_parallel(cfg.threads, jobs, engine, chunk, sink, &mut positions).map(|_| ())
}

/// The scores of `nodes`-node searches of `positions` (White's side, clamped), in their
/// order. Each chunk of `CHUNK` positions starts from an empty table, so the scores are the
/// same on any number of threads (a packed shard is the same bytes on any machine).
/// `progress` sees the number of positions done.
pub fn scores(
    positions: &[Position],
    cfg: &LabelConfig,
    progress: &mut (dyn FnMut(usize) + Send),
) -> Vec<i32> {
    let mut none = |_: usize, _: &[i32]| Ok(());
    scores_resuming(positions, cfg, Done::new(), &mut none, progress).expect("the sink never fails")
}

/// Chunks already scored, by index (from a journal).
pub type Done = std::collections::HashMap<usize, Vec<i32>>;

/// `scores`, but the chunks in `done` are taken as they are, and each chunk searched is
/// handed to `finished` (its index and scores) as it ends, for a journal. The first error
/// from `finished` stops the run and is returned. `progress` counts `done`'s positions too.
pub fn scores_resuming(
    positions: &[Position],
    cfg: &LabelConfig,
    done: Done,
    finished: &mut (dyn FnMut(usize, &[i32]) -> std::io::Result<()> + Send),
    progress: &mut (dyn FnMut(usize) + Send),
) -> std::io::Result<Vec<i32>> {
    let engine = || {
        let mut engine = Engine::new(cfg.hash_mb, 1);
        engine.weights = cfg.weights.clone();
        engine
    };
    let chunks = positions.len().div_ceil(CHUNK);
    let todo: Vec<usize> = (0..chunks).filter(|i| !done.contains_key(i)).collect();
    let chunk = |engine: &mut Engine, job: usize| {
        let i = todo[job];
        engine.clear();
        let scores = positions[i * CHUNK..((i + 1) * CHUNK).min(positions.len())]
            .iter()
            .map(|p| search_score(engine, p, cfg.nodes))
            .collect::<Vec<i32>>();
        (i, scores)
    };
    let mut out = vec![0; positions.len()];
    let mut count = 0;
    for (i, s) in done {
        out[i * CHUNK..i * CHUNK + s.len()].copy_from_slice(&s);
        count += s.len();
    }
    progress(count);
    map_in_parallel(cfg.threads, todo.len(), engine, chunk, &mut |_, (i, s)| {
        finished(i, &s)?;
        out[i * CHUNK..i * CHUNK + s.len()].copy_from_slice(&s);
        count += s.len();
        progress(count);
        Ok(())
    })?;
    Ok(out)
}

/// What the first line of a packed labelling's journal starts with.
pub const JOURNAL_HEADER: &str = "# poolshark label journal";

/// The first line of the journal of a packed labelling (with its newline): the settings
/// that change the scores (`header`'s) and the positions to score, by count and a hash of
/// their keys in order, so that a journal is taken up only by the run it belongs to.
///
/// The journal (`OUT.part` beside the packed `--out`) lets a long run stopped midway go on
/// from its finished chunks: after this line, one line a finished chunk, `INDEX SCORE
/// SCORE ... *SUM`, appended as each ends, SUM the FNV-1a 64 of the line before ` *` (so a
/// changed score is caught, not taken). A chunk's scores hang on its positions alone, so a
/// run taken up from a journal writes the same bytes as one never stopped.
pub fn journal_header(nodes: u64, weights: &Weights, positions: &[Position]) -> String {
    let keys = keys_hash(positions);
    format!(
        "{JOURNAL_HEADER} nodes {nodes} weights {:016x} positions {} keys {keys:016x}\n",
        weights_hash(weights),
        positions.len()
    )
}

/// The journal line of chunk `index` (with its newline).
pub fn journal_line(index: usize, scores: &[i32]) -> String {
    let mut line = index.to_string();
    for s in scores {
        line.push(' ');
        line.push_str(&s.to_string());
    }
    let sum = poolshark_engine::checksum::fnv1a(line.as_bytes());
    line.push_str(&format!(" *{sum:016x}\n"));
    line
}

/// The chunks a journal holds, and how many of its bytes to keep (whole lines: a stop can
/// cut the last one short), checked against this run's `header` over `positions` positions.
/// A journal of another run, or one with a line that is not a chunk of this run, is an
/// error that says so (`name` names the file); nothing may then be written to it.
pub fn read_journal(
    text: &str,
    header: &str,
    name: &str,
    positions: usize,
) -> Result<(Done, usize), String> {
    // Nothing written, or a stop while the first line was: nothing done yet.
    if !text.contains('\n') && header.starts_with(text) {
        return Ok((Done::new(), 0));
    }
    let first = text.lines().next().unwrap_or_default();
    if !text.starts_with(JOURNAL_HEADER) || !text.contains('\n') {
        return Err(format!(
            "{name} is not a journal label wrote (its first line is not '{JOURNAL_HEADER} ...'): \
             refusing to change it; remove it or name another --out"
        ));
    }
    if first != header.trim_end() {
        return Err(format!(
            "{name} is the journal of a run with other settings or positions ('{first}', this \
             run: '{}'): remove it to start again, or name another --out",
            header.trim_end()
        ));
    }
    let keep = text.rfind('\n').map_or(0, |i| i + 1);
    let chunks = positions.div_ceil(CHUNK);
    let mut done = Done::new();
    for (n, line) in text[..keep].lines().enumerate().skip(1) {
        let bad = |why: &str| format!("{name}: line {}: {why}", n + 1);
        let (line, sum) = line.rsplit_once(" *").ok_or_else(|| {
            bad("no checksum (damaged, or written by an older poolshark): remove it to start again")
        })?;
        if u64::from_str_radix(sum, 16).ok()
            != Some(poolshark_engine::checksum::fnv1a(line.as_bytes()))
        {
            return Err(bad(
                "checksum mismatch: the journal is damaged; remove it to start again",
            ));
        }
        let mut fields = line.split(' ');
        let index: usize = fields
            .next()
            .and_then(|f| f.parse().ok())
            .filter(|&i| i < chunks)
            .ok_or_else(|| bad(&format!("not a chunk number below {chunks}")))?;
        let scores = fields
            .map(|f| f.parse::<i32>().ok().filter(|s| s.abs() <= SEARCH_CLAMP))
            .collect::<Option<Vec<i32>>>()
            .ok_or_else(|| bad("a score is not a number within the clamp"))?;
        let want = CHUNK.min(positions - index * CHUNK);
        if scores.len() != want {
            return Err(bad(&format!(
                "{} scores where chunk {index} has {want} positions",
                scores.len()
            )));
        }
        if done.insert(index, scores).is_some() {
            return Err(bad(&format!("chunk {index} a second time")));
        }
    }
    Ok((done, keep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::SEARCH_CLAMP;
    use poolshark_engine::core::notation::parse_fen;

    #[test]
    fn parse_drops_repeats_and_names_bad_lines() {
        let mut skip = HashSet::new();
        let text = "B:W21-32:B1-12 ; 1 ; -\nB:W21-32:B1-12 ; 0 ; 5\n\nW:W21-32:B1-12 ; 0.5\n";
        let items = parse(text, "a.txt", &mut skip).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].white_score, 0.5);
        // Already labelled positions are skipped.
        assert!(parse(text, "a.txt", &mut skip).unwrap().is_empty());
        let e = parse("B:W21-32:B1-12 ; 2 ; 0\n", "b.txt", &mut HashSet::new()).unwrap_err();
        assert_eq!(e, "b.txt: line 1: '2' is not a score from 0 to 1");
        let e = parse("nonsense\n", "b.txt", &mut HashSet::new()).unwrap_err();
        assert!(e.starts_with("b.txt: line 1: expected"), "{e}");
        let e = parse("B:W21 ; 1 ; 0 ; 4 ; 5\n", "b.txt", &mut HashSet::new()).unwrap_err();
        assert!(e.starts_with("b.txt: line 1: expected"), "{e}");
    }

    #[test]
    fn an_existing_output_is_checked_before_it_is_touched() {
        let w = Weights::default();
        let positions = [poolshark_engine::core::Position::start()];
        let head = header(300, &w, &positions);
        let line = "B:W21-32:B1-12 ; 1 ; 5\n";
        let check = |text: &str| check_existing(text, &head, "o.txt", &mut HashSet::new());
        assert_eq!(check("").unwrap().keep, 0);
        // Another file, with or without a final newline: refused.
        for text in [
            "{\"important\": true}",
            "notes\nmore notes",
            "notes\n",
            line,
        ] {
            let e = check(text).unwrap_err();
            assert!(e.contains("not a file label wrote"), "{text}: {e}");
        }
        // Another run's settings.
        for other in [
            header(301, &w, &positions),
            header(300, &Weights::handset(), &positions),
        ] {
            let e = check(&format!("{other}{line}")).unwrap_err();
            assert!(e.contains("other settings"), "{e}");
        }
        // Issue 58, item 10: another --data, which a resume would add to it.
        let e = check(&format!("{}{line}", header(300, &w, &[])));
        assert!(e.unwrap_err().contains("labelled from other --data"));
        assert!(check(head.trim_end()).unwrap_err().contains("not a file"));
        // Its own: the whole lines are kept, a cut last line is not.
        let text = format!("{head}{line}W:W21-32:B1");
        let e = check(&text).unwrap();
        assert_eq!((e.keep, e.items.len()), (head.len() + line.len(), 1));
        let e = check(&format!("{head}nonsense\n")).unwrap_err();
        assert!(e.contains("o.txt: line 2"), "{e}");
    }

    #[test]
    fn a_journal_is_checked_line_by_line() {
        let positions: Vec<Position> =
            poolshark_engine::core::random_games::RandomPositions::new(5, 40)
                .take(CHUNK + 3)
                .collect();
        let w = Weights::default();
        let head = journal_header(300, &w, &positions);
        let read = |body: &str| read_journal(&format!("{head}{body}"), &head, "j", positions.len());
        let (one, zero) = (journal_line(1, &[4, 5, -6]), journal_line(0, &[9; CHUNK]));
        let (done, keep) = read(&format!("{one}{zero}1 2")).unwrap();
        assert_eq!((done.len(), done[&1].as_slice()), (2, &[4, 5, -6][..]));
        assert_eq!(keep, head.len() + one.len() + zero.len());
        // Issue 58, item 10: a changed score, or a line without its sum, is refused.
        let e = read(&one.replace(" 5 ", " 6 ")).unwrap_err();
        assert!(e.contains("j: line 2: checksum mismatch"), "{e}");
        let e = read("1 4 5 -6\n").unwrap_err();
        assert!(e.contains("j: line 2: no checksum"), "{e}");
        // An empty journal, or one cut inside its first line, is nothing done yet.
        for cut in [0, 1, head.len() - 1] {
            let (done, keep) = read_journal(&head[..cut], &head, "j", positions.len()).unwrap();
            assert_eq!((done.len(), keep), (0, 0), "cut at {cut}");
        }
        // A line with a good sum, so that what follows tests the check after it.
        let body = |b: &str| {
            let line = b.trim_end();
            format!(
                "{line} *{:016x}\n",
                poolshark_engine::checksum::fnv1a(line.as_bytes())
            )
        };
        for (b, why) in [
            ("2 1 2 3\n", "not a chunk number below 2"),
            ("x 1\n", "not a chunk number"),
            ("1 1 2\n", "2 scores where chunk 1 has 3 positions"),
            ("1 1 2 3001\n", "within the clamp"),
            ("1 1 2 z\n", "within the clamp"),
        ] {
            let e = read(&body(b)).unwrap_err();
            assert!(e.contains(why), "{b:?}: {e}");
        }
        let twice = format!("{}{}", body("1 1 2 3"), body("1 1 2 3"));
        assert!(read(&twice)
            .unwrap_err()
            .contains("line 3: chunk 1 a second time"));
        // Another run's journal: other nodes, weights or positions; and a file that is not one.
        let fewer = journal_header(300, &w, &positions[1..]);
        for other in [
            journal_header(301, &w, &positions),
            journal_header(300, &Weights::handset(), &positions),
            fewer,
        ] {
            let e = read_journal(&other, &head, "j", positions.len()).unwrap_err();
            assert!(e.contains("other settings or positions"), "{e}");
        }
        let e = read_journal("notes\n", &head, "j", positions.len()).unwrap_err();
        assert!(e.contains("not a journal"), "{e}");
    }

    #[test]
    fn labels_a_won_position_for_the_winner_whatever_the_side_to_move() {
        // White's three kings against Black's lone man: White wins whoever is to move.
        let mut engine = Engine::new(1, 1);
        for fen in ["W:WK10,K14,K18:B25", "B:WK10,K14,K18:B25"] {
            let pos = parse_fen(fen).unwrap();
            let s = search_score(&mut engine, &pos, 20_000);
            assert!(s > 500 && s <= SEARCH_CLAMP, "{fen}: {s}");
        }
    }

    /// The scores of a list do not hang on the threads that searched it.
    #[test]
    fn scores_are_the_same_on_one_thread_and_on_three() {
        let positions: Vec<Position> =
            poolshark_engine::core::random_games::RandomPositions::new(3, 60)
                .take(150)
                .collect();
        let cfg = |threads| LabelConfig {
            nodes: 300,
            threads,
            hash_mb: 1,
            weights: Weights::default(),
        };
        let mut last = 0;
        let one = scores(&positions, &cfg(1), &mut |n| last = n);
        assert_eq!(last, positions.len());
        let three = scores(&positions, &cfg(3), &mut |_| {});
        assert_eq!(one, three);
        assert!(one.iter().any(|&s| s != 0), "{one:?}");
    }

    #[test]
    fn every_position_is_written_once_with_its_game_score() {
        let mut skip = HashSet::new();
        let mut text = String::new();
        // 150 distinct positions: more than two chunks.
        let mut game = Game::new(Position::start());
        for _ in 0..150 {
            let moves = poolshark_engine::core::movegen::legal_moves(game.position());
            if moves.is_empty() {
                break;
            }
            text.push_str(&dataline::write(game.position(), 0.5, None, None));
            game.play(&moves[game.positions().len() % moves.len()]);
        }
        let items = parse(&text, "t", &mut skip).unwrap();
        let cfg = LabelConfig {
            nodes: 200,
            threads: 2,
            hash_mb: 1,
            weights: Weights::default(),
        };
        let (mut out, mut seen) = (String::new(), 0);
        run(
            &items,
            &cfg,
            &mut |t| {
                out.push_str(t);
                Ok(())
            },
            &mut |n| seen = n,
        )
        .unwrap();
        assert_eq!(seen, items.len());
        let mut again = HashSet::new();
        let labelled = parse(&out, "out", &mut again).unwrap();
        assert_eq!(labelled.len(), items.len());
        assert_eq!(again, skip);
        for line in out.lines() {
            let f: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(f[1], "0.5");
            let s: i32 = f[2].parse().expect("a search score on every line");
            assert!(s.abs() <= SEARCH_CLAMP);
        }
    }
}
