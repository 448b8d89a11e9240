//! The independent endgame solver of `tests/oracle` checked against docs/RULES.md ("Endgame
//! counts", R18, R19 and `tests/data/count13.txt`) and against itself (colour symmetry, every
//! value against its successors), then the endgame databases of `poolshark_engine::egdb`, built here
//! for 2 to 4 pieces, against it: every position, and the lone-king table. One file, so the
//! oracle is solved once for all of them.

mod oracle;
mod support;

use oracle::{flip_colours, is_zeroing, Material, Oracle, Outcome, Outcome50, LONE_KING_MOVES};
use poolshark_engine::core::game::Game;
use poolshark_engine::core::notation::{parse_fen, write_fen};
use poolshark_engine::core::{movegen, Color, Position};
use poolshark_engine::egdb::{Egdb, Probe, Wdl, Wdl50};
use std::sync::OnceLock;

/// Every material of 2 to 4 pieces, solved once for all the tests of this file.
fn oracle() -> &'static Oracle {
    static ORACLE: OnceLock<Oracle> = OnceLock::new();
    ORACLE.get_or_init(|| {
        let t = std::time::Instant::now();
        let o = Oracle::solve(4);
        eprintln!("oracle: {} positions solved in {:?}", o.len(), t.elapsed());
        o
    })
}

/// The positions of a material with `side` to move.
fn positions(material: Material, side: Color) -> Vec<Position> {
    material
        .positions()
        .into_iter()
        .filter(|p| p.side() == side)
        .collect()
}

/// (positions, wins, draws, losses) for the side to move.
fn tally(material: Material, side: Color) -> (usize, usize, usize, usize) {
    let o = oracle();
    let all = positions(material, side);
    let count = |w: Outcome| all.iter().filter(|p| o.value(p).wdl == w).count();
    (
        all.len(),
        count(Outcome::Win),
        count(Outcome::Draw),
        count(Outcome::Loss),
    )
}

/// The "Endgame counts" table of docs/RULES.md: (material with White first, White's side to
/// move, and the numbers). The same material with the colours swapped must give the same.
#[test]
fn oracle_reproduces_the_endgame_counts_of_rules_md() {
    let k = |wm, wk, bm, bk| Material::new(wm, wk, bm, bk);
    let table = [
        ("K v K", k(0, 1, 0, 1), (992, 194, 796, 2)),
        ("3K v K", k(0, 3, 0, 1), (143_840, 132_240, 11_600, 0)),
        ("K v 3K", k(0, 1, 0, 3), (143_840, 1_854, 85_468, 56_518)),
        (
            "K+M v K+M",
            k(1, 1, 1, 1),
            (661_200, 143_158, 511_726, 6_316),
        ),
        ("3M v K", k(3, 0, 0, 1), (95_004, 45_280, 48_870, 854)),
    ];
    for (name, m, expected) in table {
        assert_eq!(tally(m, Color::White), expected, "{name}, White to move");
        let swapped = Material::new(m.black_men, m.black_kings, m.white_men, m.white_kings);
        assert_eq!(
            tally(swapped, Color::Black),
            expected,
            "{name}, Black to move"
        );
    }
}

/// The notes of the table: the two lost K v K positions, the longest 3K v K win and the
/// draws with the lone king on the long diagonal.
#[test]
fn oracle_reproduces_the_notes_of_the_endgame_counts() {
    let o = oracle();
    let lost: Vec<String> = positions(Material::new(0, 1, 0, 1), Color::White)
        .iter()
        .filter(|p| o.value(p).wdl == Outcome::Loss)
        .map(write_fen)
        .collect();
    assert_eq!(lost, ["W:WK4:BK29", "W:WK29:BK4"]);
    for p in positions(Material::new(0, 1, 0, 1), Color::White) {
        if o.value(&p).wdl == Outcome::Loss {
            assert_eq!(o.value(&p).dtm, Some(2), "{p:?} is lost in 2 plies");
        }
    }

    let strong = positions(Material::new(0, 3, 0, 1), Color::White);
    let longest = strong.iter().filter_map(|p| o.value(p).dtm).max().unwrap();
    assert_eq!(longest, 25, "longest 3K v K win");
    let long_diagonal = [4u8, 8, 11, 15, 18, 22, 25, 29];
    let on_diagonal = strong
        .iter()
        .filter(|p| o.value(p).wdl == Outcome::Draw)
        .filter(|p| {
            let lone = p.black().lsb().number();
            long_diagonal.contains(&lone)
        })
        .count();
    assert_eq!(
        on_diagonal, 10_704,
        "3K v K draws with the lone king on 4-29"
    );
}

/// RULES.md: "starting R18 from a fresh count changes none of them, since no position with 4
/// pieces or fewer needs more than 80 plies to its next capture or conversion".
#[test]
fn r18_from_a_fresh_count_changes_nothing_up_to_four_pieces() {
    let o = oracle();
    let mut longest = 0;
    let mut positions = 0;
    for m in Material::all_up_to(4) {
        for p in m.positions() {
            let v = o.value(&p);
            let expected = match v.wdl {
                Outcome::Win => Outcome50::Win,
                Outcome::Draw => Outcome50::Draw,
                Outcome::Loss => Outcome50::Loss,
            };
            assert_eq!(v.wdl50, expected, "{p:?}: {v:?}");
            assert_eq!(v.dtc.is_some(), v.wdl != Outcome::Draw, "{p:?}: {v:?}");
            longest = longest.max(v.dtc.unwrap_or(0));
            positions += 1;
        }
    }
    assert_eq!(positions, o.len());
    assert!(usize::from(longest) <= oracle::FORTY_MOVE_PLIES);
    println!("{positions} positions of 2-4 pieces; longest dtc {longest} plies");
}

/// Swapping the colours and turning the board round gives the same game.
#[test]
fn oracle_values_are_colour_symmetric() {
    let o = oracle();
    for m in Material::all_up_to(4) {
        for p in m.positions() {
            assert_eq!(o.value(&p), o.value(&flip_colours(&p)), "{p:?}");
        }
    }
}

/// Every wdl and dtc agrees with the values after each move. With dtc falling by one along
/// every quiet move a win is played by, this proves the wins and losses (no cycle can pass
/// for one), and the draws have no move to a loss and a move to something else than a win.
/// Every position of 2 and 3 pieces and every 5th of 4 pieces here; all of them in the
/// ignored test below.
#[test]
fn oracle_values_agree_with_their_successors() {
    check_successors(5);
}

#[test]
#[ignore = "the whole 4-piece check takes about as long as the solve itself"]
fn oracle_values_agree_with_their_successors_everywhere() {
    check_successors(1);
}

/// The successor check on every position of up to 3 pieces and every `step`th of 4.
fn check_successors(step: usize) {
    let o = oracle();
    for m in Material::all_up_to(4) {
        let step = if m.pieces() < 4 { 1 } else { step };
        for p in m.positions().into_iter().step_by(step) {
            let v = o.value(&p);
            let moves = movegen::legal_moves(&p);
            let next: Vec<(bool, oracle::Value)> = moves
                .iter()
                .map(|mv| (is_zeroing(&p, mv), o.value(&p.play(mv))))
                .collect();
            let wdl = next
                .iter()
                .map(|(_, n)| n.wdl.flip())
                .max()
                .unwrap_or(Outcome::Loss);
            assert_eq!(v.wdl, wdl, "{p:?}");
            let cost = |(zeroing, n): &(bool, oracle::Value)| {
                if *zeroing {
                    1
                } else {
                    n.dtc.expect("a won or lost position") + 1
                }
            };
            let dtc = match v.wdl {
                Outcome::Draw => None,
                Outcome::Win => next
                    .iter()
                    .filter(|(_, n)| n.wdl == Outcome::Loss)
                    .map(cost)
                    .min(),
                Outcome::Loss => Some(next.iter().map(cost).max().unwrap_or(0)),
            };
            assert_eq!(v.dtc, dtc, "{p:?}");
        }
    }
}

/// One case of count13.txt: `FEN ; moves ; result ; k`.
struct Count13 {
    line: String,
    position: Position,
    lone_moves: usize,
    win: bool,
}

fn count13_cases() -> Vec<Count13> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/count13.txt"
    ))
    .expect("read tests/data/count13.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 4, "{line}");
            let mut game = Game::new(parse_fen(fields[0]).expect(line));
            for mv in fields[1].split_whitespace() {
                game.play_text(mv).expect(line);
            }
            let k: usize = fields[3].parse().expect(line);
            let lone_moves = LONE_KING_MOVES - k;
            // The game's own count agrees with the file's description of the case.
            assert_eq!(
                game.counts().lone_king_moves,
                Some(lone_moves as u8),
                "{line}"
            );
            assert_eq!(game.position().side(), Color::White, "{line}");
            Count13 {
                line: line.to_string(),
                position: *game.position(),
                lone_moves,
                win: match fields[2] {
                    "win" => true,
                    "draw" => false,
                    other => panic!("result {other} in {line}"),
                },
            }
        })
        .collect()
}

/// R19 solved as states (position, the lone king's completed moves) gives every case of
/// count13.txt its stated result.
#[test]
fn lone_king_states_give_every_count13_result() {
    let o = oracle();
    let table = o.lone_king(Color::White);
    let cases = count13_cases();
    assert!(cases.len() >= 10);
    for case in &cases {
        let value = table.value(&case.position, case.lone_moves);
        let expected = if case.win {
            Outcome::Win
        } else {
            Outcome::Draw
        };
        assert_eq!(value, expected, "{}", case.line);
        // With the count fresh again the same position is a win whenever the case is.
        if case.win {
            assert_eq!(o.value(&case.position).wdl, Outcome::Win, "{}", case.line);
        }
    }
}

/// R19 states against the plain values: the 13-move count never makes a win out of a draw,
/// from a fresh count it costs the three kings nothing (their longest win is 25 plies, 12
/// lone king moves), and with the colours swapped the values are the same.
#[test]
fn lone_king_states_agree_with_the_plain_values() {
    let o = oracle();
    let white = o.lone_king(Color::White);
    let black = o.lone_king(Color::Black);
    for p in &white.positions {
        let plain = o.value(p).wdl;
        for m in 0..=LONE_KING_MOVES {
            let v = white.value(p, m);
            assert_eq!(v, black.value(&flip_colours(p), m), "{p:?} after {m}");
            match plain {
                Outcome::Win => assert_ne!(v, Outcome::Loss, "{p:?} after {m}"),
                Outcome::Draw => assert_eq!(v, Outcome::Draw, "{p:?} after {m}"),
                Outcome::Loss => assert_ne!(v, Outcome::Win, "{p:?} after {m}"),
            }
        }
        if p.side() == Color::White {
            assert_eq!(white.value(p, 0), plain, "{p:?} from a fresh count");
        }
    }
}

// ---- The endgame databases against the oracle -------------------------------------------

/// The databases of 2 to 4 pieces, built by `poolshark_engine::egdb` into a scratch folder once for
/// this file and opened from there twice: unpacked whole (`Egdb::open`, as `egdb verify`
/// reads them), and compressed as play reads them (`Egdb::open_lazy`: blocks decompressed on
/// demand, capture positions played at probe time).
fn databases() -> &'static (Egdb, Egdb) {
    static DB: OnceLock<(Egdb, Egdb)> = OnceLock::new();
    DB.get_or_init(|| {
        let t = std::time::Instant::now();
        let dir = support::tables_4();
        let db = poolshark_host::egdb::open(dir).expect("open the tables just built");
        let packed = poolshark_host::egdb::open_lazy(dir).expect("open the tables just built");
        // Read every group's file now (the lazy tables keep them in memory).
        assert_eq!(packed.tables().present(), db.tables().present());
        eprintln!(
            "egdb: 2-4 pieces built (or found built) and opened in {:?}",
            t.elapsed()
        );
        (db, packed)
    })
}

fn egdb() -> &'static Egdb {
    &databases().0
}

fn oracle_wdl(w: Outcome) -> Wdl {
    match w {
        Outcome::Loss => Wdl::Loss,
        Outcome::Draw => Wdl::Draw,
        Outcome::Win => Wdl::Win,
    }
}

fn oracle_probe(v: oracle::Value) -> Probe {
    Probe {
        wdl: oracle_wdl(v.wdl),
        wdl50: match v.wdl50 {
            Outcome50::Loss => Wdl50::Loss,
            Outcome50::BlessedLoss => Wdl50::BlessedLoss,
            Outcome50::Draw => Wdl50::Draw,
            Outcome50::CursedWin => Wdl50::CursedWin,
            Outcome50::Win => Wdl50::Win,
        },
        dtc: v.dtc,
    }
}

/// Up to this many mismatches are listed in a failure, with the total.
const SHOWN: usize = 10;

fn report(what: &str, checked: usize, mismatches: &[String], total: usize) {
    assert!(
        total == 0,
        "{what}: {total} of {checked} positions disagree with the oracle; the first:\n{}",
        mismatches.join("\n")
    );
}

/// Every position of every material of 2 to 4 pieces, either side to move, captures pending
/// or not: `probe` answers exactly the oracle's wdl, wdl50 and dtc, from the tables unpacked
/// and from the compressed ones.
#[test]
fn every_two_to_four_piece_probe_agrees_with_the_oracle() {
    let o = oracle();
    let (db, packed) = databases();
    for (name, db) in [("unpacked", db), ("compressed", packed)] {
        assert_eq!(db.max_pieces(), 4);
        let (mut checked, mut total, mut shown) = (0, 0, Vec::new());
        for m in Material::all_up_to(4) {
            for p in m.positions() {
                let expected = oracle_probe(o.value(&p));
                let got = db.probe(&p);
                checked += 1;
                if got != Some(expected) {
                    total += 1;
                    if shown.len() < SHOWN {
                        shown.push(format!(
                            "{}: egdb {got:?}, oracle {expected:?}",
                            write_fen(&p)
                        ));
                    }
                }
            }
        }
        assert_eq!(checked, 12_817_672);
        report(&format!("probe ({name})"), checked, &shown, total);
    }
}

/// The lone-king table (R19) gives the oracle's value for every three kings against one
/// position, either colour and side to move, and every count of lone king moves 0..=12.
#[test]
fn every_lone_king_probe_agrees_with_the_oracle() {
    let (o, db) = (oracle(), egdb());
    let (mut checked, mut total, mut shown) = (0, 0, Vec::new());
    for strong in [Color::White, Color::Black] {
        let table = o.lone_king(strong);
        for p in &table.positions {
            for m in 0..LONE_KING_MOVES {
                let expected = oracle_wdl(table.value(p, m));
                let got = db.probe_lone_king(p, m as u32);
                checked += 1;
                if got != Some(expected) {
                    total += 1;
                    if shown.len() < SHOWN {
                        shown.push(format!(
                            "{} after {m} lone king moves: egdb {got:?}, oracle {expected:?}",
                            write_fen(p)
                        ));
                    }
                }
            }
        }
    }
    report("probe_lone_king", checked, &shown, total);
}

/// The count13.txt cases come out right through the lone-king table.
#[test]
fn count13_cases_come_out_right_through_the_lone_king_table() {
    let db = egdb();
    for case in count13_cases() {
        let expected = if case.win { Wdl::Win } else { Wdl::Draw };
        let got = db.probe_lone_king(&case.position, case.lone_moves as u32);
        assert_eq!(got, Some(expected), "{}", case.line);
    }
}
