//! The endgame table commands: `egdb build`, `probe`, `verify`, `speed`, `stats` and `web`.

use super::args::FenArg;
use super::{input, runtime, CliError};
use poolshark_engine::egdb::{self, index::MAX_PIECES};
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum EgdbCommand {
    /// Build every material group up to --pieces pieces into --dir, smallest first, by
    /// retrograde analysis. Finished groups are kept (one checksummed file each), so a stopped
    /// build resumes. Progress goes to stderr.
    Build(BuildArgs),
    /// Print a position's value for the side to move: `wdl=<W|D|L>
    /// wdl50=<win|cursed-win|draw|blessed-loss|loss> dtc=<plies or ->` (wdl: no draw rule;
    /// wdl50: under the 40-move rule from a fresh count; dtc: plies to the next capture or man
    /// move on the best line). More pieces than the tables hold exits with status 2.
    Probe(ProbeArgs),
    /// Re-check every stored value against its successors; prints `checked <n> mismatches
    /// <m>` and exits with status 1 if any value (or any table file) is bad, or a group's
    /// file is missing below the largest piece count present.
    Verify(VerifyArgs),
    /// Time probes of random positions of the tables in --dir (loaded, then probed once
    /// before the clock starts): prints `probes <n> seconds <s> per-second <r>`.
    Speed(SpeedArgs),
    /// Per group in --dir: `<group> positions <n> win <n> cursed-win <n> draw <n>
    /// blessed-loss <n> loss <n> captures <n> max-dtc <plies> bytes <n>` (side to move:
    /// Black, White's twin being the swapped group; the classes count the stored positions,
    /// captures the capture positions the file leaves out; bytes: compressed), then the same
    /// for all groups with `total`.
    Stats(DirArg),
    /// Write the tables of up to --pieces pieces in --dir into --out for the static page
    /// (`make web` does): each group's file as it is, the lone-king table compressed, and
    /// index.json, the list the page reads (written last). Prints `wrote <files> files <bytes>
    /// bytes to <out>`. A missing or damaged file exits with status 2, naming it.
    Web(WebArgs),
}

impl EgdbCommand {
    pub fn run(self) -> Result<(), CliError> {
        match self {
            EgdbCommand::Build(a) => a.run(),
            EgdbCommand::Probe(a) => a.run(),
            EgdbCommand::Verify(a) => a.run(),
            EgdbCommand::Speed(a) => a.run(),
            EgdbCommand::Stats(a) => stats(&a.dir),
            EgdbCommand::Web(a) => a.run(),
        }
    }
}

/// `--dir`: where the tables are.
#[derive(clap::Args)]
pub struct DirArg {
    /// The folder of the table files.
    #[arg(long, default_value = "egdb")]
    pub dir: PathBuf,
}

/// The options of `poolshark egdb build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Build every group with up to this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_PIECES as i64))]
    pieces: u32,
    #[command(flatten)]
    dir: DirArg,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

impl BuildArgs {
    fn run(self) -> Result<(), CliError> {
        let threads = self
            .threads
            .map(|t| t as usize)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        poolshark_host::egdb::build(&self.dir.dir, self.pieces, threads)
            .map_err(|e| runtime(e.to_string()))
    }
}

/// The options of `poolshark egdb web`.
#[derive(clap::Args)]
pub struct WebArgs {
    /// Every group with up to this many pieces (4: about 0.6 MB; 5: about 9 MB).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=MAX_PIECES as i64))]
    pieces: u32,
    #[command(flatten)]
    dir: DirArg,
    /// The folder to write (made if missing; one that holds other files is refused).
    #[arg(long)]
    out: PathBuf,
}

impl WebArgs {
    fn run(self) -> Result<(), CliError> {
        use poolshark_host::egdb_web::{export, WebError};
        let w = export(&self.dir.dir, self.pieces, &self.out).map_err(|e| match e {
            WebError::Out(..) => runtime(e.to_string()),
            _ => input(e.to_string()),
        })?;
        outln!(
            "wrote {} files {} bytes to {}",
            w.files,
            w.bytes,
            self.out.display()
        );
        Ok(())
    }
}

/// The options of `poolshark egdb probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    fen: FenArg,
    #[command(flatten)]
    dir: DirArg,
}

impl ProbeArgs {
    fn run(self) -> Result<(), CliError> {
        let pos = self.fen.position()?;
        // Read lazily: one group is enough, capture positions being stored like the others.
        let db =
            poolshark_host::egdb::open_lazy(&self.dir.dir).map_err(|e| input(e.to_string()))?;
        match db.probe(&pos) {
            Some(p) => {
                outln!("{p}");
                Ok(())
            }
            // After the probe: a file it found unusable lowers how far the tables reach.
            None => Err(input(format!(
                "no table for this position: it has {} pieces and the tables in {} are {}",
                pos.occupied().count(),
                self.dir.dir.display(),
                match db.max_pieces() {
                    n if n >= 2 => format!("complete up to {n} pieces"),
                    _ => "not complete for any number of pieces".to_string(),
                }
            ))),
        }
    }
}

/// The options of `poolshark egdb verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    dir: DirArg,
    /// Check every N-th position of each group only (a quicker look at large tables).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
}

impl VerifyArgs {
    fn run(self) -> Result<(), CliError> {
        let dir = &self.dir.dir;
        if !dir.is_dir() {
            return Err(input(format!("{}: not a directory", dir.display())));
        }
        let (tables, mut bad) = poolshark_host::egdb::load_tables(dir, MAX_PIECES);
        bad.extend(
            poolshark_host::egdb::missing(dir)
                .into_iter()
                .map(|p| format!("{}: missing", p.display())),
        );
        let mut report = egdb::verify::verify_sample(&tables, self.sample);
        // The 13-move table (R19) is checked whole: it is solved again from the main tables.
        match egdb::lone_king::LoneKing::load(&poolshark_host::egdb::Folder::new(dir)) {
            Ok(Some(lone)) => match lone.verify(&tables) {
                Some(r) => {
                    report.checked += r.checked;
                    report.mismatches += r.mismatches;
                    report.examples.extend(r.examples);
                }
                None => errln!(
                    "{}: not checked: the tables it is solved from are incomplete",
                    poolshark_host::egdb::lone_king_path(dir).display()
                ),
            },
            Ok(None) => {}
            Err(why) => bad.push(why),
        }
        for why in &bad {
            errln!("bad table file: {why}");
        }
        for fen in &report.examples {
            errln!("mismatch: {fen}");
        }
        outln!(
            "checked {} mismatches {}",
            report.checked,
            report.mismatches
        );
        if report.mismatches > 0 || !bad.is_empty() {
            return Err(runtime(format!(
                "{} mismatching values, {} bad table files",
                report.mismatches,
                bad.len()
            )));
        }
        Ok(())
    }
}

/// The options of `poolshark egdb speed`.
#[derive(clap::Args)]
pub struct SpeedArgs {
    #[command(flatten)]
    dir: DirArg,
    /// Distinct random positions.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    positions: u64,
    /// Times each is probed.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// Probe the tables unpacked whole in memory (as `egdb verify` reads them: two bytes a
    /// position) instead of compressed, as play reads them.
    #[arg(long)]
    unpacked: bool,
}

impl SpeedArgs {
    fn run(self) -> Result<(), CliError> {
        let db = if self.unpacked {
            poolshark_host::egdb::open(&self.dir.dir)
        } else {
            poolshark_host::egdb::open_lazy(&self.dir.dir)
        }
        .map_err(|e| input(e.to_string()))?;
        let positions = egdb::speed::random_positions(&db, self.positions as usize, 1);
        if positions.is_empty() {
            return Err(input(format!(
                "no complete tables in {}",
                self.dir.dir.display()
            )));
        }
        let (n, time, _) = egdb::speed::time_probes(&db, &positions, self.rounds as usize);
        let secs = time.as_secs_f64();
        outln!(
            "probes {n} seconds {secs:.3} per-second {:.0}",
            n as f64 / secs.max(1e-9)
        );
        Ok(())
    }
}

/// `egdb stats`: one group's file at a time, so any size fits in memory.
fn stats(dir: &std::path::Path) -> Result<(), CliError> {
    use poolshark_engine::egdb::{group_file, index::Group, pack, value, Wdl50};
    let store = poolshark_host::egdb::Folder::new(dir);
    if !dir.is_dir() {
        return Err(input(format!("{}: not a directory", dir.display())));
    }
    let order = [
        Wdl50::Win,
        Wdl50::CursedWin,
        Wdl50::Draw,
        Wdl50::BlessedLoss,
        Wdl50::Loss,
    ];
    let mut total = [0u64; 5];
    let mut total_max = 0;
    let mut total_captures = 0;
    let mut total_bytes = 0;
    let mut bad = 0;
    let mut found = 0;
    for g in (2..=MAX_PIECES).flat_map(Group::all_with) {
        let packed = match group_file::load(&store, g) {
            Ok(Some(p)) => {
                found += 1;
                p
            }
            Ok(None) => continue,
            Err(why) => {
                errln!("bad table file: {why}");
                bad += 1;
                continue;
            }
        };
        let values = match packed.unpack() {
            Ok(v) => v,
            Err(why) => {
                errln!("bad table file: {g}: {why}");
                bad += 1;
                continue;
            }
        };
        let mut counts = [0u64; 5];
        let mut max = 0;
        let mut captures = 0;
        for (i, &v) in values.iter().enumerate() {
            if pack::is_capture(g, i as u64) {
                captures += 1;
                continue;
            }
            let c = value::class(v).expect("checked when read");
            counts[order.iter().position(|&o| o == c).expect("a class")] += 1;
            max = max.max(value::dtc(v));
        }
        let line: Vec<String> = order
            .iter()
            .zip(counts)
            .map(|(c, n)| format!("{} {n}", c.name()))
            .collect();
        outln!(
            "{g} positions {} {} captures {captures} max-dtc {max} bytes {}",
            values.len(),
            line.join(" "),
            packed.bytes()
        );
        total_captures += captures;
        total_bytes += packed.bytes() as u64;
        for (t, n) in total.iter_mut().zip(counts) {
            *t += n;
        }
        total_max = total_max.max(max);
    }
    if found == 0 && bad == 0 {
        return Err(input(format!(
            "{}: no endgame tables there (`poolshark egdb build --dir {}` makes them)",
            dir.display(),
            dir.display()
        )));
    }
    let line: Vec<String> = order
        .iter()
        .zip(total)
        .map(|(c, n)| format!("{} {n}", c.name()))
        .collect();
    outln!(
        "total positions {} {} captures {total_captures} max-dtc {total_max} bytes {total_bytes}",
        total.iter().sum::<u64>() + total_captures,
        line.join(" ")
    );
    if bad > 0 {
        return Err(runtime(format!("{bad} bad table files")));
    }
    Ok(())
}
