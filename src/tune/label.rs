//! Labelling: search the positions of a data file again, deeper than self-play did, and
//! write each with the new search score in place of the old one.
//!
//! Self-play searches each move at a few thousand nodes, so its search scores, and the
//! blend `learn` aims at, mostly teach the evaluation what a shallow search already sees.
//! A fit aimed at a deeper search's scores (`learn --lambda` near 0) learns to see part of
//! those extra plies in one call (distillation).
//!
//! Input and output are data lines, `FEN ; White's score ; search score`
//! (`arena::selfplay::data_line`); the game's score is copied. Each thread has its own engine
//! and takes the lines in chunks of `CHUNK`, so a chunk's positions (mostly from one game)
//! share a table; a chunk's lines are written together when it is done, so the output is
//! in the order chunks finish, not the input's. The searches are `analyze` searches, so a
//! position with one legal move is searched too, not answered at depth 1 as in play.

use crate::arena::selfplay::{data_line, white_search_score, write_in_parallel};
use crate::core::notation::parse_fen;
use crate::core::{Game, Position};
use crate::eval::Weights;
use crate::search::{Engine, Limits, SearchControl};
use std::collections::HashSet;

/// Lines a thread takes at once.
pub const CHUNK: usize = 64;

/// One line to label: its position and the game's score (White's).
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub pos: Position,
    pub white_score: f64,
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
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item = parse_line(line).map_err(|e| format!("{name}: line {}: {e}", i + 1))?;
        if skip.insert(item.pos.key()) {
            out.push(item);
        }
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<Item, String> {
    let mut fields = line.split(';');
    let (Some(fen), Some(score)) = (fields.next(), fields.next()) else {
        return Err("expected 'FEN ; score' or 'FEN ; score ; search'".into());
    };
    if fields.clone().count() > 1 {
        return Err("expected 'FEN ; score' or 'FEN ; score ; search'".into());
    }
    let pos = parse_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    let white_score = score
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1.0).contains(s))
        .ok_or_else(|| format!("'{}' is not a score from 0 to 1", score.trim()))?;
    Ok(Item { pos, white_score })
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
        let mut text = String::new();
        for item in chunk {
            let s = search_score(engine, &item.pos, cfg.nodes);
            text.push_str(&data_line(&item.pos, item.white_score, Some(s)));
        }
        (text, chunk.len())
    };
    let jobs = items.len().div_ceil(CHUNK);
    let mut positions = |_, n| progress(n);
    write_in_parallel(cfg.threads, jobs, engine, chunk, sink, &mut positions).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::selfplay::SEARCH_CLAMP;

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
        let e = parse("B:W21 ; 1 ; 0 ; 4\n", "b.txt", &mut HashSet::new()).unwrap_err();
        assert!(e.starts_with("b.txt: line 1: expected"), "{e}");
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

    #[test]
    fn every_position_is_written_once_with_its_game_score() {
        let mut skip = HashSet::new();
        let mut text = String::new();
        // 150 distinct positions: more than two chunks.
        let mut game = Game::new(Position::start());
        for _ in 0..150 {
            let moves = crate::core::movegen::legal_moves(game.position());
            if moves.is_empty() {
                break;
            }
            text.push_str(&data_line(game.position(), 0.5, None));
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
