//! The match commands: `match` (two Hub engines, refereed), `stats` (a match's summary from
//! its PDN files, e.g. its shards'), `selfplay` (tuning data) and `openings` (balanced start
//! positions).

use super::args::{parse_seconds, WeightsArg};
use super::{input, runtime, CliError};
use crate::arena::{self, client::EngineSpec, referee::TimeControl, stats::Sprt};
use poolshark_engine::openings;
use poolshark_engine::shard::Shard;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The options of `poolshark match`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("time_control").args(["tc", "movetime", "depth", "nodes", "level"]).required(true).multiple(true)))]
pub struct MatchArgs {
    /// An engine command line (give two), e.g. `"poolshark hub"`.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Number of games (an odd number plays the last opening with one colour only).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Clock: base seconds + increment, e.g. `10+0.1`; `10+0.1,5+0.05` gives each engine
    /// its own. In every limit option, `-` leaves an engine to another one:
    /// `--depth 6,- --movetime -,0.1` (each engine needs exactly one limit).
    #[arg(long, allow_hyphen_values = true)]
    tc: Option<String>,
    /// Seconds per move (`1` or, per engine, `1,0.5`). A move that takes longer than
    /// 1.25 x this + 0.25 s loses on time.
    #[arg(long, allow_hyphen_values = true)]
    movetime: Option<String>,
    /// Fixed depth per move (`6` or, per engine, `6,4` or `6,-`).
    #[arg(long, allow_hyphen_values = true)]
    depth: Option<String>,
    /// Fixed nodes per move (`20000` or, per engine, `20000,5000` or `-,20000`).
    #[arg(long, allow_hyphen_values = true)]
    nodes: Option<String>,
    /// Playing level 1 (weakest) to 10 of poolshark engines, sent as the Hub parameter
    /// `level`: `3` for both, `1,2` per engine, `-,10` for engine 2 only (`-` is full
    /// strength). An engine at a level without a limit option plays at the level's own node
    /// count (docs/LEVELS.md).
    #[arg(long, allow_hyphen_values = true, value_parser = arena::options::parse_levels)]
    level: Option<[Option<poolshark_engine::search::level::PlayLevel>; 2]>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// Openings file, one FEN a line (default: the built-in 3-ply set).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Write the games here as PDN, with each move's time as a `{time 0.102s}` comment.
    /// Each engine's stderr goes beside it (`NAME.engine1.log`, `NAME.engine2.log`);
    /// without --pdn, to the temporary directory (the match prints where).
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// A Hub parameter: `1:NAME=VALUE` for engine 1 or 2, `NAME=VALUE` for both. An engine
    /// that answers `error` to it stops the match before the first game.
    #[arg(long = "param", value_parser = arena::options::parse_param)]
    params: Vec<(Option<usize>, String, String)>,
    /// Endgame tables for the engines: `DIR` for both or `1:DIR` for engine 1 or 2, sent as
    /// the Hub parameter `egdb-path` (poolshark engines otherwise use `egdb/` if it exists;
    /// `--param 2:egdb=false` turns one engine's probing off).
    #[arg(long, value_parser = parse_egdb)]
    egdb: Vec<(Option<usize>, String)>,
    /// Stop when a sequential test decides: `"elo0=0 elo1=5 alpha=0.05 beta=0.05"`.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// With --depth or --nodes: seconds to wait for a move before the engine forfeits.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    move_timeout: f64,
    /// Play only shard I of N (`0/4` .. `3/4`): the game pairs with pair index % N == I,
    /// each with the opening, colours and engine limits it has in the whole match. Game
    /// lines keep their numbers in the whole match; each PDN game has a `[Pair "P.G"]` tag
    /// (pair P from 1, game G 1 or 2), so `poolshark stats` counts the shards' files as one
    /// match.
    #[arg(long, value_parser = clap::value_parser!(Shard))]
    shard: Option<Shard>,
}

/// `--egdb`: `DIR` or `N:DIR` (engine N, 1 or 2), the folder made absolute so an engine
/// started elsewhere finds it.
fn parse_egdb(s: &str) -> Result<(Option<usize>, String), String> {
    let (engine, dir) = match s.split_once(':') {
        Some(("1", d)) => (Some(0), d),
        Some(("2", d)) => (Some(1), d),
        _ => (None, s),
    };
    if dir.is_empty() {
        return Err("an empty folder name".into());
    }
    let abs = std::path::absolute(dir).map_err(|e| format!("{dir}: {e}"))?;
    Ok((engine, abs.display().to_string()))
}

/// Each engine's limit from whichever limit options were given, an engine at a level
/// without one at its level's nodes (see `arena::options`).
fn parse_time_controls(
    tc: Option<String>,
    movetime: Option<String>,
    depth: Option<String>,
    nodes: Option<String>,
    levels: [Option<poolshark_engine::search::level::PlayLevel>; 2],
) -> Result<[TimeControl; 2], String> {
    use arena::options::{parse_limits_at_levels, LimitKind};
    let given: Vec<(LimitKind, &str)> = [
        (LimitKind::Clock, &tc),
        (LimitKind::MoveTime, &movetime),
        (LimitKind::Depth, &depth),
        (LimitKind::Nodes, &nodes),
    ]
    .into_iter()
    .filter_map(|(kind, text)| text.as_deref().map(|t| (kind, t)))
    .collect();
    parse_limits_at_levels(&given, levels)
}

/// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; missing ones take these values).
fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let mut t = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for item in s.split([' ', ',']).filter(|x| !x.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("'{item}' is not key=value"))?;
        let v: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| format!("'{item}': not a number"))?;
        match k {
            "elo0" => t.elo0 = v,
            "elo1" => t.elo1 = v,
            "alpha" if v > 0.0 && v < 0.5 => t.alpha = v,
            "beta" if v > 0.0 && v < 0.5 => t.beta = v,
            "alpha" | "beta" => return Err(format!("'{item}': must be between 0 and 0.5")),
            _ => return Err(format!("unknown SPRT key '{k}' (elo0, elo1, alpha, beta)")),
        }
    }
    if t.elo1 <= t.elo0 {
        return Err("elo1 must be greater than elo0".into());
    }
    Ok(t)
}

impl MatchArgs {
    /// Prints a line per game, then the summary.
    pub fn run(self) -> Result<(), CliError> {
        if self.engines.len() != 2 {
            return Err(input(format!(
                "give exactly two --engine options, not {}",
                self.engines.len()
            )));
        }
        let levels = self.level.unwrap_or_default();
        let tc = parse_time_controls(self.tc, self.movetime, self.depth, self.nodes, levels)
            .map_err(input)?;
        let openings = match self.openings {
            Some(path) => poolshark_host::openings::load(&path).map_err(input)?,
            None => openings::builtin(),
        };
        let mut params = self.params.clone();
        for (e, level) in levels.iter().enumerate() {
            if let Some(l) = level {
                params.push((Some(e), "level".into(), l.to_string()));
            }
        }
        for (e, dir) in &self.egdb {
            params.push((*e, "egdb-path".into(), dir.clone()));
        }
        let params = &params;
        let engines = &self.engines;
        let spec = |i: usize| EngineSpec {
            command: engines[i].clone(),
            params: params
                .iter()
                .filter(|(e, _, _)| e.is_none_or(|e| e == i))
                .map(|(_, k, v)| (k.clone(), v.clone()))
                .collect(),
            stderr_log: None,
        };
        let cfg = arena::MatchConfig {
            engines: [spec(0), spec(1)],
            games: self.games as usize,
            tc,
            concurrency: self.concurrency as usize,
            openings,
            pdn: self.pdn,
            sprt: self.sprt,
            move_timeout: Duration::from_secs_f64(self.move_timeout),
            event: "poolshark match".into(),
            shard: self.shard.unwrap_or_default(),
        };
        arena::run_match(&cfg, &mut |line| outln!("{line}")).map_err(input)?;
        Ok(())
    }
}

/// The options of `poolshark selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
    /// Random plies after each opening, so games differ.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Seed for the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    #[command(flatten)]
    weights: WeightsArg,
    /// Play only shard I of N (`0/4` .. `3/4`) of the --games run: the games with
    /// game index % N == I, each seeded as in the whole run, so the shards' lines together
    /// are the whole run's (each shard drops only its own duplicates).
    #[arg(long, value_parser = clap::value_parser!(Shard))]
    shard: Option<Shard>,
    /// Write every position of every game. By default a position already written (the
    /// openings above all) is left out, so the data weighs each position once.
    #[arg(long)]
    keep_duplicates: bool,
    /// `text`: data lines, written as games finish. `packed`: 16-byte records
    /// (tuning/README.md), written whole in game order when the run ends, so that a shard
    /// is the same bytes on any machine (`poolshark data merge` joins shards).
    #[arg(long, value_enum, default_value_t = DataFormat::Text)]
    format: DataFormat,
}

/// How `selfplay` writes its positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DataFormat {
    Text,
    Packed,
}

impl SelfplayArgs {
    /// Writes the positions to `--out`, progress to stderr, and a summary line.
    pub fn run(self) -> Result<(), CliError> {
        use poolshark_tune::selfplay::{run, SelfplayConfig};
        let weights = self.weights.load()?;
        let out = &self.out;
        refuse_written(out)?;
        let shard = self.shard.unwrap_or_default();
        // This run's games: the shard's share of the whole run.
        let games = (0..self.games as usize)
            .filter(|&i| shard.contains(i))
            .count();
        let cfg = SelfplayConfig {
            games: self.games as usize,
            shard,
            nodes: self.nodes,
            random_plies: self.random_plies,
            seed: self.seed,
            concurrency: self.concurrency as usize,
            weights,
        };
        let start = Instant::now();
        let bar = indicatif::ProgressBar::new(games as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "selfplay [{wide_bar}] {pos}/{len} games, {msg}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        // After each game: the games done and the positions played so far, and their rate.
        let mut on_game = |g: usize, played: usize| {
            bar.set_position(g as u64);
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{played} positions played ({:.0}/s)",
                played as f64 / secs
            ));
        };
        if self.format == DataFormat::Packed {
            poolshark_host::files::check_output(out)
                .map_err(|e| input(format!("cannot write {e}")))?;
            let records =
                poolshark_tune::selfplay::run_records(&cfg, self.keep_duplicates, &mut on_game);
            bar.finish_and_clear();
            let run = cfg.run(self.keep_duplicates);
            let bytes = poolshark_tune::packed::write(cfg.seed, Some(&run), &records);
            poolshark_host::files::save(out, &bytes)
                .map_err(|e| runtime(format!("writing {}: {}", out.display(), e.reason())))?;
            let secs = start.elapsed().as_secs_f64();
            errln!(
                "selfplay: {games} games, {} positions written in {secs:.1}s ({:.0} positions/s)",
                records.len(),
                records.len() as f64 / secs.max(1e-9)
            );
            outln!(
                "games {games} positions {} file {}",
                records.len(),
                out.display()
            );
            return Ok(());
        }
        let file =
            poolshark_host::files::create(out).map_err(|e| input(format!("cannot write {e}")))?;
        let mut writer = std::io::BufWriter::new(file);
        let mut dedup = (!self.keep_duplicates).then(poolshark_tune::selfplay::Dedup::default);
        let mut written = 0usize;
        let result = run(
            &cfg,
            &mut |text| {
                let (kept, n) = match dedup.as_mut() {
                    Some(d) => d.filter(text),
                    None => (text.to_string(), text.lines().count()),
                };
                written += n;
                writer.write_all(kept.as_bytes())
            },
            &mut on_game,
        );
        bar.finish_and_clear();
        let secs = start.elapsed().as_secs_f64();
        result
            .and_then(|_| writer.flush())
            .map_err(|e| runtime(format!("writing {}: {e}", out.display())))?;
        errln!(
            "selfplay: {games} games, {written} positions written in {secs:.1}s ({:.0} positions/s)",
            written as f64 / secs.max(1e-9)
        );
        outln!("games {games} positions {written} file {}", out.display());
        Ok(())
    }
}

/// `selfplay --out` writes over nothing: a file with something in it is refused, with what it
/// holds (self-play data from another run, or something else) named. An empty file is used.
fn refuse_written(out: &std::path::Path) -> Result<(), CliError> {
    use poolshark_tune::dataline;
    let first = match poolshark_host::files::lines(out, 1 << 16) {
        Ok(mut lines) => lines.next(),
        Err(_) => return Ok(()), // not there (or not a file: `create` says which)
    };
    if poolshark_host::files::read_at_most(out, poolshark_host::files::Kind::PackedData, u64::MAX)
        .is_ok_and(|b| poolshark_tune::packed::is_packed(&b))
    {
        return Err(input(format!(
            "--out {} holds packed self-play data already; selfplay writes over nothing: give \
             another --out, or remove the file to play the run again",
            out.display()
        )));
    }
    let what = match first {
        None => return Ok(()),
        Some(Ok(line)) if dataline::parse(&line).is_ok() => "self-play data already",
        Some(_) => "something that is not self-play data",
    };
    Err(input(format!(
        "--out {} holds {what}; selfplay writes over nothing: give another --out, or remove \
         the file to play the run again",
        out.display()
    )))
}

/// The options of `poolshark stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Match PDN files (any number, in any order: e.g. every shard's).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The engine whose score is reported, by its PDN name (default: the match's first
    /// engine, Black in the first game of each pair).
    #[arg(long)]
    engine: Option<String>,
    /// Add the sequential test's state: `"elo0=0 elo1=5 alpha=0.05 beta=0.05"`.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<Sprt>,
}

impl StatsArgs {
    /// Prints the summary lines (see `arena::merge`).
    pub fn run(self) -> Result<(), CliError> {
        use poolshark_engine::core::pdn;
        // One game at a time: memory does not grow with the files.
        let mut merger = arena::merge::Merger::new(self.engine.as_deref());
        for path in &self.files {
            let bad = |e: pdn::PdnError| input(format!("{}: {e}", path.display()));
            let mut n = 0;
            let mut add = |g: pdn::PdnGame| {
                n += 1;
                merger
                    .add(&g, &format!("{}: game {n}", path.display()))
                    .map_err(input)
            };
            let lines = poolshark_host::files::lines(path, pdn::MAX_MOVETEXT)
                .map_err(|e| input(format!("cannot read {e}")))?;
            // A match still writing the file may have written part of its last game: a fault
            // at the file's end or on its last line (unless that line ends the game with a
            // result) leaves that game out, counted in a note, instead of failing the whole
            // summary. A game still open at the end had no result to end its movetext: a
            // match writes one after every game, so this one was cut off too, however well
            // it reads.
            let mut cut = false;
            for read in pdn::games(lines, pdn::TreeBuilder::default()) {
                match read.map_err(|e| input(format!("cannot read {e}")))? {
                    pdn::Ending::Complete(g) => add(pdn::PdnGame::from(g))?,
                    pdn::Ending::CutOff(_) => cut = true,
                    pdn::Ending::Bad(_, pdn::FaultAt::LastLine | pdn::FaultAt::End) => cut = true,
                    pdn::Ending::Bad(e, pdn::FaultAt::Inside) => return Err(bad(e)),
                }
            }
            if cut {
                merger.cut_off();
            }
        }
        let merged = merger.finish().map_err(input)?;
        for line in merged.lines(self.sprt.as_ref()) {
            outln!("{line}");
        }
        Ok(())
    }
}

/// The options of `poolshark openings`.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    plies: u32,
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Largest score (men) kept, either side.
    #[arg(long, default_value_t = 0.5)]
    margin: f64,
}

impl OpeningsArgs {
    /// Prints the openings, one FEN a line, with progress on stderr.
    pub fn run(self) -> Result<(), CliError> {
        let margin = (self.margin * 100.0).round() as i32;
        let lines = openings::generate(self.plies, self.depth, margin, &mut |i, n| {
            if i % 50 == 0 || i == n {
                errln!("searched {i}/{n}");
            }
        });
        for l in lines {
            outln!("{l}");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::options::parse_param;

    #[test]
    fn params_name_an_engine_or_both() {
        assert_eq!(
            parse_param("2:book=false").unwrap(),
            (Some(1), "book".into(), "false".into())
        );
        assert_eq!(
            parse_param(" tt-size = 20").unwrap(),
            (None, "tt-size".into(), "20".into())
        );
        assert!(parse_param("=1").is_err());
        assert!(parse_param("book").is_err());
    }

    #[test]
    fn time_controls_take_one_value_or_one_per_engine() {
        let s = |t: &str| Some(t.to_string());
        const NONE: [Option<poolshark_engine::search::level::PlayLevel>; 2] = [None, None];
        assert_eq!(
            parse_time_controls(None, None, s("6,4"), None, NONE).unwrap(),
            [TimeControl::Depth(6), TimeControl::Depth(4)]
        );
        assert_eq!(
            parse_time_controls(None, None, None, s("500"), NONE).unwrap(),
            [TimeControl::Nodes(500); 2]
        );
        let movetime = parse_time_controls(None, s("0.5"), None, None, NONE).unwrap();
        assert_eq!(
            movetime[1],
            TimeControl::MoveTime(Duration::from_millis(500))
        );
        for (depth, nodes) in [(s("0"), None), (s("1,2,3"), None), (None, s("-1"))] {
            assert!(parse_time_controls(None, None, depth, nodes, NONE).is_err());
        }
        assert!(parse_time_controls(None, None, None, None, NONE).is_err());
        assert_eq!(
            parse_time_controls(None, s("-,0.5"), s("6,-"), None, NONE).unwrap(),
            [
                TimeControl::Depth(6),
                TimeControl::MoveTime(Duration::from_millis(500))
            ]
        );
    }

    #[test]
    fn sprt_keys_are_checked() {
        let t = parse_sprt("elo1=10 alpha=0.1").unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (0.0, 10.0, 0.1, 0.05));
        for bad in ["elo0=5 elo1=5", "alpha=0.6", "elo2=1", "elo1", "elo1=NaN"] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }
}
