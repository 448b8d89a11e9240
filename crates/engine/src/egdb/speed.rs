//! Probe speed (`egdb speed`): probes per second on random positions of the tables in memory.

use crate::core::position::Position;
use crate::core::rng::SplitMix64;
use crate::egdb::index::flip;
use crate::egdb::Egdb;
use crate::time_source::Instant;
use std::time::Duration;

/// Random positions of the present groups up to `db.max_pieces()`, each group as likely as
/// its share of the positions, half with White to move. Empty without tables.
pub fn random_positions(db: &Egdb, n: usize, seed: u64) -> Vec<Position> {
    let groups: Vec<_> = db
        .tables()
        .present()
        .into_iter()
        .filter(|g| g.pieces() <= db.max_pieces())
        .collect();
    let total: u64 = groups.iter().map(|g| g.size()).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let mut r = rng.next_u64() % total;
            let g = groups
                .iter()
                .find(|g| {
                    let hit = r < g.size();
                    if !hit {
                        r -= g.size();
                    }
                    hit
                })
                .expect("r is below the total");
            let p = g.position(r);
            if rng.next_u64() & 1 == 1 {
                flip(&p)
            } else {
                p
            }
        })
        .collect()
}

/// Probe `positions` `rounds` times after one untimed round (a warm cache): the probes made,
/// the time they took, and how many answered (so the work cannot be skipped).
pub fn time_probes(db: &Egdb, positions: &[Position], rounds: usize) -> (usize, Duration, usize) {
    let found = positions.iter().filter(|p| db.probe(p).is_some()).count();
    let start = Instant::now();
    let mut answered = 0;
    for _ in 0..rounds {
        answered += positions.iter().filter(|p| db.probe(p).is_some()).count();
    }
    debug_assert_eq!(answered, found * rounds);
    (positions.len() * rounds, start.elapsed(), answered)
}
