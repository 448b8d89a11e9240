//! The board's puzzles (docs/BOARD.md, "Puzzles"): `puzzle` sets one up from the built-in
//! set (`puzzle::set`), near the player's rating; the person plays the solver's side with
//! ordinary `move`s, each answered at once (the reply played in the same state); a move off
//! the solution fails the puzzle. Solved or failed, the player's Glicko-2 rating moves (once a
//! puzzle, outside a streak), the solution is shown, and the position is free to play on and
//! analyse. The puzzle stays in the state until `new`, `load_pdn`, `setup` or the next one.

use super::protocol::{Player, PuzzleState};
use super::session::Done;
use super::{Board, BoardError};
use crate::core::notation;
use crate::core::rng::SplitMix64;
use crate::core::tree::NodeId;
use crate::puzzle::glicko;
use crate::puzzle::set::{PuzzleSet, STREAK_START, STREAK_STEP};
use crate::puzzle::themes::Theme;
use crate::puzzle::Goal;
use std::collections::HashSet;
use std::fmt;

/// Why a puzzle request was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleError {
    NoSuchId(String),
    NoSuchTheme(String),
    NoPuzzleOfTheme(String),
    /// A move for the side that does not solve.
    NotYourSide(&'static str),
    /// A move elsewhere than at the puzzle's position.
    NotAtPuzzle,
    /// What a puzzle being solved does not allow (`what`).
    WhilePlaying(&'static str),
    BadPlayer(String),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::NoSuchId(id) => write!(f, "no puzzle has the id '{id}'"),
            PuzzleError::NoSuchTheme(t) => write!(
                f,
                "'{t}' is no puzzle theme (themes: {})",
                crate::puzzle::themes::ALL.map(Theme::name).join(", ")
            ),
            PuzzleError::NoPuzzleOfTheme(t) => write!(f, "no puzzle has the theme '{t}'"),
            PuzzleError::NotYourSide(side) => {
                write!(
                    f,
                    "in this puzzle you play {side}'s moves: the board answers them"
                )
            }
            PuzzleError::NotAtPuzzle => f.write_str(
                "the puzzle goes on from its last position: go back to it to play your move",
            ),
            PuzzleError::WhilePlaying(what) => write!(
                f,
                "a puzzle is being solved: {what} once it is solved or failed"
            ),
            PuzzleError::BadPlayer(why) => write!(f, "bad puzzle_player: {why}"),
        }
    }
}

/// How the puzzle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Playing,
    Solved,
    Failed,
}

/// The puzzle on the board.
#[derive(Clone, Debug)]
struct Shown {
    /// Its index in the set.
    index: usize,
    /// The solution's moves played so far.
    at: usize,
    /// The node where the next solver move is due.
    node: NodeId,
    outcome: Outcome,
    /// Whether it moves the player's rating (its first try, outside a streak).
    rated: bool,
}

/// The board's puzzles: the one shown, the player, what was played, the streak.
pub(super) struct Puzzles {
    shown: Option<Shown>,
    player: glicko::Player,
    played: HashSet<usize>,
    /// Solved in a row in the streak, or None outside one.
    streak: Option<u32>,
    rng: SplitMix64,
}

impl Puzzles {
    pub(super) fn new(seed: u64) -> Puzzles {
        Puzzles {
            shown: None,
            player: glicko::NEW,
            played: HashSet::new(),
            streak: None,
            rng: SplitMix64::new(seed),
        }
    }

    /// Whether a puzzle is being solved.
    pub(super) fn playing(&self) -> bool {
        self.shown
            .as_ref()
            .is_some_and(|s| s.outcome == Outcome::Playing)
    }

    /// Refuse `what` while a puzzle is being solved.
    pub(super) fn allows(&self, what: &'static str) -> Result<(), BoardError> {
        if self.playing() {
            return Err(PuzzleError::WhilePlaying(what).into());
        }
        Ok(())
    }

    /// The puzzle leaves the board (`new`, `load_pdn`, `setup`).
    pub(super) fn end(&mut self) {
        self.shown = None;
        self.streak = None;
    }

    /// The state's `puzzle`.
    pub(super) fn state(&self) -> Option<PuzzleState> {
        let s = self.shown.as_ref()?;
        let p = PuzzleSet::builtin().get(s.index)?;
        let finished = s.outcome != Outcome::Playing;
        Some(PuzzleState {
            id: p.id.to_string(),
            rating: p.rating,
            themes: p.themes.iter().map(|t| t.name()).collect(),
            goal: match p.goal {
                Goal::Win => "win",
                Goal::Save => "save",
            },
            result: match s.outcome {
                Outcome::Playing => "playing",
                Outcome::Solved => "solved",
                Outcome::Failed => "failed",
            },
            player_rating: self.player.rating.round() as u32,
            player_rd: (self.player.rd * 100.0).round() / 100.0,
            player_vol: (self.player.vol * 1e6).round() / 1e6,
            streak: self.streak,
            solution: finished.then(|| p.solution.iter().map(|m| m.hub()).collect()),
        })
    }
}

impl From<PuzzleError> for BoardError {
    fn from(e: PuzzleError) -> BoardError {
        BoardError::Puzzle(e)
    }
}

impl Board {
    /// `puzzle`: the one with `id`, else the next near the player's rating (or the streak's
    /// next) of `theme`; set up with both sides played by hand and analysis off. It moves the
    /// rating where `rated`, outside a streak, the first time on this board.
    pub(super) fn start_puzzle(
        &mut self,
        theme: Option<&str>,
        id: Option<&str>,
        streak: bool,
        rated: bool,
    ) -> Result<Done, BoardError> {
        let set = PuzzleSet::builtin();
        let theme = theme
            .map(|t| Theme::parse(t).ok_or_else(|| PuzzleError::NoSuchTheme(t.to_string())))
            .transpose()?;
        let pz = &mut self.puzzles;
        // A streak goes on with the next puzzle while none was missed.
        let streak = if streak {
            Some(0)
        } else {
            match (&pz.shown, pz.streak) {
                (Some(s), Some(n)) if s.outcome == Outcome::Solved => Some(n),
                _ => None,
            }
        };
        let index = match id {
            Some(id) => set
                .find(id)
                .ok_or_else(|| PuzzleError::NoSuchId(id.to_string()))?,
            None => {
                let target = match streak {
                    Some(n) => STREAK_START + STREAK_STEP * f64::from(n),
                    None => pz.player.rating,
                };
                set.pick(target, theme, &pz.played, &mut pz.rng)
                    .ok_or_else(|| {
                        PuzzleError::NoPuzzleOfTheme(theme.map_or("any", Theme::name).to_string())
                    })?
            }
        };
        let p = set.get(index).expect("an index of the set");
        let fen = notation::write_fen(&p.position);
        self.session
            .new_game(Player::Human, Player::Human, Some(&fen), None)?;
        self.clear = true;
        self.analyzing = false;
        let rated = rated && streak.is_none() && !pz.played.contains(&index);
        pz.played.insert(index);
        pz.streak = streak;
        pz.shown = Some(Shown {
            index,
            at: 0,
            node: self.session.node(),
            outcome: Outcome::Playing,
            rated,
        });
        Ok(Done::Changed { auto: false })
    }

    /// `puzzle_player`: the player's rating as the page kept it.
    pub(super) fn set_puzzle_player(
        &mut self,
        rating: f64,
        rd: f64,
        vol: f64,
    ) -> Result<Done, BoardError> {
        let p = glicko::Player::checked(rating, rd, vol).ok_or_else(|| {
            PuzzleError::BadPlayer(format!(
                "rating {rating} (0 to 4000), rd {rd} ({} to {}), vol {vol} (above 0, at most 1)",
                glicko::MIN_RD,
                glicko::NEW.rd
            ))
        })?;
        self.puzzles.player = p;
        Ok(Done::Changed { auto: false })
    }

    /// A `move` while a puzzle is being solved: the solution's move goes on (its reply
    /// played at once), any other fails the puzzle (and is played, to show it).
    pub(super) fn puzzle_move(&mut self, text: &str) -> Result<Done, BoardError> {
        let set = PuzzleSet::builtin();
        let shown = self
            .puzzles
            .shown
            .clone()
            .expect("a puzzle is being solved");
        let p = set.get(shown.index).expect("an index of the set");
        if self.session.node() != shown.node {
            return Err(PuzzleError::NotAtPuzzle.into());
        }
        let pos = *self.session.game().position();
        if pos.side() != p.position.side() {
            return Err(PuzzleError::NotYourSide(crate::board::view::color_name(
                p.position.side(),
            ))
            .into());
        }
        let mv = notation::parse_move(&pos, text).map_err(|e| {
            super::session::SessionError::IllegalMove(text.to_string(), e.to_string())
        })?;
        self.session.play(mv)?;
        let mut at = shown.at;
        let outcome = if p.solution.get(at) == Some(&mv) {
            at += 1;
            if let Some(reply) = p.solution.get(at) {
                self.session.play(*reply)?;
                at += 1;
            }
            if at >= p.solution.len() {
                Outcome::Solved
            } else {
                Outcome::Playing
            }
        } else {
            Outcome::Failed
        };
        let pz = &mut self.puzzles;
        if outcome != Outcome::Playing {
            if shown.rated {
                pz.player = glicko::after_puzzle(pz.player, p.rating, outcome == Outcome::Solved);
            }
            pz.streak = match (pz.streak, outcome) {
                (Some(n), Outcome::Solved) => Some(n + 1),
                (s, _) => s,
            };
        }
        pz.shown = Some(Shown {
            at,
            node: self.session.node(),
            outcome,
            ..shown
        });
        Ok(Done::Changed { auto: false })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{Board, BoardConfig, Out};
    use crate::puzzle::set::PuzzleSet;

    fn board() -> Board {
        Board::new(BoardConfig::plain())
    }

    /// The last state sent, as JSON (the practice's tests use it too).
    pub(in crate::board) fn state(outs: &[Out]) -> serde_json::Value {
        let text = outs
            .iter()
            .rev()
            .find_map(|o| match o {
                Out::Send(r) => Some(r.to_json()).filter(|t| t.starts_with(r#"{"type":"state""#)),
                _ => None,
            })
            .expect("a state");
        serde_json::from_str(&text).unwrap()
    }

    fn error(outs: &[Out]) -> Option<String> {
        outs.iter().find_map(|o| match o {
            Out::Send(r) => {
                let v: serde_json::Value = serde_json::from_str(&r.to_json()).ok()?;
                (v["type"] == "error").then(|| v["message"].as_str().unwrap().to_string())
            }
            _ => None,
        })
    }

    fn mv(text: &str) -> String {
        serde_json::json!({"type": "move", "move": text}).to_string()
    }

    /// The puzzle with more than one solver move, if the set has one.
    fn long_puzzle() -> &'static crate::puzzle::Puzzle {
        let set = PuzzleSet::builtin();
        (0..set.len())
            .map(|i| set.get(i).unwrap())
            .find(|p| p.solution.len() >= 3)
            .expect("a puzzle of two moves or more in the set")
    }

    #[test]
    fn a_puzzle_played_right_is_solved_and_raises_the_rating() {
        let mut b = board();
        let p = long_puzzle();
        let id = p.id.to_string();
        let st = state(&b.request(&format!(r#"{{"type":"puzzle","id":"{id}"}}"#)));
        assert_eq!(st["puzzle"]["id"], id.as_str());
        assert_eq!(st["puzzle"]["result"], "playing");
        assert_eq!(st["puzzle"]["player_rating"], 1500);
        assert!(st["puzzle"]["solution"].is_null());
        // A move for the other side is refused: it is not the solver's turn to be played for.
        let mut k = 0;
        let mut last = st;
        while k < p.solution.len() {
            let outs = b.request(&mv(&p.solution[k].hub()));
            assert_eq!(error(&outs), None);
            last = state(&outs);
            k += 2;
        }
        assert_eq!(last["puzzle"]["result"], "solved");
        assert!(last["puzzle"]["player_rating"].as_u64().unwrap() > 1500);
        assert_eq!(
            last["puzzle"]["solution"].as_array().unwrap().len(),
            p.solution.len()
        );
        // After it: free play (any legal move), the puzzle still shown.
        let legal = last["legal"][0]["hub"].as_str().map(str::to_string);
        if let Some(m) = legal {
            let st = state(&b.request(&mv(&m)));
            assert_eq!(st["puzzle"]["result"], "solved");
        }
        // A new game ends it.
        let st = state(&b.request(r#"{"type":"new","white":"human","black":"human"}"#));
        assert!(st["puzzle"].is_null());
    }

    #[test]
    fn a_move_off_the_solution_fails_and_lowers_the_rating() {
        let mut b = board();
        let p = long_puzzle();
        b.request(&format!(r#"{{"type":"puzzle","id":"{}"}}"#, p.id));
        let wrong = crate::core::movegen::legal_moves(&p.position)
            .iter()
            .find(|m| **m != p.solution[0])
            .copied()
            .expect("a puzzle has another move");
        let st = state(&b.request(&mv(&wrong.hub())));
        assert_eq!(st["puzzle"]["result"], "failed");
        assert!(st["puzzle"]["player_rating"].as_u64().unwrap() < 1500);
        // Brought back by a page after a reload (`rated` false), it does not move the rating.
        let mut fresh = board();
        let st = state(&fresh.request(&format!(
            r#"{{"type":"puzzle","id":"{}","rated":false}}"#,
            p.id
        )));
        assert_eq!(st["puzzle"]["result"], "playing");
        let st = state(&fresh.request(&mv(&wrong.hub())));
        assert_eq!(st["puzzle"]["result"], "failed");
        assert_eq!(st["puzzle"]["player_rating"], 1500);
        // Played again, it does not move the rating twice.
        let st = state(&b.request(&format!(r#"{{"type":"puzzle","id":"{}"}}"#, p.id)));
        let r = st["puzzle"]["player_rating"].clone();
        let st = state(&b.request(&mv(&wrong.hub())));
        assert_eq!(st["puzzle"]["player_rating"], r);
    }

    #[test]
    fn bad_requests_are_refused_and_change_nothing() {
        let mut b = board();
        assert!(error(&b.request(r#"{"type":"puzzle","id":"nosuchid"}"#))
            .unwrap()
            .contains("no puzzle has the id 'nosuchid'"));
        assert!(error(&b.request(r#"{"type":"puzzle","theme":"mate"}"#))
            .unwrap()
            .contains("'mate' is no puzzle theme"));
        assert!(
            error(&b.request(r#"{"type":"puzzle_player","rating":1500,"rd":-1,"vol":0.06}"#))
                .is_some()
        );
        let p = long_puzzle();
        b.request(&format!(r#"{{"type":"puzzle","id":"{}"}}"#, p.id));
        assert!(error(&b.request(r#"{"type":"analyze","on":true}"#))
            .unwrap()
            .contains("a puzzle is being solved"));
        assert!(error(&b.request(r#"{"type":"engine_move"}"#)).is_some());
        // The player's rating handed in shows at once.
        let st = state(&b.request(r#"{"type":"puzzle_player","rating":1800,"rd":80,"vol":0.06}"#));
        assert_eq!(st["puzzle"]["player_rating"], 1800);
        assert_eq!(st["puzzle"]["result"], "playing");
    }

    #[test]
    fn a_streak_counts_until_a_miss() {
        let mut b = board();
        let st = state(&b.request(r#"{"type":"puzzle","streak":true}"#));
        assert_eq!(st["puzzle"]["streak"], 0);
        let id = st["puzzle"]["id"].as_str().unwrap().to_string();
        let p = PuzzleSet::builtin()
            .get(PuzzleSet::builtin().find(&id).unwrap())
            .unwrap();
        let mut last = st;
        for m in p.solution.iter().step_by(2) {
            last = state(&b.request(&mv(&m.hub())));
        }
        assert_eq!(last["puzzle"]["streak"], 1);
        assert_eq!(
            last["puzzle"]["player_rating"], 1500,
            "a streak is not rated"
        );
        let st = state(&b.request(r#"{"type":"puzzle"}"#));
        assert_eq!(st["puzzle"]["streak"], 1);
        assert_eq!(st["puzzle"]["result"], "playing");
    }
}
