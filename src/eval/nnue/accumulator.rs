//! `Cache`: incremental evaluation for the search, one per search thread.
//!
//! The search evaluates only at the quiet leaves of its capture search, never at interior
//! nodes, so keeping an accumulator for every node made (copy-on-make) would mostly update
//! accumulators nobody reads. Instead the cache keeps, for each ply, the last position
//! evaluated there and its two accumulators (White's view and Black's). To evaluate a
//! position at a ply it takes, of that ply's entry and the last one written (the
//! candidates, `NEAR`), the one whose pieces differ from the position's in the fewest
//! squares, and updates its accumulators: a feature on now and not there is added, one
//! there and not now subtracted. That is exact from any base position, related or not (the
//! arithmetic wraps, so it is exact and reversible), so which entry is picked never changes
//! the result, only the cost: `Cache::evaluate` returns exactly `Network::evaluate`. When
//! every candidate differs in more than `MAX_CHANGES` features it refreshes from scratch.
//! A cache notices a change of network (by `Network::id`) and starts afresh; the search
//! makes one per thread for each search, before its clock starts.

use super::network::Network;
use super::simd::{self, Chunk};
use super::{feature, planes, PLANES};
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

/// Ply offsets of the candidate entries, besides the last one written: the leaf's own ply
/// (a sibling's leaf, or a cousin's).
const NEAR: [isize; 1] = [0];

/// Per-thread accumulator cache (see the module notes).
pub struct Cache {
    /// The network the entries were computed for (`Network::id`), 0 for none.
    net: u64,
    /// Chunks of one accumulator.
    chunks: usize,
    /// Each entry's position as White sees it (`nnue::planes`), None while empty.
    keys: Vec<Option<[u32; PLANES]>>,
    /// Entry `e`'s accumulator of view `v` (White 0, Black 1) at `(2 e + v) * chunks`.
    accs: Vec<Chunk>,
    last: usize,
}

/// The planes as Black sees them, from White's: colours swapped, board turned.
#[inline(always)]
fn black_view(w: &[u32; PLANES]) -> [u32; PLANES] {
    [w[2], w[3], w[0], w[1]].map(u32::reverse_bits)
}

#[inline(always)]
fn changes(a: &[u32; PLANES], b: &[u32; PLANES]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// Room for the features of one update: at most `MAX_CHANGES` change.
const LIST: usize = 32;
const _: () = assert!(MAX_CHANGES as usize <= LIST);

/// A short list of features, on the stack.
struct List {
    f: [u8; LIST],
    n: usize,
}

impl List {
    #[inline(always)]
    fn of(mut bits: u32, plane: usize, into: &mut List) {
        while bits != 0 {
            into.f[into.n] = feature(plane, bits.trailing_zeros()) as u8;
            into.n += 1;
            bits &= bits - 1;
        }
    }
    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        &self.f[..self.n]
    }
}

/// The features to add and to subtract to go from `old` to `new` (at most `LIST` each).
#[inline(always)]
fn diff(old: &[u32; PLANES], new: &[u32; PLANES]) -> (List, List) {
    let mut adds = List { f: [0; LIST], n: 0 };
    let mut subs = List { f: [0; LIST], n: 0 };
    for p in 0..PLANES {
        List::of(new[p] & !old[p], p, &mut adds);
        List::of(old[p] & !new[p], p, &mut subs);
    }
    (adds, subs)
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

    fn acc_range(&self, entry: usize, view: usize) -> std::ops::Range<usize> {
        let at = (2 * entry + view) * self.chunks;
        at..at + self.chunks
    }

    /// View `v`'s accumulators of entries `src` and `dst` (not the same entry).
    fn pair(&mut self, src: usize, dst: usize, v: usize) -> (&[Chunk], &mut [Chunk]) {
        let (s, d) = (self.acc_range(src, v), self.acc_range(dst, v));
        let n = self.chunks;
        if s.start < d.start {
            let (lo, hi) = self.accs.split_at_mut(d.start);
            (&lo[s], &mut hi[..n])
        } else {
            let (lo, hi) = self.accs.split_at_mut(s.start);
            (&hi[..n], &mut lo[d])
        }
    }

    /// The evaluation of `pos` at `ply` from the search's root: exactly `net.evaluate(pos)`.
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        if self.net != net.id() || self.chunks != net.chunks() {
            self.fit(net);
        }
        let slots = self.keys.len();
        let slot = ply.min(slots - 1);
        let key = planes(pos, Color::White);

        // 1. The nearest valid candidate.
        let mut best: Option<(usize, u32)> = None;
        let candidates = NEAR
            .iter()
            .map(|&d| slot as isize + d)
            .filter(|&e| e >= 0 && (e as usize) < slots)
            .map(|e| e as usize)
            .chain(std::iter::once(self.last));
        for e in candidates {
            if let Some(k) = &self.keys[e] {
                let c = changes(k, &key);
                if best.is_none_or(|(_, b)| c < b) {
                    best = Some((e, c));
                }
            }
        }

        // 2. Update from it, or refresh.
        match best {
            Some((e, c)) if c <= MAX_CHANGES => {
                let old = self.keys[e].expect("a valid entry");
                let views = [(old, key), (black_view(&old), black_view(&key))];
                for (v, (o, n)) in views.iter().enumerate() {
                    let (adds, subs) = diff(o, n);
                    let (adds, subs) = (adds.as_slice(), subs.as_slice());
                    let w1 = net.w1_chunks();
                    if e == slot {
                        let r = self.acc_range(slot, v);
                        simd::apply(&mut self.accs[r], w1, adds, subs);
                    } else {
                        let (src, dst) = self.pair(e, slot, v);
                        simd::apply_from(dst, src, w1, adds, subs);
                    }
                }
            }
            _ => {
                let r = self.acc_range(slot, 0);
                net.refresh(&mut self.accs[r], &key);
                let r = self.acc_range(slot, 1);
                net.refresh(&mut self.accs[r], &black_view(&key));
            }
        }
        self.keys[slot] = Some(key);
        self.last = slot;

        // 3. The output, the side to move's view first.
        let (us, them) = match pos.side() {
            Color::White => (0, 1),
            Color::Black => (1, 0),
        };
        net.output(
            &self.accs[self.acc_range(slot, us)],
            &self.accs[self.acc_range(slot, them)],
            pos.occupied().count(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::rng::SplitMix64;
    use crate::eval::nnue::network::tests::trained_like;

    #[test]
    fn black_view_is_the_planes_from_black() {
        for pos in crate::core::random_games::RandomPositions::new(8, usize::MAX).take(300) {
            assert_eq!(
                black_view(&planes(&pos, Color::White)),
                planes(&pos, Color::Black)
            );
        }
    }

    /// Along random games played move by move (captures, crownings, king endings), with the
    /// plies rising and jumping back as a search's do, the cache gives exactly the
    /// evaluation from scratch; and it notices another network and a clear.
    #[test]
    fn incremental_equals_from_scratch_along_random_games() {
        let net = trained_like(64, 21).quantize();
        let other = trained_like(32, 22).quantize();
        let mut cache = Cache::new(20, None);
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
        for v in 0..2 {
            let r = cache.acc_range(0, v);
            cache.accs[r].fill(Chunk([-1000; 16]));
        }
        assert_ne!(cache.evaluate(&net, &b, 1), net.evaluate(&b));
        cache.clear();
        assert_eq!(cache.evaluate(&net, &b, 1), net.evaluate(&b));
    }
}
