//! Every tunable constant of the search, in one place, and the ply limits that size its
//! per-ply arrays.

use crate::core::rules::MAX_PIECES_PER_SIDE;

// Ply limits. Every cap on the plies from the root, and every array indexed by ply, derives
// from these: a change here resizes them all together.

/// Plies of full-width search from the root (`worker::search`); a node this deep goes to the
/// capture search. The iterations stop short of it (`max_depth`), which leaves a few plies
/// for the single-reply extensions of the deepest iteration.
pub const MAX_SEARCH_PLY: usize = 64;

/// How far the capture search may go past `MAX_SEARCH_PLY`. Every ply of it removes at least
/// one of the at most 2 x 12 pieces (R4), so a run of captures ends within 24 plies anyway;
/// the cap only guards against a mistake, and never cuts a real exchange short.
pub const CAPTURE_SEARCH_PLIES: usize = 32;

/// The deepest node of any search, in plies from the root.
pub const MAX_PLY: usize = MAX_SEARCH_PLY + CAPTURE_SEARCH_PLIES;

/// Entries of a per-ply array (principal variations, killers): one for each ply from 0 to
/// `MAX_PLY` inclusive. Every node, the deepest too, clears its own line, and a parent reads
/// its child's, one ply deeper.
pub const PLY_SLOTS: usize = MAX_PLY + 1;

/// Plies over which a proved win's score counts down from `Score::WIN`. It must exceed
/// `MAX_PLY`, and has room to spare: a transposition-table entry carries its distance from
/// the node where it was stored, so a win met through the table can lie further from the
/// root than any line the search walks.
pub const WIN_DISTANCE_PLIES: usize = 4 * MAX_SEARCH_PLY;

const _: () = assert!(CAPTURE_SEARCH_PLIES > 2 * MAX_PIECES_PER_SIDE as usize);
const _: () = assert!(WIN_DISTANCE_PLIES > MAX_PLY);

/// A value a search parameter can hold, as the tuner sees it: a real number.
pub trait ParamValue: Copy {
    fn to_f64(self) -> f64;
    /// The nearest value of this type (integers round; a flag is on at 0.5 or more).
    fn from_f64(v: f64) -> Self;
}

impl ParamValue for i32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v.round() as i32
    }
}

impl ParamValue for u32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v.round().max(0.0) as u32
    }
}

impl ParamValue for usize {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v.round().max(0.0) as usize
    }
}

impl ParamValue for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Self {
        v
    }
}

impl ParamValue for bool {
    fn to_f64(self) -> f64 {
        if self {
            1.0
        } else {
            0.0
        }
    }
    fn from_f64(v: f64) -> Self {
        v >= 0.5
    }
}

/// One search parameter by name, for the tuner and the command line: its range and the
/// perturbation SPSA starts from.
#[derive(Debug)]
pub struct Tunable {
    pub name: &'static str,
    /// The parameter's doc comment.
    pub doc: &'static str,
    /// The values it may take (a value set by name outside them is refused).
    pub min: f64,
    pub max: f64,
    /// A perturbation of a useful size for SPSA's `c_end`.
    pub step: f64,
    get: fn(&SearchParams) -> f64,
    set: fn(&mut SearchParams, f64),
}

/// Why a search parameter could not be set by name.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    Unknown(String),
    OutOfRange {
        name: &'static str,
        value: f64,
        min: f64,
        max: f64,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(name) => {
                let names: Vec<&str> = SearchParams::TUNABLES.iter().map(|t| t.name).collect();
                write!(
                    f,
                    "no search parameter named '{name}' (there are: {})",
                    names.join(", ")
                )
            }
            ParamError::OutOfRange {
                name,
                value,
                min,
                max,
            } => {
                write!(
                    f,
                    "search parameter {name}: {value} is outside {min}..={max}"
                )
            }
        }
    }
}

impl std::error::Error for ParamError {}

// Declares `SearchParams`, its `Default` and `SearchParams::TUNABLES` from one list, so a
// parameter cannot be added without a default, a range and a name the tuner knows.
macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty = $default:expr,
        range $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// Search tunables. `SearchParams::default()` is what poolshark plays with. Each can
        /// be read and set by name (`get`, `set`), which is how `spsa --search` tunes them.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $( $name: $default, )* }
            }
        }

        impl SearchParams {
            /// Every parameter, in declaration order.
            pub const TUNABLES: &'static [Tunable] = &[ $( Tunable {
                name: stringify!($name),
                doc: concat!($($doc),*),
                min: $min as f64,
                max: $max as f64,
                step: $step as f64,
                get: |p| ParamValue::to_f64(p.$name),
                set: |p, v| p.$name = <$ty as ParamValue>::from_f64(v),
            }, )* ];
        }
    };
}

search_params! {
    /// Deepest iteration the driver starts (plies), below `MAX_SEARCH_PLY`.
    max_depth: u32 = 60, range 1 ..= 60, step 1;
    /// Aspiration windows start at this depth...
    aspiration_min_depth: u32 = 5, range 1 ..= 60, step 1;
    /// ...with this half-width (hundredths of a man), doubled on each failure...
    aspiration_delta: i32 = 25, range 1 ..= 1000, step 5;
    /// ...until it passes this half-width, when the window opens fully.
    aspiration_full_width: i32 = 1000, range 1 ..= 30000, step 100;
    /// Late-move reductions: only at this remaining depth or more...
    lmr_min_depth: i32 = 3, range 1 ..= 60, step 1;
    /// ...for quiet moves after this many have been searched...
    lmr_min_moves: usize = 3, range 1 ..= 60, step 1;
    /// ...by `lmr_base + ln(depth) * ln(moves) / lmr_divisor` plies, rounded down (the
    /// reduction table, `worker::Reductions`)...
    lmr_base: f64 = 0.524, range 0.0 ..= 4.0, step 0.1;
    /// ...(the divisor of that formula)...
    lmr_divisor: f64 = 2.212, range 0.5 ..= 10.0, step 0.2;
    /// ...less this many plies at a principal-variation node.
    lmr_pv_less: i32 = 1, range 0 ..= 4, step 1;
    /// ProbCut: at this remaining depth or more, a search `probcut_reduction` plies
    /// shallower against `beta + probcut_margin` that fails high cuts the node.
    probcut_min_depth: i32 = 5, range 1 ..= 60, step 1;
    /// ProbCut's reduction (plies).
    probcut_reduction: i32 = 3, range 1 ..= 20, step 1;
    /// ProbCut's margin over beta (hundredths of a man).
    probcut_margin: i32 = 80, range 0 ..= 1000, step 10;
    /// Extend by one ply when the side to move has a single legal move.
    single_reply_extension: bool = true, range 0 ..= 1, step 1;
    /// History scores saturate at this magnitude.
    history_max: i32 = 1 << 14, range 1 ..= 1000000, step 1000;
    /// A cut-off's history bonus is depth squared, but at most this.
    history_bonus_max: i32 = 404, range 1 ..= 100000, step 40;
    /// The transposition table's replacement: an entry loses this much depth for each
    /// search it has aged (`tt::TranspositionTable::store`).
    tt_age_weight: i32 = 8, range 0 ..= 255, step 1;
    /// Time management (`time::Budget`): moves assumed still to play when the clock gives
    /// no count...
    moves_to_go_default: u32 = 30, range 1 ..= 100, step 3;
    /// ...the share of the increment planned on for this move...
    time_inc_share: f64 = 0.8, range 0.0 ..= 1.0, step 0.05;
    /// ...the most of the usable time one move may take with one move to go...
    time_last_move_share: f64 = 0.9, range 0.0 ..= 1.0, step 0.05;
    /// ...and with more to go...
    time_max_share: f64 = 0.3, range 0.0 ..= 1.0, step 0.03;
    /// ...the hard limit as a multiple of the planned share...
    time_hard_factor: u32 = 3, range 1 ..= 10, step 1;
    /// ...and the soft limit (no new iteration past it) as a share of the planned time.
    time_soft_share: f64 = 0.6, range 0.0 ..= 1.0, step 0.05;
}

impl SearchParams {
    /// The parameter called `name`.
    pub fn tunable(name: &str) -> Result<&'static Tunable, ParamError> {
        Self::TUNABLES
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| ParamError::Unknown(name.to_string()))
    }

    /// The value of the parameter called `name`, as a real number.
    pub fn get(&self, name: &str) -> Result<f64, ParamError> {
        Ok((Self::tunable(name)?.get)(self))
    }

    /// Set the parameter called `name` to `value` (rounded for an integer, a flag on from
    /// 0.5), refused outside its range.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let t = Self::tunable(name)?;
        if !(t.min..=t.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: t.name,
                value,
                min: t.min,
                max: t.max,
            });
        }
        (t.set)(self, value);
        Ok(())
    }

    /// These parameters with `NAME:VALUE` assignments applied, joined by commas
    /// (`lmr_divisor:2.5,probcut_margin:90`; spaces around each are ignored, and an empty
    /// text changes nothing). A name set twice, an unknown name, a value that is not a number
    /// or one out of range is refused, naming the assignment.
    pub fn with_assignments(&self, text: &str) -> Result<SearchParams, String> {
        let mut out = self.clone();
        let mut seen: Vec<&str> = Vec::new();
        for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((name, value)) = part.split_once(':') else {
                return Err(format!("'{part}' is not NAME:VALUE"));
            };
            let (name, value) = (name.trim(), value.trim());
            let v: f64 = match value {
                "true" => 1.0,
                "false" => 0.0,
                _ => value
                    .parse()
                    .map_err(|_| format!("'{part}': '{value}' is not a number"))?,
            };
            if seen.contains(&name) {
                return Err(format!("'{name}' is set twice"));
            }
            seen.push(name);
            out.set(name, v).map_err(|e| e.to_string())?;
        }
        Ok(out)
    }

    /// One line for each parameter, in declaration order: its name, range, default and
    /// doc comment (`spsa --help` lists them).
    pub fn help_lines() -> Vec<String> {
        let d = SearchParams::default();
        Self::TUNABLES
            .iter()
            .map(|t| {
                format!(
                    "  {} {}..={} (default {}):{}",
                    t.name,
                    t.min,
                    t.max,
                    (t.get)(&d),
                    t.doc
                )
            })
            .collect()
    }

    /// Set the parameter called `name` to `value` clamped to its range (SPSA's perturbed
    /// values).
    pub fn set_clamped(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let t = Self::tunable(name)?;
        (t.set)(self, value.clamp(t.min, t.max));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_reachable_by_name_and_its_default_is_in_range() {
        let p = SearchParams::default();
        let mut names: Vec<&str> = SearchParams::TUNABLES.iter().map(|t| t.name).collect();
        for t in SearchParams::TUNABLES {
            let v = p.get(t.name).unwrap();
            assert!((t.min..=t.max).contains(&v), "{}: {v}", t.name);
            assert!(t.step > 0.0 && !t.doc.trim().is_empty(), "{}", t.name);
            // Setting the default back changes nothing.
            let mut q = p.clone();
            q.set(t.name, v).unwrap();
            assert_eq!(q, p, "{}", t.name);
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SearchParams::TUNABLES.len());
    }

    #[test]
    fn setting_by_name_changes_that_field_only() {
        let mut p = SearchParams::default();
        p.set("lmr_divisor", 3.5).unwrap();
        assert_eq!(p.lmr_divisor, 3.5);
        p.set("probcut_margin", 91.6).unwrap();
        assert_eq!(p.probcut_margin, 92);
        p.set("time_hard_factor", 5.0).unwrap();
        assert_eq!(p.time_hard_factor, 5);
        p.set("single_reply_extension", 0.0).unwrap();
        assert!(!p.single_reply_extension);
        let want = SearchParams {
            lmr_divisor: 3.5,
            probcut_margin: 92,
            time_hard_factor: 5,
            single_reply_extension: false,
            ..SearchParams::default()
        };
        assert_eq!(p, want);
    }

    #[test]
    fn assignments_set_by_name_and_refuse_mistakes() {
        let d = SearchParams::default();
        let p = d
            .with_assignments(" lmr_divisor:3.5, single_reply_extension:false,probcut_margin:91.6 ")
            .unwrap();
        let want = SearchParams {
            lmr_divisor: 3.5,
            single_reply_extension: false,
            probcut_margin: 92,
            ..SearchParams::default()
        };
        assert_eq!(p, want);
        assert_eq!(d.with_assignments("").unwrap(), d);
        for bad in [
            "lmr_divisor",
            "lmr_divisor:x",
            "nope:1",
            "time_max_share:2",
            "lmr_divisor:2,lmr_divisor:3",
            "lmr_divisor=2",
        ] {
            let e = d.with_assignments(bad).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        assert!(d
            .with_assignments("nope:1")
            .unwrap_err()
            .contains("lmr_divisor"));
    }

    #[test]
    fn an_unknown_name_or_a_value_out_of_range_is_refused() {
        let mut p = SearchParams::default();
        let e = p.set("lmr_divsor", 2.0).unwrap_err();
        assert_eq!(e, ParamError::Unknown("lmr_divsor".into()));
        assert!(e.to_string().contains("lmr_divisor"), "{e}");
        assert!(p.get("nope").is_err());
        let e = p.set("time_max_share", 1.5).unwrap_err();
        assert!(matches!(e, ParamError::OutOfRange { .. }), "{e}");
        assert!(p.set("lmr_divisor", f64::NAN).is_err());
        assert_eq!(p, SearchParams::default());
        p.set_clamped("time_max_share", 1.5).unwrap();
        assert_eq!(p.time_max_share, 1.0);
    }
}
