//! How big the endgame tables compress at other block sizes and zstd levels (the numbers in
//! `egdb::params`): `cargo run --release --example egdb_pack_sizes -- DIR PIECES BLOCK:LEVEL...`
//! with tables built in DIR, for example `egdb 5 16384:9 32768:9 16384:15`.

use poolshark_engine::egdb::{index::Group, pack};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: egdb_pack_sizes DIR PIECES BLOCK:LEVEL...";
    let (Some(dir), Some(pieces)) = (args.first(), args.get(1).and_then(|p| p.parse().ok())) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (tables, bad) = poolshark_host::egdb::load_tables(std::path::Path::new(dir), pieces);
    if !bad.is_empty() {
        eprintln!("bad table files: {bad:?}");
        std::process::exit(1);
    }
    let groups: Vec<Group> = (2..=pieces).flat_map(Group::all_with).collect();
    for setting in &args[2..] {
        let Some((block, level)) = setting
            .split_once(':')
            .and_then(|(b, l)| Some((b.parse::<usize>().ok()?, l.parse::<i32>().ok()?)))
        else {
            eprintln!("{usage}");
            std::process::exit(2);
        };
        let start = Instant::now();
        let mut bytes = 0;
        for &g in &groups {
            let Some(values) = tables.plain(g) else {
                eprintln!("{g} missing in {dir}");
                std::process::exit(1);
            };
            bytes += pack::pack_with(g, values, block.max(1), level).len();
        }
        println!(
            "block {block} level {level}: {bytes} bytes in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
}
