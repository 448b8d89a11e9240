//! `Cache`: incremental evaluation for the search, one per search thread.
//!
//! The search evaluates only at the quiet leaves of its capture search, never at interior
//! nodes, so keeping an accumulator for every node made (copy-on-make) would mostly update
//! accumulators nobody reads. Instead the cache keeps, for each ply, the last position
//! evaluated there and its two accumulators (White's view and Black's). To evaluate a
//! position at a ply it takes, of that ply's entry and the last one written (the
//! candidates), the one whose pieces differ from the position's in the fewest
//! squares, and updates its accumulators: a feature on now and not there is added, one
//! there and not now subtracted. That is exact from any base position, related or not (the
//! arithmetic wraps, so it is exact and reversible), so which entry is picked never changes
//! the result, only the cost: `Cache::evaluate` returns exactly `Network::evaluate`. When
//! every candidate differs in more than `MAX_CHANGES` features it refreshes from scratch.
//! A cache notices a change of network (by `Network::id`) and starts afresh; the search
//! makes one per thread for each search, before its clock starts.

use super::network::Network;
use super::simd::{self, Chunk, Features, Level};
use super::{planes, PLANES};
use crate::core::{Color, Position};

// The tunables, chosen by counting instructions (callgrind) over `poolshark bench --depth
// 10` with random networks of hidden 64 and 256 (the tree is the same whatever they are,
// the cache being exact):
// - `MAX_CHANGES` 6, 12 or 24 made no difference (within 0.7% of the cache's instructions):
//   nearly every leaf is within 6 changed features of its nearest candidate.
// - Candidates: this ply's entry and the last one written cost 435M instructions at hidden
//   64 (655M at 256); adding ply - 1 cost 455M (674M), ply - 1, + 1 and - 2 495M (716M);
//   the last one alone 429M (653M). Looking is dearer than what a better base saves; this
//   ply's entry stays as the fallback after a jump back from a deep line.

/// The most changed features (per view) worth an update; beyond it an accumulator is
/// rebuilt from scratch (up to 24 rows and the bias).
pub const MAX_CHANGES: u32 = 12;

/// Per-thread accumulator cache (see the module notes).
pub struct Cache {
    /// The network the entries were computed for (`Network::id`), 0 for none.
    net: u64,
    /// Chunks of one accumulator.
    chunks: usize,
    /// Each entry's position as White sees it (`nnue::planes`), None while empty.
    keys: Vec<Option<[u32; PLANES]>>,
    /// Entry `e`'s accumulators, White's view then Black's, at `2 e chunks`.
    accs: Vec<Chunk>,
    last: usize,
}

#[inline(always)]
fn changes(a: &[u32; PLANES], b: &[u32; PLANES]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

impl Cache {
    /// A cache of `slots` entries (a search passes one per ply it can reach, `PLY_SLOTS`),
    /// sized and touched for `net` when one is given (else on its first use).
    pub fn new(slots: usize, net: Option<&Network>) -> Cache {
        let mut c = Cache {
            net: 0,
            chunks: 0,
            keys: vec![None; slots.max(1)],
            accs: Vec::new(),
            last: 0,
        };
        if let Some(n) = net {
            c.fit(n);
        }
        c
    }

    /// Forget every entry (a new game; the network changed).
    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = None);
        self.last = 0;
    }

    /// Make the entries fit `net`, emptied.
    fn fit(&mut self, net: &Network) {
        self.clear();
        self.net = net.id();
        self.chunks = net.chunks();
        self.accs = vec![Chunk::default(); self.keys.len() * 2 * self.chunks];
    }

    /// Entry `e`'s accumulators, both views (White's then Black's).
    fn acc_range(&self, entry: usize) -> std::ops::Range<usize> {
        let at = 2 * entry * self.chunks;
        at..at + 2 * self.chunks
    }

    /// The evaluation of `pos` at `ply` from the search's root: exactly `net.evaluate(pos)`.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        self.evaluate_at(Level::detect(), net, pos, ply)
    }

    /// `evaluate` with the loops of `level` (one this CPU runs: `Level::available`).
    pub fn evaluate_at(&mut self, level: Level, net: &Network, pos: &Position, ply: usize) -> i32 {
        if self.net != net.id() || self.chunks != net.chunks() {
            self.fit(net);
        }
        let slot = ply.min(self.keys.len() - 1);
        let key = planes(pos, Color::White);

        // 1. The nearest valid candidate: this ply's entry or the last one written.
        let mut best: Option<(usize, u32)> = None;
        for e in [slot, self.last] {
            if let Some(k) = &self.keys[e] {
                let c = changes(k, &key);
                if best.is_none_or(|(_, b)| c < b) {
                    best = Some((e, c));
                }
            }
        }

        // 2. Update both views from it (White's features; Black's are them `^ FLIP`), or
        // refresh.
        let w1 = net.w1_chunks();
        match best {
            Some((e, c)) if c <= MAX_CHANGES => {
                let (mut adds, mut subs) = (Features::empty(), Features::empty());
                let base = self.keys[e].as_ref().expect("a valid entry");
                Features::set_diff(&mut adds, &mut subs, base, &key);
                let (d, s) = (self.acc_range(slot), self.acc_range(e));
                if e == slot {
                    simd::update(level, &mut self.accs[d], w1, &adds, &subs);
                } else if s.start < d.start {
                    let (lo, hi) = self.accs.split_at_mut(d.start);
                    simd::update_from(level, &mut hi[..d.len()], &lo[s], w1, &adds, &subs);
                } else {
                    let (lo, hi) = self.accs.split_at_mut(s.start);
                    simd::update_from(level, &mut lo[d], &hi[..s.len()], w1, &adds, &subs);
                }
            }
            _ => {
                let d = self.acc_range(slot);
                net.refresh(level, &mut self.accs[d], &key);
            }
        }
        self.keys[slot] = Some(key);
        self.last = slot;

        // 3. The output, the side to move's view first.
        let n = self.chunks;
        let (white, black) = self.accs[self.acc_range(slot)].split_at(n);
        let (us, them) = match pos.side() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        net.output(level, us, them, pos.occupied().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::rng::SplitMix64;
    use crate::eval::nnue::network::tests::trained_like;

    /// Along random games played move by move (captures, crownings, king endings), with the
    /// plies rising and jumping back as a search's do, the cache gives exactly the
    /// evaluation from scratch; and it notices another network and a clear.
    #[test]
    fn incremental_equals_from_scratch_along_random_games() {
        let net = trained_like(64, 21).quantize();
        let other = trained_like(32, 22).quantize();
        let mut cache = Cache::new(20, None);
        // The other levels' loops, each with a cache of its own, along the same games.
        let mut others: Vec<(Level, Cache)> = Level::available()
            .into_iter()
            .filter(|&l| l != Level::detect())
            .map(|l| (l, Cache::new(20, None)))
            .collect();
        let mut rng = SplitMix64::new(5);
        let (mut updates, mut kings, mut captures) = (0, 0, 0);
        for game in 0..250 {
            let mut pos = Position::start();
            let mut ply = 0usize;
            for _ in 0..300 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let mv = *rng.pick(moves.as_slice());
                captures += mv.is_capture() as u32;
                pos = pos.play(&mv);
                kings += pos.kings().any() as u32;
                // Deeper mostly, sometimes back up a few plies, sometimes past the last slot.
                ply = match rng.next_u64() % 8 {
                    0 => ply.saturating_sub(3),
                    1 => 0,
                    2 => 40,
                    _ => ply + 1,
                };
                let want = net.evaluate(&pos);
                let before = cache.keys.iter().flatten().count();
                assert_eq!(cache.evaluate(&net, &pos, ply), want, "game {game} {pos:?}");
                for (l, c) in &mut others {
                    assert_eq!(c.evaluate_at(*l, &net, &pos, ply), want, "{l:?} {game}");
                }
                updates += (before > 0) as u32;
            }
            if game % 10 == 9 {
                // Another network, then back: the entries must not be reused.
                let p = Position::start();
                assert_eq!(cache.evaluate(&other, &p, 1), other.evaluate(&p));
                assert_eq!(cache.keys.iter().flatten().count(), 1);
                cache.clear();
                assert_eq!(cache.keys.iter().flatten().count(), 0);
            }
        }
        eprintln!("updates {updates} kings {kings} captures {captures}");
        assert!(updates > 10_000 && kings > 2000 && captures > 2000);
    }

    /// A stale entry must not be trusted: an entry whose accumulators are wrong makes the
    /// result wrong (so the test above can fail), and one whose key differs is updated.
    #[test]
    fn the_update_reads_the_base_entry() {
        let net = trained_like(32, 4).quantize();
        let mut cache = Cache::new(4, Some(&net));
        let a = Position::start();
        let moves = legal_moves(&a);
        let b = a.play(&moves[0]);
        cache.evaluate(&net, &a, 0);
        let r = cache.acc_range(0);
        cache.accs[r].fill(Chunk([-1000; 16]));
        assert_ne!(cache.evaluate(&net, &b, 1), net.evaluate(&b));
        cache.clear();
        assert_eq!(cache.evaluate(&net, &b, 1), net.evaluate(&b));
    }
}
