//! The x86_64 instances of `kernels::Lanes`: AVX2 (a register is one chunk) and AVX-512 F and
//! BW (two chunks; an odd last chunk goes to AVX2), and their entry points, which enable the
//! instruction set so that the generic loops compile with its intrinsics inline.

use super::kernels::{self, Chunk, Job, Lanes, LANES};
use std::arch::x86_64::*;

/// AVX2: sixteen `i16` a register, one chunk, so loads and stores are aligned.
pub struct Avx2;

impl Lanes for Avx2 {
    type V = __m256i;
    type S = __m256i;
    type Tail = Avx2;
    const WIDTH: usize = LANES;
    // Half of the sixteen registers.
    const BLOCK: usize = 8;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> __m256i {
        // SAFETY: AVX2, and `p` a chunk, 32-byte aligned (the trait's contract).
        unsafe { _mm256_load_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, x: __m256i) {
        // SAFETY: as `load`.
        unsafe { _mm256_store_si256(p.cast(), x) }
    }
    #[inline(always)]
    unsafe fn splat(x: i16) -> __m256i {
        // SAFETY: AVX2 (the trait's contract), as for every operation below.
        unsafe { _mm256_set1_epi16(x) }
    }
    #[inline(always)]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_add_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_sub_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn min(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_min_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn max(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_max_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn mul(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_mullo_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn madd(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_madd_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn zero_sums() -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn add_sums(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    unsafe fn total(x: __m256i) -> i32 {
        // SAFETY: AVX2.
        unsafe {
            let x = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
            _mm_cvtsi128_si32(x)
        }
    }
}

/// AVX-512 F and BW: thirty-two `i16` a register, two chunks, so loads and stores are
/// unaligned (a chunk is only 32-byte aligned); an odd last chunk is AVX2's.
pub struct Avx512;

impl Lanes for Avx512 {
    type V = __m512i;
    type S = __m512i;
    type Tail = Avx2;
    const WIDTH: usize = 2 * LANES;
    // A quarter of the thirty-two registers: 256 `i16`, today's width, is one block.
    const BLOCK: usize = 8;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> __m512i {
        // SAFETY: AVX-512 F, and `p` two chunks (the trait's contract).
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, x: __m512i) {
        // SAFETY: as `load`.
        unsafe { _mm512_storeu_si512(p.cast(), x) }
    }
    #[inline(always)]
    unsafe fn splat(x: i16) -> __m512i {
        // SAFETY: AVX-512 F and BW (the trait's contract), as for every operation below.
        unsafe { _mm512_set1_epi16(x) }
    }
    #[inline(always)]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_add_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_sub_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn min(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_min_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn max(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_max_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn mul(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_mullo_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn madd(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 BW.
        unsafe { _mm512_madd_epi16(a, b) }
    }
    #[inline(always)]
    unsafe fn zero_sums() -> __m512i {
        // SAFETY: AVX-512 F.
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    unsafe fn add_sums(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512 F.
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    unsafe fn total(x: __m512i) -> i32 {
        // SAFETY: AVX-512 F.
        unsafe { _mm512_reduce_add_epi32(x) }
    }
}

/// `kernels::update` with AVX2.
///
/// # Safety
/// AVX2, and `job` as `Job` says.
#[target_feature(enable = "avx2")]
pub unsafe fn update_avx2(job: Job) {
    // SAFETY: the caller's promises.
    unsafe { kernels::update::<Avx2>(job) }
}

/// `kernels::screlu_dot` with AVX2.
///
/// # Safety
/// AVX2; `us`, `them` point to `n` chunks, `w` to `2 n`.
#[target_feature(enable = "avx2")]
pub unsafe fn screlu_dot_avx2(
    us: *const Chunk,
    them: *const Chunk,
    w: *const Chunk,
    n: usize,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe { kernels::screlu_dot::<Avx2>(us, them, w, n) }
}

/// `kernels::update` with AVX-512 (and AVX2 for an odd chunk).
///
/// # Safety
/// AVX-512 F and BW and AVX2, and `job` as `Job` says.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub unsafe fn update_avx512(job: Job) {
    // SAFETY: the caller's promises.
    unsafe { kernels::update::<Avx512>(job) }
}

/// `kernels::screlu_dot` with AVX-512 (and AVX2 for an odd chunk).
///
/// # Safety
/// AVX-512 F and BW and AVX2; `us`, `them` point to `n` chunks, `w` to `2 n`.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub unsafe fn screlu_dot_avx512(
    us: *const Chunk,
    them: *const Chunk,
    w: *const Chunk,
    n: usize,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe { kernels::screlu_dot::<Avx512>(us, them, w, n) }
}
