//! FNV-1a, 64 bits, a byte at a time: the one checksum of every file poolshark writes with
//! one (books, networks, trainer checkpoints) and the hash of run settings and game ids.
//! Any single changed or missing byte changes it, and it is a few lines to write. The
//! endgame tables fold a 64-bit word at a time instead (`egdb::pack::checksum`), a
//! different function for their far larger files.

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(OFFSET, bytes)
}

/// FNV-1a of `bytes` continued from `h`, the hash of what came before them, so that a long
/// input can be hashed a piece at a time: `fnv1a_from(fnv1a(a), b) == fnv1a(a ++ b)`.
pub fn fnv1a_from(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(PRIME);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    /// The published test values of 64-bit FNV-1a.
    #[test]
    fn known_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(super::fnv1a_from(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
    }
}
