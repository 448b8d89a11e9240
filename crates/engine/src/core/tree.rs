//! The game as a tree of moves: the main line and every variation tried beside it, each move
//! with its notes (marks, NAGs, comments, score, clock), as PDN 3.0 keeps them (`pdn`).
//!
//! Nothing is lost by playing: a move already in the tree at that node is followed, another
//! move adds a variation beside it. Only `delete` removes moves. A node keeps its `NodeId`
//! for the life of the tree, and no id is ever given twice, so an id that a client still
//! holds for a deleted node is refused rather than pointing at another node. The memory is
//! reused, though: a node lives in a slot, a deleted node's slot goes to a later one, and the
//! slot's generation, counted up on each delete, is part of the id (a slotmap). So a tree
//! holds at most `MAX_NODES` nodes at once, which bounds its memory whatever a client sends,
//! and moves can be added and deleted for ever.
//!
//! Each node carries a payload `D` beside its notes: what a user of the tree keeps per node
//! (the board keeps how each move is shown and what a review said of it). The rules core's
//! own users keep none (`()`, the default). A deleted node takes its payload with it.

use crate::core::game::{DrawCounts, Game, GameResult};
use crate::core::notation::{self, NotationError};
use crate::core::{movegen, Move, Position};
use std::fmt;
use std::time::Duration;

/// The bits of an id that name its slot.
const SLOT_BITS: u32 = 18;

/// The most nodes one tree holds at once, its root included: far more than any game (a
/// megabyte of movetext at 4 bytes at least a move; a longer one is refused when the tree
/// is full), and a bound on the memory a client can make a session use.
pub const MAX_NODES: usize = 1 << SLOT_BITS;

/// The last generation of a slot: ids stay below 2^53, which a JavaScript number (the
/// board's page) holds exactly. A slot deleted that often is never used again, so that no
/// id comes back; no client lives to see it (2^35 moves played and deleted in one place).
const MAX_GENERATION: u64 = (1 << (53 - SLOT_BITS)) - 1;

/// A node of one tree; stable for the life of the tree, and never given to another node:
/// its slot, plus `MAX_NODES` times the slot's generation. A tree whose nodes were never
/// deleted numbers them 0, 1, 2, ... in the order they were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u64);

impl NodeId {
    /// The number a client sees.
    pub fn index(self) -> u64 {
        self.0
    }
    /// The id of a number a client sent (which the tree checks when it is used).
    pub fn from_index(index: u64) -> NodeId {
        NodeId(index)
    }

    fn new(slot: usize, generation: u64) -> NodeId {
        NodeId(generation << SLOT_BITS | slot as u64)
    }

    fn slot(self) -> usize {
        (self.0 & (MAX_NODES as u64 - 1)) as usize
    }

    fn generation(self) -> u64 {
        self.0 >> SLOT_BITS
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What goes with a move (or, at the root, with the start position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// PDN's numeric annotation glyphs in order; the marks `!` `?` `!!` `??` `!?` `?!` are
    /// NAGs 1-6 (`pdn`'s `MARKS`).
    pub nags: Vec<u8>,
    /// The comment after the move, without its commands (`eval`, `clock`).
    pub comment: String,
    /// A comment before the move. PDN can place one only where a line starts, so it is
    /// written for the first move of a variation; the root's own text is its `comment`.
    pub before: String,
    /// The score of `[%eval X]`, kept as written (`0.40`, `-3.10`).
    pub eval: Option<String>,
    /// The mover's clock after the move, `[%clk H:MM:SS]`.
    pub clock: Option<Duration>,
    /// The time the move took, as the match runner writes it: `{time 0.102s}`.
    pub time: Option<Duration>,
    /// The board's review, `[%review X]`, kept as written: a reviewed move's verdict
    /// (`0.50 60.0 ??`: the men it gave away, its accuracy, the review's mark) or `best` on
    /// the first move of the review's best line (`board::session::reviewed` reads them).
    pub review: Option<String>,
}

impl Notes {
    pub fn is_empty(&self) -> bool {
        *self == Notes::default()
    }
}

/// One position of the tree and the move that reached it, with its payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<D = ()> {
    /// `None` at the root.
    pub parent: Option<NodeId>,
    /// The move from the parent; `None` at the root.
    pub mv: Option<Move>,
    /// The position after `mv`.
    pub position: Position,
    /// The draw-rule counts there (R18, R19).
    pub counts: DrawCounts,
    /// The moves tried here; `children[0]` is the main continuation.
    pub children: Vec<NodeId>,
    pub notes: Notes,
    /// What the tree's user keeps on the node (`D::default()` when the move is added).
    pub data: D,
}

/// Why the tree refused a request.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeError {
    /// An id this tree never handed out, or one whose node was deleted.
    NoSuchNode(NodeId),
    /// The move is not legal in the node's position.
    Illegal(Move),
    /// Move text that does not read as a legal move there.
    BadMove(String, NotationError),
    /// The rules ended the game at that node (R16-R19).
    GameOver(GameResult),
    /// The root cannot be deleted or promoted.
    Root,
    /// The tree holds `MAX_NODES` nodes.
    Full,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::NoSuchNode(id) => write!(f, "no node {id} in the game tree"),
            TreeError::Illegal(mv) => write!(f, "{mv} is not a legal move there"),
            TreeError::BadMove(text, e) => write!(f, "'{text}': {e}"),
            TreeError::GameOver(r) => write!(f, "the game has ended there ({r})"),
            TreeError::Root => write!(f, "the start position cannot be deleted or promoted"),
            TreeError::Full => write!(
                f,
                "the game tree is full ({} moves): delete lines or start a new game",
                MAX_NODES - 1
            ),
        }
    }
}

impl std::error::Error for TreeError {}

/// Where a node lives: the node (`None` once deleted) and how many nodes lived here before.
#[derive(Clone, Debug, PartialEq)]
struct Slot<D> {
    generation: u64,
    node: Option<Node<D>>,
}

/// A game as a tree of moves from a start position, each node with a payload `D`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTree<D = ()> {
    start: Position,
    /// Indexed by `NodeId::slot`.
    slots: Vec<Slot<D>>,
    /// The empty slots a new node may take, the last freed first.
    free: Vec<usize>,
    live: usize,
}

impl<D: Default> GameTree<D> {
    /// A tree with only its root, the start position.
    pub fn new(start: Position) -> GameTree<D> {
        GameTree {
            start,
            slots: vec![Slot {
                generation: 0,
                node: Some(Node {
                    parent: None,
                    mv: None,
                    position: start,
                    counts: DrawCounts::fresh(&start),
                    children: Vec::new(),
                    notes: Notes::default(),
                    data: D::default(),
                }),
            }],
            free: Vec::new(),
            live: 1,
        }
    }

    /// A tree of one line of moves, each known to be legal after the one before.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<GameTree<D>, TreeError> {
        let mut tree = GameTree::new(start);
        let mut at = tree.root();
        for mv in moves {
            at = tree.play(at, *mv)?;
        }
        Ok(tree)
    }

    /// Play `mv` at node `at`: the child it reaches, which is the existing one when `mv` has
    /// been played there before (followed), else a new variation (the main continuation
    /// when `at` had none) with the default payload. The move must be legal and the game not
    /// over at `at`.
    pub fn play(&mut self, at: NodeId, mv: Move) -> Result<NodeId, TreeError> {
        let node = self.get(at)?;
        if let Some(&c) = node
            .children
            .iter()
            .find(|&&c| self.node(c).and_then(|n| n.mv) == Some(mv))
        {
            return Ok(c);
        }
        if !movegen::legal_moves(&node.position).contains(&mv) {
            return Err(TreeError::Illegal(mv));
        }
        let position = node.position.play(&mv);
        let counts = node.counts.after(&node.position, &mv, &position);
        let end = self.result_at(at)?;
        if end != GameResult::Ongoing {
            return Err(TreeError::GameOver(end));
        }
        let id = self.insert(Node {
            parent: Some(at),
            mv: Some(mv),
            position,
            counts,
            children: Vec::new(),
            notes: Notes::default(),
            data: D::default(),
        })?;
        self.node_mut(at)?.children.push(id);
        Ok(id)
    }

    /// `play` with the move as text (Hub or PDN notation).
    pub fn play_text(&mut self, at: NodeId, text: &str) -> Result<NodeId, TreeError> {
        let pos = self.get(at)?.position;
        let mv =
            notation::parse_move(&pos, text).map_err(|e| TreeError::BadMove(text.into(), e))?;
        self.play(at, mv)
    }
}

impl<D> GameTree<D> {
    pub fn start(&self) -> Position {
        self.start
    }

    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The nodes still in the tree, the root included.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Never: the root is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn node(&self, id: NodeId) -> Option<&Node<D>> {
        self.slots
            .get(id.slot())
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.node.as_ref())
    }

    pub fn notes_mut(&mut self, id: NodeId) -> Option<&mut Notes> {
        self.node_mut(id).ok().map(|n| &mut n.notes)
    }

    /// The node's payload, to change.
    pub fn data_mut(&mut self, id: NodeId) -> Option<&mut D> {
        self.node_mut(id).ok().map(|n| &mut n.data)
    }

    /// The node's notes and payload, both to change.
    pub fn notes_and_data_mut(&mut self, id: NodeId) -> Option<(&mut Notes, &mut D)> {
        self.node_mut(id).ok().map(|n| (&mut n.notes, &mut n.data))
    }

    /// The same tree, every id kept, with each node's payload made by `f` from the node.
    pub fn with_data<E>(self, mut f: impl FnMut(NodeId, &Node<D>) -> E) -> GameTree<E> {
        let slots = self
            .slots
            .into_iter()
            .enumerate()
            .map(|(slot, s)| {
                let id = NodeId::new(slot, s.generation);
                let node = s.node.map(|n| {
                    let data = f(id, &n);
                    Node {
                        parent: n.parent,
                        mv: n.mv,
                        position: n.position,
                        counts: n.counts,
                        children: n.children,
                        notes: n.notes,
                        data,
                    }
                });
                Slot {
                    generation: s.generation,
                    node,
                }
            })
            .collect();
        GameTree {
            start: self.start,
            slots,
            free: self.free,
            live: self.live,
        }
    }

    fn get(&self, id: NodeId) -> Result<&Node<D>, TreeError> {
        self.node(id).ok_or(TreeError::NoSuchNode(id))
    }

    fn node_mut(&mut self, id: NodeId) -> Result<&mut Node<D>, TreeError> {
        self.slots
            .get_mut(id.slot())
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.node.as_mut())
            .ok_or(TreeError::NoSuchNode(id))
    }

    /// Put `node` in a free slot (the last freed first), or a new one while there are fewer
    /// than `MAX_NODES`.
    fn insert(&mut self, node: Node<D>) -> Result<NodeId, TreeError> {
        let id = match self.free.pop() {
            Some(slot) => NodeId::new(slot, self.slots[slot].generation),
            None if self.slots.len() < MAX_NODES => {
                self.slots.push(Slot {
                    generation: 0,
                    node: None,
                });
                NodeId::new(self.slots.len() - 1, 0)
            }
            None => return Err(TreeError::Full),
        };
        self.slots[id.slot()].node = Some(node);
        self.live += 1;
        Ok(id)
    }

    /// Empty the slot of live node `id`: its id is never valid again, and the slot goes to a
    /// later node under the next generation (unless that would pass `MAX_GENERATION`).
    fn remove(&mut self, id: NodeId) -> Option<Node<D>> {
        self.node(id)?;
        let slot = &mut self.slots[id.slot()];
        let node = slot.node.take();
        self.live -= 1;
        if slot.generation < MAX_GENERATION {
            slot.generation += 1;
            self.free.push(id.slot());
        }
        node
    }

    /// The node's children, main continuation first (empty for an unknown id).
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.node(id).map_or(&[], |n| n.children.as_slice())
    }

    /// The main line: the root, then each first child.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.continuation(self.root())
    }

    /// `id` and its main continuation after it (first children to the end); empty for an
    /// unknown id.
    pub fn continuation(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = self.node(id).map(|_| id);
        while let Some(id) = at {
            line.push(id);
            at = self.children(id).first().copied();
        }
        line
    }

    /// The nodes from the root to `id`, both included.
    pub fn line_to(&self, id: NodeId) -> Result<Vec<NodeId>, TreeError> {
        let mut line = vec![id];
        let mut at = self.get(id)?;
        while let Some(p) = at.parent {
            line.push(p);
            at = self.get(p)?;
        }
        line.reverse();
        Ok(line)
    }

    /// The line through `id`: from the root to it, then its main continuation.
    pub fn line_through(&self, id: NodeId) -> Result<Vec<NodeId>, TreeError> {
        let mut line = self.line_to(id)?;
        line.extend(self.continuation(id).into_iter().skip(1));
        Ok(line)
    }

    /// The moves from the start position to `id`.
    pub fn moves_to(&self, id: NodeId) -> Result<Vec<Move>, TreeError> {
        Ok(self
            .line_to(id)?
            .into_iter()
            .filter_map(|n| self.node(n).and_then(|n| n.mv))
            .collect())
    }

    /// The moves of the main line.
    pub fn main_moves(&self) -> Vec<Move> {
        self.main_line()
            .into_iter()
            .filter_map(|n| self.node(n).and_then(|n| n.mv))
            .collect()
    }

    /// The game played from the start to `id`, with its history (for the draw rules).
    pub fn game_at(&self, id: NodeId) -> Result<Game, TreeError> {
        let mut game = Game::new(self.start);
        for mv in self.moves_to(id)? {
            game.play(&mv);
        }
        Ok(game)
    }

    /// How the game stands at `id` by the rules (R16-R19), as `game_at(id).result()` says,
    /// from the moves since the last capture or man move alone (only those can repeat a
    /// position), so that reading a long game is not quadratic.
    pub fn result_at(&self, id: NodeId) -> Result<GameResult, TreeError> {
        let mut window = vec![];
        let mut at = self.get(id)?;
        for _ in 0..at.counts.quiet_king_plies {
            let (Some(parent), Some(mv)) = (at.parent, at.mv) else {
                break;
            };
            window.push(mv);
            at = self.get(parent)?;
        }
        let mut game = Game::with_counts(at.position, at.counts);
        for mv in window.iter().rev() {
            game.play(mv);
        }
        Ok(game.result())
    }

    /// How many moves from the start to `id` (its ply).
    pub fn depth(&self, id: NodeId) -> Result<usize, TreeError> {
        Ok(self.line_to(id)?.len() - 1)
    }

    /// The child indexes from the root to `id` (empty for the root).
    pub fn path(&self, id: NodeId) -> Result<Vec<usize>, TreeError> {
        let line = self.line_to(id)?;
        Ok(line
            .windows(2)
            .map(|w| {
                self.children(w[0])
                    .iter()
                    .position(|&c| c == w[1])
                    .expect("a node is among its parent's children")
            })
            .collect())
    }

    /// The node at a path of child indexes from the root, if there is one.
    pub fn at_path(&self, path: &[usize]) -> Option<NodeId> {
        let mut at = self.root();
        for &i in path {
            at = *self.children(at).get(i)?;
        }
        Some(at)
    }

    /// Is `id` on the main line (every move to it a first child)?
    pub fn is_main_line(&self, id: NodeId) -> bool {
        self.path(id).is_ok_and(|p| p.iter().all(|&i| i == 0))
    }

    /// The node's index among its siblings and its parent.
    fn place(&self, id: NodeId) -> Result<(NodeId, usize), TreeError> {
        let parent = self.get(id)?.parent.ok_or(TreeError::Root)?;
        let i = self
            .children(parent)
            .iter()
            .position(|&c| c == id)
            .expect("a node is among its parent's children");
        Ok((parent, i))
    }

    /// Move `id` one place up among its siblings (nothing when it is first already).
    pub fn promote(&mut self, id: NodeId) -> Result<(), TreeError> {
        let (parent, i) = self.place(id)?;
        if i > 0 {
            self.node_mut(parent)?.children.swap(i - 1, i);
        }
        Ok(())
    }

    /// Make `id` part of the main line: it and every node above it become first children,
    /// the lines they displace following them in their order.
    pub fn promote_to_main(&mut self, id: NodeId) -> Result<(), TreeError> {
        if self.get(id)?.parent.is_none() {
            return Err(TreeError::Root);
        }
        let mut at = id;
        while let Ok((parent, i)) = self.place(at) {
            let children = &mut self.node_mut(parent)?.children;
            let c = children.remove(i);
            children.insert(0, c);
            at = parent;
        }
        Ok(())
    }

    /// Delete `id` and every move after it, their payloads with them; the parent, where the
    /// client goes next.
    pub fn delete(&mut self, id: NodeId) -> Result<NodeId, TreeError> {
        let (parent, i) = self.place(id)?;
        self.node_mut(parent)?.children.remove(i);
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let Some(node) = self.remove(n) {
                stack.extend(node.children);
            }
        }
        Ok(parent)
    }

    /// Every live node, in the order a PDN writer meets them (depth first, main continuation
    /// first).
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.live);
        let mut stack = vec![self.root()];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.children(n).iter().rev());
        }
        out
    }

    /// Do two trees hold the same moves in the same order with the same notes? (Ids may
    /// differ: a tree read from PDN numbers its nodes afresh; payloads are not compared.)
    pub fn same_as<E>(&self, other: &GameTree<E>) -> bool {
        // A stack, not recursion: a main line can be a hundred thousand moves long.
        let mut stack = vec![(self.root(), other.root())];
        while let Some((x, y)) = stack.pop() {
            let (Some(nx), Some(ny)) = (self.node(x), other.node(y)) else {
                return false;
            };
            if nx.mv != ny.mv || nx.notes != ny.notes || nx.children.len() != ny.children.len() {
                return false;
            }
            stack.extend(nx.children.iter().copied().zip(ny.children.iter().copied()));
        }
        self.start == other.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree_of(moves: &[&str]) -> (GameTree, Vec<NodeId>) {
        let mut t: GameTree = GameTree::new(Position::start());
        let mut ids = vec![t.root()];
        for m in moves {
            let at = *ids.last().unwrap();
            ids.push(t.play_text(at, m).unwrap());
        }
        (t, ids)
    }

    fn texts(t: &GameTree, line: &[NodeId]) -> Vec<String> {
        line.iter()
            .filter_map(|&n| t.node(n).unwrap().mv.map(|m| m.hub()))
            .collect()
    }

    #[test]
    fn add_follow_and_variation() {
        let (mut t, ids) = tree_of(&["11-15", "23-19", "8-11"]);
        assert_eq!(t.len(), 4);
        assert_eq!(t.main_line(), ids);
        // The same move at the same node follows the line: nothing new.
        assert_eq!(t.play_text(ids[1], "23-19").unwrap(), ids[2]);
        assert_eq!(t.len(), 4);
        // Another move adds a variation; the main line stays whole.
        let v = t.play_text(ids[1], "22-18").unwrap();
        assert_eq!(t.len(), 5);
        assert_eq!(t.children(ids[1]), &[ids[2], v]);
        assert_eq!(t.main_line(), ids);
        assert!(!t.is_main_line(v) && t.is_main_line(ids[3]));
        let w = t.play_text(v, "15x22").unwrap();
        assert_eq!(
            texts(&t, &t.line_to(w).unwrap()),
            ["11-15", "22-18", "15x22x18"]
        );
        assert_eq!(t.moves_to(w).unwrap().len(), 3);
        assert_eq!(t.depth(w).unwrap(), 3);
        assert_eq!(
            t.game_at(w).unwrap().position(),
            &t.node(w).unwrap().position
        );
        assert_eq!(t.line_through(ids[1]).unwrap(), ids);
        // Playing from the root again: a second first move.
        let r = t.play_text(t.root(), "9-13").unwrap();
        assert_eq!(t.children(t.root()), &[ids[1], r]);
        assert_eq!(
            t.preorder(),
            vec![t.root(), ids[1], ids[2], ids[3], v, w, r]
        );
    }

    #[test]
    fn go_to_by_path_and_id() {
        let (mut t, ids) = tree_of(&["11-15", "23-19", "8-11"]);
        let v = t.play_text(ids[1], "22-18").unwrap();
        let w = t.play_text(v, "15x22").unwrap();
        assert_eq!(t.path(w).unwrap(), vec![0, 1, 0]);
        assert_eq!(t.at_path(&[0, 1, 0]), Some(w));
        assert_eq!(t.at_path(&[]), Some(t.root()));
        assert_eq!(t.at_path(&[0, 2]), None);
        assert_eq!(t.path(t.root()).unwrap(), Vec::<usize>::new());
        for id in t.preorder() {
            assert_eq!(t.at_path(&t.path(id).unwrap()), Some(id));
        }
        let id = NodeId::from_index(w.index());
        assert_eq!(t.node(id).unwrap().mv.unwrap().hub(), "15x22x18");
        assert!(t.node(NodeId::from_index(99)).is_none());
        assert_eq!(
            t.path(NodeId::from_index(99)),
            Err(TreeError::NoSuchNode(NodeId(99)))
        );
    }

    #[test]
    fn promote_one_step_and_to_main() {
        let (mut t, ids) = tree_of(&["11-15", "23-19", "8-11"]);
        let a = t.play_text(ids[1], "22-18").unwrap();
        let b = t.play_text(ids[1], "24-20").unwrap();
        let deep = t.play_text(b, "15-19").unwrap();
        assert_eq!(t.children(ids[1]), &[ids[2], a, b]);
        t.promote(b).unwrap();
        assert_eq!(t.children(ids[1]), &[ids[2], b, a]);
        t.promote(b).unwrap();
        assert_eq!(t.children(ids[1]), &[b, ids[2], a]);
        // First already: nothing changes.
        t.promote(b).unwrap();
        assert_eq!(t.children(ids[1]), &[b, ids[2], a]);
        assert_eq!(t.main_line(), vec![ids[0], ids[1], b, deep]);
        assert_eq!(t.promote(t.root()), Err(TreeError::Root));

        // To main from two levels of variation down.
        let (mut t, ids) = tree_of(&["11-15", "23-19", "8-11", "22-17"]);
        let v1 = t.play_text(ids[1], "22-18").unwrap();
        let v2 = t.play_text(v1, "15x22").unwrap();
        let v3 = t.play_text(v2, "25x18").unwrap();
        let v3b = t.play_text(v2, "26x17").unwrap();
        t.promote_to_main(v3b).unwrap();
        assert_eq!(t.main_line(), vec![ids[0], ids[1], v1, v2, v3b]);
        assert_eq!(t.children(ids[1]), &[v1, ids[2]]);
        assert_eq!(t.children(v2), &[v3b, v3]);
        assert!(t.is_main_line(v3b) && !t.is_main_line(ids[4]));
        // The old main line is still there, whole.
        assert_eq!(t.line_through(ids[2]).unwrap(), ids);
        assert_eq!(t.len(), 9);
    }

    #[test]
    fn delete_a_variation_and_its_ids_are_refused() {
        let (mut t, ids) = tree_of(&["11-15", "23-19", "8-11"]);
        let v = t.play_text(ids[1], "22-18").unwrap();
        let w = t.play_text(v, "15x22").unwrap();
        assert_eq!(t.delete(v), Ok(ids[1]));
        assert_eq!(t.len(), 4);
        assert_eq!(t.children(ids[1]), &[ids[2]]);
        for gone in [v, w] {
            assert!(t.node(gone).is_none());
            assert_eq!(t.play_text(gone, "9-13"), Err(TreeError::NoSuchNode(gone)));
            assert_eq!(t.delete(gone), Err(TreeError::NoSuchNode(gone)));
            assert_eq!(t.promote(gone), Err(TreeError::NoSuchNode(gone)));
            assert!(t.notes_mut(gone).is_none());
        }
        // The same move again is a new node: ids are not reused.
        let again = t.play_text(ids[1], "22-18").unwrap();
        assert!(again != v && again != w);
        // The main line's tail, and then the root refused.
        assert_eq!(t.delete(ids[2]), Ok(ids[1]));
        assert_eq!(t.main_line(), vec![ids[0], ids[1], again]);
        assert_eq!(t.delete(t.root()), Err(TreeError::Root));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn illegal_moves_and_moves_after_the_end_are_refused() {
        let (mut t, ids) = tree_of(&["11-15"]);
        assert!(matches!(
            t.play_text(ids[1], "11-15"),
            Err(TreeError::BadMove(..))
        ));
        let black_move = notation::parse_move(&Position::start(), "9-13").unwrap();
        assert_eq!(
            t.play(ids[1], black_move),
            Err(TreeError::Illegal(black_move))
        );
        assert_eq!(t.len(), 2);

        // A lone king shuffling: the third repetition ends the game (R17), which needs the
        // history along the path, not just the position.
        let start = notation::parse_fen("B:WK30:BK3").unwrap();
        let mut t: GameTree = GameTree::new(start);
        let mut at = t.root();
        for m in [
            "3-7", "30-26", "7-3", "26-30", "3-7", "30-26", "7-3", "26-30",
        ] {
            at = t.play_text(at, m).unwrap();
        }
        let end = t.play_text(at, "3-7");
        assert!(
            matches!(end, Err(TreeError::GameOver(GameResult::Draw(_)))),
            "{end:?}"
        );
        // One move earlier the game goes on, as a variation.
        let before = t.node(at).unwrap().parent.unwrap();
        let taken = t.node(at).unwrap().mv.unwrap();
        let legal = movegen::legal_moves(&t.node(before).unwrap().position);
        let other = legal.iter().find(|&&m| m != taken).unwrap();
        let v = t.play(before, *other).unwrap();
        assert_eq!(t.children(before), &[at, v]);

        // A win: the side to move has no pieces.
        let mut t: GameTree = GameTree::new(notation::parse_fen("B:W18:B14").unwrap());
        let won = t.play_text(t.root(), "14x23").unwrap();
        assert!(matches!(
            t.play_text(won, "1-5"),
            Err(TreeError::BadMove(..))
        ));
        assert_eq!(
            t.game_at(won).unwrap().result(),
            GameResult::Win(crate::core::Color::Black)
        );
    }

    /// The rules' verdict from the short window equals the one from the whole game, on
    /// random king endings (where the draw rules bite) that branch.
    #[test]
    fn the_result_at_a_node_is_the_whole_games() {
        let mut rng = crate::core::rng::SplitMix64::new(11);
        let mut ends = 0;
        for fen in [
            "B:WK18,K27,30:BK3",
            "W:WK9,K14,K30:BK3,K7",
            "B:W18,22,K30:B3,K6,10",
        ] {
            let mut t: GameTree = GameTree::new(notation::parse_fen(fen).unwrap());
            let mut at = t.root();
            for _ in 0..3000 {
                let result = t.result_at(at).unwrap();
                assert_eq!(result, t.game_at(at).unwrap().result());
                let legal = movegen::legal_moves(&t.node(at).unwrap().position);
                if result != GameResult::Ongoing {
                    ends += 1;
                    assert!(matches!(
                        t.play(at, legal.as_slice().first().copied().unwrap_or_default()),
                        Err(TreeError::GameOver(_) | TreeError::Illegal(_))
                    ));
                    // Back up a random number of moves and branch.
                    let line = t.line_to(at).unwrap();
                    at = line[rng.below(line.len())];
                    continue;
                }
                at = t.play(at, *rng.pick(legal.as_slice())).unwrap();
            }
        }
        assert!(ends > 10, "{ends}");
    }

    #[test]
    fn the_node_cap_is_refused() {
        let start = notation::parse_fen("B:WK30:BK3").unwrap();
        let mut t: GameTree = GameTree::new(start);
        // Fill the tree with live nodes (stand-ins for a tree of shallow variations).
        let a = t.play_text(t.root(), "3-7").unwrap();
        let filler = t.node(a).unwrap().clone();
        while t.len() < MAX_NODES - 1 {
            t.insert(filler.clone()).unwrap();
        }
        let b = t.play_text(a, "30-26").unwrap();
        assert_eq!((b.index() as usize, t.len()), (MAX_NODES - 1, MAX_NODES));
        let full = t.play_text(b, "7-3");
        assert_eq!(full, Err(TreeError::Full));
        assert_eq!(
            full.unwrap_err().to_string(),
            "the game tree is full (262143 moves): delete lines or start a new game"
        );
        // Following what is there still works.
        assert_eq!(t.play_text(a, "30-26"), Ok(b));
        // A deleted node makes room for one more, under a new id.
        assert_eq!(t.delete(b), Ok(a));
        let c = t.play_text(a, "30-26").unwrap();
        assert!(c != b && t.node(b).is_none());
        assert_eq!(t.play_text(c, "7-3"), Err(TreeError::Full));
    }

    /// The tree bounds what it holds, not the ids it gave (issue 58: after 2^18 moves added
    /// and deleted, every move was refused as if the tree were full). Slots are reused, and
    /// an id once deleted never names another node.
    #[test]
    fn moves_added_and_deleted_for_ever_still_play() {
        let (mut t, ids) = tree_of(&["11-15", "23-19"]);
        let mut seen = std::collections::HashSet::new();
        seen.extend(ids.iter().copied());
        let mut gone = Vec::new();
        for i in 0..MAX_NODES + 1000 {
            let at = if i % 2 == 0 { ids[2] } else { t.root() };
            let first = t
                .play_text(at, if i % 2 == 0 { "8-11" } else { "9-13" })
                .unwrap();
            let second = t.play_text(first, "22-18").unwrap();
            assert!(
                seen.insert(first) && seen.insert(second),
                "an id given twice"
            );
            assert_eq!(t.delete(first), Ok(at));
            if i % 10_000 == 0 {
                gone.extend([first, second]);
            }
        }
        assert_eq!(t.len(), 3);
        assert_eq!(t.slots.len(), 5, "two slots were reused all along");
        let v = t.play_text(ids[2], "8-11").unwrap();
        assert_eq!(t.main_line(), vec![ids[0], ids[1], ids[2], v]);
        // Old ids, whose slots hold other nodes now, are refused.
        for old in gone {
            assert!(t.node(old).is_none());
            assert_eq!(t.play_text(old, "22-18"), Err(TreeError::NoSuchNode(old)));
            assert_eq!(t.delete(old), Err(TreeError::NoSuchNode(old)));
        }
        // A slot at its last generation is not used again: no id comes back.
        let slot = *t.free.last().unwrap();
        t.slots[slot].generation = MAX_GENERATION;
        let x = t.play_text(t.root(), "9-13").unwrap();
        assert_eq!((x.slot(), x.generation()), (slot, MAX_GENERATION));
        assert!(x.index() < 1 << 53);
        assert_eq!(t.delete(x), Ok(t.root()));
        let y = t.play_text(t.root(), "9-13").unwrap();
        assert!(y.slot() != x.slot() && t.node(x).is_none());
    }

    #[test]
    fn notes_stay_with_their_moves() {
        let (mut t, ids) = tree_of(&["11-15", "23-19"]);
        t.notes_mut(ids[2]).unwrap().nags.push(2);
        t.notes_mut(ids[2]).unwrap().eval = Some("-0.40".into());
        let v = t.play_text(ids[1], "22-18").unwrap();
        t.promote_to_main(v).unwrap();
        assert_eq!(t.node(ids[2]).unwrap().notes.nags, vec![2]);
        assert_eq!(t.node(ids[2]).unwrap().notes.eval.as_deref(), Some("-0.40"));
        let copy = t.clone();
        assert!(t.same_as(&copy));
        t.notes_mut(v).unwrap().comment = "x".into();
        assert!(!t.same_as(&copy));
    }

    #[test]
    fn a_payload_stays_with_its_node_and_goes_with_it() {
        let (t, ids) = tree_of(&["11-15", "23-19", "8-11"]);
        // Every id kept, each node's payload made from it.
        let mut t: GameTree<Option<u64>> = t.with_data(|id, n| n.mv.map(|_| id.index()));
        assert!(t.preorder().iter().eq(ids.iter()));
        assert_eq!(t.node(ids[0]).unwrap().data, None);
        assert_eq!(t.node(ids[2]).unwrap().data, Some(ids[2].index()));
        // A new move gets the default; a payload changes with its notes.
        let v = t.play_text(ids[1], "22-18").unwrap();
        assert_eq!(t.node(v).unwrap().data, None);
        *t.data_mut(v).unwrap() = Some(7);
        let (notes, data) = t.notes_and_data_mut(ids[3]).unwrap();
        notes.comment = "x".into();
        *data = Some(8);
        assert_eq!(t.node(ids[3]).unwrap().data, Some(8));
        // Deleting a line takes its payloads: a node in the freed slot starts afresh.
        t.delete(ids[2]).unwrap();
        t.delete(v).unwrap();
        let w = t.play_text(ids[1], "24-20").unwrap();
        assert_eq!(t.node(w).unwrap().data, None);
        assert!(t.data_mut(ids[3]).is_none() && t.data_mut(v).is_none());
    }
}
