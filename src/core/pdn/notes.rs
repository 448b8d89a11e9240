//! A move's notes (`tree::Notes`) in PDN text and back: marks glued to the move and `$N`
//! NAGs, and the comments after it with their commands, `[%eval X]` and `[%clk H:MM:SS]`,
//! and the match runner's `{time 0.102s}`.

use crate::core::tree::Notes;
use std::time::Duration;

/// The move marks and their NAGs: `!` is `$1` ... `?!` is `$6`.
pub const MARKS: [(&str, u8); 6] = [
    ("!", 1),
    ("?", 2),
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
];

/// The NAG of a mark (`?!` gives 6).
pub fn mark_nag(mark: &str) -> Option<u8> {
    MARKS.iter().find(|(m, _)| *m == mark).map(|&(_, n)| n)
}

/// The mark of a NAG, for NAGs 1-6.
pub fn nag_mark(nag: u8) -> Option<&'static str> {
    MARKS.iter().find(|(_, n)| *n == nag).map(|&(m, _)| m)
}

/// Add a review's mark (its NAG) to a move's notes where the move has no mark of its own:
/// a mark the move came with (a PDN's `??`, `$4`, or a player's) is kept, never replaced,
/// and the review's goes first, where the writer glues it to the move. True if it was added.
pub fn add_review_mark(notes: &mut Notes, nag: u8) -> bool {
    if notes.nags.iter().any(|&n| nag_mark(n).is_some()) {
        return false;
    }
    notes.nags.insert(0, nag);
    true
}

/// A move's time as a comment: `{time 0.102s}` (milliseconds).
pub fn time_comment(t: Duration) -> String {
    format!("{{time {:.3}s}}", t.as_secs_f64())
}

/// Seconds written in decimal (`0.102`, `58`, `58.25`) as a duration, exactly; up to 9
/// decimals, and below a billion seconds.
fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || whole.len() > 9
        || frac.len() > 9
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // The fraction's digits, padded to nine: nanoseconds (no allocation: a match file has
    // a time comment for every move).
    let nanos = frac
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(9)
        .fold(0u32, |n, b| n * 10 + u32::from(b - b'0'));
    Some(Duration::new(whole.parse().ok()?, nanos))
}

/// The time in a `time 0.102s` comment (without its braces), if it is one.
pub fn parse_time_comment(text: &str) -> Option<Duration> {
    let seconds = text
        .trim()
        .strip_prefix("time ")?
        .trim()
        .strip_suffix('s')?;
    parse_seconds(seconds)
}

/// A clock reading as `[%clk]` writes it: `H:MM:SS`, with the fraction of a second when
/// there is one (`0:04:58.5`).
pub fn clock_text(t: Duration) -> String {
    let s = t.as_secs();
    let mut out = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if t.subsec_nanos() > 0 {
        let frac = format!("{:09}", t.subsec_nanos());
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

/// A clock reading `H:MM:SS(.f)` or `M:SS(.f)`.
pub fn parse_clock(text: &str) -> Option<Duration> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (*h, *m, *s),
        [m, s] => ("0", *m, *s),
        _ => return None,
    };
    let small = |t: &str| {
        (!t.is_empty() && t.len() <= 6 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u64>().ok())
            .flatten()
    };
    let (h, m) = (small(h)?, small(m)?);
    let s = parse_seconds(s)?;
    Some(Duration::from_secs(h * 3600 + m * 60) + s)
}

/// The first `[%name args]` command of `text` with this name: its arguments and the text
/// without it.
fn take_command(text: &str, name: &str) -> Option<(String, String)> {
    let open = format!("[%{name} ");
    let start = text.find(&open)?;
    let len = text[start..].find(']')?;
    let args = text[start + open.len()..start + len].trim().to_string();
    let rest = format!("{}{}", &text[..start], &text[start + len + 1..]);
    Some((args, rest))
}

/// Add a comment met after a move (or before the first move: the root's) to its notes: a
/// time comment sets `time`; otherwise the first `[%eval]` and `[%clk]` set `eval` and
/// `clock` (when not set yet), and what is left, trimmed, joins `comment` after a space.
pub fn add_comment(notes: &mut Notes, text: &str) {
    if notes.time.is_none() {
        if let Some(t) = parse_time_comment(text) {
            notes.time = Some(t);
            return;
        }
    }
    let mut text = text.to_string();
    if notes.eval.is_none() {
        if let Some((args, rest)) = take_command(&text, "eval") {
            notes.eval = Some(args);
            text = rest;
        }
    }
    if notes.clock.is_none() {
        if let Some((t, rest)) = take_command(&text, "clk")
            .and_then(|(args, rest)| parse_clock(&args).map(|t| (t, rest)))
        {
            notes.clock = Some(t);
            text = rest;
        }
    }
    join(&mut notes.comment, &text);
}

/// Add text to a comment, after a space when both have some.
pub fn join(comment: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if !comment.is_empty() {
        comment.push(' ');
    }
    comment.push_str(text);
}

/// A comment's text as it can go between braces: no brace inside, trimmed.
pub fn clean(text: &str) -> String {
    text.replace(['{', '}'], "").trim().to_string()
}

/// The comment text after a move (its commands, then its words), or `None` when there is
/// nothing to say. The time goes in a comment of its own (`time_comment`).
pub fn after_text(notes: &Notes) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(e) = &notes.eval {
        parts.push(format!("[%eval {}]", clean(e).replace(']', "")));
    }
    if let Some(c) = notes.clock {
        parts.push(format!("[%clk {}]", clock_text(c)));
    }
    let comment = clean(&notes.comment);
    if !comment.is_empty() {
        parts.push(comment);
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_nags_one_to_six() {
        for (m, n) in MARKS {
            assert_eq!((mark_nag(m), nag_mark(n)), (Some(n), Some(m)));
        }
        assert_eq!(
            (mark_nag("!!!"), nag_mark(7), nag_mark(0)),
            (None, None, None)
        );
    }

    #[test]
    fn a_review_mark_goes_only_where_there_is_none() {
        let mut plain = Notes {
            nags: vec![14],
            ..Notes::default()
        };
        assert!(add_review_mark(&mut plain, 6));
        assert_eq!(plain.nags, [6, 14]);
        for own in [vec![4], vec![14, 1], vec![2]] {
            let mut notes = Notes {
                nags: own.clone(),
                ..Notes::default()
            };
            assert!(!add_review_mark(&mut notes, 6));
            assert_eq!(notes.nags, own, "the move's own mark stays");
        }
    }

    #[test]
    fn times_and_clocks_read_back_exactly() {
        for ms in [0, 1, 102, 999, 1000, 61_500, 3_599_999, 36_000_000] {
            let t = Duration::from_millis(ms);
            let c = time_comment(t);
            assert_eq!(parse_time_comment(&c[1..c.len() - 1]), Some(t), "{c}");
            assert_eq!(parse_clock(&clock_text(t)), Some(t), "{}", clock_text(t));
        }
        assert_eq!(clock_text(Duration::from_millis(298_500)), "0:04:58.5");
        assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
        let odd = Duration::new(5, 123_456_789);
        assert_eq!(parse_clock(&clock_text(odd)), Some(odd));
        assert_eq!(parse_clock("4:58"), Some(Duration::from_secs(298)));
        assert_eq!(
            parse_time_comment("time 1.5s"),
            Some(Duration::from_millis(1500))
        );
        for bad in [
            "",
            "1:2:3:4",
            "a:00:00",
            "0:00:-1",
            "0:00:1.1234567890",
            "0:00:",
        ] {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
        for bad in ["time s", "time 1.5", "tim 1s", "time -1s", "time 1e3s"] {
            assert_eq!(parse_time_comment(bad), None, "{bad}");
        }
    }

    #[test]
    fn comments_give_their_commands() {
        let mut n = Notes::default();
        add_comment(
            &mut n,
            " [%eval -3.10] best 9-14 [%eval 0.05] [%clk 0:01:02] ",
        );
        assert_eq!(n.eval.as_deref(), Some("-3.10"));
        assert_eq!(n.clock, Some(Duration::from_secs(62)));
        assert_eq!(n.comment, "best 9-14 [%eval 0.05]");
        add_comment(&mut n, "time 0.250s");
        assert_eq!(n.time, Some(Duration::from_millis(250)));
        add_comment(&mut n, "and more");
        assert_eq!(n.comment, "best 9-14 [%eval 0.05] and more");
        assert_eq!(
            after_text(&n).unwrap(),
            "[%eval -3.10] [%clk 0:01:02] best 9-14 [%eval 0.05] and more"
        );
        // A clock that does not read stays in the text.
        let mut m = Notes::default();
        add_comment(&mut m, "[%clk soon] x");
        assert_eq!((m.clock, m.comment.as_str()), (None, "[%clk soon] x"));
        assert_eq!(after_text(&Notes::default()), None);
        assert_eq!(clean(" a {b} "), "a b");
    }
}
