//! What the board keeps on each node of its game tree (the tree's payload, `NodeData`):
//! how the node's move is shown, made once when the move is added, and what a review said
//! of it (`reviewed`). A deleted node takes both with it. Also the node as the page gets it
//! (`TreeNode`).

use super::reviewed::{self, Reviewed};
use crate::board::protocol::{HistoryMove, TreeNode};
use crate::core::pdn::notes as pdn_notes;
use crate::core::tree::{GameTree, NodeId};

/// The board's data on one node of its tree.
#[derive(Clone, Debug, Default)]
pub struct NodeData {
    /// How the node's move is shown (PDN, Hub, path, captures); None at the root only.
    pub(super) shown: Option<HistoryMove>,
    /// What a review said of the move, None where none did.
    pub(super) review: Option<Reviewed>,
}

/// How node `id`'s move is shown (None at the root).
pub(super) fn move_shown(tree: &GameTree<NodeData>, id: NodeId) -> Option<HistoryMove> {
    tree.node(id)?.data.shown.clone()
}

/// Node `id` as the page gets it.
pub(super) fn tree_node(tree: &GameTree<NodeData>, id: NodeId) -> Option<TreeNode> {
    let node = tree.node(id)?;
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
        review: reviewed::node_review(tree, id),
        comment: notes.comment.clone(),
        before: notes.before.clone(),
    })
}
