//! The network's hot loops on `i16` lanes: moving both views' accumulators by a list of
//! first-layer rows (an update from another position's accumulators, or a refresh from the
//! biases), and the output's SCReLU dot product over both views.
//!
//! Each loop has three twins: scalar (always compiled, the reference), AVX2 and AVX-512
//! (F and BW) on x86_64. `Level::detect` asks the CPU once which it has; the caller reads
//! that once per evaluation and passes it down, so one evaluation branches on it twice (the
//! update, the output), not in any loop. All three give exactly the same results: the
//! accumulator arithmetic wraps (exact and reversible; the weight limits keep the true
//! values inside `i16` anyway), in the dot product `v * w` fits an `i16` (`v <= QA = 127`,
//! `|w| <= 128`) and the `i32` sum cannot overflow (network.rs), so the order of the
//! additions does not matter.
//!
//! Every row a loop reads is named by a feature of a `Features` list, which only the
//! functions here fill, from four 32-bit planes: a feature is below `INPUTS` by
//! construction, and the loops read rows without bounds checks. The lengths (the width `n`
//! in chunks, `w1`'s `INPUTS * n`) are checked once per call, outside the loops.

use super::{INPUTS, PLANES, QA};

mod kernels;

pub use kernels::{Chunk, FLIP, LANES};
use kernels::{Job, Scalar};

/// The instruction sets the loops come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Scalar,
    Avx2,
    /// AVX-512 F and BW (512-bit `i16` adds, `madd`), with AVX2 for an odd chunk.
    Avx512,
}

impl Level {
    /// The best level this CPU runs, asked once. `POOLSHARK_SIMD=avx2` or `=scalar` asks
    /// for a lower one (to measure the twins against each other); a level the CPU lacks, or
    /// another word, is refused with a warning on stderr and the best level is used.
    #[inline]
    pub fn detect() -> Level {
        use std::sync::OnceLock;
        static LEVEL: OnceLock<Level> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            let best = Level::best();
            match std::env::var("POOLSHARK_SIMD") {
                Err(_) => best,
                Ok(word) => match Level::parse(&word) {
                    Some(l) if l.is_available() => l,
                    _ => {
                        log::warn!(
                            "POOLSHARK_SIMD={word}: not one of scalar, avx2, avx512 that this \
                             CPU runs; using {best:?}"
                        );
                        best
                    }
                },
            }
        })
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
            "avx2" => Some(Level::Avx2),
            "avx512" => Some(Level::Avx512),
            _ => None,
        }
    }

    /// The instruction set's usual name ("AVX2").
    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Avx2 => "AVX2",
            Level::Avx512 => "AVX-512",
        }
    }

    /// Whether this CPU runs this level's loops.
    pub fn is_available(self) -> bool {
        match self {
            Level::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The levels this CPU runs, lowest first.
    pub fn available() -> Vec<Level> {
        [Level::Scalar, Level::Avx2, Level::Avx512]
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
            Level::Avx512 => avx512::update(job),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => avx2::update(job),
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
            Level::Avx512 => avx512::screlu_dot(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => avx2::screlu_dot(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
            _ => kernels::screlu_dot::<Scalar>(us.as_ptr(), them.as_ptr(), w.as_ptr(), n),
        }
    }
}

/// `kernels::update` on `Scalar` (one copy, called by every entry point).
///
/// # Safety
/// `job` as `Job` says.
unsafe fn scalar_update(job: Job) {
    // SAFETY: the caller's promises; scalar needs no instruction set.
    unsafe { kernels::update::<Scalar>(job) }
}

/// The AVX2 versions.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Chunk, Job, FLIP, QA};
    use std::arch::x86_64::*;

    /// `B` chunks at offset `at` of view `v`: loaded, moved by the rows in registers,
    /// stored.
    ///
    /// # Safety
    /// AVX2; chunks `at..at + B` lie inside the width of `job`.
    #[inline(always)]
    pub(super) unsafe fn block<const B: usize>(job: &Job, v: usize, at: usize) {
        let flip = if v == 0 { 0 } else { FLIP };
        // SAFETY: the caller's promises; every chunk is 32-byte aligned.
        unsafe {
            let src = job.src[v].add(at) as *const __m256i;
            let mut r: [__m256i; B] = std::array::from_fn(|i| _mm256_load_si256(src.add(i)));
            let w1 = job.w1.add(at);
            for &f in job.adds {
                let row = w1.add((f ^ flip) as usize * job.n) as *const __m256i;
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm256_add_epi16(*x, _mm256_load_si256(row.add(i)));
                }
            }
            for &f in job.subs {
                let row = w1.add((f ^ flip) as usize * job.n) as *const __m256i;
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm256_sub_epi16(*x, _mm256_load_si256(row.add(i)));
                }
            }
            let dst = job.dst[v].add(at) as *mut __m256i;
            for (i, x) in r.iter().enumerate() {
                _mm256_store_si256(dst.add(i), *x);
            }
        }
    }

    /// Each view in blocks of 8 chunks (half the registers), then 4, 2 and 1.
    ///
    /// # Safety
    /// AVX2, and `job` as `Job` says.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(job: Job) {
        let n = job.n;
        for v in 0..2 {
            let mut at = 0;
            // SAFETY: each block lies inside the `n` chunks.
            unsafe {
                while at + 8 <= n {
                    block::<8>(&job, v, at);
                    at += 8;
                }
                if at + 4 <= n {
                    block::<4>(&job, v, at);
                    at += 4;
                }
                if at + 2 <= n {
                    block::<2>(&job, v, at);
                    at += 2;
                }
                if at < n {
                    block::<1>(&job, v, at);
                }
            }
        }
    }

    /// One chunk's SCReLU products, added pairwise into eight `i32`.
    ///
    /// # Safety
    /// AVX2; `a` and `w` point to a chunk each.
    #[inline(always)]
    pub(super) unsafe fn dot_chunk(a: *const Chunk, w: *const Chunk) -> __m256i {
        // SAFETY: the caller's promises; chunks are 32-byte aligned.
        unsafe {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let v = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(a as _), zero), qa);
            // v * w fits an i16; madd multiplies by v again and adds pairs into i32.
            let vw = _mm256_mullo_epi16(v, _mm256_load_si256(w as _));
            _mm256_madd_epi16(vw, v)
        }
    }

    /// The eight `i32` of `x` summed.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    pub(super) unsafe fn hsum(x: __m256i) -> i32 {
        // SAFETY: register arithmetic only.
        unsafe {
            let x = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
            _mm_cvtsi128_si32(x)
        }
    }

    /// See `super::screlu_dot`.
    ///
    /// # Safety
    /// AVX2; `us`, `them` point to `n` chunks, `w` to `2 n`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(
        us: *const Chunk,
        them: *const Chunk,
        w: *const Chunk,
        n: usize,
    ) -> i32 {
        // SAFETY: the caller's promises.
        unsafe {
            // Two sums, to overlap the multiplies.
            let (mut s0, mut s1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for i in 0..n {
                s0 = _mm256_add_epi32(s0, dot_chunk(us.add(i), w.add(i)));
                s1 = _mm256_add_epi32(s1, dot_chunk(them.add(i), w.add(n + i)));
            }
            hsum(_mm256_add_epi32(s0, s1))
        }
    }
}

/// The AVX-512 versions: two chunks a register, an odd last chunk in an AVX2 register.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{avx2, Chunk, Job, FLIP, QA};
    use std::arch::x86_64::*;

    /// `B` registers (`2 B` chunks) at chunk `at` of view `v`, as `avx2::block`.
    ///
    /// # Safety
    /// AVX-512 F and BW; chunks `at..at + 2 B` lie inside the width of `job`.
    #[inline(always)]
    unsafe fn block<const B: usize>(job: &Job, v: usize, at: usize) {
        let flip = if v == 0 { 0 } else { FLIP };
        // SAFETY: the caller's promises (loads and stores unaligned: a chunk is only
        // 32-byte aligned).
        unsafe {
            let src = job.src[v].add(at) as *const __m512i;
            let mut r: [__m512i; B] = std::array::from_fn(|i| _mm512_loadu_si512(src.add(i)));
            let w1 = job.w1.add(at);
            for &f in job.adds {
                let row = w1.add((f ^ flip) as usize * job.n) as *const __m512i;
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm512_add_epi16(*x, _mm512_loadu_si512(row.add(i)));
                }
            }
            for &f in job.subs {
                let row = w1.add((f ^ flip) as usize * job.n) as *const __m512i;
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm512_sub_epi16(*x, _mm512_loadu_si512(row.add(i)));
                }
            }
            let dst = job.dst[v].add(at) as *mut __m512i;
            for (i, x) in r.iter().enumerate() {
                _mm512_storeu_si512(dst.add(i), *x);
            }
        }
    }

    /// Each view in blocks of 8 registers (a quarter of them: 256 `i16`, today's width, is
    /// one block of 8), then 4, 2, 1 and an odd chunk.
    ///
    /// # Safety
    /// AVX-512 F and BW, and `job` as `Job` says.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub unsafe fn update(job: Job) {
        let n = job.n;
        for v in 0..2 {
            let mut at = 0;
            // SAFETY: each block lies inside the `n` chunks.
            unsafe {
                while at + 16 <= n {
                    block::<8>(&job, v, at);
                    at += 16;
                }
                if at + 8 <= n {
                    block::<4>(&job, v, at);
                    at += 8;
                }
                if at + 4 <= n {
                    block::<2>(&job, v, at);
                    at += 4;
                }
                if at + 2 <= n {
                    block::<1>(&job, v, at);
                    at += 2;
                }
                if at < n {
                    avx2::block::<1>(&job, v, at);
                }
            }
        }
    }

    /// Two chunks' SCReLU products, added pairwise into sixteen `i32`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `a` and `w` point to two chunks each.
    #[inline(always)]
    unsafe fn dot2(a: *const Chunk, w: *const Chunk) -> __m512i {
        // SAFETY: the caller's promises.
        unsafe {
            let zero = _mm512_setzero_si512();
            let qa = _mm512_set1_epi16(QA as i16);
            let v = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(a as _), zero), qa);
            let vw = _mm512_mullo_epi16(v, _mm512_loadu_si512(w as _));
            _mm512_madd_epi16(vw, v)
        }
    }

    /// See `super::screlu_dot`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `us`, `them` point to `n` chunks, `w` to `2 n`.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub unsafe fn screlu_dot(
        us: *const Chunk,
        them: *const Chunk,
        w: *const Chunk,
        n: usize,
    ) -> i32 {
        // SAFETY: the caller's promises.
        unsafe {
            let (mut s0, mut s1) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            let mut i = 0;
            while i + 2 <= n {
                s0 = _mm512_add_epi32(s0, dot2(us.add(i), w.add(i)));
                s1 = _mm512_add_epi32(s1, dot2(them.add(i), w.add(n + i)));
                i += 2;
            }
            let mut sum = _mm512_reduce_add_epi32(_mm512_add_epi32(s0, s1));
            if i < n {
                let odd = _mm256_add_epi32(
                    avx2::dot_chunk(us.add(i), w.add(i)),
                    avx2::dot_chunk(them.add(i), w.add(n + i)),
                );
                sum = sum.wrapping_add(avx2::hsum(odd));
            }
            sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::SplitMix64;

    fn chunks(rng: &mut SplitMix64, n: usize, lo: i16, hi: i16) -> Vec<Chunk> {
        let span = (hi as i64 - lo as i64 + 1) as u64;
        (0..n)
            .map(|_| Chunk(std::array::from_fn(|_| lo + (rng.next_u64() % span) as i16)))
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
