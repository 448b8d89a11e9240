//! What a review said of the main line's moves, kept on their nodes (`NodeData::review`):
//! each reviewed move's verdict (`record`), shown in its node (`TreeNode::review`), summed
//! over the main line as it stands (`State::review`), and written into the PDN and read back
//! (`to_save`, `restore`), so that a reloaded game teaches as the review did.
//!
//! In the PDN a reviewed move carries `[%review LOSS ACCURACY MARK]` in its comment (the
//! men it gave away, its accuracy in %, and the review's mark when it gave one), beside its
//! `[%eval]`; a marked move also gets the review's best line as a variation, whose first
//! move carries the best score's `[%eval]` and the tag `[%review best]`. That tag is what
//! tells the review's line from a player's variation: a loaded game gives the line back to
//! its move (`best`) and drops the variation, unless a player's notes or moves went with it.
//! Both are commands of the move's notes (`Notes::review`), never part of its comment, so a
//! player's comment that reads like one is written apart and comes back a comment
//! (`pdn::notes`).

use super::node::{BestLine, NodeData, ReviewNote, Reviewed};
use crate::board::protocol::{Judgement, NodeReview, ReviewSummary};
use crate::board::view::{legal_move, side_report};
use crate::core::pdn::notes as pdn_notes;
use crate::core::tree::{GameTree, NodeId, Notes};
use crate::core::{notation, Color};
use crate::review::marks::Mark;
use crate::review::SideSummary;
use std::borrow::Cow;

/// The most moves of the review's best line kept and saved: the line as the teaching panel
/// shows it, short enough not to crowd the saved game.
pub const BEST_LINE_PLIES: usize = 8;

/// The `[%review]` of the review's best line (a reviewed move's is its verdict).
const BEST: &str = "best";

/// The most men a move gives away and the most accuracy, in %, a verdict holds: a review's
/// are within them (`review::marks::WIN_MEN` twice at most), and a loaded verdict past them
/// is not the board's (it stays a command of the move's notes), so a saved review keeps
/// the size `size::REVIEW_BYTES` allows.
const MOST_LOSS: f64 = 100.0;
const MOST_ACCURACY: f64 = 100.0;

/// Is `text` a score as a review writes it (`Score::hub`: `-0.35`, `99.87`, six characters
/// at most)? Only such a score is taken from a review or a loaded game's best line.
fn is_score(text: &str) -> bool {
    text.len() <= 6 && crate::search::Score::from_hub(text).is_some()
}

/// Keep a review's verdict on a main-line move, its notes and data given: the mark an
/// earlier review added goes, and its mark is added where the move has none of its own (a
/// loaded PDN's marks and NAGs stay: `pdn::notes::add_review_mark`); its score, from Black's
/// side, becomes the move's; the rest is kept for the page and the PDN. The mark the move
/// shows now (`review_ply`'s `node_mark`).
pub(super) fn record(
    notes: &mut Notes,
    data: &mut NodeData,
    score: &str,
    mut note: ReviewNote,
) -> Option<&'static str> {
    let earlier = data.review.as_ref().and_then(|r| r.added);
    if let Some(i) = earlier.and_then(|nag| notes.nags.iter().position(|&n| n == nag)) {
        notes.nags.remove(i);
    }
    let added = note
        .mark
        .and_then(|m| pdn_notes::mark_nag(m.suffix()))
        .filter(|&nag| pdn_notes::add_review_mark(notes, nag));
    // What a search reports is checked as a page's words are: the saved game must
    // keep its size (`size`).
    if is_score(score) {
        notes.eval = Some(score.to_string());
    }
    note.best = note.best.filter(|b| is_score(&b.score));
    let within = |x: f64, most: f64| {
        if x.is_finite() {
            x.clamp(0.0, most)
        } else {
            0.0
        }
    };
    note.loss = within(note.loss, MOST_LOSS);
    note.accuracy = within(note.accuracy, MOST_ACCURACY);
    // The review's verdict is the node's data now (saved by `to_save`).
    notes.review = None;
    let shown = notes.nags.iter().find_map(|&n| pdn_notes::nag_mark(n));
    if let Some(b) = note.best.as_mut() {
        b.line.truncate(BEST_LINE_PLIES);
    }
    // As the PDN keeps them, so that a saved game sums to the same summary.
    note.loss = (note.loss * 100.0).round() / 100.0;
    note.accuracy = (note.accuracy * 10.0).round() / 10.0;
    data.review = Some(Reviewed { note, added });
    shown
}

/// A person set the move's mark: a review's mark is no longer to replace.
pub(super) fn mark_set_by_hand(data: &mut NodeData) {
    if let Some(r) = data.review.as_mut() {
        r.added = None;
    }
}

/// The review's best line before main-line ply `ply` (from 1), if the move was reviewed.
pub(super) fn best_before(tree: &GameTree<NodeData>, ply: usize) -> Option<BestLine> {
    let node = *tree.main_line().get(ply)?;
    tree.node(node)?.data.review.as_ref()?.note.best.clone()
}

/// The review's verdict on main-line ply `ply` as a `retry_result` gives one, where `mv` is
/// the move played there and the review judged it with its best line: a move tried that is
/// the move played gets the review's numbers, not a search's (one move, one number).
pub(super) fn judged(
    tree: &GameTree<NodeData>,
    ply: usize,
    mv: &crate::core::Move,
) -> Option<Judgement> {
    let id = *tree.main_line().get(ply)?;
    let node = tree.node(id)?;
    if node.mv.as_ref() != Some(mv) {
        return None;
    }
    let note = &node.data.review.as_ref()?.note;
    let best = note.best.as_ref()?;
    let score = node.notes.eval.clone()?;
    let review = node_review(tree, id)?;
    Some(Judgement {
        ply,
        node: None,
        played: node.data.shown.as_ref().map(|m| m.pdn.clone())?,
        score,
        best: best.mv.clone(),
        best_score: best.score.clone(),
        best_path: review.best_path,
        pv: best.line.clone(),
        loss: note.loss,
        good: note.loss < crate::review::marks::INACCURACY_MEN,
        mark: note.mark.map(Mark::suffix),
        node_mark: None,
    })
}

/// The review's best move before a node's move (PDN), if the move was reviewed.
pub(super) fn best_move(data: &NodeData) -> Option<String> {
    let best = data.review.as_ref()?.note.best.as_ref()?;
    Some(best.mv.clone())
}

/// Node `id`'s review as the page gets it.
pub(super) fn node_review(tree: &GameTree<NodeData>, id: NodeId) -> Option<NodeReview> {
    let node = tree.node(id)?;
    let note = &node.data.review.as_ref()?.note;
    let before = node.parent.and_then(|p| tree.node(p)).map(|n| n.position)?;
    let best_path = note
        .best
        .as_ref()
        .and_then(|b| notation::parse_move(&before, &b.mv).ok())
        .map(|mv| legal_move(&before, &mv).path)
        .unwrap_or_default();
    Some(NodeReview {
        mark: note.mark.map(Mark::suffix),
        loss: note.loss,
        best_score: note.best.as_ref().map(|b| b.score.clone()),
        best_path,
        line: note
            .best
            .as_ref()
            .map(|b| b.line.clone())
            .unwrap_or_default(),
    })
}

/// Each side's summary over the main line's reviewed moves, or None when none is.
pub(super) fn summary(tree: &GameTree<NodeData>) -> Option<ReviewSummary> {
    let main = tree.main_line();
    let (mut black, mut white) = (SideSummary::default(), SideSummary::default());
    let mut plies = 0;
    for pair in main.windows(2) {
        let Some(r) = tree.node(pair[1]).and_then(|n| n.data.review.as_ref()) else {
            continue;
        };
        plies += 1;
        let side = match tree.node(pair[0]).map(|n| n.position.side()) {
            Some(Color::White) => &mut white,
            _ => &mut black,
        };
        side.count(r.note.mark, r.note.loss, r.note.accuracy);
    }
    (plies > 0).then(|| ReviewSummary {
        plies,
        of: main.len() - 1,
        black: side_report(&black),
        white: side_report(&white),
    })
}

/// The tree to save: `tree`, with each reviewed main-line move's `[%review]` command and
/// each marked move's best line as a tagged variation (see the module's doc); `tree` itself
/// when nothing is reviewed.
pub(super) fn to_save(tree: &GameTree<NodeData>) -> Cow<'_, GameTree<NodeData>> {
    let main = tree.main_line();
    let verdict = |t: &GameTree<NodeData>, id| {
        t.node(id)
            .and_then(|n| n.data.review.as_ref())
            .map(|r| r.note.clone())
    };
    if !main.iter().any(|&id| verdict(tree, id).is_some()) {
        return Cow::Borrowed(tree);
    }
    let mut saved = tree.clone();
    for pair in main.windows(2) {
        let (parent, node) = (pair[0], pair[1]);
        let Some(note) = verdict(tree, node) else {
            continue;
        };
        if let Some(notes) = saved.notes_mut(node) {
            notes.review = Some(format!(
                "{:.2} {:.1}{}",
                note.loss,
                note.accuracy,
                note.mark
                    .map(|m| format!(" {}", m.suffix()))
                    .unwrap_or_default()
            ));
        }
        if let (Some(_), Some(best)) = (note.mark, &note.best) {
            add_best_line(&mut saved, parent, node, best);
        }
    }
    Cow::Owned(saved)
}

/// After a load: the `[%review]` commands of the main line's moves and the review's tagged
/// best lines become the nodes' verdicts again, out of the notes and the tree.
pub(super) fn restore(tree: &mut GameTree<NodeData>) {
    let main = tree.main_line();
    for pair in main.windows(2) {
        let (parent, node) = (pair[0], pair[1]);
        let Some(notes) = tree.notes_mut(node) else {
            continue;
        };
        let Some((loss, accuracy, mark)) = notes.review.as_deref().and_then(verdict) else {
            continue;
        };
        notes.review = None;
        let shown = notes.nags.iter().find_map(|&n| pdn_notes::nag_mark(n));
        // The review's mark is the one it added when the move shows it.
        let added = mark
            .filter(|m| shown == Some(m.suffix()))
            .and_then(|m| pdn_notes::mark_nag(m.suffix()));
        let best = take_best_line(tree, parent, node);
        if let Some(data) = tree.data_mut(node) {
            data.review = Some(Reviewed {
                note: ReviewNote {
                    mark,
                    best,
                    loss,
                    accuracy,
                },
                added,
            });
        }
    }
    // A tagged line elsewhere (its move moved off the main line) loses only its tag.
    for id in tree.preorder() {
        if let Some(notes) = tree.notes_mut(id) {
            if notes.review.as_deref() == Some(BEST) {
                notes.review = None;
            }
        }
    }
}

/// The review's best line beside main-line `node` (a child of `parent` tagged
/// `[%review best]`), taken out of the tree where nothing of a player's is on it.
fn take_best_line(tree: &mut GameTree<NodeData>, parent: NodeId, node: NodeId) -> Option<BestLine> {
    let before = tree.node(parent)?.position;
    let tagged = tree.children(parent).iter().copied().find(|&c| {
        c != node
            && tree
                .node(c)
                .is_some_and(|n| n.notes.review.as_deref() == Some(BEST))
    })?;
    let first = tree.node(tagged)?;
    let score = first.notes.eval.clone().filter(|s| is_score(s))?;
    let line_nodes = tree.continuation(tagged);
    let mut pos = before;
    let mut line = Vec::new();
    for &id in line_nodes.iter().take(BEST_LINE_PLIES) {
        let mv = tree.node(id)?.mv?;
        line.push(notation::pdn_move(&pos, &mv));
        pos = pos.play(&mv);
    }
    // Only the review's own line goes: the moves of its line, no other notes, no
    // branches, no longer than it writes them, and last beside its move, where the
    // board writes it (a player's variation it was written on stays where it stands).
    let last = tree.children(parent).last() == Some(&tagged);
    let own = last
        && line_nodes.len() <= BEST_LINE_PLIES
        && line_nodes.iter().enumerate().all(|(i, &id)| {
            let n = tree.node(id).expect("a live node");
            let notes = match i {
                0 => Notes {
                    eval: None,
                    review: None,
                    ..n.notes.clone()
                },
                _ => n.notes.clone(),
            };
            notes.is_empty() && n.children.len() <= 1
        });
    if own {
        tree.delete(tagged).ok()?;
    } else if let Some(notes) = tree.notes_mut(tagged) {
        notes.review = None;
    }
    Some(BestLine {
        mv: line.first()?.clone(),
        score,
        line,
    })
}

/// Add `best` after `parent` as a variation tagged `[%review best]` with its score; where a
/// player's variation already begins with the move, the tag and score go on it (a PDN
/// holds a move once at a place). None where the best move is the move played (`node`),
/// which a review never marks: its verdict stays its own.
fn add_best_line(tree: &mut GameTree<NodeData>, parent: NodeId, node: NodeId, best: &BestLine) {
    let before = tree.children(parent).to_vec();
    let mut at = parent;
    for (i, text) in best.line.iter().enumerate() {
        let Ok(next) = tree.play_text(at, text) else {
            return;
        };
        if next == node {
            return;
        }
        let theirs = i == 0 && before.contains(&next);
        if i == 0 {
            let Some(notes) = tree.notes_mut(next) else {
                return;
            };
            notes.review = Some(BEST.into());
            notes.eval.get_or_insert_with(|| best.score.clone());
        }
        // A player's line is left as it is: only its first move is tagged.
        if theirs {
            return;
        }
        at = next;
    }
}

/// A reviewed move's `[%review LOSS ACCURACY MARK?]` (the command's arguments): its
/// numbers and its mark, the review's own (`?!`, `?`, `??`).
fn verdict(args: &str) -> Option<(f64, f64, Option<Mark>)> {
    let mut words = args.split_whitespace();
    let loss: f64 = words.next()?.parse().ok()?;
    let accuracy: f64 = words.next()?.parse().ok()?;
    let mark = match words.next() {
        Some(m) => Some(Mark::from_suffix(m)?),
        None => None,
    };
    let within = |x: f64, most: f64| (0.0..=most).contains(&x);
    if words.next().is_some() || !within(loss, MOST_LOSS) || !within(accuracy, MOST_ACCURACY) {
        return None;
    }
    Some((loss, accuracy, mark))
}
