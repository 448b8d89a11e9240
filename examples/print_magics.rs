//! The magic table of `core::attacks` searched for again and printed in the form of its
//! `KNOWN_MAGICS` (one `(magic, bits),` a square): `cargo run --release --example
//! print_magics`. The search is seeded (`MAGIC_SEED`), so it prints the same table each run.

use poolshark_engine::core::attacks::{find_magic, MAGIC_SEED};
use poolshark_engine::core::Square;

fn main() {
    for sq in Square::all() {
        let (magic, bits) = find_magic(sq, MAGIC_SEED);
        println!("    (0x{magic:016X}, {bits}),");
    }
}
