//! The network's hot loops on `i16` lanes: moving both views' accumulators by a list of
//! first-layer rows (an update from another position's accumulators, or a refresh from the
//! biases), and the output's SCReLU dot product over both views.
//!
//! Each loop is written once, in `kernels`, over a few register operations (`kernels::Lanes`:
//! load, store, add, subtract, min, max, multiply, multiply-add, sums), and each instruction
//! set is an instance of those: `kernels::Scalar` (always compiled, the reference), AVX2 and
//! AVX-512 (F and BW) on x86_64 (`x86`), SIMD128 on WebAssembly built with it (`wasm`).
//! `Level::detect` asks the CPU once which it has (or takes the level the host asked for); the caller reads that once per evaluation
//! and passes it down, so one evaluation branches on it twice (the update, the output), not
//! in any loop. All give exactly the same results: the accumulator arithmetic wraps (exact
//! and reversible; the weight limits keep the true values inside `i16` anyway), in the dot
//! product `v * w` fits an `i16` (`v <= QA = 127`, `|w| <= 128`) and the `i32` sum cannot
//! overflow (network.rs), so the order of the additions does not matter.
//!
//! Every row a loop reads is named by a feature of a `Features` list, which only the
//! functions here fill, from four 32-bit planes: a feature is below `INPUTS` by
//! construction, and the loops read rows without bounds checks. The lengths (the width `n`
//! in chunks, `w1`'s `INPUTS * n`) are checked once per call, outside the loops.

use super::{INPUTS, PLANES, QA};

mod kernels;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use kernels::{Chunk, FLIP, LANES};
use kernels::{Job, Scalar};

/// The level chosen for the process (`Level::detect`, `Level::prefer`).
static CHOSEN: std::sync::OnceLock<Level> = std::sync::OnceLock::new();

/// The instruction sets the loops come in, in the order of preference (SIMD128 and the x86
/// sets never run on the same machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Scalar,
    /// WebAssembly SIMD128, where the build enables it (`-C target-feature=+simd128`).
    Simd128,
    Avx2,
    /// AVX-512 F and BW (512-bit `i16` adds, `madd`), with AVX2 for an odd chunk.
    Avx512,
}

impl Level {
    /// The level the evaluations use: the best this CPU runs, unless the host asked for
    /// another before the first evaluation (`prefer`).
    #[inline]
    pub fn detect() -> Level {
        *CHOSEN.get_or_init(Level::best)
    }

    /// Use the level `word` names (any word of `parse`: `avx2`, `scalar`...) rather than the
    /// best, to measure the twins against each other; the host passes `POOLSHARK_SIMD` here
    /// before the first evaluation. A level the CPU lacks, or another word, is refused with
    /// a warning on stderr and the best level is used. Returns the level in use (a first
    /// choice stays).
    pub fn prefer(word: &str) -> Level {
        let best = Level::best();
        let level = match Level::parse(word) {
            Some(l) if l.is_available() => l,
            _ => {
                log::warn!(
                    "POOLSHARK_SIMD={word}: not one of scalar, simd128, avx2, avx512 \
                     that this CPU runs; using {best:?}"
                );
                best
            }
        };
        *CHOSEN.get_or_init(|| level)
    }

    /// The best level this CPU runs (asked once).
    #[inline]
    fn best() -> Level {
        use std::sync::OnceLock;
        static BEST: OnceLock<Level> = OnceLock::new();
        *BEST.get_or_init(|| {
            Level::available()
                .into_iter()
                .max()
                .unwrap_or(Level::Scalar)
        })
    }

    /// This level, or the best the CPU runs if that is lower: what the loops may take.
    #[inline(always)]
    fn runnable(self) -> Level {
        self.min(Level::best())
    }

    fn parse(word: &str) -> Option<Level> {
        match word.trim().to_ascii_lowercase().as_str() {
            "scalar" => Some(Level::Scalar),
            "simd128" => Some(Level::Simd128),
            "avx2" => Some(Level::Avx2),
            "avx512" => Some(Level::Avx512),
            _ => None,
        }
    }

    /// The instruction set's usual name ("AVX2").
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Simd128 => "SIMD128",
            Level::Avx2 => "AVX2",
            Level::Avx512 => "AVX-512",
        }
    }

    /// Whether this CPU runs this level's loops.
    pub fn is_available(self) -> bool {
        match self {
            Level::Scalar => true,
            Level::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Level::Avx2 | Level::Avx512 => false,
        }
    }

    /// The levels this CPU runs, lowest first.
    pub fn available() -> Vec<Level> {
        [Level::Scalar, Level::Simd128, Level::Avx2, Level::Avx512]
            .into_iter()
            .filter(|l| l.is_available())
            .collect()
    }
}

/// Whether the AVX2 loops (or better) are in use.
pub fn has_avx2() -> bool {
    Level::detect() >= Level::Avx2
}

/// Room for any list: four planes of 32 squares.
const CAP: usize = PLANES * 32;
const _: () = assert!(CAP == INPUTS && INPUTS <= 256);

/// A list of features, as White sees them, each below `INPUTS` (see the module notes).
#[derive(Clone)]
pub struct Features {
    f: [u8; CAP],
    n: usize,
}

impl Features {
    /// An empty list.
    #[inline(always)]
    pub fn empty() -> Features {
        Features { f: [0; CAP], n: 0 }
    }

    #[inline(always)]
    fn push_plane(&mut self, mut bits: u32, plane: usize) {
        debug_assert!(plane < PLANES);
        while bits != 0 {
            // At most 32 bits a plane and `PLANES` planes: `n < CAP`.
            self.f[self.n] = (plane * 32) as u8 | bits.trailing_zeros() as u8;
            self.n += 1;
            bits &= bits - 1;
        }
    }

    /// The features on in `planes` (White's view, `nnue::planes`).
    #[inline(always)]
    pub fn on(planes: &[u32; PLANES]) -> Features {
        let mut l = Features::empty();
        l.set_on(planes);
        l
    }

    /// This list made `on(planes)`, in place (a list is too big to return cheaply).
    #[inline(always)]
    pub fn set_on(&mut self, planes: &[u32; PLANES]) {
        self.n = 0;
        for (p, &bits) in planes.iter().enumerate() {
            self.push_plane(bits, p);
        }
    }

    /// The features to add and to subtract to go from `old` to `new` (White's view).
    #[inline(always)]
    pub fn diff(old: &[u32; PLANES], new: &[u32; PLANES]) -> (Features, Features) {
        let (mut adds, mut subs) = (Features::empty(), Features::empty());
        Features::set_diff(&mut adds, &mut subs, old, new);
        (adds, subs)
    }

    /// `diff` into `adds` and `subs`, in place.
    #[inline(always)]
    pub fn set_diff(
        adds: &mut Features,
        subs: &mut Features,
        old: &[u32; PLANES],
        new: &[u32; PLANES],
    ) {
        (adds.n, subs.n) = (0, 0);
        for p in 0..PLANES {
            adds.push_plane(new[p] & !old[p], p);
            subs.push_plane(old[p] & !new[p], p);
        }
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.f[..self.n]
    }
}

/// `acc` holds both views' accumulators (`2 n` chunks, White's first); each moves by the
/// rows of `adds` (added) and `subs` (subtracted): `n = acc.len() / 2`, `w1` is `INPUTS`
/// rows of `n` chunks.
#[inline]
pub fn update(level: Level, acc: &mut [Chunk], w1: &[Chunk], adds: &Features, subs: &Features) {
    let n = acc.len() / 2;
    assert!(acc.len() == 2 * n && w1.len() == INPUTS * n);
    let p = acc.as_mut_ptr();
    // `p` and `p + n` point to `n` chunks each; every row is inside `w1` (its
    // length checked above, the features below `INPUTS` by construction).
    let job = Job {
        dst: [p, p.wrapping_add(n)],
        src: [p, p.wrapping_add(n)],
        w1: w1.as_ptr(),
        n,
        adds: adds.as_slice(),
        subs: subs.as_slice(),
    };
    // SAFETY: as above.
    unsafe { run(level, job) }
}

/// `dst = src` moved by the rows as `update` does (`dst` and `src` both views, `2 n` chunks).
#[inline]
pub fn update_from(
    level: Level,
    dst: &mut [Chunk],
    src: &[Chunk],
    w1: &[Chunk],
    adds: &Features,
    subs: &Features,
) {
    let n = dst.len() / 2;
    assert!(dst.len() == 2 * n && src.len() == 2 * n && w1.len() == INPUTS * n);
    let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
    // As in `update`; `dst` and `src` are distinct borrows.
    let job = Job {
        dst: [d, d.wrapping_add(n)],
        src: [s, s.wrapping_add(n)],
        w1: w1.as_ptr(),
        n,
        adds: adds.as_slice(),
        subs: subs.as_slice(),
    };
    // SAFETY: as above.
    unsafe { run(level, job) }
}

/// Both views' accumulators (`dst`, `2 n` chunks) from scratch: the biases `b1` (`n`
/// chunks) plus the rows of the features `on`.
#[inline]
pub fn refresh(level: Level, dst: &mut [Chunk], b1: &[Chunk], w1: &[Chunk], on: &Features) {
    let n = b1.len();
    assert!(dst.len() == 2 * n && w1.len() == INPUTS * n);
    let d = dst.as_mut_ptr();
    // As in `update`; both views start from the same biases.
    let job = Job {
        dst: [d, d.wrapping_add(n)],
        src: [b1.as_ptr(), b1.as_ptr()],
        w1: w1.as_ptr(),
        n,
        adds: on.as_slice(),
        subs: &[],
    };
    // SAFETY: as above.
    unsafe { run(level, job) }
}

/// `job` with the loops of `level`, or of the best level the CPU has if that is lower.
///
/// # Safety
/// `job`'s pointers as `Job` says.
#[inline]
unsafe fn run(level: Level, job: Job) {
    // SAFETY: the caller's promises; the CPU has the level taken.
    unsafe {
        match level.runnable() {
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => x86::update_avx512(job),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => x86::update_avx2(job),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Level::Simd128 => wasm::update(job),
            _ => scalar_update(job),
        }
    }
}

/// The SCReLU output of both views: `sum_i (v_i * w_i) * v_i` with `v = clamp(acc, 0, QA)`,
/// over `us` against `w`'s first half and `them` against its second (`us`, `them` `n`
/// chunks, `w` `2 n`, `|w_i| <= 128`).
#[inline]
pub fn screlu_dot(level: Level, us: &[Chunk], them: &[Chunk], w: &[Chunk]) -> i32 {
    let n = us.len();
    assert!(them.len() == n && w.len() == 2 * n);
    // SAFETY: the lengths are checked above, and the CPU has the level taken.
    unsafe {
        match level.runnable() {
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => x86::screlu_dot_avx512(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => x86::screlu_dot_avx2(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Level::Simd128 => wasm::screlu_dot(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
            _ => scalar_screlu_dot(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
        }
    }
}

/// `kernels::update` on `Scalar`: one copy, out of line like the scalar loops below.
///
/// # Safety
/// `job` as `Job` says.
#[inline(never)]
unsafe fn scalar_update(job: Job) {
    // SAFETY: the caller's promises; scalar needs no instruction set.
    unsafe { kernels::update::<Scalar>(job) }
}

/// `kernels::screlu_dot` on `Scalar`, out of line: inlined into `Network::output`, LLVM
/// vectorised its loop across chunks instead of within one (a lane of eight chunks gathered
/// into a register), and the scalar evaluation took three times as long.
///
/// # Safety
/// `us`, `them` point to `n` chunks, `w` to `2 n`.
#[inline(never)]
unsafe fn scalar_screlu_dot(
    us: *const Chunk,
    them: *const Chunk,
    w: *const Chunk,
    n: usize,
) -> i32 {
    // SAFETY: the caller's promises; scalar needs no instruction set.
    unsafe { kernels::screlu_dot::<Scalar>(us, them, w, n) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    fn chunks(rng: &mut SplitMix64, n: usize, lo: i16, hi: i16) -> Vec<Chunk> {
        let span = (hi as i64 - lo as i64 + 1) as u64;
        (0..n)
            .map(|_| {
                Chunk(std::array::from_fn(|_| {
                    (lo as i64 + (rng.next_u64() % span) as i64) as i16
                }))
            })
            .collect()
    }

    fn planes(rng: &mut SplitMix64) -> [u32; PLANES] {
        // Sparse planes (a few bits each) or full random words (up to 128 features).
        let dense = rng.next_u64().is_multiple_of(4);
        std::array::from_fn(|_| {
            let x = rng.next_u64() as u32;
            if dense {
                x
            } else {
                x & rng.next_u64() as u32 & rng.next_u64() as u32
            }
        })
    }

    /// Every level this CPU runs gives the scalar twin's results exactly, on random data:
    /// wide accumulator values (which wrap), up to 128 rows, widths odd and even, every
    /// clamp case of the activation, the output weights' full range. A level the CPU lacks
    /// is reported skipped.
    fn levels_equal_scalar(level: Level) {
        if !level.is_available() {
            println!(
                "SKIPPED: no {} (simd {:?} against scalar)",
                level.name(),
                level
            );
            return;
        }
        let mut rng = SplitMix64::new(11 + level as u64);
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 24, 31, 32] {
            let w1 = chunks(&mut rng, INPUTS * n, i16::MIN, i16::MAX);
            let b1 = chunks(&mut rng, n, i16::MIN, i16::MAX);
            for _ in 0..40 {
                let (old, new) = (planes(&mut rng), planes(&mut rng));
                let (adds, subs) = Features::diff(&old, &new);
                let base = chunks(&mut rng, 2 * n, i16::MIN, i16::MAX);
                let (mut a, mut b) = (base.clone(), base.clone());
                update(Level::Scalar, &mut a, &w1, &adds, &subs);
                update(level, &mut b, &w1, &adds, &subs);
                assert_eq!(a, b, "{level:?} update, width {n}");
                let mut d = vec![Chunk::default(); 2 * n];
                update_from(level, &mut d, &base, &w1, &adds, &subs);
                assert_eq!(d, a, "{level:?} update_from, width {n}");
                let on = Features::on(&new);
                let (mut r, mut s) = (d.clone(), d);
                refresh(Level::Scalar, &mut r, &b1, &w1, &on);
                refresh(level, &mut s, &b1, &w1, &on);
                assert_eq!(r, s, "{level:?} refresh, width {n}");
                let us = chunks(&mut rng, n, -300, 300);
                let them = chunks(&mut rng, n, -300, 300);
                let w = chunks(&mut rng, 2 * n, -128, 128);
                assert_eq!(
                    screlu_dot(Level::Scalar, &us, &them, &w),
                    screlu_dot(level, &us, &them, &w),
                    "{level:?} dot, width {n}"
                );
            }
        }
    }

    /// The scalar twin against the formulas written out lane by lane (the reference the
    /// others are held to, so checked on every CPU).
    fn scalar_equals_the_formulas() {
        let mut rng = SplitMix64::new(7);
        for n in [1, 3, 8] {
            let w1 = chunks(&mut rng, INPUTS * n, i16::MIN, i16::MAX);
            let lane = |c: &[Chunk], i: usize| c[i / LANES].0[i % LANES];
            for _ in 0..40 {
                let (old, new) = (planes(&mut rng), planes(&mut rng));
                let (adds, subs) = Features::diff(&old, &new);
                let base = chunks(&mut rng, 2 * n, i16::MIN, i16::MAX);
                let mut got = base.clone();
                update(Level::Scalar, &mut got, &w1, &adds, &subs);
                let h = n * LANES;
                for v in 0..2 {
                    for i in 0..h {
                        let mut want = lane(&base, v * h + i) as i64;
                        for p in 0..PLANES {
                            for sq in 0..32 {
                                let f = if v == 0 {
                                    p * 32 + sq
                                } else {
                                    (p ^ 2) * 32 + 31 - sq
                                };
                                let row = |k: usize| lane(&w1, f * h + k) as i64;
                                let bit = |x: u32| (x >> sq) & 1 == 1;
                                want += (bit(new[p]) && !bit(old[p])) as i64 * row(i);
                                want -= (bit(old[p]) && !bit(new[p])) as i64 * row(i);
                            }
                        }
                        assert_eq!(lane(&got, v * h + i), want as i16, "view {v} lane {i}");
                    }
                }
                let us = chunks(&mut rng, n, -300, 300);
                let them = chunks(&mut rng, n, -300, 300);
                let w = chunks(&mut rng, 2 * n, -128, 128);
                let mut want = 0i64;
                for i in 0..h {
                    for (a, k) in [(lane(&us, i), i), (lane(&them, i), h + i)] {
                        let v = (a.clamp(0, QA as i16)) as i64;
                        want += v * lane(&w, k) as i64 * v;
                    }
                }
                assert_eq!(screlu_dot(Level::Scalar, &us, &them, &w) as i64, want);
            }
        }
    }

    #[test]
    fn simd_equals_scalar() {
        scalar_equals_the_formulas();
        levels_equal_scalar(Level::Avx2);
    }

    #[test]
    fn avx512_equals_scalar() {
        levels_equal_scalar(Level::Avx512);
    }

    #[test]
    fn simd128_equals_scalar() {
        levels_equal_scalar(Level::Simd128);
    }

    /// Plain Rust with a register two chunks wide, blocks of four and a one-chunk tail: the
    /// shape of the AVX-512 instance, so that the kernels' paths for it (wide registers, the
    /// odd last chunk) are checked on every CPU.
    struct Double;

    impl kernels::Lanes for Double {
        type V = [i16; 2 * LANES];
        type S = [i32; LANES];
        type Tail = Scalar;
        const WIDTH: usize = 2 * LANES;
        const BLOCK: usize = 4;

        unsafe fn load(p: *const i16) -> Self::V {
            // SAFETY: `p` points to `WIDTH` lanes (the trait's contract).
            unsafe { p.cast::<Self::V>().read() }
        }
        unsafe fn store(p: *mut i16, x: Self::V) {
            // SAFETY: as `load`.
            unsafe { p.cast::<Self::V>().write(x) }
        }
        unsafe fn splat(x: i16) -> Self::V {
            [x; 2 * LANES]
        }
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
            std::array::from_fn(|i| a[i].wrapping_add(b[i]))
        }
        unsafe fn sub(a: Self::V, b: Self::V) -> Self::V {
            std::array::from_fn(|i| a[i].wrapping_sub(b[i]))
        }
        unsafe fn min(a: Self::V, b: Self::V) -> Self::V {
            std::array::from_fn(|i| a[i].min(b[i]))
        }
        unsafe fn max(a: Self::V, b: Self::V) -> Self::V {
            std::array::from_fn(|i| a[i].max(b[i]))
        }
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
            std::array::from_fn(|i| a[i].wrapping_mul(b[i]))
        }
        unsafe fn madd(a: Self::V, b: Self::V) -> Self::S {
            let p = |i: usize| a[i] as i32 * b[i] as i32;
            std::array::from_fn(|k| p(2 * k).wrapping_add(p(2 * k + 1)))
        }
        unsafe fn zero_sums() -> Self::S {
            [0; LANES]
        }
        unsafe fn add_sums(a: Self::S, b: Self::S) -> Self::S {
            std::array::from_fn(|i| a[i].wrapping_add(b[i]))
        }
        unsafe fn total(s: Self::S) -> i32 {
            s.iter().fold(0, |t, &x| t.wrapping_add(x))
        }
    }

    #[test]
    fn a_register_of_two_chunks_equals_scalar() {
        let mut rng = SplitMix64::new(5);
        for n in [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31] {
            let w1 = chunks(&mut rng, INPUTS * n, i16::MIN, i16::MAX);
            for _ in 0..20 {
                let (adds, subs) = Features::diff(&planes(&mut rng), &planes(&mut rng));
                let src = chunks(&mut rng, 2 * n, i16::MIN, i16::MAX);
                let (mut a, mut b) = (vec![Chunk::default(); 2 * n], src.clone());
                let job = |dst: &mut [Chunk], src: &[Chunk]| Job {
                    dst: [dst.as_mut_ptr(), dst[n..].as_mut_ptr()],
                    src: [src.as_ptr(), src[n..].as_ptr()],
                    w1: w1.as_ptr(),
                    n,
                    adds: adds.as_slice(),
                    subs: subs.as_slice(),
                };
                // SAFETY: every pointer covers `n` chunks, each row `n` chunks of `w1`.
                unsafe {
                    kernels::update::<Scalar>(job(&mut a, &src));
                    kernels::update::<Double>(job(&mut b, &src));
                }
                assert_eq!(a, b, "update, width {n}");
                let us = chunks(&mut rng, n, -300, 300);
                let them = chunks(&mut rng, n, -300, 300);
                let w = chunks(&mut rng, 2 * n, -128, 128);
                let (us, them, wp) = (us.as_ptr(), them.as_ptr(), w.as_ptr());
                // SAFETY: `us`, `them` are `n` chunks, `w` `2 n`.
                unsafe {
                    assert_eq!(
                        kernels::screlu_dot::<Scalar>(us, them, wp, n),
                        kernels::screlu_dot::<Double>(us, them, wp, n),
                        "dot, width {n}"
                    );
                }
            }
        }
    }

    /// The lists hold what the planes say, and `FLIP` takes White's feature to Black's.
    #[test]
    fn features_list_the_planes_and_flip_to_black() {
        let old = [0b101, 0, 1 << 31, 0];
        let new = [0b110, 1 << 4, 0, 0];
        let (adds, subs) = Features::diff(&old, &new);
        assert_eq!(adds.as_slice(), &[1, 32 + 4]);
        assert_eq!(subs.as_slice(), &[0, 64 + 31]);
        assert_eq!(Features::on(&[u32::MAX; 4]).as_slice().len(), INPUTS);
        for pos in crate::core::random_games::RandomPositions::new(3, usize::MAX).take(200) {
            let w = crate::eval::nnue::planes(&pos, crate::core::Color::White);
            let b = crate::eval::nnue::planes(&pos, crate::core::Color::Black);
            let mut flipped: Vec<u8> = Features::on(&w)
                .as_slice()
                .iter()
                .map(|f| f ^ FLIP)
                .collect();
            flipped.sort();
            assert_eq!(flipped, Features::on(&b).as_slice());
        }
    }

    /// The scalar paths do what they say, on numbers small enough to check by hand.
    #[test]
    fn the_scalar_paths_add_subtract_and_activate() {
        let n = 1;
        let w1: Vec<Chunk> = (0..INPUTS).map(|f| Chunk([f as i16 + 1; LANES])).collect();
        let mut acc = vec![Chunk([10; LANES]); 2 * n];
        let (adds, subs) = Features::diff(&[0b010, 0, 0, 0], &[0b101, 0, 0, 0]);
        for level in Level::available() {
            let mut a = acc.clone();
            update(level, &mut a, &w1, &adds, &subs);
            // White: + rows 0 and 2, - row 1. Black: the same features ^ FLIP (95, 93, 94).
            assert_eq!(a[0].0, [10 + 1 + 3 - 2; LANES], "{level:?}");
            assert_eq!(a[1].0, [10 + 96 + 94 - 95; LANES], "{level:?}");
            update(level, &mut a, &w1, &subs, &adds);
            assert_eq!(a, acc);
        }
        acc[0].0[..4].copy_from_slice(&[-5, 3, 200, 127]);
        let zero = Chunk::default();
        let mut w = [Chunk([0; LANES]); 2];
        w[0].0[..4].copy_from_slice(&[100, -2, 128, -128]);
        // -5 clamps to 0; 3 * -2 * 3; 200 clamps to 127.
        let want = -18 + 127 * 128 * 127 - 127 * 128 * 127;
        for level in Level::available() {
            assert_eq!(screlu_dot(level, &acc[..1], &[zero], &w), want);
            assert_eq!(screlu_dot(level, &[zero], &acc[..1], &[w[1], w[0]]), want);
        }
    }
}
