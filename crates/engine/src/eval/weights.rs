//! `Weights`: every number the evaluation uses, in hundredths of a man, each term declared
//! once in `terms!` below with its hand-set value, its range and its meaning.
//!
//! The hand evaluation's weights are data: `tuning/weights.txt`, embedded at build time
//! and read by `Weights::default()`. The engine plays with `Weights::builtin()`: those plus
//! the learned network of `tuning/network.bin` (`eval::nnue`), also embedded: which of the
//! two scores the positions with men is `Evaluation`, one choice.
//! `Weights::handset()` keeps the original hand-set values (also in `tuning/handset.txt`)
//! so that a match can compare the two. `TERMS` lists every
//! term in file and vector order; the file format (`eval::weights_file`), the evaluation's sinks
//! (`eval::Sink`) and the tuners (`tune`) all walk it or index the vector through `AT`.
//!
//! Each term has a range, checked when a file is read and kept by the tuners: wide enough
//! to tune in, narrow enough that no term can swamp the material by orders of magnitude or
//! overflow the sums. The evaluation is also clamped (`eval::EVAL_LIMIT`), so even the worst
//! weights in range stay far from the scores of proved wins.

use crate::eval::nnue::{self, Network};
use crate::eval::weights_file::{self, WeightsError};
use std::ops::{Range, RangeInclusive};
use std::sync::Arc;
use std::sync::OnceLock;

/// One term of the evaluation: its name (in files, `--fix` lists and `field_range`), how
/// many values it holds, the range each value must lie in, and its meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub len: usize,
    pub range: RangeInclusive<i32>,
    pub doc: &'static str,
}

/// The shapes a term's values take: one number or a table.
pub trait Values: Sized {
    const LEN: usize;
    fn as_slice(&self) -> &[i32];
    /// From exactly `LEN` values.
    fn from_slice(v: &[i32]) -> Self;
}

impl Values for i32 {
    const LEN: usize = 1;
    #[inline(always)]
    fn as_slice(&self) -> &[i32] {
        std::slice::from_ref(self)
    }
    fn from_slice(v: &[i32]) -> Self {
        v[0]
    }
}

impl<const N: usize> Values for [i32; N] {
    const LEN: usize = N;
    #[inline(always)]
    fn as_slice(&self) -> &[i32] {
        self
    }
    fn from_slice(v: &[i32]) -> Self {
        v.try_into().expect("a table of the declared length")
    }
}

/// The one choice of evaluation for the positions with men on the board; king endings go
/// to the hand terms whatever it is (`eval::choose`).
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluation {
    /// The hand terms everywhere (`--weights tuning/weights.txt`, what `tune` and `spsa`
    /// tune).
    Hand,
    /// The learned network (`eval::nnue`): the built-in evaluation.
    Network(Arc<Network>),
}

/// Declares the terms: the `Weights` struct, `Offsets` and `AT` (where each term starts in
/// the vector), `TERMS`, `LEN`, `Weights::handset`, and the vector conversions.
macro_rules! terms {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty = $handset:expr, range $lo:literal..=$hi:literal;
    )*) => {
        #[derive(Clone, Debug, PartialEq)]
        pub struct Weights {
            $( $(#[doc = $doc])* pub $name: $ty, )*
            /// What scores the positions with men on the board (the hand terms above
            /// always score the king endings): `eval::choose` reads it.
            pub evaluation: Evaluation,
        }

        /// Where each term's first value lies in `Weights::to_vec()` (and in a feature
        /// vector): `AT.advance + 2` is the third value of `advance`.
        #[derive(Clone, Copy, Debug)]
        pub struct Offsets {
            $( pub $name: usize, )*
        }

        pub const AT: Offsets = {
            let at = 0;
            $( let $name = at; let at = at + <$ty as Values>::LEN; )*
            let _ = at;
            Offsets { $( $name, )* }
        };

        /// Every term, in file and vector order.
        pub const TERMS: &[Term] = &[
            $( Term {
                name: stringify!($name),
                len: <$ty as Values>::LEN,
                range: $lo..=$hi,
                doc: concat!($($doc, "\n",)*),
            }, )*
        ];

        /// The number of values in `Weights::to_vec()`.
        pub const LEN: usize = 0 $( + <$ty as Values>::LEN )*;

        impl Weights {
            /// The original hand-set values (`tuning/handset.txt`).
            pub fn handset() -> Weights {
                Weights { $( $name: $handset, )* evaluation: Evaluation::Hand }
            }

            /// All values in `TERMS` order.
            pub fn to_vec(&self) -> Vec<i32> {
                let mut v = Vec::with_capacity(LEN);
                $( v.extend_from_slice(Values::as_slice(&self.$name)); )*
                v
            }

            /// The weights from values in `TERMS` order (`v.len()` must be `LEN`). The values
            /// are taken as they are; `check` tells whether they are in range.
            pub fn from_vec(v: &[i32]) -> Weights {
                assert_eq!(v.len(), LEN, "weights vector length");
                Weights {
                    $( $name: Values::from_slice(&v[AT.$name..AT.$name + <$ty as Values>::LEN]), )*
                    evaluation: Evaluation::Hand,
                }
            }

            /// Value `i` of `to_vec()`, without building it: with `i` known at compile time
            /// (`AT.king`) this is a plain field read, which keeps the play sink fast.
            #[inline(always)]
            pub fn get(&self, i: usize) -> i32 {
                $(
                    if i < AT.$name + <$ty as Values>::LEN {
                        return Values::as_slice(&self.$name)[i - AT.$name];
                    }
                )*
                panic!("weight index {i} out of range");
            }
        }
    };
}

terms! {
    /// The unit: a man is worth a hundred (the tuners hold it).
    man: i32 = 100, range 50..=200;
    /// About three men (pool kings fly, so they are worth a little less than in English
    /// checkers... and far more than a man).
    king: i32 = 300, range 0..=1000;
    /// When ahead in material: this much per piece traded off the board (24 at the start).
    trade_down: i32 = 4, range -20..=20;
    /// By rows advanced (0 = own back row, 6 = one step from crowning), for each man.
    advance: [i32; 7] = [0, 2, 4, 7, 11, 16, 22], range -100..=100;
    /// Each man still on its own back row, while the opponent has men to crown.
    back_rank_guard: i32 = 8, range -100..=100;
    /// Each man on one of the four centre squares (14, 15, 18, 19).
    centre: i32 = 6, range -100..=100;
    /// A man with a free path to the crowning row, scaled down the farther it is.
    runaway: i32 = 60, range -300..=300;
    /// Per square a king can move to (up to 13 a king, so this one is kept small).
    king_mobility: i32 = 2, range -30..=30;
    /// A king on the long diagonal (a1-h8).
    long_diagonal: i32 = 12, range -100..=100;
    /// Three or more kings against a lone king off the long diagonal: a win is near.
    lone_king_off_diagonal: i32 = 400, range 0..=1000;
    /// A tempo (one move) of the side to move.
    tempo: i32 = 3, range -50..=50;
    /// Like `advance`, but scaled by how far the game has gone: none at the start,
    /// `(24 - pieces) / 24` of it later (tempo by phase).
    advance_late: [i32; 7] = [0; 7], range -100..=100;
    /// Extra value of a king, scaled by phase as `advance_late` (kings against men in the
    /// ending).
    king_late: i32 = 0, range -500..=500;
    /// The bridge: both back-corner guards (1 and 3 for Black, 30 and 32 for White) in place
    /// while the opponent has men.
    bridge: i32 = 0, range -100..=100;
    /// A man that cannot move: both forward squares taken (or off the board).
    stuck_man: i32 = 0, range -100..=100;
    /// Per quiet step the men have (a man and an empty square ahead of it).
    man_mobility: i32 = 0, range -30..=30;
    /// Per piece an enemy man could jump at once (an enemy man on one side, an empty square
    /// on the other), whoever is to move. Kings' long captures are not counted.
    en_prise: i32 = 0, range -100..=100;
}

/// The number of values in `Weights::to_vec()` (`LEN`).
pub fn len() -> usize {
    LEN
}

/// The term named `name`; None for an unknown name.
pub fn term(name: &str) -> Option<&'static Term> {
    TERMS.iter().find(|t| t.name == name)
}

/// Where the term `name` lies in `Weights::to_vec()`; None for an unknown name.
pub fn field_range(name: &str) -> Option<Range<usize>> {
    let mut at = 0;
    for t in TERMS {
        if t.name == name {
            return Some(at..at + t.len);
        }
        at += t.len;
    }
    None
}

/// The term that value `i` of `Weights::to_vec()` belongs to.
pub fn term_at(i: usize) -> &'static Term {
    let mut at = 0;
    for t in TERMS {
        at += t.len;
        if i < at {
            return t;
        }
    }
    panic!("weight index {i} out of range (there are {LEN})");
}

/// `x` moved into the range of value `i` of `Weights::to_vec()`; the tuners keep their real
/// valued weights in range with it. NaN goes to the bottom of the range.
pub fn clamp_value(i: usize, x: f64) -> f64 {
    let r = &term_at(i).range;
    if x.is_nan() {
        return *r.start() as f64;
    }
    x.clamp(*r.start() as f64, *r.end() as f64)
}

/// The weights file built into the binary.
pub const BUILTIN: &str = include_str!("../../../../tuning/weights.txt");

impl Default for Weights {
    /// The built-in weights file. It is checked by a test, so it cannot fail here.
    fn default() -> Self {
        static BUILT: OnceLock<Weights> = OnceLock::new();
        BUILT
            .get_or_init(|| weights_file::parse(BUILTIN).expect("tuning/weights.txt is valid"))
            .clone()
    }
}

/// The network built into the binary (`tuning/network.bin`, made by `learn --model
/// network`).
pub const BUILTIN_NETWORK: &[u8] = include_bytes!("../../../../tuning/network.bin");

impl Weights {
    /// What the engine plays with when no weights file is named: the learned network of
    /// `tuning/network.bin`, with `Weights::default()`'s hand weights beside it for king
    /// endings (`eval::evaluate`). `Weights::default()` stays the hand evaluation, which the
    /// tuners start from and the trainers compare against; a text weights file (`--weights
    /// tuning/weights.txt`) plays it. The file is checked by a test, so this cannot fail.
    pub fn builtin() -> Weights {
        static BUILT: OnceLock<Weights> = OnceLock::new();
        BUILT
            .get_or_init(|| {
                let n = nnue::network_file::parse(BUILTIN_NETWORK)
                    .expect("tuning/network.bin is valid");
                Weights::default().with_network(n)
            })
            .clone()
    }

    /// These hand weights with network `n` scoring the positions with men.
    pub fn with_network(self, n: Network) -> Weights {
        Weights {
            evaluation: Evaluation::Network(Arc::new(n)),
            ..self
        }
    }

    /// The network, when it is the evaluation.
    pub fn network(&self) -> Option<&Network> {
        match &self.evaluation {
            Evaluation::Network(n) => Some(n),
            Evaluation::Hand => None,
        }
    }

    /// The weights in the bytes of a weights file named `name` (its path, for messages):
    /// the text format of `eval::weights_file` or a network file (`eval::nnue::network_file`), told apart by
    /// the network's first bytes; a network comes with the built-in hand weights beside it
    /// for king endings.
    pub fn from_file_bytes(name: &str, bytes: Vec<u8>) -> Result<Weights, WeightsError> {
        let io = |message: String| WeightsError::Io {
            path: name.to_string(),
            message,
        };
        if nnue::network_file::is_network_file(&bytes) {
            let n = nnue::network_file::parse(&bytes).map_err(WeightsError::Network)?;
            return Ok(Weights::default().with_network(n));
        }
        if let Some(kind) = weights_file::removed_kind(&bytes) {
            return Err(io(format!(
                "{kind}, an evaluation since removed (tuning/README.md)"
            )));
        }
        let text = String::from_utf8(bytes).map_err(|_| io("not a text file".into()))?;
        weights_file::parse(&text)
    }

    /// Weights from real values in `TERMS` order (what the tuners work with): each rounded
    /// and moved into its range.
    pub fn from_reals(v: &[f64]) -> Weights {
        let ints: Vec<i32> = v
            .iter()
            .enumerate()
            .map(|(i, &x)| clamp_value(i, x.round()) as i32)
            .collect();
        Weights::from_vec(&ints)
    }

    /// The first value out of its term's range, if any: the term and the value.
    pub fn out_of_range(&self) -> Option<(&'static Term, i32)> {
        self.to_vec()
            .into_iter()
            .enumerate()
            .map(|(i, x)| (term_at(i), x))
            .find(|(t, x)| !t.range.contains(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_ranges_tile_the_vector() {
        let mut at = 0;
        for t in TERMS {
            assert_eq!(field_range(t.name), Some(at..at + t.len), "{}", t.name);
            for i in at..at + t.len {
                assert_eq!(term_at(i).name, t.name);
            }
            at += t.len;
        }
        assert_eq!(at, LEN);
        assert_eq!(field_range("nonsense"), None);
        let mut w = Weights::handset();
        w.king = 12345;
        assert_eq!(w.to_vec()[field_range("king").unwrap()], [12345]);
        assert_eq!(field_range("advance").unwrap().start, AT.advance);
        assert_eq!(field_range("en_prise").unwrap().start, AT.en_prise);
    }

    #[test]
    fn vector_round_trip_and_get() {
        let w = Weights::handset();
        assert_eq!(w.to_vec().len(), LEN);
        assert_eq!(Weights::from_vec(&w.to_vec()), w);
        let v: Vec<i32> = (0..LEN as i32).collect();
        let w = Weights::from_vec(&v);
        assert_eq!(w.to_vec(), v);
        for (i, &x) in v.iter().enumerate() {
            assert_eq!(w.get(i), x);
        }
    }

    #[test]
    fn every_term_has_a_doc_and_a_range_that_admits_the_shipped_weights() {
        for t in TERMS {
            assert!(!t.doc.trim().is_empty(), "{}", t.name);
            assert!(t.range.start() < t.range.end(), "{}", t.name);
        }
        assert_eq!(Weights::handset().out_of_range(), None);
        assert_eq!(Weights::default().out_of_range(), None);
    }

    #[test]
    fn from_reals_rounds_and_clamps() {
        let mut v: Vec<f64> = Weights::handset()
            .to_vec()
            .iter()
            .map(|&x| x as f64)
            .collect();
        v[AT.king] = 1e9;
        v[AT.tempo] = f64::NAN;
        v[AT.centre] = 6.6;
        let w = Weights::from_reals(&v);
        assert_eq!(w.king, *term("king").unwrap().range.end());
        assert_eq!(w.tempo, *term("tempo").unwrap().range.start());
        assert_eq!(w.centre, 7);
        assert_eq!(w.out_of_range(), None);
    }

    #[test]
    fn the_builtin_files_parse() {
        assert!(weights_file::parse(BUILTIN).is_ok());
        let built = Weights::builtin();
        let network = nnue::network_file::parse(BUILTIN_NETWORK).expect("tuning/network.bin");
        assert_eq!(built.network(), Some(&network));
        assert_eq!(
            Weights {
                evaluation: Evaluation::Hand,
                ..built
            },
            Weights::default()
        );
        let handset = include_str!("../../../../tuning/handset.txt");
        assert_eq!(weights_file::parse(handset).unwrap(), Weights::handset());
    }
}
