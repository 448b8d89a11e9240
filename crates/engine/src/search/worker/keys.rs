//! The transposition table's key for a position under its draw counts, and when what the
//! endgame tables say may be stored under it.
//!
//! The key mixes in the draw counts where they can change a result: the lone-king count
//! (R19) always, since three kings against one is rare and every count matters; the 40-move
//! count (R18) once it is within `MAX_SEARCH_PLY` plies of the limit. No line makes more
//! than `MAX_SEARCH_PLY` non-capture moves (the capture search beyond resets the count), so
//! below that threshold the count cannot reach its limit inside any subtree, and entries
//! written at different low counts are interchangeable.

use crate::core::game::DrawCounts;
use crate::core::rng::splitmix64;
use crate::core::rules::{FORTY_MOVE_PLIES, LONE_KING_MOVES};
use crate::core::Position;
use crate::search::params::MAX_SEARCH_PLY;

/// Below this 40-move count, the count cannot matter within one search (see module docs).
const QUIET_COUNT_EXACT_FROM: u16 = (FORTY_MOVE_PLIES as usize - MAX_SEARCH_PLY) as u16;
/// The depth an entry of the endgame tables' result is stored at: above any search depth,
/// so it is always deep enough, and it tells such an entry from a search's.
pub(super) const TABLE_DEPTH: i32 = crate::search::tt::MAX_DEPTH;
// A search starts below `MAX_SEARCH_PLY` plies and extends at most one ply per ply.
const _: () = assert!(TABLE_DEPTH > 2 * MAX_SEARCH_PLY as i32);

/// Whether what the tables say of a position under `counts`, which needs `stake` plies
/// without a capture or man move (`egdb::TableScore::stake`), holds for every position of
/// its table key. The key tells every lone-king count apart, and every 40-move count from
/// `QUIET_COUNT_EXACT_FROM` on; below that, the counts sharing a key leave at least
/// `FORTY_MOVE_PLIES - QUIET_COUNT_EXACT_FROM + 1` plies, so a result needing no more holds
/// for them all. (A deeper database win at a low count is not stored: at another count of
/// the same key it may be a draw.)
pub(super) fn table_result_keys(counts: DrawCounts, stake: u32) -> bool {
    counts.lone_king_moves.is_some()
        || counts.quiet_king_plies >= QUIET_COUNT_EXACT_FROM
        || stake + u32::from(QUIET_COUNT_EXACT_FROM) <= FORTY_MOVE_PLIES + 1
}

/// `COUNT_KEYS` holds first the keys of the lone king's counts (R19)...
const LONE_COUNT_KEYS: usize = 16;
/// ...then those of the 40-move counts from `QUIET_COUNT_EXACT_FROM` on (R18).
const QUIET_COUNT_KEYS: usize = 80;
// Every lone-king count up to the limit has a key, and so has every 40-move count that a
// search can meet from the threshold to the limit.
const _: () = assert!(LONE_KING_MOVES < LONE_COUNT_KEYS as u32);
const _: () = assert!(MAX_SEARCH_PLY < QUIET_COUNT_KEYS);
const _: () = assert!(FORTY_MOVE_PLIES as usize > MAX_SEARCH_PLY);

static COUNT_KEYS: [u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS] = make_count_keys();

const fn make_count_keys() -> [u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS] {
    let mut keys = [0u64; LONE_COUNT_KEYS + QUIET_COUNT_KEYS];
    let mut state = 0xC0FF_EE00_D15E_A5E5u64;
    let mut i = 0;
    while i < keys.len() {
        let (s, v) = splitmix64(state);
        state = s;
        keys[i] = v;
        i += 1;
    }
    keys
}

/// The table key of a position under its draw counts.
#[inline]
pub fn tt_key(pos: &Position, counts: DrawCounts) -> u64 {
    let mut key = pos.key();
    if let Some(n) = counts.lone_king_moves {
        key ^= COUNT_KEYS[(n as usize).min(LONE_KING_MOVES as usize)];
    }
    if counts.quiet_king_plies >= QUIET_COUNT_EXACT_FROM {
        let above = (counts.quiet_king_plies - QUIET_COUNT_EXACT_FROM) as usize;
        key ^= COUNT_KEYS[LONE_COUNT_KEYS + above.min(QUIET_COUNT_KEYS - 1)];
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    #[test]
    fn table_keys_separate_counts_that_can_matter() {
        let pos = parse_fen("W:WK1,K2,K3:BK18").unwrap();
        let key = |quiet, lone| {
            tt_key(
                &pos,
                DrawCounts {
                    quiet_king_plies: quiet,
                    lone_king_moves: lone,
                },
            )
        };
        // Every lone-king count has its own key.
        let lone: Vec<u64> = (0..=LONE_KING_MOVES as u8)
            .map(|n| key(0, Some(n)))
            .collect();
        for i in 0..lone.len() {
            for j in i + 1..lone.len() {
                assert_ne!(lone[i], lone[j], "lone counts {i} and {j}");
            }
        }
        assert_ne!(key(0, Some(0)), key(0, None));
        // Low 40-move counts cannot reach 80 within one search: they share a key...
        assert_eq!(key(0, None), key(QUIET_COUNT_EXACT_FROM - 1, None));
        // ...and from the threshold on, each count has its own.
        let high: Vec<u64> = (QUIET_COUNT_EXACT_FROM..=FORTY_MOVE_PLIES as u16)
            .map(|c| key(c, None))
            .collect();
        for i in 0..high.len() {
            assert_ne!(high[i], key(0, None));
            for j in i + 1..high.len() {
                assert_ne!(high[i], high[j]);
            }
        }
        assert_eq!(
            QUIET_COUNT_EXACT_FROM as usize + MAX_SEARCH_PLY,
            FORTY_MOVE_PLIES as usize
        );
    }
}
