//! How long the board takes from a move sent to the engine's reply received, over a real
//! WebSocket, at the default strength (1 s a move): a measurement, not a test.
//! `cargo run --profile ci --example serve_latency`. It plays up to 8 of Black's moves (the
//! first legal one each time) and prints the least, median and largest times.

use poolshark::serve::limits::ServeLimits;
use poolshark::serve::server::{self, Config};
use poolshark_engine::eval::Weights;
use serde_json::{json, Value};
use std::net::TcpStream;
use std::time::Instant;
use tungstenite::{Message, WebSocket};

fn main() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("its address");
    listener
        .set_nonblocking(true)
        .expect("a non-blocking listener");
    let config = Config {
        hash_mb: 64,
        threads: 1,
        weights: Weights::builtin(),
        egdb: None,
        book: None,
        limits: ServeLimits::new(1, poolshark_host::machine::here()),
        params: Default::default(),
    };
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            server::serve(listener, config).await
        })
    });

    let stream = TcpStream::connect(addr).expect("connect");
    let (mut ws, _) = tungstenite::client(format!("ws://{addr}/ws"), stream).expect("handshake");
    let mut times = Vec::new();
    let mut state = next(&mut ws, "state");
    for _ in 0..8 {
        if state["result"] != Value::Null || state["side"] != "black" {
            break;
        }
        let ply = state["ply"].as_u64().unwrap_or(0);
        let mv = state["legal"][0]["hub"].as_str().unwrap_or("").to_string();
        let t = Instant::now();
        send(&mut ws, json!({"type":"move","move":mv}));
        loop {
            state = next(&mut ws, "state");
            if state["ply"].as_u64() == Some(ply + 2) || state["result"] != Value::Null {
                break;
            }
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    if times.is_empty() {
        eprintln!("no moves measured");
        std::process::exit(1);
    }
    println!(
        "move to engine move at 1 s a move: {} moves, min {:.3} s, median {:.3} s, max {:.3} s",
        times.len(),
        times[0],
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

fn send(ws: &mut WebSocket<TcpStream>, v: Value) {
    ws.send(Message::text(v.to_string())).expect("send");
}

/// The next message of this type (others skipped).
fn next(ws: &mut WebSocket<TcpStream>, kind: &str) -> Value {
    loop {
        if let Message::Text(t) = ws.read().expect("read") {
            let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
            if v["type"] == kind {
                return v;
            }
        }
    }
}
