//! A game tree as PDN text: tags (the Seven Tag Roster first), then the movetext with every
//! variation in parentheses, marks, NAGs and comments, wrapped at 80 columns, then the
//! result and a blank line. `movetext` reads it back to the same tree, and writing what it
//! reads gives the same text: a move's comments are written as `notes` finds they read
//! back (a comment holding a `}`, which only a `;` comment read can give, is written as
//! one, and ends its line).
//!
//! Moves are numbered in pairs from the first move of the game, whichever side makes it (so
//! a game from a FEN with White to move reads `1. w b 2. w b`, which readers that pair moves
//! from the FEN's side, such as pydraughts, follow). The second move of a pair carries a
//! number, `N...`, only where a variation starts or has just closed. A number goes with the
//! move after it, so a line never ends on a number.

use super::lexer::escape;
use super::notes;
use crate::core::notation;
use crate::core::tree::{GameTree, NodeId};

/// The Seven Tag Roster, in the order PDN writes it first.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The widest a movetext line is made (a comment longer than that stands on its own).
const WIDTH: usize = 80;

/// The tags in writing order: the roster's in its order, then the rest in theirs.
pub fn ordered_tags(tags: &[(String, String)]) -> Vec<&(String, String)> {
    let rank = |k: &str| ROSTER.iter().position(|r| *r == k).unwrap_or(ROSTER.len());
    let mut out: Vec<&(String, String)> = tags.iter().collect();
    // A stable sort: tags outside the roster keep their order.
    out.sort_by_key(|(k, _)| rank(k));
    out
}

/// What is left to write, as a stack.
enum Item {
    /// The main continuation after `at` (which is `ply` moves from the start); `number`:
    /// the next move needs its number even if it is the second of a pair.
    Line {
        at: NodeId,
        ply: usize,
        number: bool,
    },
    /// A variation: its `(`, its before-comment and its first move.
    Open {
        id: NodeId,
        ply: usize,
    },
    Close,
}

/// A tag's line, `[Name "value"]` (a `"` or `\\` in the value escaped), with its line break.
pub fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", escape(value))
}

/// The PDN text of a game.
pub fn write<D>(tags: &[(String, String)], tree: &GameTree<D>, result: &str) -> String {
    let mut out = String::new();
    for (k, v) in ordered_tags(tags) {
        out.push_str(&tag_line(k, v));
    }
    let mut tokens = Vec::new();
    let root = tree.root();
    tokens.extend(notes::after_comments(&tree.node(root).expect("live").notes));
    let mut stack = vec![Item::Line {
        at: root,
        ply: 0,
        number: true,
    }];
    while let Some(item) = stack.pop() {
        match item {
            Item::Close => tokens.push(")".into()),
            Item::Open { id, ply } => {
                tokens.push("(".into());
                let before = &tree.node(id).expect("live").notes.before;
                tokens.extend(notes::before_comments(before));
                move_tokens(tree, id, ply, true, &mut tokens);
            }
            Item::Line { at, ply, number } => {
                let kids = tree.children(at);
                let Some(&main) = kids.first() else { continue };
                move_tokens(tree, main, ply + 1, number, &mut tokens);
                stack.push(Item::Line {
                    at: main,
                    ply: ply + 1,
                    number: kids.len() > 1,
                });
                for &v in kids[1..].iter().rev() {
                    stack.push(Item::Close);
                    stack.push(Item::Line {
                        at: v,
                        ply: ply + 1,
                        number: false,
                    });
                    stack.push(Item::Open {
                        id: v,
                        ply: ply + 1,
                    });
                }
            }
        }
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    let mut open = false;
    // After a `;` comment, which runs to the end of its line.
    let mut ended = false;
    for t in tokens {
        // A `(` goes with the token after it, as a number does with its move.
        if t == "(" {
            open = true;
            continue;
        }
        let t = if std::mem::take(&mut open) {
            format!("({t}")
        } else {
            t
        };
        let glued = t == ")";
        let wide = line.len() + usize::from(!glued) + t.len() > WIDTH;
        if !line.is_empty() && (wide || ended) {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() && !glued {
            line.push(' ');
        }
        ended = t.starts_with(';') || t.starts_with("(;");
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A move (ply `ply` from the start) with its number when due, its mark and NAGs and its
/// comments.
fn move_tokens<D>(
    tree: &GameTree<D>,
    id: NodeId,
    ply: usize,
    number: bool,
    tokens: &mut Vec<String>,
) {
    let node = tree.node(id).expect("live");
    let parent = node
        .parent
        .and_then(|p| tree.node(p))
        .expect("a move's parent");
    let mv = node.mv.expect("a move");
    let mut text = notation::pdn_move(&parent.position, &mv);
    let mut nags = node.notes.nags.as_slice();
    if let Some(mark) = nags.first().and_then(|&n| notes::nag_mark(n)) {
        text.push_str(mark);
        nags = &nags[1..];
    }
    let pair = ply.div_ceil(2);
    if ply % 2 == 1 {
        tokens.push(format!("{pair}. {text}"));
    } else if number {
        tokens.push(format!("{pair}... {text}"));
    } else {
        tokens.push(text);
    }
    tokens.extend(nags.iter().map(|n| format!("${n}")));
    tokens.extend(notes::after_comments(&node.notes));
}

#[cfg(test)]
mod tests {
    use super::super::reader::{read_trees, TreeGame};
    use super::*;
    use crate::core::game::GameResult;
    use crate::core::movegen::legal_moves;
    use crate::core::rng::SplitMix64;
    use crate::core::tree::Notes;
    use crate::core::Position;
    use std::time::Duration;

    fn tags(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Write, read back, and check it is the same game; the text.
    fn round_trip(tags: &[(String, String)], tree: &GameTree, result: &str) -> String {
        let text = write(tags, tree, result);
        let back = read_trees(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.len(), 1, "{text}");
        let TreeGame {
            tags: t,
            tree: back_tree,
            result: r,
            ..
        } = &back[0];
        let want: Vec<(String, String)> = ordered_tags(tags).into_iter().cloned().collect();
        assert_eq!((t, r.as_str()), (&want, result), "{text}");
        assert!(back_tree.same_as(tree), "{text}\n{back_tree:#?}");
        // And the text of what was read is the text written.
        assert_eq!(write(t, back_tree, r), text);
        text
    }

    /// A game with variations nested three deep, and every kind of note.
    fn corpus_tree() -> GameTree {
        let mut t = GameTree::new(Position::start());
        let root = t.root();
        let play = |t: &mut GameTree, at, m: &str| t.play_text(at, m).unwrap();
        let a1 = play(&mut t, root, "11-15");
        let a2 = play(&mut t, a1, "23-19");
        let a3 = play(&mut t, a2, "8-11");
        let a4 = play(&mut t, a3, "22-17");
        let a5 = play(&mut t, a4, "9-13");
        // Depth 1: 1... 22-18 instead of 23-19.
        let b2 = play(&mut t, a1, "22-18");
        let b3 = play(&mut t, b2, "15x22");
        let b4 = play(&mut t, b3, "25x18");
        // Depth 2 inside it: 2. 15-19 instead of 15x22? No: a capture is forced, so 2... 26x17
        // instead of 25x18.
        let c4 = play(&mut t, b3, "26x17");
        let c5 = play(&mut t, c4, "8-11");
        // Depth 3 inside that: 3. 9-13 instead of 8-11.
        let d5 = play(&mut t, c4, "9-13");
        let _d6 = play(&mut t, d5, "17-14");
        let _b5 = play(&mut t, b4, "8-11");
        // A second variation at the first move, and one on White's move in the main line.
        let e1 = play(&mut t, root, "9-14");
        let _e2 = play(&mut t, e1, "22-18");
        let _f4 = play(&mut t, a3, "24-20");
        let mut note = |id, f: &dyn Fn(&mut Notes)| f(t.notes_mut(id).unwrap());
        note(root, &|n| n.comment = "Two players, one board.".into());
        note(a1, &|n| {
            n.eval = Some("0.05".into());
            n.clock = Some(Duration::from_secs(300));
            n.time = Some(Duration::from_millis(102));
        });
        note(a2, &|n| {
            n.nags = vec![6, 14];
            n.comment = "[%eval 0.40] is not the eval here: the first one is".into();
            n.eval = Some("-0.40".into());
        });
        note(b2, &|n| {
            n.before = "Sharper:".into();
            n.nags = vec![5];
            n.comment = "trades at once".into();
        });
        note(c4, &|n| n.nags = vec![2]);
        note(d5, &|n| {
            n.before = "Three deep.".into();
            n.nags = vec![4, 1];
            n.clock = Some(Duration::from_millis(298_500));
        });
        note(c5, &|n| n.comment = "back to the line".into());
        note(a5, &|n| n.nags = vec![22]);
        note(e1, &|n| n.before = "Or".into());
        t
    }

    #[test]
    fn a_corpus_with_variations_three_deep_round_trips() {
        let tree = corpus_tree();
        let tags = tags(&[
            ("GameType", "23"),
            ("White", "A \"quoted\" name"),
            ("Event", "corpus"),
            ("Annotator", "poolshark"),
            ("Result", "1-0"),
            ("Black", "B\\C"),
        ]);
        let text = round_trip(&tags, &tree, "1-0");
        let want = "\
[Event \"corpus\"]
[White \"A \\\"quoted\\\" name\"]
[Black \"B\\\\C\"]
[Result \"1-0\"]
[GameType \"23\"]
[Annotator \"poolshark\"]
{Two players, one board.} 1. 11-15 {[%eval 0.05] [%clk 0:05:00]} {time 0.102s}
({Or} 1. 9-14 22-18) 1... 23-19?! $14
{[%eval -0.40] [%eval 0.40] is not the eval here: the first one is} ({Sharper:}
1... 22-18!? {trades at once} 2. 15x22 25x18 (2... 26x17? 3. 8-11
{back to the line} ({Three deep.} 3. 9-13?? $1 {[%clk 0:04:58.5]} 17-14))
3. 8-11) 2. 8-11 22-17 (2... 24-20) 3. 9-13 $22 1-0

";
        assert_eq!(text, want, "\n{text}");
    }

    fn random_notes(rng: &mut SplitMix64, root: bool, first: bool) -> Notes {
        const WORDS: [&str; 11] = [
            "good",
            "the long diagonal",
            "é ü",
            "a;b",
            "(x)",
            "$5",
            "1-0",
            "[not a command]",
            "[%review best]",
            "10.",
            "line\nbreak",
        ];
        let mut chance = |p: usize| rng.below(100) < p;
        let mut n = Notes::default();
        let (nags, comment, eval, clock, time, before) = (
            chance(30) && !root,
            chance(30),
            chance(30),
            chance(20),
            chance(30),
            chance(40) && !root && !first,
        );
        let words = |rng: &mut SplitMix64| {
            let k = 1 + rng.below(3);
            let w: Vec<&str> = (0..k).map(|_| *rng.pick(&WORDS)).collect();
            w.join(" ").replace("\\n", "\n")
        };
        if nags {
            const NAGS: [u8; 10] = [1, 2, 3, 4, 5, 6, 0, 10, 14, 255];
            n.nags = (0..1 + rng.below(3)).map(|_| *rng.pick(&NAGS)).collect();
        }
        if comment {
            n.comment = words(rng);
        }
        if before {
            n.before = words(rng);
        }
        if eval {
            n.eval = Some(format!("{:.2}", (rng.below(601) as f64 - 300.0) / 100.0));
        }
        if rng.below(100) < 20 {
            let verdicts = ["best", "0.50 60.0 ??", "0.00 100.0", "1.25 40.5 ?!"];
            n.review = Some(rng.pick(&verdicts).to_string());
        }
        if clock {
            n.clock = Some(Duration::from_millis(rng.below(10_000_000) as u64));
        }
        if time {
            n.time = Some(Duration::from_millis(rng.below(100_000) as u64));
        }
        n
    }

    /// A random tree: moves added at random nodes (mostly the newest, for long lines), with
    /// promotions and deletions along the way, then random notes everywhere.
    fn random_tree(rng: &mut SplitMix64, start: Position) -> GameTree {
        let mut t = GameTree::new(start);
        let mut newest = t.root();
        for _ in 0..20 + rng.below(150) {
            let nodes = t.preorder();
            let at = if rng.below(10) < 6 {
                newest
            } else {
                *rng.pick(&nodes)
            };
            if t.game_at(at).unwrap().result() != GameResult::Ongoing {
                newest = t.root();
                continue;
            }
            let legal = legal_moves(&t.node(at).unwrap().position);
            newest = t.play(at, *rng.pick(legal.as_slice())).unwrap();
            let other = *rng.pick(&nodes);
            match rng.below(40) {
                0..=2 if other != t.root() => t.promote(other).unwrap(),
                3 if other != t.root() => t.promote_to_main(other).unwrap(),
                4 if other != t.root() => {
                    if t.line_to(newest).unwrap().contains(&other) {
                        newest = t.root();
                    }
                    t.delete(other).unwrap();
                }
                _ => {}
            }
        }
        for id in t.preorder() {
            let node = t.node(id).unwrap();
            let root = node.parent.is_none();
            let first = node
                .parent
                .is_some_and(|p| t.children(p).first() == Some(&id));
            let notes = random_notes(rng, root, first);
            *t.notes_mut(id).unwrap() = notes;
        }
        t
    }

    #[test]
    fn random_trees_round_trip() {
        let mut rng = SplitMix64::new(38);
        let starts = [
            Position::start(),
            notation::parse_fen("W:W21-32:B1-8,10,11,12,14").unwrap(),
            notation::parse_fen("B:WK18,K27,30:BK3,6,7").unwrap(),
        ];
        let mut variations = 0;
        for g in 0..300 {
            let start = starts[g % starts.len()];
            let tree = random_tree(&mut rng, start);
            variations += tree
                .preorder()
                .iter()
                .filter(|&&n| !tree.is_main_line(n))
                .count();
            let picked = *rng.pick(&["1-0", "0-1", "1/2-1/2", "*"]);
            // Where the rules ended the game, only their result reads back.
            let end = *tree.main_line().last().unwrap();
            let result = match tree.result_at(end).unwrap() {
                GameResult::Ongoing => picked,
                GameResult::Win(c) => super::super::result_text(Some(c)),
                GameResult::Draw(_) => "1/2-1/2",
            };
            let mut list = vec![
                ("GameType".to_string(), "23".to_string()),
                ("Round".into(), g.to_string()),
                ("Event".into(), "random \\ \"trees\"".into()),
            ];
            if rng.below(2) == 0 {
                list.push(("Result".into(), result.into()));
            }
            if start != Position::start() {
                list.push(("FEN".into(), notation::write_fen(&start)));
            }
            round_trip(&list, &tree, result);
        }
        // The trees did branch.
        assert!(variations > 300, "{variations}");
    }
}
