//! Engine-vs-engine matches over the Hub protocol: openings played in pairs with colours
//! swapped, a referee built on the rules core, the runner's own clock, PDN output, Elo with
//! its interval, and an optional SPRT that stops the match once it decides. Also self-play
//! data for evaluation tuning.

pub mod client;
pub mod openings;
pub mod pdn;
pub mod referee;
pub mod selfplay;
pub mod stats;

use crate::core::Position;
use client::{EngineProcess, EngineSpec};
use referee::{GameRecord, TimeControl};
use stats::{Sprt, SprtDecision, Wdl};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

pub struct MatchConfig {
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
}

/// Game `i` of the match: its opening and whether engine 0 plays Black (moves first).
fn schedule(i: usize, openings: usize) -> (usize, bool) {
    ((i / 2) % openings.max(1), i.is_multiple_of(2))
}

/// Today's date as PDN writes it (`YYYY.MM.DD`, UTC).
pub fn pdn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Run a match. Progress lines (one per game, then the summary) go to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn FnMut(&str)) -> Result<MatchSummary, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    // Check both engines start before spawning workers, for a clear error.
    let mut names = [String::new(), String::new()];
    for (i, spec) in cfg.engines.iter().enumerate() {
        let e = EngineProcess::start(spec, Duration::from_secs(10))
            .map_err(|e| format!("engine {} ('{}'): {e}", i + 1, spec.command))?;
        names[i] = e.name.clone();
        e.quit();
    }
    if names[0] == names[1] {
        names[0] = format!("{} [1]", names[0]);
        names[1] = format!("{} [2]", names[1]);
    }
    let mut pdn_file = match &cfg.pdn {
        Some(p) => Some(crate::files::create(p).map_err(|e| format!("cannot write {e}"))?),
        None => None,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, bool, Result<GameRecord, String>)>();
    let start = Instant::now();
    let mut summary = MatchSummary {
        names: names.clone(),
        ..MatchSummary::default()
    };
    let date = pdn_date();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(cfg.games.max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut procs: [Option<EngineProcess>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let (opening, first_is_black) = schedule(i, cfg.openings.len());
                    for (k, p) in procs.iter_mut().enumerate() {
                        if !p.as_mut().is_some_and(|e| e.alive()) {
                            *p =
                                EngineProcess::start(&cfg.engines[k], Duration::from_secs(10)).ok();
                        }
                    }
                    let record = match &mut procs {
                        [Some(a), Some(b)] => {
                            let (engines, tcs) = if first_is_black {
                                ([b, a], [cfg.tc[1], cfg.tc[0]])
                            } else {
                                ([a, b], cfg.tc)
                            };
                            Ok(referee::play_game(
                                engines,
                                cfg.openings[opening],
                                tcs,
                                cfg.move_timeout,
                            ))
                        }
                        _ => Err("an engine failed to start".to_string()),
                    };
                    // A forfeiting engine may be stuck or confused: start it afresh.
                    if let Ok(r) = &record {
                        if let Some(loser) = r.forfeit {
                            let engine_index =
                                usize::from((loser == crate::core::Color::Black) != first_is_black);
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
                crate::core::Color::Black
            } else {
                crate::core::Color::White
            };
            match r.winner {
                None => summary.wdl.draws += 1,
                Some(c) if c == first_colour => summary.wdl.wins += 1,
                Some(_) => summary.wdl.losses += 1,
            }
            if let Some(loser) = r.forfeit {
                summary.forfeits[usize::from(loser != first_colour)] += 1;
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
                let tags = pdn::match_tags(
                    &cfg.event,
                    &date,
                    i + 1,
                    white,
                    black,
                    result,
                    &r.start,
                    &r.termination,
                );
                let game = pdn::PdnGame {
                    tags,
                    start: r.start,
                    moves: r.moves.clone(),
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
    Ok(summary)
}

/// The closing lines of a match.
pub fn summary_lines(s: &MatchSummary, sprt: Option<&Sprt>) -> Vec<String> {
    let w = &s.wdl;
    let (lo, hi) = w.elo_interval();
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
            "elo: {:+.1} (95% interval {:+.1} to {:+.1})",
            w.elo(),
            lo,
            hi
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
    fn date_format() {
        let d = pdn_date();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.as_str() >= "2024.01.01");
    }
}
