//! The visitor that builds a game as a `GameTree` and checks it by the rules: each move is
//! replayed, variations in parentheses to any depth (each an alternative to the move before
//! it), with their NAGs and comments; a `FEN` tag gives the start. The reader (`reader`)
//! checks the text's shape; this checks what the moves mean.
//!
//! A comment after a move is the move's; one before the first move of a variation is that
//! move's `before`; one before the game's first move is the root's. A variation that begins
//! with the move it stands beside follows that move (the tree holds it once) and goes on
//! beside the line's next move: the line outside it stays the main line (issue 58, item 3).
//! A result the rules contradict at the end of the main line is an error (issue 58, item 5),
//! whether the movetext or the `Result` tag gives it: where the side to move has no move,
//! or a draw rule ended the game, the result must say so (or be `*`, which says nothing).

use super::error::{ErrorKind, Spot};
use super::notes;
use super::reader::{Cut, TreeGame};
use super::visitor::{Fault, GameEnd, Visit, Visitor};
use crate::core::game::GameResult;
use crate::core::notation;
use crate::core::tree::{GameTree, NodeId, TreeError};
use crate::core::{Color, Position};
use std::collections::HashMap;

/// The results PDN writes, White's score first (`2-0` and the like are the two-point forms
/// some programs use).
pub fn is_result(t: &str) -> bool {
    matches!(
        t,
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "*" | "0-0"
    )
}

/// What a result says of the game's end: `Some(winner)` for a win (`None` a draw); `None`
/// when it says neither (`*`, `0-0`).
fn said(result: &str) -> Option<Option<Color>> {
    match result {
        "1-0" | "2-0" => Some(Some(Color::White)),
        "0-1" | "0-2" => Some(Some(Color::Black)),
        "1/2-1/2" | "1-1" => Some(None),
        _ => None,
    }
}

/// One line being read: the main line, or a variation inside it.
struct Line {
    /// Where the next move is played.
    at: NodeId,
    /// How many moves from the start `at` is.
    ply: usize,
    /// Where comments and NAGs go: the last move read in this line (or the root, for the
    /// main line's start); `None` at a variation's start.
    last: Option<NodeId>,
    /// Comments met at a variation's start, for its first move.
    before: String,
}

/// The movetext of the game being read.
struct Moves {
    tree: GameTree,
    lines: Vec<Line>,
    /// How many of `lines` stand at each node (their `at`), so that a move asks in one
    /// look whether a line outside its own stands where it is played: reading nested
    /// variations stays linear however deep they go.
    standing: HashMap<NodeId, usize>,
}

/// Builds each game as a `TreeGame`, checking it by the rules (see the module's doc).
#[derive(Default)]
pub struct TreeBuilder {
    tags: Vec<(String, String)>,
    /// Where the first `FEN` tag stood, and its index in `tags`.
    fen: Option<(Spot, usize)>,
    moves: Option<Moves>,
    /// Cut a game at its first move that cannot be played, rather than refuse it.
    cut_at_bad_move: bool,
    /// The game being read was cut there: everything after it is passed over.
    cut: Option<Cut>,
}

impl TreeBuilder {
    /// A builder that reads each game up to its first move that cannot be played there (an
    /// illegal move, or one after the rules ended the game), in the main line or a
    /// variation: the game is what came before it, its result `*`, and `TreeGame::cut` says
    /// where and why. Faults of any other kind are refused as ever.
    pub fn up_to_first_bad_move() -> TreeBuilder {
        TreeBuilder {
            cut_at_bad_move: true,
            ..TreeBuilder::default()
        }
    }

    /// The start position: the `FEN` tag's, or the usual start.
    fn start(&self) -> Result<Position, Fault> {
        match self.fen {
            Some((at, i)) => {
                notation::parse_fen(&self.tags[i].1).map_err(|e| (at, ErrorKind::BadFen(e)))
            }
            None => Ok(Position::start()),
        }
    }

    fn moves(&mut self) -> &mut Moves {
        self.moves
            .as_mut()
            .expect("the reader starts the movetext first")
    }

    fn syntax(at: Spot, what: &str) -> Fault {
        (at, ErrorKind::Syntax(what.into()))
    }
}

impl Moves {
    fn line(&mut self) -> &mut Line {
        self.lines
            .last_mut()
            .expect("the main line is always there")
    }

    /// A line comes to stand at `id`.
    fn stand(&mut self, id: NodeId) {
        *self.standing.entry(id).or_default() += 1;
    }

    /// A line stands at `id` no longer.
    fn leave(&mut self, id: NodeId) {
        if let Some(n) = self.standing.get_mut(&id) {
            *n -= 1;
            if *n == 0 {
                self.standing.remove(&id);
            }
        }
    }
}

impl Visitor for TreeBuilder {
    type Game = TreeGame;

    fn tag(&mut self, at: Spot, name: String, value: String) -> Result<(), Fault> {
        if self.fen.is_none() && name.eq_ignore_ascii_case("FEN") {
            self.fen = Some((at, self.tags.len()));
        }
        self.tags.push((name, value));
        Ok(())
    }

    fn begin_movetext(&mut self, _at: Spot) -> Result<Visit, Fault> {
        self.cut = None;
        let tree = GameTree::new(self.start()?);
        let root = tree.root();
        self.moves = Some(Moves {
            tree,
            lines: vec![Line {
                at: root,
                ply: 0,
                last: Some(root),
                before: String::new(),
            }],
            standing: HashMap::from([(root, 1)]),
        });
        Ok(Visit::Read)
    }

    fn comment(&mut self, _at: Spot, text: String) -> Result<(), Fault> {
        if self.cut.is_some() {
            return Ok(());
        }
        let m = self.moves();
        let line = m.lines.last_mut().expect("the main line is always there");
        match line.last {
            Some(id) => notes::add_comment(m.tree.notes_mut(id).expect("a live node"), &text),
            None => notes::join(&mut line.before, &text),
        }
        Ok(())
    }

    fn nag(&mut self, at: Spot, nag: u8) -> Result<(), Fault> {
        if self.cut.is_some() {
            return Ok(());
        }
        let m = self.moves();
        let root = m.tree.root();
        match m.line().last.filter(|&id| id != root) {
            Some(id) => {
                m.tree.notes_mut(id).expect("a live node").nags.push(nag);
                Ok(())
            }
            None => Err(Self::syntax(
                at,
                "a move mark or NAG with no move before it",
            )),
        }
    }

    fn begin_variation(&mut self, at: Spot) -> Result<Visit, Fault> {
        if self.cut.is_some() {
            return Ok(Visit::Skip);
        }
        let m = self.moves();
        let root = m.tree.root();
        let Some(last) = m.line().last.filter(|&id| id != root) else {
            return Err(Self::syntax(
                at,
                "a variation with no move before it to stand for",
            ));
        };
        let parent = m.tree.node(last).and_then(|n| n.parent);
        let at = parent.expect("a move has a parent");
        let ply = m.line().ply - 1;
        m.lines.push(Line {
            at,
            ply,
            last: None,
            before: String::new(),
        });
        m.stand(at);
        Ok(Visit::Read)
    }

    fn end_variation(&mut self, at: Spot) -> Result<(), Fault> {
        if self.cut.is_some() {
            return Ok(());
        }
        let m = self.moves();
        if m.lines.len() == 1 {
            return Err(Self::syntax(at, "')' with no '(' before it"));
        }
        let line = m.lines.pop().expect("more than the main line");
        m.leave(line.at);
        Ok(())
    }

    fn mv(&mut self, at: Spot, text: &str) -> Result<(), Fault> {
        if self.cut.is_some() {
            return Ok(());
        }
        let cutting = self.cut_at_bad_move;
        let m = self.moves();
        let depth = m.lines.len() - 1;
        let line = &m.lines[depth];
        let ply = line.ply + 1;
        let from = line.at;
        let pos = m.tree.node(line.at).expect("a live node").position;
        let played = notation::parse_pdn_move(&pos, text)
            .map_err(|error| {
                let text = text.to_string();
                (at, ErrorKind::BadMove { ply, text, error })
            })
            .and_then(|mv| {
                m.tree.play(from, mv).map_err(|e| {
                    let kind = match e {
                        TreeError::GameOver(end) => ErrorKind::AfterEnd {
                            ply,
                            text: text.to_string(),
                            end,
                        },
                        TreeError::Full => ErrorKind::TooManyMoves,
                        e => ErrorKind::Syntax(e.to_string()),
                    };
                    (at, kind)
                })
            });
        let id = match played {
            Ok(id) => id,
            Err((at, kind @ (ErrorKind::BadMove { .. } | ErrorKind::AfterEnd { .. })))
                if cutting =>
            {
                self.cut = Some(Cut {
                    at,
                    kind,
                    node: from,
                });
                return Ok(());
            }
            Err(fault) => return Err(fault),
        };
        let m = self.moves();
        let line = &m.lines[depth];
        // A line's own move leads its node's children, except a variation's first move (an
        // alternative to the move it stands beside) and a move played where a line outside
        // this one stands: that line goes on from there, and its move will lead.
        let alternative = depth > 0 && line.last.is_none();
        // This line stands at `line.at` too: another means one outside it.
        let outer_here = m.standing.get(&line.at).is_some_and(|&n| n > 1);
        if !alternative && !outer_here {
            while m.tree.children(line.at).first() != Some(&id) {
                m.tree.promote(id).expect("a live node");
            }
        }
        m.leave(from);
        m.stand(id);
        let line = m.line();
        let before = std::mem::take(&mut line.before);
        *line = Line {
            at: id,
            ply,
            last: Some(id),
            before: String::new(),
        };
        notes::join(
            &mut m.tree.notes_mut(id).expect("a live node").before,
            &before,
        );
        Ok(())
    }

    fn end_game(&mut self, end: &GameEnd) -> Result<TreeGame, Fault> {
        let tree = match self.moves.take() {
            Some(m) => m.tree,
            None => GameTree::new(self.start()?),
        };
        // A game cut short says nothing of its end: the result given was the whole game's.
        if let Some(cut) = self.cut.take() {
            self.fen = None;
            return Ok(TreeGame {
                tags: std::mem::take(&mut self.tags),
                tree,
                result: "*".into(),
                cut: Some(cut),
            });
        }
        // Where the rules ended the game, a result that says otherwise is wrong.
        let last = *tree.main_line().last().expect("the root at least");
        let rules = tree.result_at(last).expect("a live node");
        let agrees = match (rules, said(&end.result)) {
            (GameResult::Ongoing, _) | (_, None) => true,
            (GameResult::Win(c), Some(w)) => w == Some(c),
            (GameResult::Draw(_), Some(w)) => w.is_none(),
        };
        if !agrees {
            let at = end
                .at
                .expect("a result that says something stood somewhere");
            let kind = ErrorKind::AgainstRules {
                result: end.result.clone(),
                rules,
            };
            return Err((at, kind));
        }
        self.fen = None;
        Ok(TreeGame {
            tags: std::mem::take(&mut self.tags),
            tree,
            result: end.result.clone(),
            cut: None,
        })
    }
}
