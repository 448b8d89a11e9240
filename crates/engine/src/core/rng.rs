//! Seeded pseudo-random numbers: the one place the engine and its tools draw them from.
//!
//! `SplitMix64` is the generator for everything new: its step is a `const fn`, so the
//! Zobrist keys and the table keys of the draw counts are made by it at compile time, and it
//! accepts any seed (0 included). `mix64` is its output function on its own, a hash of one
//! number, for draws that must depend on (seed, index) alone and not on what was drawn
//! before. `Xorshift64` is kept for the two tuning tools whose recorded runs were drawn from
//! it (self-play openings and the Texel shuffle): the commands in `tuning/README.md` give
//! the same games and the same data again only with the same numbers. The tests whose
//! random games were drawn from it use it too, so they still check the same positions.

/// SplitMix64's increment (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of SplitMix64 from `state`: (next state, output). A `const fn` for tables made
/// at compile time.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GOLDEN);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// A well-mixed 64-bit hash of `x`: the SplitMix64 output for state `x`.
#[inline]
pub const fn mix64(x: u64) -> u64 {
    splitmix64(x).1
}

/// A number in `0..n` from a 64-bit draw; `n` must not be 0. The modulo's bias is below
/// `n / 2^64`, far too small to matter for the lists drawn from here.
#[inline]
fn reduce(x: u64, n: usize) -> usize {
    (x % n as u64) as usize
}

/// The SplitMix64 generator: the same seed gives the same numbers on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// Seeded from the clock, for choices that should differ between runs where the host
    /// gives no seed (the browser's board; a native host mixes in its process id too).
    pub fn from_clock() -> SplitMix64 {
        SplitMix64::new(crate::time_source::unix_time().as_nanos() as u64)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number in `0..n`; `n` must not be 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        reduce(self.next_u64(), n)
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17), whose output is its state. A seed of 0 gives
/// only zeros, so callers seed it with a non-zero number.
#[derive(Clone, Debug)]
pub struct Xorshift64(u64);

impl Xorshift64 {
    pub const fn new(seed: u64) -> Xorshift64 {
        Xorshift64(seed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`; `n` must not be 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        reduce(self.next_u64(), n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // The first outputs of SplitMix64 from seed 0 (Vigna's reference implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
        assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn xorshift_is_the_13_7_17_generator() {
        let mut r = Xorshift64::new(1);
        let mut s = 1u64;
        for _ in 0..100 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            assert_eq!(r.next_u64(), s);
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = r.below(5);
            assert!(v < 5);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(*SplitMix64::new(3).pick(&[42]), 42);
    }
}
