//! The network's instruction set as the environment asks for it: `POOLSHARK_SIMD=avx2` or
//! `=scalar` (any word of `eval::nnue::simd::Level`'s) asks for a lower level than the best
//! this CPU runs, to measure the twins against each other.

use poolshark_engine::eval::nnue::simd::Level;

/// Pass `POOLSHARK_SIMD`, if set, to the engine before the first evaluation
/// (`Level::prefer`); a word it refuses gets a warning on stderr.
pub fn apply_env() {
    if let Ok(word) = std::env::var("POOLSHARK_SIMD") {
        Level::prefer(&word);
    }
}
