//! Move generator helpers agree with the full generator along random games: capture
//! detection, quiet-move detection, bulk counts, and no duplicate moves.

use poolshark::core::movegen::{
    count_moves, generate_captures, generate_quiet, has_capture, has_quiet_move, legal_moves,
};
use poolshark::core::rng::Xorshift64;
use poolshark::core::{MoveList, Position};

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
        most < poolshark::core::moves::MAX_MOVES / 2,
        "{most} moves in one position"
    );
}
