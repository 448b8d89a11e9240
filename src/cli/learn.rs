//! `poolshark learn`: fit the pattern evaluation (small or big) or the network to self-play
//! data (`tune::learn`, `tune::net`), with a progress bar and the losses on stderr, a
//! checkpoint after every epoch, and the weights file (`eval::pattern_file`,
//! `eval::big_pattern_file`, `eval::nnue::file`) at the end.

use super::args::{parse_non_negative, parse_positive, parse_unit_interval};
use super::{input, runtime, CliError};
use crate::files::{self, Kind};
use crate::tune::learn::{self, checkpoint, Data, LearnConfig, State};
use crate::tune::pattern_model::{self, Big, Small};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `learn` fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// The pattern evaluation (`eval::pattern`), written as tuning/patterns.bin is.
    Patterns,
    /// The big patterns (`eval::big_pattern`): ten windows of 4 rows by 6 files (12 squares,
    /// men only, 531,441 states each), kings by square in a linear part; a 21 MB file that
    /// `--weights` loads.
    BigPatterns,
    /// The network evaluation (`eval::nnue`), written as a network file.
    Network,
}

/// The options of `poolshark learn`.
#[derive(clap::Args)]
pub struct LearnArgs {
    /// `FEN ; White's score ; search score ; game` lines, as `selfplay` writes them: a file,
    /// or a directory whose `*.txt` files are all read (as scripts/selfplay-data.sh fills
    /// one). May be given more than once; a position met again (in any file) is counted once.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the fitted evaluation (a pattern or network file, as --model says),
    /// after every epoch and at the end.
    #[arg(long)]
    out: PathBuf,
    /// What to fit.
    #[arg(long, value_enum, default_value_t = Model::Patterns)]
    model: Model,
    /// The network's hidden width (--model network): a multiple of 16, at most 512
    /// (default: 128, or --start's width).
    #[arg(long, value_parser = parse_hidden)]
    hidden: Option<usize>,
    /// The checkpoint, written after every epoch (default: OUT.ckpt). Run the same command
    /// again and it continues from there; a checkpoint from other data or settings is refused.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Starting weights, a file of the --model's kind (default for patterns: the linear
    /// part at the hand evaluation's values, every table value 0; for a network: small
    /// random weights). A network file (e.g. tuning/network.bin) continues that network's
    /// training on the new data: the next round of self-play starts from the last.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Passes over the data (default: 20 for patterns, 10 for a network).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: Option<u32>,
    /// Adam's step at the first epoch; it falls to a tenth by the last (default: 0.5
    /// hundredths of a man for patterns, 0.001 for a network's weights).
    #[arg(long, value_parser = parse_positive)]
    learning_rate: Option<f64>,
    /// Positions per step (default: 4096 for patterns, 16384 for a network).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    batch: Option<u32>,
    /// Pull of the table values toward 0: l2 * w^2 per value added to the loss. 0 (none)
    /// played far better than 1e-7 (tuning/README.md): with Adam, even a small pull holds
    /// every state that few positions reach near 0.
    #[arg(long, default_value_t = 0.0, value_parser = parse_non_negative)]
    l2: f64,
    /// Aim at LAMBDA * result + (1 - LAMBDA) * sigmoid(K * search score) where a line has a
    /// search score (1: the game results only).
    #[arg(long, default_value_t = 0.5, value_parser = parse_unit_interval)]
    lambda: f64,
    /// The scale of sigmoid(K * eval) (default: fitted to the hand evaluation on the data,
    /// which keeps the learned weights in hundredths of a man).
    #[arg(long, value_parser = parse_positive)]
    k: Option<f64>,
    /// Seed for the order positions are visited in.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

impl LearnArgs {
    /// Loads the data, fits, writes `--out` and the checkpoint after each epoch, and prints a
    /// summary line on stdout.
    pub fn run(self) -> Result<(), CliError> {
        if let Some(t) = self.threads {
            // Only fails when a pool already exists, which it cannot here.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(t as usize)
                .build_global();
        }
        files::check_output(&self.out).map_err(|e| input(format!("cannot write {e}")))?;
        let ckpt = self.checkpoint.clone().unwrap_or_else(|| {
            let mut p = self.out.clone().into_os_string();
            p.push(".ckpt");
            PathBuf::from(p)
        });
        files::check_output(&ckpt).map_err(|e| input(format!("cannot write {e}")))?;
        let data = data_files(&self.data)?;
        match self.model {
            Model::Network => self.run_network(&data, &ckpt),
            Model::Patterns => self.run_patterns::<Small>(&data, &ckpt),
            Model::BigPatterns => self.run_patterns::<Big>(&data, &ckpt),
        }
    }

    /// `--model patterns` or `big-patterns`: load the data, fit, write `--out` and the
    /// checkpoint after every epoch, and print a summary line.
    fn run_patterns<M: pattern_model::Model>(
        &self,
        data: &[PathBuf],
        ckpt: &Path,
    ) -> Result<(), CliError> {
        let start = match &self.start {
            None => M::start(),
            Some(p) => {
                let bytes =
                    files::read(p, Kind::Weights).map_err(|e| input(format!("cannot read {e}")))?;
                M::parse(&bytes).map_err(|e| input(format!("--start {}: {e}", p.display())))?
            }
        };
        let t0 = Instant::now();
        let mut all = Data::<M>::default();
        let hashes = load(data, &mut |text, name| {
            all.add_text(text, name)?;
            Ok(all.len())
        })?;
        if all.len() < 2 * crate::tune::run::HELD_OUT_EVERY {
            return Err(input("too few positions in --data"));
        }
        let k = self.k.unwrap_or_else(|| learn::fit_k(&all));
        all.blend(self.lambda, k);
        let (duplicates, kings_only) = (all.duplicates, all.kings_only);
        let states = learn::coverage(&all);
        let (train, held) = all.hold_out();
        errln!(
            "positions {} (held out {}, duplicates dropped {duplicates}, king endings dropped {kings_only}) window states seen {states} K {k:.6} loaded in {:.1}s",
            train.len() + held.len(),
            held.len(),
            t0.elapsed().as_secs_f64()
        );
        let cfg = LearnConfig {
            epochs: self.epochs.unwrap_or(20) as usize,
            learning_rate: self.learning_rate.unwrap_or(0.5),
            batch: self.batch.unwrap_or(4096) as usize,
            l2: self.l2,
            seed: self.seed,
            k,
        };
        // Everything the run depends on: a checkpoint continues only the run that made it.
        // The data by its content; K as given (a fitted K is the data's, and its last bits
        // would hang on how the sums were split).
        let settings = LearnConfig {
            k: self.k.unwrap_or(0.0),
            ..cfg.clone()
        };
        let print = format!(
            "{settings:?} data {hashes:x?} start {:016x} lambda {}",
            crate::checksum::fnv1a(&M::write(&start)),
            self.lambda
        );
        let fp = learn::fingerprint(&print);
        let mut st = match files::read(ckpt, Kind::Checkpoint) {
            Ok(b) => {
                let st = checkpoint::parse(&b, fp, M::PARAMS)
                    .map_err(|e| input(format!("checkpoint {}: {e}", ckpt.display())))?;
                errln!("resuming from {} after epoch {}", ckpt.display(), st.epoch);
                st
            }
            Err(_) if !ckpt.exists() => State::new(start),
            Err(e) => return Err(input(format!("cannot read {e}"))),
        };
        errln!(
            "start loss {:.6} held-out {:.6} (the hand evaluation: {:.6} held-out {:.6})",
            learn::loss(&train, &st.w, k),
            learn::loss(&held, &st.w, k),
            learn::hand_loss(&train, k),
            learn::hand_loss(&held, k)
        );
        let (mut fit_secs, mut fitted) = (0f64, 0usize);
        while st.epoch < cfg.epochs {
            let bar = epoch_bar(st.epoch + 1, cfg.epochs, train.len());
            let e0 = Instant::now();
            learn::epoch(&train, &cfg, &mut st, &mut |done| {
                bar.set_position(done as u64)
            });
            bar.finish_and_clear();
            let secs = e0.elapsed().as_secs_f64();
            fit_secs += secs;
            fitted += train.len();
            let (l, h) = (learn::loss(&train, &st.w, k), learn::loss(&held, &st.w, k));
            errln!(
                "epoch {}/{} loss {l:.6} held-out {h:.6} {:.0} positions/s time {:.1}s",
                st.epoch,
                cfg.epochs,
                train.len() as f64 / secs.max(1e-9),
                t0.elapsed().as_secs_f64()
            );
            save::<M>(&self.out, &st)?;
            files::save(ckpt, &checkpoint::write(fp, &st))
                .map_err(|e| runtime(format!("cannot write {e}")))?;
        }
        save::<M>(&self.out, &st)?;
        let (l, h) = (learn::loss(&train, &st.w, k), learn::loss(&held, &st.w, k));
        outln!(
            "positions {} K {k:.6} loss {l:.6} held-out {h:.6} positions/s {:.0} time {:.1}s out {}",
            train.len() + held.len(),
            fitted as f64 / fit_secs.max(1e-9),
            t0.elapsed().as_secs_f64(),
            self.out.display()
        );
        Ok(())
    }
}

impl LearnArgs {
    /// `--model network`: load the data, fit the network, write `--out` (the quantized
    /// network file) and the checkpoint after every epoch, and print a summary line.
    fn run_network(&self, data: &[PathBuf], ckpt: &Path) -> Result<(), CliError> {
        use crate::tune::net::{self, NetConfig, NetData, NetState};
        if self.l2 != 0.0 {
            return Err(input("--l2 is for --model patterns and big-patterns"));
        }
        let start = match &self.start {
            None => None,
            Some(p) => {
                let bytes =
                    files::read(p, Kind::Weights).map_err(|e| input(format!("cannot read {e}")))?;
                let n = crate::eval::nnue::file::parse(&bytes)
                    .map_err(|e| input(format!("--start {}: {e}", p.display())))?;
                Some((n.to_float(), crate::checksum::fnv1a(&bytes)))
            }
        };
        let hidden = match (&start, self.hidden) {
            (Some((f, _)), Some(h)) if f.hidden != h => {
                return Err(input(format!(
                    "--start is a network of width {}, --hidden says {h}",
                    f.hidden
                )))
            }
            (Some((f, _)), _) => f.hidden,
            (None, h) => h.unwrap_or(128),
        };
        let t0 = Instant::now();
        let mut all = NetData::default();
        let hashes = load(data, &mut |text, name| {
            all.add_text(text, name)?;
            Ok(all.len())
        })?;
        all.seal();
        if all.train.len() < 100 || all.held.is_empty() {
            return Err(input("too few positions in --data"));
        }
        let k = self.k.unwrap_or_else(|| all.fit_k());
        all.blend(self.lambda, k);
        errln!(
            "positions {} (held out {}, duplicates dropped {}, king endings dropped {}) K {k:.6} loaded in {:.1}s",
            all.len(),
            all.held.len(),
            all.duplicates,
            all.kings_only,
            t0.elapsed().as_secs_f64()
        );
        let cfg = NetConfig {
            hidden,
            epochs: self.epochs.unwrap_or(10) as usize,
            learning_rate: self.learning_rate.unwrap_or(1e-3),
            batch: self.batch.unwrap_or(16_384) as usize,
            seed: self.seed,
        };
        let print = format!(
            "network {cfg:?} data {hashes:x?} lambda {} k {:?} start {:?}",
            self.lambda,
            self.k,
            start.as_ref().map(|s| s.1)
        );
        let fp = learn::fingerprint(&print);
        let mut st = match files::read(ckpt, Kind::Checkpoint) {
            Ok(b) => {
                let st = net::checkpoint::parse(&b, fp)
                    .map_err(|e| input(format!("checkpoint {}: {e}", ckpt.display())))?;
                errln!("resuming from {} after epoch {}", ckpt.display(), st.epoch);
                st
            }
            Err(_) if !ckpt.exists() => match &start {
                Some((f, _)) => net::start_from(f),
                None => net::start(&cfg),
            },
            Err(e) => return Err(input(format!("cannot read {e}"))),
        };
        let l = net::Layout { hidden: cfg.hidden };
        let scale = (1.0 / k) as f32;
        let save_net = |st: &NetState| -> Result<(), CliError> {
            let n = l.network(&st.w, scale).quantize();
            files::save(&self.out, &crate::eval::nnue::file::write(&n))
                .map_err(|e| runtime(format!("cannot write {e}")))
        };
        errln!(
            "start loss {:.6} held-out {:.6}",
            net::loss(&all.train, &st.w, l),
            net::loss(&all.held, &st.w, l)
        );
        let (mut fit_secs, mut fitted) = (0f64, 0usize);
        while st.epoch < cfg.epochs {
            let bar = epoch_bar(st.epoch + 1, cfg.epochs, all.train.len());
            let e0 = Instant::now();
            net::epoch(&all.train, &cfg, &mut st, &mut |done| {
                bar.set_position(done as u64)
            });
            bar.finish_and_clear();
            let secs = e0.elapsed().as_secs_f64();
            fit_secs += secs;
            fitted += all.train.len();
            let (a, b) = (
                net::loss(&all.train, &st.w, l),
                net::loss(&all.held, &st.w, l),
            );
            errln!(
                "epoch {}/{} loss {a:.6} held-out {b:.6} {:.0} positions/s time {:.1}s",
                st.epoch,
                cfg.epochs,
                all.train.len() as f64 / secs.max(1e-9),
                t0.elapsed().as_secs_f64()
            );
            save_net(&st)?;
            files::save(ckpt, &net::checkpoint::write(fp, &st))
                .map_err(|e| runtime(format!("cannot write {e}")))?;
        }
        save_net(&st)?;
        let (a, b) = (
            net::loss(&all.train, &st.w, l),
            net::loss(&all.held, &st.w, l),
        );
        outln!(
            "positions {} K {k:.6} loss {a:.6} held-out {b:.6} positions/s {:.0} time {:.1}s out {}",
            all.len(),
            fitted as f64 / fit_secs.max(1e-9),
            t0.elapsed().as_secs_f64(),
            self.out.display()
        );
        Ok(())
    }
}

/// Read the data files in order into `add` (a file's text and its name; it returns the
/// positions kept so far), with a progress bar on stderr. Returns each file's content hash,
/// in order: a checkpoint continues only the run with the same data.
fn load(
    data: &[PathBuf],
    add: &mut dyn FnMut(&str, &str) -> Result<usize, String>,
) -> Result<Vec<u64>, CliError> {
    let bar = indicatif::ProgressBar::new(data.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "loading [{wide_bar}] {pos}/{len} files, {msg}, ETA {eta}",
        )
        .expect("a valid template"),
    );
    let mut hashes = Vec::with_capacity(data.len());
    for path in data {
        let text = files::read_to_string(path, Kind::TuneData)
            .map_err(|e| input(format!("cannot read {e}")))?;
        hashes.push(learn::data_hash(&text));
        let n = add(&text, &path.display().to_string()).map_err(input)?;
        bar.inc(1);
        bar.set_message(format!("{n} positions"));
    }
    bar.finish_and_clear();
    Ok(hashes)
}

/// The progress bar of one epoch over `positions` positions (both models).
fn epoch_bar(epoch: usize, epochs: usize, positions: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(positions as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "epoch {epoch}/{epochs} [{{wide_bar}}] {{human_pos}}/{{human_len}} positions, {{per_sec}}, ETA {{eta}}"
        ))
        .expect("a valid template"),
    );
    bar
}

/// The data files of `--data`: each file as given, and each directory's `*.txt` files in
/// name order (a shard still being written, `.txt.part`, is not one).
fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| input(format!("cannot read {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "txt") && f.is_file())
                .collect();
            if v.is_empty() {
                return Err(input(format!("{}: no .txt data files", p.display())));
            }
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// `--hidden`: a multiple of 16 from 16 to 512.
fn parse_hidden(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number"))?;
    if n == 0 || !n.is_multiple_of(16) || n > crate::eval::nnue::MAX_HIDDEN {
        return Err(format!(
            "{n}: the width must be a multiple of 16 from 16 to 512"
        ));
    }
    Ok(n)
}

/// Write the weights as they stand to `out`, atomically, as `M`'s weights file.
fn save<M: pattern_model::Model>(out: &Path, st: &State) -> Result<(), CliError> {
    files::save(out, &M::write(&st.w)).map_err(|e| runtime(format!("cannot write {e}")))
}

/// The options of `poolshark label`.
#[derive(clap::Args)]
pub struct LabelArgs {
    /// Data lines to label (`FEN ; White's score ; search score`, as `selfplay` writes
    /// them). May be given more than once; a position met again is labelled once.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Where to write the labelled lines, after a settings line (`# poolshark label nodes N
    /// weights HASH`). If it exists, the run continues it: positions already there are not
    /// searched again (a line cut short by a stop is dropped first). A file that label did
    /// not write, or wrote with other --nodes or --weights, is refused untouched.
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
    pub fn run(self) -> Result<(), CliError> {
        use crate::tune::label::{self, LabelConfig};
        use std::collections::HashSet;
        use std::io::Write;
        let weights = self.weights.load()?;
        files::check_output(&self.out).map_err(|e| input(format!("cannot write {e}")))?;
        // Its own input would be read and appended to at once.
        if let Ok(out) = std::fs::canonicalize(&self.out) {
            for path in &self.data {
                if std::fs::canonicalize(path).is_ok_and(|p| p == out) {
                    return Err(input(format!(
                        "--out {} is also --data: name another file",
                        self.out.display()
                    )));
                }
            }
        }
        let header = label::header(self.nodes, &weights);
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
        let mut items = Vec::new();
        let mut seen = skip.clone();
        for path in &self.data {
            let text = files::read_to_string(path, Kind::TuneData)
                .map_err(|e| input(format!("cannot read {e}")))?;
            items.extend(
                label::parse(&text, &path.display().to_string(), &mut seen).map_err(input)?,
            );
        }
        // The whole --data, repeats dropped, before --limit and --out are applied.
        let total = seen.len();
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
        let cfg = LabelConfig {
            nodes: self.nodes,
            threads: self.threads as usize,
            hash_mb: self.hash as usize,
            weights,
        };
        let start = Instant::now();
        let bar = indicatif::ProgressBar::new(items.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "label [{wide_bar}] {pos}/{len} positions, {per_sec}, ETA {eta}",
            )
            .expect("a valid template"),
        );
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
}
