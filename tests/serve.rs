//! `poolshark serve` over a real socket: the binary on a free port, a WebSocket client, and
//! the board's messages (docs/BOARD.md). Every wait has a generous timeout, so a hang fails
//! a test instead of blocking it; no test depends on how fast anything is.

mod support;

use poolshark::serve::assets::ASSETS;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tungstenite::{Message, WebSocket};

/// Long enough for any answer on a loaded machine; only a hang takes this long.
const PATIENCE: Duration = Duration::from_secs(60);

const START_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// A running `poolshark serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    addr: String,
    /// What it has written to stderr so far (its log).
    log: Arc<Mutex<String>>,
}

impl Server {
    /// A server without the opening book, so that every engine move is searched.
    fn start(extra: &[&str]) -> Server {
        let mut args = vec!["--no-book"];
        args.extend_from_slice(extra);
        Server::start_with(&args)
    }

    fn start_with(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_poolshark"))
            .args(["serve", "--port", "0", "--hash", "16"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start poolshark serve");
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("read the address line");
        let addr = line
            .trim()
            .strip_prefix("poolshark board: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, addr, log }
    }

    /// Whether the server logs a line containing `text` within `PATIENCE`.
    fn logs(&self, text: &str) -> bool {
        for _ in 0..600 {
            if self.log.lock().unwrap().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }

    /// Retry `connect` until a board is served, a bounded number of times: the connection
    /// past its hello.
    fn board_when_free(&self) -> Option<Client> {
        for _ in 0..600 {
            if let Ok(mut c) = self.try_connect(&[]) {
                if c.recv()["type"] == "hello" {
                    return Some(c);
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    }

    fn connect(&self) -> Client {
        self.try_connect(&[]).expect("WebSocket handshake")
    }

    /// A connection with extra request headers (an `Origin`, say).
    fn try_connect(&self, headers: &[(&str, &str)]) -> Result<Client, tungstenite::Error> {
        let stream = TcpStream::connect(&self.addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/ws",
            self.addr
        ))
        .unwrap();
        for (k, v) in headers {
            request.headers_mut().insert(
                tungstenite::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().expect("header value"),
            );
        }
        match tungstenite::client(request, stream) {
            Ok((ws, _)) => Ok(Client { ws }),
            Err(tungstenite::HandshakeError::Failure(e)) => Err(e),
            Err(e) => panic!("handshake: {e}"),
        }
    }

    /// A connection past its hello and first state, both sides human.
    fn board(&self) -> Client {
        let mut c = self.connect();
        assert_eq!(c.next("hello")["version"], env!("CARGO_PKG_VERSION"));
        c.next("state");
        c.send(json!({"type":"new","white":"human","black":"human"}));
        c.next("state");
        c
    }

    /// The status line, headers and body of `GET path`.
    fn get(&self, path: &str) -> (String, String) {
        self.get_as(path, &self.addr)
    }

    /// `get`, or `None` if the connection is refused or closed without an answer.
    fn try_get(&self, path: &str) -> Option<(String, String)> {
        let mut s = TcpStream::connect(&self.addr).ok()?;
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .ok()?;
        let mut text = String::new();
        s.read_to_string(&mut text).ok()?;
        let (head, body) = text.split_once("\r\n\r\n")?;
        Some((head.to_string(), body.to_string()))
    }

    /// The status line the server answers `request` (raw bytes, sent as they are) with.
    fn raw(&self, request: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        // Up to the end of the status line: an upgrade's connection stays open after its 101.
        // The server may close at once after a 400; what it wrote before is what counts.
        let mut text = Vec::new();
        let mut chunk = [0u8; 512];
        while !text.contains(&b'\n') {
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => text.extend_from_slice(&chunk[..n]),
            }
        }
        let text = String::from_utf8_lossy(&text);
        text.lines().next().unwrap_or("").to_string()
    }

    /// `get` with this `Host` header.
    fn get_as(&self, path: &str, host: &str) -> (String, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").expect("a response");
        (head.to_string(), body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    ws: WebSocket<TcpStream>,
}

impl Client {
    fn send(&mut self, v: Value) {
        self.send_text(&v.to_string());
    }

    fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("send");
    }

    /// The next message, of any type.
    fn recv(&mut self) -> Value {
        loop {
            match self.ws.read().expect("read a message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    /// The next message of this type, skipping `info`; any other type fails the test.
    fn next(&mut self, kind: &str) -> Value {
        loop {
            let m = self.recv();
            match m["type"].as_str() {
                Some(k) if k == kind => return m,
                Some("info") => continue,
                _ => panic!("expected a {kind} message, got {m}"),
            }
        }
    }

    /// The next message of this type (skipping `info`), or None when none came within
    /// `PATIENCE`. The server's pings wake the read meanwhile, so `next` alone would wait for
    /// ever on a server that says nothing.
    fn next_within(&mut self, kind: &str) -> Option<Value> {
        let since = std::time::Instant::now();
        while since.elapsed() < PATIENCE {
            match self.ws.read().expect("read a message") {
                Message::Text(t) => {
                    let m: Value = serde_json::from_str(t.as_str()).expect("JSON");
                    match m["type"].as_str() {
                        Some(k) if k == kind => return Some(m),
                        Some("info") => continue,
                        _ => panic!("expected a {kind} message, got {m}"),
                    }
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
        None
    }

    /// The error text the next message carries.
    fn error(&mut self) -> String {
        self.next("error")["message"]
            .as_str()
            .expect("a message")
            .to_string()
    }

    /// Is the connection still served? A ping gets its pong.
    fn ping(&mut self) {
        self.send(json!({"type":"ping"}));
        self.next("pong");
    }

    fn play(&mut self, mv: &str) -> Value {
        self.send(json!({"type":"move","move":mv}));
        self.next("state")
    }

    /// The state now (a `level` request changes nothing visible and answers with it).
    fn state(&mut self) -> Value {
        self.send(json!({"type":"level","movetime":1.0}));
        self.next("state")
    }
}

fn hubs(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["hub"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn hello_and_state_on_connect_and_the_page_is_served() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    let hello = c.next("hello");
    assert_eq!(hello["version"], env!("CARGO_PKG_VERSION"));
    // The limits the page checks before sending (a larger frame would close the socket).
    assert_eq!(
        hello["limits"]["load_pdn"],
        poolshark::serve::protocol::MAX_PDN_MESSAGE
    );
    assert_eq!(hello["limits"]["other"], 64 << 10);
    let s = c.next("state");
    assert_eq!(s["fen"], START_FEN);
    assert_eq!(s["start_fen"], START_FEN);
    assert_eq!(s["side"], "black");
    assert_eq!(s["ply"], 0);
    assert_eq!(s["legal"].as_array().unwrap().len(), 7);
    assert!(hubs(&s).contains(&"11-15".to_string()));
    assert_eq!(s["pieces"]["1"], "b");
    assert_eq!(s["pieces"]["32"], "w");
    assert_eq!(s["result"], Value::Null);
    assert_eq!(s["counts"]["forty"], 0);
    assert_eq!(s["counts"]["thirteen"], Value::Null);
    assert_eq!(s["level"]["movetime"], 1.0);
    let m = &s["legal"][0];
    assert_eq!(m["path"], json!([m["from"], m["to"]]));

    // Every file of the page (src/serve/assets.rs checks the list against the page's own
    // imports), as its file under web/ and with its type: a browser runs a module script
    // only when it is served as JavaScript.
    assert!(ASSETS.iter().any(|a| a.path == "/js/main.js"));
    for a in ASSETS {
        let (head, body) = server.get(a.path);
        assert!(head.starts_with("HTTP/1.1 200"), "{}: {head}", a.path);
        let kind = a.mime.split(';').next().unwrap();
        assert!(
            head.to_ascii_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{}: {head}",
            a.path
        );
        let file = std::fs::read_to_string(format!("web/{}", a.file)).unwrap();
        assert_eq!(body, file, "{}", a.path);
    }
    assert!(server.get("/nothing").0.starts_with("HTTP/1.1 404"));
}

#[test]
fn a_legal_move_gives_a_new_state_and_an_illegal_one_an_error() {
    let server = Server::start(&[]);
    let mut c = server.board();
    let s = c.play("11-15");
    assert_eq!(s["ply"], 1);
    assert_eq!(s["side"], "white");
    assert_eq!(
        s["history"],
        json!([{"pdn":"11-15","hub":"11-15","captured":[],"path":[11,15]}])
    );
    assert_eq!(s["pieces"]["15"], "b");
    assert!(s["pieces"].get("11").is_none());
    let fen = s["fen"].clone();

    for bad in ["9-13", "23-20", "11-15", "x", "99-100", ""] {
        c.send(json!({"type":"move","move":bad}));
        let e = c.error();
        assert!(
            e.starts_with("illegal move") || e.contains("not a move") || e.contains("square"),
            "{bad}: {e}"
        );
    }
    assert_eq!(c.state()["fen"], fen);
    // PDN notation is read too.
    assert_eq!(c.play("23-19")["ply"], 2);
}

#[test]
fn the_engine_replies_when_it_is_its_turn() {
    let server = Server::start(&[]);
    let mut c = server.connect();
    c.next("hello");
    c.next("state");
    c.send(json!({"type":"level","depth":2}));
    assert_eq!(c.next("state")["level"], json!({"depth":2}));
    c.send(json!({"type":"new","white":"engine","black":"human"}));
    assert_eq!(c.next("state")["thinking"], false);
    let s = c.play("11-15");
    assert_eq!(s["ply"], 1);
    assert_eq!(s["thinking"], true);
    // Progress, then the move.
    let info = c.recv();
    assert_eq!(info["type"], "info", "{info}");
    assert!(info["depth"].as_u64().unwrap() >= 1);
    assert!(info["score"].is_string());
    assert!(!info["pv"].as_array().unwrap().is_empty());
    let s = c.next("state");
    assert_eq!(s["ply"], 2, "{s}");
    assert_eq!(s["thinking"], false);
    assert_eq!(s["side"], "black");
    assert_eq!(s["history"].as_array().unwrap().len(), 2);

    // After undo the engine does not move by itself; engine_move asks it to.
    c.send(json!({"type":"undo"}));
    let s = c.next("state");
    assert_eq!(
        (s["ply"].clone(), s["thinking"].clone()),
        (json!(1), json!(false))
    );
    c.ping();
    c.send(json!({"type":"engine_move"}));
    assert_eq!(c.next("state")["thinking"], true);
    assert_eq!(c.next("state")["ply"], 2);

    // The engine against itself plays on by itself.
    c.send(json!({"type":"level","depth":1}));
    c.next("state");
    c.send(json!({"type":"new","white":"engine","black":"engine"}));
    let mut ply = 0;
    while ply < 4 {
        ply = c.next("state")["ply"].as_u64().unwrap();
    }
    c.send(json!({"type":"new","white":"human","black":"human"}));
    // States of engine moves already sent may come first; the last word is the new game.
    loop {
        let s = c.next("state");
        if s["white"] == "human" {
            assert_eq!(s["ply"], 0);
            assert_eq!(s["thinking"], false);
            break;
        }
    }
    c.ping();
}

/// At a playing level the engine plays its own pick from the first move (no book), within
/// the level's nodes; the state carries the level, and a limit alone is full strength again.
#[test]
fn the_engine_plays_at_a_level() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"level","depth":30,"level":1}));
    assert_eq!(c.next("state")["level"], json!({"depth":30,"level":1}));
    c.send(json!({"type":"level","level":2}));
    assert_eq!(c.next("state")["level"], json!({"depth":30,"level":2}));
    c.send(json!({"type":"new","white":"engine","black":"engine"}));
    // Level 2 searches 8 lines within its nodes: the engine plays on, every move quickly
    // even at depth 30 (the infos of each move stop far short of it).
    let mut ply = 0;
    while ply < 6 {
        let v = c.recv();
        match v["type"].as_str() {
            Some("info") => assert!(v["depth"].as_u64().unwrap() < 30, "{v}"),
            Some("state") => ply = v["ply"].as_u64().unwrap(),
            _ => panic!("{v}"),
        }
    }
    c.send(json!({"type":"new","white":"human","black":"human"}));
    loop {
        let s = c.next("state");
        if s["white"] == "human" {
            break;
        }
    }
    c.send(json!({"type":"level","movetime":0.5}));
    assert_eq!(c.next("state")["level"], json!({"movetime":0.5}));
    c.ping();
}

#[test]
fn analysis_reports_and_stops() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"analyze","on":true}));
    assert_eq!(c.next("state")["analyzing"], true);
    let info = c.recv();
    assert_eq!(info["type"], "info", "{info}");
    assert_eq!(
        info["pv"].as_array().unwrap().len(),
        info["pv_pdn"].as_array().unwrap().len()
    );
    c.send(json!({"type":"analyze","on":false}));
    let s = c.next("state");
    assert_eq!(s["analyzing"], false);
    c.ping();
    // A closed tab stops its analysis; the server goes on.
    c.send(json!({"type":"analyze","on":true}));
    c.next("state");
    drop(c);
    server.board().ping();
}

#[test]
fn analysis_asked_for_while_the_engine_thinks_waits_for_its_move() {
    let server = Server::start(&[]);
    let mut c = server.board();
    // A long think, so that the request surely comes while the engine thinks.
    c.send(json!({"type":"level","movetime":3.0}));
    c.next("state");
    for on in [true, false] {
        c.send(json!({"type":"new","white":"engine","black":"human"}));
        c.next("state");
        assert_eq!(c.play("11-15")["thinking"], true);
        c.send(json!({"type":"analyze","on":on}));
        let s = c.next("state");
        assert_eq!(
            (s["thinking"].as_bool(), s["analyzing"].as_bool()),
            (Some(true), Some(on)),
            "the engine's move goes on: {s}"
        );
        let s = c.next("state");
        assert_eq!(s["ply"], 2, "the engine moved: {s}");
        assert_eq!(
            (s["thinking"].as_bool(), s["analyzing"].as_bool()),
            (Some(false), Some(on))
        );
        if on {
            // Then the analysis of the position after its move.
            assert_eq!(c.recv()["type"], "info");
            c.send(json!({"type":"stop"}));
            assert_eq!(c.next("state")["analyzing"], false);
        }
    }
}

#[test]
fn stop_while_the_engine_thinks_plays_its_best_move_so_far() {
    let server = Server::start(&[]);
    let mut c = server.board();
    // A think far longer than any test waits: only `stop` ends it.
    c.send(json!({"type":"level","movetime":3600.0}));
    c.next("state");
    c.send(json!({"type":"new","white":"engine","black":"human"}));
    c.next("state");
    assert_eq!(c.play("11-15")["thinking"], true);
    assert_eq!(c.recv()["type"], "info", "the search has begun");
    c.send(json!({"type":"stop"}));
    let s = c.next("state");
    assert_eq!(s["ply"], 2, "the engine's move was played: {s}");
    assert_eq!(s["thinking"], false);
    assert_eq!(s["side"], "black");
    // The engine against itself pauses after the move it was made to play.
    c.send(json!({"type":"new","white":"engine","black":"engine"}));
    assert_eq!(c.next("state")["thinking"], true);
    c.send(json!({"type":"stop"}));
    let s = c.next("state");
    assert_eq!(
        (s["ply"].clone(), s["thinking"].clone()),
        (json!(1), json!(false))
    );
    c.ping();
}

#[test]
fn the_engine_plays_book_moves_unless_told_not_to() {
    // The built-in book answers 11-15 with 23-19 alone (within the margin): as a book move
    // it comes at once, with no search progress before it.
    for (args, book) in [(&[][..], true), (&["--no-book"][..], false)] {
        let server = Server::start_with(args);
        let mut c = server.board();
        c.send(json!({"type":"level","depth":6}));
        c.next("state");
        c.send(json!({"type":"new","white":"engine","black":"human"}));
        c.next("state");
        c.play("11-15");
        let mut infos = 0;
        let s = loop {
            let m = c.recv();
            match m["type"].as_str() {
                Some("info") => infos += 1,
                Some("state") if m["ply"] == 2 => break m,
                Some("state") => {}
                _ => panic!("unexpected {m}"),
            }
        };
        if book {
            assert_eq!(infos, 0, "a book move is not searched");
            assert_eq!(s["history"][1]["pdn"], "23-19");
        } else {
            assert!(infos > 0, "without the book the engine searches");
        }
    }
}

#[test]
fn analysis_stays_on_through_new_games_setups_and_loads() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"analyze","on":true}));
    assert_eq!(c.next("state")["analyzing"], true);
    for m in [
        json!({"type":"new","white":"human","black":"human"}),
        json!({"type":"setup","fen":"W:WK3,18:BK29,5"}),
        json!({"type":"load_pdn","pdn":"1. 11-15 23-19 *"}),
    ] {
        c.send(m.clone());
        let s = c.next("state");
        assert_eq!(s["analyzing"], true, "after {m}: {s}");
        let info = c.recv();
        assert_eq!(
            info["type"], "info",
            "analysis of the new position after {m}"
        );
        assert!(info["score_black"].is_string());
    }
}

#[test]
fn players_hands_a_side_to_the_engine_from_the_position_shown() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"level","depth":2}));
    c.next("state");
    c.send(json!({"type":"setup","fen":"W:W21,22,23:B1,2,3"}));
    c.next("state");
    c.send(json!({"type":"players","white":"engine","black":"human"}));
    let s = c.next("state");
    assert_eq!(
        (s["white"].clone(), s["thinking"].clone()),
        (json!("engine"), json!(true))
    );
    let s = c.next("state");
    assert_eq!(s["ply"], 1, "the engine moved: {s}");
    assert_eq!(s["start_fen"], "W:W21,22,23:B1,2,3");
}

#[test]
fn a_pdn_of_several_games_lists_them_and_loads_the_one_asked_for() {
    let server = Server::start(&[]);
    let mut c = server.board();
    let two = "[Event \"one\"]\n1. 11-15 *\n\n[Event \"two\"]\n1. 9-13 22-18 *\n";
    c.send(json!({"type":"load_pdn","pdn":two}));
    let g = c.next("games");
    assert_eq!(g["loaded"], 1);
    assert_eq!(g["games"][1]["tags"]["Event"], "two");
    assert_eq!(c.next("state")["history"].as_array().unwrap().len(), 1);
    c.send(json!({"type":"load_pdn","pdn":two,"game":2}));
    assert_eq!(c.next("games")["loaded"], 2);
    assert_eq!(c.next("state")["history"][0]["pdn"], "9-13");
    c.send(json!({"type":"load_pdn","pdn":two,"game":7}));
    assert!(c.error().contains("out of range"));
}

#[test]
fn undo_redo_and_goto() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.play("11-15");
    let after_one = c.play("23-19")["fen"].clone();
    let s = c.play("8-11");
    assert_eq!(s["ply"], 3);
    let after_three = s["fen"].clone();

    c.send(json!({"type":"undo"}));
    let s = c.next("state");
    assert_eq!(s["ply"], 2);
    assert_eq!(
        s["history"].as_array().unwrap().len(),
        3,
        "redo keeps the line"
    );
    c.send(json!({"type":"redo"}));
    assert_eq!(c.next("state")["fen"], after_three);
    c.send(json!({"type":"redo"}));
    assert!(c.error().contains("nothing to play forward"));

    c.send(json!({"type":"goto","ply":2}));
    assert_eq!(c.next("state")["fen"], after_one);
    c.send(json!({"type":"goto","ply":0}));
    let s = c.next("state");
    assert_eq!(
        (s["fen"].as_str(), s["ply"].as_u64()),
        (Some(START_FEN), Some(0))
    );
    for ply in [json!(4), json!(1u64 << 40)] {
        c.send(json!({"type":"goto","ply":ply}));
        assert!(c.error().contains("out of range"));
    }
    c.send(json!({"type":"goto","ply":-1}));
    assert!(c.error().starts_with("bad 'goto' message"));
    c.send(json!({"type":"undo"}));
    assert!(c.error().contains("nothing to take back"));

    // Another move from here replaces the rest of the line.
    let s = c.play("9-13");
    assert_eq!(
        s["history"],
        json!([{"pdn":"9-13","hub":"9-13","captured":[],"path":[9,13]}])
    );
}

#[test]
fn setup_a_position_and_choose_between_two_captures_of_the_same_squares() {
    let server = Server::start(&[]);
    let mut c = server.board();
    // The white king on 2 has two captures from 2 to 4 that take different pieces (R15).
    c.send(json!({"type":"setup","fen":"W:WK2:B3,7,8,K9,17,28"}));
    let s = c.next("state");
    assert_eq!(s["side"], "white");
    assert_eq!(
        (s["white"].as_str(), s["black"].as_str()),
        (Some("human"), Some("human"))
    );
    assert_eq!(s["start_fen"], "W:WK2:B3,7,8,K9,17,28");
    let legal = s["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 2, "{s}");
    for m in legal {
        assert_eq!((m["from"].as_u64(), m["to"].as_u64()), (Some(2), Some(4)));
        assert_eq!(m["path"][0], 2);
        assert_eq!(m["path"].as_array().unwrap().last().unwrap(), 4);
    }
    assert_ne!(legal[0]["captured"], legal[1]["captured"]);
    assert_ne!(legal[0]["pdn"], legal[1]["pdn"]);
    let mut captured: Vec<Value> = legal.iter().map(|m| m["captured"].clone()).collect();
    captured.sort_by_key(|v| v.to_string());
    assert_eq!(captured, vec![json!([7, 8]), json!([8, 9, 17])]);

    // Play the one that takes 7 and 8.
    let s = c.play("2x4x7x8");
    assert_eq!(s["pieces"]["4"], "W");
    for gone in ["2", "7", "8"] {
        assert!(s["pieces"].get(gone).is_none(), "{gone}: {s}");
    }
    assert_eq!(s["pieces"]["9"], "B");

    c.send(json!({"type":"setup","fen":"Q:W1"}));
    assert!(c.error().starts_with("bad FEN"));
    c.send(json!({"type":"new","fen":"W:W1:B5","white":"human","black":"human"}));
    assert!(c.error().starts_with("bad FEN"));
}

#[test]
fn save_and_load_pdn() {
    let server = Server::start(&[]);
    let mut c = server.board();
    for mv in ["11-15", "22-18", "15x22", "25x18", "8-11"] {
        c.play(mv);
    }
    c.send(json!({"type":"undo"}));
    c.next("state");
    c.send(json!({"type":"save_pdn"}));
    let pdn = c.next("pdn")["pdn"].as_str().unwrap().to_string();
    assert!(pdn.contains("[GameType \"23\"]"), "{pdn}");
    assert!(pdn.contains("[White \"Human\"]"), "{pdn}");
    assert!(!pdn.contains("[FEN"), "{pdn}");
    assert!(
        pdn.contains("1. 11-15 22-18 2. 15x22 25x18 3. 8-11 *"),
        "{pdn}"
    );

    c.send(json!({"type":"new","white":"human","black":"human"}));
    c.next("state");
    c.send(json!({"type":"load_pdn","pdn":pdn}));
    let s = c.next("state");
    assert_eq!(s["ply"], 5);
    let moves: Vec<&str> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pdn"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["11-15", "22-18", "15x22", "25x18", "8-11"]);

    // From a set-up position, with White to move: the FEN tag carries it.
    c.send(json!({"type":"setup","fen":"W:W14:B9,10,K1"}));
    c.next("state");
    c.play("14x5x9");
    c.send(json!({"type":"save_pdn"}));
    let pdn = c.next("pdn")["pdn"].as_str().unwrap().to_string();
    assert!(
        pdn.contains("[FEN \"W:W14:B1,9,10\"]") || pdn.contains("[FEN \"W:W14:BK1,9,10\"]"),
        "{pdn}"
    );
    c.send(json!({"type":"new","white":"human","black":"human"}));
    c.next("state");
    c.send(json!({"type":"load_pdn","pdn":pdn}));
    let s = c.next("state");
    assert_eq!(s["start_fen"], "W:W14:BK1,9,10");
    assert_eq!(s["ply"], 1);

    for (bad, says) in [
        ("[GameType \"20\"]\n1. 32-28 *", "GameType"),
        ("1. 11-17 *", "bad PDN"),
        ("[Event x]", "bad PDN"),
        ("", "no game"),
    ] {
        c.send(json!({"type":"load_pdn","pdn":bad}));
        let e = c.error();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(c.state()["start_fen"], "W:W14:BK1,9,10");
}

#[test]
fn hostile_input_gets_errors_and_the_server_goes_on() {
    let server = Server::start(&[]);
    let mut c = server.board();
    let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "bad JSON"),
        ("[1,2,3]".into(), "\"type\""),
        ("null".into(), "\"type\""),
        (r#"{"type":7}"#.into(), "must be a string"),
        (r#"{"type":"format_disk"}"#.into(), "unknown message type"),
        (r#"{"type":"move"}"#.into(), "missing field"),
        (r#"{"type":"move","move":12}"#.into(), "bad 'move' message"),
        (r#"{"type":"level","movetime":-1}"#.into(), "movetime"),
        (r#"{"type":"level","depth":1000}"#.into(), "depth"),
        (
            r#"{"type":"level","depth":3,"movetime":1}"#.into(),
            "either",
        ),
        (
            r#"{"type":"level","level":11}"#.into(),
            "level 11 is not from 1 to 10",
        ),
        (
            r#"{"type":"level","level":-1}"#.into(),
            "bad 'level' message",
        ),
        (
            r#"{"type":"level","level":"easy"}"#.into(),
            "bad 'level' message",
        ),
        (
            r#"{"type":"level","depth":3,"level":99}"#.into(),
            "level 99",
        ),
        (
            r#"{"type":"new","white":"martian"}"#.into(),
            "bad 'new' message",
        ),
        // 200 KB of padding on a ping, and 4 MB of PDN: over the limits, read and refused.
        (
            format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(200_000)),
            "too large",
        ),
        (
            format!(r#"{{"type":"load_pdn","pdn":"{}"}}"#, " ".repeat(4_000_000)),
            "too large",
        ),
        (
            format!("{{\"type\":\"move\",\"move\":\"{}\"}}", "9".repeat(10_000)),
            "illegal move",
        ),
    ];
    for (text, says) in cases {
        c.send_text(&text);
        let e = c.error();
        assert!(e.contains(says), "{}: {e}", &text[..text.len().min(60)]);
        assert!(
            e.len() < 1000,
            "an error quotes at most a little of the input"
        );
        c.ping();
    }
    c.ws.send(Message::binary(vec![1u8, 2, 3])).unwrap();
    assert!(c.error().contains("binary"));
    c.ping();

    // A move in a finished game: White takes Black's last piece.
    c.send(json!({"type":"setup","fen":"W:W14:B9"}));
    c.next("state");
    let s = c.play("14x5x9");
    assert_eq!(
        s["result"],
        json!({"winner":"white","reason":"no pieces left (R16)"})
    );
    assert_eq!(s["legal"], json!([]));
    c.send(json!({"type":"move","move":"5-1"}));
    assert!(c.error().contains("the game is over"));
    c.send(json!({"type":"engine_move"}));
    assert!(c.error().contains("the game is over"));
    c.ping();

    // A flood: many requests without reading, then every answer, in order.
    for i in 0..500 {
        if i % 2 == 0 {
            c.send(json!({"type":"ping"}));
        } else {
            c.send_text("{oops");
        }
    }
    for i in 0..500 {
        let m = c.recv();
        assert_eq!(m["type"], if i % 2 == 0 { "pong" } else { "error" });
    }

    // A flood of searches: each request stops the one before it.
    c.send(json!({"type":"new","white":"human","black":"human"}));
    c.next("state");
    for _ in 0..100 {
        c.send(json!({"type":"engine_move"}));
        c.send(json!({"type":"analyze","on":true}));
    }
    c.send(json!({"type":"stop"}));
    c.send(json!({"type":"ping"}));
    while c.recv()["type"] != "pong" {}
    let s = c.state();
    assert_eq!(
        (s["thinking"].as_bool(), s["analyzing"].as_bool()),
        (Some(false), Some(false))
    );

    // Another connection is served meanwhile, and after a frame too large to read at all
    // (which ends its own connection).
    let mut other = server.board();
    other.ping();
    let mut big = server.connect();
    big.next("hello");
    big.next("state");
    let _ = big.ws.send(Message::text("x".repeat(8 << 20)));
    let _ = big.ws.flush();
    c.ping();
    other.ping();
    server.board().ping();
}

#[test]
fn connections_are_capped_and_other_sites_refused() {
    let server = Server::start(&["--max-connections", "1"]);
    let mut first = server.board();
    let mut second = server.connect();
    assert!(second.error().contains("the server is full"));
    first.ping();
    drop(first);
    drop(second);
    // The slot is free once the server has seen the close; try until it has.
    let mut served = false;
    for _ in 0..600 {
        let mut c = server.connect();
        if c.recv()["type"] == "hello" {
            served = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(served, "the slot of a closed connection is never freed");

    let refused = server.try_connect(&[("Origin", "http://evil.example")]);
    assert!(refused.is_err(), "a page from another site is refused");
}

#[test]
fn a_rebound_name_is_refused_and_the_servers_own_names_accepted() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let evil = format!("evil.example:{port}");
    let evil_origin = format!("http://{evil}");
    // DNS rebinding: Host and Origin agree with each other, but name another site.
    let refused = server.try_connect(&[("Host", &evil), ("Origin", &evil_origin)]);
    assert!(refused.is_err(), "a rebound WebSocket is refused");
    let refused = server.try_connect(&[("Host", &evil)]);
    assert!(
        refused.is_err(),
        "a WebSocket for a rebound Host is refused"
    );
    for path in ["/", "/js/main.js", "/ws"] {
        let (head, _) = server.get_as(path, &evil);
        assert!(head.starts_with("HTTP/1.1 403"), "{path}: {head}");
    }
    // The names it listens as.
    for host in [format!("localhost:{port}"), server.addr.clone()] {
        assert!(server.get_as("/", &host).0.starts_with("HTTP/1.1 200"));
        let origin = format!("http://{host}");
        let mut c = server
            .try_connect(&[("Host", &host), ("Origin", &origin)])
            .expect("the server's own name is accepted");
        c.next("hello");
    }
}

#[test]
fn two_hosts_two_origins_and_absolute_targets_are_bad_requests() {
    let server = Server::start(&[]);
    let own = server.addr.clone();
    let evil = "evil.example";
    let get = |target: &str, headers: &str| {
        server.raw(&format!(
            "GET {target} HTTP/1.1\r\n{headers}Connection: close\r\n\r\n"
        ))
    };
    // The helper itself: a plain request for the page is served.
    assert!(get("/", &format!("Host: {own}\r\n")).starts_with("HTTP/1.1 200"));
    // Two Host headers, in either order: which one a proxy read is unknown.
    for (a, b) in [(own.as_str(), evil), (evil, own.as_str())] {
        let status = get("/", &format!("Host: {a}\r\nHost: {b}\r\n"));
        assert!(
            status.starts_with("HTTP/1.1 400"),
            "Host {a}, {b}: {status}"
        );
    }
    let status = get("/", &format!("Host: {own}\r\nHost: {own}\r\n"));
    assert!(status.starts_with("HTTP/1.1 400"), "Host twice: {status}");
    // An absolute target, naming another site or this one.
    for target in [
        "http://evil.example/".to_string(),
        format!("http://{own}/"),
        format!("http://{own}/js/main.js"),
    ] {
        let status = get(&target, &format!("Host: {own}\r\n"));
        assert!(status.starts_with("HTTP/1.1 400"), "{target}: {status}");
    }
    // A WebSocket with two Origin headers, the server's own first.
    let upgrade = |origins: &str| {
        get(
            "/ws",
            &format!(
                "Host: {own}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                 {origins}"
            ),
        )
    };
    let one = upgrade(&format!("Origin: http://{own}\r\n"));
    assert!(one.starts_with("HTTP/1.1 101"), "one Origin: {one}");
    let two = upgrade(&format!(
        "Origin: http://{own}\r\nOrigin: http://{evil}\r\n"
    ));
    assert!(two.starts_with("HTTP/1.1 400"), "two Origins: {two}");
    // The server goes on.
    server.board().ping();
}

/// The deepest `info` of the engine's reply to 11-15 at one second a move.
fn deepest_reply(server: &Server) -> u64 {
    let mut c = server.connect();
    c.next("hello");
    c.next("state");
    c.send(json!({"type":"level","movetime":1.0}));
    c.next("state");
    c.send(json!({"type":"new","white":"engine","black":"human"}));
    c.next("state");
    assert_eq!(c.play("11-15")["thinking"], true);
    let mut deepest = 0;
    loop {
        let m = c.recv();
        match m["type"].as_str() {
            Some("info") => deepest = deepest.max(m["depth"].as_u64().unwrap()),
            Some("state") => {
                assert_eq!(m["ply"], 2, "{m}");
                return deepest;
            }
            _ => panic!("unexpected message while the engine thinks: {m}"),
        }
    }
}

#[test]
fn search_params_apply_to_the_boards_searches() {
    // Without them a second reaches far past depth 3 (the same run's baseline).
    let deepest = deepest_reply(&Server::start(&[]));
    assert!(deepest > 3, "the baseline reached only depth {deepest}");
    let server = Server::start(&["--search-params", "max_depth:3"]);
    assert_eq!(deepest_reply(&server), 3);
    // Analysis too: it runs to depth 3 and then waits to be stopped.
    let mut c = server.board();
    c.send(json!({"type":"analyze","on":true}));
    c.next("state");
    let mut depth = 0;
    while depth < 3 {
        let m = c.recv();
        assert_eq!(m["type"], "info", "{m}");
        depth = m["depth"].as_u64().unwrap();
    }
    c.send(json!({"type":"analyze","on":false}));
    loop {
        let m = c.recv();
        match m["type"].as_str() {
            Some("info") => assert!(m["depth"].as_u64().unwrap() <= 3, "{m}"),
            Some("state") => break,
            _ => panic!("unexpected message: {m}"),
        }
    }
    // Bad parameters are refused before the server starts.
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["serve", "--port", "0", "--search-params", "max_depth:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_port_in_use_is_an_error() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["serve", "--port", port])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on 127.0.0.1:"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn the_tables_verdict_comes_by_itself_once_its_group_is_read() {
    let dir = std::env::temp_dir().join(format!("poolshark-serve-verdict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    poolshark_host::egdb::build(&dir, 2, 1).expect("build 2-piece tables");
    let server = Server::start(&["--egdb", dir.to_str().unwrap()]);
    let mut c = server.board();
    // King against king: a draw the tables know. Its group is read in the background the
    // first time the state asks for it, so the first state may say nothing; the verdict then
    // comes in a state of its own, with no request to prompt it.
    c.send(json!({"type":"setup","fen":"W:WK1:BK32"}));
    let mut v = c.next("state")["egdb"].clone();
    while v.is_null() {
        let state = c
            .next_within("state")
            .expect("the verdict, in a state of its own");
        v = state["egdb"].clone();
    }
    assert_eq!(v["black"], "draw", "{v}");
    // Each move of the flying king is a draw too, listed with the verdict (issue 69, item 5).
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7, "{v}");
    assert!(
        moves
            .iter()
            .all(|m| m["result"] == "draw" && m["dtc"].is_null()),
        "{v}"
    );
    // A position no table covers gets no verdict, and no state follows by itself.
    c.send(json!({"type":"new","white":"human","black":"human"}));
    assert_eq!(c.next("state")["egdb"], Value::Null);
    c.ping();
    drop(c);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_probes_endgame_tables_given_with_egdb() {
    let dir = support::tables_4();
    let server = Server::start(&["--egdb", dir.to_str().unwrap()]);
    let mut c = server.board();
    c.send(json!({"type":"setup","fen":"W:WK1,K2,K3:BK32"}));
    c.next("state");
    // Groups are read on a background thread when a search first reaches them, and probes
    // find nothing until then: analyse until the table's win (89.xx) shows.
    let mut found = None;
    for _ in 0..100 {
        c.send(json!({"type":"analyze","on":true}));
        c.next("state");
        // The tables' verdict may come by itself meanwhile, as a state of its own.
        let info = loop {
            let m = c.recv();
            match m["type"].as_str() {
                Some("info") => break m,
                Some("state") => continue,
                _ => panic!("expected an info message, got {m}"),
            }
        };
        c.send(json!({"type":"analyze","on":false}));
        c.next("state");
        let score = info["score"].as_str().unwrap_or_default().to_string();
        if score.starts_with("89.") {
            found = Some(score);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(found.is_some(), "no database win from W:WK1,K2,K3:BK32");
    // The state carries the tables' verdict, for Black (White to move wins here).
    let st = c.state();
    let v = st["egdb"].clone();
    assert_eq!(v["black"], "loss", "{v}");
    let dtc = v["dtc"].as_u64().expect("a win has its distance");
    // Each move's verdict for White (issue 69, item 5): every legal move, the quickest win
    // first, one ply nearer than the position's own.
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), st["legal"].as_array().unwrap().len(), "{v}");
    assert_eq!(moves[0]["result"], "win", "{v}");
    assert_eq!(moves[0]["dtc"].as_u64(), Some(dtc - 1), "{v}");
    let order = |m: &Value| match m["result"].as_str() {
        Some("win") => (0, m["dtc"].as_i64().unwrap()),
        Some("draw") => (1, 0),
        _ => (2, -m["dtc"].as_i64().unwrap_or(0)),
    };
    assert!(
        moves.windows(2).all(|w| order(&w[0]) <= order(&w[1])),
        "{v}"
    );
    c.send(json!({"type":"new","white":"human","black":"human"}));
    assert_eq!(
        c.next("state")["egdb"],
        Value::Null,
        "no table covers the start"
    );
    drop(c);
    drop(server);
    // A folder that is not there is bad input.
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["serve", "--port", "0", "--egdb", "no/such/dir"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--egdb"));
}

#[test]
fn boards_past_the_memory_budget_are_refused_and_the_others_go_on() {
    // Tables of 16 MiB in a budget of 40 MiB: two boards fit, a third does not.
    let server = Server::start(&["--memory", "40"]);
    let mut a = server.board();
    let mut b = server.board();
    let mut third = server.connect();
    let e = third.error();
    assert!(e.contains("not enough memory for another board"), "{e}");
    assert!(server.logs("refused a board"), "the refusal is logged");
    a.ping();
    b.ping();
    drop(a);
    assert!(
        server.board_when_free().is_some(),
        "a closed board frees its memory"
    );
    b.ping();
}

#[test]
fn a_hash_larger_than_the_memory_budget_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_poolshark"))
        .args(["serve", "--port", "0", "--hash", "64", "--memory", "32"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not fit in the memory budget"), "{err}");
    assert!(out.stdout.is_empty());
}

/// Whether the server closes `s` (end of stream or reset) before `PATIENCE` runs out.
fn closed_by_server(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // a 408 or similar before the close
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            }
        }
    }
}

#[test]
fn idle_and_half_sent_requests_are_closed_after_the_header_timeout() {
    let server = Server::start(&["--header-timeout", "2"]);
    let mut half = TcpStream::connect(&server.addr).unwrap();
    write!(half, "GET / HTTP/1.1\r\nHost: {}\r\nX-Slow:", server.addr).unwrap();
    let mut silent = TcpStream::connect(&server.addr).unwrap();
    assert!(closed_by_server(&mut half), "a half-sent header is closed");
    assert!(
        closed_by_server(&mut silent),
        "a silent connection is closed"
    );
    // A kept-alive connection idle after its response is closed too.
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    write!(
        kept,
        "GET /style.css HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    assert!(
        closed_by_server(&mut kept),
        "an idle kept-alive connection is closed"
    );
    assert!(server.get("/").0.starts_with("HTTP/1.1 200"));
}

#[test]
fn the_socket_cap_is_logged_and_the_server_answers_once_connections_close() {
    let server = Server::start(&["--max-sockets", "8"]);
    let idle: Vec<TcpStream> = (0..8)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    // The ninth is closed at once (it may take a moment for the server to count the 8).
    let mut refused = false;
    for _ in 0..100 {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        // A socket the server has already closed may refuse the write itself (reset).
        let sent = write!(s, "GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        if sent.is_err() || text.is_empty() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(refused, "a connection past the cap is closed");
    assert!(server.logs("connection limit reached"), "the cap is logged");
    drop(idle);
    let mut answered = false;
    for _ in 0..600 {
        if server
            .try_get("/")
            .is_some_and(|(head, _)| head.starts_with("HTTP/1.1 200"))
        {
            answered = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answered, "the server answers once the connections close");
}

#[test]
fn a_silent_websocket_is_closed_and_its_board_freed() {
    let server = Server::start(&[
        "--max-connections",
        "1",
        "--ping-interval",
        "0.3",
        "--ping-timeout",
        "2",
    ]);
    // A client that reads (and so answers pings) stays, past many ping intervals.
    let mut live = server.board();
    live.ws
        .get_ref()
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut pings = 0;
    for _ in 0..30 {
        match live.ws.read() {
            Ok(Message::Ping(_)) => pings += 1,
            Ok(other) => panic!("unexpected {other:?}"),
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("a live client was closed: {e}"),
        }
    }
    assert!(pings > 0, "the server pings");
    live.ws.get_ref().set_read_timeout(Some(PATIENCE)).unwrap();
    live.ping();
    drop(live);

    // One that reads nothing: its board is taken, then freed.
    let mut silent = server
        .board_when_free()
        .expect("the live board's slot is freed");
    silent.next("state");
    silent.send(json!({"type":"analyze","on":true}));
    assert!(server.logs("closed a silent WebSocket") || server.logs("read nothing"));
    assert!(
        server.board_when_free().is_some(),
        "the silent board's slot is freed"
    );
    drop(silent);
}

/// The planted blunder of tests/annotate.rs: Black's 12-16 at ply 9 drops a man.
const BLUNDER_GAME: &str = "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 12-16 19x12 6-9";
const BLUNDER_PLY: usize = 9;

/// The `review_ply` messages of a review, in order, and its `review_done`.
fn review_messages(c: &mut Client) -> (Vec<Value>, Value) {
    let mut plies = Vec::new();
    loop {
        let m = c.recv();
        match m["type"].as_str() {
            Some("review_ply") => plies.push(m),
            Some("review_done") => return (plies, m),
            Some("info" | "state") => continue,
            _ => panic!("unexpected message during a review: {m}"),
        }
    }
}

#[test]
fn a_review_streams_every_ply_in_order_and_marks_the_planted_blunder() {
    let server = Server::start(&[]);
    let mut c = server.board();
    for mv in BLUNDER_GAME.split_whitespace() {
        c.play(mv);
    }
    // The whole game is reviewed, whichever position is shown.
    c.send(json!({"type":"goto","ply":3}));
    c.next("state");
    c.send(json!({"type":"review","depth":10}));
    let (plies, done) = review_messages(&mut c);
    let n = BLUNDER_GAME.split_whitespace().count();
    assert_eq!(plies.len(), n, "{plies:?}");
    let mut counts = [[0u64; 3]; 2];
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i + 1, "{p}");
        assert!(p["score"].as_str().unwrap().parse::<f64>().is_ok(), "{p}");
        assert!(!p["best"].as_str().unwrap().is_empty(), "{p}");
        let side = i % 2; // Black moves first
        match p["mark"].as_str() {
            Some("?!") => counts[side][0] += 1,
            Some("?") => counts[side][1] += 1,
            Some("??") => counts[side][2] += 1,
            None => assert!(p["mark"].is_null(), "{p}"),
            Some(other) => panic!("mark {other}"),
        }
    }
    for (p, mv) in plies.iter().zip(BLUNDER_GAME.split_whitespace()) {
        assert_eq!(p["move"], mv, "{p}");
        // The best move's path runs from its origin to its destination, and its line
        // starts with it.
        let best = p["best"].as_str().unwrap();
        let path: Vec<String> = p["best_path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(path.len() >= 2, "{p}");
        let ends = best.split(['-', 'x']).collect::<Vec<_>>();
        assert_eq!(
            path.first().map(String::as_str),
            ends.first().copied(),
            "{p}"
        );
        assert_eq!(path.last().map(String::as_str), ends.last().copied(), "{p}");
        assert_eq!(p["pv"][0], best, "{p}");
        assert!(
            p["best_score"].as_str().unwrap().parse::<f64>().is_ok(),
            "{p}"
        );
        let loss = p["loss"].as_f64().unwrap();
        assert!(loss >= 0.0, "{p}");
        assert_eq!(p["good"], loss < 0.3, "{p}");
        if p["mark"].is_null() && p["best"] == p["move"] {
            assert_eq!(loss, 0.0, "{p}");
        }
    }
    let blunder = &plies[BLUNDER_PLY - 1];
    assert_eq!(blunder["mark"], "??", "{blunder}");
    assert_ne!(blunder["best"], "12-16", "{blunder}");
    assert_eq!(blunder["good"], false, "{blunder}");
    assert!(blunder["loss"].as_f64().unwrap() >= 1.0, "{blunder}");
    // The played move's score (after it) is below the best move's, for Black.
    let score = |k: &str| blunder[k].as_str().unwrap().parse::<f64>().unwrap();
    assert!(score("score") < score("best_score") - 1.0, "{blunder}");
    // Bad for Black after Black's blunder.
    assert!(
        blunder["score"].as_str().unwrap().starts_with('-'),
        "{blunder}"
    );
    assert_eq!(done["stopped"], false, "{done}");
    for (side, name) in [(0, "black"), (1, "white")] {
        assert_eq!(done[name]["inaccuracies"], counts[side][0], "{done}");
        assert_eq!(done[name]["mistakes"], counts[side][1], "{done}");
        assert_eq!(done[name]["blunders"], counts[side][2], "{done}");
        let moves = plies.iter().skip(side).step_by(2).count() as u64;
        assert_eq!(done[name]["moves"], moves, "{done}");
        let accuracy = done[name]["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{done}");
        let loss: f64 = plies
            .iter()
            .skip(side)
            .step_by(2)
            .map(|p| p["loss"].as_f64().unwrap())
            .sum();
        let mean = done[name]["mean_loss"].as_f64().unwrap();
        assert!((mean - loss / moves as f64).abs() < 0.01, "{done}");
    }
    // Black's blunder costs it accuracy.
    assert!(done["black"]["accuracy"].as_f64().unwrap() < 95.0, "{done}");
    // The position shown is as it was.
    assert_eq!(c.state()["ply"], 3);
}

#[test]
fn stop_cancels_a_review_and_analysis_resumes() {
    let server = Server::start(&[]);
    let mut c = server.board();
    for mv in BLUNDER_GAME.split_whitespace() {
        c.play(mv);
    }
    c.send(json!({"type":"analyze","on":true}));
    c.next("state");
    // Deep enough that the review cannot end before the stop comes.
    c.send(json!({"type":"review","depth":30}));
    c.next("state");
    c.send(json!({"type":"stop"}));
    let (plies, done) = review_messages(&mut c);
    assert_eq!(done["stopped"], true, "{done}");
    assert!(plies.len() < BLUNDER_GAME.split_whitespace().count());
    let s = c.next("state");
    assert_eq!(s["analyzing"], true, "a review's stop leaves analysis on");
    // Analysis reports again.
    loop {
        let m = c.recv();
        if m["type"] == "info" {
            break;
        }
    }
    c.ping();
}

#[test]
fn a_review_is_refused_while_the_engine_thinks_and_bad_budgets_are_errors() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.play("11-15");
    for bad in [
        json!({"type":"review","depth":0}),
        json!({"type":"review","depth":-3}),
        json!({"type":"review","depth":1_000_000}),
        json!({"type":"review","depth":"deep"}),
        json!({"type":"review","movetime":0}),
        json!({"type":"review","movetime":-1.5}),
        json!({"type":"review","movetime":1e12}),
        json!({"type":"review","movetime":"soon"}),
        json!({"type":"review","depth":4,"movetime":1}),
        json!({"type":"review","nodes":0}),
        json!({"type":"review","nodes":-5}),
        json!({"type":"review","nodes":1e15}),
        json!({"type":"review","nodes":1000,"depth":3}),
    ] {
        c.send(bad.clone());
        let e = c.error();
        assert!(e.contains("review"), "{bad}: {e}");
    }
    // A whole review or retry is bounded: 1e9 nodes a position is too much for two.
    c.send(json!({"type":"review","nodes":1_000_000_000}));
    let e = c.error();
    assert!(
        e.starts_with("a review of 2 positions at 1000000000 nodes each is 2000000000 nodes")
            && e.ends_with("at most 500000000 nodes a position"),
        "{e}"
    );
    c.send(json!({"type":"retry","ply":1,"move":"9-14","nodes":1_000_000_000}));
    assert!(c.error().starts_with("a retry of 2 positions"));
    // A huge number is not echoed whole (1e308 is 309 digits written out).
    c.send(json!({"type":"review","movetime":1e308}));
    let e = c.error();
    assert!(e.contains("review movetime 1000") && e.len() < 200, "{e}");
    c.ping();
    c.send(json!({"type":"level","depth":30}));
    c.next("state");
    c.send(json!({"type":"players","white":"engine","black":"human"}));
    assert_eq!(c.next("state")["thinking"], true);
    c.send(json!({"type":"review","depth":4}));
    assert!(c.error().contains("thinking"));
    c.send(json!({"type":"stop"}));
    c.next("state");
    c.ping();
}

#[test]
fn multipv_analysis_gives_three_lines_with_distinct_first_moves() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"analyze","on":true,"multipv":3}));
    c.next("state");
    // One iteration's lines come in order 1, 2, 3.
    let mut lines: Vec<Value> = Vec::new();
    while lines.len() < 3 {
        let m = c.recv();
        if m["type"] != "info" {
            continue;
        }
        let k = m["multipv"].as_u64().expect("multipv on each info");
        assert!((1..=3).contains(&k), "{m}");
        if k == 1 {
            lines.clear();
        }
        if k as usize == lines.len() + 1 {
            lines.push(m);
        }
    }
    let firsts: std::collections::BTreeSet<String> = lines
        .iter()
        .map(|l| l["pv"][0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    // One line again: no multipv field.
    c.send(json!({"type":"analyze","on":true}));
    c.next("state");
    let m = loop {
        let m = c.recv();
        if m["type"] == "info" {
            break m;
        }
    };
    assert!(m.get("multipv").is_none(), "{m}");
    for bad in [
        json!({"type":"analyze","on":true,"multipv":0}),
        json!({"type":"analyze","on":true,"multipv":6}),
        json!({"type":"analyze","on":true,"multipv":-1}),
        json!({"type":"analyze","on":true,"multipv":"three"}),
    ] {
        c.send(bad.clone());
        let e = loop {
            let m = c.recv();
            if m["type"] == "error" {
                break m["message"].as_str().unwrap().to_string();
            }
        };
        assert!(e.contains("multipv") || e.contains("analyze"), "{bad}: {e}");
    }
    c.send(json!({"type":"analyze","on":false}));
    loop {
        if c.recv()["type"] == "state" {
            break;
        }
    }
    c.ping();
}

/// A timed game over the socket: the engine plays on its own clock, take-backs are refused
/// while the clocks are live, and the server's timer ends the game when the human's clock
/// runs out, with no request from the page.
#[test]
fn a_timed_game_ends_by_the_flag_with_the_right_result() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"new","white":"human","black":"human","clock":{"base":0}}));
    assert!(c.error().starts_with("clock base 0 is not"));
    c.send(json!({"type":"new","white":"engine","black":"human","clock":{"base":2,"inc":0}}));
    let s = c.next("state");
    assert_eq!(
        s["clock"],
        json!({"black_ms":2000,"white_ms":2000,"running":null,"live":true,"base_ms":2000,"inc_ms":0})
    );
    let s = c.play("11-15");
    assert_eq!(s["clock"]["running"], "white");
    assert_eq!(s["thinking"], true);
    // The engine's move, on its clock.
    let s = c.next("state");
    assert_eq!(s["ply"], 2, "{s}");
    let white = s["clock"]["white_ms"].as_u64().unwrap();
    assert!(white > 0 && white <= 2000, "{s}");
    assert_eq!(s["clock"]["running"], "black");
    c.send(json!({"type":"undo"}));
    assert!(c.error().starts_with("a timed game is on"));
    // Black lets its two seconds run out.
    let s = c.next("state");
    assert_eq!(
        s["result"],
        json!({"winner":"white","reason":"time forfeit"})
    );
    assert_eq!(s["clock"]["black_ms"], 0);
    assert_eq!(s["clock"]["running"], Value::Null);
    assert_eq!(s["legal"], json!([]));
    c.send(json!({"type":"save_pdn"}));
    let pdn = c.next("pdn")["pdn"].as_str().unwrap().to_string();
    assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");
    assert!(pdn.contains("[TimeControl \"2+0\"]"), "{pdn}");
    assert!(pdn.contains("1. 11-15 {[%clk 0:00:02]} "), "{pdn}");
    assert_eq!(pdn.matches("[%clk ").count(), 2, "{pdn}");
    c.ping();
}

/// The next `retry_result`, skipping the states and infos around it.
fn retry_result(c: &mut Client) -> Value {
    loop {
        let m = c.recv();
        match m["type"].as_str() {
            Some("retry_result") => return m,
            Some("info" | "state") => continue,
            _ => panic!("unexpected message during a retry: {m}"),
        }
    }
}

#[test]
fn a_retry_judges_a_move_against_the_best_and_leaves_the_game() {
    let server = Server::start(&[]);
    let mut c = server.board();
    for mv in BLUNDER_GAME.split_whitespace() {
        c.play(mv);
    }
    // Shown: the position before the blunder, as "find a better move" puts it.
    c.send(json!({"type":"goto","ply":BLUNDER_PLY - 1}));
    c.next("state");
    // The blunder again: not as good, by a man or more.
    c.send(json!({"type":"retry","ply":BLUNDER_PLY,"move":"12-16","depth":10}));
    let r = retry_result(&mut c);
    assert_eq!(
        (r["ply"].as_u64(), r["move"].as_str()),
        (Some(BLUNDER_PLY as u64), Some("12-16")),
        "{r}"
    );
    assert_eq!(r["good"], false, "{r}");
    assert!(r["loss"].as_f64().unwrap() >= 1.0, "{r}");
    assert_eq!(r["mark"], "??", "{r}");
    let best = r["best"].as_str().unwrap().to_string();
    assert_ne!(best, "12-16");
    assert_eq!(r["pv"][0], best.as_str(), "{r}");
    assert!(r["best_path"].as_array().unwrap().len() >= 2, "{r}");
    // The best move: as good as the best.
    c.send(json!({"type":"retry","ply":BLUNDER_PLY,"move":best,"depth":10}));
    let r = retry_result(&mut c);
    assert_eq!(r["good"], true, "{r}");
    assert_eq!(r["loss"], 0.0, "{r}");
    assert!(r["mark"].is_null(), "{r}");
    // The game is as it was: every move there, the position shown unchanged.
    let s = c.next("state");
    assert_eq!(
        s["history"].as_array().unwrap().len(),
        BLUNDER_GAME.split_whitespace().count()
    );
    assert_eq!(s["ply"], BLUNDER_PLY - 1);
    // Bad retries: errors, and the board goes on.
    for (bad, says) in [
        (
            json!({"type":"retry","ply":0,"move":"12-16"}),
            "out of range",
        ),
        (
            json!({"type":"retry","ply":99,"move":"12-16"}),
            "out of range",
        ),
        (
            json!({"type":"retry","ply":BLUNDER_PLY,"move":"23-18"}),
            "illegal move",
        ),
        (
            json!({"type":"retry","ply":BLUNDER_PLY,"move":"12-16","depth":0}),
            "review depth",
        ),
        (
            json!({"type":"retry","ply":BLUNDER_PLY,"move":"12-16","nodes":1,"depth":2}),
            "not two",
        ),
        (
            json!({"type":"retry","move":"12-16"}),
            "missing field `ply`",
        ),
    ] {
        c.send(bad.clone());
        let e = c.error();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // Refused while a review runs.
    c.send(json!({"type":"review","depth":30}));
    c.next("state");
    c.send(json!({"type":"retry","ply":1,"move":"11-15"}));
    let e = loop {
        let m = c.recv();
        if m["type"] == "error" {
            break m["message"].as_str().unwrap().to_string();
        }
    };
    assert!(e.contains("a review is running"), "{e}");
    c.send(json!({"type":"stop"}));
    let (_, done) = review_messages(&mut c);
    assert_eq!(done["stopped"], true, "{done}");
    c.next("state");
    c.ping();
}

#[test]
fn five_analysis_lines() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"analyze","on":true,"multipv":5}));
    c.next("state");
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 5 {
        let m = c.recv();
        if m["type"] == "info" {
            let k = m["multipv"].as_u64().expect("multipv on each info");
            assert!((1..=5).contains(&k), "{m}");
            seen.insert(k);
        }
    }
    c.send(json!({"type":"analyze","on":false}));
    loop {
        if c.recv()["type"] == "state" {
            break;
        }
    }
    c.ping();
}

/// The node of `state` with this id.
fn tree_node(state: &Value, id: &Value) -> Value {
    state["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| &n["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no node {id} in {state}"))
}

/// The main line's node ids, the root first: each node's first child.
fn main_line(state: &Value) -> Vec<Value> {
    let mut line = vec![state["nodes"][0]["id"].clone()];
    while let Some(c) = tree_node(state, line.last().unwrap())["children"]
        .as_array()
        .unwrap()
        .first()
    {
        line.push(c.clone());
    }
    line
}

#[test]
fn variations_goto_promote_and_delete_over_the_socket() {
    let server = Server::start(&[]);
    let mut c = server.board();
    c.send(json!({"type":"new","white":"human","black":"human"}));
    c.next("state");
    for mv in ["11-15", "23-19", "8-11", "22-17"] {
        c.play(mv);
    }
    c.send(json!({"type":"goto","ply":1}));
    c.next("state");
    c.play("22-18");
    let s = c.play("15x22");
    let main = main_line(&s);
    assert_eq!(main.len(), 5, "the main line stays: {s}");
    assert_eq!(s["nodes"].as_array().unwrap().len(), 7);
    assert_eq!(
        (s["ply"].as_u64(), s["line"].as_array().unwrap().len()),
        (Some(3), 4)
    );
    let var = s["line"][2].clone();
    assert_eq!(tree_node(&s, &main[1])["children"], json!([main[2], var]));
    let pdns: Vec<&str> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pdn"].as_str().unwrap())
        .collect();
    assert_eq!(pdns, ["11-15", "22-18", "15x22"]);
    // Back on the main line by id; the variation is still there.
    c.send(json!({"type":"goto","node":main[4]}));
    let s = c.next("state");
    assert_eq!((s["ply"].as_u64(), &s["node"]), (Some(4), &main[4]));
    assert_eq!(s["history"][3]["pdn"], "22-17");
    // The variation made the main line, then deleted.
    c.send(json!({"type":"promote","node":s["nodes"].as_array().unwrap().last().unwrap()["id"],"to_main":true}));
    let s = c.next("state");
    assert_eq!(main_line(&s)[2], var);
    assert_eq!(s["node"], main[4], "the position shown stays");
    c.send(json!({"type":"promote","node":main[2]}));
    assert_eq!(main_line(&c.next("state")), main);
    c.send(json!({"type":"delete","node":var}));
    let s = c.next("state");
    assert_eq!(s["nodes"].as_array().unwrap().len(), 5);
    assert_eq!(main_line(&s), main);
    for bad in [
        json!({"type":"goto","node":var}),
        json!({"type":"delete","node":var}),
        json!({"type":"promote","node":var}),
        json!({"type":"delete","node":0}),
        json!({"type":"goto","ply":1,"node":1}),
        json!({"type":"goto"}),
    ] {
        c.send(bad.clone());
        let e = c.error();
        assert!(
            e.contains("no node") || e.contains("start position") || e.contains("one of them"),
            "{bad}: {e}"
        );
    }
    // Deleting the position shown shows the one before it.
    c.send(json!({"type":"delete","node":main[3]}));
    let s = c.next("state");
    assert_eq!((&s["node"], s["ply"].as_u64()), (&main[2], Some(2)));
    c.ping();
}

#[test]
fn review_marks_stay_in_the_main_line_nodes_and_are_saved() {
    let server = Server::start(&[]);
    let mut c = server.board();
    for mv in BLUNDER_GAME.split_whitespace() {
        c.play(mv);
    }
    let main = main_line(&c.state());
    c.send(json!({"type":"review","depth":8}));
    c.next("state");
    let (plies, _) = review_messages(&mut c);
    for p in &plies {
        assert_eq!(p["node"], main[p["ply"].as_u64().unwrap() as usize], "{p}");
    }
    let s = c.next("state");
    let blunder = tree_node(&s, &main[BLUNDER_PLY]);
    assert_eq!(blunder["mark"], "??", "{blunder}");
    assert_eq!(blunder["eval"], plies[BLUNDER_PLY - 1]["score"]);
    assert_eq!(blunder["best"], plies[BLUNDER_PLY - 1]["best"]);
    // A variation before the blunder: the marks stay with the main line's moves.
    c.send(json!({"type":"goto","ply":4}));
    c.next("state");
    let s = c.play("10-14");
    assert_eq!(main_line(&s), main);
    assert_eq!(tree_node(&s, &main[BLUNDER_PLY])["mark"], "??");
    for (k, p) in plies.iter().enumerate() {
        assert_eq!(tree_node(&s, &main[k + 1])["eval"], p["score"], "{p}");
    }
    c.send(json!({"type":"save_pdn"}));
    let pdn = c.next("pdn")["pdn"].as_str().unwrap().to_string();
    assert!(pdn.contains("12-16??"), "{pdn}");
    assert!(pdn.contains("(3. 10-14)"), "{pdn}");
    // Loaded again: the same marks, scores and variation.
    c.send(json!({"type":"load_pdn","pdn":pdn}));
    let t = c.next("state");
    // Read back, the nodes are numbered afresh: the same tree in the same order otherwise.
    let unnumbered = |s: &Value| -> Vec<Value> {
        let nodes = s["nodes"].as_array().unwrap().iter().cloned();
        nodes
            .map(|mut n| {
                let o = n.as_object_mut().unwrap();
                o.remove("id");
                o.remove("parent");
                // The review's best line is saved for a marked move only (issue 61: as a
                // variation tagged `[%review best]`); an unmarked move keeps its verdict.
                let unmarked = o.get("review").is_some_and(|r| r["mark"].is_null());
                if unmarked {
                    o.remove("best");
                    let r = o.get_mut("review").unwrap().as_object_mut().unwrap();
                    for key in ["best_score", "best_path", "line"] {
                        r.remove(key);
                    }
                }
                let kids = o.remove("children").unwrap();
                o.insert("children".into(), json!(kids.as_array().unwrap().len()));
                n
            })
            .collect()
    };
    assert_eq!(unnumbered(&t), unnumbered(&s));
    assert_eq!(t["nodes"].as_array().unwrap().len(), 13);
}

/// Issue 66, item 8: a page served by another program on this machine (another port, or a
/// loopback address the server does not listen on) is another site: its WebSocket is refused,
/// so it cannot take the boards.
#[test]
fn websockets_from_other_local_ports_and_addresses_are_refused() {
    let server = Server::start(&[]);
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    for origin in [
        "http://localhost:3000".to_string(),
        "http://127.0.0.1:9999".to_string(),
        format!("http://127.0.0.2:{port}"),
        format!("http://[::1]:{port}"),
        format!("https://localhost:{port}"),
    ] {
        let refused = server.try_connect(&[("Origin", &origin)]);
        assert!(refused.is_err(), "{origin} is accepted");
    }
    assert!(server.logs("refused a WebSocket from origin"));
    for origin in [
        format!("http://localhost:{port}"),
        format!("http://{}", server.addr),
    ] {
        let mut c = server
            .try_connect(&[("Origin", &origin)])
            .unwrap_or_else(|e| panic!("{origin} refused: {e}"));
        c.next("hello");
    }
}

/// The status line and body of the answer to a request whose target is `target`, sent as
/// the first request of a connection, or as the second after a plain `GET /` on it.
fn get_target(server: &Server, target: &str, second: bool) -> (String, String) {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut reader = BufReader::new(s.try_clone().unwrap());
    if second {
        write!(
            s,
            "GET /style.css HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.addr
        )
        .unwrap();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
    }
    // The request may be cut short by the server's answer: what it wrote is what counts.
    let _ = write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    let mut text = Vec::new();
    let _ = reader.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

/// Issue 66, item 7: an address over the limit gets 414 and a page that says the link is
/// too long, both below hyper's own limit (64 KiB, where it answers with no page) and above
/// it, on a fresh connection (a link opened in a browser) and on one kept alive.
#[test]
fn an_address_over_the_limit_gets_a_414_page_that_says_the_link_is_too_long() {
    let server = Server::start(&[]);
    let fen = |bytes: usize| format!("/?fen={}", "W".repeat(bytes));
    for (bytes, second) in [(20_000, false), (20_000, true), (100_000, false)] {
        let (status, body) = get_target(&server, &fen(bytes), second);
        assert!(status.starts_with("HTTP/1.1 414"), "{bytes}: {status}");
        assert!(body.contains("The link is too long"), "{bytes}: {body}");
        assert!(body.contains("Open the board"), "{body}");
    }
    // A link within the limit opens the page.
    let (status, body) = get_target(&server, &fen(2_000), false);
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(body.contains("<html"), "{body}");
    let (status, _) = get_target(&server, &fen(2_000), true);
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(server.logs("refused an address of"));
    server.board().ping();
}

/// The slowest load the board accepts: one game with as many variations as the load limit
/// holds (each a few moves, none nested).
fn slowest_load(limit: usize) -> String {
    let mut text = String::from("1. 11-15 ");
    while text.len() + 40 < limit {
        text.push_str("(1. 9-13 22-18 2. 10-14) ");
    }
    text.push('*');
    text
}

/// Issue 66, item 6: a request that takes long (a large PDN to read) is handled off the
/// server's shared runtime, so that another board is answered meanwhile. Two boards load
/// at once (as many as the runtime has workers) and a third pings: its pong comes before
/// either load is answered. Before the fix the loads held both workers, and the ping waited.
#[test]
fn a_board_reading_a_large_pdn_never_holds_up_another() {
    let server = Server::start(&[]);
    let mut loaders = [server.connect(), server.connect()];
    let mut limit = 0;
    for c in &mut loaders {
        limit = c.next("hello")["limits"]["load_pdn"].as_u64().unwrap() as usize;
        c.next("state");
    }
    let mut other = server.board();
    let pdn = slowest_load(limit - 64);
    let message = json!({"type":"load_pdn","pdn":pdn}).to_string();
    for c in &mut loaders {
        c.send_text(&message);
    }
    other.ping();
    // The loads are answered after the pong: their replies are not there yet.
    for c in &mut loaders {
        c.ws.get_ref().set_nonblocking(true).unwrap();
        match c.ws.read() {
            Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            other => panic!("a load was answered before the other board's ping: {other:?}"),
        }
        c.ws.get_ref().set_nonblocking(false).unwrap();
    }
    for c in &mut loaders {
        assert_eq!(c.next("state")["type"], "state");
    }
}
