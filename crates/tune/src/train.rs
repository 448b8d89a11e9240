//! The training run behind `poolshark learn`: read the data files, fit the network
//! (`tune::net`), write the network file and the checkpoint after every epoch, and continue
//! a checkpoint of the same settings. The command line (`cli::learn`) only parses the
//! options and shows the progress this reports (`Progress`).
//!
//! A checkpoint keeps the run's settings as text (`settings`): a run with other settings is
//! refused with each setting that differs named, both values given. `--epochs` is not one of
//! them: a larger `--epochs` continues the run (the learning rate's fall is stretched over the
//! new count from the next epoch on), and one no larger than the epochs done only writes the
//! network again.

use crate::dataset::{self, Data};
use crate::net::{self, NetConfig, NetData, NetState};
use poolshark_engine::eval::nnue::{self, FloatNetwork};
use poolshark_host::files::{self, Kind};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `learn` is asked to do.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// Data files and directories (a directory's `*.txt` files, in name order).
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub checkpoint: PathBuf,
    /// A network file to start from (its width is the run's).
    pub start: Option<PathBuf>,
    /// The hidden width (default: 128, or `start`'s).
    pub hidden: Option<usize>,
    pub epochs: usize,
    pub learning_rate: f64,
    pub batch: usize,
    pub lambda: f64,
    /// `K` as given; None fits it to the hand evaluation on the data.
    pub k: Option<f64>,
    pub seed: u64,
}

/// What a run reports as it goes; the command line shows it.
pub trait Progress {
    /// `files` of `total` data files read, `positions` kept so far.
    fn loading(&mut self, files: usize, total: usize, positions: usize);
    /// Within epoch `epoch` (from 1) of `epochs`: `done` of `total` positions.
    fn epoch(&mut self, epoch: usize, epochs: usize, done: usize, total: usize);
    /// A line for the log (stderr).
    fn note(&mut self, line: &str);
}

/// Why a run stopped: its input (options, data, checkpoint), or a file it could not write.
#[derive(Debug, PartialEq)]
pub enum LearnError {
    Input(String),
    Write(String),
}

/// The end of a run.
#[derive(Debug)]
pub struct Summary {
    pub positions: usize,
    pub k: f64,
    pub loss: f64,
    pub held_out: f64,
    pub positions_per_sec: f64,
    pub secs: f64,
}

/// The data files of `paths`: each file as given, and each directory's `*.txt` and packed
/// `*.psd` files in name order (a shard still being written, `.txt.part`, is not one).
pub fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.extension()
                        .is_some_and(|x| x == "txt" || x == dataset::EXTENSION)
                        && f.is_file()
                })
                .collect();
            if v.is_empty() {
                return Err(format!("{}: no .txt or .psd data files", p.display()));
            }
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The settings a checkpoint is known by, one `name value` line each: everything the fit
/// depends on but `--epochs` (and the thread count, which changes nothing). The data by its
/// content; `K` as given (a fitted K is the data's, and its last bits would hang on how the
/// sums were split); the start file by its content.
pub fn settings(cfg: &NetConfig, o: &LearnOptions, data: u64, start: Option<u64>) -> String {
    let k = o.k.map_or("fitted".to_string(), |k| k.to_string());
    let start = start.map_or("none".to_string(), |h| format!("{h:016x}"));
    format!(
        "--hidden {}\n--learning-rate {}\n--batch {}\n--seed {}\n--lambda {}\n--k {k}\n--start {start}\n--data {data:016x}\n",
        cfg.hidden, cfg.learning_rate, cfg.batch, cfg.seed, o.lambda
    )
}

/// Run `learn`: load, fit, write `o.out` and the checkpoint after every epoch.
pub fn run(o: &LearnOptions, p: &mut dyn Progress) -> Result<Summary, LearnError> {
    let input = LearnError::Input;
    let write = |e: String| LearnError::Write(format!("cannot write {e}"));
    files::check_output(&o.out).map_err(|e| input(format!("cannot write {e}")))?;
    files::check_output(&o.checkpoint).map_err(|e| input(format!("cannot write {e}")))?;
    let data = data_files(&o.data).map_err(input)?;
    // Both outputs are written after every epoch: neither may be a file the run reads, and
    // the checkpoint must not be the network either.
    let mut inputs: Vec<(&'static str, &std::path::Path)> =
        data.iter().map(|p| ("--data", p.as_path())).collect();
    inputs.extend(o.start.as_deref().map(|p| ("--start", p)));
    files::check_not_input(("--out", &o.out), inputs.iter().copied())
        .map_err(|e| input(e.to_string()))?;
    files::check_not_input(("--checkpoint", &o.checkpoint), inputs)
        .map_err(|e| input(e.to_string()))?;
    if files::same_output(&o.out, &o.checkpoint) {
        return Err(input(format!(
            "--checkpoint {} is --out {}: the network and the checkpoint are written to \
             separate files; name another",
            o.checkpoint.display(),
            o.out.display()
        )));
    }
    let start: Option<(FloatNetwork, u64)> = match &o.start {
        None => None,
        Some(path) => {
            let bytes =
                files::read(path, Kind::Weights).map_err(|e| input(format!("cannot read {e}")))?;
            let n = nnue::network_file::parse(&bytes)
                .map_err(|e| input(format!("--start {}: {e}", path.display())))?;
            Some((n.to_float(), poolshark_engine::checksum::fnv1a(&bytes)))
        }
    };
    let hidden = match (&start, o.hidden) {
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
    let mut hashes = Vec::with_capacity(data.len());
    for (i, path) in data.iter().enumerate() {
        let (contents, hash) = dataset::read(path).map_err(input)?;
        hashes.extend(hash.to_le_bytes());
        match contents {
            Data::Text(text) => all.add_text(&text, &path.display().to_string()),
            Data::Packed(f) => all.add_packed(&f),
        }
        .map_err(input)?;
        p.loading(i + 1, data.len(), all.len());
    }
    all.seal();
    if all.train.len() < 100 || all.held.is_empty() {
        return Err(input("too few positions in --data".into()));
    }
    let k = o.k.unwrap_or_else(|| all.fit_k());
    all.blend(o.lambda, k);
    p.note(&format!(
        "positions {} (held out {}, duplicates dropped {}, king endings dropped {}) K {k:.6} loaded in {:.1}s",
        all.len(),
        all.held.len(),
        all.duplicates,
        all.kings_only,
        t0.elapsed().as_secs_f64()
    ));
    let cfg = NetConfig {
        hidden,
        epochs: o.epochs,
        learning_rate: o.learning_rate,
        batch: o.batch,
        seed: o.seed,
    };
    let fixed = settings(
        &cfg,
        o,
        poolshark_engine::checksum::fnv1a(&hashes),
        start.as_ref().map(|s| s.1),
    );
    let mut st = resume(&o.checkpoint, &fixed, p)?.unwrap_or_else(|| match &start {
        Some((f, _)) => net::start_from(f),
        None => net::start(&cfg),
    });
    let l = net::Layout { hidden };
    let scale = (1.0 / k) as f32;
    let save = |st: &NetState| -> Result<(), LearnError> {
        let n = l.network(&st.w, scale).quantize();
        files::save(&o.out, &nnue::network_file::write(&n)).map_err(|e| write(e.to_string()))
    };
    p.note(&format!(
        "start loss {:.6} held-out {:.6}",
        net::loss(&all.train, &st.w, l),
        net::loss(&all.held, &st.w, l)
    ));
    if st.epoch >= cfg.epochs && st.epoch > 0 {
        p.note(&format!(
            "the checkpoint has {} epochs done, --epochs {}: nothing to fit",
            st.epoch, cfg.epochs
        ));
    }
    let (mut fit_secs, mut fitted) = (0f64, 0usize);
    while st.epoch < cfg.epochs {
        let e0 = Instant::now();
        let (epoch, total) = (st.epoch + 1, all.train.len());
        net::epoch(&all.train, &cfg, &mut st, &mut |done| {
            p.epoch(epoch, cfg.epochs, done, total)
        });
        let secs = e0.elapsed().as_secs_f64();
        fit_secs += secs;
        fitted += total;
        p.note(&format!(
            "epoch {}/{} loss {:.6} held-out {:.6} {:.0} positions/s time {:.1}s",
            st.epoch,
            cfg.epochs,
            net::loss(&all.train, &st.w, l),
            net::loss(&all.held, &st.w, l),
            total as f64 / secs.max(1e-9),
            t0.elapsed().as_secs_f64()
        ));
        save(&st)?;
        files::save(&o.checkpoint, &net::checkpoint::write(&fixed, &st))
            .map_err(|e| write(e.to_string()))?;
    }
    save(&st)?;
    Ok(Summary {
        positions: all.len(),
        k,
        loss: net::loss(&all.train, &st.w, l),
        held_out: net::loss(&all.held, &st.w, l),
        positions_per_sec: fitted as f64 / fit_secs.max(1e-9),
        secs: t0.elapsed().as_secs_f64(),
    })
}

/// The state of the checkpoint at `path` if there is one and it is this run's (`settings`);
/// None where there is none.
fn resume(
    path: &Path,
    settings: &str,
    p: &mut dyn Progress,
) -> Result<Option<NetState>, LearnError> {
    match files::read(path, Kind::Checkpoint) {
        Ok(b) => {
            let st = net::checkpoint::parse(&b, settings)
                .map_err(|e| LearnError::Input(format!("checkpoint {}: {e}", path.display())))?;
            p.note(&format!(
                "resuming from {} after epoch {}",
                path.display(),
                st.epoch
            ));
            Ok(Some(st))
        }
        Err(_) if !path.exists() => Ok(None),
        Err(e) => Err(LearnError::Input(format!("cannot read {e}"))),
    }
}
