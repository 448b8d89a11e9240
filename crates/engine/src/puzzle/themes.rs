//! A puzzle's themes, computed from its solution, never given by hand: what pool players call
//! the idea (docs/PUZZLES.md lists each), and how long the solution is. Named in camelCase,
//! one word each, as lichess names its themes.

use super::{balance, Goal};
use crate::core::{movegen, Color, Move, Position};

/// One theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The solver gives a man (or more) to take more: the other side captures in the line,
    /// and the solver ends ahead.
    Shot,
    /// A man of the solver's is crowned in the line, and that decides.
    Breakthrough,
    /// The solver takes a king of the other side's.
    KingTrap,
    /// A capture of the solver's takes two pieces or more.
    MultiJump,
    /// A capture of the other side's stops short because the pieces it took are still on the
    /// board until it ends (R13): lifted at once, it would have gone on.
    TurkishStrike,
    /// Six pieces or fewer, the win proved by the endgame tables.
    EndgameWin,
    /// The one move that saves the position.
    DefensiveMove,
    /// The solution is one move of the solver's, two, three, four or more.
    OneMove,
    Short,
    Long,
    VeryLong,
}

/// Every theme, in the order a `Themes` tag lists them.
pub const ALL: [Theme; 11] = [
    Theme::Shot,
    Theme::Breakthrough,
    Theme::KingTrap,
    Theme::MultiJump,
    Theme::TurkishStrike,
    Theme::EndgameWin,
    Theme::DefensiveMove,
    Theme::OneMove,
    Theme::Short,
    Theme::Long,
    Theme::VeryLong,
];

impl Theme {
    /// The name in a `Themes` tag.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Shot => "shot",
            Theme::Breakthrough => "breakthrough",
            Theme::KingTrap => "kingTrap",
            Theme::MultiJump => "multiJump",
            Theme::TurkishStrike => "turkishStrike",
            Theme::EndgameWin => "endgameWin",
            Theme::DefensiveMove => "defensiveMove",
            Theme::OneMove => "oneMove",
            Theme::Short => "short",
            Theme::Long => "long",
            Theme::VeryLong => "veryLong",
        }
    }

    /// The theme named `name`, if any.
    pub fn parse(name: &str) -> Option<Theme> {
        ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Whether `mv`, played in `pos`, is a capture that R13 stopped: with the pieces it took
/// lifted, its piece (not crowned by it) could jump again from where it ended.
fn stopped_by_turkish_strike(pos: &Position, mv: &Move) -> bool {
    if !mv.is_capture() {
        return false;
    }
    let was_king = pos.kings().contains(mv.from);
    let after = pos.play(mv);
    if !was_king && after.kings().contains(mv.to) {
        return false;
    }
    // The same side to move again, its captured pieces gone.
    let again = after.with_side(pos.side());
    movegen::legal_moves(&again)
        .iter()
        .any(|m| m.from == mv.to && m.is_capture())
}

/// The themes of a solution played from `start` toward `goal`, `by_tables` where the
/// endgame tables proved it.
pub fn of(start: &Position, goal: Goal, solution: &[Move], by_tables: bool) -> Vec<Theme> {
    let solver: Color = start.side();
    let mut themes = Vec::new();
    let mut pos = *start;
    let mut given = false;
    let mut crowned = false;
    let mut king_taken = false;
    let mut multi = false;
    let mut turkish = false;
    for mv in solution {
        let ours = pos.side() == solver;
        if ours {
            if mv.captured.count() >= 2 {
                multi = true;
            }
            if (mv.captured & pos.kings()).any() {
                king_taken = true;
            }
            let man = !pos.kings().contains(mv.from);
            if man && Position::crowning_row(solver).contains(mv.to) {
                crowned = true;
            }
        } else {
            if mv.is_capture() {
                given = true;
            }
            if stopped_by_turkish_strike(&pos, mv) {
                turkish = true;
            }
        }
        pos = pos.play(mv);
    }
    let gain = balance(&pos, solver) - balance(start, solver);
    if goal == Goal::Win && given && gain > 0 {
        themes.push(Theme::Shot);
    }
    if goal == Goal::Win && crowned {
        themes.push(Theme::Breakthrough);
    }
    if king_taken {
        themes.push(Theme::KingTrap);
    }
    if multi {
        themes.push(Theme::MultiJump);
    }
    if turkish {
        themes.push(Theme::TurkishStrike);
    }
    if goal == Goal::Win && by_tables {
        themes.push(Theme::EndgameWin);
    }
    if goal == Goal::Save {
        themes.push(Theme::DefensiveMove);
    }
    themes.push(match solution.len().div_ceil(2) {
        0 | 1 => Theme::OneMove,
        2 => Theme::Short,
        3 => Theme::Long,
        _ => Theme::VeryLong,
    });
    themes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{parse_fen, parse_move};

    fn line(fen: &str, moves: &[&str]) -> (Position, Vec<Move>) {
        let start = parse_fen(fen).unwrap();
        let mut pos = start;
        let mut out = Vec::new();
        for m in moves {
            let mv = parse_move(&pos, m).unwrap();
            pos = pos.play(&mv);
            out.push(mv);
        }
        (start, out)
    }

    #[test]
    fn names_read_back() {
        for t in ALL {
            assert_eq!(Theme::parse(t.name()), Some(t));
            assert!(t.name().chars().all(|c| c.is_ascii_alphabetic()));
        }
        assert_eq!(Theme::parse("Shot"), None);
    }

    /// RULES.md's R13 example: the king on 1 takes 10, 26 and 27, where lifting each piece
    /// as it is taken would let it go on over 7 and 3.
    #[test]
    fn the_turkish_strike_is_seen_where_it_stops_a_capture() {
        let pos = parse_fen("W:WK1:B7,10,20,26,27").unwrap();
        let stopped = movegen::legal_moves(&pos)
            .iter()
            .filter(|m| stopped_by_turkish_strike(&pos, m))
            .count();
        assert!(stopped > 0);
        // A plain single capture is not stopped.
        let pos = parse_fen("B:W18:B15").unwrap();
        let mv = movegen::legal_moves(&pos)[0];
        assert!(mv.is_capture() && !stopped_by_turkish_strike(&pos, &mv));
    }

    /// A shot from level games (`puzzles make`): Black gives the man on 16, White takes it,
    /// and Black jumps three to the crowning row.
    #[test]
    fn a_shot_with_a_triple_jump_to_the_crowning_row() {
        let (start, moves) = line(SHOT_FEN, &["11-16", "20x11", "8x15x24x31"]);
        let t = of(&start, Goal::Win, &moves, false);
        assert_eq!(
            t,
            vec![
                Theme::Shot,
                Theme::Breakthrough,
                Theme::MultiJump,
                Theme::Short
            ]
        );
        let t = of(&start, Goal::Save, &moves[..1], false);
        assert_eq!(t, vec![Theme::DefensiveMove, Theme::OneMove]);
    }

    pub const SHOT_FEN: &str = "B:W17,18,19,20,21,22,27,28,29,30,32:B1,3,4,5,6,8,9,11,12,13";
}
