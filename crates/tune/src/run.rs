//! The bookkeeping around a tuning run, shared by the `tune` and `spsa` commands: the weights
//! held by `--fix`, the held-out split, and the weights file itself, headed by the command
//! line that made it (its provenance) and saved whole.

use crate::data::Samples;
use poolshark_engine::eval::weights::{self, Weights};
use poolshark_engine::eval::weights_file;
use poolshark_host::files::{self, FileError};
use std::fmt::Display;
use std::path::Path;

/// One position in this many is held out of the fit, to see whether the fit generalises.
pub const HELD_OUT_EVERY: usize = 10;

/// Split `all` into the positions to fit (`.0`) and the held-out ones (`.1`), about one in
/// `HELD_OUT_EVERY`: whole games where the lines name their games, else every
/// `HELD_OUT_EVERY`-th line (`dataline::held_out`). The split is fixed, so a held-out loss
/// can be compared between runs on the same data.
pub fn hold_out(all: &Samples) -> (Samples, Samples) {
    let (mut train, mut held) = (Samples::new(), Samples::new());
    for i in 0..all.len() {
        let s = if crate::dataline::held_out(all.games[i], i, HELD_OUT_EVERY) {
            &mut held
        } else {
            &mut train
        };
        s.push_from(all, i);
    }
    (train, held)
}

/// Mark the comma-separated weight names in `list` (`--fix bridge,stuck_man`) as held in
/// `fixed`, one flag per value of `Weights::to_vec()`. An unknown name is an error.
pub fn hold_fields(fixed: &mut [bool], list: &str) -> Result<(), String> {
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let r =
            weights::field_range(name).ok_or_else(|| format!("--fix: no weight named '{name}'"))?;
        fixed[r].iter_mut().for_each(|f| *f = true);
    }
    Ok(())
}

/// The command line a weights file records, so that the file says how to make it again:
/// `poolshark tune --data D --epochs 30 ...`. Options left at "none" are left out.
#[derive(Clone, Debug)]
pub struct CommandLine(String);

impl CommandLine {
    /// A command line with no options yet, e.g. `CommandLine::new("poolshark spsa")`.
    pub fn new(program: &str) -> CommandLine {
        CommandLine(program.to_string())
    }

    /// Append ` NAME VALUE`.
    pub fn arg(mut self, name: &str, value: impl Display) -> CommandLine {
        self.0.push_str(&format!(" {name} {value}"));
        self
    }

    /// Append ` NAME VALUE` when there is a value (`--start` when not the built-in weights).
    pub fn opt(self, name: &str, value: Option<impl Display>) -> CommandLine {
        match value {
            Some(v) => self.arg(name, v),
            None => self,
        }
    }

    /// Append ` NAME LIST` unless the list is empty (`--fix`).
    pub fn list(self, name: &str, list: &str) -> CommandLine {
        self.opt(name, Some(list).filter(|l| !l.is_empty()))
    }

    /// The weights file's comment: "Tuned by `COMMAND`" and a line of notes (how far the run
    /// got, its losses or its time).
    pub fn header(&self, note: &str) -> String {
        format!("Tuned by `{}`\n{note}", self.0)
    }
}

impl Display for CommandLine {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Write `weights` to `path` in the weights file format with `comment` at the top (see
/// `CommandLine::header`), atomically (`files::save`): `path` is never half written, even
/// when a long run is stopped while saving, and a `path` that is not a regular file is
/// refused.
pub fn save_weights(path: &Path, weights: &Weights, comment: &str) -> Result<(), FileError> {
    files::save(path, weights_file::write(weights, comment).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::Position;

    #[test]
    fn every_tenth_position_is_held_out() {
        let w = Weights::default();
        let mut all = Samples::new();
        for i in 0..25 {
            all.push(&Position::start(), i as f32 / 25.0, None, &w);
        }
        let (train, held) = hold_out(&all);
        assert_eq!((train.len(), held.len()), (23, 2));
        assert_eq!(held.results, vec![9.0 / 25.0, 19.0 / 25.0]);
        assert!(!train.results.contains(&(9.0 / 25.0)));
        assert_eq!(train.row(0), all.row(0));
    }

    #[test]
    fn fix_names_hold_their_values_and_unknown_names_are_errors() {
        let mut fixed = vec![false; weights::len()];
        hold_fields(&mut fixed, " bridge, ,stuck_man").unwrap();
        let held: usize = fixed.iter().filter(|&&f| f).count();
        let expected = weights::field_range("bridge").unwrap().len()
            + weights::field_range("stuck_man").unwrap().len();
        assert_eq!(held, expected);
        assert_eq!(
            hold_fields(&mut fixed, "queen").unwrap_err(),
            "--fix: no weight named 'queen'"
        );
        hold_fields(&mut fixed, "").unwrap();
    }

    #[test]
    fn the_header_records_the_command_line() {
        let none: Option<&str> = None;
        let cmd = CommandLine::new("poolshark spsa")
            .arg("--pairs", 4)
            .opt("--start", none)
            .opt("--seed", Some(7))
            .list("--fix", "")
            .list("--fix2", "a,b");
        assert_eq!(
            cmd.header("after 2 of 4 pairs"),
            "Tuned by `poolshark spsa --pairs 4 --seed 7 --fix2 a,b`\nafter 2 of 4 pairs"
        );
    }

    #[test]
    fn saving_replaces_the_file_whole_and_it_loads_back() {
        let dir = std::env::temp_dir().join(format!("poolshark-tune-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.txt");
        std::fs::write(&path, "old contents").unwrap();
        let w = Weights::handset();
        save_weights(&path, &w, "Tuned by `test`\nnote").unwrap();
        assert_eq!(poolshark_host::weights::load(&path).unwrap(), w);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# Tuned by `test`\n# note\n"), "{text}");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["w.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
