//! The endgame tables' tunables, in one place. Changing `PACK_BLOCK` or `PACK_LEVEL` changes
//! only newly written files (a file records its block size); readers take either.

/// Positions per compressed block. Larger blocks compress better; smaller ones cost less to
/// decompress on a cache miss. On the 5-piece tables (`examples/egdb_pack_sizes.rs`, group
/// data): 16,384 at zstd level 9 11.1 MB, 32,768 at 15 9.4 MB, 65,536 at 15 9.0 MB, 131,072
/// at 15 8.7 MB. Probes a second (`egdb speed`, 100 / 1,000 / 20,000 random positions, 2,048
/// slots; 1,024 for 65,536): 16,384:9 1.32 M / 351 k / 171 k, 32,768:15 2.24 M / 281 k /
/// 133 k, 65,536:15 440 k / 98 k / 69 k. 32,768 keeps most of the speed for most of the gain.
pub const PACK_BLOCK: usize = 32768;

/// The smallest block size a reader takes. It bounds the block index, and so the size a
/// group's file can have (`pack::max_body_len`), which is checked before a file is read.
pub const MIN_PACK_BLOCK: usize = 64;

/// The zstd level blocks are written with. On the 5-piece tables at 16,384 a block: level 3
/// 13.7 MB in 12.8 s, 9 11.1 MB in 12.5 s, 12 11.1 MB, 15 9.9 MB, 19 9.8 MB in 80 s; at
/// 32,768, 15 9.4 MB in 16.8 s and 19 9.2 MB in 57 s. Decompression costs about the same at
/// every level.
pub const PACK_LEVEL: i32 = 15;

/// The zstd level of a table file stored compressed whole for the static page (`egdb web`:
/// the lone-king table, 3.7 MB to about 100 KB); read once, so the strongest level.
pub const WHOLE_FILE_LEVEL: i32 = 19;

/// Decompressed blocks kept for probes (each `PACK_BLOCK` bytes, twice that for a group whose
/// dtc needs two bytes: about 64 MiB in all, 128 MiB at most).
pub const CACHE_SLOTS: usize = 2048;
