//! `poolshark learn`: the options, and progress bars and the summary line around the
//! training run (`tune::train`), which fits the network (`tune::net`) to self-play data.

use super::args::{parse_positive, parse_unit_interval};
use super::{input, runtime, CliError};
use poolshark_host::files::{self, Kind};
use poolshark_tune::dataset::Data;
use poolshark_tune::train::{self, LearnError, LearnOptions, Progress};
use std::path::PathBuf;
use std::time::Instant;

/// What `learn` fits: the network, the one learned evaluation (the patterns it replaced were
/// removed, tuning/README.md). Kept as an option so that scripts naming it still run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// The network evaluation (`eval::nnue`), written as a network file.
    Network,
}

/// The options of `poolshark learn`.
#[derive(clap::Args)]
pub struct LearnArgs {
    /// `FEN ; White's score ; search score ; game` lines, as `selfplay` writes them, or a
    /// packed file (`selfplay --format packed`, `data merge`): a file, or a directory whose
    /// `*.txt` and `*.psd` files are all read (as scripts/selfplay-data.sh fills one). May be
    /// given more than once; a position met again (in any file) is counted once.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the fitted network, after every epoch and at the end.
    #[arg(long)]
    out: PathBuf,
    /// What to fit.
    #[arg(long, value_enum, default_value_t = Model::Network)]
    model: Model,
    /// The network's hidden width: a multiple of 16, at most 512 (default: 128, or
    /// --start's width).
    #[arg(long, value_parser = parse_hidden)]
    hidden: Option<usize>,
    /// The checkpoint, written after every epoch (default: OUT.ckpt). Run the same command
    /// again and it continues from there, also with a larger --epochs; a checkpoint from
    /// other data or settings is refused, naming each setting that differs.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// A network file to start from (e.g. tuning/network.bin) instead of small random
    /// weights: it continues that network's training on the new data, so the next round of
    /// self-play starts from the last.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Adam's step at the first epoch; it falls to a tenth by the last.
    #[arg(long, default_value_t = 1e-3, value_parser = parse_positive)]
    learning_rate: f64,
    /// Positions per step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    batch: u32,
    /// Aim at LAMBDA * result + (1 - LAMBDA) * sigmoid(K * search score) where a line has a
    /// search score (1: the game results only).
    #[arg(long, default_value_t = 0.5, value_parser = parse_unit_interval)]
    lambda: f64,
    /// The scale of sigmoid(K * eval) (default: fitted to the hand evaluation on the data,
    /// which keeps the network's scores in hundredths of a man).
    #[arg(long, value_parser = parse_positive)]
    k: Option<f64>,
    /// Seed for the starting weights and the order positions are visited in.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

impl LearnArgs {
    /// Runs `tune::train::run` with progress bars and the log on stderr, then prints
    /// `positions N K K loss L held-out H positions/s R time S out FILE` on stdout.
    pub fn run(self) -> Result<(), CliError> {
        if let Some(t) = self.threads {
            // Only fails when a pool already exists, which it cannot here.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(t as usize)
                .build_global();
        }
        let checkpoint = self.checkpoint.clone().unwrap_or_else(|| {
            let mut p = self.out.clone().into_os_string();
            p.push(".ckpt");
            PathBuf::from(p)
        });
        let o = LearnOptions {
            data: self.data,
            out: self.out,
            checkpoint,
            start: self.start,
            hidden: self.hidden,
            epochs: self.epochs as usize,
            learning_rate: self.learning_rate,
            batch: self.batch as usize,
            lambda: self.lambda,
            k: self.k,
            seed: self.seed,
        };
        let mut bars = Bars::default();
        let s = train::run(&o, &mut bars).map_err(|e| match e {
            LearnError::Input(m) => input(m),
            LearnError::Write(m) => runtime(m),
        })?;
        bars.clear();
        outln!(
            "positions {} K {:.6} loss {:.6} held-out {:.6} positions/s {:.0} time {:.1}s out {}",
            s.positions,
            s.k,
            s.loss,
            s.held_out,
            s.positions_per_sec,
            s.secs,
            o.out.display()
        );
        Ok(())
    }
}

/// The progress bars of a run on stderr: one while the data loads, one per epoch.
#[derive(Default)]
struct Bars {
    bar: Option<(usize, indicatif::ProgressBar)>,
}

impl Bars {
    /// The bar for `key` (0 for loading, else the epoch), made by `make` when it is new.
    fn get(
        &mut self,
        key: usize,
        make: impl FnOnce() -> indicatif::ProgressBar,
    ) -> &indicatif::ProgressBar {
        if self.bar.as_ref().is_none_or(|(k, _)| *k != key) {
            self.clear();
            self.bar = Some((key, make()));
        }
        &self.bar.as_ref().expect("just set").1
    }

    fn clear(&mut self) {
        if let Some((_, b)) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Progress for Bars {
    fn loading(&mut self, files: usize, total: usize, positions: usize) {
        let bar = self.get(0, || {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "loading [{wide_bar}] {pos}/{len} files, {msg}, ETA {eta}",
                )
                .expect("a valid template"),
            );
            bar
        });
        bar.set_position(files as u64);
        bar.set_message(format!("{positions} positions"));
    }

    fn epoch(&mut self, epoch: usize, epochs: usize, done: usize, total: usize) {
        let bar = self.get(epoch, || {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(&format!(
                    "epoch {epoch}/{epochs} [{{wide_bar}}] {{human_pos}}/{{human_len}} positions, {{per_sec}}, ETA {{eta}}"
                ))
                .expect("a valid template"),
            );
            bar
        });
        bar.set_position(done as u64);
    }

    fn note(&mut self, line: &str) {
        self.clear();
        errln!("{line}");
    }
}

/// `--hidden`: a multiple of 16 from 16 to 512.
fn parse_hidden(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if n == 0 || !n.is_multiple_of(16) || n > poolshark_engine::eval::nnue::MAX_HIDDEN {
        return Err(format!(
            "{n}: the width must be a multiple of 16 from 16 to 512"
        ));
    }
    Ok(n)
}

/// The options of `poolshark label`.
#[derive(clap::Args)]
pub struct LabelArgs {
    /// Data lines to label (`FEN ; White's score ; search score`, as `selfplay` writes
    /// them), or packed files of one run (then --out is a packed file, written whole when
    /// done). May be given more than once; a position met again is labelled once.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the labelled lines, after a settings line (`# poolshark label nodes N
    /// weights HASH data KEYS`). If it exists, the run continues it: positions already there
    /// are not searched again (a line cut short by a stop is dropped first). A file that
    /// label did not write, or wrote with other --nodes, --weights or --data, is refused
    /// untouched. A packed --out is written whole at the end; until then finished chunks go
    /// to OUT.part, each line with its checksum, which the same command after a stop goes on
    /// from (an empty OUT.part is nothing done; a damaged one is refused).
    #[arg(long)]
    out: PathBuf,
    /// Nodes per search.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Label only the first N positions (after repeats are dropped), e.g. to sample a part.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Threads, each searching its own positions with its own table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Each thread's transposition table, in MiB.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
    #[command(flatten)]
    weights: super::args::WeightsArg,
}

impl LabelArgs {
    /// Labels the positions not yet in `--out`, appending to it, with a progress bar on
    /// stderr and a summary line on stdout: `positions N skipped N file OUT`.
    /// The searches' settings and the progress bar over `n` positions, for either input.
    fn search_setup(
        &self,
        weights: poolshark_engine::eval::Weights,
        n: usize,
    ) -> (poolshark_tune::label::LabelConfig, indicatif::ProgressBar) {
        let cfg = poolshark_tune::label::LabelConfig {
            nodes: self.nodes,
            threads: self.threads as usize,
            hash_mb: self.hash as usize,
            weights,
        };
        let bar = indicatif::ProgressBar::new(n as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "label [{wide_bar}] {pos}/{len} positions, {per_sec}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        (cfg, bar)
    }

    pub fn run(self) -> Result<(), CliError> {
        use poolshark_tune::label;
        use std::collections::HashSet;
        use std::io::Write;
        let weights = self.weights.load()?;
        files::check_output(&self.out).map_err(|e| input(format!("cannot write {e}")))?;
        // Its own input would be read and appended to at once.
        files::check_not_input(
            ("--out", &self.out),
            self.data.iter().map(|p| ("--data", p.as_path())),
        )
        .map_err(|e| input(e.to_string()))?;
        let mut inputs = Vec::new();
        for path in &self.data {
            let data = poolshark_tune::dataset::read(path).map_err(input)?.0;
            inputs.push((path.clone(), data));
        }
        if inputs.iter().any(|(_, d)| matches!(d, Data::Packed(_))) {
            return self.run_packed(weights, inputs);
        }
        // The whole --data, repeats dropped, before --limit and --out are applied.
        let mut all = Vec::new();
        let mut seen = HashSet::new();
        for (path, data) in &inputs {
            let Data::Text(text) = data else {
                unreachable!("packed inputs are labelled by run_packed")
            };
            all.extend(label::parse(text, &path.display().to_string(), &mut seen).map_err(input)?);
        }
        let positions: Vec<_> = all.iter().map(|i| i.pos).collect();
        let header = label::header(self.nodes, &weights, &positions);
        // Positions already labelled in --out (a run that stopped): keep them, skip them.
        // Checked whole before anything is written to it.
        let mut skip = HashSet::new();
        let mut done = 0;
        let mut fresh = true;
        if self.out.exists() {
            let text = files::read_to_string(&self.out, Kind::TuneData)
                .map_err(|e| input(format!("cannot read {e}")))?;
            let name = format!("--out {}", self.out.display());
            let existing =
                label::check_existing(&text, &header, &name, &mut skip).map_err(input)?;
            // A stop can leave the last line cut short: drop it.
            if existing.keep < text.len() {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&self.out)
                    .and_then(|f| f.set_len(existing.keep as u64));
                f.map_err(|e| runtime(format!("cannot truncate {}: {e}", self.out.display())))?;
            }
            done = existing.items.len();
            fresh = existing.keep == 0;
        }
        let total = all.len();
        let mut items: Vec<_> = all
            .into_iter()
            .filter(|i| !skip.contains(&i.pos.key()))
            .collect();
        let limit = self.limit.map_or(usize::MAX, |l| l as usize);
        let left = limit.saturating_sub(done);
        items.truncate(left);
        if done > 0 {
            errln!(
                "label: continuing {}: {done} positions already labelled",
                self.out.display()
            );
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.out)
            .map_err(|e| input(format!("cannot write {}: {e}", self.out.display())))?;
        let mut writer = std::io::BufWriter::new(file);
        if fresh {
            writer
                .write_all(header.as_bytes())
                .map_err(|e| runtime(format!("writing {}: {e}", self.out.display())))?;
        }
        let (cfg, bar) = self.search_setup(weights, items.len());
        let start = Instant::now();
        let result = label::run(
            &items,
            &cfg,
            &mut |text| writer.write_all(text.as_bytes()),
            &mut |n| bar.set_position(n as u64),
        );
        bar.finish_and_clear();
        result
            .and_then(|_| writer.flush())
            .map_err(|e| runtime(format!("writing {}: {e}", self.out.display())))?;
        let secs = start.elapsed().as_secs_f64();
        errln!(
            "label: {} positions searched at {} nodes in {secs:.1}s ({:.0} positions/s)",
            items.len(),
            self.nodes,
            items.len() as f64 / secs.max(1e-9)
        );
        outln!(
            "positions {} skipped {} file {}",
            done + items.len(),
            total - done - items.len(),
            self.out.display()
        );
        Ok(())
    }

    /// `label` of packed files: every record searched again, in order, written whole to a
    /// new packed --out with its game, result and tables' value kept. Finished chunks go to
    /// a journal beside it (`journal_path`) as they end, so that the same command after a
    /// stop goes on from them; the journal is removed once --out is written.
    fn run_packed(
        self,
        weights: poolshark_engine::eval::Weights,
        inputs: Vec<(PathBuf, Data)>,
    ) -> Result<(), CliError> {
        use poolshark_tune::label;
        use poolshark_tune::packed;
        use std::io::Write;
        if files::read(&self.out, Kind::PackedData).is_ok_and(|b| !b.is_empty()) {
            return Err(input(format!(
                "--out {} exists; label writes a packed file whole: name a new file",
                self.out.display()
            )));
        }
        let mut seed = None;
        // Each input's name and settings: one run's files, no two of the same games.
        let mut runs: Vec<(String, Option<packed::Run>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut records = Vec::new();
        for (path, data) in inputs {
            let Data::Packed(f) = data else {
                return Err(input(format!(
                    "{} is text data and another --data is packed: label one kind at a time \
                     (poolshark data convert)",
                    path.display()
                )));
            };
            if *seed.get_or_insert(f.seed) != f.seed {
                return Err(input(format!(
                    "{} is from the run seeded {}, the first --data from {}: label one run at a time",
                    path.display(),
                    f.seed,
                    seed.unwrap_or_default()
                )));
            }
            let name = path.display().to_string();
            for (other, run) in &runs {
                poolshark_tune::dataset::overlap(&name, f.run.as_ref(), other, run.as_ref())
                    .map_err(input)?;
            }
            runs.push((name, f.run));
            records.extend(f.records.into_iter().filter(|r| seen.insert(r.pos.key())));
        }
        // The settings of its games: one file's, or those of the run its files are shards of.
        let run = match runs.as_slice() {
            [(_, run)] => *run,
            _ => runs[0].1.map(|r| packed::Run { shard: None, ..r }),
        };
        let total = records.len();
        records.truncate(self.limit.map_or(usize::MAX, |l| l as usize));
        let positions: Vec<_> = records.iter().map(|r| r.pos).collect();
        // The journal of finished chunks (`label::journal_header`), taken up if a run of
        // these settings and positions stopped midway, checked whole before it is touched.
        let journal_path = journal_path(&self.out);
        let header = label::journal_header(self.nodes, &weights, &positions);
        let mut done = label::Done::new();
        let mut keep = 0;
        if journal_path.exists() {
            let text = files::read_to_string(&journal_path, Kind::Checkpoint)
                .map_err(|e| input(format!("cannot read {e}")))?;
            let name = journal_path.display().to_string();
            (done, keep) =
                label::read_journal(&text, &header, &name, positions.len()).map_err(input)?;
        }
        let before: usize = done.values().map(Vec::len).sum();
        if keep > 0 {
            let name = journal_path.display();
            errln!("label: continuing from {name}: {before} positions already labelled");
        }
        let mut journal = open_journal(&journal_path, keep, &header)?;
        let (cfg, bar) = self.search_setup(weights, records.len());
        let start = Instant::now();
        let scores = label::scores_resuming(
            &positions,
            &cfg,
            done,
            &mut |i, s| journal.write_all(label::journal_line(i, s).as_bytes()),
            &mut |n| bar.set_position(n as u64),
        );
        bar.finish_and_clear();
        let scores =
            scores.map_err(|e| runtime(format!("writing {}: {e}", journal_path.display())))?;
        for (r, s) in records.iter_mut().zip(scores) {
            r.search = Some(s);
        }
        files::save(
            &self.out,
            &packed::write(seed.unwrap_or_default(), run.as_ref(), &records),
        )
        .map_err(|e| runtime(format!("cannot write {e}")))?;
        drop(journal);
        if let Err(e) = std::fs::remove_file(&journal_path) {
            errln!(
                "label: warning: cannot remove the journal {}: {e}",
                journal_path.display()
            );
        }
        let secs = start.elapsed().as_secs_f64();
        let searched = records.len() - before;
        errln!(
            "label: {searched} positions searched at {} nodes in {secs:.1}s ({:.0} positions/s)",
            self.nodes,
            searched as f64 / secs.max(1e-9)
        );
        outln!(
            "positions {} skipped {} file {}",
            records.len(),
            total - records.len(),
            self.out.display()
        );
        Ok(())
    }
}

/// The journal of a packed `label --out OUT`: `OUT.part`, beside it.
fn journal_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// The journal, open for appending: cut to its first `keep` bytes (a run taken up; a stop
/// can leave the last line cut short), or made with `header` (`keep` 0, a fresh run).
fn open_journal(
    path: &std::path::Path,
    keep: usize,
    header: &str,
) -> Result<std::fs::File, CliError> {
    use std::io::Write;
    let fail = |e: std::io::Error| runtime(format!("cannot write {}: {e}", path.display()));
    files::check_output(path).map_err(|e| input(format!("cannot write {e}")))?;
    if keep == 0 {
        let mut f = files::create(path).map_err(|e| input(format!("cannot write {e}")))?;
        f.write_all(header.as_bytes()).map_err(fail)?;
        return Ok(f);
    }
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(fail)?;
    f.set_len(keep as u64).map_err(fail)?;
    Ok(f)
}
