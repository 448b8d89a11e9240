//! The network's hot loops on `i16` lanes: adding and subtracting first-layer rows into an
//! accumulator, copying one, and the output's SCReLU dot product. Each has a scalar version,
//! always compiled and the reference, and on x86_64 an AVX2 twin chosen at run time (the
//! CPU is asked once). Both give exactly the same results: the accumulator arithmetic wraps
//! (exact and reversible; the weight limits keep the true values inside `i16` anyway), and
//! in the dot product `v * w` fits an `i16` (`v <= QA = 127`, `|w| <= 128`).

use super::QA;

/// Lanes of one chunk: one AVX2 register of `i16`.
pub const LANES: usize = 16;

/// Sixteen `i16`, aligned to 32 bytes so that AVX2 loads and stores are aligned. Every
/// accumulator and weight row is a slice of chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Chunk(pub [i16; LANES]);

/// Whether the AVX2 paths are taken (asked of the CPU once).
#[inline]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Checks that every feature's row (`hidden chunks` long, `acc.len()`) lies inside `w1`.
#[inline]
fn check_rows(acc: &[Chunk], w1: &[Chunk], adds: &[u8], subs: &[u8]) {
    // No division here: it is on every update's path.
    let n = acc.len();
    assert!(
        adds.iter()
            .chain(subs)
            .all(|&f| (f as usize + 1) * n <= w1.len()),
        "a feature beyond the rows"
    );
}

/// `acc += row f` for each `f` in `adds`, `acc -= row f` for each in `subs`, where row `f`
/// of `w1` is `w1[f * n..(f + 1) * n]` and `n = acc.len()`. Wrapping arithmetic.
#[inline]
pub fn apply(acc: &mut [Chunk], w1: &[Chunk], adds: &[u8], subs: &[u8]) {
    check_rows(acc, w1, adds, subs);
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2 (asked above), and every row is inside `w1` (checked
        // above).
        unsafe { avx2::apply(acc, w1, adds, subs) };
        return;
    }
    scalar::apply(acc, w1, adds, subs);
}

/// `dst = src`, then `apply` (equal lengths): a copy and an update in one pass.
#[inline]
pub fn apply_from(dst: &mut [Chunk], src: &[Chunk], w1: &[Chunk], adds: &[u8], subs: &[u8]) {
    assert_eq!(dst.len(), src.len());
    check_rows(dst, w1, adds, subs);
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2, the lengths are equal and every row is inside `w1`
        // (all checked above).
        unsafe { avx2::apply_from(dst, src, w1, adds, subs) };
        return;
    }
    scalar::copy(dst, src);
    scalar::apply(dst, w1, adds, subs);
}

/// `dst = src` (equal lengths).
#[inline]
pub fn copy(dst: &mut [Chunk], src: &[Chunk]) {
    assert_eq!(dst.len(), src.len());
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2, and the lengths are equal (checked above).
        unsafe { avx2::copy(dst, src) };
        return;
    }
    scalar::copy(dst, src);
}

/// `sum_i (clamp(acc_i, 0, QA) * w_i) * clamp(acc_i, 0, QA)`, the SCReLU output of one
/// accumulator against its output weights (equal lengths, `|w_i| <= 128`).
#[inline]
pub fn screlu_dot(acc: &[Chunk], w: &[Chunk]) -> i32 {
    assert_eq!(acc.len(), w.len());
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2, and the lengths are equal (checked above).
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    scalar::screlu_dot(acc, w)
}

/// The reference versions, plain Rust (which the compiler vectorises for the baseline CPU).
pub mod scalar {
    use super::{Chunk, QA};

    pub fn apply(acc: &mut [Chunk], w1: &[Chunk], adds: &[u8], subs: &[u8]) {
        let n = acc.len();
        for (c, a) in acc.iter_mut().enumerate() {
            let mut v = a.0;
            for &f in adds {
                let r = &w1[f as usize * n + c].0;
                for (x, y) in v.iter_mut().zip(r) {
                    *x = x.wrapping_add(*y);
                }
            }
            for &f in subs {
                let r = &w1[f as usize * n + c].0;
                for (x, y) in v.iter_mut().zip(r) {
                    *x = x.wrapping_sub(*y);
                }
            }
            a.0 = v;
        }
    }

    pub fn copy(dst: &mut [Chunk], src: &[Chunk]) {
        dst.copy_from_slice(src);
    }

    pub fn screlu_dot(acc: &[Chunk], w: &[Chunk]) -> i32 {
        let mut sum = 0i32;
        for (a, w) in acc.iter().zip(w) {
            for (&x, &y) in a.0.iter().zip(&w.0) {
                let v = x.clamp(0, QA as i16);
                // `v * y` fits an i16 (the AVX2 path multiplies in i16).
                sum += (v.wrapping_mul(y) as i32) * v as i32;
            }
        }
        sum
    }
}

/// The AVX2 versions. Callers must make sure the CPU has AVX2 (`has_avx2`).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{Chunk, QA};
    use std::arch::x86_64::*;

    #[inline(always)]
    fn ptr(c: &Chunk) -> *const __m256i {
        c as *const Chunk as *const __m256i
    }

    /// `B` chunks from `src` (possibly `dst` itself) with the rows' chunks at the same
    /// offset added and subtracted, kept in registers, stored to `dst`.
    ///
    /// # Safety
    /// The CPU must have AVX2; `src` and `dst` must point to `B` chunks, and `w1 + f * n` to
    /// `B` chunks for every feature `f` given.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn block<const B: usize>(
        dst: *mut Chunk,
        src: *const Chunk,
        w1: *const Chunk,
        n: usize,
        adds: &[u8],
        subs: &[u8],
    ) {
        // SAFETY: the caller's promises; every chunk is 32-byte aligned.
        unsafe {
            let mut r = [_mm256_setzero_si256(); B];
            for (i, x) in r.iter_mut().enumerate() {
                *x = _mm256_load_si256(src.add(i) as *const __m256i);
            }
            for &f in adds {
                let row = w1.add(f as usize * n);
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm256_add_epi16(*x, _mm256_load_si256(row.add(i) as *const __m256i));
                }
            }
            for &f in subs {
                let row = w1.add(f as usize * n);
                for (i, x) in r.iter_mut().enumerate() {
                    *x = _mm256_sub_epi16(*x, _mm256_load_si256(row.add(i) as *const __m256i));
                }
            }
            for (i, x) in r.iter().enumerate() {
                _mm256_store_si256(dst.add(i) as *mut __m256i, *x);
            }
        }
    }

    /// The accumulator in blocks of 8 chunks (half the registers), then 4, 2 and 1.
    ///
    /// # Safety
    /// As `block`, for `n` chunks.
    #[target_feature(enable = "avx2")]
    unsafe fn blocks(
        dst: *mut Chunk,
        src: *const Chunk,
        w1: *const Chunk,
        n: usize,
        adds: &[u8],
        subs: &[u8],
    ) {
        let mut at = 0;
        // SAFETY: each block lies inside the `n` chunks (the caller's promise).
        unsafe {
            while at + 8 <= n {
                block::<8>(dst.add(at), src.add(at), w1.add(at), n, adds, subs);
                at += 8;
            }
            if at + 4 <= n {
                block::<4>(dst.add(at), src.add(at), w1.add(at), n, adds, subs);
                at += 4;
            }
            if at + 2 <= n {
                block::<2>(dst.add(at), src.add(at), w1.add(at), n, adds, subs);
                at += 2;
            }
            if at < n {
                block::<1>(dst.add(at), src.add(at), w1.add(at), n, adds, subs);
            }
        }
    }

    /// See `super::apply`.
    ///
    /// # Safety
    /// The CPU must have AVX2, and every feature's row (`acc.len()` chunks) must lie inside
    /// `w1`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply(acc: &mut [Chunk], w1: &[Chunk], adds: &[u8], subs: &[u8]) {
        let p = acc.as_mut_ptr();
        // SAFETY: the caller's promises; `acc` is both source and destination.
        unsafe { blocks(p, p, w1.as_ptr(), acc.len(), adds, subs) }
    }

    /// See `super::apply_from`.
    ///
    /// # Safety
    /// As `apply`, and `src` as long as `dst`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply_from(
        dst: &mut [Chunk],
        src: &[Chunk],
        w1: &[Chunk],
        adds: &[u8],
        subs: &[u8],
    ) {
        // SAFETY: the caller's promises.
        unsafe {
            blocks(
                dst.as_mut_ptr(),
                src.as_ptr(),
                w1.as_ptr(),
                dst.len(),
                adds,
                subs,
            )
        }
    }

    /// See `super::copy`.
    ///
    /// # Safety
    /// The CPU must have AVX2, and `dst` and `src` must be as long.
    #[target_feature(enable = "avx2")]
    pub unsafe fn copy(dst: &mut [Chunk], src: &[Chunk]) {
        for (d, s) in dst.iter_mut().zip(src) {
            // SAFETY: both point to 32-byte aligned chunks of 32 bytes.
            unsafe {
                _mm256_store_si256(d as *mut Chunk as *mut __m256i, _mm256_load_si256(ptr(s)));
            }
        }
    }

    /// See `super::screlu_dot`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[Chunk], w: &[Chunk]) -> i32 {
        // SAFETY: every pointer comes from a reference to a 32-byte aligned `Chunk`.
        unsafe {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = zero;
            for (a, w) in acc.iter().zip(w) {
                let v = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(ptr(a)), zero), qa);
                // v * w fits an i16; madd multiplies by v again and adds pairs into i32.
                let vw = _mm256_mullo_epi16(v, _mm256_load_si256(ptr(w)));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            }
            let x = _mm_add_epi32(
                _mm256_castsi256_si128(sum),
                _mm256_extracti128_si256::<1>(sum),
            );
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
            _mm_cvtsi128_si32(x)
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

    /// The AVX2 paths equal the scalar ones on random data: wide accumulator values (which
    /// wrap), every clamp case of the activation, the output weights' full range.
    #[test]
    fn simd_equals_scalar() {
        if !has_avx2() {
            eprintln!("this CPU has no AVX2: only the scalar path is in use, nothing to compare");
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let mut rng = SplitMix64::new(11);
            for n in [1, 2, 3, 4, 7, 8, 13, 16, 31, 32] {
                let w1 = chunks(&mut rng, 128 * n, i16::MIN, i16::MAX);
                for _ in 0..50 {
                    let base = chunks(&mut rng, n, i16::MIN, i16::MAX);
                    let adds: Vec<u8> = (0..rng.next_u64() % 25)
                        .map(|_| rng.next_u64() as u8 % 128)
                        .collect();
                    let subs: Vec<u8> = (0..rng.next_u64() % 25)
                        .map(|_| rng.next_u64() as u8 % 128)
                        .collect();
                    let (mut a, mut b) = (base.clone(), base.clone());
                    scalar::apply(&mut a, &w1, &adds, &subs);
                    // SAFETY: the CPU has AVX2 (checked above).
                    unsafe { avx2::apply(&mut b, &w1, &adds, &subs) };
                    assert_eq!(a, b, "apply, width {n}");
                    let mut d = vec![Chunk::default(); n];
                    // SAFETY: as above; equal lengths.
                    unsafe { avx2::apply_from(&mut d, &base, &w1, &adds, &subs) };
                    assert_eq!(d, a, "apply_from, width {n}");
                    let mut c = vec![Chunk::default(); n];
                    // SAFETY: as above; equal lengths.
                    unsafe { avx2::copy(&mut c, &a) };
                    assert_eq!(c, a);
                    let acc = chunks(&mut rng, n, -300, 300);
                    let w = chunks(&mut rng, n, -128, 128);
                    // SAFETY: as above.
                    let fast = unsafe { avx2::screlu_dot(&acc, &w) };
                    assert_eq!(scalar::screlu_dot(&acc, &w), fast, "dot, width {n}");
                }
            }
        }
    }

    /// The scalar paths do what they say, on numbers small enough to check by hand.
    #[test]
    fn the_scalar_paths_add_subtract_and_activate() {
        let n = 1;
        let w1: Vec<Chunk> = (0..3).map(|f| Chunk([f as i16 + 1; LANES])).collect();
        let mut acc = vec![Chunk([10; LANES]); n];
        apply(&mut acc, &w1, &[0, 2], &[1]);
        assert_eq!(acc[0].0, [10 + 1 + 3 - 2; LANES]);
        apply(&mut acc, &w1, &[1], &[0, 2]);
        assert_eq!(acc[0].0, [10; LANES]);
        let mut a = Chunk([0; LANES]);
        a.0[..4].copy_from_slice(&[-5, 3, 200, 127]);
        let mut w = Chunk([0; LANES]);
        w.0[..4].copy_from_slice(&[100, -2, 128, -128]);
        // -5 clamps to 0; 3 * -2 * 3; 200 clamps to 127.
        let want = -18 + 127 * 128 * 127 - 127 * 128 * 127;
        assert_eq!(screlu_dot(&[a], &[w]), want);
        assert_eq!(scalar::screlu_dot(&[a], &[w]), want);
    }
}
