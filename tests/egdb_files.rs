//! Endgame table files that cannot be trusted (issue 23): oversized, forged or damaged files
//! are refused with a reason and never crash, `egdb verify` and `egdb probe` say what is
//! wrong with a set, and the search scores the end of the game and repetitions by the rules
//! when the tables are in.

mod support;

use poolshark_engine::core::game::{DrawCounts, Game};
use poolshark_engine::core::movegen;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::position::Position;
use poolshark_engine::core::{Move, Square};
use poolshark_engine::egdb::index::Group;
use poolshark_engine::egdb::lone_king::LoneKing;
use poolshark_engine::egdb::{group_file, pack, Wdl};
use poolshark_engine::search::{Engine, Limits, SearchControl};
use poolshark_host::egdb::{group_path, lone_king_path, Folder};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Bytes of the file header (`egdb::file`) and of the body's own header (`egdb::pack`).
const HEADER: usize = 32;
const BODY_HEADER: usize = 16;

/// Both kings alone: one of the 2-piece groups, and a position of it.
const KINGS: Group = Group::new(0, 1, 0, 1);
const KINGS_FEN: &str = "B:WK10:BK20";

fn build(name: &str, pieces: u32) -> PathBuf {
    let dir = support::scratch_dir(name);
    poolshark_host::egdb::build(&dir, pieces, 1).expect("build the tables");
    dir
}

/// Tables of up to 4 pieces, built once for the test binaries that read them.
fn built4() -> &'static std::path::Path {
    support::tables_4()
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn put_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Make the file's checksum again over whatever its body now holds.
fn reseal(bytes: &mut [u8]) {
    let sum = pack::checksum(&bytes[HEADER..]);
    put_u64(bytes, 24, sum);
}

/// The blocks of a group file's body: where the class offsets, dtc offsets and data start
/// (from the start of the file), and the number of blocks.
struct Layout {
    blocks: usize,
    class_offsets: usize,
    dtc_offsets: usize,
    data: usize,
}

fn layout(bytes: &[u8]) -> Layout {
    let blocks = u64_at(bytes, HEADER + 8) as usize;
    let class_offsets = HEADER + BODY_HEADER;
    let dtc_offsets = class_offsets + 8 * (blocks + 1);
    // Then a checksum a block for each stream.
    let data = dtc_offsets + 8 * (blocks + 1) + 16 * blocks;
    Layout {
        blocks,
        class_offsets,
        dtc_offsets,
        data,
    }
}

fn probe_cli(dir: &Path, fen: &str) -> (i32, String, String) {
    support::run_cli(&[
        "egdb",
        "probe",
        "--dir",
        dir.to_str().unwrap(),
        "--fen",
        fen,
    ])
}

fn verify_cli(dir: &Path) -> (i32, String, String) {
    support::run_cli(&["egdb", "verify", "--dir", dir.to_str().unwrap()])
}

#[test]
fn a_file_larger_than_its_group_can_be_is_refused_before_it_is_read() {
    let dir = build("egdb-files-huge", 3);
    let p = group_path(&dir, KINGS);
    // Sparse: no disk used. Far above what 2 kings can take, far below the 16 GiB limit.
    let huge = 64 << 20;
    assert!(
        group_file::max_len(KINGS) < huge / 100,
        "{}",
        group_file::max_len(KINGS)
    );
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(huge)
        .unwrap();
    let why = group_file::load(&Folder::new(&dir), KINGS).unwrap_err();
    assert!(
        why.contains(&format!("{huge} bytes, larger than the")),
        "{why}"
    );
    let (code, out, err) = probe_cli(&dir, KINGS_FEN);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("larger than the"), "{err}");
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("b01w01.egdb") && err.contains("larger than the"));

    // The lone-king table (a 4-piece build writes it) has one size.
    let lone_dir = support::scratch_dir("egdb-files-huge-lone");
    let lone = lone_king_path(&lone_dir);
    std::fs::copy(lone_king_path(built4()), &lone).unwrap();
    assert!(LoneKing::load(&Folder::new(&lone_dir)).unwrap().is_some());
    std::fs::File::options()
        .write(true)
        .open(&lone)
        .unwrap()
        .set_len(huge)
        .unwrap();
    let why = LoneKing::load(&Folder::new(&lone_dir))
        .err()
        .expect("refused");
    assert!(why.contains("larger than the"), "{why}");
}

#[test]
fn a_file_just_over_its_bound_is_refused_and_the_real_ones_fit() {
    let dir = build("egdb-files-bound", 3);
    for g in (2..=3).flat_map(Group::all_with) {
        let len = std::fs::metadata(group_path(&dir, g)).unwrap().len();
        assert!(len <= group_file::max_len(g), "{g}: {len}");
    }
    let p = group_path(&dir, KINGS);
    let mut bytes = std::fs::read(&p).unwrap();
    bytes.resize(group_file::max_len(KINGS) as usize + 1, 0);
    std::fs::write(&p, &bytes).unwrap();
    assert!(group_file::load(&Folder::new(&dir), KINGS)
        .unwrap_err()
        .contains("larger than the"));
}

#[test]
fn a_forged_block_index_is_refused_on_open() {
    let dir = build("egdb-files-forged", 2);
    let p = group_path(&dir, KINGS);
    let mut bytes = std::fs::read(&p).unwrap();
    let l = layout(&bytes);
    let data_start = (l.data - HEADER) as u64;
    put_u64(
        &mut bytes,
        l.class_offsets + 8 * l.blocks,
        0u64.wrapping_sub(data_start),
    );
    let past = (bytes.len() - HEADER) as u64 + 1;
    put_u64(&mut bytes, l.dtc_offsets + 8 * l.blocks, past);
    reseal(&mut bytes);
    std::fs::write(&p, &bytes).unwrap();

    let why = group_file::load(&Folder::new(&dir), KINGS).unwrap_err();
    assert!(why.contains("block"), "{why}");
    let (code, out, err) = probe_cli(&dir, KINGS_FEN);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("b01w01.egdb") && err.contains("block"),
        "{err}"
    );
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("b01w01.egdb"), "{err}");
    let db = poolshark_host::egdb::open_lazy(&dir).unwrap();
    assert_eq!(db.probe(&parse_fen(KINGS_FEN).unwrap()), None);

    // Offsets out of order, each in bounds.
    let mut bytes = std::fs::read(&p).unwrap();
    let good = std::fs::read(group_path(&build("egdb-files-forged2", 2), KINGS)).unwrap();
    bytes.copy_from_slice(&good);
    let l = layout(&bytes);
    put_u64(&mut bytes, l.class_offsets, 1);
    reseal(&mut bytes);
    std::fs::write(&p, &bytes).unwrap();
    assert!(group_file::load(&Folder::new(&dir), KINGS)
        .unwrap_err()
        .contains("block index"));
}

#[test]
fn a_damaged_block_answers_not_covered() {
    let dir = build("egdb-files-block", 2);
    let p = group_path(&dir, KINGS);
    let before = poolshark_host::egdb::open_lazy(&dir).unwrap();
    let stored: Vec<Position> = (0..KINGS.size())
        .filter(|&i| !pack::is_capture(KINGS, i))
        .map(|i| KINGS.position(i))
        .collect();
    assert!(stored.iter().all(|p| before.probe(p).is_some()));

    // Flip a bit inside the largest class block (a zstd frame), and seal the file again.
    let mut bytes = std::fs::read(&p).unwrap();
    let l = layout(&bytes);
    let (b, len) = (0..l.blocks)
        .map(|b| {
            let at = l.class_offsets + 8 * b;
            (b, u64_at(&bytes, at + 8) - u64_at(&bytes, at))
        })
        .max_by_key(|&(_, len)| len)
        .unwrap();
    assert!(len > 8, "a class block of {len} bytes");
    let at = l.data + u64_at(&bytes, l.class_offsets + 8 * b) as usize + len as usize / 2;
    bytes[at] ^= 0x10;
    reseal(&mut bytes);
    std::fs::write(&p, &bytes).unwrap();

    // Read for play: the group opens, and every position of the damaged block is not covered.
    let db = poolshark_host::egdb::open_lazy(&dir).unwrap();
    let block = poolshark_engine::egdb::params::PACK_BLOCK as u64;
    for (k, pos) in stored.iter().enumerate() {
        let i = KINGS.index(pos);
        if i / block == b as u64 {
            assert_eq!(db.probe(pos), None, "position {k}");
        }
    }
    let (code, out, err) = probe_cli(&dir, KINGS_FEN);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("block checksum"), "{err}");
    // Read whole (verify, analysis): the group is left out, with the reason.
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("b01w01") && err.contains("block checksum"),
        "{err}"
    );
    assert_eq!(
        poolshark_host::egdb::open(&dir).unwrap().probe(&stored[0]),
        None
    );
}

#[test]
fn a_file_of_the_last_format_asks_for_a_rebuild() {
    let dir = build("egdb-files-v2", 2);
    let p = group_path(&dir, KINGS);
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&p, &bytes).unwrap();
    let why = group_file::load(&Folder::new(&dir), KINGS).unwrap_err();
    assert!(
        why.contains("version 2") && why.contains("rebuild"),
        "{why}"
    );
}

#[test]
fn verify_refuses_broken_links_and_missing_groups() {
    let dir = build("egdb-files-links", 2);
    let d = dir.to_str().unwrap();
    assert_eq!(verify_cli(&dir).0, 0);
    let p = group_path(&dir, KINGS);
    let name = p.to_str().unwrap().to_string();

    std::fs::remove_file(&p).unwrap();
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "a missing group: {err}");
    assert!(err.contains(&name) && err.contains("missing"), "{err}");

    std::os::unix::fs::symlink(dir.join("nowhere.egdb"), &p).unwrap();
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "a dangling link: {err}");
    assert!(err.contains(&name), "{err}");
    let (code, _, err) = support::run_cli(&["egdb", "probe", "--dir", d, "--fen", KINGS_FEN]);
    assert_eq!(code, 2);
    assert!(err.contains(&name), "{err}");

    std::fs::remove_file(&p).unwrap();
    std::os::unix::fs::symlink(&p, &p).unwrap();
    let (code, _, err) = verify_cli(&dir);
    assert_eq!(code, 1, "a link to itself: {err}");
    assert!(err.contains(&name), "{err}");
}

#[test]
fn probe_says_how_far_damaged_tables_reach() {
    let dir = build("egdb-files-reach", 3);
    let p = group_path(&dir, KINGS);
    let mut bytes = std::fs::read(&p).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&p, &bytes).unwrap();
    let (code, _, err) = probe_cli(&dir, KINGS_FEN);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("complete up to 3"), "{err}");
    assert!(
        err.contains("not complete for any number of pieces"),
        "{err}"
    );
    // A 3-piece group whose captures need only sound groups still answers.
    let (code, out, err) = probe_cli(&dir, "B:WK29:B4");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wdl="), "{out}");
}

// In play: the search with the tables.

fn engine() -> Engine {
    let mut engine = Engine::new(16, 1);
    engine.egdb = Some(Arc::new(poolshark_host::egdb::open(built4()).unwrap()));
    engine
}

fn search(game: &Game, analyze: bool) -> poolshark_engine::search::Outcome {
    let limits = Limits {
        depth: Some(4),
        analyze,
        ..Limits::default()
    };
    engine().search(game, &limits, &SearchControl::new(), &mut |_| {})
}

#[test]
fn taking_the_last_piece_is_a_proved_win() {
    // Some position where the side to move takes the opponent's last piece (and has other
    // pieces to move, so the tables hold a value for it).
    let pos = (3..=4)
        .flat_map(Group::all_with)
        .flat_map(|g| (0..g.size()).map(move |i| g.position(i)))
        .find(|p| {
            let moves = movegen::legal_moves(p);
            moves.len() == 1 && p.play(&moves[0]).us().is_empty()
        })
        .expect("a position that takes the last piece");
    for analyze in [false, true] {
        let out = search(&Game::new(pos), analyze);
        assert_eq!(out.score.hub(), "99.99", "analyze {analyze}");
    }
    // Inside the tree: one ply further away, the loser's reply into it.
    let counts = DrawCounts::fresh(&pos);
    let after = pos.play(&movegen::legal_moves(&pos)[0]);
    let s = poolshark_engine::search::egdb::score(
        poolshark_host::egdb::open(built4()).as_ref().unwrap(),
        &after,
        counts,
        3,
    );
    assert_eq!(s.map(|s| s.hub()), Some("-99.97".to_string()));
}

/// The king move of `pos` from `from` to `to`, if legal.
fn king_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    movegen::legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.from == from && m.to == to && !m.is_capture())
}

/// A game that reaches `root` with the position after its `fastest` move already twice on
/// the board: both kings shuffle, the winner's back and forth over `fastest`, the loser's
/// between two squares. None when the position does not allow it.
fn repeating_game(root: &Position, fastest: &Move) -> Option<Game> {
    if fastest.is_capture() || !root.kings().contains(fastest.from) {
        return None;
    }
    let after = root.play(fastest);
    for b1 in movegen::legal_moves(&after).iter() {
        if b1.is_capture() || !after.kings().contains(b1.from) {
            continue;
        }
        let q = after.play(b1);
        let Some(w1) = king_move(&q, fastest.to, fastest.from) else {
            continue;
        };
        let r = q.play(&w1);
        let Some(b2) = king_move(&r, b1.to, b1.from) else {
            continue;
        };
        if r.play(&b2) != *root {
            continue;
        }
        let mut game = Game::new(after);
        for mv in [*b1, w1, b2, *fastest, *b1, w1, b2] {
            game.play(&mv);
        }
        assert_eq!(game.position(), root);
        return Some(game);
    }
    None
}

#[test]
fn the_tables_shortcut_never_plays_a_repetition() {
    let db = poolshark_host::egdb::open(built4()).unwrap();
    let mut tried = 0;
    'groups: for g in Group::all_with(4) {
        for i in (0..g.size()).step_by(7) {
            let root = g.position(i);
            if movegen::has_capture(&root) {
                continue;
            }
            let fresh = DrawCounts::fresh(&root);
            let Some((fastest, _)) =
                poolshark_engine::search::egdb::root_move(&db, &root, fresh, &[])
            else {
                continue;
            };
            let Some(game) = repeating_game(&root, &fastest) else {
                continue;
            };
            // Another move that keeps the win, into a position not seen before.
            let seen = game.repetition_keys();
            let other = movegen::legal_moves(&root).iter().any(|m| {
                let next = root.play(m);
                *m != fastest
                    && !seen.contains(&next.key())
                    && db.probe(&next).is_some_and(|p| p.wdl == Wdl::Loss)
            });
            if !other {
                continue;
            }
            tried += 1;
            let out = search(&game, false);
            let best = out.best.unwrap();
            assert_ne!(
                best,
                fastest,
                "{}: the third repetition",
                poolshark_engine::core::notation::write_fen(&root)
            );
            let mut after = game.clone();
            after.play(&best);
            assert_eq!(after.occurrences(), 1);
            assert!(
                out.score.is_db_win() || out.score.is_win(),
                "{:?}",
                out.score
            );
            if tried >= 3 {
                break 'groups;
            }
        }
    }
    assert!(tried >= 1, "no position to try");
}
