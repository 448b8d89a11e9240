//! Measurements for the record, not checks: run with
//! `cargo test --release --test hub_measure -- --ignored --nocapture --test-threads=1`.

mod support;

use std::time::{Duration, Instant};
use support::Engine;

/// Resident memory of a process, from /proc (Linux).
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

/// How long `stop` takes to reach `done` during `level infinite`: 100 tries.
#[test]
#[ignore]
fn stop_to_done_latency() {
    let mut e = Engine::start();
    e.handshake();
    let mut times = Vec::new();
    for i in 0..100 {
        e.send("pos start");
        e.send("level infinite");
        e.send(if i % 2 == 0 { "go think" } else { "go analyze" });
        // Let the search get deep enough to be busy.
        std::thread::sleep(Duration::from_millis(30));
        let start = Instant::now();
        e.send("stop");
        loop {
            if e.recv().starts_with("done") {
                break;
            }
        }
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "stop -> done over {} tries: median {:.3} ms, worst {:.3} ms, best {:.3} ms",
        times.len(),
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3
    );
}

/// Resident memory with the default table and with the largest one allowed here.
#[test]
#[ignore]
fn memory_with_default_and_largest_table() {
    let mut e = Engine::start();
    let params = e.handshake();
    let tt = params
        .iter()
        .find(|l| l.starts_with("param name=tt-size"))
        .unwrap()
        .clone();
    let max = support::field(&tt, "max").unwrap();
    let pid = e.pid();
    println!("{tt}");
    println!("default table: RSS {:.1} MiB", rss_mib(pid));
    {
        let log2 = max.as_str();
        let start = Instant::now();
        e.send(&format!("set-param name=tt-size value={log2}"));
        let answer = e.sync();
        println!(
            "tt-size={log2} ({} GiB of table) in {:.2} s: {answer:?} RSS {:.1} MiB",
            ((1u64 << log2.parse::<u32>().unwrap()) * 16) >> 30,
            start.elapsed().as_secs_f64(),
            rss_mib(pid)
        );
        e.send("pos start");
        e.send("level move-time=1");
        e.send("go think");
        e.until("done");
        println!("after a 1 s search: RSS {:.1} MiB", rss_mib(pid));
    }
    e.send("set-param name=tt-size value=22");
    e.sync();
    println!("back to tt-size=22: RSS {:.1} MiB", rss_mib(pid));
}
