//! Every worked example of docs/RULES.md, as the exact set of legal moves, with the PDN forms
//! the table gives and the moves it lists as not legal.

use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::{
    parse_fen, parse_hub_move, parse_pdn_move, pdn_move, NotationError,
};
use std::collections::BTreeSet;

struct Example {
    fen: &'static str,
    legal: &'static [&'static str],
    /// (Hub move, its PDN text) pairs that the table spells out.
    pdn: &'static [(&'static str, &'static str)],
    /// Hub text of moves that another rule set would allow.
    not_legal: &'static [&'static str],
}

const EXAMPLES: &[Example] = &[
    Example {
        fen: "W:W11,K18,29:B6,7,22",
        legal: &["11x9x6x7", "18x25x22"],
        pdn: &[("11x9x6x7", "11x2x9")],
        not_legal: &["11x2x7", "11x2x6x7"],
    },
    Example {
        fen: "W:W19,K26:B8,10,16,K29",
        legal: &["19x3x8x16"],
        pdn: &[("19x3x8x16", "19x12x3")],
        not_legal: &["19x17x8x10x16", "19x21x8x10x16"],
    },
    Example {
        fen: "W:WK24:B7,15",
        legal: &["24x3x7x15"],
        pdn: &[("24x3x7x15", "24x10x3")],
        not_legal: &["24x1x15", "24x6x15", "24x10x15"],
    },
    Example {
        fen: "W:WK13,K14:B22,23",
        legal: &[
            "13x12x22x23",
            "13x16x22x23",
            "13x19x22x23",
            "14x27x23",
            "14x32x23",
        ],
        pdn: &[("13x12x22x23", "13x26x12")],
        not_legal: &["13x31x22"],
    },
    Example {
        fen: "W:WK22:B12,15,25",
        legal: &["22x29x25", "22x11x15", "22x8x15", "22x4x15"],
        pdn: &[],
        not_legal: &["22x29x15x25", "22x11x15x25", "22x8x15x25", "22x4x15x25"],
    },
    Example {
        fen: "W:WK1:B7,10,20,26,27",
        legal: &[
            "1x30x10x26",
            "1x13x10x26x27",
            "1x17x10x26x27",
            "1x22x10x26x27",
        ],
        pdn: &[("1x30x10x26", "1x19x30"), ("1x13x10x26x27", "1x24x31x13")],
        not_legal: &["1x3x7x10x26x27"],
    },
    Example {
        fen: "B:WK7,26,27:BK18,24",
        legal: &["18x32x27", "24x22x26x27"],
        pdn: &[("18x32x27", "18x32"), ("24x22x26x27", "24x31x22")],
        not_legal: &["24x15x26x27", "24x13x26x27"],
    },
    Example {
        fen: "W:WK32:B6,7,24,27",
        legal: &["32x3x7x27", "32x11x6x7x27", "32x16x6x7x27", "32x20x6x7x27"],
        pdn: &[],
        not_legal: &["32x23x24x27", "32x18x27", "32x23x27", "32x5x6x7x27x24"],
    },
    Example {
        fen: "W:WK10:B6,24",
        legal: &["10x1x6", "10x28x24"],
        pdn: &[],
        not_legal: &["10x28x6x24"],
    },
    Example {
        fen: "W:W21,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,12,17,18",
        legal: &["21x14x17", "22x22x9x10x17x18", "23x14x18"],
        pdn: &[],
        not_legal: &[],
    },
    Example {
        fen: "B:W17,18,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,12,14,15",
        legal: &["14x23x18", "15x13x17x18"],
        pdn: &[],
        not_legal: &[],
    },
];

#[test]
fn every_worked_example_has_exactly_its_legal_moves() {
    for ex in EXAMPLES {
        let pos = parse_fen(ex.fen).unwrap_or_else(|e| panic!("{}: {e}", ex.fen));
        let got: BTreeSet<String> = legal_moves(&pos).iter().map(|m| m.hub()).collect();
        let want: BTreeSet<String> = ex.legal.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, want, "{}", ex.fen);
        assert_eq!(
            legal_moves(&pos).len(),
            ex.legal.len(),
            "duplicates in {}",
            ex.fen
        );
    }
}

#[test]
fn worked_examples_pdn_text() {
    for ex in EXAMPLES {
        let pos = parse_fen(ex.fen).unwrap();
        for &(hub, pdn) in ex.pdn {
            let mv = parse_hub_move(&pos, hub).unwrap();
            assert_eq!(pdn_move(&pos, &mv), pdn, "{}", ex.fen);
            assert_eq!(parse_pdn_move(&pos, pdn).unwrap(), mv, "{}", ex.fen);
        }
    }
}

#[test]
fn moves_of_other_rule_sets_are_refused() {
    for ex in EXAMPLES {
        let pos = parse_fen(ex.fen).unwrap();
        for &bad in ex.not_legal {
            match parse_hub_move(&pos, bad) {
                Err(NotationError::IllegalMove(_)) => {}
                other => panic!("{}: '{bad}' gave {other:?}", ex.fen),
            }
        }
    }
}

#[test]
fn circular_capture_ends_on_its_origin_and_keeps_the_man() {
    let pos =
        parse_fen("W:W21,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,12,17,18").unwrap();
    let mv = parse_hub_move(&pos, "22x22x9x10x17x18").unwrap();
    assert_eq!(mv.from, mv.to);
    let after = pos.play(&mv);
    assert!(after.white().contains(mv.from));
    assert_eq!(after.black().count(), 8);
    assert_eq!(after.key(), after.compute_key());
}

#[test]
fn crowning_only_at_the_end_of_a_move() {
    // R14: 19x12x3 ends on the far row and is crowned; 11x2x9 passes it and is not.
    let pos = parse_fen("W:W19,K26:B8,10,16,K29").unwrap();
    let after = pos.play(&parse_hub_move(&pos, "19x3x8x16").unwrap());
    assert!(after
        .kings()
        .contains(poolshark_engine::core::Square::from_number(3).unwrap()));
    let pos = parse_fen("W:W11,K18,29:B6,7,22").unwrap();
    let after = pos.play(&parse_hub_move(&pos, "11x9x6x7").unwrap());
    assert!(!after
        .kings()
        .contains(poolshark_engine::core::Square::from_number(9).unwrap()));
}
