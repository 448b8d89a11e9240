//! How large a board's game can grow saved: a bound on `save_pdn`'s text, in bytes of the
//! JSON string that carries it back in `load_pdn`, kept under `protocol::MAX_SAVED_PDN` so
//! that whatever the board holds it saves, and whatever it saves it loads (issue 66, item 1).
//!
//! The bound is room for what the board writes by itself, taken whole from the start (every
//! move the tree may hold, with a score and a clock, and a review of every main-line move
//! with its best line), plus what a player's words take written (comments, NAGs, tags, and
//! a loaded game's notes the board did not write), measured. Playing, a review or a clock
//! only fill room already counted, and the player's part changes only by `annotate`, `tags`
//! and `load_pdn`, which check the bound with the change and refuse it, nothing changed,
//! where it would pass. A game saved and loaded back has the same bound, so it loads.

use super::{pdn_io, SessionError, MAX_MOVES, MAX_PLIES, TIME_FORFEIT};
use crate::board::protocol::{json_string_len, MAX_SAVED_PDN};
use crate::core::pdn::{self, notes as pdn_notes, writer};
use crate::core::tree::{GameTree, Notes};

/// The most one move of the tree adds to the saved text: its number (`1004... `: a line is
/// at most `MAX_PLIES` long, and a review's best line 8 moves more), the move (13 squares
/// and 12 `x`: 38), a mark glued to it (2), the space after it, and the parentheses of a
/// variation it begins (2 and a space): 52, rounded up.
pub const MOVE_BYTES: usize = 64;
/// A score the board writes, `{[%eval -99.99]}` and a space (`Score::hub` writes six
/// characters at most): 17, rounded up. A loaded score no longer than this counts here too.
pub const EVAL_BYTES: usize = 24;
/// A clock reading, `{[%clk 999999:59:59.999999999]}` and a space (the longest
/// `pdn::notes::parse_clock` reads, so a loaded one too): 32.
pub const CLOCK_BYTES: usize = 32;
/// A review of a main-line move besides its score and mark: its verdict,
/// `[%review 100.00 100.0 ??]` and a space (27), and a marked move's best line as a variation:
/// 8 moves taking 24 pieces at most between them (5 characters a move and 3 more a piece
/// past the first a capture takes: 112), their numbers (`1004... ` and four `N. `: 32),
/// spaces and parentheses (10), and its first move's `{[%eval -99.99] [%review best]}` (32):
/// 213, rounded up.
pub const REVIEW_BYTES: usize = 256;
/// The result after the movetext and the blank line: `1/2-1/2` and three line breaks, and
/// a line break between the tags and the movetext.
pub(super) const RESULT_BYTES: usize = 16;
/// The longest result (`1/2-1/2`), which the `Result` tag counts as whatever it says now.
const LONGEST_RESULT: &str = "1/2-1/2";

/// The room the board keeps for what it writes by itself (see the module's doc): 992,016
/// bytes.
pub const ROOM: usize =
    MAX_MOVES * (MOVE_BYTES + EVAL_BYTES + CLOCK_BYTES) + MAX_PLIES * REVIEW_BYTES + RESULT_BYTES;

/// The most a player's words may take saved: 2,415,856 bytes.
pub const WORDS: usize = MAX_SAVED_PDN - ROOM;

// The worst a player can write fits (see `protocol::MAX_SAVED_PDN`): 1 MiB of comments, each
// byte written as two, in comments of 4000 characters, each in braces with a space after;
// 8 NAGs of 4 characters and a space on every move; the roster's tags, 200 `"` each.
const _: () = {
    use super::annotate::{MAX_COMMENT, MAX_COMMENTS, MAX_NAGS};
    let comments = 2 * MAX_COMMENTS + (MAX_COMMENTS / MAX_COMMENT + 1) * 3;
    let nags = MAX_MOVES * MAX_NAGS * 5;
    let tags = 7 * (200 * 4 + 20) + 200;
    assert!(comments + nags + tags + 100_000 < WORDS);
    // A saved text is read as one game, and its variations nest less deep than its lines
    // are long.
    assert!(MAX_SAVED_PDN <= pdn::MAX_MOVETEXT);
    assert!(MAX_PLIES <= pdn::MAX_NESTING);
};

/// What a move's notes take saved beyond the room kept for its move, score and clock: its
/// NAGs but a mark, its comments, and a score or clock longer than the room for one.
fn notes_bytes(notes: &Notes) -> usize {
    let fits = |command: String, room: usize| json_string_len(&command) + 3 <= room;
    let own = Notes {
        eval: notes
            .eval
            .clone()
            .filter(|e| !fits(format!("[%eval {e}]"), EVAL_BYTES)),
        clock: notes
            .clock
            .filter(|&c| !fits(format!("[%clk {}]", pdn_notes::clock_text(c)), CLOCK_BYTES)),
        ..notes.clone()
    };
    let mut nags = notes.nags.as_slice();
    if nags
        .first()
        .is_some_and(|&n| pdn_notes::nag_mark(n).is_some())
    {
        nags = &nags[1..];
    }
    let nags = nags.iter().map(|n| json_string_len(&format!("${n}")) + 1);
    let comments = pdn_notes::after_comments(&own)
        .into_iter()
        .chain(pdn_notes::before_comments(&notes.before))
        .map(|c| json_string_len(&c) + 1);
    nags.chain(comments).sum()
}

/// What the player's words take saved (see the module's doc): `tags` as `save_pdn` writes
/// them (what the board may still change in them counted at its longest: the result, the
/// players of a game `begun_here`, a `timed` one's `Termination` before its flag falls),
/// and every move's notes.
pub(super) fn words_bytes<D>(
    mut tags: Vec<(String, String)>,
    begun_here: bool,
    timed: bool,
    tree: &GameTree<D>,
) -> usize {
    for (name, value) in tags.iter_mut() {
        if name == "Result" {
            *value = LONGEST_RESULT.into();
        }
        // A game begun here names its players as they are now (`players` changes them).
        let player = name == "White" || name == "Black";
        if begun_here && player && value == pdn_io::HUMAN {
            *value = pdn_io::ENGINE.into();
        }
    }
    if begun_here && timed && !tags.iter().any(|(k, _)| k == "Termination") {
        tags.push(("Termination".into(), TIME_FORFEIT.into()));
    }
    let tags: usize = tags
        .iter()
        .map(|(k, v)| json_string_len(&writer::tag_line(k, v)))
        .sum();
    let notes: usize = tree
        .preorder()
        .into_iter()
        .filter_map(|id| tree.node(id))
        .map(|n| notes_bytes(&n.notes))
        .sum();
    tags + notes
}

/// Refuse a game whose words (`words_bytes`) pass `WORDS`: saved, it might not load back.
pub(super) fn check(bytes: usize) -> Result<(), SessionError> {
    if bytes > WORDS {
        return Err(SessionError::TooLarge(bytes));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::annotate::{MAX_COMMENT, MAX_COMMENTS};
    use super::super::testing::{human, pdn_of as saved};
    use super::super::{BestLine, ReviewNote, Session};
    use super::*;
    use crate::board::protocol::{self, Request, MAX_PDN_MESSAGE};
    use crate::core::rng::SplitMix64;
    use crate::core::tree::NodeId;
    use crate::core::{movegen, notation};
    use crate::review::marks::Mark;
    use std::collections::BTreeMap;
    use std::time::Duration;

    /// A game whose tree holds `MAX_MOVES` (`testing::grow`).
    fn long_game(rng: &mut SplitMix64) -> Session {
        let mut s = human();
        super::super::testing::grow(&mut s, rng, MAX_MOVES);
        s
    }

    /// A line of 8 legal moves from `node`'s parent, the first another than `node`'s.
    fn best_line(s: &Session, node: NodeId, rng: &mut SplitMix64) -> Option<BestLine> {
        let n = s.tree().node(node)?;
        let mut pos = s.tree().node(n.parent?)?.position;
        let mut line = Vec::new();
        for i in 0..8 {
            let legal: Vec<_> = movegen::legal_moves(&pos)
                .as_slice()
                .iter()
                .copied()
                .filter(|m| i > 0 || Some(*m) != n.mv)
                .collect();
            if legal.is_empty() {
                break;
            }
            let mv = *rng.pick(&legal);
            line.push(notation::pdn_move(&pos, &mv));
            pos = pos.play(&mv);
        }
        Some(BestLine {
            mv: line.first()?.clone(),
            score: "-99.99".into(),
            line,
        })
    }

    /// Issue 66, item 1: the largest game a board holds saves, and what it saves loads. A
    /// tree of `MAX_MOVES` moves, each with a mark, 8 NAGs, a score and the longest clock;
    /// 262 comments of 4000 characters, all `"`, all `\`, or both, and the rest of the 1 MiB
    /// in one more; the roster's tags 200 `"` each; every main-line move reviewed, marked,
    /// with a best line of 8 moves. Its `save_pdn` text, sent back as the `load_pdn` the page
    /// sends after a reload (with the path to the end), is within the message limit, parses,
    /// loads, and saves again byte for byte.
    #[test]
    fn the_largest_game_saves_and_loads_back() {
        let mut rng = SplitMix64::new(66);
        let mut s = long_game(&mut rng);
        let nodes: Vec<NodeId> = s.tree().preorder();
        assert_eq!(nodes.len(), MAX_MOVES + 1);
        let longest = Duration::new(999_999 * 3600 + 3599, 999_999_999);
        for &id in &nodes[1..] {
            let notes = s.cursor.notes_mut(id).unwrap();
            notes.nags = vec![4, 255, 254, 253, 252, 251, 250, 249, 248];
            notes.eval = Some("-99.99".into());
            notes.clock = Some(longest);
        }
        let units = ["\"", "\\", "\"\\"];
        let mut left = MAX_COMMENTS;
        for (i, &id) in nodes.iter().enumerate() {
            let length = left.min(MAX_COMMENT);
            if length == 0 {
                break;
            }
            let unit = units[i % units.len()];
            let text = unit.repeat(length / unit.len());
            s.annotate(id.index(), Some(&text), None, None).unwrap();
            left -= text.len();
        }
        assert_eq!(left, 0, "1 MiB of comments");
        let long = "\"".repeat(200);
        let tags: BTreeMap<String, String> = ["Event", "Site", "Date", "Round", "White", "Black"]
            .iter()
            .map(|k| (k.to_string(), long.clone()))
            .collect();
        s.set_tags(&tags).unwrap();
        let main = s.main_line();
        for &id in &main[1..] {
            let note = ReviewNote {
                mark: Some(Mark::Blunder),
                best: best_line(&s, id, &mut rng),
                loss: 20.0,
                accuracy: 0.0,
            };
            s.record_review(id, "-99.99", note);
        }
        assert!(s.words_bytes() <= WORDS, "{}", s.words_bytes());
        let pdn = saved(&s);
        let path: Vec<String> = s
            .tree()
            .moves_to(*main.last().unwrap())
            .unwrap()
            .iter()
            .map(|m| m.hub())
            .collect();
        let message = serde_json::json!({"type": "load_pdn", "pdn": pdn, "path": path});
        let message = serde_json::to_string(&message).unwrap();
        eprintln!(
            "the largest game: {} bytes of PDN, {} in JSON ({} allowed), a load_pdn of {} \
             ({MAX_PDN_MESSAGE} allowed); words {} ({WORDS} allowed)",
            pdn.len(),
            json_string_len(&pdn),
            MAX_SAVED_PDN,
            message.len(),
            s.words_bytes()
        );
        assert!(json_string_len(&pdn) <= MAX_SAVED_PDN);
        let Ok(Request::LoadPdn {
            pdn: text, path, ..
        }) = protocol::parse(&message)
        else {
            panic!(
                "the load_pdn message does not parse: {} bytes",
                message.len()
            )
        };
        let mut t = human();
        t.load_pdn_at(&text, None, path.as_deref(), None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(t.tree().same_as(s.tree()));
        assert_eq!(saved(&t), pdn, "save, load, save");
        assert_eq!(t.words_bytes(), s.words_bytes());
    }

    /// What a player writes is measured as saved: control characters (six bytes each in
    /// JSON) pass the bound long before their bytes pass the comments' 1 MiB, and the
    /// comment that would pass it is refused with the board unchanged; so is a load of a
    /// game past it.
    #[test]
    fn words_past_the_bound_are_refused_and_change_nothing() {
        let mut s = long_game(&mut SplitMix64::new(7));
        let text = "\u{1}".repeat(MAX_COMMENT);
        let mut refused = None;
        for id in s.tree().preorder() {
            let before = saved(&s);
            if let Err(e) = s.annotate(id.index(), Some(&text), None, None) {
                assert_eq!(saved(&s), before, "nothing changed");
                refused = Some(e.to_string());
                break;
            }
        }
        let e = refused.expect("refused");
        assert!(
            e.starts_with("the game would be too large to save and load back"),
            "{e}"
        );
        assert!(s.words_bytes() <= WORDS);
        let before = saved(&s);
        let text = format!("{{{}}} 1. 11-15 *", "\u{1}".repeat(WORDS / 6));
        let e = s.load_pdn(&text, None).unwrap_err().to_string();
        assert!(e.starts_with("the game would be too large"), "{e}");
        assert_eq!(saved(&s), before, "nothing changed");
    }

    /// The bound with room only for the moves the tree holds now and the main line as
    /// long as it is: what the save may take now, if the room kept per move and per
    /// reviewed move holds what the board writes for it.
    fn bound_now(s: &Session) -> usize {
        let moves = s.tree().len() - 1;
        let main = s.main_line().len() - 1;
        s.words_bytes()
            + moves * (MOVE_BYTES + EVAL_BYTES + CLOCK_BYTES)
            + main * REVIEW_BYTES
            + RESULT_BYTES
    }

    /// The room kept per move holds what the board writes for each, whatever a player's
    /// words beside it (commands and their halves, times, quotes, braces, control
    /// characters): random games, annotated, reviewed, timed and promoted at random, save
    /// within the bound for the moves they hold.
    #[test]
    fn each_move_saves_within_its_room() {
        const WORDS_: [&str; 16] = [
            "[%eval 1.5]",
            "[%eval",
            "0.40]",
            "[%clk 0:01:02]",
            "[%clk",
            "[%review 1.00 50.0 ??]",
            "[%review",
            "best]",
            "time",
            "1s",
            "\"q\"",
            "a}",
            "b\r\nc",
            "\u{1}\u{1f}",
            "\\",
            "word",
        ];
        let mut rng = SplitMix64::new(67);
        for round in 0..1200 {
            let mut s = human();
            for _ in 0..1 + rng.below(40) {
                let legal = movegen::legal_moves(s.game().position());
                if legal.is_empty() || s.end().is_some() || rng.below(8) == 0 {
                    let line = s.line();
                    s.goto(None, Some(line[rng.below(line.len())].index()))
                        .unwrap();
                    continue;
                }
                s.play(*rng.pick(legal.as_slice())).unwrap();
            }
            let nodes = s.tree().preorder();
            for &id in &nodes {
                if rng.below(2) == 0 {
                    let text: Vec<&str> =
                        (0..1 + rng.below(6)).map(|_| *rng.pick(&WORDS_)).collect();
                    let _ = s.annotate(id.index(), Some(&text.join(" ")), None, None);
                }
                if id != nodes[0] && rng.below(2) == 0 {
                    let nags = [vec![], vec![14], vec![255, 10, 0]][rng.below(3)].clone();
                    let mark = [None, Some("!"), Some("??")][rng.below(3)];
                    s.annotate(id.index(), None, Some(mark), Some(&nags))
                        .unwrap();
                }
                if id != nodes[0] && rng.below(3) == 0 {
                    let n = s.cursor.notes_mut(id).unwrap();
                    n.clock = Some(Duration::from_millis(rng.below(1 << 30) as u64));
                }
            }
            if rng.below(2) == 0 {
                let far = nodes[rng.below(nodes.len())];
                if far != nodes[0] {
                    s.cursor.promote(far.index(), true).unwrap();
                }
            }
            let main = s.main_line();
            for &id in &main[1..] {
                if rng.below(3) > 0 {
                    let mark = [None, Some(Mark::Inaccuracy), Some(Mark::Blunder)][rng.below(3)];
                    let note = ReviewNote {
                        mark,
                        best: best_line(&s, id, &mut rng),
                        loss: rng.below(2001) as f64 / 100.0,
                        accuracy: rng.below(1001) as f64 / 10.0,
                    };
                    s.record_review(id, "-99.99", note);
                }
            }
            let pdn = saved(&s);
            let written = json_string_len(&pdn);
            assert!(
                written <= bound_now(&s),
                "round {round}: {written} > {}\n{pdn}",
                bound_now(&s)
            );
            let mut t = human();
            t.load_pdn(&pdn, None)
                .unwrap_or_else(|e| panic!("{e}\n{pdn}"));
            assert_eq!(saved(&t), pdn, "round {round}: save, load, save");
            // Loaded, the game counts the same words (its players' names now as written).
            assert!(t.words_bytes() <= s.words_bytes(), "round {round}\n{pdn}");
        }
    }
}
