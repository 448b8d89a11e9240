//! The game on the board as a tree and a place in it: the tree (`core::tree`, each node
//! with the board's `NodeData`), the node shown, the current line, and the game from the
//! start to the node shown. It owns the rules of walking the tree, and is the one place
//! that adds nodes, each with how its move is shown.
//!
//! Nothing is lost by playing: a move already played at the node shown follows it, another
//! starts a variation. Only `delete` removes moves. The *current line* is the line the page
//! walks (`history`, its move list's highlighted line): from the root through `tip`, the
//! deepest node chosen on it, then on along first children. Going back along it (undo, goto
//! an earlier move) keeps it, so that redo goes back down the same variation; going to a
//! node off it makes that node's line current.

use super::annotate::AnnotateError;
use super::node::NodeData;
use super::reviewed;
use super::{SessionError, MAX_MOVES, MAX_PLIES};
use crate::board::protocol::{HistoryMove, TreeNode};
use crate::board::view::history_move;
use crate::core::pdn;
use crate::core::pdn::notes as pdn_notes;
use crate::core::tree::{GameTree, NodeId, Notes, TreeError};
use crate::core::{notation, Game, GameResult, Move, Position};

/// What a tree may grow to: its moves, and its main line's. A lone game's is the board's
/// (`MAX_MOVES`, `MAX_PLIES`); a chapter of a study gets what the other chapters leave
/// (`study`), so that the whole study keeps within a game's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub moves: usize,
    pub main_plies: usize,
}

impl Room {
    /// A lone game's.
    pub const WHOLE: Room = Room {
        moves: MAX_MOVES,
        main_plies: MAX_PLIES,
    };
}

/// A tree of moves, the node shown and the current line.
#[derive(Clone)]
pub struct Cursor {
    tree: GameTree<NodeData>,
    /// What the tree may grow to.
    room: Room,
    /// The node shown; always on the way from the root to `tip`.
    at: NodeId,
    /// The deepest node chosen on the current line (see the module's doc).
    tip: NodeId,
    /// The game from the start to `at`, with its history (for the draw rules and the
    /// search).
    game: Game,
}

impl Cursor {
    /// A new game from `start`.
    pub fn new(start: Position) -> Cursor {
        Cursor::at_root(GameTree::new(start))
    }

    /// `tree` shown at its root, its main line the current one. Every node but the root
    /// has its move shown (`NodeData::shown`).
    pub fn at_root(tree: GameTree<NodeData>) -> Cursor {
        let root = tree.root();
        let game = Game::new(tree.start());
        Cursor {
            tree,
            room: Room::WHOLE,
            at: root,
            tip: root,
            game,
        }
    }

    /// What the tree may grow to from now (a study's chapter shown, `study`).
    pub fn set_room(&mut self, room: Room) {
        self.room = room;
    }

    /// The main line's moves.
    pub fn main_plies(&self) -> usize {
        self.tree.main_line().len() - 1
    }

    /// Refuse a tree past its room: `tree` the one to be, its moves and main line.
    fn fits(&self, tree: &GameTree<NodeData>) -> Result<(), SessionError> {
        if tree.len() > self.room.moves + 1 {
            return Err(SessionError::TreeFull);
        }
        if tree.main_line().len() > self.room.main_plies + 1 {
            return Err(SessionError::MainLinesFull);
        }
        Ok(())
    }

    pub fn tree(&self) -> &GameTree<NodeData> {
        &self.tree
    }

    /// The node shown.
    pub fn node(&self) -> NodeId {
        self.at
    }

    /// The game up to the position shown.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plies played to reach the position shown.
    pub fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The main line's last node.
    pub fn main_end(&self) -> NodeId {
        *self.tree.main_line().last().expect("the root at least")
    }

    /// The main line as a game, from the start.
    pub fn main_game(&self) -> Game {
        self.tree.game_at(self.main_end()).expect("a live node")
    }

    /// The current line's nodes, the root first (see the module's doc).
    pub fn line(&self) -> Vec<NodeId> {
        self.tree.line_through(self.tip).expect("the tip is live")
    }

    /// The current line's moves as `history` shows them.
    pub fn history(&self) -> Vec<HistoryMove> {
        self.line()
            .into_iter()
            .filter_map(|id| self.tree.node(id)?.data.shown.clone())
            .collect()
    }

    /// Every node of the tree as the page gets it, in the order a PDN writer meets them.
    pub fn nodes(&self) -> Vec<TreeNode> {
        self.tree
            .preorder()
            .into_iter()
            .filter_map(|id| self.tree_node(id))
            .collect()
    }

    /// Node `id` as the page gets it.
    fn tree_node(&self, id: NodeId) -> Option<TreeNode> {
        let node = self.tree.node(id)?;
        let notes = &node.notes;
        let mark = notes.nags.iter().find_map(|&n| pdn_notes::nag_mark(n));
        let mut nags = notes.nags.clone();
        if let Some(i) = nags.iter().position(|&n| pdn_notes::nag_mark(n).is_some()) {
            nags.remove(i);
        }
        Some(TreeNode {
            id: id.index(),
            parent: node.parent.map(NodeId::index),
            mv: node.data.shown.clone(),
            children: node.children.iter().map(|c| c.index()).collect(),
            mark,
            nags,
            eval: notes.eval.clone(),
            best: reviewed::best_move(&node.data),
            review: reviewed::node_review(&self.tree, id),
            comment: notes.comment.clone(),
            before: notes.before.clone(),
        })
    }

    /// A node's notes, to change (a move's clock, a person's words).
    pub fn notes_mut(&mut self, id: NodeId) -> Option<&mut Notes> {
        self.tree.notes_mut(id)
    }

    /// A node's notes and the board's data on it, to change (a review's verdict).
    pub fn notes_and_data_mut(&mut self, id: NodeId) -> Option<(&mut Notes, &mut NodeData)> {
        self.tree.notes_and_data_mut(id)
    }

    /// Is `id` on the way from the root to `tip` (`tip` included)?
    fn leads_to_tip(&self, id: NodeId) -> bool {
        let mut n = Some(self.tip);
        while let Some(x) = n {
            if x == id {
                return true;
            }
            n = self.tree.node(x).and_then(|n| n.parent);
        }
        false
    }

    /// Show the live node `id`, with `game` the game to it; a node off the way to `tip`
    /// makes its own line the current one.
    fn show_with(&mut self, id: NodeId, game: Game) {
        if !self.leads_to_tip(id) {
            self.tip = id;
        }
        self.at = id;
        self.game = game;
    }

    /// Show the live node `id`.
    pub fn show(&mut self, id: NodeId) {
        let game = self.tree.game_at(id).expect("a live node");
        self.show_with(id, game);
    }

    /// The node a client names, if it is in the tree.
    pub fn live(&self, n: u64) -> Result<NodeId, SessionError> {
        let id = NodeId::from_index(n);
        match self.tree.node(id) {
            Some(_) => Ok(id),
            None => Err(TreeError::NoSuchNode(id).into()),
        }
    }

    /// Play a legal move in the position shown: the same move as one already played here
    /// follows it, another adds a variation (refused when the tree holds `MAX_MOVES`).
    pub fn play(&mut self, mv: Move) -> Result<(), SessionError> {
        let known = self
            .tree
            .children(self.at)
            .iter()
            .any(|&c| self.tree.node(c).and_then(|n| n.mv) == Some(mv));
        if !known && self.tree.len() > self.room.moves {
            return Err(SessionError::TreeFull);
        }
        // Every line stays as long as a loaded one may be, so that a saved game loads.
        if !known && self.ply() >= MAX_PLIES {
            return Err(SessionError::LineFull);
        }
        // A move at the main line's end makes it longer.
        let main_end = self.tree.children(self.at).is_empty() && self.tree.is_main_line(self.at);
        if !known && main_end && self.ply() >= self.room.main_plies {
            return Err(SessionError::MainLinesFull);
        }
        let before = *self.game.position();
        let id = self.tree.play(self.at, mv)?;
        if let Some(data) = self.tree.data_mut(id) {
            data.shown.get_or_insert_with(|| history_move(&before, &mv));
        }
        let mut game = std::mem::replace(&mut self.game, Game::new(before));
        game.play(&mv);
        self.show_with(id, game);
        Ok(())
    }

    /// The position before, on the same line.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        let Some(parent) = self.tree.node(self.at).and_then(|n| n.parent) else {
            return Err(SessionError::NothingToTakeBack);
        };
        let mut game = std::mem::replace(&mut self.game, Game::new(self.tree.start()));
        game.undo();
        self.show_with(parent, game);
        Ok(())
    }

    /// The next move of the current line.
    pub fn redo(&mut self) -> Result<(), SessionError> {
        let Some(&next) = self.line().get(self.ply() + 1) else {
            return Err(SessionError::NothingToPlayForward);
        };
        let mv = self.tree.node(next).and_then(|n| n.mv).expect("a move");
        let mut game = std::mem::replace(&mut self.game, Game::new(self.tree.start()));
        game.play(&mv);
        self.show_with(next, game);
        Ok(())
    }

    /// A node of the tree by its id, or the position after `ply` plies of the current line.
    pub fn goto(&mut self, ply: Option<usize>, node: Option<u64>) -> Result<(), SessionError> {
        let id = match (ply, node) {
            (Some(ply), None) => {
                let line = self.line();
                *line.get(ply).ok_or(SessionError::PlyOutOfRange {
                    ply,
                    plies: line.len() - 1,
                })?
            }
            (None, Some(n)) => self.live(n)?,
            _ => return Err(SessionError::GotoShape),
        };
        self.show(id);
        Ok(())
    }

    /// A variation one place up among its siblings, or (`to_main`) into the main line. The
    /// position shown and the current line stay.
    pub fn promote(&mut self, node: u64, to_main: bool) -> Result<(), SessionError> {
        let id = NodeId::from_index(node);
        // The main line it makes may be longer than the room left for it.
        let mut tree = self.tree.clone();
        match to_main {
            true => tree.promote_to_main(id)?,
            false => tree.promote(id)?,
        }
        self.fits(&tree)?;
        self.tree = tree;
        Ok(())
    }

    /// A node and every move after it. Where the position shown goes with them, the
    /// position before the deleted move is shown.
    pub fn delete(&mut self, node: u64) -> Result<(), SessionError> {
        let parent = self.tree.delete(NodeId::from_index(node))?;
        if self.tree.node(self.tip).is_none() {
            self.tip = parent;
        }
        if self.tree.node(self.at).is_none() {
            self.show(parent);
        }
        Ok(())
    }

    /// The moves (Hub or PDN notation) after node `node`, each following the move already
    /// there when it is the same, the rest added as a variation. The whole line is checked
    /// first: an illegal move, or one after the game's end, refuses it all. The position
    /// shown, and the current line, stay.
    pub fn add_line(&mut self, node: u64, moves: &[String]) -> Result<(), SessionError> {
        let mut at = self.live(node)?;
        if moves.is_empty() {
            return Err(AnnotateError::EmptyLine.into());
        }
        let mut tree = self.tree.clone();
        let first_ply = tree.depth(at)? + 1;
        for (i, text) in moves.iter().enumerate() {
            let ply = first_ply + i;
            let before = tree.node(at).expect("live").position;
            let end = tree.result_at(at)?;
            if end != GameResult::Ongoing {
                return Err(AnnotateError::LineMove(pdn::ErrorKind::AfterEnd {
                    ply,
                    text: text.clone(),
                    end,
                })
                .into());
            }
            let mv = notation::parse_move(&before, text).map_err(|error| {
                AnnotateError::LineMove(pdn::ErrorKind::BadMove {
                    ply,
                    text: text.clone(),
                    error,
                })
            })?;
            let len = tree.len();
            let next = tree.play(at, mv)?;
            if tree.len() > len {
                self.fits(&tree)?;
                if ply > MAX_PLIES {
                    return Err(SessionError::LineFull);
                }
                if let Some(data) = tree.data_mut(next) {
                    data.shown = Some(history_move(&before, &mv));
                }
            }
            at = next;
        }
        self.tree = tree;
        Ok(())
    }
}
