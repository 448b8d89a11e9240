//! The tuning commands: `tune` (Texel's fit to self-play data) and `spsa` (by games).

use super::args::{
    load_weights, parse_non_negative, parse_positive, parse_seconds, parse_unit_interval,
};
use super::{input, runtime, CliError};
use poolshark_engine::core::Position;
use poolshark_engine::eval::Weights;
use poolshark_engine::search::params::SearchParams;
use poolshark_tune as tune;
use std::path::PathBuf;
use std::time::Instant;

/// `spsa` saves its weights this many times over a run, so a stopped run leaves its latest.
const SAVES_PER_RUN: usize = 20;

/// The options of `poolshark tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// `FEN ; White's score ; search score` lines, as `selfplay` writes them (the search
    /// score may be left out).
    #[arg(long)]
    data: PathBuf,
    /// Where to write the tuned weights. Required, so that a run never replaces the
    /// built-in tuning/weights.txt by accident.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Threads for the gradient (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Starting weights (default: the built-in ones).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Adam's step size (hundredths of a man) at the first epoch; it falls to a tenth.
    #[arg(long, default_value_t = 2.0, value_parser = parse_positive)]
    learning_rate: f64,
    /// Fields kept at their starting values, comma separated (man and advance always
    /// are: they set the unit). E.g. `bridge,stuck_man` to measure what those add.
    #[arg(long, default_value = "")]
    fix: String,
    /// Pull toward the starting weights: l2 * (w - start)^2 added to the loss per weight.
    #[arg(long, default_value_t = 0.0, value_parser = parse_non_negative)]
    l2: f64,
    /// Fit K again every this many epochs (0: keep the first fit).
    #[arg(long, default_value_t = 5)]
    refit_k: usize,
    /// Aim at LAMBDA * result + (1 - LAMBDA) * sigmoid(K * search score) where a line has
    /// a search score (1: the game results only). K is the one fitted to the results.
    #[arg(long, default_value_t = 1.0, value_parser = parse_unit_interval)]
    lambda: f64,
}

/// Where a fit ended: its K and its loss on the fitted and the held-out positions.
struct Fit {
    k: f64,
    loss: f64,
    held_out: f64,
}

/// The options of `poolshark spsa`.
#[derive(clap::Args)]
pub struct SpsaArgs {
    /// Game pairs to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pairs: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Starting weights (default: the built-in ones).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Where to write the tuned weights.
    #[arg(long)]
    out: PathBuf,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    concurrency: u16,
    /// Pairs played against the same weights before updating them.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=4096))]
    batch: u16,
    /// Seed for the perturbations and the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies after each built-in opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Weights held besides man and lone_king_off_diagonal, comma separated, or `all`.
    #[arg(long, default_value = "")]
    fix: String,
    /// a_end / c_end^2: the step at the end relative to the perturbation.
    #[arg(long, default_value_t = 0.002, value_parser = parse_unit_interval)]
    r_end: f64,
    /// The perturbation at the end, as a fraction of each starting value...
    #[arg(long, default_value_t = 0.1, value_parser = parse_unit_interval)]
    c_frac: f64,
    /// ...but at least this many hundredths of a man.
    #[arg(long, default_value_t = 4.0, value_parser = parse_seconds)]
    c_min: f64,
    /// Search parameters to tune as well, comma separated, by their names in
    /// crates/engine/src/search/params.rs (e.g. lmr_divisor,probcut_margin), each perturbed at the end by
    /// its step there. With `--fix all`, only these are tuned.
    #[arg(long, default_value = "")]
    search: String,
    /// Play the games with the built-in network (tuning/network.bin), as the engine plays,
    /// instead of the hand evaluation alone; the hand terms then score only king endings.
    /// For tuning the search: `--network --fix all --search NAMES`.
    #[arg(long)]
    network: bool,
}

impl TuneArgs {
    /// Fits the weights, printing the losses per epoch on stderr, writes `--out` and a
    /// summary line.
    pub fn run(self) -> Result<(), CliError> {
        let start = load_hand_weights(self.start.as_deref())?;
        if let Some(t) = self.threads {
            // Only fails when a pool already exists, which it cannot here.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(t as usize)
                .build_global();
        }
        let cfg = self.config()?;
        // Before the fit, which may take hours, rather than at the save after it.
        poolshark_host::files::check_output(&self.out)
            .map_err(|e| input(format!("cannot write {e}")))?;
        let inputs = [("--data", self.data.as_path())];
        let start_path = self.start.as_deref().map(|p| ("--start", p));
        poolshark_host::files::check_not_input(
            ("--out", &self.out),
            inputs.into_iter().chain(start_path),
        )
        .map_err(|e| input(e.to_string()))?;
        let t0 = Instant::now();
        let all = self.load_data(&start)?;
        let (tuned, fit) = self.fit(&all, &start, &cfg, t0);
        let secs = t0.elapsed().as_secs_f64();
        let note = format!(
            "on {} positions: K {:.6}, loss {:.6}, held-out {:.6}, {secs:.0} s.",
            all.len(),
            fit.k,
            fit.loss,
            fit.held_out
        );
        let out = &self.out;
        tune::save_weights(out, &tuned, &self.command_line().header(&note))
            .map_err(|e| input(format!("cannot write {e}")))?;
        outln!(
            "positions {} K {:.6} loss {:.6} held-out {:.6} time {secs:.1}s out {}",
            all.len(),
            fit.k,
            fit.loss,
            fit.held_out,
            out.display()
        );
        Ok(())
    }

    /// Hold out a tenth of `all`, fit K and then the weights to the rest, printing the losses
    /// on stderr as the fit goes.
    fn fit(
        &self,
        all: &tune::Samples,
        start: &Weights,
        cfg: &tune::TuneConfig,
        t0: Instant,
    ) -> (Weights, Fit) {
        let (mut train, mut held) = tune::hold_out(all);
        let w0: Vec<f32> = start.to_vec().iter().map(|&x| x as f32).collect();
        errln!(
            "positions {} (held out {}) features {} loaded in {:.1}s",
            all.len(),
            held.len(),
            all.width,
            t0.elapsed().as_secs_f64()
        );
        // K is fitted to the game results; the search scores are then scaled by the same K.
        let k = tune::fit_k(&train, &w0);
        let searched = all.search.iter().filter(|s| !s.is_nan()).count();
        train.blend(self.lambda, k);
        held.blend(self.lambda, k);
        errln!(
            "K {k:.6} lambda {} (search scores on {searched} positions) loss {:.6} held-out {:.6}",
            self.lambda,
            tune::loss(&train, &w0, k),
            tune::loss(&held, &w0, k)
        );
        let (tuned, k) = tune::tune(&train, start, k, cfg, &mut |epoch, w, k| {
            errln!(
                "epoch {epoch}/{} K {k:.6} loss {:.6} held-out {:.6} time {:.1}s",
                cfg.epochs,
                tune::loss(&train, w, k),
                tune::loss(&held, w, k),
                t0.elapsed().as_secs_f64()
            );
        });
        let wt: Vec<f32> = tuned.to_vec().iter().map(|&x| x as f32).collect();
        let (loss, held_out) = (tune::loss(&train, &wt, k), tune::loss(&held, &wt, k));
        (tuned, Fit { k, loss, held_out })
    }

    /// The fit's settings from the options.
    fn config(&self) -> Result<tune::TuneConfig, CliError> {
        let mut cfg = tune::TuneConfig {
            epochs: self.epochs as usize,
            learning_rate: self.learning_rate,
            l2: self.l2,
            refit_k: self.refit_k,
            ..tune::TuneConfig::default()
        };
        tune::hold_fields(&mut cfg.fixed, &self.fix).map_err(input)?;
        Ok(cfg)
    }

    /// The positions of `--data` as feature vectors under the starting weights.
    fn load_data(&self, start: &Weights) -> Result<tune::Samples, CliError> {
        let data = &self.data;
        let all = tune::read(data, start).map_err(input)?;
        if all.len() < tune::run::HELD_OUT_EVERY {
            return Err(input(format!("{}: too few positions", data.display())));
        }
        Ok(all)
    }

    /// This run's command line, for the weights file's header.
    fn command_line(&self) -> tune::CommandLine {
        tune::CommandLine::new("poolshark tune")
            .arg("--data", self.data.display())
            .opt("--start", self.start.as_ref().map(|p| p.display()))
            .arg("--epochs", self.epochs)
            .arg("--learning-rate", self.learning_rate)
            .arg("--l2", self.l2)
            .arg("--refit-k", self.refit_k)
            .arg("--lambda", self.lambda)
            .list("--fix", &self.fix)
    }
}

impl SpsaArgs {
    /// Plays the pairs, printing progress on stderr and saving `--out` every 5% of the run,
    /// then a summary line.
    pub fn run(self) -> Result<(), CliError> {
        if let Some(start) = &self.start {
            poolshark_host::files::check_not_input(
                ("--out", &self.out),
                [("--start", start.as_path())],
            )
            .map_err(|e| input(e.to_string()))?;
        }
        let start = load_hand_weights(self.start.as_deref())?;
        let cfg = self.config(&start)?;
        let out = &self.out;
        let t0 = Instant::now();
        let command = self.command_line();
        // The tuned search parameters go in the header, in the form `--search-params` reads,
        // so the file holds the whole result even when the run stops early.
        let save = |w: &Weights, search: &SearchParams, note: &str| {
            let note = format!("{note}{}", search_params_line(&cfg, search));
            tune::save_weights(out, w, &command.header(&note))
        };
        save(&start, &cfg.search_start, "(not started)")
            .map_err(|e| input(format!("cannot write {e}")))?;
        let mut openings = poolshark_engine::openings::builtin();
        if openings.is_empty() {
            openings.push(Position::start());
        }
        let mut save_error = None;
        let (tuned, search) = tune::spsa::run(
            &start,
            &cfg,
            &openings,
            &mut progress(&cfg, t0, |w, search, note| {
                if let Err(e) = save(w, search, note) {
                    save_error.get_or_insert(e);
                }
            }),
        );
        let secs = t0.elapsed().as_secs_f64();
        let note = format!("{} pairs at {} nodes in {secs:.0} s.", cfg.pairs, cfg.nodes);
        save_error
            .map_or_else(|| save(&tuned, &search, &note), Err)
            .map_err(|e| runtime(format!("cannot write {e}")))?;
        outln!(
            "pairs {} time {:.1}s out {}{}",
            cfg.pairs,
            t0.elapsed().as_secs_f64(),
            out.display(),
            search_values(&cfg, &search)
        );
        Ok(())
    }

    /// SPSA's settings from the options and the starting weights.
    fn config(&self, start: &Weights) -> Result<tune::SpsaConfig, CliError> {
        let mut cfg = tune::SpsaConfig::new(start, self.pairs as usize, self.nodes);
        cfg.concurrency = self.concurrency as usize;
        cfg.batch = self.batch as usize;
        cfg.seed = self.seed;
        cfg.random_plies = self.random_plies;
        cfg.r_end = self.r_end;
        cfg.c_end = tune::spsa::perturbations(start, self.c_frac, self.c_min);
        if self.network {
            cfg.evaluation = Weights::builtin().evaluation;
        }
        if self.fix.trim() == "all" {
            cfg.fixed.iter_mut().for_each(|f| *f = true);
        } else {
            tune::hold_fields(&mut cfg.fixed, &self.fix).map_err(input)?;
        }
        for name in self
            .search
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let t = tune::SearchTune::named(name).map_err(|e| input(format!("--search: {e}")))?;
            if cfg.search.iter().any(|s| s.param.name == t.param.name) {
                return Err(input(format!("--search: {name} named twice")));
            }
            cfg.search.push(t);
        }
        Ok(cfg)
    }

    /// This run's command line, for the weights file's header.
    fn command_line(&self) -> tune::CommandLine {
        tune::CommandLine::new("poolshark spsa")
            .arg("--pairs", self.pairs)
            .arg("--nodes", self.nodes)
            .opt("--start", self.start.as_ref().map(|p| p.display()))
            .arg("--batch", self.batch)
            .arg("--seed", self.seed)
            .arg("--random-plies", self.random_plies)
            .arg("--r-end", self.r_end)
            .arg("--c-frac", self.c_frac)
            .arg("--c-min", self.c_min)
            .list("--fix", &self.fix)
            .list("--search", &self.search)
            .opt("--network", self.network.then_some(""))
    }
}

/// The tuned search parameters as `name{assign}value` joined by `sep`, or `None` when the run
/// tunes none.
fn tuned_search(
    cfg: &tune::SpsaConfig,
    p: &SearchParams,
    assign: &str,
    sep: &str,
) -> Option<String> {
    let values: Vec<String> = cfg
        .search
        .iter()
        .map(|t| {
            let v = p.get(t.param.name).unwrap_or(f64::NAN);
            format!("{}{assign}{v}", t.param.name)
        })
        .collect();
    (!values.is_empty()).then(|| values.join(sep))
}

/// `\nsearch-params name:value,...` for the tuned search parameters (what `--search-params`
/// and the Hub's `search-params` option read), or nothing.
fn search_params_line(cfg: &tune::SpsaConfig, p: &SearchParams) -> String {
    tuned_search(cfg, p, ":", ",").map_or_else(String::new, |v| format!("\nsearch-params {v}"))
}

/// ` search name=value ...` for the tuned search parameters, or nothing.
fn search_values(cfg: &tune::SpsaConfig, p: &SearchParams) -> String {
    tuned_search(cfg, p, "=", " ").map_or_else(String::new, |v| format!(" search {v}"))
}

/// SPSA's progress callback: every `SAVES_PER_RUN`-th of the run and at its end, print the
/// weights on stderr and hand them and the search parameters to `save` with a note of how
/// far the run got.
fn progress<'a>(
    cfg: &'a tune::SpsaConfig,
    t0: Instant,
    mut save: impl FnMut(&Weights, &SearchParams, &str) + 'a,
) -> impl FnMut(&tune::SpsaProgress) + 'a {
    let every = (cfg.pairs / SAVES_PER_RUN).max(1);
    let mut last_saved = 0;
    move |p| {
        if p.pairs_done / every > last_saved / every || p.pairs_done == cfg.pairs {
            last_saved = p.pairs_done;
            let w: Vec<i32> = p.theta.iter().map(|x| x.round() as i32).collect();
            let list: Vec<String> = w.iter().map(|v| v.to_string()).collect();
            errln!(
                "pairs {}/{} plus-score {:.1}% time {:.1}s weights {}{}",
                p.pairs_done,
                cfg.pairs,
                100.0 * p.plus_points / p.games.max(1) as f64,
                t0.elapsed().as_secs_f64(),
                list.join(" "),
                search_values(cfg, p.search)
            );
            let note = format!("after {} of {} pairs", p.pairs_done, cfg.pairs);
            save(&Weights::from_vec(&w), p.search, &note);
        }
    }
}

/// The starting weights of `tune` and `spsa`: the hand evaluation's (the built-in
/// `tuning/weights.txt` unless `--start` names a text weights file). Both tune the hand terms,
/// so a network file is refused.
fn load_hand_weights(path: Option<&std::path::Path>) -> Result<Weights, CliError> {
    let Some(p) = path else {
        return Ok(Weights::default());
    };
    let w = load_weights(Some(p))?;
    if w.evaluation != poolshark_engine::eval::Evaluation::Hand {
        return Err(input(format!(
            "--start {}: a network file; tune and spsa tune the hand evaluation's weights (a text file such as tuning/weights.txt)",
            p.display()
        )));
    }
    Ok(w)
}
