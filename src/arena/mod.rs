//! Engine-vs-engine matches over the Hub protocol: openings played in pairs with colours
//! swapped, a referee built on the rules core, the runner's own clock, PDN output with each
//! move's time, engines' stderr kept in log files, Elo with its interval from the game pairs,
//! and an optional SPRT that stops the match once it decides. A match or self-play run can
//! be split into shards (`poolshark_engine::shard`) and a match's summary rebuilt from its PDN files
//! (`merge`).

pub mod client;
pub mod merge;
pub mod options;
pub mod pdn_out;
pub mod referee;
pub mod stats;
pub mod tags;

use client::{EngineProcess, EngineSpec, START_TIMEOUT};
use poolshark_engine::core::pdn;
use poolshark_engine::core::Position;
use poolshark_engine::shard::Shard;
use referee::{GameRecord, TimeControl};
use stats::{show_elo, Pairs, Sprt, SprtDecision, Wdl};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

pub struct MatchConfig {
    /// The engines; one without a `stderr_log` gets `stderr_log_path`'s.
    pub engines: [EngineSpec; 2],
    pub games: usize,
    /// Each engine's time control (by engine, not by colour).
    pub tc: [TimeControl; 2],
    pub concurrency: usize,
    pub openings: Vec<Position>,
    pub pdn: Option<std::path::PathBuf>,
    pub sprt: Option<Sprt>,
    pub move_timeout: Duration,
    pub event: String,
    /// The pairs this run plays (`Shard::ALL`: every pair).
    pub shard: Shard,
}

/// The match so far, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub names: [String; 2],
    pub wdl: Wdl,
    pub sprt: Option<(f64, SprtDecision)>,
    pub elapsed: Duration,
    /// Games lost by forfeit (illegal move, crash, silence), per engine.
    pub forfeits: [u32; 2],
    /// Complete game pairs (one opening, colours swapped) by score.
    pub pairs: Pairs,
    /// Each engine's time per move.
    pub move_times: [MoveTimes; 2],
}

/// The time one engine took per move over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    pub moves: u32,
    pub total: Duration,
    pub max: Duration,
}

impl MoveTimes {
    pub fn add(&mut self, t: Duration) {
        self.moves += 1;
        self.total += t;
        self.max = self.max.max(t);
    }
    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / self.moves
        }
    }
}

/// Where engine `index` (0 or 1) writes its stderr: beside the PDN (`games.pdn` gives
/// `games.engine1.log`), or without a PDN in the temporary directory, named by process id.
pub fn stderr_log_path(pdn: Option<&Path>, index: usize) -> PathBuf {
    let name = format!("engine{}.log", index + 1);
    match pdn {
        Some(p) => p.with_extension(name),
        None => std::env::temp_dir().join(format!("poolshark-match-{}.{name}", std::process::id())),
    }
}

/// The first engine's points in a game (1, 1/2 or 0).
fn first_engine_points(
    winner: Option<poolshark_engine::core::Color>,
    first: poolshark_engine::core::Color,
) -> f64 {
    match winner {
        None => 0.5,
        Some(c) if c == first => 1.0,
        Some(_) => 0.0,
    }
}

/// Game `i` of the match: its opening and whether engine 0 plays Black (moves first).
fn schedule(i: usize, openings: usize) -> (usize, bool) {
    ((i / 2) % openings.max(1), i.is_multiple_of(2))
}

/// The games (indices into the whole match of `games` games) that `shard` plays: those of
/// the pairs `pair_index % N == I`, where game `i` is in pair `i / 2`.
pub fn shard_games(games: usize, shard: Shard) -> Vec<usize> {
    (0..games).filter(|&i| shard.contains(i / 2)).collect()
}

/// Run a match. Progress lines (one per game, then the summary) go to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn FnMut(&str)) -> Result<MatchSummary, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    // The PDN file is checked first: a file the match refuses leaves the engines' logs of an
    // earlier run as they were.
    let (mut pdn_file, before) = match &cfg.pdn {
        Some(p) => {
            let out = pdn_out::open(p)?;
            (Some(out.file), out.offset)
        }
        None => (None, 0),
    };
    let mut engines = cfg.engines.clone();
    for (i, spec) in engines.iter_mut().enumerate() {
        let path = spec
            .stderr_log
            .get_or_insert_with(|| stderr_log_path(cfg.pdn.as_deref(), i));
        // Each process appends; the match starts the file afresh.
        std::fs::File::create(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let engines = &engines;
    // Check both engines start, and take their parameters, before any game, for a clear
    // error.
    let mut names = [String::new(), String::new()];
    for (i, spec) in engines.iter().enumerate() {
        let e = EngineProcess::start(spec, START_TIMEOUT)
            .map_err(|e| format!("engine {} ('{}'): {e}", i + 1, spec.command))?;
        names[i] = e.name.clone();
        e.quit();
    }
    let logs: Vec<String> = engines
        .iter()
        .filter_map(|e| e.stderr_log.as_ref())
        .map(|p| p.display().to_string())
        .collect();
    out(&format!("engine stderr logs: {}", logs.join(", ")));
    if names[0] == names[1] {
        names[0] = format!("{} [1]", names[0]);
        names[1] = format!("{} [2]", names[1]);
    }
    let order = shard_games(cfg.games, cfg.shard);
    let order = &order;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, bool, Result<GameRecord, String>)>();
    let start = Instant::now();
    let mut summary = MatchSummary {
        names: names.clone(),
        ..MatchSummary::default()
    };
    let date = poolshark_engine::core::pdn::pdn_date();
    // Why the match stopped early, when an engine could not search.
    let mut failure: Option<String> = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(order.len()) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut procs: [Option<EngineProcess>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let (opening, first_is_black) = schedule(i, cfg.openings.len());
                    let mut failed = None;
                    for (k, p) in procs.iter_mut().enumerate() {
                        if !p.as_mut().is_some_and(|e| e.alive()) {
                            *p = match EngineProcess::start(&engines[k], START_TIMEOUT) {
                                Ok(e) => Some(e),
                                Err(e) => {
                                    failed = Some(format!("engine {} failed to start: {e}", k + 1));
                                    None
                                }
                            };
                        }
                    }
                    let record = match (failed, &mut procs) {
                        (Some(e), _) => Err(e),
                        (None, [Some(a), Some(b)]) => {
                            let (players, tcs) = if first_is_black {
                                ([b, a], [cfg.tc[1], cfg.tc[0]])
                            } else {
                                ([a, b], cfg.tc)
                            };
                            Ok(referee::play_game(
                                players,
                                cfg.openings[opening],
                                tcs,
                                cfg.move_timeout,
                            ))
                        }
                        (None, _) => Err("an engine failed to start".to_string()),
                    };
                    // A forfeiting engine may be stuck or confused: start it afresh.
                    if let Ok(r) = &record {
                        if let Some(loser) = r.forfeit.or(r.failed) {
                            let engine_index = usize::from(
                                (loser == poolshark_engine::core::Color::Black) != first_is_black,
                            );
                            if let Some(e) = procs[engine_index].take() {
                                e.quit();
                            }
                        }
                    }
                    if tx.send((i, first_is_black, record)).is_err() {
                        break;
                    }
                }
                for e in procs.into_iter().flatten() {
                    e.quit();
                }
            });
        }
        drop(tx);
        let mut done = 0;
        // The first engine's points in the first-finished game of each pair, by pair.
        let mut half_pairs: HashMap<usize, f64> = HashMap::new();
        for (i, first_is_black, record) in rx {
            done += 1;
            let r = match record {
                Ok(r) => r,
                Err(e) => {
                    out(&format!("game {} not played: {e}", i + 1));
                    continue;
                }
            };
            let first_colour = if first_is_black {
                poolshark_engine::core::Color::Black
            } else {
                poolshark_engine::core::Color::White
            };
            if let Some(c) = r.failed {
                // An engine that cannot search would only lose games it never played: stop
                // the match and say which engine it was.
                let k = usize::from(c != first_colour);
                out(&format!("game {} not scored: {}", i + 1, r.termination));
                failure.get_or_insert_with(|| {
                    format!(
                        "match stopped: engine {} ({}, '{}') could not search in game {}: {}",
                        k + 1,
                        names[k],
                        engines[k].command,
                        i + 1,
                        r.termination
                    )
                });
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            match r.winner {
                None => summary.wdl.draws += 1,
                Some(c) if c == first_colour => summary.wdl.wins += 1,
                Some(_) => summary.wdl.losses += 1,
            }
            let points = first_engine_points(r.winner, first_colour);
            match half_pairs.remove(&(i / 2)) {
                Some(other) => summary.pairs.add(other, points),
                None => {
                    half_pairs.insert(i / 2, points);
                }
            }
            if let Some(loser) = r.forfeit {
                summary.forfeits[usize::from(loser != first_colour)] += 1;
            }
            // Ply k is Black's when the game starts with Black to move and k is even.
            let mut mover = r.start.side();
            for t in &r.times {
                summary.move_times[usize::from(mover != first_colour)].add(*t);
                mover = mover.flip();
            }
            let (white, black) = if first_is_black {
                (&names[1], &names[0])
            } else {
                (&names[0], &names[1])
            };
            let result = pdn::result_text(r.winner);
            out(&format!(
                "game {}/{}: {white} (W) vs {black} (B) {result} ({}) | {} {}-{}-{} ({:.1}%)",
                i + 1,
                cfg.games,
                r.termination,
                names[0],
                summary.wdl.wins,
                summary.wdl.draws,
                summary.wdl.losses,
                summary.wdl.score() * 100.0
            ));
            if let Some(f) = pdn_file.as_mut() {
                let mut tags = tags::match_tags(
                    &cfg.event,
                    &date,
                    before + i + 1,
                    white,
                    black,
                    result,
                    &r.start,
                    &r.termination,
                );
                tags.push(tags::pair_tag(before + i));
                if let Some(loser) = r.forfeit {
                    tags.push(tags::forfeit_tag(loser));
                }
                let game = pdn::PdnGame {
                    tags,
                    start: r.start,
                    moves: r.moves.clone(),
                    times: r.times.clone(),
                    result: result.to_string(),
                };
                if let Err(e) = f.write_all(game.write().as_bytes()).and_then(|_| f.flush()) {
                    out(&format!("warning: writing the PDN failed: {e}"));
                }
            }
            if let Some(t) = &cfg.sprt {
                let d = t.decision(&summary.wdl);
                summary.sprt = Some((t.llr(&summary.wdl), d));
                if d != SprtDecision::Continue && !stop.load(Ordering::Relaxed) {
                    out(&format!("sprt: decided after {done} games, stopping"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    summary.elapsed = start.elapsed();
    for line in summary_lines(&summary, cfg.sprt.as_ref()) {
        out(&line);
    }
    match failure {
        Some(why) => Err(why),
        None => Ok(summary),
    }
}

/// The closing lines of a match.
pub fn summary_lines(s: &MatchSummary, sprt: Option<&Sprt>) -> Vec<String> {
    let w = &s.wdl;
    let (lo, hi) = s.pairs.elo_interval();
    let mut lines = vec![
        format!(
            "match: {} vs {}: {} games in {:.1} s",
            s.names[0],
            s.names[1],
            w.games(),
            s.elapsed.as_secs_f64()
        ),
        format!(
            "score of {}: wins {} draws {} losses {} points {:.1}/{} ({:.1}%)",
            s.names[0],
            w.wins,
            w.draws,
            w.losses,
            w.points(),
            w.games(),
            w.score() * 100.0
        ),
        format!(
            "elo: {} (95% interval {} to {})",
            show_elo(stats::elo_of_score_exact(w.score())),
            show_elo(lo),
            show_elo(hi)
        ),
        format!(
            "draw ratio: {:.1}%  los: {:.1}%",
            w.draw_ratio() * 100.0,
            w.los() * 100.0
        ),
    ];
    if s.forfeits != [0, 0] {
        lines.push(format!(
            "forfeits: {} {}, {} {}",
            s.names[0], s.forfeits[0], s.names[1], s.forfeits[1]
        ));
    }
    if let Some(t) = sprt {
        let (lo, hi) = t.bounds();
        let llr = t.llr(w);
        let decision = match t.decision(w) {
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::Continue => "undecided",
        };
        lines.push(format!(
            "sprt: elo0={} elo1={} alpha={} beta={} llr {:.3} bounds [{:.3}, {:.3}] {}",
            t.elo0, t.elo1, t.alpha, t.beta, llr, lo, hi, decision
        ));
    }
    // Lines added after those above, which scripts parse.
    lines.push(format!(
        "pairs: {} pentanomial {:?} (pairs scoring 0, 1/2, 1, 3/2, 2 points of 2)",
        s.pairs.pairs(),
        s.pairs.counts
    ));
    lines.extend(s.pairs.note());
    let times: Vec<String> = (0..2)
        .filter(|&i| s.move_times[i].moves > 0)
        .map(|i| {
            let t = &s.move_times[i];
            format!(
                "{} mean {:.3} s max {:.3} s over {} moves",
                s.names[i],
                t.mean().as_secs_f64(),
                t.max.as_secs_f64(),
                t.moves
            )
        })
        .collect();
    if !times.is_empty() {
        lines.push(format!("time per move: {}", times.join(", ")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_played_in_pairs_with_colours_swapped() {
        assert_eq!(schedule(0, 5), (0, true));
        assert_eq!(schedule(1, 5), (0, false));
        assert_eq!(schedule(2, 5), (1, true));
        assert_eq!(schedule(11, 5), (0, false));
    }

    #[test]
    fn an_even_score_reads_plus_zero_and_new_lines_follow_the_old() {
        let mut s = MatchSummary {
            names: ["a".into(), "b".into()],
            wdl: Wdl {
                wins: 1,
                draws: 0,
                losses: 1,
            },
            ..MatchSummary::default()
        };
        s.pairs.add(1.0, 0.0);
        s.move_times[0].add(Duration::from_millis(100));
        s.move_times[0].add(Duration::from_millis(300));
        let lines = summary_lines(&s, None);
        assert!(
            lines[2].starts_with("elo: +0.0 (95% interval -"),
            "{lines:?}"
        );
        assert!(lines[3].starts_with("draw ratio: "), "{lines:?}");
        assert_eq!(
            lines[4],
            "pairs: 1 pentanomial [0, 0, 1, 0, 0] (pairs scoring 0, 1/2, 1, 3/2, 2 points of 2)"
        );
        assert!(
            lines[5].starts_with("note: every pair scored 1/2"),
            "{lines:?}"
        );
        assert_eq!(
            lines[6],
            "time per move: a mean 0.200 s max 0.300 s over 2 moves"
        );
    }

    #[test]
    fn logs_sit_beside_the_pdn() {
        assert_eq!(
            stderr_log_path(Some(Path::new("out/games.pdn")), 1),
            Path::new("out/games.engine2.log")
        );
        assert!(stderr_log_path(None, 0).starts_with(std::env::temp_dir()));
    }
}
