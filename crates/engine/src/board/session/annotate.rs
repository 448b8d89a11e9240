//! What a person writes into the game on the board, checked: a move's comment, mark and
//! other NAGs (`annotate`, made by `annotated`), and the tags of the Seven Tag Roster
//! (`tags`, checked by `checked_tags`); a line of moves added to the tree as a variation
//! (`add_line`) is the cursor's. Each is checked whole before anything changes, and each is
//! saved by `save_pdn` so that `load_pdn` reads it back the same.

use super::node::NodeData;
use super::SessionError;
use crate::core::pdn::{self, notes as pdn_notes, writer::ROSTER};
use crate::core::tree::{GameTree, NodeId, Notes, TreeError};
use crate::core::GameResult;
use std::collections::BTreeMap;

/// The longest comment a move may hold, in characters.
pub const MAX_COMMENT: usize = 4000;
/// The most text all the tree's comments may hold together, in bytes: 1 MiB, 262 comments
/// of 4000 characters. Saved, they take up to twice that (`"` and `\\` escaped in JSON),
/// which `protocol::MAX_SAVED_PDN` holds with room for the rest of the game (`size`).
pub const MAX_COMMENTS: usize = 1 << 20;
/// The most NAGs besides the mark a move may hold.
pub const MAX_NAGS: usize = 8;
/// The longest tag value, in characters.
pub const MAX_TAG: usize = 200;
/// The results a `Result` tag may hold.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Why an `annotate`, `tags` or `add_line` was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum AnnotateError {
    /// An `annotate` with none of comment, nag and nags.
    Nothing,
    /// A mark or NAG on the root, which has no move.
    RootHasNoMove,
    /// A `nag` that is not one of the marks (the text as given).
    NotAMark(String),
    /// A number in `nags` that is not a NAG other than the marks.
    NotANag(u64),
    TooManyNags(usize),
    /// A comment longer than `MAX_COMMENT` characters (its length).
    CommentTooLong(usize),
    /// The tree's comments together past `MAX_COMMENTS` bytes.
    CommentsTooLarge,
    /// A comment PDN cannot write and read back the same (a `}` with a line break).
    CommentNotWritable,
    /// A tag the board does not edit (its name).
    NotARosterTag(String),
    /// A tag value PDN cannot hold on its line (the tag's name, and why).
    BadTagValue(String, &'static str),
    /// A `Result` that is not one of `RESULTS`.
    BadResult(String),
    /// A `Result` the rules contradict at the main line's end (the result, and the rules').
    ResultAgainstRules(String, GameResult),
    /// An `add_line` with no moves.
    EmptyLine,
    /// A move of a line that is not legal there, or comes after the game's end: as a PDN's
    /// error names it (`pdn::ErrorKind`'s text).
    LineMove(pdn::ErrorKind),
}

impl std::fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::board::protocol::short;
        match self {
            AnnotateError::Nothing => {
                f.write_str("annotate takes a comment, a nag or nags (at least one of them)")
            }
            AnnotateError::RootHasNoMove => f.write_str(
                "node 0 is the start position: it has no move to mark (it takes a comment only)",
            ),
            AnnotateError::NotAMark(text) => write!(
                f,
                "'{}' is not a mark: one of ! ? !! ?? !? ?! (or $1 to $6), or null to clear it",
                short(text)
            ),
            AnnotateError::NotANag(n) => write!(
                f,
                "nags: {n} is not a NAG from 0 to 255 other than the marks 1 to 6 (set those with nag)"
            ),
            AnnotateError::TooManyNags(n) => {
                write!(f, "nags: {n} NAGs; a move holds at most {MAX_NAGS} besides its mark")
            }
            AnnotateError::CommentTooLong(n) => write!(
                f,
                "the comment has {n} characters; a move's comment holds at most {MAX_COMMENT}"
            ),
            AnnotateError::CommentsTooLarge => write!(
                f,
                "the game's comments would pass {MAX_COMMENTS} bytes together: shorten some"
            ),
            AnnotateError::CommentNotWritable => f.write_str(
                "a comment with both a '}' and a line break cannot be saved as PDN: drop one",
            ),
            AnnotateError::NotARosterTag(name) => write!(
                f,
                "tag '{}' is not one the board edits: {}",
                short(name),
                ROSTER.join(", ")
            ),
            AnnotateError::BadTagValue(name, why) => write!(f, "tag {name}: {why}"),
            AnnotateError::BadResult(text) => write!(
                f,
                "Result '{}' is not one of {}",
                short(text),
                RESULTS.join(", ")
            ),
            AnnotateError::ResultAgainstRules(result, rules) => write!(
                f,
                "Result '{result}' contradicts the rules: at the end of the main line, {rules}"
            ),
            AnnotateError::EmptyLine => f.write_str("add_line takes one move at least"),
            AnnotateError::LineMove(kind) => write!(f, "the line is not added: {kind}"),
        }
    }
}

/// The mark `nag` names: `!` ... `?!`, or `$1` ... `$6`; its NAG.
fn mark_of(text: &str) -> Option<u8> {
    let nag = match text.strip_prefix('$') {
        Some(n) => n.parse::<u8>().ok()?,
        None => pdn_notes::mark_nag(text)?,
    };
    pdn_notes::nag_mark(nag).map(|_| nag)
}

/// Do the notes' comments read back from PDN as they are (`pdn::notes::after_comments`)?
fn comment_writes_back(notes: &Notes) -> bool {
    let mut back = Notes::default();
    for c in pdn_notes::after_comments(notes) {
        let text = match c.strip_prefix('{') {
            Some(braced) => braced.strip_suffix('}').unwrap_or(braced),
            None => c.strip_prefix(';').unwrap_or(&c),
        };
        pdn_notes::add_comment(&mut back, text);
    }
    let commands = |n: &Notes| (n.eval.clone(), n.clock, n.time, n.review.clone());
    (&back.comment, commands(&back)) == (&notes.comment, commands(notes))
}

/// The reason a tag value cannot stand in PDN's `[Name "value"]` line, if any.
pub(super) fn tag_value_fault(value: &str) -> Option<&'static str> {
    if value.chars().count() > MAX_TAG {
        Some("longer than 200 characters")
    } else if value.chars().any(char::is_control) {
        Some("a line break or other control character cannot stand in a tag")
    } else {
        None
    }
}

/// The notes `annotate` makes of a node's `notes` (`is_root` for the start position, which
/// has no move) with its comment (trimmed; empty clears it), mark (`Some(None)` clears it)
/// and other NAGs, any of them; `others` is what the other nodes' comments take, in bytes.
pub(super) fn annotated(
    mut notes: Notes,
    is_root: bool,
    others: impl FnOnce() -> usize,
    comment: Option<&str>,
    nag: Option<Option<&str>>,
    nags: Option<&[u64]>,
) -> Result<Notes, AnnotateError> {
    if (&comment, &nag, &nags) == (&None, &None, &None) {
        return Err(AnnotateError::Nothing);
    }
    if is_root && (nag.is_some() || nags.is_some()) {
        return Err(AnnotateError::RootHasNoMove);
    }
    let mut mark = notes
        .nags
        .iter()
        .copied()
        .find(|&n| pdn_notes::nag_mark(n).is_some());
    let mut rest: Vec<u8> = notes
        .nags
        .iter()
        .copied()
        .filter(|&n| Some(n) != mark)
        .collect();
    if let Some(nag) = nag {
        mark = match nag {
            None => None,
            Some(text) => Some(mark_of(text).ok_or_else(|| AnnotateError::NotAMark(text.into()))?),
        };
    }
    if let Some(list) = nags {
        if list.len() > MAX_NAGS {
            return Err(AnnotateError::TooManyNags(list.len()));
        }
        rest = list
            .iter()
            .map(|&n| match u8::try_from(n) {
                Ok(n) if pdn_notes::nag_mark(n).is_none() => Ok(n),
                _ => Err(AnnotateError::NotANag(n)),
            })
            .collect::<Result<_, _>>()?;
    }
    notes.nags = mark.into_iter().chain(rest).collect();
    if let Some(text) = comment {
        let text = text.trim();
        let length = text.chars().count();
        if length > MAX_COMMENT {
            return Err(AnnotateError::CommentTooLong(length));
        }
        if others() + notes.before.len() + text.len() > MAX_COMMENTS {
            return Err(AnnotateError::CommentsTooLarge);
        }
        notes.comment = text.to_string();
        if !comment_writes_back(&notes) {
            return Err(AnnotateError::CommentNotWritable);
        }
    }
    Ok(notes)
}

/// What the comments of every node but `id` take, in bytes.
pub(super) fn comments_but(tree: &GameTree<NodeData>, id: NodeId) -> usize {
    tree.preorder()
        .into_iter()
        .filter(|&n| n != id)
        .filter_map(|n| tree.node(n))
        .map(|n| n.notes.comment.len() + n.notes.before.len())
        .sum()
}

/// What the comments of the whole tree take, in bytes.
pub(super) fn comments(tree: &GameTree<NodeData>) -> usize {
    tree.preorder()
        .into_iter()
        .filter_map(|n| tree.node(n))
        .map(|n| n.notes.comment.len() + n.notes.before.len())
        .sum()
}

/// `tags` checked: each a roster tag with a value PDN can hold, and a `Result` one of
/// `RESULTS` that the rules at the main line's end (`rules`) do not contradict. The
/// `Result` given, if one is.
pub(super) fn checked_tags(
    tags: &BTreeMap<String, String>,
    rules: impl Fn() -> Result<GameResult, TreeError>,
) -> Result<Option<String>, SessionError> {
    let mut result = None;
    for (name, value) in tags {
        if !ROSTER.contains(&name.as_str()) {
            return Err(AnnotateError::NotARosterTag(name.clone()).into());
        }
        if let Some(why) = tag_value_fault(value) {
            return Err(AnnotateError::BadTagValue(name.clone(), why).into());
        }
        if name == "Result" {
            if !RESULTS.contains(&value.as_str()) {
                return Err(AnnotateError::BadResult(value.clone()).into());
            }
            let rules = rules()?;
            let says = match rules {
                GameResult::Ongoing => None,
                GameResult::Win(c) => Some(pdn::result_text(Some(c))),
                GameResult::Draw(_) => Some(pdn::result_text(None)),
            };
            if says.is_some_and(|r| r != value) {
                return Err(AnnotateError::ResultAgainstRules(value.clone(), rules).into());
            }
            result = Some(value.clone());
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{human, pdn_of};
    use super::super::{Done, Session};
    use super::*;

    /// The session's text, saved and loaded into a fresh session.
    fn reloaded(s: &Session) -> Session {
        let mut t = human();
        t.load_pdn(&pdn_of(s), None).unwrap();
        t
    }

    fn node_after(s: &Session, ply: usize) -> u64 {
        s.main_line()[ply].index()
    }

    fn error(r: Result<Done, SessionError>) -> String {
        match r {
            Err(e) => e.to_string(),
            Ok(d) => panic!("accepted: {d:?}"),
        }
    }

    /// Issue 61, build 1: a comment, a mark and other NAGs are set, shown in the state,
    /// saved and read back, and cleared.
    #[test]
    fn annotate_sets_and_clears_comment_mark_and_nags() {
        let mut s = human();
        for m in ["11-15", "23-19", "8-11"] {
            s.play_text(m).unwrap();
        }
        let second = node_after(&s, 2);
        s.annotate(second, Some("  a quiet reply \n"), None, None)
            .unwrap();
        s.annotate(second, None, Some(Some("!?")), None).unwrap();
        s.annotate(second, None, None, Some(&[14])).unwrap();
        s.annotate(0, Some("From the start."), None, None).unwrap();
        let st = s.state();
        let n = st.nodes.iter().find(|n| n.id == second).unwrap();
        assert_eq!(
            (n.comment.as_str(), n.mark, n.nags.clone()),
            ("a quiet reply", Some("!?"), vec![14])
        );
        assert_eq!(st.node, node_after(&s, 3), "the position shown stays");
        let pdn = pdn_of(&s);
        assert!(
            pdn.contains("{From the start.} 1. 11-15 23-19!? $14 {a quiet reply} 2. 8-11"),
            "{pdn}"
        );
        let t = reloaded(&s);
        let n = t
            .state()
            .nodes
            .into_iter()
            .find(|n| n.id == second)
            .unwrap();
        assert_eq!(
            (n.comment.as_str(), n.mark, n.nags),
            ("a quiet reply", Some("!?"), vec![14])
        );
        assert_eq!(t.state().nodes[0].comment, "From the start.");
        // `$2` names the mark `?`; null clears it, an empty text the comment, [] the NAGs.
        s.annotate(second, None, Some(Some("$2")), None).unwrap();
        assert!(pdn_of(&s).contains("23-19? $14"), "{}", pdn_of(&s));
        s.annotate(second, Some(""), Some(None), Some(&[])).unwrap();
        let n = s
            .state()
            .nodes
            .into_iter()
            .find(|n| n.id == second)
            .unwrap();
        assert_eq!((n.comment.as_str(), n.mark, n.nags), ("", None, vec![]));
        assert!(
            pdn_of(&s).contains("1. 11-15 23-19 2. 8-11"),
            "{}",
            pdn_of(&s)
        );
    }

    /// Issue 61, build 1: each bad annotate is refused, and nothing changes.
    #[test]
    fn bad_annotations_are_refused_and_change_nothing() {
        let mut s = human();
        s.play_text("11-15").unwrap();
        let first = node_after(&s, 1);
        s.annotate(first, Some("kept"), Some(Some("!")), None)
            .unwrap();
        let before = pdn_of(&s);
        let long = "x".repeat(MAX_COMMENT + 1);
        for (r, want) in [
            (s.clone_annotate(99, Some("x"), None, None), "no node"),
            (s.clone_annotate(first, None, None, None), "at least one"),
            (
                s.clone_annotate(0, None, Some(Some("!")), None),
                "no move to mark",
            ),
            (
                s.clone_annotate(first, None, Some(Some("!!!")), None),
                "'!!!' is not a mark",
            ),
            (
                s.clone_annotate(first, None, Some(Some("$7")), None),
                "'$7' is not a mark",
            ),
            (
                s.clone_annotate(first, None, None, Some(&[3])),
                "3 is not a NAG",
            ),
            (
                s.clone_annotate(first, None, None, Some(&[256])),
                "256 is not a NAG",
            ),
            (
                s.clone_annotate(first, None, None, Some(&[10; 9])),
                "at most 8",
            ),
            (
                s.clone_annotate(first, Some(&long), None, None),
                "at most 4000",
            ),
            (
                s.clone_annotate(first, Some("a}\nb"), None, None),
                "'}' and a line break",
            ),
            // One bad part refuses the good ones with it.
            (
                s.clone_annotate(first, Some("new"), Some(Some("?")), Some(&[300])),
                "300",
            ),
        ] {
            assert!(r.contains(want), "{r} (want {want})");
            assert_eq!(pdn_of(&s), before, "{r}");
        }
    }

    impl Session {
        /// `annotate`'s error text.
        fn clone_annotate(
            &mut self,
            node: u64,
            comment: Option<&str>,
            nag: Option<Option<&str>>,
            nags: Option<&[u64]>,
        ) -> String {
            error(self.annotate(node, comment, nag, nags))
        }
    }

    /// A comment that reads as a command, and one with a `}`, are saved so that they read
    /// back as written: every command the writer writes (issue 66, item 3: `[%review]`
    /// came back as a review, a `??` with its loss counted, and `[%review best]` vanished),
    /// with the move reviewed or not; save, load, save is byte-equal.
    #[test]
    fn odd_comments_round_trip() {
        use crate::review::marks::Mark;
        for text in [
            "[%eval 1.5] not a score",
            "a } brace",
            "two\nlines",
            "say \"hi\"",
            "[%review 1.00 50.0 ??]",
            "[%review best]",
            "[%review 0.00 100.0] [%review best]",
            "[%clk 0:01:02]",
            "[%eval 0.1] [%clk 0:00:05] [%review 0.5 60 ?!] all three",
            "time 0.102s",
            "a\r\nb",
        ] {
            for reviewed in [false, true] {
                let mut s = human();
                s.play_text("11-15").unwrap();
                s.play_text("22-18").unwrap();
                let first = node_after(&s, 1);
                s.annotate(first, Some(text), None, None).unwrap();
                if reviewed {
                    let note = super::super::ReviewNote {
                        mark: Some(Mark::Mistake),
                        best: Some(super::super::BestLine {
                            mv: "9-13".into(),
                            score: "0.10".into(),
                            line: vec!["9-13".into(), "22-18".into()],
                        }),
                        loss: 0.5,
                        accuracy: 60.0,
                    };
                    s.record_review(s.main_line()[1], "-0.40", note);
                }
                let saved = pdn_of(&s);
                let t = reloaded(&s);
                let n = t.tree().node(t.main_line()[1]).unwrap();
                assert_eq!(
                    (n.notes.comment.as_str(), n.notes.review.as_deref()),
                    (text, None),
                    "{saved}"
                );
                let summary = t.state().review.map(|r| (r.plies, r.black.mistakes));
                let want = reviewed.then_some((1, 1));
                assert_eq!(summary, want, "{saved}");
                assert_eq!(pdn_of(&t), saved, "save, load, save");
                assert_eq!(t.tree().len(), s.tree().len(), "{saved}");
            }
        }
    }

    fn tags(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Issue 61, build 1: the roster's tags are set over the board's or a loaded game's,
    /// carried by the state, saved and read back; an empty one is left out.
    #[test]
    fn tags_are_set_shown_saved_and_read_back() {
        let mut s = human();
        s.play_text("11-15").unwrap();
        s.set_tags(&tags(&[
            ("White", "Tinsley"),
            ("Black", "Chinook \"v2\""),
            ("Event", "Test match"),
            ("Site", "Petal, MS"),
            ("Round", "3"),
            ("Date", "1994.08.17"),
            ("Result", "1/2-1/2"),
        ]))
        .unwrap();
        let st = s.state();
        assert_eq!(st.tags["White"], "Tinsley");
        assert_eq!(st.tags["Result"], "1/2-1/2");
        assert_eq!(st.tags["GameType"], "23", "the board's other tags stay");
        let pdn = pdn_of(&s);
        assert!(pdn.starts_with("[Event \"Test match\"]\n[Site \"Petal, MS\"]\n[Date \"1994.08.17\"]\n[Round \"3\"]\n[White \"Tinsley\"]\n[Black \"Chinook \\\"v2\\\"\"]\n[Result \"1/2-1/2\"]\n"), "{pdn}");
        assert!(pdn.contains("1. 11-15 1/2-1/2"), "{pdn}");
        let t = reloaded(&s);
        assert_eq!(t.state().tags, st.tags);
        // Over a loaded game's tags; an empty value drops the tag; the others stay.
        let mut t = reloaded(&s);
        t.set_tags(&tags(&[("Site", ""), ("Round", "4")])).unwrap();
        let again = t.state().tags;
        assert_eq!((again.get("Site"), again["Round"].as_str()), (None, "4"));
        assert_eq!(again["White"], "Tinsley");
        // The result stands until the main line changes.
        t.play_text("23-19").unwrap();
        assert_eq!(t.state().tags["Result"], "*");
    }

    /// Issue 61, build 1: bad tags are refused whole, and nothing changes.
    #[test]
    fn bad_tags_are_refused_and_change_nothing() {
        let mut s = human();
        s.load_pdn("[White \"A\"]\n1. 11-15 *", None).unwrap();
        let before = pdn_of(&s);
        let mut won = human();
        won.load_pdn("[FEN \"W:W:B1\"]\n0-1", None).unwrap();
        let long = "x".repeat(201);
        for (on_won, list, want) in [
            (
                false,
                &[("White", "B"), ("Annotator", "me")][..],
                "tag 'Annotator' is not one the board edits",
            ),
            (
                false,
                &[("White", "B"), ("Result", "2-0")][..],
                "Result '2-0' is not one of 1-0, 0-1, 1/2-1/2, *",
            ),
            (false, &[("Result", "")][..], "Result '' is not one of"),
            (
                false,
                &[("Event", "two\nlines")][..],
                "tag Event: a line break",
            ),
            (false, &[("Black", long.as_str())][..], "longer than 200"),
            (true, &[("Result", "1-0")][..], "contradicts the rules"),
        ] {
            let who = if on_won { &mut won } else { &mut s };
            let pdn = pdn_of(who);
            let e = error(who.set_tags(&tags(list)));
            assert!(e.contains(want), "{e} (want {want})");
            assert_eq!(pdn_of(who), pdn);
        }
        assert_eq!(pdn_of(&s), before);
        won.set_tags(&tags(&[("Result", "0-1")])).unwrap();
    }

    /// Issue 61, build 2: a line follows the moves already there and adds the rest as a
    /// variation; the position shown stays; saved and read back.
    #[test]
    fn add_line_follows_the_tree_and_adds_a_variation() {
        let mut s = human();
        for m in ["11-15", "23-19", "8-11"] {
            s.play_text(m).unwrap();
        }
        let (shown, size) = (s.state().node, s.tree().len());
        let moves: Vec<String> = ["23-19", "9-14", "22-17"].map(String::from).into();
        s.add_line(node_after(&s, 1), &moves).unwrap();
        assert_eq!(s.tree().len(), size + 2, "23-19 followed, two moves added");
        assert_eq!(s.state().node, shown);
        let pdn = pdn_of(&s);
        assert!(
            pdn.contains("1. 11-15 23-19 2. 8-11 (2. 9-14 22-17) *"),
            "{pdn}"
        );
        let t = reloaded(&s);
        assert_eq!(t.tree().len(), s.tree().len());
        // The same line again adds nothing.
        s.add_line(node_after(&s, 1), &moves).unwrap();
        assert_eq!(s.tree().len(), size + 2);
        // From the end of the main line, it goes on the main line.
        let end = node_after(&s, 3);
        s.add_line(end, &["22-18".into(), "15x22".into()]).unwrap();
        assert_eq!(s.main_line().len(), 6);
    }

    /// Issue 61, build 2: an illegal move, or one past the game's end, refuses the whole
    /// line, named as a PDN's error names a move; nothing changes.
    #[test]
    fn a_bad_line_is_refused_whole() {
        let mut s = human();
        s.play_text("11-15").unwrap();
        let before = pdn_of(&s);
        let line = |m: &[&str]| m.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let e = error(s.add_line(
            node_after(&s, 1),
            &line(&["22-18", "15x22", "25x18", "14-23"]),
        ));
        assert!(
            e.contains("the line is not added: move 3. '14-23' (ply 5): "),
            "{e}"
        );
        let e = error(s.add_line(0, &line(&["11-15", "22-18", "15-19"])));
        assert!(e.contains("move 2. '15-19' (ply 3)"), "{e}");
        assert!(error(s.add_line(0, &[])).contains("one move at least"));
        assert!(error(s.add_line(77, &line(&["11-15"]))).contains("no node"));
        assert_eq!(pdn_of(&s), before);
        let mut won = human();
        won.load_pdn("[FEN \"W:W:B1\"]\n0-1", None).unwrap();
        let e = error(won.add_line(0, &line(&["1-5"])));
        assert!(
            e.contains("move 1. '1-5' (ply 1) after the game ended"),
            "{e}"
        );
    }
}
