//! A match's summary rebuilt from its PDN games, so that shards played apart (other
//! processes, other machines) are counted as one match: `poolshark stats`.
//!
//! Each game says who played which colour (`White`, `Black`), the result, its place in the
//! match (`Pair`, or `Round` in older files: see `tags::pair_tag`), any forfeit (`Forfeit`)
//! and each move's time (`{time ...}` comments). From these come the same counts `run_match`
//! keeps, so `summary_lines` prints the same lines, with two differences that depend on wall
//! time: the `match:` line's seconds are the sum of the recorded move times (the engines'
//! thinking time, not the match's wall time), and the `time per move` line comes from the
//! times as written (to the millisecond), so its mean can differ in the last digit.
//!
//! A pair counts in the pentanomial counts only when both its games are present; a game
//! whose partner is missing (its shard still running, or the last game of an odd-length
//! match) counts in the score only, and `note_lines` says how many there are. The same game
//! twice (a shard's file given twice) is an error, not a double count. A file that a match is
//! still writing can end in part of a game: the reader (`poolshark stats`) leaves it out and
//! `cut_off` counts it for a note.

use super::stats::Sprt;
use super::tags::MatchGame;
use super::{summary_lines, MatchSummary};
use poolshark_engine::core::pdn::PdnGame;
use poolshark_engine::core::Color;
use std::collections::HashMap;

/// The summary of a set of match games, and what did not fit in it.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    pub summary: MatchSummary,
    /// Games counted in the score whose pair's other game is not among the games.
    pub unpaired: usize,
    /// Games without a result (`*`), left out.
    pub unfinished: usize,
    /// Games cut off at the end of their file (a match still writing it), left out.
    pub cut: usize,
}

impl Merged {
    /// The lines `match` prints at its end (see the module notes), then `note_lines`.
    pub fn lines(&self, sprt: Option<&Sprt>) -> Vec<String> {
        let mut lines = summary_lines(&self.summary, sprt);
        lines.extend(self.note_lines());
        lines
    }

    /// Lines `match` itself never prints: games left out of the pairs or the score.
    pub fn note_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.unpaired > 0 {
            lines.push(format!(
                "note: {} game{} without the other game of {} pair (a shard still running, or \
                 an odd number of games): in the score, not in the pairs",
                self.unpaired,
                if self.unpaired == 1 { "" } else { "s" },
                if self.unpaired == 1 { "its" } else { "their" },
            ));
        }
        if self.unfinished > 0 {
            lines.push(format!(
                "note: {} game{} without a result (*) left out",
                self.unfinished,
                if self.unfinished == 1 { "" } else { "s" }
            ));
        }
        if self.cut > 0 {
            lines.push(format!(
                "note: {} game{} cut off at the end of {} file (still being written?) left out",
                self.cut,
                if self.cut == 1 { "" } else { "s" },
                if self.cut == 1 { "its" } else { "their" },
            ));
        }
        lines
    }
}

/// Summarise `games` (from any number of files, in any order) for `engine`, as `Merger`
/// does. Errors name a game by `label(k)`, k its index in `games` (the caller knows which
/// file it came from).
pub fn summarise(
    games: &[PdnGame],
    engine: Option<&str>,
    label: &dyn Fn(usize) -> String,
) -> Result<Merged, String> {
    let mut m = Merger::new(engine);
    for (k, g) in games.iter().enumerate() {
        m.add(g, &label(k))?;
    }
    m.finish()
}

/// Counts games one at a time (a million games need the memory of their pairs' scores, not
/// of the games), for `engine`, a name from the `White`/`Black` tags, or by default the
/// match's first engine: the one playing Black in the first game of a pair, as the first
/// game added shows it.
pub struct Merger {
    engine: Option<String>,
    merged: Merged,
    /// The two names, the reported engine's first, once the first game has set them.
    names: Option<[String; 2]>,
    /// The first engine's points in each game of each pair, by pair index.
    pairs: HashMap<usize, [Option<f64>; 2]>,
}

impl Merger {
    pub fn new(engine: Option<&str>) -> Merger {
        Merger {
            engine: engine.map(str::to_string),
            merged: Merged::default(),
            names: None,
            pairs: HashMap::new(),
        }
    }

    /// Count game `g`; `label` names it in errors (`FILE: game N`).
    pub fn add(&mut self, g: &PdnGame, label: &str) -> Result<(), String> {
        let players = |g: &PdnGame| -> Result<(String, String), String> {
            match (g.tag("White"), g.tag("Black")) {
                (Some(w), Some(b)) if w != b => Ok((w.to_string(), b.to_string())),
                (Some(_), Some(_)) => Err(format!("{label}: White and Black are the same name")),
                _ => Err(format!("{label}: no White or Black tag")),
            }
        };
        let (white, black) = players(g)?;
        let (pair, half) = match g.pair() {
            Ok(Some(place)) => place,
            Ok(None) => return Err(format!("{label}: no Pair or Round tag (not a match game?)")),
            Err(e) => return Err(format!("{label}: {e}")),
        };
        let names = match &self.names {
            Some(n) => n.clone(),
            None => {
                // Engine 1 plays Black in game 1 of each pair (as `run_match` schedules it).
                let (one, two) = if half == 0 {
                    (black.clone(), white.clone())
                } else {
                    (white.clone(), black.clone())
                };
                let names = match self.engine.as_deref() {
                    None => [one, two],
                    Some(e) if e == one => [one, two],
                    Some(e) if e == two => [two, one],
                    Some(e) => {
                        return Err(format!(
                            "no engine '{e}' in the games (only '{one}' and '{two}')"
                        ))
                    }
                };
                self.merged.summary.names = names.clone();
                self.names = Some(names.clone());
                names
            }
        };
        let first_colour = if white == names[0] && black == names[1] {
            Color::White
        } else if black == names[0] && white == names[1] {
            Color::Black
        } else {
            return Err(format!(
                "{label}: '{white}' vs '{black}' is not a game of '{}' vs '{}'",
                names[0], names[1]
            ));
        };
        let winner = match g.result.as_str() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            "*" => {
                self.merged.unfinished += 1;
                return Ok(());
            }
            r => return Err(format!("{label}: result '{r}' is not a match result")),
        };
        let slot = &mut self.pairs.entry(pair).or_default()[half];
        if slot.is_some() {
            return Err(format!(
                "{label}: pair {} game {} appears twice (a file given twice?)",
                pair + 1,
                half + 1
            ));
        }
        *slot = Some(super::first_engine_points(winner, first_colour));
        let s = &mut self.merged.summary;
        match winner {
            None => s.wdl.draws += 1,
            Some(c) if c == first_colour => s.wdl.wins += 1,
            Some(_) => s.wdl.losses += 1,
        }
        if let Some(loser) = g.forfeit() {
            s.forfeits[usize::from(loser != first_colour)] += 1;
        }
        let mut mover = g.start.side();
        for t in &g.times {
            s.move_times[usize::from(mover != first_colour)].add(*t);
            s.elapsed += *t;
            mover = mover.flip();
        }
        Ok(())
    }

    /// A game cut off at the end of its file (unreadable, with no result yet): left out, and
    /// counted in a note.
    pub fn cut_off(&mut self) {
        self.merged.cut += 1;
    }

    /// The summary of the games added (none is an error).
    pub fn finish(mut self) -> Result<Merged, String> {
        if self.names.is_none() {
            return Err("no games in the files".into());
        }
        for p in self.pairs.values() {
            match p {
                [Some(a), Some(b)] => self.merged.summary.pairs.add(*a, *b),
                _ => self.merged.unpaired += 1,
            }
        }
        Ok(self.merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tags::{forfeit_tag, match_tags, pair_tag};
    use poolshark_engine::core::pdn::read;
    use poolshark_engine::core::Position;
    use std::time::Duration;

    fn num(k: usize) -> String {
        format!("game {}", k + 1)
    }

    /// Game `i` of a match of "a" vs "b" that "a" wins when `a_wins`, else drawn.
    fn game(i: usize, outcome: &str) -> PdnGame {
        // Engine 1 ("a") plays Black in the first game of each pair.
        let (white, black) = if i.is_multiple_of(2) {
            ("b", "a")
        } else {
            ("a", "b")
        };
        let winner_white = match outcome {
            "a" => white == "a",
            "b" => white == "b",
            _ => false,
        };
        let result = match outcome {
            "draw" => "1/2-1/2",
            _ if winner_white => "1-0",
            _ => "0-1",
        };
        let start = Position::start();
        let mut tags = match_tags("t", "2026.12.01", i + 1, white, black, result, &start, "x");
        tags.push(pair_tag(i));
        PdnGame {
            tags,
            start,
            moves: Vec::new(),
            times: Vec::new(),
            result: result.into(),
        }
    }

    #[test]
    fn counts_by_pair_for_either_engine() {
        let games = vec![
            game(0, "a"),
            game(1, "a"),
            game(2, "draw"),
            game(3, "b"),
            game(4, "a"),
        ];
        let m = summarise(&games, None, &num).unwrap();
        let s = &m.summary;
        assert_eq!(s.names, ["a".to_string(), "b".to_string()]);
        assert_eq!((s.wdl.wins, s.wdl.draws, s.wdl.losses), (3, 1, 1));
        assert_eq!(s.pairs.counts, [0, 1, 0, 0, 1]);
        assert_eq!(m.unpaired, 1);
        assert!(m.note_lines()[0].starts_with("note: 1 game without"));
        assert_eq!(s.elapsed, Duration::ZERO);
        let m = summarise(&games, Some("b"), &num).unwrap();
        assert_eq!(
            (m.summary.wdl.wins, m.summary.wdl.losses),
            (1, 3),
            "{:?}",
            m.summary
        );
        assert_eq!(m.summary.pairs.counts, [1, 0, 0, 1, 0]);
        assert!(summarise(&games, Some("c"), &num).is_err());
        // Order does not matter; the first game read may be a pair's second.
        let mut rev = games.clone();
        rev.reverse();
        let r = summarise(&rev, None, &num).unwrap();
        assert_eq!(r.summary.names, ["a".to_string(), "b".to_string()]);
        assert_eq!(
            r.summary.pairs,
            summarise(&games, None, &num).unwrap().summary.pairs
        );
    }

    #[test]
    fn duplicates_strangers_and_forfeits() {
        let games = vec![game(0, "a"), game(1, "draw"), game(1, "draw")];
        assert!(summarise(&games, None, &num)
            .unwrap_err()
            .contains("appears twice"));
        let mut other = game(2, "a");
        other.tags[4].1 = "c".into();
        assert!(summarise(&[game(0, "a"), other], None, &num).is_err());
        let mut f = game(1, "b");
        // "a" plays White in game 2 and forfeits.
        f.tags.push(forfeit_tag(Color::White));
        let m = summarise(&[game(0, "a"), f], None, &num).unwrap();
        assert_eq!(m.summary.forfeits, [1, 0]);
        assert!(summarise(&[], None, &num).is_err());
        let text = "[White \"a\"]\n[Black \"b\"]\n[Round \"1\"]\n1. 11-15 *\n";
        let m = summarise(&read(text).unwrap(), None, &num).unwrap();
        assert_eq!((m.unfinished, m.summary.wdl.games()), (1, 0));
    }

    /// Issue 58, item 5: `[Pair "0.1"]` was reported as no Pair or Round tag at all.
    #[test]
    fn a_bad_pair_tag_is_named() {
        let mut bad = game(2, "a");
        bad.tags.retain(|(k, _)| k != "Pair");
        bad.tags.push(("Pair".into(), "0.1".into()));
        let e = summarise(&[game(0, "a"), game(1, "a"), bad], None, &num).unwrap_err();
        assert_eq!(
            e,
            "game 3: bad Pair tag \"0.1\" (want P.G, P from 1 to 1000000000, G 1 or 2)"
        );
        let mut none = game(0, "a");
        none.tags.retain(|(k, _)| k != "Pair" && k != "Round");
        let e = summarise(&[none], None, &num).unwrap_err();
        assert_eq!(e, "game 1: no Pair or Round tag (not a match game?)");
    }
}
