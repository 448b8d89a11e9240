//! Round trips of FEN, Hub and PDN text, and a table of invalid inputs with their errors.

use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::*;
use poolshark_engine::core::rng::Xorshift64;
use poolshark_engine::core::{Color, Position, PositionError, Square};

fn sq(n: u8) -> Square {
    Square::from_number(n).unwrap()
}

/// Positions from random games, reproducible.
fn sample_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = Xorshift64::new(0x1234_5678_9ABC_DEF0u64);
    for _ in 0..60 {
        let mut pos = Position::start();
        for _ in 0..120 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}

#[test]
fn fen_and_hub_round_trip() {
    for pos in sample_positions() {
        if Position::new(pos.white(), pos.black(), pos.kings(), pos.side()).is_err() {
            continue; // a finished game: the side not to move has no pieces
        }
        let fen = write_fen(&pos);
        assert_eq!(parse_fen(&fen).unwrap(), pos, "{fen}");
        let hub = write_hub_position(&pos);
        assert_eq!(hub.len(), 33);
        assert_eq!(parse_hub_position(&hub).unwrap(), pos, "{hub}");
    }
}

#[test]
fn moves_round_trip_in_both_notations() {
    let mut checked = 0;
    for pos in sample_positions().iter().step_by(7) {
        for mv in legal_moves(pos).iter() {
            assert_eq!(parse_hub_move(pos, &mv.hub()).unwrap(), *mv);
            assert_eq!(parse_pdn_move(pos, &pdn_move(pos, mv)).unwrap(), *mv);
            assert_eq!(parse_move(pos, &mv.hub()).unwrap(), *mv);
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn fen_forms_that_are_accepted() {
    let start = Position::start();
    assert_eq!(parse_fen("B:W21-32:B1-12").unwrap(), start);
    assert_eq!(parse_fen("startpos").unwrap(), start);
    assert_eq!(parse_fen(" B:W21-32:B1-12. ").unwrap(), start);
    assert_eq!(parse_fen("B:B1-12:W21-32").unwrap(), start);
    let p = parse_fen("W:WK3,18:BK29,5").unwrap();
    assert_eq!(p.side(), Color::White);
    assert!(p.kings().contains(sq(3)) && p.kings().contains(sq(29)));
    assert!(!p.kings().contains(sq(18)) && !p.kings().contains(sq(5)));
    let k = parse_fen("W:WK1-3:B5").unwrap();
    assert_eq!(k.kings().count(), 3);
    assert_eq!(
        parse_hub_position("Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").unwrap(),
        start
    );
}

#[test]
fn invalid_inputs_give_typed_errors() {
    use NotationError as E;
    let fen_cases: &[(&str, NotationError)] = &[
        ("", E::Empty),
        ("X:W21:B1", E::BadSide("X".into())),
        ("W:W21,33:B1", E::SquareOutOfRange("33".into())),
        ("W:W21,0:B1", E::SquareOutOfRange("0".into())),
        ("W:W21,21:B1", E::SquareTwice(21)),
        ("W:W21:B21", E::SquareTwice(21)),
        (
            "W:W2:B9",
            E::Position(PositionError::ManOnCrowningRow(Color::White, sq(2))),
        ),
        (
            "W:W21:B30",
            E::Position(PositionError::ManOnCrowningRow(Color::Black, sq(30))),
        ),
        (
            "W:W13-25:B1",
            E::Position(PositionError::TooManyPieces(Color::White, 13)),
        ),
        (
            "W:W21:B",
            E::Position(PositionError::NoPiecesForWaitingSide(Color::Black)),
        ),
        ("W:W21:B1:Q5", E::BadField("Q5".into())),
        ("W:W21:B1:B2", E::BadField("B2".into())),
        ("W:W2a:B1", E::SquareOutOfRange("2a".into())),
        ("W:W21:B1,#", E::UnknownCharacter('#')),
        ("W:W25-21:B1", E::SquareOutOfRange("25-21".into())),
    ];
    for (text, want) in fen_cases {
        assert_eq!(parse_fen(text).as_ref(), Err(want), "{text:?}");
    }
    let hub_cases: &[(&str, NotationError)] = &[
        ("Bbbbb", E::WrongLength(5)),
        ("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", E::BadSide("X".into())),
        (
            "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwz",
            E::UnknownCharacter('z'),
        ),
        (
            "Bwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            E::Position(PositionError::ManOnCrowningRow(Color::White, sq(1))),
        ),
    ];
    for (text, want) in hub_cases {
        assert_eq!(parse_hub_position(text).as_ref(), Err(want), "{text:?}");
    }
    let start = Position::start();
    let move_cases: &[(&str, NotationError)] = &[
        ("", E::Empty),
        ("11-17", E::IllegalMove("11-17".into())),
        ("21-17", E::IllegalMove("21-17".into())),
        ("11-15-19", E::BadMoveSyntax("11-15-19".into())),
        ("11", E::BadMoveSyntax("11".into())),
        ("11x15-19", E::BadMoveSyntax("11x15-19".into())),
        ("40-44", E::SquareOutOfRange("40".into())),
        ("ab-cd", E::SquareOutOfRange("ab".into())),
    ];
    for (text, want) in move_cases {
        assert_eq!(parse_hub_move(&start, text).as_ref(), Err(want), "{text:?}");
    }
    // From and to alone can match two captures.
    let pos = parse_fen("W:WK2,21,22,26,30,31,32:B1,4,5,7,14,15,19,20").unwrap();
    match parse_hub_move(&pos, "2x9") {
        Err(E::AmbiguousMove(text, options)) => {
            assert_eq!(text, "2x9");
            assert!(
                options.contains(&"2x9x7x14x15".to_string())
                    && options.contains(&"2x9x7x14x19".to_string())
            );
        }
        other => panic!("{other:?}"),
    }
    let pos = parse_fen("W:WK22:B12,15,25").unwrap();
    assert!(parse_pdn_move(&pos, "22x29").is_ok());
    let pos = parse_fen("W:WK13,K14:B22,23").unwrap();
    assert!(matches!(
        parse_hub_move(&pos, "13x12x22"),
        Err(E::IllegalMove(_))
    ));
    assert!(matches!(
        parse_hub_move(&pos, "13x12x22x22"),
        Err(E::SquareTwice(22))
    ));
}

#[test]
fn error_messages_say_what_is_wrong() {
    let msg = parse_fen("W:W2:B9").unwrap_err().to_string();
    assert!(msg.contains("crowning row") && msg.contains('2'), "{msg}");
    let msg = parse_fen("W:W5-17:B1").unwrap_err().to_string();
    assert!(msg.contains("more than 12"), "{msg}");
}

/// Men capture backwards too, so two captures of the man on 5 to 32 can pass through the same
/// squares: `5x14x23x32` (taking 9, 18, 27) and `5x14x21x30x23x32` (9, 17, 25, 26, 27, back
/// up from 30 over 26). The written full path of the shorter one must read back as that one,
/// not as ambiguous (found in a match's PDN, which `stats` could not read).
#[test]
fn a_full_capture_path_is_not_ambiguous_with_a_longer_one_through_it() {
    let pos = parse_fen("B:WK9,17,K18,22,25,26,27,28,29:B5,13,19").unwrap();
    let short = legal_moves(&pos)
        .iter()
        .copied()
        .find(|m| m.hub() == "5x32x9x18x27")
        .expect("the three-piece capture");
    let long = legal_moves(&pos)
        .iter()
        .copied()
        .find(|m| m.hub() == "5x32x9x17x25x26x27")
        .expect("the five-piece capture");
    assert_eq!(pdn_move(&pos, &short), "5x14x23x32");
    assert_eq!(pdn_move(&pos, &long), "5x14x21x30x23x32");
    assert_eq!(parse_pdn_move(&pos, "5x14x23x32").unwrap(), short);
    assert_eq!(parse_move(&pos, "5x14x23x32").unwrap(), short);
    assert_eq!(parse_pdn_move(&pos, "5x14x21x30x23x32").unwrap(), long);
    // A shortened path is still read as before: one match is that move, two are ambiguous.
    assert_eq!(parse_pdn_move(&pos, "5x21x32").unwrap(), long);
    for text in ["5x32", "5x14x32", "5x23x32"] {
        assert!(
            matches!(
                parse_pdn_move(&pos, text),
                Err(NotationError::AmbiguousMove(..))
            ),
            "{text}"
        );
    }
}

/// Every legal move's PDN text reads back as that move, in every position of the perft
/// suite (many kings and long captures, which random games seldom reach).
#[test]
fn pdn_moves_round_trip_in_the_perft_positions() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft_random.txt"
    ))
    .unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let pos = parse_fen(fen).unwrap();
        let mut frontier = vec![pos];
        // The positions and their children: captures two plies deep included.
        for mv in legal_moves(&pos).iter() {
            frontier.push(pos.play(mv));
        }
        for p in &frontier {
            for mv in legal_moves(p).iter() {
                let text = pdn_move(p, mv);
                assert_eq!(
                    parse_pdn_move(p, &text).unwrap(),
                    *mv,
                    "{} {text}",
                    write_fen(p)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
