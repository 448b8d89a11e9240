//! Self-play data for evaluation tuning: poolshark plays itself in-process at a fixed node
//! count from the built-in openings plus a few random plies, and every position of each
//! finished game without a pending capture is written with the game's result.
//!
//! Output, one position a line, as `tune::dataline` writes it: `<FEN> ; <result> ;
//! <search> ; <game>` where the result is White's score, `1`, `0.5` or `0`, and `<search>` is the
//! score of the search that chose the move there, from White's side in hundredths of a man (proved wins and losses as
//! `±SEARCH_CLAMP`), or `-` for positions nobody searched (the opening and random plies).
//! The tuner can fit to a blend of the two (`poolshark tune --lambda`). `<game>` is
//! `SEED-INDEX` (`game_id`), the same in every shard of a run.
//!
//! A long run meets the same position in many games (the openings above all): `Dedup`
//! keeps the first line of each position and drops the rest, so that the data weighs each
//! position once (`selfplay` does this unless told `--keep-duplicates`).
//!
//! With `--format packed` (`run_records`) the positions are packed records (`tune::packed`),
//! written in game order once the shard is done, so that a shard is the same bytes however
//! many threads played it, and duplicates are told apart by the position's key.
//!
//! `opening` and `play_out` (a game's start, and a game played to its end in-process) serve
//! `tune::spsa` as well.

use crate::{dataline, packed};
use poolshark_engine::core::game::GameResult;
use poolshark_engine::core::rng::Xorshift64;
use poolshark_engine::core::{movegen, Color, Game, Move, Position};
use poolshark_engine::openings;
use poolshark_engine::search::{Engine, Limits, SearchControl};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

pub struct SelfplayConfig {
    pub games: usize,
    pub nodes: u64,
    /// Random plies after the opening, so that games differ.
    pub random_plies: u32,
    pub seed: u64,
    pub concurrency: usize,
    /// The evaluation both sides play with.
    pub weights: poolshark_engine::eval::Weights,
    /// The games of the `games`-game run this run plays: those with `index % N == I`, each
    /// seeded as in the whole run (`Shard::ALL`: every game).
    pub shard: poolshark_engine::shard::Shard,
}

impl SelfplayConfig {
    /// The settings a packed file of this run records, so that `data merge` can tell its
    /// shards from another run's.
    pub fn run(&self, keep_duplicates: bool) -> crate::packed::Run {
        crate::packed::Run {
            games: self.games as u64,
            nodes: self.nodes,
            random_plies: self.random_plies,
            weights: crate::label::weights_hash(&self.weights),
            keep_duplicates,
            shard: Some(self.shard),
        }
    }
}

/// Search scores beyond this (proved wins and losses) are written as this, in hundredths of
/// a man: far enough out that any sensible scaling makes it a certain result.
pub const SEARCH_CLAMP: i32 = 3000;

/// One finished game's positions (each with the score of the search made there, from White's
/// side, if one was made) and White's score.
pub struct GameData {
    pub positions: Vec<(Position, Option<i32>)>,
    pub white_score: f64,
}

/// A search score of `pos` (from the side to move) as data lines carry it: from White's
/// side, clamped to `SEARCH_CLAMP`.
pub fn white_search_score(pos: &Position, score: i32) -> i32 {
    let score = score.clamp(-SEARCH_CLAMP, SEARCH_CLAMP);
    if pos.side() == Color::White {
        score
    } else {
        -score
    }
}

/// Drops data lines whose position (the FEN, the side to move included) was already seen.
#[derive(Default)]
pub struct Dedup {
    /// 64-bit hashes of the FENs seen: 8 bytes a position, and at five million positions a
    /// collision (one position wrongly dropped) has odds of about one in a million.
    seen: HashSet<u64>,
}

impl Dedup {
    /// The lines of `text` (data lines, `FEN ; ...`) whose position is new, and their count.
    pub fn filter(&mut self, text: &str) -> (String, usize) {
        let (mut out, mut n) = (String::with_capacity(text.len()), 0);
        for line in text.lines() {
            let fen = dataline::fen_field(line);
            let mut h = std::collections::hash_map::DefaultHasher::new();
            fen.hash(&mut h);
            if self.seen.insert(h.finish()) {
                out.push_str(line);
                out.push('\n');
                n += 1;
            }
        }
        (out, n)
    }

    /// Positions seen so far.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// Longest game played out, in plies; longer ones are scored as draws (the 40-move rule ends
/// real ones long before).
pub const MAX_GAME_PLIES: usize = 600;

/// Play `game` to its end, asking `choose` for each move (None: no legal move), and return
/// White's score: 1, 0.5 or 0.
pub fn play_out(game: &mut Game, choose: &mut dyn FnMut(&Game) -> Option<Move>) -> f64 {
    loop {
        match game.result() {
            GameResult::Win(Color::White) => return 1.0,
            GameResult::Win(Color::Black) => return 0.0,
            GameResult::Draw(_) => return 0.5,
            GameResult::Ongoing => {}
        }
        if game.moves().len() >= MAX_GAME_PLIES {
            return 0.5;
        }
        match choose(game) {
            Some(mv) => game.play(&mv),
            None => {
                return if game.position().side() == Color::White {
                    0.0
                } else {
                    1.0
                }
            }
        }
    }
}

/// The start of game `index`: opening `index` (cycling through `openings`, which must not be
/// empty) and then `random_plies` random moves drawn from `seed` and `index`.
pub fn opening(openings: &[Position], index: usize, seed: u64, random_plies: u32) -> Game {
    let mut rng = Xorshift64::new(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64();
    let mut game = Game::new(openings[index % openings.len()]);
    for _ in 0..random_plies {
        let moves = movegen::legal_moves(game.position());
        if moves.is_empty() {
            break;
        }
        game.play(&moves[rng.below(moves.len())]);
    }
    game
}

/// Play game `index` (the same index and config give the same game).
pub fn play_one(
    cfg: &SelfplayConfig,
    index: usize,
    engine: &mut Engine,
    openings: &[Position],
) -> GameData {
    let mut game = opening(openings, index, cfg.seed, cfg.random_plies);
    engine.clear();
    // The search score at each position of the game, from White's side.
    let mut searched: Vec<Option<i32>> = vec![None; game.positions().len()];
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let white_score = play_out(&mut game, &mut |g| {
        let out = engine.search(g, &limits, &SearchControl::new(), &mut |_| {});
        searched.resize(g.positions().len() - 1, None);
        searched.push(Some(white_search_score(g.position(), out.score.0)));
        out.best
    });
    searched.resize(game.positions().len(), None);
    let positions = game
        .positions()
        .iter()
        .zip(searched)
        .filter(|(p, _)| !movegen::has_capture(p))
        .map(|(p, s)| (*p, s))
        .collect();
    GameData {
        positions,
        white_score,
    }
}

/// The id data lines carry for game `index` of a run seeded `seed`: unique across runs
/// with different seeds, so that the held-out split is by game over many files.
pub fn game_id(seed: u64, index: usize) -> String {
    format!("{seed}-{index}")
}

/// The openings the games start from, and the indices of the games of `cfg.shard`.
fn shard_games(cfg: &SelfplayConfig) -> (Vec<Position>, Vec<usize>) {
    let mut openings = openings::builtin();
    if openings.is_empty() {
        openings.push(Position::start());
    }
    let order = (0..cfg.games).filter(|&i| cfg.shard.contains(i)).collect();
    (openings, order)
}

/// One self-play thread's engine: a 16 MiB table, one thread, the run's evaluation.
fn selfplay_engine(cfg: &SelfplayConfig) -> Engine {
    let mut engine = Engine::new(16, 1);
    engine.weights = cfg.weights.clone();
    engine
}

/// Play the games of `cfg.shard` on `concurrency` threads and write each game's lines to `sink`
/// in the order of the games' indices, whatever the threads (so that a run, and the first
/// line of each position that `Dedup` keeps, is the same on any number of threads).
/// `progress` sees (games done, positions played).
pub fn run(
    cfg: &SelfplayConfig,
    sink: &mut (dyn FnMut(&str) -> std::io::Result<()> + Send),
    progress: &mut (dyn FnMut(usize, usize) + Send),
) -> std::io::Result<usize> {
    let (openings, order) = shard_games(cfg);
    let engine = || selfplay_engine(cfg);
    let game = |engine: &mut Engine, job: usize| {
        let data = play_one(cfg, order[job], engine, &openings);
        let id = game_id(cfg.seed, order[job]);
        let mut text = String::new();
        for (p, s) in &data.positions {
            text.push_str(&dataline::write(p, data.white_score, *s, Some(&id)));
        }
        (text, data.positions.len())
    };
    write_in_parallel(cfg.concurrency, order.len(), engine, game, sink, progress)
}

/// Jobs `0..jobs` on `threads` threads, each thread with its own state from `init` (an
/// engine): each job's data lines go to `sink` in the order of the jobs (a job done before
/// an earlier one waits for it), so the output is the same on any number of threads, and
/// `progress` sees (jobs done, lines made) as each job ends. The first error from `sink`
/// stops every thread and is returned; else the lines made. `selfplay` (a job is a game)
/// and `tune::label` (a chunk of positions) share it.
pub fn write_in_parallel<S>(
    threads: usize,
    jobs: usize,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> (String, usize) + Sync,
    sink: &mut (dyn FnMut(&str) -> std::io::Result<()> + Send),
    progress: &mut (dyn FnMut(usize, usize) + Send),
) -> std::io::Result<usize> {
    let (mut done, mut lines) = (0, 0);
    // Jobs done ahead of an earlier one, by number, and the next job `sink` is owed.
    let mut waiting = std::collections::BTreeMap::new();
    let mut next = 0;
    map_in_parallel(threads, jobs, init, job, &mut |i, (text, n)| {
        waiting.insert(i, text);
        while let Some(text) = waiting.remove(&next) {
            sink(&text)?;
            next += 1;
        }
        done += 1;
        lines += n;
        progress(done, lines);
        Ok(())
    })?;
    Ok(lines)
}

/// Jobs `0..jobs` on `threads` threads, each thread with its own state from `init`: each
/// job's output goes to `sink` with the job's number as soon as it is done (in the order
/// jobs finish). The first error from `sink` stops every thread and is returned.
pub fn map_in_parallel<S, T>(
    threads: usize,
    jobs: usize,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> T + Sync,
    sink: &mut (dyn FnMut(usize, T) -> std::io::Result<()> + Send),
) -> std::io::Result<()> {
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((sink, None::<std::io::Error>));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs {
                        break;
                    }
                    let out = job(&mut state, i);
                    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let (sink, err) = &mut *guard;
                    if err.is_some() {
                        break;
                    }
                    if let Err(e) = sink(i, out) {
                        *err = Some(e);
                        break;
                    }
                }
            });
        }
    });
    match shared.into_inner().unwrap_or_else(|e| e.into_inner()).1 {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Play the games of `cfg.shard` on `concurrency` threads and return their positions as
/// packed records (`tune::packed`), game after game in the order of their indices whatever
/// the threads, so that a shard is the same bytes on any machine; unless `keep_duplicates`,
/// a position already in an earlier game is left out. `progress` sees (games done,
/// positions played).
pub fn run_records(
    cfg: &SelfplayConfig,
    keep_duplicates: bool,
    progress: &mut (dyn FnMut(usize, usize) + Send),
) -> Vec<packed::Record> {
    let (openings, order) = shard_games(cfg);
    let engine = || selfplay_engine(cfg);
    let game = |engine: &mut Engine, job: usize| {
        let data = play_one(cfg, order[job], engine, &openings);
        data.positions
            .iter()
            .map(|&(pos, search)| packed::Record {
                pos,
                white_score: data.white_score,
                search,
                game: order[job] as u32,
                exact: None,
            })
            .collect::<Vec<_>>()
    };
    let mut games: Vec<Vec<packed::Record>> = vec![Vec::new(); order.len()];
    let (mut done, mut played) = (0, 0);
    map_in_parallel(
        cfg.concurrency,
        order.len(),
        engine,
        game,
        &mut |i, records| {
            done += 1;
            played += records.len();
            games[i] = records;
            progress(done, played);
            Ok(())
        },
    )
    .expect("the sink never fails");
    let mut seen = HashSet::new();
    games
        .into_iter()
        .flatten()
        .filter(|r| keep_duplicates || seen.insert(r.pos.key()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_keeps_the_first_line_of_each_position() {
        let mut d = Dedup::default();
        let (out, n) =
            d.filter("B:W21-32:B1-12 ; 1 ; -\nW:W21-32:B1-12 ; 0 ; 5\nB:W21-32:B1-12 ; 0 ; 3\n");
        assert_eq!(n, 2);
        assert_eq!(out, "B:W21-32:B1-12 ; 1 ; -\nW:W21-32:B1-12 ; 0 ; 5\n");
        let (out, n) = d.filter("W:W21-32:B1-12 ; 1 ; 7\nB:W22-32:B1-12 ; 1 ; -\n");
        assert_eq!((out.as_str(), n), ("B:W22-32:B1-12 ; 1 ; -\n", 1));
        assert_eq!(d.len(), 3);
    }

    #[test]
    fn lines_reach_the_sink_in_the_jobs_order() {
        // Job 0 takes longest, so the other threads finish jobs 1.. before it; the sink must
        // still see 0, 1, 2, ... (the progress calls come as jobs end).
        let job = |_: &mut (), i: usize| {
            if i == 0 {
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            (format!("{i}\n"), 1)
        };
        let mut out = String::new();
        let mut calls = 0;
        let made = write_in_parallel(
            3,
            8,
            || (),
            job,
            &mut |t| {
                out.push_str(t);
                Ok(())
            },
            &mut |done, lines| {
                calls += 1;
                assert_eq!(done, lines);
            },
        )
        .unwrap();
        assert_eq!((made, calls), (8, 8));
        assert_eq!(out, "0\n1\n2\n3\n4\n5\n6\n7\n");
    }
}
