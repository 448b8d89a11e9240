//! What the reader (`reader`) tells about each game, as it reads it: a `Visitor` is called
//! for each tag, the start of the movetext, each move, NAG, comment, the start and end of
//! each variation, the result, and the end of the game, which gives the visitor's value
//! for that game. The visitor may skip the movetext or a variation: the reader still finds
//! where the game ends, and still checks the text's shape (brackets, marks, results), but
//! calls nothing for what is skipped.
//!
//! Building a tree that checks the rules is one visitor (`movetext::TreeBuilder`); reading
//! the tags alone (`Tags`) is another, which skips every move.

use super::error::{ErrorKind, Spot};

/// A fault a visitor finds, and where it starts; the reader adds the game.
pub type Fault = (Spot, ErrorKind);

/// What a visitor wants of the movetext, or of a variation, about to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    Read,
    Skip,
}

/// How a game ended, for `Visitor::end_game`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// The game's result: the movetext's, else the `Result` tag's, else `*`.
    pub result: String,
    /// Where that result stood: the movetext's result, else the `Result` tag (none for `*`
    /// given by neither).
    pub at: Option<Spot>,
}

/// Called by the reader for each part of each game, in the order of the text (see the
/// module's doc). Each game starts with the visitor as the last `end_game` left it.
pub trait Visitor {
    /// What the visitor makes of one game.
    type Game;

    /// A tag `[name "value"]`, before the movetext.
    fn tag(&mut self, _at: Spot, _name: String, _value: String) -> Result<(), Fault> {
        Ok(())
    }

    /// The movetext starts (at its first token): read it or skip it.
    fn begin_movetext(&mut self, _at: Spot) -> Result<Visit, Fault> {
        Ok(Visit::Read)
    }

    /// A move, as written, without its number or mark (`11-15`, `15x24`).
    fn mv(&mut self, _at: Spot, _text: &str) -> Result<(), Fault> {
        Ok(())
    }

    /// A NAG (`$4`) or a mark glued to the move before it (`??`, as its NAG).
    fn nag(&mut self, _at: Spot, _nag: u8) -> Result<(), Fault> {
        Ok(())
    }

    /// A comment's text, without its braces (or its `;`).
    fn comment(&mut self, _at: Spot, _text: String) -> Result<(), Fault> {
        Ok(())
    }

    /// A variation starts (`(`): an alternative to the move before it.
    fn begin_variation(&mut self, _at: Spot) -> Result<Visit, Fault> {
        Ok(Visit::Read)
    }

    /// The variation last started and read ends (`)`).
    fn end_variation(&mut self, _at: Spot) -> Result<(), Fault> {
        Ok(())
    }

    /// The result at the end of the movetext (`1-0`).
    fn result(&mut self, _at: Spot, _text: &str) -> Result<(), Fault> {
        Ok(())
    }

    /// The game has ended: its value. The visitor is then ready for the next game.
    fn end_game(&mut self, end: &GameEnd) -> Result<Self::Game, Fault>;
}

/// A game's tags alone, in order, with its result: the movetext is skipped (no move is
/// replayed), so a file is counted fast and in little memory.
#[derive(Default)]
pub struct Tags {
    tags: Vec<(String, String)>,
}

/// What `Tags` gives for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTags {
    pub tags: Vec<(String, String)>,
    pub result: String,
}

impl Visitor for Tags {
    type Game = GameTags;

    fn tag(&mut self, _at: Spot, name: String, value: String) -> Result<(), Fault> {
        self.tags.push((name, value));
        Ok(())
    }

    fn begin_movetext(&mut self, _at: Spot) -> Result<Visit, Fault> {
        Ok(Visit::Skip)
    }

    fn end_game(&mut self, end: &GameEnd) -> Result<GameTags, Fault> {
        Ok(GameTags {
            tags: std::mem::take(&mut self.tags),
            result: end.result.clone(),
        })
    }
}

/// Game `number` (from 1) alone, made by `V`; every other game's movetext is skipped, so
/// it is never built, and its tags are not kept: a file of a million games needs the memory
/// of the one. Each game gives `Some` for the one chosen, `None` for the others.
pub struct Only<V> {
    inner: V,
    number: usize,
    /// Games ended so far.
    seen: usize,
}

impl<V> Only<V> {
    pub fn new(number: usize, inner: V) -> Only<V> {
        Only {
            inner,
            number,
            seen: 0,
        }
    }

    fn chosen(&self) -> bool {
        self.seen + 1 == self.number
    }
}

impl<V: Visitor> Visitor for Only<V> {
    type Game = Option<V::Game>;

    fn tag(&mut self, at: Spot, name: String, value: String) -> Result<(), Fault> {
        match self.chosen() {
            true => self.inner.tag(at, name, value),
            false => Ok(()),
        }
    }

    fn begin_movetext(&mut self, at: Spot) -> Result<Visit, Fault> {
        match self.chosen() {
            true => self.inner.begin_movetext(at),
            false => Ok(Visit::Skip),
        }
    }

    // The rest comes only for a movetext read: the chosen game's.
    fn mv(&mut self, at: Spot, text: &str) -> Result<(), Fault> {
        self.inner.mv(at, text)
    }

    fn nag(&mut self, at: Spot, nag: u8) -> Result<(), Fault> {
        self.inner.nag(at, nag)
    }

    fn comment(&mut self, at: Spot, text: String) -> Result<(), Fault> {
        self.inner.comment(at, text)
    }

    fn begin_variation(&mut self, at: Spot) -> Result<Visit, Fault> {
        self.inner.begin_variation(at)
    }

    fn end_variation(&mut self, at: Spot) -> Result<(), Fault> {
        self.inner.end_variation(at)
    }

    fn result(&mut self, at: Spot, text: &str) -> Result<(), Fault> {
        self.inner.result(at, text)
    }

    fn end_game(&mut self, end: &GameEnd) -> Result<Option<V::Game>, Fault> {
        let chosen = self.chosen();
        self.seen += 1;
        match chosen {
            true => self.inner.end_game(end).map(Some),
            false => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::movetext::TreeBuilder;
    use super::super::reader::{games, games_in};
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// Counts what reaches it (games built, moves) where the test sees it, then builds as
    /// `TreeBuilder` does.
    #[derive(Default)]
    struct Counted {
        counts: Rc<Cell<(usize, usize)>>,
        tree: TreeBuilder,
    }

    impl Visitor for Counted {
        type Game = super::super::reader::TreeGame;
        fn tag(&mut self, at: Spot, name: String, value: String) -> Result<(), Fault> {
            self.tree.tag(at, name, value)
        }
        fn begin_movetext(&mut self, at: Spot) -> Result<Visit, Fault> {
            self.tree.begin_movetext(at)
        }
        fn mv(&mut self, at: Spot, text: &str) -> Result<(), Fault> {
            let (built, moves) = self.counts.get();
            self.counts.set((built, moves + 1));
            self.tree.mv(at, text)
        }
        fn begin_variation(&mut self, at: Spot) -> Result<Visit, Fault> {
            self.tree.begin_variation(at)
        }
        fn end_variation(&mut self, at: Spot) -> Result<(), Fault> {
            self.tree.end_variation(at)
        }
        fn end_game(&mut self, end: &GameEnd) -> Result<Self::Game, Fault> {
            let (built, moves) = self.counts.get();
            self.counts.set((built + 1, moves));
            self.tree.end_game(end)
        }
    }

    /// Issue 58, item 11: one game of a long text is built alone; the others are skipped
    /// (no move of theirs reaches the builder), so memory holds that game whatever the
    /// text's length.
    #[test]
    fn only_the_chosen_game_is_built() {
        let game =
            |i: usize| format!("[Round \"{i}\"]\n1. 11-15 23-19 (1... 22-18 2. 15x22) 2. 8-11 *\n");
        let text: String = (1..=20_000).map(game).collect();
        let lines = text.lines().map(Ok::<_, std::convert::Infallible>);
        let counted = Counted::default();
        let counts = Rc::clone(&counted.counts);
        let mut chosen = Vec::new();
        let mut count = 0;
        for g in games(lines, Only::new(2, counted)) {
            count += 1;
            chosen.extend(g.unwrap().game().unwrap());
        }
        assert_eq!((count, chosen.len()), (20_000, 1));
        assert_eq!(chosen[0].tags, [("Round".to_string(), "2".to_string())]);
        assert_eq!(chosen[0].tree.len(), 6);
        assert_eq!(counts.get(), (1, 5));
        // A game past the end gives none.
        assert!(
            games_in(&text, Only::new(20_001, Counted::default())).all(|g| g.unwrap().is_none())
        );
    }
}
