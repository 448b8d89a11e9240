//! The board's endgame practice (docs/BOARD.md, "Endgame practice"): `practice` sets one of
//! `puzzle::practice::ALL` up with the person to move and the board playing the other side,
//! whose engine takes the endgame tables' move (the longest resistance) as soon as it is its
//! turn. After every change the board judges it: won under the rules (a win goal), or held
//! for its moves or drawn by the rules (a draw goal), is `solved`; a position the tables no
//! longer give the goal, or a game ended short of it, is `failed`, and stays so.

use super::protocol::{Player, PracticeState};
use super::session::Done;
use super::{Board, BoardError};
use crate::core::Color;
use crate::puzzle::practice::{self, PracticeGoal, ALL};

/// How the practice stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Playing,
    Solved,
    Failed,
}

/// The practice on the board.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shown {
    index: usize,
    person: Color,
    outcome: Outcome,
}

impl Shown {
    pub(super) fn playing(&self) -> bool {
        self.outcome == Outcome::Playing
    }
}

/// The tables' result for `side` from a state's verdict (for Black, under the 40-move rule
/// from a fresh count): 1 a win, 0 a draw, -1 a loss.
fn result_for(black50: &str, side: Color) -> i32 {
    let black = match black50 {
        "win" => 1,
        "loss" => -1,
        _ => 0,
    };
    if side == Color::Black {
        black
    } else {
        -black
    }
}

impl Board {
    /// `practice`: the practice with `id` (the first where none), the person to move.
    pub(super) fn start_practice(&mut self, id: Option<&str>) -> Result<Done, BoardError> {
        let index = match id {
            Some(id) => practice::find(id).ok_or_else(|| {
                BoardError::Practice(format!(
                    "no practice has the id '{id}' (practices: {})",
                    ALL.map(|p| p.id).join(", ")
                ))
            })?,
            None => 0,
        };
        let p = ALL[index];
        let pos = crate::core::notation::parse_fen(p.fen).expect("the practices read");
        if !self.tables.as_ref().is_some_and(|t| t.covers(&pos)) {
            return Err(BoardError::Practice(
                "endgame practice needs the endgame tables of its pieces, and this board has \
                 none (poolshark serve uses egdb/ or --egdb DIR; make egdb builds them)"
                    .into(),
            ));
        }
        let side = pos.side();
        let (white, black) = match side {
            Color::White => (Player::Human, Player::Engine),
            Color::Black => (Player::Engine, Player::Human),
        };
        self.session.new_game(white, black, Some(p.fen), None)?;
        self.clear = true;
        self.analyzing = false;
        self.puzzles.end();
        self.practice = Some(Shown {
            index,
            person: side,
            outcome: Outcome::Playing,
        });
        Ok(Done::Changed { auto: false })
    }

    /// A `move` while a practice is played: the person's move, then at once the tables' reply
    /// (where their group is not read yet, the engine's move follows as a job instead).
    pub(super) fn practice_move(&mut self, text: &str) -> Result<Done, BoardError> {
        let done = self.session.play_text(text)?;
        let defender = self.practice.map(|p| p.person.flip());
        if self.session.end().is_none() && Some(self.session.game().position().side()) == defender {
            if let Some(mv) = self
                .tables
                .as_ref()
                .and_then(|t| t.table_move(self.session.game()))
            {
                self.session.play(mv)?;
            }
        }
        Ok(done)
    }

    /// Judge the practice on the board after a change (a result once reached stays).
    pub(super) fn judge_practice(&mut self) {
        let Some(shown) = self.practice else { return };
        if !shown.playing() {
            return;
        }
        let goal = ALL[shown.index].goal;
        let outcome = if let Some(end) = self.session.end() {
            let person = crate::board::view::color_name(shown.person);
            match (goal, end.winner) {
                (PracticeGoal::Win, Some(c)) if c == person => Outcome::Solved,
                (PracticeGoal::Hold(_), None) => Outcome::Solved,
                (PracticeGoal::Hold(_), Some(c)) if c == person => Outcome::Solved,
                _ => Outcome::Failed,
            }
        } else {
            let verdict = self
                .tables
                .as_ref()
                .and_then(|db| db.verdict(self.session.game().position()));
            let moves = (self.session.ply() as u32).div_ceil(2);
            match (goal, verdict) {
                (PracticeGoal::Win, Some(v)) if result_for(v.black50, shown.person) < 1 => {
                    Outcome::Failed
                }
                (PracticeGoal::Hold(_), Some(v)) if result_for(v.black50, shown.person) < 0 => {
                    Outcome::Failed
                }
                (PracticeGoal::Hold(n), _) if moves >= n => Outcome::Solved,
                _ => Outcome::Playing,
            }
        };
        self.practice = Some(Shown { outcome, ..shown });
    }

    /// The state's `practice`.
    pub(super) fn practice_state(&self) -> Option<PracticeState> {
        let s = self.practice?;
        let p = ALL[s.index];
        let moves = (self.session.ply() as u32).div_ceil(2);
        Some(PracticeState {
            id: p.id,
            name: p.name,
            teaches: p.teaches,
            goal: p.goal.name(),
            result: match s.outcome {
                Outcome::Playing => "playing",
                Outcome::Solved => "solved",
                Outcome::Failed => "failed",
            },
            moves_to_hold: match p.goal {
                PracticeGoal::Hold(n) => Some(n.saturating_sub(moves)),
                PracticeGoal::Win => None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::puzzles::tests::state;
    use super::super::{Board, BoardConfig};
    use super::*;
    use crate::egdb::Egdb;
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};

    /// Tables in memory, for the tests: a store of named byte strings.
    #[derive(Default)]
    struct Memory(Mutex<HashMap<String, Vec<u8>>>);

    impl crate::egdb::Store for Memory {
        fn exists(&self, name: &str) -> Result<bool, String> {
            Ok(self.0.lock().unwrap().contains_key(name))
        }
        fn read(&self, name: &str, _max: u64) -> Result<Vec<u8>, String> {
            self.0
                .lock()
                .unwrap()
                .get(name)
                .cloned()
                .ok_or_else(|| format!("no {name}"))
        }
        fn save(&self, name: &str, bytes: &[u8]) -> Result<(), String> {
            self.0
                .lock()
                .unwrap()
                .insert(name.to_string(), bytes.to_vec());
            Ok(())
        }
        fn place(&self, name: &str) -> String {
            format!("memory:{name}")
        }
    }

    struct Quiet;
    impl crate::egdb::build::Progress for Quiet {
        fn start(&self, _: u64) {}
        fn status(&self, _: String) {}
        fn advance(&self, _: u64) {}
        fn finish(&self, _: String) {}
    }

    /// The tables of 4 pieces, built once for these tests.
    fn egdb() -> Arc<Egdb> {
        static DB: std::sync::OnceLock<Arc<Egdb>> = std::sync::OnceLock::new();
        DB.get_or_init(|| {
            let store = Memory::default();
            crate::egdb::build::build(&store, 4, &Quiet).expect("tables of 4 pieces");
            Arc::new(Egdb::open(&store))
        })
        .clone()
    }

    /// Every practice's goal is its verdict in the tables.
    #[test]
    fn each_practice_is_what_the_tables_say() {
        let db = egdb();
        for p in ALL {
            let pos = crate::core::notation::parse_fen(p.fen).unwrap();
            let probe = db.probe(&pos).expect("the tables cover it");
            let want = match p.goal {
                PracticeGoal::Win => crate::egdb::Wdl50::Win,
                PracticeGoal::Hold(_) => crate::egdb::Wdl50::Draw,
            };
            assert_eq!(probe.wdl50, want, "{}", p.id);
        }
    }

    #[test]
    fn the_tables_moves_solve_every_practice_and_the_reply_comes_at_once() {
        let db = egdb();
        for p in ALL {
            let mut b = Board::new(BoardConfig {
                tables: Some(db.clone()),
                ..BoardConfig::plain()
            });
            let mut st = state(&b.request(&format!(r#"{{"type":"practice","id":"{}"}}"#, p.id)));
            for _ in 0..60 {
                if st["practice"]["result"] != "playing" {
                    break;
                }
                let g = b.session.game().clone();
                let mv = crate::search::egdb::table_move(
                    &db,
                    g.position(),
                    g.counts(),
                    &g.repetition_keys(),
                )
                .expect("the tables' move");
                let ply = b.session.ply();
                st = state(&b.request(&format!(r#"{{"type":"move","move":"{}"}}"#, mv.hub())));
                let replied = b.session.ply() == ply + 2 || b.session.end().is_some();
                assert!(replied, "{}: no reply in the same state", p.id);
            }
            assert_eq!(st["practice"]["result"], "solved", "{}", p.id);
        }
    }

    #[test]
    fn a_practice_needs_tables_and_fails_when_the_win_is_thrown_away() {
        let mut plain = Board::new(BoardConfig::plain());
        let outs = plain.request(r#"{"type":"practice"}"#);
        assert!(format!("{outs:?}").contains("needs the endgame tables"));
        let mut b = Board::new(BoardConfig {
            tables: Some(egdb()),
            ..BoardConfig::plain()
        });
        let st = state(&b.request(r#"{"type":"practice","id":"two-kings-corner"}"#));
        assert_eq!(st["practice"]["result"], "playing");
        assert_eq!(st["practice"]["goal"], "win");
        assert_eq!(st["black"], "engine");
        // A move that lets the lone king out of the corner throws the win away.
        let db = egdb();
        let pos = *b.session.game().position();
        let drawing = crate::core::movegen::legal_moves(&pos)
            .iter()
            .find(|m| {
                db.probe(&pos.play(m))
                    .is_some_and(|p| p.wdl50 != crate::egdb::Wdl50::Loss)
            })
            .copied()
            .expect("a move that draws");
        let st = state(&b.request(&format!(r#"{{"type":"move","move":"{}"}}"#, drawing.hub())));
        assert_eq!(st["practice"]["result"], "failed");
        assert!(
            format!("{:?}", b.request(r#"{"type":"practice","id":"nope"}"#))
                .contains("no practice has the id 'nope'")
        );
    }
}
