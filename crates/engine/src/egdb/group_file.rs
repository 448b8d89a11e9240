//! A group's table file: a header (magic, version, group, count, checksum), then the
//! compressed values (`pack`). Kept in a `Store`, which saves a file whole or not at all; its checksum is checked when read, so a truncated or altered file is refused with
//! the reason, never half-used. A file larger than its group's body can be
//! (`pack::max_body_len`) is refused before it is read, and one that fits is read into one
//! buffer, allocated fallibly. Versions 1 (two bytes a position, uncompressed) and 2 (no
//! block checksums) are refused with a note to rebuild, which `egdb build` then does.

use crate::egdb::index::{Group, MAX_PIECES};
use crate::egdb::pack::{self, checksum, Packed};
use crate::egdb::store::Store;

const MAGIC: [u8; 8] = *b"PSEGDB\r\n";
/// Bumped whenever the index, the value layout or this format changes.
pub const VERSION: u32 = 3;
const HEADER: usize = 8 + 4 + 4 + 8 + 8;

/// The name of the file that holds a group.
pub fn name(g: Group) -> String {
    format!("{g}.egdb")
}

/// The most bytes a file of group `g` can take.
pub fn max_len(g: Group) -> u64 {
    HEADER as u64 + pack::max_body_len(g.size())
}

/// The bytes of a group's file.
pub fn encode(g: Group, values: &[u16]) -> Vec<u8> {
    let body = pack::pack(g, values);
    let mut data = Vec::with_capacity(HEADER + body.len());
    data.extend_from_slice(&MAGIC);
    data.extend_from_slice(&VERSION.to_le_bytes());
    data.extend_from_slice(&[g.bm, g.bk, g.wm, g.wk]);
    data.extend_from_slice(&(values.len() as u64).to_le_bytes());
    data.extend_from_slice(&checksum(&body).to_le_bytes());
    data.extend_from_slice(&body);
    data
}

/// Group `g`'s compressed values from a file's bytes, or why they cannot be used.
pub fn decode(g: Group, bytes: Vec<u8>) -> Result<Packed, String> {
    if bytes.len() < HEADER {
        return Err(format!(
            "truncated: {} bytes, shorter than the header",
            bytes.len()
        ));
    }
    if bytes[..8] != MAGIC {
        return Err("not a poolshark endgame table (bad magic)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this build reads {VERSION} (rebuild with egdb build)"
        ));
    }
    if bytes[12..16] != [g.bm, g.bk, g.wm, g.wk] {
        return Err(format!("holds another group than {g}"));
    }
    let count = u64_at(16);
    if count != g.size() {
        return Err(format!("{count} positions, the group has {}", g.size()));
    }
    let sum = u64_at(24);
    if checksum(&bytes[HEADER..]) != sum {
        return Err("checksum mismatch (the file is corrupt or truncated)".into());
    }
    Packed::parse_at(g, bytes, HEADER)
}

/// Store a group's file.
pub fn save(store: &dyn Store, g: Group, values: &[u16]) -> Result<(), String> {
    store.save(&name(g), &encode(g, values))
}

/// The files a set lacks, by name: every group up to the largest piece count that has any
/// file should have one (a build makes them smallest first), and a value whose successors
/// lie in a missing group can be neither used nor verified.
pub fn missing(store: &dyn Store) -> Vec<String> {
    let there = |g: Group| store.exists(&name(g)).unwrap_or(true);
    let Some(top) = (2..=MAX_PIECES)
        .rev()
        .find(|&n| Group::all_with(n).into_iter().any(there))
    else {
        return Vec::new();
    };
    (2..=top)
        .flat_map(Group::all_with)
        .filter(|&g| !there(g))
        .map(name)
        .collect()
}

/// Read a group's file. `Ok(None)`: there is no file; `Err`: a file that cannot be used,
/// with the reason (the place included).
pub fn load(store: &dyn Store, g: Group) -> Result<Option<Packed>, String> {
    let name = name(g);
    if !store.exists(&name)? {
        return Ok(None);
    }
    let bytes = store.read(&name, max_len(g))?;
    decode(g, bytes)
        .map(Some)
        .map_err(|why| format!("{}: {why}", store.place(&name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::{value, Wdl50};

    #[test]
    fn a_file_round_trips_and_damage_is_refused() {
        let g = Group::new(0, 1, 0, 2);
        let values: Vec<u16> = (0..g.size())
            .map(|i| match i % 3 {
                0 => value::encode(Wdl50::Draw, 0),
                1 => value::encode(Wdl50::Win, (i % 300) as u16),
                _ => value::encode(Wdl50::BlessedLoss, 7),
            })
            .collect();
        let bytes = encode(g, &values);
        let back = decode(g, bytes.clone()).unwrap().unpack().unwrap();
        let mut stored = 0;
        for (i, (a, b)) in values.iter().zip(&back).enumerate() {
            if !pack::is_capture(g, i as u64) {
                assert_eq!(a, b, "position {i}");
                stored += 1;
            }
        }
        assert!(stored > 1000, "{stored}");
        let mut flipped = bytes.clone();
        flipped[HEADER + 7] ^= 1;
        assert!(decode(g, flipped).unwrap_err().contains("checksum"));
        let short = bytes[..bytes.len() - 1].to_vec();
        assert!(decode(g, short).unwrap_err().contains("checksum"));
        assert!(decode(g, bytes[..10].to_vec())
            .unwrap_err()
            .contains("truncated"));
        assert!(decode(Group::new(0, 2, 0, 1), bytes.clone()).is_err());
        let mut old = bytes;
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(decode(g, old).unwrap_err().contains("rebuild"));
    }
}
