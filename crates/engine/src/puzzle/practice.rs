//! Endgame practice: classic pool endgames to win, or to hold, against the endgame tables'
//! defence (docs/PUZZLES.md, "Endgame practice"). Each has at most 5 pieces and the person to
//! move; the board plays the other side with the tables (the longest resistance) and judges
//! the result under the rules, the 13-move and 40-move counts included.

/// What the person must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeGoal {
    /// Win the game within the rules.
    Win,
    /// Keep the draw for this many of one's own moves (or until the rules draw the game).
    Hold(u32),
}

impl PracticeGoal {
    /// The state's `goal`: `win` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            PracticeGoal::Win => "win",
            PracticeGoal::Hold(_) => "draw",
        }
    }
}

/// One practice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Practice {
    pub id: &'static str,
    pub name: &'static str,
    pub fen: &'static str,
    pub goal: PracticeGoal,
    /// What it teaches, in a sentence.
    pub teaches: &'static str,
}

/// The practices, in the order the page lists them. Each position's verdict in the tables is
/// its goal (a test builds the tables of 4 pieces and checks).
pub const ALL: [Practice; 5] = [
    Practice {
        id: "king-stops-man",
        name: "A king stops a man",
        fen: "W:WK30:B13",
        goal: PracticeGoal::Win,
        teaches: "A king catches a lone man before it crowns: cut across its path, and take it where it must walk into you.",
    },
    Practice {
        id: "two-men-against-one",
        name: "Two men against one",
        fen: "W:W22,23:B9",
        goal: PracticeGoal::Win,
        teaches: "Crown first and keep the extra man: a king and a man beat a lone piece.",
    },
    Practice {
        id: "two-kings-corner",
        name: "Two kings trap a king in the corner",
        fen: "W:WK17,K18:BK4",
        goal: PracticeGoal::Win,
        teaches: "Two kings draw against one in the open, but a lone king caught in the single corner is lost: close the diagonal it runs on.",
    },
    Practice {
        id: "three-kings",
        name: "Three kings against one",
        fen: "W:WK19,K26,K30:BK3",
        goal: PracticeGoal::Win,
        teaches: "Off the long diagonal a lone king is lost to three, but the 13-move count (R19) runs: trap it before its 13th move.",
    },
    Practice {
        id: "hold-the-long-road",
        name: "Hold the long diagonal",
        fen: "B:WK22,K26:BK29",
        goal: PracticeGoal::Hold(10),
        teaches: "One king holds two on the long diagonal (the main road): stay on it, and never step into a corner where two kings can shut it.",
    },
];

/// The practice with `id`.
pub fn find(id: &str) -> Option<usize> {
    ALL.iter().position(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;

    /// The page lists every practice by its id (web/js/puzzle.js).
    #[test]
    fn the_page_lists_every_practice() {
        let page = include_str!("../../../../web/js/puzzle.js");
        for p in ALL {
            assert!(
                page.contains(&format!("[\"{}\", \"{}\"]", p.id, p.name)),
                "{}",
                p.id
            );
        }
    }

    #[test]
    fn each_practice_reads_and_has_few_pieces() {
        for p in ALL {
            let pos = parse_fen(p.fen).unwrap();
            assert!(pos.occupied().count() <= 5, "{}", p.id);
            assert!(
                !crate::core::movegen::legal_moves(&pos).is_empty(),
                "{}",
                p.id
            );
            assert_eq!(find(p.id).map(|i| ALL[i].id), Some(p.id));
        }
    }
}
