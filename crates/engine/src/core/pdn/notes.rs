//! A move's notes (`tree::Notes`) in PDN text and back: marks glued to the move and `$N`
//! NAGs, and the comments after it with their commands, `[%eval X]`, `[%clk H:MM:SS]` and
//! the board's `[%review X]`, and the match runner's `{time 0.102s}`. Every command the
//! writer writes is one the reader takes out of a comment, and a comment's words that would
//! read as one are written apart (`after_comments`), so a comment always reads back as
//! written.

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

/// A move's time as a comment: `{time 0.102s}` (milliseconds, or finer when the time
/// has more: a time read back is written back as it was).
pub fn time_comment(t: Duration) -> String {
    format!("{{{}}}", time_text(t))
}

/// A time comment's text, without its braces: `time 0.102s`.
fn time_text(t: Duration) -> String {
    let frac = format!("{:09}", t.subsec_nanos());
    let frac = frac.trim_end_matches('0');
    format!("time {}.{frac:0<3}s", t.as_secs())
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

/// The time in a `time 0.102s` comment (without its braces), if it is one: the form
/// `time_comment` writes, with one space (so two comments `{time}` `{1s}` joined as the
/// words `time 1s` are never taken for one when written apart: see `after_comments`).
pub fn parse_time_comment(text: &str) -> Option<Duration> {
    let seconds = text.trim().strip_prefix("time ")?.strip_suffix('s')?;
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
    let text = text.trim();
    // The longest that reads (6 digits, 6, then 9.9): a long text is refused at once.
    if text.len() > 6 + 1 + 6 + 1 + 19 {
        return None;
    }
    let parts: Vec<&str> = text.split(':').collect();
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
    let t = Duration::from_secs(h * 3600 + m * 60) + s;
    // Below a million hours, so `clock_text` writes it back in hours this reads.
    (t.as_secs() < 1_000_000 * 3600).then_some(t)
}

/// The first `[%name args]` command of `text` with this name whose arguments `parse`
/// takes: what it gave and the text without the command.
fn take_command<T>(
    text: &str,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Option<(T, String)> {
    let open = format!("[%{name} ");
    let mut from = 0;
    // The first `]` after the command's start, kept while later starts come before it, so
    // a text of many starts is read in linear time.
    let mut close = 0;
    while let Some(k) = text[from..].find(&open) {
        let start = from + k;
        if close <= start {
            close = start + text[start..].find(']')?;
        }
        if let Some(got) = parse(text[start + open.len()..close].trim()) {
            let rest = format!("{}{}", &text[..start], &text[close + 1..]);
            return Some((got, rest));
        }
        from = start + 1;
    }
    None
}

/// The arguments of a `[%review]` command as the board writes them (`reviewed`): `best`,
/// or the men a move gave away and its accuracy, two finite numbers, and a mark if any.
fn review_args(args: &str) -> Option<String> {
    if args == "best" {
        return Some(args.into());
    }
    let words: Vec<&str> = args.split_whitespace().collect();
    let number = |w: &str| w.parse::<f64>().is_ok_and(f64::is_finite);
    let reads = match words.as_slice() {
        [loss, accuracy] => number(loss) && number(accuracy),
        [loss, accuracy, mark] => number(loss) && number(accuracy) && mark_nag(mark).is_some(),
        _ => false,
    };
    reads.then(|| args.to_string())
}

/// Add a comment met after a move (or before the first move: the root's) to its notes: a
/// time comment sets `time` (when not set yet); otherwise the first `[%eval]`, the first
/// `[%clk]` and the first `[%review]` that read set `eval`, `clock` and `review` (each when
/// not set yet), and what is left, trimmed, joins `comment` after a space.
pub fn add_comment(notes: &mut Notes, text: &str) {
    if notes.time.is_none() {
        if let Some(t) = parse_time_comment(text) {
            notes.time = Some(t);
            return;
        }
    }
    let mut text = text.to_string();
    if notes.eval.is_none() {
        if let Some((args, rest)) = take_command(&text, "eval", |a| Some(a.to_string())) {
            notes.eval = Some(args);
            text = rest;
        }
    }
    if notes.clock.is_none() {
        if let Some((t, rest)) = take_command(&text, "clk", parse_clock) {
            notes.clock = Some(t);
            text = rest;
        }
    }
    if notes.review.is_none() {
        if let Some((args, rest)) = take_command(&text, "review", review_args) {
            notes.review = Some(args);
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

/// A comment's text as PDN can hold it: in braces, or, when it holds a `}` (a `;` comment
/// read may), after `;` to the end of the line; `None` when it holds both a `}` and a line
/// break. A `;` comment must end its line: the writer breaks the line after it.
fn delimited(text: &str) -> Option<String> {
    if !text.contains('}') {
        Some(format!("{{{text}}}"))
    } else if !text.contains('\n') {
        Some(format!("; {text}"))
    } else {
        None
    }
}

/// The comments that `add_comment`, given each in turn, makes back into `notes`' time,
/// eval, clock, review and comment; `None` if some comment cannot be written (`delimited`).
fn exactly(notes: &Notes, texts: &[String]) -> Option<Vec<String>> {
    let mut back = Notes::default();
    for t in texts {
        add_comment(&mut back, t);
    }
    let same = (
        &back.eval,
        back.clock,
        back.time,
        &back.review,
        &back.comment,
    ) == (
        &notes.eval,
        notes.clock,
        notes.time,
        &notes.review,
        &notes.comment,
    );
    same.then(|| texts.iter().map(|t| delimited(t)).collect())
        .flatten()
}

/// `text` cut at its single spaces between two other characters: the places where
/// `join` may have put two comments together.
fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let word = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace());
        if c == ' ' && word(prev) && word(next) {
            out.push(&text[start..i]);
            start = i + 1;
        }
        prev = Some(c);
    }
    out.push(&text[start..]);
    out
}

/// The usual comments after a move: `[%eval X] [%clk H:MM:SS] [%review X] words`, then
/// the time's.
fn usual(notes: &Notes) -> Vec<String> {
    let mut text = commands(notes);
    join(&mut text, &notes.comment);
    let mut texts: Vec<String> = (!text.is_empty()).then_some(text).into_iter().collect();
    texts.extend(notes.time.map(time_text));
    texts
}

/// `[%eval X] [%clk H:MM:SS] [%review X]`, as far as the notes have them.
fn commands(notes: &Notes) -> String {
    let mut out = Vec::new();
    if let Some(e) = &notes.eval {
        out.push(format!("[%eval {e}]"));
    }
    if let Some(c) = notes.clock {
        out.push(format!("[%clk {}]", clock_text(c)));
    }
    if let Some(r) = &notes.review {
        out.push(format!("[%review {r}]"));
    }
    out.join(" ")
}

/// The longest comment `after_comments` makes of words it must check as it joins them.
const GROUP: usize = 200;

/// The comments (each `{...}` or `; ...`) to write after a move, or at the root before
/// the first move, that read back (`add_comment`) to exactly its time, eval, clock, review
/// and comment. Usually one comment, `{[%eval X] [%clk H:MM:SS] words}`, and the time's,
/// `{time 0.102s}`. Comments read from a file and joined can need more: the time first
/// when the words read as a time (`{time 1s} {time 2s}`), and the words cut where one
/// written whole would read as a command or a time (`{[%eval 2} {x]}`), or would need
/// both `}` and a line break. Notes that no comments give back (made by hand, not read)
/// lose their `}`s, and the eval its `]`s.
pub fn after_comments(notes: &Notes) -> Vec<String> {
    if let Some(out) = exactly(notes, &usual(notes)) {
        return out;
    }
    // The time, the commands, then the words in as few comments as read back: each word
    // joins the comment before it unless that makes it read otherwise.
    let mut texts: Vec<String> = notes.time.map(time_text).into_iter().collect();
    let commands = commands(notes);
    if !commands.is_empty() {
        texts.push(commands);
    }
    let set = Notes {
        eval: notes.eval.clone(),
        clock: notes.clock,
        time: notes.time,
        review: notes.review.clone(),
        ..Notes::default()
    };
    let reads_as_itself = |text: &str| {
        let mut back = set.clone();
        add_comment(&mut back, text);
        let want = Notes {
            comment: text.to_string(),
            ..set.clone()
        };
        delimited(text).is_some() && back == want
    };
    let mut group: Option<String> = None;
    for w in words(&notes.comment) {
        group = Some(match group {
            // (Groups stay short, so that checking each word is quick.)
            Some(g) if g.len() + w.len() < GROUP && reads_as_itself(&format!("{g} {w}")) => {
                format!("{g} {w}")
            }
            Some(g) => {
                texts.push(g);
                w.to_string()
            }
            None => w.to_string(),
        });
    }
    texts.extend(group.filter(|g| !g.is_empty()));
    if let Some(out) = exactly(notes, &texts) {
        return out;
    }
    // Notes no file gave.
    let lossy = Notes {
        eval: notes.eval.as_deref().map(|e| e.replace([']', '}'], "")),
        comment: notes.comment.replace('}', "").trim().to_string(),
        ..notes.clone()
    };
    usual(&lossy).iter().map(|t| format!("{{{t}}}")).collect()
}

/// The comments to write before a variation's first move that read back (`join`) to
/// exactly `before`: one, or more where it holds both `}` and a line break (a `}` is
/// dropped where it stands in a line with a break, which no file gives).
pub fn before_comments(before: &str) -> Vec<String> {
    if before.is_empty() {
        return Vec::new();
    }
    if let Some(c) = delimited(before) {
        return vec![c];
    }
    // Each group with whether it holds a `}` and a line break.
    let flags = |t: &str| (t.contains('}'), t.contains('\n'));
    let mut out: Vec<String> = Vec::new();
    let mut group: Option<(String, (bool, bool))> = None;
    for w in words(before) {
        let (brace, newline) = flags(w);
        group = Some(match group {
            Some((mut g, (b, n))) if !((b || brace) && (n || newline)) => {
                g.push(' ');
                g.push_str(w);
                (g, (b || brace, n || newline))
            }
            Some((g, _)) => {
                out.push(g);
                (w.to_string(), (brace, newline))
            }
            None => (w.to_string(), (brace, newline)),
        });
    }
    out.extend(group.map(|(g, _)| g));
    out.iter()
        .map(|t| delimited(t).unwrap_or_else(|| format!("{{{}}}", t.replace('}', ""))))
        .collect()
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
            after_comments(&n),
            [
                "{[%eval -3.10] [%clk 0:01:02] best 9-14 [%eval 0.05] and more}",
                "{time 0.250s}"
            ]
        );
        // A clock that does not read stays in the text.
        let mut m = Notes::default();
        add_comment(&mut m, "[%clk soon] x");
        assert_eq!((m.clock, m.comment.as_str()), (None, "[%clk soon] x"));
        assert!(after_comments(&Notes::default()).is_empty());
        // The first clock that reads is the clock.
        let mut m = Notes::default();
        add_comment(&mut m, "[%clk soon] [%clk 0:00:05]");
        assert_eq!(
            (m.clock, m.comment.as_str()),
            (Some(Duration::from_secs(5)), "[%clk soon]")
        );
    }

    /// The notes the comments give, read in turn.
    fn read_back(comments: &[String]) -> Notes {
        let mut n = Notes::default();
        for c in comments {
            let text = c
                .strip_prefix('{')
                .and_then(|c| c.strip_suffix('}'))
                .or_else(|| c.strip_prefix(';'))
                .unwrap_or_else(|| panic!("not a comment: {c}"));
            add_comment(&mut n, text);
        }
        n
    }

    /// Issue 58, item 4: two comments on one move kept their notes but swapped places on
    /// each save (`{time 1s} {time 2s}` came back `{time 2s} {time 1.000s}`).
    #[test]
    fn two_time_comments_keep_their_order() {
        let mut n = Notes::default();
        add_comment(&mut n, "time 1s");
        add_comment(&mut n, "time 2s");
        assert_eq!(
            (n.time, n.comment.as_str()),
            (Some(Duration::from_secs(1)), "time 2s")
        );
        let out = after_comments(&n);
        assert_eq!(out, ["{time 1.000s}", "{time 2s}"]);
        assert_eq!(read_back(&out), n);
        // Words that read as a time only when joined stay apart.
        let mut n = Notes::default();
        add_comment(&mut n, "time");
        add_comment(&mut n, "1s");
        assert_eq!(after_comments(&n), ["{time}", "{1s}"]);
        // A time finer than milliseconds is written as it is.
        let t = Duration::new(2, 123_400_000);
        assert_eq!(time_comment(t), "{time 2.1234s}");
        assert_eq!(parse_time_comment("time 2.1234s"), Some(t));
    }

    /// Issue 58, item 4: a `{` in a comment was dropped on writing, so `{[%ev{al 0.05]}`
    /// came back as a real `[%eval 0.05]`.
    #[test]
    fn a_brace_in_a_comment_stays_and_makes_no_command() {
        let mut n = Notes::default();
        add_comment(&mut n, "[%ev{al 0.05]");
        assert_eq!(
            (n.eval.as_deref(), n.comment.as_str()),
            (None, "[%ev{al 0.05]")
        );
        let out = after_comments(&n);
        assert_eq!(out, ["{[%ev{al 0.05]}"]);
        assert_eq!(read_back(&out), n);
        // Two comments that make a command only when joined are written apart.
        let mut n = Notes::default();
        add_comment(&mut n, "[%eval 2");
        add_comment(&mut n, "x]");
        assert_eq!(
            (n.eval.as_deref(), n.comment.as_str()),
            (None, "[%eval 2 x]")
        );
        assert_eq!(after_comments(&n), ["{[%eval 2}", "{x]}"]);
        assert_eq!(read_back(&after_comments(&n)), n);
        // A `}` (from a `;` comment) is written in one, and with a line break, in two.
        let mut n = Notes::default();
        add_comment(&mut n, "a\nb");
        add_comment(&mut n, " c} d");
        assert_eq!(after_comments(&n), ["{a\nb}", "; c} d"]);
        assert_eq!(read_back(&after_comments(&n)), n);
        assert_eq!(before_comments("a\nb c} d"), ["{a\nb}", "; c} d"]);
    }

    /// Long comments of many words or many command starts are read and written in about
    /// linear time (a game's text is up to a megabyte).
    #[test]
    fn long_odd_comments_take_linear_time() {
        let many = |unit: &str| unit.repeat(100_000);
        let started = crate::time_source::Instant::now();
        // Comments as a file may hold them: each piece from one `{...}` or `;` comment.
        for pieces in [
            vec![many("[%clk ")],
            vec![many("[%clk x ")],
            vec![many("[%eval ")],
            vec![format!("{}]", many("[%clk 1:"))],
            vec!["a}".to_string(), many("b\nc "), "d}".to_string()],
            vec![
                "time".to_string(),
                many("1s "),
                "x}".to_string(),
                "y\nz".into(),
            ],
        ] {
            let mut n = Notes::default();
            for p in &pieces {
                add_comment(&mut n, p);
            }
            let out = after_comments(&n);
            assert!(read_back(&out) == n, "{}", &pieces[0][..20]);
            before_comments(&n.comment);
        }
        // Far below what a quadratic reading takes (hours); no machine is this slow.
        assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    }
}
