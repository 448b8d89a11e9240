//! Shards: one of N disjoint slices of a long job, so that N processes (on one machine or a
//! cluster) together do the job once. `match` shards by game pair (both games of an opening
//! stay together, so each shard's pairs are complete), `selfplay` by game. Shard `I/N` takes
//! the items with `index % N == I`; every item keeps the opening, colours and seed it has in
//! the unsharded run, so the shards' games together are the unsharded run's games.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`0 <= index < count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole job: shard 0 of 1.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether item `i` (a match's pair index, a self-play game index) is in this shard.
    pub fn contains(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `0 <= I < N`, e.g. `0/4` .. `3/4`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad shard '{s}': give I/N with 0 <= I < N, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_are_refused() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!("0/1".parse(), Ok(Shard::ALL));
        for bad in ["3/2", "2/2", "0/0", "x", "1", "-1/2", "1/x", "", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_items() {
        for count in 1..=7 {
            for i in 0..50 {
                let owners = (0..count)
                    .filter(|&index| Shard { index, count }.contains(i))
                    .count();
                assert_eq!(owners, 1, "item {i}, {count} shards");
            }
        }
    }
}
