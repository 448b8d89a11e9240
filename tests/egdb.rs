//! Endgame tables (issue 13): the index, a 2-4 piece build checked against the counts of
//! docs/RULES.md "Endgame counts", `verify`, damaged files, and the `egdb` commands.

mod support;

use poolshark_engine::core::movegen;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::position::Position;
use poolshark_engine::egdb::index::{canonical, flip, Group};
use poolshark_engine::egdb::{self, Egdb, Wdl, Wdl50};
use poolshark_host::egdb::{group_path, lone_king_path, Folder};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Tables of up to 4 pieces, built once for the test binaries that read them.
fn built() -> &'static std::path::Path {
    support::tables_4()
}

fn open() -> &'static Egdb {
    static DB: OnceLock<Egdb> = OnceLock::new();
    DB.get_or_init(|| poolshark_host::egdb::open(built()).expect("open the built tables"))
}

#[test]
fn the_index_round_trips_over_whole_groups() {
    for n in 2..=4 {
        for g in Group::all_with(n) {
            for i in 0..g.size() {
                let p = g.position(i);
                assert_eq!(Group::of(&p), g);
                assert!(
                    Position::new(p.white(), p.black(), p.kings(), p.side()).is_ok(),
                    "{g} {i}: {p:?}"
                );
                assert_eq!(g.index(&p), i, "{g}: {p:?}");
            }
        }
    }
}

#[test]
fn the_index_round_trips_on_five_and_six_pieces() {
    for n in 5..=6 {
        for g in Group::all_with(n) {
            let step = (g.size() / 2000).max(1);
            for i in (0..g.size()).step_by(step as usize) {
                assert_eq!(g.index(&g.position(i)), i, "{g}");
            }
        }
    }
}

#[test]
fn the_group_sizes_match_the_issue() {
    let total = |n: u32| -> u64 {
        (2..=n)
            .flat_map(Group::all_with)
            .map(|g| 2 * g.size())
            .sum()
    };
    // Either side to move, men never on their own crowning row (issue 13's table).
    assert_eq!(total(5), 291_719_288);
    assert_eq!(total(6) - total(5), 4_852_171_352);
}

#[test]
fn flipping_keeps_the_value() {
    let db = open();
    for fen in ["W:WK3,18:BK29,5", "B:W18:BK29", "W:W22,K1:B10,K30"] {
        let p = parse_fen(fen).unwrap();
        assert_eq!(db.probe(&p), db.probe(&flip(&p)), "{fen}");
        assert_eq!(
            canonical(&p).side(),
            poolshark_engine::core::square::Color::Black
        );
    }
}

/// Wins, draws and losses for the side to move over a whole group.
fn counts(db: &Egdb, g: Group) -> (u64, [u64; 3]) {
    let mut c = [0u64; 3];
    for i in 0..g.size() {
        let p = db.probe(&g.position(i)).expect("a built group");
        c[match p.wdl {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
        // No position of 4 pieces needs more than 80 plies: R18 changes nothing (RULES.md).
        assert!(matches!(p.wdl50, Wdl50::Win | Wdl50::Draw | Wdl50::Loss));
    }
    (g.size(), c)
}

#[test]
fn the_endgame_counts_of_the_rules_come_out() {
    let db = open();
    assert_eq!(db.max_pieces(), 4);
    // docs/RULES.md "Endgame counts": material with the side to move first.
    let table = [
        (Group::new(0, 1, 0, 1), 992, [194, 796, 2]),
        (Group::new(0, 3, 0, 1), 143_840, [132_240, 11_600, 0]),
        (Group::new(0, 1, 0, 3), 143_840, [1_854, 85_468, 56_518]),
        (Group::new(1, 1, 1, 1), 661_200, [143_158, 511_726, 6_316]),
        (Group::new(3, 0, 0, 1), 95_004, [45_280, 48_870, 854]),
    ];
    for (g, size, wdl) in table {
        assert_eq!(counts(db, g), (size, wdl), "{g}");
    }
}

#[test]
fn known_positions() {
    let db = open();
    // RULES.md: kings on 4 and 29, the side to move must step onto the long diagonal.
    let p = db.probe(&parse_fen("B:WK29:BK4").unwrap()).unwrap();
    assert_eq!((p.wdl, p.wdl50, p.dtc), (Wdl::Loss, Wdl50::Loss, Some(2)));
    // A capture pending that wins at once: dtc 1.
    let pos = parse_fen("W:WK1:BK6").unwrap();
    assert!(movegen::has_capture(&pos));
    let p = db.probe(&pos).unwrap();
    assert_eq!((p.wdl, p.wdl50, p.dtc), (Wdl::Win, Wdl50::Win, Some(1)));
    // More pieces than built: no answer.
    assert_eq!(db.probe(&parse_fen("W:W21,22,23:B1,2").unwrap()), None);
}

#[test]
fn verify_passes_on_the_built_tables() {
    let report = egdb::verify::verify(open().tables());
    assert_eq!(report.checked, 6_408_836);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
    let sample = egdb::verify::verify_sample(open().tables(), 7);
    let want: u64 = (2..=4)
        .flat_map(Group::all_with)
        .map(|g| g.size().div_ceil(7))
        .sum();
    assert_eq!((sample.checked, sample.mismatches), (want, 0));
}

#[test]
fn verify_catches_a_wrong_value() {
    // A copy of the 2-piece tables with one value changed (and the file made consistent, so
    // only the values can tell).
    let dir = support::scratch_dir("egdb-wrong");
    poolshark_host::egdb::build(&dir, 2, 1).unwrap();
    let g = Group::new(0, 1, 0, 1);
    let mut values = egdb::group_file::load(&Folder::new(&dir), g)
        .unwrap()
        .unwrap()
        .unpack()
        .unwrap();
    // A stored position (capture positions are not stored: a probe plays them).
    let i = (0..g.size())
        .find(|&i| !egdb::pack::is_capture(g, i))
        .unwrap() as usize;
    values[i] ^= 1 << 13; // another class
    egdb::group_file::save(&Folder::new(&dir), g, &values).unwrap();
    let (code, out, _) = support::run_cli(&["egdb", "verify", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("checked ") && !out.ends_with("mismatches 0\n"),
        "{out}"
    );
}

#[test]
fn damaged_files_are_reported_and_left_out() {
    let dir = support::scratch_dir("egdb-damaged");
    poolshark_host::egdb::build(&dir, 3, 1).unwrap();
    let flipped = group_path(&dir, Group::new(0, 1, 0, 1));
    let mut bytes = std::fs::read(&flipped).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&flipped, &bytes).unwrap();
    let truncated = group_path(&dir, Group::new(0, 2, 0, 1));
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(group_path(&dir, Group::new(0, 1, 0, 2)), b"").unwrap();

    let db = poolshark_host::egdb::open(&dir).unwrap();
    assert_eq!(db.max_pieces(), 0);
    assert!(db.probe(&parse_fen("B:WK29:B4").unwrap()).is_some());
    assert_eq!(db.probe(&parse_fen("B:WK29:BK4").unwrap()), None);
    assert!(db.probe(&parse_fen("B:WK29,K30:BK4").unwrap()).is_none());
    assert!(db.probe(&parse_fen("B:WK29:B4").unwrap()).is_some());

    // Opened for play, a group is read when first probed, and a damaged one left out then.
    let lazy = poolshark_host::egdb::open_lazy(&dir).unwrap();
    assert_eq!(lazy.max_pieces(), 3);
    assert_eq!(lazy.probe(&parse_fen("B:WK29:BK4").unwrap()), None);
    assert_eq!(lazy.probe(&parse_fen("B:WK29,K30:BK4").unwrap()), None);
    assert_eq!(
        lazy.probe(&parse_fen("B:WK29:B4").unwrap()),
        db.probe(&parse_fen("B:WK29:B4").unwrap())
    );

    let d = dir.to_str().unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("checked ") && out.ends_with(" mismatches 0\n"),
        "{out}"
    );
    for name in ["b01w01.egdb: checksum", "b02w01.egdb", "b01w02.egdb"] {
        assert!(err.contains(name), "{name} not in: {err}");
    }
    let (code, _, err) = support::run_cli(&["egdb", "probe", "--dir", d, "--fen", "B:WK29:BK4"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("b01w01.egdb") && err.contains("checksum"),
        "{err}"
    );

    // The next build notices and rebuilds them.
    poolshark_host::egdb::build(&dir, 3, 1).unwrap();
    assert_eq!(poolshark_host::egdb::open(&dir).unwrap().max_pieces(), 3);
}

#[test]
fn probe_prints_one_line_and_refuses_too_many_pieces() {
    let d = built().to_str().unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "probe", "--dir", d, "--fen", "B:WK29:BK4"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "wdl=L wdl50=loss dtc=2\n"),
        "{err}"
    );
    let (_, out, _) = support::run_cli(&["egdb", "probe", "--dir", d, "--fen", "W:WK18:BK3"]);
    assert_eq!(out, "wdl=D wdl50=draw dtc=-\n");
    let (code, out, err) =
        support::run_cli(&["egdb", "probe", "--dir", d, "--fen", "W:W21,22,23:B1,2"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("5 pieces") && err.contains("up to 4"), "{err}");
}

#[test]
fn verify_command_passes_on_the_built_tables() {
    let d = built().to_str().unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "verify", "--dir", d]);
    assert_eq!(
        (code, out.as_str()),
        // 6,408,836 positions of the groups, and the 3,739,840 states of lone13.egdb.
        (0, "checked 10148676 mismatches 0\n"),
        "{err}"
    );
}

#[test]
fn the_lone_king_table_gives_the_13_move_cases() {
    let db = open();
    let data = include_str!("data/count13.txt");
    let mut cases = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let mut game = poolshark_engine::core::Game::new(parse_fen(parts[0]).unwrap());
        for mv in parts[1].split_whitespace() {
            game.play_text(mv).unwrap();
        }
        let left: u32 = parts[3].trim().parse().unwrap();
        let want = if parts[2].trim() == "win" {
            Wdl::Win
        } else {
            Wdl::Draw
        };
        let pos = game.position();
        assert_eq!(db.probe_lone_king(pos, 13 - left), Some(want), "{line}");
        // From the colour-flipped side too, and with the count at zero every case wins.
        assert_eq!(
            db.probe_lone_king(&flip(pos), 13 - left),
            Some(want),
            "{line}"
        );
        assert_eq!(db.probe_lone_king(pos, 0), Some(Wdl::Win), "{line}");
        cases += 1;
    }
    assert_eq!(cases, 17);
    // The count out of range, or other material: no answer.
    let pos = parse_fen("W:WK1,K2,K3:BK32").unwrap();
    assert_eq!(db.probe_lone_king(&pos, 13), None);
    assert_eq!(
        db.probe_lone_king(&parse_fen("W:WK1,K2:BK32").unwrap(), 0),
        None
    );
}

#[test]
fn the_lone_king_table_agrees_with_the_main_table_at_count_zero() {
    // The longest win of three kings against one is 25 plies (RULES.md), 12 lone-king moves:
    // at count 0, R19 takes no win away. At count 12 (one lone move left) it takes some.
    let db = open();
    let g = Group::new(0, 3, 0, 1);
    let mut fewer = 0;
    for i in 0..g.size() {
        let p = g.position(i);
        let main = db.probe(&p).unwrap().wdl;
        assert_eq!(db.probe_lone_king(&p, 0), Some(main), "{p:?}");
        let late = db.probe_lone_king(&p, 12).unwrap();
        assert!(late <= main, "{p:?}");
        fewer += u64::from(late < main);
    }
    assert!(fewer > 0);
}

// In play: the search probing the tables.

use poolshark_engine::core::Game;
use poolshark_engine::search::{Engine, Limits, SearchControl};
use std::sync::Arc;

fn engine_with_tables() -> Engine {
    let mut engine = Engine::new(16, 1);
    engine.egdb = Some(Arc::new(poolshark_host::egdb::open(built()).unwrap()));
    engine
}

/// Does `mv` keep the side to move's database win (the opponent's value after it a loss)?
fn keeps_the_win(db: &Egdb, pos: &Position, hub: &str) -> bool {
    let mv = movegen::legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.hub() == hub)
        .unwrap();
    db.probe(&pos.play(&mv)).unwrap().wdl == Wdl::Loss
}

#[test]
fn the_search_finds_the_tactics_wins_the_tables_cover() {
    let db = open();
    let mut covered = 0;
    for line in include_str!("data/tactics.txt").lines() {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let pos = parse_fen(parts[0]).unwrap();
        if pos.occupied().count() > db.max_pieces() {
            continue;
        }
        covered += 1;
        for analyze in [false, true] {
            let limits = Limits {
                depth: Some(4),
                analyze,
                ..Limits::default()
            };
            let out = engine_with_tables().search(
                &Game::new(pos),
                &limits,
                &SearchControl::new(),
                &mut |_| {},
            );
            let best = out.best.unwrap().hub();
            let score = out.score.hub();
            assert!(
                score.starts_with("89.") || out.score.is_win(),
                "{line}: {score}"
            );
            assert!(keeps_the_win(db, &pos, &best), "{line}: {best}");
        }
    }
    assert!(
        covered >= 2,
        "tactics.txt has {covered} positions of 4 pieces or fewer"
    );
}

/// The search probes its transposition table before the endgame tables and keeps what the
/// tables say in it (issue 21): after a search, every child of the root that the tables
/// decide holds an exact entry of the tables' own score at the depth no search reaches
/// (where the draw counts sharing its key cannot change it); a second search of the same
/// position, with the table warm, probes the tables less; and both give the tables' result.
#[test]
fn the_search_keeps_what_the_tables_say_in_its_table() {
    use poolshark_engine::search::tt::{Bound, MAX_DEPTH};
    let db = open();
    let mut stored = 0;
    for fen in [
        "B:W10,16:BK25,K32",
        "W:WK1,K2,K3:BK32",
        "W:WK10,K14:BK23,K27",
        "W:W28,K19:BK3",
        "B:W22,K30:B5,K8",
    ] {
        let pos = parse_fen(fen).unwrap();
        assert!(pos.occupied().count() <= db.max_pieces(), "{fen}");
        let game = Game::new(pos);
        let limits = Limits {
            depth: Some(6),
            analyze: true,
            ..Limits::default()
        };
        let engine = engine_with_tables();
        let search = || engine.search(&game, &limits, &SearchControl::new(), &mut |_| {});
        let first = search();
        for mv in movegen::legal_moves(&pos).iter() {
            let child = pos.play(mv);
            let counts = game.counts().after(&pos, mv, &child);
            let Some(t) = poolshark_engine::search::egdb::probe(db, &child, counts, 1) else {
                continue;
            };
            let entry = engine
                .tt()
                .probe(poolshark_engine::search::tt_key(&child, counts));
            // Below the 40-move counts the key tells apart (16), a result needing more than
            // the 65 plies every such count leaves is not stored.
            let keyed = counts.lone_king_moves.is_some() || t.stake <= 65;
            if !keyed {
                assert!(entry.is_none_or(|e| e.depth < MAX_DEPTH), "{fen} {mv}");
                continue;
            }
            let e = entry.unwrap_or_else(|| panic!("{fen} {mv}: no entry"));
            assert_eq!((e.bound, e.depth), (Bound::Exact, MAX_DEPTH), "{fen} {mv}");
            assert_eq!(e.score.from_tt(1), t.score, "{fen} {mv}");
            assert_eq!(
                e.score.from_tt(3),
                poolshark_engine::search::egdb::score(db, &child, counts, 3).unwrap()
            );
            stored += 1;
        }
        let second = search();
        let probes = |o: &poolshark_engine::search::Outcome| o.threads[0].egdb_probes;
        assert!(probes(&first) > 0, "{fen}");
        assert!(
            probes(&second) < probes(&first),
            "{fen}: {} then {}",
            probes(&first),
            probes(&second)
        );
        let truth = db.probe(&pos).unwrap();
        for out in [&first, &second] {
            let (best, score) = (out.best.unwrap().hub(), out.score);
            match truth.wdl {
                Wdl::Win => {
                    assert!(score.is_db_win() || score.is_win(), "{fen}: {score}");
                    assert!(keeps_the_win(db, &pos, &best), "{fen}: {best}");
                }
                Wdl::Draw => assert_eq!(score.hub(), "0.00", "{fen}"),
                Wdl::Loss => assert!(score.is_db_loss() || score.is_loss(), "{fen}: {score}"),
            }
        }
    }
    assert!(stored >= 10, "{stored} entries checked");
}

#[test]
fn database_scores_respect_the_draw_counts() {
    // The count13 cases: drawn by R19 where the file says so, database wins otherwise.
    for line in include_str!("data/count13.txt").lines() {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let mut game = Game::new(parse_fen(parts[0]).unwrap());
        for mv in parts[1].split_whitespace() {
            game.play_text(mv).unwrap();
        }
        let limits = Limits {
            depth: Some(6),
            analyze: true,
            ..Limits::default()
        };
        let out = engine_with_tables().search(&game, &limits, &SearchControl::new(), &mut |_| {});
        let score = out.score.hub();
        if parts[2].trim() == "win" {
            assert!(
                score.starts_with("89.") || out.score.is_win(),
                "{line}: {score}"
            );
        } else {
            assert_eq!(score, "0.00", "{line}");
        }
    }
    // A database win whose dtc cannot fit in the 40-move count left is a draw.
    let win = parse_fen("W:WK1,K2,K3:BK32").unwrap();
    let dtc = open().probe(&win).unwrap().dtc.unwrap();
    let at = |quiet: u16| {
        let counts = poolshark_engine::core::game::DrawCounts {
            quiet_king_plies: quiet,
            lone_king_moves: None,
        };
        poolshark_engine::search::egdb::score(open(), &win, counts, 0)
            .unwrap()
            .hub()
    };
    assert!(at(0).starts_with("89."));
    assert!(at(80 - dtc).starts_with("89."));
    assert_eq!(at(81 - dtc), "0.00");
}

#[test]
fn analyze_and_the_hub_report_database_wins() {
    let d = built().to_str().unwrap();
    let (code, out, err) = support::run_cli(&[
        "analyze",
        "--fen",
        "W:WK1,K2,K3:BK32",
        "--depth",
        "4",
        "--egdb",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.contains(" score 89."), "{last}");
    // The principal variation goes on with the tables' line to the end of the game: every
    // move legal in turn, and White (three kings against one) has won at the end.
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert!(pv.len() > 4, "{last}");
    let mut pos = parse_fen("W:WK1,K2,K3:BK32").unwrap();
    for m in &pv {
        let moves = movegen::legal_moves(&pos);
        let mv = moves.iter().find(|mv| mv.hub() == *m).unwrap_or_else(|| {
            panic!(
                "{m} is not legal in {}",
                poolshark_engine::core::notation::write_fen(&pos)
            )
        });
        pos = pos.play(mv);
    }
    assert!(movegen::legal_moves(&pos).is_empty(), "{last}");
    assert_eq!(pos.side(), poolshark_engine::core::Color::Black, "{last}");
    let (code, _, err) = support::run_cli(&["analyze", "--fen", "W:WK1:BK32", "--egdb", "no/such"]);
    assert_eq!(code, 2, "{err}");
    // The Hub: egdb-path loads the tables, egdb=false turns them off.
    let mut e = support::Engine::start();
    e.handshake();
    e.send(&format!("set-param name=egdb-path value=\"{d}\""));
    e.send("pos fen=\"W:WK1,K2,K3:BK32\"");
    e.send("level depth=4");
    // The Hub's loader thread reads a group when a search first asks for it; until then the
    // search goes on without it (it never waits for a file).
    let mut found = false;
    for _ in 0..200 {
        e.send("go analyze");
        let lines = e.until("done");
        let info = lines.iter().rev().find(|l| l.starts_with("info")).unwrap();
        if support::field(info, "score").unwrap().starts_with("89.") {
            found = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(found, "no database score from the Hub");
    e.send("set-param name=egdb value=false");
    e.send("go analyze");
    let lines = e.until("done");
    let info = lines.iter().rev().find(|l| l.starts_with("info")).unwrap();
    assert!(
        !support::field(info, "score").unwrap().starts_with("89."),
        "{info}"
    );
    e.send("set-param name=egdb-path value=\"no/such/dir\"");
    let err = e.recv();
    assert!(
        err.starts_with("error") && err.contains("egdb-path"),
        "{err}"
    );
}

#[test]
fn random_probes_all_answer() {
    let db = open();
    let ps = egdb::speed::random_positions(db, 1000, 7);
    assert_eq!(ps.len(), 1000);
    assert!(ps
        .iter()
        .any(|p| p.side() == poolshark_engine::core::square::Color::White));
    let (n, _, answered) = egdb::speed::time_probes(db, &ps, 2);
    assert_eq!((n, answered), (2000, 2000));
}

/// `egdb stats`: every group's classes and left-out capture positions add up to its size,
/// as counted from the tables themselves; the compressed size is given and is smaller than
/// two bytes a position.
#[test]
fn stats_count_every_position_of_every_group() {
    let dir = built().to_str().unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "stats", "--dir", dir]);
    assert_eq!(code, 0, "{err}");
    let db = open();
    let mut groups = 0;
    for line in out.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let num = |name: &str| -> u64 {
            let at = f.iter().position(|&x| x == name).expect(name);
            f[at + 1].parse().expect("a number")
        };
        let classes: u64 = ["win", "cursed-win", "draw", "blessed-loss", "loss"]
            .iter()
            .map(|c| num(c))
            .sum();
        assert_eq!(classes + num("captures"), num("positions"), "{line}");
        if f[0] == "total" {
            continue;
        }
        groups += 1;
        let g = Group::parse(f[0]).expect("a group name");
        assert_eq!(num("positions"), g.size(), "{line}");
        let captures = (0..g.size())
            .filter(|&i| movegen::has_capture(&g.position(i)))
            .count() as u64;
        assert_eq!(num("captures"), captures, "{line}");
        let wins = (0..g.size())
            .filter(|&i| {
                let p = g.position(i);
                !movegen::has_capture(&p) && db.probe(&p).unwrap().wdl50 == Wdl50::Win
            })
            .count() as u64;
        assert_eq!(num("win"), wins, "{line}");
        assert!(num("bytes") > 0 && num("bytes") < 2 * g.size(), "{line}");
    }
    assert_eq!(
        groups,
        (2..=4).map(|n| Group::all_with(n).len()).sum::<usize>()
    );
}

/// `egdb speed` probes the given number of random positions, compressed or unpacked.
#[test]
fn speed_reports_the_probes_it_made() {
    let dir = built().to_str().unwrap();
    for extra in [None, Some("--unpacked")] {
        let mut args = vec![
            "egdb",
            "speed",
            "--dir",
            dir,
            "--positions",
            "1000",
            "--rounds",
            "3",
        ];
        args.extend(extra);
        let (code, out, err) = support::run_cli(&args);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("probes 3000 seconds "), "{out}");
    }
}

/// Multi-PV with the tables: in analysis each line's score says a win exactly when its move
/// keeps the database win, and line 1 keeps it; in play the tables' root move is the one line.
#[test]
fn multipv_lines_agree_with_the_tables() {
    let db = open();
    let mut covered = 0;
    for line in include_str!("data/tactics.txt").lines() {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let pos = parse_fen(parts[0]).unwrap();
        if pos.occupied().count() > db.max_pieces() {
            continue;
        }
        covered += 1;
        let legal = movegen::legal_moves(&pos).len();
        for analyze in [true, false] {
            let limits = Limits {
                depth: Some(6),
                analyze,
                multipv: 3,
                ..Limits::default()
            };
            let out = engine_with_tables().search(
                &Game::new(pos),
                &limits,
                &SearchControl::new(),
                &mut |_| {},
            );
            let want = if analyze { legal.min(3) } else { 1 };
            assert_eq!(out.lines.len(), want, "{line}: {:?}", out.lines);
            let firsts: Vec<String> = out.lines.iter().map(|l| l.pv[0].hub()).collect();
            assert_eq!(out.best.unwrap().hub(), firsts[0]);
            assert!(keeps_the_win(db, &pos, &firsts[0]), "{line}: {firsts:?}");
            for (k, l) in out.lines.iter().enumerate() {
                assert!(!firsts[..k].contains(&firsts[k]), "{line}: {firsts:?}");
                let win = l.score.hub().starts_with("89.") || l.score.is_win();
                assert_eq!(
                    win,
                    keeps_the_win(db, &pos, &firsts[k]),
                    "{line}: line {} {} {}",
                    k + 1,
                    firsts[k],
                    l.score.hub()
                );
            }
        }
    }
    assert!(covered >= 2);
}

/// Issue 37, defect 9: `egdb verify` checks the 13-move table too. A copy with one value
/// changed (its checksum made good, so only the values can tell) fails with the state named,
/// and one with a flipped byte fails as a bad file.
#[test]
fn verify_checks_the_lone_king_table() {
    let dir = support::scratch_dir("egdb-lone-damaged");
    poolshark_host::egdb::build(&dir, 3, 1).unwrap();
    let d = dir.to_str().unwrap();
    let path = lone_king_path(&dir);
    let good = std::fs::read(&path).expect("the 3-piece build writes lone13.egdb");
    let (code, out, err) = support::run_cli(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 0, "{out}{err}");
    // The header: magic 8, version 4, length 8, checksum 8.
    const HEADER: usize = 28;
    let mut bytes = good.clone();
    let at = HEADER + (bytes.len() - HEADER) / 2;
    bytes[at] = (bytes[at] + 1) % 3;
    let sum = egdb::pack::checksum(&bytes[HEADER..]);
    bytes[20..28].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.ends_with(" mismatches 1\n"), "{out}");
    assert!(
        err.contains("mismatch: ") && err.contains("lone13.egdb"),
        "{err}"
    );
    // A damaged byte: the checksum says so.
    let mut bytes = good;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "verify", "--dir", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("bad table file: ") && err.contains("lone13.egdb: checksum"),
        "{err}"
    );
}

/// `egdb stats` on a folder without tables says so, rather than printing zeros.
#[test]
fn stats_on_a_folder_without_tables_says_there_are_none() {
    let dir = std::env::temp_dir().join(format!("poolshark-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (code, out, err) = support::run_cli(&["egdb", "stats", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no endgame tables there"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The folder `egdb web` wrote, read as the page reads it: through its list, the lone-king
/// table decompressed.
struct Exported {
    dir: PathBuf,
    list: egdb::manifest::Manifest,
}

impl egdb::Store for Exported {
    fn exists(&self, name: &str) -> Result<bool, String> {
        Ok(self.list.files.contains_key(name))
    }
    fn read(&self, name: &str, _max: u64) -> Result<Vec<u8>, String> {
        let (served, len) = self.list.served(name).ok_or("not listed")?;
        let bytes = std::fs::read(self.dir.join(&served)).map_err(|e| e.to_string())?;
        assert_eq!(bytes.len() as u64, len, "{served}: the list's length");
        match self.list.files[name].zst {
            Some(_) => egdb::pack::unzstd(&bytes, self.list.files[name].bytes as usize),
            None => Ok(bytes),
        }
    }
    fn save(&self, _: &str, _: &[u8]) -> Result<(), String> {
        Err("read-only".into())
    }
    fn place(&self, name: &str) -> String {
        name.into()
    }
}

#[test]
fn web_writes_the_tables_the_page_reads_as_they_were() {
    let out = support::scratch_dir("egdb-web").join("egdb");
    let d = built().to_str().unwrap();
    let o = out.to_str().unwrap();
    let (code, stdout, err) =
        support::run_cli(&["egdb", "web", "--dir", d, "--pieces", "4", "--out", o]);
    assert_eq!(code, 0, "{err}");
    let list =
        egdb::manifest::Manifest::parse(&std::fs::read_to_string(out.join("index.json")).unwrap())
            .unwrap();
    // Every group of 2 to 4 pieces, and the lone-king table.
    let groups: usize = (2..=4).map(|n| Group::all_with(n).len()).sum();
    assert_eq!(list.files.len(), groups + 1);
    assert_eq!(
        stdout,
        format!(
            "wrote {} files {} bytes to {o}\n",
            groups + 2,
            dir_bytes(&out)
        )
    );
    let g = Group::parse("b01w12").unwrap();
    assert_eq!(
        std::fs::read(out.join("b01w12.egdb")).unwrap(),
        std::fs::read(group_path(built(), g)).unwrap()
    );
    let page = Egdb::open_lazy(std::sync::Arc::new(Exported {
        dir: out.clone(),
        list,
    }));
    let db = open();
    assert_eq!(page.max_pieces(), 4);
    for fen in [
        "B:WK29:BK4",
        "W:WK18:BK3",
        "W:W22,23:B9",
        "B:WK22,K26:BK29",
        "W:WK17,K18:BK4",
    ] {
        let pos = parse_fen(fen).unwrap();
        assert_eq!(page.probe(&pos), db.probe(&pos), "{fen}");
    }
    let pos = parse_fen("B:WK19,K26,K30:BK3").unwrap();
    for n in [0, 6, 12] {
        assert_eq!(
            page.probe_lone_king(&pos, n),
            db.probe_lone_king(&pos, n),
            "lone king at {n}"
        );
        assert!(page.probe_lone_king(&pos, n).is_some());
    }
    // Again over its own export: replaced. Over a folder of other files: refused, untouched.
    let (code, _, err) =
        support::run_cli(&["egdb", "web", "--dir", d, "--pieces", "3", "--out", o]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.join("lone13.egdb.zst").exists() && !out.join("b01w12.egdb").exists());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let (code, _, err) =
        support::run_cli(&["egdb", "web", "--dir", d, "--pieces", "3", "--out", o]);
    assert_eq!(code, 1);
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // Tables without the groups asked for: the build that makes them, by name.
    let (code, _, err) =
        support::run_cli(&["egdb", "web", "--dir", d, "--pieces", "5", "--out", o]);
    assert_eq!(code, 2);
    assert!(err.contains("egdb build --pieces 5"), "{err}");
}

fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}
