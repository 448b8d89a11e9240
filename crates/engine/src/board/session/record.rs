//! The game's record beyond its moves: a loaded game's tags, which `save_pdn` writes again,
//! the tags a person set since (`tags`), and the result the game was loaded with or given,
//! which stands while the main line ends where it ended then.

use crate::core::tree::NodeId;
use std::collections::BTreeMap;

/// The tags and the result of the game on the board.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// A loaded game's tags; `None` for a game begun here.
    loaded: Option<Vec<(String, String)>>,
    /// The roster's tags set by `tags`, over `loaded` or the board's (an empty value leaves
    /// the tag out); `Result` is `result`'s.
    edits: Vec<(String, String)>,
    /// A loaded (or set) result, and the main line's last node when it was: the result
    /// stands while the main line ends there.
    result: Option<(NodeId, String)>,
}

impl Record {
    /// A loaded game's: its tags, and its result while the main line ends at `end`.
    pub fn loaded(tags: Vec<(String, String)>, end: NodeId, result: String) -> Record {
        Record {
            loaded: Some(tags),
            edits: Vec::new(),
            result: Some((end, result)),
        }
    }

    /// A loaded game's tags, None for a game begun here.
    pub fn loaded_tags(&self) -> Option<&[(String, String)]> {
        self.loaded.as_deref()
    }

    /// The result loaded or set, while the main line ends at `end` as it did then.
    pub fn result_at(&self, end: NodeId) -> Option<&str> {
        match &self.result {
            Some((node, result)) if *node == end => Some(result),
            _ => None,
        }
    }

    /// Set the tags given but `Result` (each trimmed), and the result `result` where given.
    pub fn edit(&mut self, tags: &BTreeMap<String, String>, result: Option<(NodeId, String)>) {
        for (name, value) in tags.iter().filter(|(k, _)| *k != "Result") {
            self.edits.retain(|(k, _)| k != name);
            self.edits.push((name.clone(), value.trim().to_string()));
        }
        if result.is_some() {
            self.result = result;
        }
    }

    /// The game's tags, unordered: a loaded game's with its `Result` as `result`, or
    /// `board`'s for a game begun here, with the tags set here over them (an empty one left
    /// out).
    pub fn tags(
        &self,
        result: &str,
        board: impl FnOnce() -> Vec<(String, String)>,
    ) -> Vec<(String, String)> {
        let mut tags = match &self.loaded {
            Some(loaded) => {
                let mut tags = loaded.clone();
                match tags.iter_mut().find(|(k, _)| k == "Result") {
                    Some(tag) => tag.1 = result.to_string(),
                    None => tags.push(("Result".into(), result.to_string())),
                }
                tags
            }
            None => board(),
        };
        for (name, value) in &self.edits {
            match tags.iter_mut().find(|(k, _)| k == name) {
                Some(tag) => tag.1 = value.clone(),
                None => tags.push((name.clone(), value.clone())),
            }
        }
        tags.retain(|(_, v)| !v.is_empty());
        tags
    }
}
