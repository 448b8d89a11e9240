//! The game state: Zobrist keys along random games, and the end-of-game rules R16-R19.

use poolshark_engine::core::game::{DrawCounts, DrawReason};
use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::parse_fen;
use poolshark_engine::core::rng::Xorshift64;
use poolshark_engine::core::{Color, Game, GameResult, Position};

#[test]
fn incremental_key_equals_key_from_scratch_along_random_games() {
    let mut rng = Xorshift64::new(0xDEAD_BEEF_1234_5678);
    let mut plies = 0;
    for _ in 0..300 {
        let mut pos = Position::start();
        loop {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
            assert_eq!(pos.key(), pos.compute_key(), "{pos:?}");
            plies += 1;
            if plies % 400 == 0 {
                break;
            }
        }
    }
    assert!(plies > 10_000);
}

#[test]
fn keys_tell_sides_and_piece_kinds_apart() {
    let a = parse_fen("W:W21:B1").unwrap();
    let b = parse_fen("B:W21:B1").unwrap();
    let c = parse_fen("W:WK21:B1").unwrap();
    assert_ne!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
}

#[test]
fn no_legal_move_loses_r16() {
    // White's only man on 5 is blocked by the black man on 1.
    let game = Game::new(parse_fen("W:W5:B1").unwrap());
    assert_eq!(game.result(), GameResult::Win(Color::Black));
    // No pieces left after a capture.
    let mut game = Game::new(parse_fen("B:W14:B9").unwrap());
    game.play_text("9x18x14").unwrap();
    assert_eq!(game.result(), GameResult::Win(Color::Black));
}

#[test]
fn threefold_repetition_r17() {
    let mut game = Game::new(parse_fen("W:WK30:BK3").unwrap());
    for (i, mv) in ["30-26", "3-7", "26-30", "7-3", "30-26", "3-7", "26-30"]
        .iter()
        .enumerate()
    {
        game.play_text(mv).unwrap();
        assert_eq!(game.result(), GameResult::Ongoing, "after move {}", i + 1);
    }
    assert_eq!(game.occurrences(), 2);
    game.play_text("7-3").unwrap();
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.result(), GameResult::Draw(DrawReason::Repetition));
    game.undo();
    assert_eq!(game.result(), GameResult::Ongoing);
}

#[test]
fn forty_move_rule_r18() {
    let pos = parse_fen("W:WK30,21:BK3,12").unwrap();
    let counts = DrawCounts {
        quiet_king_plies: 79,
        lone_king_moves: None,
    };
    let mut game = Game::with_counts(pos, counts);
    game.play_text("30-26").unwrap();
    assert_eq!(game.counts().quiet_king_plies, 80);
    assert_eq!(game.result(), GameResult::Draw(DrawReason::FortyMoveRule));
    // A man move resets the count.
    let mut game = Game::with_counts(pos, counts);
    game.play_text("21-17").unwrap();
    assert_eq!(game.counts().quiet_king_plies, 0);
    assert_eq!(game.result(), GameResult::Ongoing);
}

#[test]
fn thirteen_move_rule_fires_on_the_thirteenth_lone_move() {
    let pos = parse_fen("B:WK13,K17,K28:BK18").unwrap();
    let mut game = Game::with_counts(
        pos,
        DrawCounts {
            quiet_king_plies: 0,
            lone_king_moves: Some(12),
        },
    );
    game.play_text("18-23").unwrap();
    assert_eq!(game.counts().lone_king_moves, Some(13));
    assert_eq!(
        game.result(),
        GameResult::Draw(DrawReason::ThirteenMoveRule)
    );
    // The strong side's moves do not count.
    let pos = parse_fen("W:WK13,K17,K28:BK18").unwrap();
    let mut game = Game::with_counts(
        pos,
        DrawCounts {
            quiet_king_plies: 0,
            lone_king_moves: Some(12),
        },
    );
    game.play_text("13-9").unwrap();
    assert_eq!(game.counts().lone_king_moves, Some(12));
    assert_eq!(game.result(), GameResult::Ongoing);
}

#[test]
fn count_starts_when_three_kings_against_one_arises() {
    // A crowning makes it three kings against one: the count starts at 0 there.
    let mut game = Game::new(parse_fen("W:WK13,K17,6:BK28").unwrap());
    assert_eq!(game.counts().lone_king_moves, None);
    game.play_text("6-2").unwrap();
    assert_eq!(game.counts().lone_king_moves, Some(0));
    game.play_text("28-32").unwrap();
    assert_eq!(game.counts().lone_king_moves, Some(1));
    // A capture by the lone king stops it.
    let mut game = Game::new(parse_fen("B:WK1,K2,K23:BK32").unwrap());
    assert_eq!(game.counts().lone_king_moves, Some(0));
    game.play_text("32x18x23").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.counts().lone_king_moves, None);
}

#[test]
fn count13_data_gives_the_documented_counts() {
    for line in include_str!("data/count13.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(" ; ").collect();
        let mut game = Game::new(parse_fen(parts[0]).unwrap());
        for mv in parts[1].split_whitespace() {
            game.play_text(mv)
                .unwrap_or_else(|e| panic!("{line}: {mv}: {e}"));
        }
        let k: u8 = parts[3].trim().parse().unwrap();
        assert_eq!(game.counts().lone_king_moves, Some(13 - k), "{line}");
        assert_eq!(game.position().side(), Color::White, "{line}");
        assert_eq!(game.result(), GameResult::Ongoing, "{line}");
    }
}
