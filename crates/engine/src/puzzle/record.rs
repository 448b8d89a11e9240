//! A puzzle as a PDN game: the Seven Tag Roster (Event first), `GameType "23"`, `SetUp "1"`,
//! the `FEN` of the position to solve, `Puzzle` (its id), `Themes` (names separated by
//! spaces), `PuzzleRating` (a whole number), and the solution as movetext. Read back, every
//! tag is checked against the solution: the id against the position, the themes against what
//! the solution does, the moves against the rules.

use super::themes::{self, Theme};
use super::{Goal, Puzzle, PuzzleId};
use crate::core::notation::write_fen;
use crate::core::pdn::PdnGame;
use std::fmt;

/// The `Event` of every puzzle poolshark writes.
pub const EVENT: &str = "poolshark puzzle";

/// Why a PDN game is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError(String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl Puzzle {
    /// The puzzle as a PDN game.
    pub fn to_pdn(&self) -> PdnGame {
        let names: Vec<&str> = self.themes.iter().map(|t| t.name()).collect();
        let tags = [
            ("Event", EVENT.to_string()),
            ("Site", "poolshark".to_string()),
            ("Date", "????.??.??".to_string()),
            ("Round", "-".to_string()),
            ("White", "?".to_string()),
            ("Black", "?".to_string()),
            ("Result", "*".to_string()),
            ("GameType", "23".to_string()),
            ("SetUp", "1".to_string()),
            ("FEN", write_fen(&self.position)),
            ("Puzzle", self.id.to_string()),
            ("Themes", names.join(" ")),
            ("PuzzleRating", self.rating.to_string()),
        ];
        PdnGame {
            tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            start: self.position,
            moves: self.solution.clone(),
            times: Vec::new(),
            result: "*".to_string(),
        }
    }

    /// The puzzle a PDN game holds (as `to_pdn` writes it), every tag checked.
    pub fn from_pdn(game: &PdnGame) -> Result<Puzzle, RecordError> {
        let err = |why: String| RecordError(why);
        let tag = |name: &str| {
            game.tag(name)
                .ok_or_else(|| err(format!("it has no {name} tag")))
        };
        let id_text = tag("Puzzle")?;
        let id = PuzzleId::parse(id_text).ok_or_else(|| {
            err(format!(
                "its Puzzle tag '{id_text}' is not 8 letters and digits"
            ))
        })?;
        if game.tag("FEN").is_none() {
            return Err(err("it has no FEN tag".into()));
        }
        let expected = PuzzleId::of(&game.start);
        if expected != id {
            return Err(err(format!(
                "its Puzzle tag '{id}' is not the id of its position ('{expected}')"
            )));
        }
        let mut listed = Vec::new();
        for name in tag("Themes")?.split_whitespace() {
            listed.push(Theme::parse(name).ok_or_else(|| err(format!("'{name}' is no theme")))?);
        }
        let rating_text = tag("PuzzleRating")?;
        let rating: u32 = rating_text
            .parse()
            .ok()
            .filter(|&r| r <= 4000)
            .ok_or_else(|| {
                err(format!(
                    "its PuzzleRating '{rating_text}' is not a whole number up to 4000"
                ))
            })?;
        if game.moves.is_empty() || game.moves.len().is_multiple_of(2) {
            return Err(err(format!(
                "its solution has {} plies: it must end with the solver's move",
                game.moves.len()
            )));
        }
        let goal = if listed.contains(&Theme::DefensiveMove) {
            Goal::Save
        } else {
            Goal::Win
        };
        let by_tables = listed.contains(&Theme::EndgameWin);
        let computed = themes::of(&game.start, goal, &game.moves, by_tables);
        if computed != listed {
            let names = |t: &[Theme]| t.iter().map(|t| t.name()).collect::<Vec<_>>().join(" ");
            return Err(err(format!(
                "its Themes '{}' are not those of its solution ('{}')",
                names(&listed),
                names(&computed)
            )));
        }
        Ok(Puzzle {
            id,
            position: game.start,
            goal,
            solution: game.moves.clone(),
            themes: listed,
            rating,
        })
    }
}
