//! The seeds of the engine's random choices, from the environment: `POOLSHARK_BOOK_SEED`
//! for the book's picks and `POOLSHARK_LEVEL_SEED` for a playing level's, else a fresh seed
//! from the clock and the process id, so that two runs started at once still differ.

use poolshark_engine::core::rng::SplitMix64;
use poolshark_engine::time_source::unix_time;
use std::ffi::OsString;

/// The environment variable that seeds the book's choices.
pub const BOOK_SEED_VAR: &str = "POOLSHARK_BOOK_SEED";
/// The environment variable that seeds the level picks of the Hub and the board.
pub const LEVEL_SEED_VAR: &str = "POOLSHARK_LEVEL_SEED";

/// The seed an environment variable `var` holding `value` gives: none where it is unset or
/// empty (as a shell's `VAR=` means), a whole number (spaces around it allowed), or an
/// error that names the variable and the value, so that a mistyped seed is never taken,
/// without a word, as no seed at all.
pub fn parse_env_seed(var: &str, value: Option<OsString>) -> Result<Option<u64>, String> {
    let Some(value) = value.filter(|v| !v.to_string_lossy().trim().is_empty()) else {
        return Ok(None);
    };
    value
        .to_str()
        .and_then(|s| s.trim().parse().ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "{var}={:?} is not a seed: give a whole number from 0 to {}, or unset it for \
                 a random one",
                poolshark_engine::echo::shorten_numbers(&value.to_string_lossy()),
                u64::MAX
            )
        })
}

/// The seed in environment variable `var` (`parse_env_seed`); `cli::main` reports a bad
/// one before the Hub or the board starts.
pub fn env_seed(var: &str) -> Result<Option<u64>, String> {
    parse_env_seed(var, std::env::var_os(var))
}

/// A seed for choices that should differ between runs: the clock and the process id.
pub fn fresh() -> u64 {
    unix_time().as_nanos() as u64 ^ std::process::id() as u64
}

/// The generator seeded from `var` if it is set, else `fresh`. (A bad value was refused at
/// start: `env_seed`.)
pub fn rng(var: &str) -> SplitMix64 {
    SplitMix64::new(env_seed(var).ok().flatten().unwrap_or_else(fresh))
}

/// The generator of the book's picks (`BOOK_SEED_VAR`).
pub fn book_rng() -> SplitMix64 {
    rng(BOOK_SEED_VAR)
}

/// The generator of a playing level's picks (`LEVEL_SEED_VAR`).
pub fn level_rng() -> SplitMix64 {
    rng(LEVEL_SEED_VAR)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 58, item 16: a seed variable that is set but no number is an error naming it.
    #[test]
    fn an_env_seed_is_a_number_or_an_error() {
        let p = |v: Option<&str>| parse_env_seed("SEED", v.map(OsString::from));
        assert_eq!(p(None), Ok(None));
        assert_eq!(p(Some(" ")), Ok(None));
        assert_eq!(p(Some(" 42 ")), Ok(Some(42)));
        assert_eq!(p(Some("0")), Ok(Some(0)));
        for bad in ["abc", "-1", "1.5", "18446744073709551616", "4\n2"] {
            let e = p(Some(bad)).unwrap_err();
            assert!(e.starts_with("SEED=\""), "{bad}: {e}");
            assert!(e.contains("is not a seed"), "{bad}: {e}");
        }
    }
}
