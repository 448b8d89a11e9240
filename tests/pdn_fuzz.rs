//! The PDN reader under damaged input: a real match game, a game with variations and
//! comments, and games made at random with every kind of comment, each changed at random
//! many times (bytes flipped, dropped, doubled, cut short, brackets, comments and move text
//! spliced in), must always give games or an error, never a panic; and save, load, save is
//! a fixed point: a game that reads writes as text that reads as the same game (tree,
//! notes, tags and result) and writes as the same text again.
//!
//! The board too: comments a player writes that read as each command the writer writes
//! (`[%eval]`, `[%clk]`, `[%review]`, a time), with `\r\n` and `"` in them, on moves the
//! board has reviewed or not, come back as written, and save, load, save is byte-equal.
//!
//! `POOLSHARK_PDN_FUZZ=N` runs N inputs of each kind instead of the usual few thousand.

use poolshark::serve::board::protocol::{Player, Reply};
use poolshark::serve::board::session::{BestLine, Done, ReviewNote, Session};
use poolshark_engine::core::movegen::legal_moves;
use poolshark_engine::core::notation::pdn_move;
use poolshark_engine::core::pdn::{self, writer, PdnError, TreeBuilder, TreeGame};
use poolshark_engine::core::rng::{SplitMix64, Xorshift64};
use poolshark_engine::core::tree::GameTree;
use poolshark_engine::core::{Move, Position};
use poolshark_engine::review::marks::Mark;

const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    ";",
    "%",
    "x",
    "-",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "2-0",
    "0-2",
    "1-1",
    "$1",
    "!?",
    "..",
    ". ",
    "\n",
    "32",
    "0",
    "99",
    "5x14x23x32",
    "[FEN \"",
    "W:W",
    ":B",
    "K",
    "[SetUp \"1\"]",
    "\u{e9}",
    "\r",
    "[%eval ",
    "[%clk ",
    "[%clk 0:01:02]",
    "[%review ",
    "[%review best]",
    "[%review 1.00 50.0 ??]",
    "\r\n",
    "time ",
    "{time 1s}",
    " {x} ",
    "; c}\n",
];

/// Comments, as a file may hold them: commands, their lookalikes, braces, times, line
/// breaks, `%` and `;` inside, and the halves of commands that meet when joined.
const COMMENTS: &[&str] = &[
    "{a note}",
    "{[%eval 0.12]}",
    "{[%eval -3.10] best}",
    "{[%ev{al 0.05]}",
    "{[%eval {1]}",
    "{[%eval 2}",
    "{x]}",
    "{[%eval}",
    "{2]}",
    "{[%clk 0:01:02]}",
    "{[%clk soon] [%clk 0:00:05]}",
    "{[%clk 999999:59:59]}",
    "{[%clk 0:0:999999999]}",
    "{[%clk}",
    "{0:00:03]}",
    "{time 0.102s}",
    "{time 1s}",
    "{time 0.1234s}",
    "{time}",
    "{1s}",
    "{ time  2s }",
    "{{ nested {}",
    "{two\nlines}",
    "{a\n% not an escape}",
    "{;semi}",
    "{$5 (x) 1-0}",
    "{}",
    "{ }",
    "{\u{e9} \u{fc}}",
    "{[%eval [%clk 0:00:01]}",
    "; to the end } of the line\n",
    "; [%eval 3]\n",
    "; time 3s\n",
    ";\n",
    "; {x}\n",
    "{[%review 1.00 50.0 ??]}",
    "{[%review 0.5 60}",
    "{??]}",
    "{[%review best]}",
    "{[%review}",
    "{best]}",
    "{[%review 0.00 100.0] [%review best]}",
    "{[%review 1 2 !!] x}",
    "{[%review nope]}",
    "{[%eval 0.1] [%clk 0:00:05] [%review 0.5 60 ?!]}",
    "{a\r\nb}",
    "{\r\n}",
    "{x\r}",
    "; crlf\r\n",
];

const NAGS: &[&str] = &[
    "$1", "$2", "$14", "$0", "$255", "!", "?", "!!", "??", "!?", "?!",
];

fn mutate(text: &str, rng: &mut Xorshift64) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(7) {
            0 => b[at] = rng.below(128) as u8,
            1 => {
                b.remove(at);
            }
            2 => {
                let end = (at + 1 + rng.below(40)).min(b.len());
                let copy = b[at..end].to_vec();
                b.splice(at..at, copy);
            }
            3 => b.truncate(at),
            4 => {
                let c = COMMENTS[rng.below(COMMENTS.len())].as_bytes();
                b.splice(at..at, c.iter().copied());
            }
            _ => {
                let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                b.splice(at..at, piece.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Up to `most` comments and NAGs, at random, each after a space.
fn notes(rng: &mut SplitMix64, most: usize, nags: bool, out: &mut String) {
    for _ in 0..rng.below(most + 1) {
        let item = if nags && rng.below(3) == 0 {
            *rng.pick(NAGS)
        } else {
            *rng.pick(COMMENTS)
        };
        out.push(' ');
        out.push_str(item);
    }
}

/// A line of `plies` random moves from `pos` (ply `ply` of the game), the first not one of
/// `taken`, with comments, NAGs and variations (which open their own lines, `depth` deep at
/// most).
fn line(
    rng: &mut SplitMix64,
    mut pos: Position,
    mut ply: usize,
    taken: &[Move],
    plies: usize,
    depth: usize,
    out: &mut String,
) {
    for k in 0..plies {
        let legal = legal_moves(&pos);
        if legal.as_slice().is_empty() {
            return;
        }
        // A variation of another move only (one that begins with a move played there
        // already is another matter: issue 58, item 3).
        let taken = if k == 0 { taken } else { &[] };
        let free: Vec<Move> = legal
            .as_slice()
            .iter()
            .filter(|m| !taken.contains(m))
            .copied()
            .collect();
        if free.is_empty() {
            return;
        }
        let mv = *rng.pick(&free);
        if ply.is_multiple_of(2) {
            out.push_str(&format!(" {}.", ply / 2 + 1));
        } else if k == 0 {
            out.push_str(&format!(" {}...", ply / 2 + 1));
        }
        out.push(' ');
        out.push_str(&pdn_move(&pos, &mv));
        notes(rng, 3, true, out);
        let mut taken = taken.to_vec();
        taken.push(mv);
        if depth > 0 && free.len() > 1 && rng.below(6) == 0 {
            out.push_str(" (");
            notes(rng, 2, false, out);
            let plies = 1 + rng.below(4);
            line(rng, pos, ply, &taken, plies, depth - 1, out);
            out.push_str(" )");
            notes(rng, 2, true, out);
        }
        pos = pos.play(&mv);
        ply += 1;
    }
}

/// A game made at random: tags, comments before the first move, moves with comments and
/// NAGs after them, variations with comments before, inside and after them.
fn random_game(rng: &mut SplitMix64) -> String {
    let mut out = String::from("[Event \"fuzz\"]\n[GameType \"23\"]\n");
    notes(rng, 3, false, &mut out);
    let plies = rng.below(30);
    line(rng, Position::start(), 0, &[], plies, 3, &mut out);
    out.push(' ');
    let result = ["*", "1-0", "0-1", "1/2-1/2"][rng.below(4)];
    out.push_str(result);
    out.push('\n');
    out
}

/// Where two trees first differ, in words.
fn tree_difference(a: &GameTree, b: &GameTree) -> String {
    let (pa, pb) = (a.preorder(), b.preorder());
    for (&x, &y) in pa.iter().zip(&pb) {
        let (nx, ny) = (a.node(x).unwrap(), b.node(y).unwrap());
        if nx.mv != ny.mv {
            return "other moves".into();
        }
        if nx.notes != ny.notes {
            return format!("other notes:\n{:?}\n{:?}", nx.notes, ny.notes);
        }
    }
    format!("{} nodes, then {}", pa.len(), pb.len())
}

/// What one input gave.
#[derive(Default)]
struct Tally {
    read: usize,
    refused: usize,
    games: usize,
    /// Inputs whose games did not save, load and save as themselves, with why.
    differ: Vec<String>,
}

/// Every game of `text`, as trees checked by the rules.
fn read_trees(text: &str) -> Result<Vec<TreeGame>, PdnError> {
    pdn::games_in(text, TreeBuilder::default()).collect()
}

impl Tally {
    /// Read `text`; save, load and save each of its games.
    fn check(&mut self, text: &str) {
        let games = match read_trees(text) {
            Ok(games) => games,
            Err(e) => {
                self.refused += 1;
                assert!(!e.to_string().is_empty());
                return;
            }
        };
        self.read += 1;
        for g in games {
            self.games += 1;
            let once = g.write();
            let why = match read_trees(&once) {
                Err(e) => Some(format!("the saved text does not read: {e}")),
                Ok(back) if back.len() != 1 => Some(format!("{} games", back.len())),
                Ok(back) => {
                    let b = &back[0];
                    let tags: Vec<_> = writer::ordered_tags(&g.tags).into_iter().cloned().collect();
                    if !b.tree.same_as(&g.tree) {
                        Some(tree_difference(&g.tree, &b.tree))
                    } else if (&b.tags, &b.result) != (&tags, &g.result) {
                        Some("other tags or result".to_string())
                    } else if b.write() != once {
                        Some(format!("saved again:\n{}", b.write()))
                    } else {
                        None
                    }
                }
            };
            if let Some(why) = why {
                self.differ
                    .push(format!("{why}\n--- saved:\n{once}\n--- from:\n{text}"));
            }
            // The main line alone reads back as itself too.
            let main = pdn::PdnGame::from(g).write();
            let back = pdn::read(&main).unwrap_or_else(|e| panic!("{e}\n{main}"));
            assert_eq!(back.len(), 1, "{main}");
            assert_eq!(back[0].write(), main);
        }
    }

    fn assert_fixed(&self, what: &str) {
        eprintln!(
            "{what}: {} read ({} games), {} refused, {} differ",
            self.read,
            self.games,
            self.refused,
            self.differ.len()
        );
        assert!(
            self.differ.is_empty(),
            "{what}: {} of {} games differ after save, load, save; the first:\n{}",
            self.differ.len(),
            self.games,
            self.differ[0]
        );
    }
}

/// Inputs of each kind: `POOLSHARK_PDN_FUZZ`, or `usual`.
fn rounds(usual: usize) -> usize {
    std::env::var("POOLSHARK_PDN_FUZZ")
        .ok()
        .map(|n| n.parse().expect("POOLSHARK_PDN_FUZZ is a number"))
        .unwrap_or(usual)
}

#[test]
fn damaged_pdn_is_read_or_refused_never_a_panic() {
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/full-path-capture.pdn"
    ))
    .unwrap();
    let tree = "[Event \"t\"]\n[Result \"*\"]\n{before} 1. 11-15 {a note} $14 {[%eval 0.1]} \
                (1. 9-13 23-18 (1... 22-17 $2) 14x23) {after} 23-19 8-11?! {time 0.5s} \
                {time 1s} 2. 22-17 {[%eval 0.12]} {[%ev{al 0.05]} ; a } b\n4-8 *\n";
    let mut rng = Xorshift64::new(0x5eed_0f9d_4e00);
    let mut tally = Tally::default();
    for round in 0..rounds(4000) {
        let base = if round % 2 == 0 { &game } else { tree };
        tally.check(&mutate(base, &mut rng));
    }
    tally.assert_fixed("damaged");
    // Both outcomes happen, so the damage is neither always fatal nor always harmless.
    assert!(
        tally.read > 100 && tally.refused > 100,
        "read {} refused {}",
        tally.read,
        tally.refused
    );
}

#[test]
fn random_games_with_every_kind_of_comment_save_as_they_load() {
    let mut rng = SplitMix64::new(58);
    let mut damage = Xorshift64::new(0x0058_c0de);
    let mut tally = Tally::default();
    for round in 0..rounds(2000) {
        let text = random_game(&mut rng);
        // Half as made, half damaged too.
        if round % 2 == 0 {
            tally.check(&text);
        } else {
            tally.check(&mutate(&text, &mut damage));
        }
    }
    tally.assert_fixed("random");
    // The games as made read, and some damaged ones.
    assert!(
        tally.read > rounds(2000) / 2 && tally.refused > 0,
        "read {} refused {}",
        tally.read,
        tally.refused
    );
}

/// Pieces of a player's comment: each command the writer writes, whole and in halves, a
/// time, `"`, `\\`, `}` and line breaks with and without `\r`.
const WORDS: &[&str] = &[
    "[%eval 1.5]",
    "[%eval",
    "0.40]",
    "[%clk 0:01:02]",
    "[%clk",
    "0:00:05]",
    "[%review 1.00 50.0 ??]",
    "[%review best]",
    "[%review",
    "0.5 60 ?!]",
    "best]",
    "??]",
    "time",
    "0.102s",
    "time 1s",
    "\"quoted\"",
    "back\\slash",
    "a}",
    "two\r\nlines",
    "two\nlines",
    "\r\n",
    "word",
];

/// A comment of a few `WORDS`, as a player may type it.
fn player_comment(rng: &mut SplitMix64) -> String {
    (0..1 + rng.below(5))
        .map(|_| *rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(if rng.below(4) == 0 { "  " } else { " " })
}

fn saved(s: &Session) -> String {
    match s.save_pdn() {
        Done::Reply(Reply::Pdn { pdn, .. }) => pdn,
        other => panic!("no PDN: {other:?}"),
    }
}

/// Issue 66, items 3 and 11: comments that read as commands, on moves reviewed or not,
/// come back as the player wrote them; save, load, save is byte-equal.
#[test]
fn comments_that_read_as_commands_come_back_as_written() {
    let mut rng = SplitMix64::new(66);
    let mut refused = 0;
    for _ in 0..rounds(400) {
        let mut s = Session::new(Position::start(), Player::Human, Player::Human);
        let plies = 1 + rng.below(12);
        for _ in 0..plies {
            let legal = legal_moves(s.game().position());
            if legal.as_slice().is_empty() {
                break;
            }
            s.play(*rng.pick(legal.as_slice())).unwrap();
        }
        let main = s.main_line();
        let mut written = Vec::new();
        for &node in &main {
            if rng.below(2) == 0 {
                let text = player_comment(&mut rng);
                match s.annotate(node.index(), Some(&text), None, None) {
                    Ok(_) => written.push((node, text.trim().to_string())),
                    // A `}` with a line break: PDN cannot hold it, and the board says so.
                    Err(e) => {
                        assert!(e.to_string().contains("'}' and a line break"), "{e}");
                        refused += 1;
                    }
                }
            }
            if node != main[0] && rng.below(2) == 0 {
                let mark = [None, Some(Mark::Inaccuracy), Some(Mark::Blunder)][rng.below(3)];
                let parent = s.tree().node(node).unwrap().parent.unwrap();
                let pos = s.tree().node(parent).unwrap().position;
                let mv = *rng.pick(legal_moves(&pos).as_slice());
                let best = pdn_move(&pos, &mv);
                let note = ReviewNote {
                    mark,
                    best: Some(BestLine {
                        mv: best.clone(),
                        score: "0.10".into(),
                        line: vec![best],
                    }),
                    loss: rng.below(300) as f64 / 100.0,
                    accuracy: rng.below(1001) as f64 / 10.0,
                };
                s.record_review(node, "-0.25", note);
            }
        }
        let once = saved(&s);
        let mut t = Session::new(Position::start(), Player::Human, Player::Human);
        t.load_pdn(&once, None)
            .unwrap_or_else(|e| panic!("{e}\n{once}"));
        let back = t.main_line();
        for (node, text) in &written {
            let i = main.iter().position(|n| n == node).unwrap();
            let n = t.tree().node(back[i]).unwrap();
            assert_eq!(&n.notes.comment, text, "{once}");
            assert_eq!(n.notes.review, None, "{once}");
        }
        assert_eq!(
            s.state().review.map(|r| (r.plies, r.black, r.white)),
            t.state().review.map(|r| (r.plies, r.black, r.white)),
            "the review's summary: {once}"
        );
        assert_eq!(saved(&t), once, "save, load, save");
    }
    assert!(refused > 0);
}
