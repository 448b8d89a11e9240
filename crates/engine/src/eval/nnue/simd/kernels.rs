//! The network's hot loops, each written once over `Lanes`: the few register operations
//! (load, store, add, subtract, min, max, multiply, multiply-add, sums) that every instruction
//! set has alike. An instance of `Lanes` is one instruction set: `Scalar` here, plain Rust and
//! the reference; AVX2 and AVX-512 in `x86`; WebAssembly SIMD128 in `wasm`. A loop changed
//! here changes in every instance, and the tests hold the instances bit-equal to `Scalar`.
//!
//! The loops and the operations are all `#[inline(always)]`: an instance's entry point (a
//! `#[target_feature]` function on x86) compiles them into one loop with the intrinsics
//! inline, as a loop written by hand for that instruction set would be.
//!
//! This file uses nothing of the crate but `super::QA`, so that a test crate for another
//! target can include it by path (`scripts/simd128-check.sh`).

use super::QA;

/// Lanes of one chunk: one AVX2 register of `i16`.
pub const LANES: usize = 16;

/// Sixteen `i16`, aligned to 32 bytes so that AVX2 loads and stores are aligned. Every
/// accumulator and weight row is a slice of chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Chunk(pub [i16; LANES]);

/// A feature as White sees it XOR this is the same piece as Black sees it: the plane's
/// colours swap (plane `p` to `p ^ 2`, bit 6 of the feature) and the board turns half a
/// turn (square `s` to `31 - s`, the low five bits).
pub const FLIP: u8 = 0b101_1111;

/// The two views' destinations and sources, and the row table: what every update loop takes.
/// View 0 is White's, view 1 Black's (its rows are the features `^ FLIP`). `dst[v]` and
/// `src[v]` may be the same accumulator; each points to `n` chunks, `w1` to a row of `n`
/// chunks for every feature of `adds` and `subs`.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub dst: [*mut Chunk; 2],
    pub src: [*const Chunk; 2],
    pub w1: *const Chunk,
    /// Chunks of one accumulator (and one row).
    pub n: usize,
    pub adds: &'a [u8],
    pub subs: &'a [u8],
}

/// One instruction set's registers of `i16` and the operations the loops are written in.
///
/// # Safety
/// Every function needs the instruction set (the SIMD instances' loops run inside a
/// `#[target_feature]` function, where these inline); `load` and `store` take a pointer to
/// `WIDTH` lanes, aligned as a chunk is if `WIDTH` is a whole number of chunks.
pub trait Lanes {
    /// A register of `WIDTH` `i16`.
    type V: Copy;
    /// A register of `i32` sums.
    type S: Copy;
    /// The instance for what is left of a width after this instance's registers: only one
    /// whose register is wider than a chunk leaves anything, and its `Tail` is a chunk wide
    /// or narrower.
    type Tail: Lanes;
    /// `i16` lanes of a register.
    const WIDTH: usize;
    /// Registers the update loop keeps at once (1, 2, 4 or 8): about half of them, the rest
    /// hold the rows.
    const BLOCK: usize;

    unsafe fn load(p: *const i16) -> Self::V;
    unsafe fn store(p: *mut i16, x: Self::V);
    unsafe fn splat(x: i16) -> Self::V;
    /// Lane by lane, wrapping.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Lane by lane, wrapping.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn min(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// The low 16 bits of each lane's product.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// The lanes' products `a[i] * b[i]` in `i32`, each lane of the sums the sum of some of
    /// them (pairs on x86 and SIMD128, `a[2k] * b[2k] + a[2k + 1] * b[2k + 1]`, wrapping):
    /// only `total` reads them, and its sum is the same either way.
    unsafe fn madd(a: Self::V, b: Self::V) -> Self::S;
    unsafe fn zero_sums() -> Self::S;
    /// Lane by lane, wrapping.
    unsafe fn add_sums(a: Self::S, b: Self::S) -> Self::S;
    /// The lanes of `s` added, wrapping.
    unsafe fn total(s: Self::S) -> i32;
}

/// `job` with the registers of `L`: each view in blocks of `L::BLOCK` registers, then one
/// block of each smaller power of two that fits, then any last chunk in `L::Tail`'s.
///
/// # Safety
/// `L`'s instruction set, and `job` as `Job` says.
#[inline(always)]
pub unsafe fn update<L: Lanes>(job: Job) {
    const {
        assert!(matches!(L::BLOCK, 1 | 2 | 4 | 8));
        assert!(L::WIDTH.is_multiple_of(LANES) || LANES.is_multiple_of(L::WIDTH));
        assert!(LANES.is_multiple_of(<L::Tail as Lanes>::WIDTH));
    }
    let width = job.n * LANES;
    for v in 0..2 {
        let mut at = 0;
        // SAFETY: each block lies inside the `width` lanes; the caller's promises.
        unsafe {
            blocks::<L, 8>(&job, v, &mut at);
            blocks::<L, 4>(&job, v, &mut at);
            blocks::<L, 2>(&job, v, &mut at);
            blocks::<L, 1>(&job, v, &mut at);
            // Only a register wider than a chunk leaves lanes over (a width is whole chunks).
            while L::WIDTH > LANES && at < width {
                block::<L::Tail, 1>(&job, v, at);
                at += <L::Tail as Lanes>::WIDTH;
            }
        }
    }
}

/// Blocks of `B` registers from lane `at` of view `v`: while they fit if `B` is `L::BLOCK`,
/// else one if it fits, none if `B` is larger.
///
/// # Safety
/// As `update`.
#[inline(always)]
unsafe fn blocks<L: Lanes, const B: usize>(job: &Job, v: usize, at: &mut usize) {
    let (size, width) = (B * L::WIDTH, job.n * LANES);
    // SAFETY: the block lies inside the width; the caller's promises.
    unsafe {
        if B == L::BLOCK {
            while *at + size <= width {
                block::<L, B>(job, v, *at);
                *at += size;
            }
        } else if B < L::BLOCK && *at + size <= width {
            block::<L, B>(job, v, *at);
            *at += size;
        }
    }
}

/// `B` registers at lane `at` of view `v`: loaded, moved by the rows in registers, stored.
///
/// # Safety
/// `L`'s instruction set; lanes `at..at + B * L::WIDTH` lie inside the width of `job`, and
/// `at` is a whole number of registers.
#[inline(always)]
unsafe fn block<L: Lanes, const B: usize>(job: &Job, v: usize, at: usize) {
    let flip = if v == 0 { 0 } else { FLIP };
    let width = job.n * LANES;
    // SAFETY: the caller's promises: every register read or written lies inside an
    // accumulator or a row (each feature below the row count, `Job`), and each is read
    // before it is written, so `dst` may be `src`.
    unsafe {
        let src = job.src[v].cast::<i16>().add(at);
        let mut r: [L::V; B] = std::array::from_fn(|i| L::load(src.add(i * L::WIDTH)));
        let w1 = job.w1.cast::<i16>().add(at);
        for &f in job.adds {
            let row = w1.add((f ^ flip) as usize * width);
            for (i, x) in r.iter_mut().enumerate() {
                *x = L::add(*x, L::load(row.add(i * L::WIDTH)));
            }
        }
        for &f in job.subs {
            let row = w1.add((f ^ flip) as usize * width);
            for (i, x) in r.iter_mut().enumerate() {
                *x = L::sub(*x, L::load(row.add(i * L::WIDTH)));
            }
        }
        let dst = job.dst[v].cast::<i16>().add(at);
        for (i, x) in r.iter().enumerate() {
            L::store(dst.add(i * L::WIDTH), *x);
        }
    }
}

/// The SCReLU output of both views: `sum_i (v_i * w_i) * v_i` with `v = clamp(acc, 0, QA)`,
/// over `us` against `w`'s first half and `them` against its second, with `L`'s registers
/// (and `L::Tail`'s for any last chunk).
///
/// # Safety
/// `L`'s instruction set; `us`, `them` point to `n` chunks, `w` to `2 n`.
#[inline(always)]
pub unsafe fn screlu_dot<L: Lanes>(
    us: *const Chunk,
    them: *const Chunk,
    w: *const Chunk,
    n: usize,
) -> i32 {
    let width = n * LANES;
    let (us, them, w) = (us.cast::<i16>(), them.cast::<i16>(), w.cast::<i16>());
    // SAFETY: every register read lies inside its slice; the caller's promises.
    unsafe {
        // Two sums, to overlap the multiplies.
        let (mut s0, mut s1) = (L::zero_sums(), L::zero_sums());
        let mut i = 0;
        while i + L::WIDTH <= width {
            s0 = L::add_sums(s0, dot::<L>(us.add(i), w.add(i)));
            s1 = L::add_sums(s1, dot::<L>(them.add(i), w.add(width + i)));
            i += L::WIDTH;
        }
        let mut sum = L::total(L::add_sums(s0, s1));
        while L::WIDTH > LANES && i < width {
            let last = <L::Tail as Lanes>::add_sums(
                dot::<L::Tail>(us.add(i), w.add(i)),
                dot::<L::Tail>(them.add(i), w.add(width + i)),
            );
            sum = sum.wrapping_add(<L::Tail as Lanes>::total(last));
            i += <L::Tail as Lanes>::WIDTH;
        }
        sum
    }
}

/// One register's SCReLU products, added pairwise into `i32`.
///
/// # Safety
/// `L`'s instruction set; `a` and `w` point to a register each.
#[inline(always)]
unsafe fn dot<L: Lanes>(a: *const i16, w: *const i16) -> L::S {
    // SAFETY: the caller's promises.
    unsafe {
        let v = L::min(L::max(L::load(a), L::splat(0)), L::splat(QA as i16));
        // v * w fits an i16 (`v <= QA`, `|w| <= 128`); madd multiplies by v again and adds
        // pairs into i32.
        L::madd(L::mul(v, L::load(w)), v)
    }
}

/// The reference instance, plain Rust: a register is a chunk, which the compiler vectorises
/// for the baseline CPU, one at a time as the loops were before they were generic.
pub struct Scalar;

impl Lanes for Scalar {
    type V = [i16; LANES];
    // A sum a lane: pairing the products costs shuffles that SSE2 has no need of.
    type S = [i32; LANES];
    type Tail = Scalar;
    const WIDTH: usize = LANES;
    const BLOCK: usize = 1;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> Self::V {
        // SAFETY: `p` points to `LANES` lanes (the trait's contract).
        unsafe { p.cast::<Self::V>().read() }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, x: Self::V) {
        // SAFETY: `p` points to `LANES` lanes (the trait's contract).
        unsafe { p.cast::<Self::V>().write(x) }
    }
    #[inline(always)]
    unsafe fn splat(x: i16) -> Self::V {
        [x; LANES]
    }
    #[inline(always)]
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }
    #[inline(always)]
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i].wrapping_sub(b[i]))
    }
    #[inline(always)]
    unsafe fn min(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i].min(b[i]))
    }
    #[inline(always)]
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i].max(b[i]))
    }
    #[inline(always)]
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V {
        std::array::from_fn(|i| a[i].wrapping_mul(b[i]))
    }
    #[inline(always)]
    unsafe fn madd(a: Self::V, b: Self::V) -> Self::S {
        std::array::from_fn(|i| a[i] as i32 * b[i] as i32)
    }
    #[inline(always)]
    unsafe fn zero_sums() -> Self::S {
        [0; LANES]
    }
    #[inline(always)]
    unsafe fn add_sums(a: Self::S, b: Self::S) -> Self::S {
        std::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }
    #[inline(always)]
    unsafe fn total(s: Self::S) -> i32 {
        s.iter().fold(0, |t, &x| t.wrapping_add(x))
    }
}
