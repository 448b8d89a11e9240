//! The WebAssembly SIMD128 instance of `kernels::Lanes` (a register is half a chunk), and its
//! entry points. Compiled only where the target has `simd128` enabled at build time
//! (`-C target-feature=+simd128`): WebAssembly has no run-time check, and a module that uses
//! SIMD128 does not load in an engine without it.

use super::kernels::{self, Chunk, Job, Lanes, LANES};
use core::arch::wasm32::*;

/// SIMD128: eight `i16` a register.
pub struct Simd128;

impl Lanes for Simd128 {
    type V = v128;
    type S = v128;
    type Tail = Simd128;
    const WIDTH: usize = LANES / 2;
    // Engines map the registers to the host's (sixteen on x86_64 with SSE): half of them.
    const BLOCK: usize = 8;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> v128 {
        // SAFETY: `p` points to eight lanes (the trait's contract); loads need no alignment.
        unsafe { v128_load(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, x: v128) {
        // SAFETY: as `load`.
        unsafe { v128_store(p.cast(), x) }
    }
    #[inline(always)]
    unsafe fn splat(x: i16) -> v128 {
        i16x8_splat(x)
    }
    #[inline(always)]
    unsafe fn add(a: v128, b: v128) -> v128 {
        i16x8_add(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: v128, b: v128) -> v128 {
        i16x8_sub(a, b)
    }
    #[inline(always)]
    unsafe fn min(a: v128, b: v128) -> v128 {
        i16x8_min(a, b)
    }
    #[inline(always)]
    unsafe fn max(a: v128, b: v128) -> v128 {
        i16x8_max(a, b)
    }
    #[inline(always)]
    unsafe fn mul(a: v128, b: v128) -> v128 {
        i16x8_mul(a, b)
    }
    #[inline(always)]
    unsafe fn madd(a: v128, b: v128) -> v128 {
        i32x4_dot_i16x8(a, b)
    }
    #[inline(always)]
    unsafe fn zero_sums() -> v128 {
        i32x4_splat(0)
    }
    #[inline(always)]
    unsafe fn add_sums(a: v128, b: v128) -> v128 {
        i32x4_add(a, b)
    }
    #[inline(always)]
    unsafe fn total(x: v128) -> i32 {
        let x = i32x4_add(x, i32x4_shuffle::<2, 3, 0, 1>(x, x));
        let x = i32x4_add(x, i32x4_shuffle::<1, 0, 3, 2>(x, x));
        i32x4_extract_lane::<0>(x)
    }
}

/// `kernels::update` with SIMD128.
///
/// # Safety
/// `job` as `Job` says.
pub unsafe fn update(job: Job) {
    // SAFETY: the caller's promises; the build has SIMD128.
    unsafe { kernels::update::<Simd128>(job) }
}

/// `kernels::screlu_dot` with SIMD128.
///
/// # Safety
/// `us`, `them` point to `n` chunks, `w` to `2 n`.
pub unsafe fn screlu_dot(us: *const Chunk, them: *const Chunk, w: *const Chunk, n: usize) -> i32 {
    // SAFETY: the caller's promises; the build has SIMD128.
    unsafe { kernels::screlu_dot::<Simd128>(us, them, w, n) }
}
