//! Move generator helpers agree with the full generator along random games: capture
//! detection, quiet-move detection, bulk counts, and no duplicate moves.

use poolshark_engine::core::movegen::{
    count_moves, generate_captures, generate_quiet, has_capture, has_quiet_move, legal_moves,
};
use poolshark_engine::core::rng::Xorshift64;
use poolshark_engine::core::{MoveList, Position};

#[test]
fn shortcuts_agree_with_full_generation() {
    let mut rng = Xorshift64::new(0xABCD_EF01_2345_6789u64);
    let mut checked = 0;
    let mut most = 0;
    for _ in 0..800 {
        let mut pos = Position::start();
        for _ in 0..300 {
            let moves = legal_moves(&pos);
            let mut caps = MoveList::new();
            generate_captures(&pos, &mut caps);
            let mut quiet = MoveList::new();
            generate_quiet(&pos, &mut quiet);
            assert_eq!(has_capture(&pos), !caps.is_empty(), "{pos:?}");
            assert_eq!(has_quiet_move(&pos), !quiet.is_empty(), "{pos:?}");
            assert_eq!(count_moves(&pos), moves.len(), "{pos:?}");
            for (i, a) in moves.iter().enumerate() {
                assert!(
                    !moves.as_slice()[i + 1..].contains(a),
                    "duplicate {a} in {pos:?}"
                );
            }
            most = most.max(moves.len());
            checked += 1;
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(
        most < poolshark_engine::core::moves::MAX_MOVES / 2,
        "{most} moves in one position"
    );
}

/// The bound behind `MAX_MOVES`: a king reaches at most 13 squares on an empty board, so 12
/// pieces have at most 156 quiet moves. A board of 12 white kings against one black man
/// (spread so that no capture is on) stays within it, and so does every prefix of king
/// placements along the way.
#[test]
fn quiet_moves_stay_within_the_move_list() {
    use poolshark_engine::core::attacks::king_attacks;
    use poolshark_engine::core::moves::MAX_MOVES;
    use poolshark_engine::core::notation::parse_fen;
    use poolshark_engine::core::{Bitboard, Square};
    let most = Square::all()
        .map(|sq| king_attacks(sq, Bitboard::EMPTY).count())
        .max()
        .unwrap();
    assert_eq!(most, 13, "the longest king reach on an empty board");
    assert!(12 * most as usize <= MAX_MOVES);
    // The twelve central and near-central squares, then the black man in a corner.
    let kings = "K6,K7,K10,K11,K14,K15,K18,K19,K22,K23,K26,K27";
    let pos = parse_fen(&format!("W:W{kings}:B1")).unwrap();
    let moves = legal_moves(&pos);
    assert!(!moves.is_empty() && moves.len() <= 12 * most as usize);
}

/// A move list that would grow past its capacity fails loudly instead of dropping moves.
#[test]
#[should_panic(expected = "legal moves in one position")]
fn a_full_move_list_panics() {
    use poolshark_engine::core::moves::MAX_MOVES;
    use poolshark_engine::core::{Move, Square};
    let mut list = MoveList::new();
    for _ in 0..=MAX_MOVES {
        list.push(Move::quiet(Square::new(0), Square::new(4)));
    }
}
