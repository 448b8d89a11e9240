//! The endgame tables' tunables, in one place. Changing `PACK_BLOCK` or `PACK_LEVEL` changes
//! only newly written files (a file records its block size); readers take either.

/// Positions per compressed block. Larger blocks compress better; smaller ones cost less to
/// decompress on a cache miss. On the 5-piece tables, zstd level 9: 8,192 gives 11.9 MB,
/// 16,384 11.1 MB, 32,768 10.9 MB, 65,536 10.6 MB (`examples/egdb_pack_sizes.rs`).
pub const PACK_BLOCK: usize = 16384;

/// The zstd level blocks are written with. On the 5-piece tables at 16,384 a block: level 3
/// 13.7 MB in 12.8 s, 9 11.1 MB in 16.1 s, 12 11.1 MB, 15 9.9 MB in 48.9 s, 19 9.8 MB in
/// 80 s. Level 9 keeps the 6-piece build's packing to minutes.
pub const PACK_LEVEL: i32 = 9;

/// Decompressed blocks kept for probes (each at most `2 * PACK_BLOCK` bytes, mostly
/// `PACK_BLOCK`: about 32 MiB in all, 64 MiB at most).
pub const CACHE_SLOTS: usize = 2048;
