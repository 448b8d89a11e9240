//! Protocol output: every line goes to stdout under one lock and is flushed at once, so the
//! loop's answers and the search thread's `info`/`done` lines never interleave. The search
//! hands up its progress as data (`search::Info`); the text of an `info` line is made here.

use crate::hub_syntax::quote;
use poolshark_engine::search::Info;
use std::fmt::Display;
use std::io::Write;

/// Write one protocol line. A client that has gone (a closed pipe) is not an error here: the
/// end of its input will follow and end the loop.
pub fn line(text: &str) {
    let mut buf = String::with_capacity(text.len() + 1);
    buf.push_str(text);
    buf.push('\n');
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = out.write_all(buf.as_bytes());
    let _ = out.flush();
}

/// Write `error message="..."` (`error_line`).
pub fn error(message: &dyn Display) {
    let text = error_line(message);
    log::debug!("{text}");
    line(&text);
}

/// The line `error message="..."`; the message is made safe for a Hub value.
pub fn error_line(message: &dyn Display) -> String {
    format!("error message={}", quote(&message.to_string()))
}

/// The fields of an `info` line, in the order of docs/PROTOCOL.md (also printed by
/// `poolshark analyze`). `multipv=K` follows the depth only in a multi-PV search.
pub fn info_fields(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.hub()).collect();
    let pv = if pv.len() == 1 {
        pv[0].clone()
    } else {
        format!("\"{}\"", pv.join(" "))
    };
    let multipv = info
        .multipv
        .map(|k| format!(" multipv={k}"))
        .unwrap_or_default();
    format!(
        "depth={}{multipv} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.1} pv={}",
        info.depth,
        info.mean_depth,
        info.score.hub(),
        info.nodes,
        info.time.as_secs_f64(),
        info.mnps(),
        pv
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::{movegen, Position};
    use poolshark_engine::search::score::Score;
    use std::time::Duration;

    #[test]
    fn info_fields_are_in_protocol_order() {
        let start = Position::start();
        let first = movegen::legal_moves(&start)[0];
        let reply = movegen::legal_moves(&start.play(&first))[0];
        let mut info = Info {
            depth: 7,
            mean_depth: 8.3,
            score: Score(6),
            nodes: 1_500_000,
            time: Duration::from_millis(500),
            pv: vec![first],
            multipv: None,
        };
        assert_eq!(
            info_fields(&info),
            format!(
                "depth=7 mean-depth=8.3 score=0.06 nodes=1500000 time=0.500 nps=3.0 pv={}",
                first.hub()
            )
        );
        info.pv.push(reply);
        let line = format!("info {}", info_fields(&info));
        let read = crate::hub_syntax::tokenize(&line).unwrap().unwrap();
        let pv = format!("{} {}", first.hub(), reply.hub());
        assert_eq!(read.arg("pv"), Some(pv.as_str()));
        assert_eq!(read.arg("score"), Some("0.06"));
        assert_eq!(read.arg("multipv"), None);
        info.multipv = Some(2);
        assert_eq!(
            info_fields(&info),
            format!(
                "depth=7 multipv=2 mean-depth=8.3 score=0.06 nodes=1500000 time=0.500 nps=3.0 \
                 pv=\"{pv}\""
            )
        );
    }
}
