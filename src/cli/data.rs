//! The data set commands: `data merge` (packed shards into one set, each position once, with
//! the endgame tables' values), `data convert` (text data lines to a packed file and back)
//! and `data info` (what a data file holds).

use super::{input, runtime, CliError};
use poolshark_host::files::{self, Kind};
use poolshark_tune::dataset::{self, Data};
use poolshark_tune::packed;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Subcommand)]
pub enum DataCommand {
    /// Join packed shards (files, or folders whose *.psd files are taken in the order of the
    /// number in their names) into one packed file: shards in order, each position kept the
    /// first time it comes and dropped after (counted), and with --egdb the tables' value on
    /// every position they cover. Shards of the same seed made with other settings, and
    /// one shard given twice, are refused. Prints `records R duplicates D positions P exact
    /// E file F`.
    Merge(MergeArgs),
    /// Text data lines to a packed file, or a packed file to text data lines (the tables'
    /// values, which text has no field for, are left out).
    Convert(ConvertArgs),
    /// What data files hold, one line each: `FILE format F seed S records N with-men M
    /// searched S exact E`.
    Info(InfoArgs),
}

impl DataCommand {
    pub fn run(self) -> Result<(), CliError> {
        match self {
            DataCommand::Merge(a) => a.run(),
            DataCommand::Convert(a) => a.run(),
            DataCommand::Info(a) => a.run(),
        }
    }
}

/// The options of `poolshark data merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Packed shards: files, or folders of `*.psd` files (`shard-7.psd` before
    /// `shard-10.psd`).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The merged file (written whole, or not at all).
    #[arg(long)]
    out: PathBuf,
    /// Endgame tables (made by `egdb build`): each position they cover gets its exact value.
    #[arg(long)]
    egdb: Option<PathBuf>,
}

impl MergeArgs {
    fn run(self) -> Result<(), CliError> {
        files::check_output(&self.out).map_err(|e| input(format!("cannot write {e}")))?;
        let shards = dataset::shard_files(&self.inputs).map_err(input)?;
        files::check_not_input(
            ("--out", &self.out),
            shards.iter().map(|s| ("shard", s.as_path())),
        )
        .map_err(|e| input(e.to_string()))?;
        // One file under two names holds the same games twice.
        for (i, a) in shards.iter().enumerate() {
            if let Some(b) = shards[..i].iter().find(|b| files::same_file(a, b)) {
                return Err(input(format!(
                    "shard {} is given twice (also as {}): name each shard once",
                    a.display(),
                    b.display()
                )));
            }
        }
        let egdb = match &self.egdb {
            None => None,
            Some(dir) => {
                Some(poolshark_host::egdb::open_lazy(dir).map_err(|e| input(e.to_string()))?)
            }
        };
        let start = Instant::now();
        let bar = indicatif::ProgressBar::new(shards.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "merge [{wide_bar}] {pos}/{len} shards, {msg}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        let mut merger = dataset::Merger::default();
        let mut records = 0;
        // Each shard's length and checksum: a copy of one (which may record no settings to
        // tell it by) is one shard given twice.
        let mut sums: Vec<(String, usize, [u8; 8])> = Vec::new();
        for path in &shards {
            let bytes = files::read(path, Kind::PackedData)
                .map_err(|e| input(format!("cannot read {e}")))?;
            let name = path.display().to_string();
            if let Some(sum) = bytes.get(32..40) {
                let sum: [u8; 8] = sum.try_into().expect("8 bytes");
                if let Some((other, _, _)) =
                    sums.iter().find(|(_, n, s)| *n == bytes.len() && *s == sum)
                {
                    return Err(input(format!(
                        "shard {name} holds the same bytes as shard {other}: one shard given \
                         twice; name each shard once"
                    )));
                }
                sums.push((name.clone(), bytes.len(), sum));
            }
            let f = packed::parse(&bytes, &name).map_err(input)?;
            records += f.records.len();
            merger.add(&name, f).map_err(input)?;
            bar.inc(1);
            bar.set_message(format!("{records} records"));
        }
        bar.finish_and_clear();
        let (mut merged, m) = merger.finish().map_err(input)?;
        let exact = match &egdb {
            Some(db) => {
                let n = dataset::label_exact(&mut merged.records, db);
                errln!(
                    "data merge: the tables ({} pieces) cover {n} positions",
                    db.max_pieces()
                );
                n
            }
            None => 0,
        };
        files::save(
            &self.out,
            &packed::write(merged.seed, merged.run.as_ref(), &merged.records),
        )
        .map_err(|e| runtime(format!("cannot write {e}")))?;
        errln!(
            "data merge: {} shards in {:.1}s",
            shards.len(),
            start.elapsed().as_secs_f64()
        );
        outln!(
            "records {} duplicates {} positions {} exact {exact} file {}",
            m.records,
            m.duplicates,
            merged.records.len(),
            self.out.display()
        );
        Ok(())
    }
}

/// The options of `poolshark data convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// A data file: text data lines, or a packed file.
    input: PathBuf,
    /// The converted file: packed from text, text from packed.
    #[arg(long)]
    out: PathBuf,
}

impl ConvertArgs {
    fn run(self) -> Result<(), CliError> {
        files::check_output(&self.out).map_err(|e| input(format!("cannot write {e}")))?;
        files::check_not_input(("--out", &self.out), [("input", self.input.as_path())])
            .map_err(|e| input(e.to_string()))?;
        let (data, _) = dataset::read(&self.input).map_err(input)?;
        let name = self.input.display().to_string();
        let (bytes, n, to) = match data {
            Data::Text(text) => {
                let f = dataset::from_text(&text, &name).map_err(input)?;
                (
                    packed::write(f.seed, None, &f.records),
                    f.records.len(),
                    "packed",
                )
            }
            Data::Packed(f) => (dataset::to_text(&f).into_bytes(), f.records.len(), "text"),
        };
        files::save(&self.out, &bytes).map_err(|e| runtime(format!("cannot write {e}")))?;
        outln!("records {n} format {to} file {}", self.out.display());
        Ok(())
    }
}

/// The options of `poolshark data info`.
#[derive(clap::Args)]
pub struct InfoArgs {
    /// Data files (text or packed).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

impl InfoArgs {
    fn run(self) -> Result<(), CliError> {
        for path in &self.files {
            let (data, _) = dataset::read(path).map_err(input)?;
            let (format, f) = match data {
                Data::Packed(f) => ("packed", f),
                Data::Text(text) => (
                    "text",
                    dataset::from_text(&text, &path.display().to_string()).map_err(input)?,
                ),
            };
            let count =
                |p: &dyn Fn(&packed::Record) -> bool| f.records.iter().filter(|r| p(r)).count();
            outln!(
                "{} format {format} seed {} records {} with-men {} searched {} exact {}",
                path.display(),
                f.seed,
                f.records.len(),
                count(&|r| !r.pos.men().is_empty()),
                count(&|r| r.search.is_some()),
                count(&|r| r.exact.is_some())
            );
        }
        Ok(())
    }
}
