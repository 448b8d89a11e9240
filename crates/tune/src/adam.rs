//! Adam, as the network trainer (`tune::net`) uses it: the run's state, the order of an
//! epoch, the learning-rate schedule, one step's update, and the checkpoint file that lets a
//! stopped run continue. The gradient and the limits the weights are clipped to stay with
//! the trainer.

use poolshark_engine::checksum::fnv1a as checksum;
use poolshark_engine::core::rng::Xorshift64;

/// Adam's decay rates and the guard against a zero second moment.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The learning rate at the last epoch, as a share of the first: it falls linearly to this.
const LAST_EPOCH_RATE: f64 = 0.1;

/// Where a run stands: everything needed to continue it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Epochs finished.
    pub epoch: usize,
    /// Adam steps taken.
    pub step: u64,
    /// The weights, in the trainer's own units and order.
    pub w: Vec<f32>,
    /// Adam's first and second moments, one per weight.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

impl State {
    /// A run not started yet, from weights `w`.
    pub fn new(w: Vec<f32>) -> State {
        let n = w.len();
        State {
            epoch: 0,
            step: 0,
            w,
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

/// The order epoch `epoch` visits `len` positions in: a shuffle drawn from the run's seed and
/// the epoch, so that a resumed run visits them as an unbroken one would.
pub fn order(len: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    let mix = (epoch as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Xorshift64::new((seed ^ mix) | 1);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// The learning rate of epoch `epoch` (from 0) of `epochs`: `first` at the first, falling
/// linearly to `LAST_EPOCH_RATE` of it at the last.
pub fn rate(first: f64, epoch: usize, epochs: usize) -> f32 {
    let frac = epoch as f64 / epochs.max(2).saturating_sub(1) as f64;
    (first * (1.0 - (1.0 - LAST_EPOCH_RATE) * frac.min(1.0))) as f32
}

/// One Adam step's constants: the rate and the bias corrections of step `step` (from 1).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    rate: f32,
    c1: f32,
    c2: f32,
}

impl Step {
    pub fn new(rate: f32, step: u64) -> Step {
        let t = step.clamp(1, 1 << 20) as i32;
        Step {
            rate,
            c1: 1.0 - BETA1.powi(t),
            c2: 1.0 - BETA2.powi(t),
        }
    }

    /// Move weight `w` by gradient `g`, updating its moments.
    #[inline(always)]
    pub fn apply(&self, w: &mut f32, m: &mut f32, v: &mut f32, g: f32) {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= self.rate * (*m / self.c1) / ((*v / self.c2).sqrt() + EPSILON);
    }
}

/// The checkpoint file: a magic naming the trainer, the run's settings as text (one `name
/// value` line each, `--epochs` not among them), the epoch and step, the weight count, the
/// weights and both moments as little-endian `f32`, and an FNV-1a checksum of all before it.
/// A run continues a checkpoint only with the same settings (`check_settings`); a larger
/// `--epochs` continues it.
pub mod checkpoint {
    use super::{checksum, State};

    pub fn write(magic: &[u8; 8], settings: &str, st: &State) -> Vec<u8> {
        let mut out = Vec::with_capacity(48 + settings.len() + 12 * st.w.len());
        out.extend_from_slice(magic);
        out.extend_from_slice(&(settings.len() as u64).to_le_bytes());
        out.extend_from_slice(settings.as_bytes());
        out.extend_from_slice(&(st.epoch as u64).to_le_bytes());
        out.extend_from_slice(&st.step.to_le_bytes());
        out.extend_from_slice(&(st.w.len() as u64).to_le_bytes());
        for vec in [&st.w, &st.m, &st.v] {
            for x in vec.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The settings and the state in `b`, if it is a whole checkpoint with this `magic`
    /// (`what` names the trainer in the error) and, when `params` is given, of that many
    /// weights.
    pub fn parse(
        b: &[u8],
        magic: &[u8; 8],
        what: &str,
        params: Option<usize>,
    ) -> Result<(String, State), String> {
        if !b.starts_with(magic) {
            return Err(format!("not a {what} checkpoint"));
        }
        let truncated = || format!("{} bytes: truncated", b.len());
        let u64_at = |at: usize| -> Option<u64> {
            b.get(at..at + 8)
                .map(|x| u64::from_le_bytes(x.try_into().expect("8 bytes")))
        };
        let text_len = u64_at(8).ok_or_else(truncated)?;
        let header = usize::try_from(text_len)
            .ok()
            .and_then(|t| t.checked_add(16 + 24))
            .ok_or("a size that cannot be")?;
        let n = u64_at(header - 8).ok_or_else(truncated)?;
        let len = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(12))
            .and_then(|x| x.checked_add(header + 8))
            .ok_or("a size that cannot be")?;
        if b.len() != len {
            return Err(format!("{} bytes, expected {len}: truncated?", b.len()));
        }
        let n = n as usize;
        if u64_at(len - 8) != Some(checksum(&b[..len - 8])) {
            return Err("checksum does not match: the file is damaged".into());
        }
        let settings = String::from_utf8(b[16..header - 24].to_vec())
            .map_err(|_| "settings that are not text: the file is damaged")?;
        if let Some(p) = params.filter(|&p| p != n) {
            return Err(format!("{n} weights, the model has {p}"));
        }
        let floats = |k: usize| -> Vec<f32> {
            let at = header + 4 * k * n;
            b[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let at = |i: usize| u64_at(header - 24 + 8 * i).expect("inside the length checked");
        let st = State {
            epoch: at(0) as usize,
            step: at(1),
            w: floats(0),
            m: floats(1),
            v: floats(2),
        };
        Ok((settings, st))
    }

    /// Whether a checkpoint made with `saved` settings is this run's (`now`): each setting
    /// (a `name value` line) that differs is named with both values.
    pub fn check_settings(saved: &str, now: &str) -> Result<(), String> {
        let split = |t: &str| -> Vec<(String, String)> {
            t.lines()
                .map(|l| {
                    let (k, v) = l.split_once(' ').unwrap_or((l, ""));
                    (k.to_string(), v.to_string())
                })
                .collect()
        };
        let (old, new) = (split(saved), split(now));
        let names = old.iter().chain(&new).map(|(k, _)| k);
        let mut seen = std::collections::HashSet::new();
        let value = |list: &[(String, String)], k: &str| {
            list.iter()
                .find(|(n, _)| n == k)
                .map_or("(none)".to_string(), |(_, v)| v.clone())
        };
        let differ: Vec<String> = names
            .filter(|k| seen.insert(k.as_str()))
            .filter_map(|k| {
                let (a, b) = (value(&old, k), value(&new, k));
                (a != b).then(|| format!("{k} {a} in the checkpoint, {b} now"))
            })
            .collect();
        if differ.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "made by a run with other settings: {} (remove it to start afresh)",
                differ.join("; ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_epoch_order_is_a_shuffle_fixed_by_seed_and_epoch() {
        let a = order(1000, 3, 0);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        assert_ne!(a, sorted);
        assert_eq!(a, order(1000, 3, 0));
        assert_ne!(a, order(1000, 3, 1));
        assert_ne!(a, order(1000, 4, 0));
    }

    #[test]
    fn the_rate_falls_linearly_to_a_tenth() {
        assert_eq!(rate(1.0, 0, 5), 1.0);
        assert!((rate(1.0, 2, 5) - 0.55).abs() < 1e-6);
        assert!((rate(1.0, 4, 5) - 0.1).abs() < 1e-6);
        assert!((rate(1.0, 9, 5) - 0.1).abs() < 1e-6);
        assert_eq!(rate(2.0, 0, 1), 2.0);
    }

    /// Adam's first step moves a weight by the rate against the gradient's sign, whatever
    /// the gradient's size; later steps follow the moments.
    #[test]
    fn the_first_step_moves_by_the_rate() {
        for g in [1e-3f32, 5.0, -0.2] {
            let (mut w, mut m, mut v) = (1.0f32, 0.0, 0.0);
            Step::new(0.01, 1).apply(&mut w, &mut m, &mut v, g);
            assert!((w - (1.0 - 0.01 * g.signum())).abs() < 1e-5, "{g}: {w}");
        }
        // Descent on (w - 3)^2 reaches 3.
        let (mut w, mut m, mut v) = (0.0f32, 0.0, 0.0);
        for t in 1..=3000 {
            let g = 2.0 * (w - 3.0);
            Step::new(0.01, t).apply(&mut w, &mut m, &mut v, g);
        }
        assert!((w - 3.0).abs() < 0.05, "{w}");
    }

    #[test]
    fn a_checkpoint_round_trips_and_refuses_damage() {
        let mut st = State::new(vec![0.5, -1.0, 2.0]);
        st.epoch = 2;
        st.step = 9;
        st.m[1] = 0.25;
        st.v[2] = 3.0;
        let settings = "--hidden 32\n--lambda 0.5\n";
        let b = checkpoint::write(b"TESTCKPT", settings, &st);
        let parse = |b: &[u8], p| checkpoint::parse(b, b"TESTCKPT", "test", p);
        assert_eq!(parse(&b, None).unwrap(), (settings.to_string(), st.clone()));
        assert_eq!(parse(&b, Some(3)).unwrap().1, st);
        assert!(parse(&b, Some(4)).unwrap_err().contains("3 weights"));
        let mut bad = b.clone();
        bad[50] ^= 4;
        assert!(parse(&bad, None).unwrap_err().contains("damaged"));
        assert!(parse(&b[..b.len() - 3], None)
            .unwrap_err()
            .contains("truncated"));
        for cut in [10, 20, 40] {
            assert!(parse(&b[..cut], None).unwrap_err().contains("truncated"));
        }
        // A settings length that cannot be is refused, not followed.
        let mut huge = b.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(parse(&huge, None).is_err());
        let e = checkpoint::parse(&b, b"OTHERCKP", "network trainer", None).unwrap_err();
        assert_eq!(e, "not a network trainer checkpoint");
    }

    /// A refusal names each setting that differs, with both values; the same settings pass.
    #[test]
    fn other_settings_are_named_with_both_values() {
        let saved = "--hidden 32\n--lambda 0.5\n--seed 1\n";
        assert_eq!(checkpoint::check_settings(saved, saved), Ok(()));
        let e =
            checkpoint::check_settings(saved, "--hidden 48\n--lambda 0.5\n--seed 2\n").unwrap_err();
        assert!(e.contains("--hidden 32 in the checkpoint, 48 now"), "{e}");
        assert!(e.contains("--seed 1 in the checkpoint, 2 now"), "{e}");
        assert!(!e.contains("--lambda"), "{e}");
        let e = checkpoint::check_settings(saved, "--hidden 32\n--lambda 0.5\n").unwrap_err();
        assert!(e.contains("--seed 1 in the checkpoint, (none) now"), "{e}");
    }
}
