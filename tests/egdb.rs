//! Endgame tables (issue 13): the index, a 2-4 piece build checked against the counts of
//! docs/RULES.md "Endgame counts", `verify`, damaged files, and the `egdb` commands.

mod support;

use poolshark::core::movegen;
use poolshark::core::notation::parse_fen;
use poolshark::core::position::Position;
use poolshark::egdb::index::{canonical, flip, Group};
use poolshark::egdb::{self, Egdb, Wdl, Wdl50};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Tables of up to 4 pieces, built once for the whole file.
fn built() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = support::scratch_dir("egdb-built");
        egdb::build(&dir, 4, 2).expect("build 2-4 pieces");
        dir
    })
}

fn open() -> &'static Egdb {
    static DB: OnceLock<Egdb> = OnceLock::new();
    DB.get_or_init(|| Egdb::open(built()).expect("open the built tables"))
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
        assert_eq!(canonical(&p).side(), poolshark::core::square::Color::Black);
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
