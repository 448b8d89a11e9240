//! `Score`: a search value from the side to move, in hundredths of a man, with proved wins
//! and losses at the top and bottom of the range, and its Hub text (docs/PROTOCOL.md).

use crate::search::params::WIN_DISTANCE_PLIES;
use std::fmt;
use std::ops::{Add, Neg, Sub};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Score(pub i32);

// A static evaluation never reads as a database win.
const _: () = assert!(crate::eval::EVAL_LIMIT < Score::DB_WIN.0 - 99);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    /// A win at the root itself; a win in `n` plies is `WIN - n`.
    pub const WIN: Score = Score(30_000);
    pub const INFINITE: Score = Score(32_000);
    /// Scores at or beyond this are proved wins: a win counts down over
    /// `WIN_DISTANCE_PLIES` plies at most.
    pub const WIN_BOUND: Score = Score(Self::WIN.0 - WIN_DISTANCE_PLIES as i32);

    /// The top of the range the endgame tables report their wins in: a database win with
    /// `n` plies to go (root distance plus dtc) is `DB_WIN - n`, `89.xx` in Hub text, far above
    /// any evaluation and below the proved wins of the search (`99.xx`).
    pub const DB_WIN: Score = Score(9_000);

    /// A database win `plies` plies away (clamped to 1..=99, so it stays `89.xx`).
    #[inline]
    pub const fn db_win(plies: i32) -> Score {
        let p = if plies < 1 {
            1
        } else if plies > 99 {
            99
        } else {
            plies
        };
        Score(Self::DB_WIN.0 - p)
    }
    /// A database loss, the negation of `db_win`.
    #[inline]
    pub const fn db_loss(plies: i32) -> Score {
        Score(-Self::db_win(plies).0)
    }

    /// A win `ply` plies from the root.
    #[inline]
    pub const fn win_in(ply: i32) -> Score {
        Score(Self::WIN.0 - ply)
    }
    /// A loss `ply` plies from the root.
    #[inline]
    pub const fn loss_in(ply: i32) -> Score {
        Score(-Self::WIN.0 + ply)
    }
    #[inline]
    pub const fn is_win(self) -> bool {
        self.0 >= Self::WIN_BOUND.0
    }
    #[inline]
    pub const fn is_loss(self) -> bool {
        self.0 <= -Self::WIN_BOUND.0
    }
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.is_win() || self.is_loss()
    }
    /// Plies to the end of a proved win or loss.
    pub const fn plies_to_end(self) -> i32 {
        if self.0 >= 0 {
            Self::WIN.0 - self.0
        } else {
            Self::WIN.0 + self.0
        }
    }

    /// Is this a database win (`db_win`)?
    #[inline]
    pub const fn is_db_win(self) -> bool {
        self.0 >= Self::DB_WIN.0 - 99 && self.0 < Self::DB_WIN.0
    }
    /// Is this a database loss (`db_loss`)?
    #[inline]
    pub const fn is_db_loss(self) -> bool {
        Score(-self.0).is_db_win()
    }

    /// A score as stored in the transposition table: wins and losses, the search's and the
    /// endgame tables', counted from the node rather than the root, so they stay right when
    /// the node is met at another ply (database distances within their 1..=99 band).
    #[inline]
    pub const fn to_tt(self, ply: i32) -> Score {
        if self.is_win() {
            Score(self.0 + ply)
        } else if self.is_loss() {
            Score(self.0 - ply)
        } else if self.is_db_win() {
            Score::db_win(Self::DB_WIN.0 - self.0 - ply)
        } else if self.is_db_loss() {
            Score::db_loss(Self::DB_WIN.0 + self.0 - ply)
        } else {
            self
        }
    }
    /// The inverse of `to_tt`, at the ply where the entry is read.
    #[inline]
    pub const fn from_tt(self, ply: i32) -> Score {
        if self.is_win() {
            Score(self.0 - ply)
        } else if self.is_loss() {
            Score(self.0 + ply)
        } else if self.is_db_win() {
            Score::db_win(Self::DB_WIN.0 - self.0 + ply)
        } else if self.is_db_loss() {
            Score::db_loss(Self::DB_WIN.0 + self.0 + ply)
        } else {
            self
        }
    }

    /// The Hub text: men with two decimals; a proved win in `n` plies is `100 - n/100`
    /// (`99.87` wins in 13 plies), a loss the same negated.
    pub fn hub(self) -> String {
        if self.is_decisive() {
            let plies = self.plies_to_end().clamp(1, 99);
            let sign = if self.is_win() { "" } else { "-" };
            format!("{sign}99.{:02}", 100 - plies)
        } else {
            let v = self.0.clamp(-9_899, 9_899);
            let sign = if v < 0 { "-" } else { "" };
            format!("{sign}{}.{:02}", v.abs() / 100, v.abs() % 100)
        }
    }
}

impl Score {
    /// A score from its Hub text (`hub`'s inverse where it is exact): `-0.35`, `99.87` (a
    /// win in 13 plies), `89.87` (a database win). None for other text.
    pub fn from_hub(text: &str) -> Option<Score> {
        let (neg, abs) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, frac) = abs.split_once('.')?;
        if frac.len() != 2
            || whole.is_empty()
            || !(whole.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let hundredths: i32 =
            whole.parse::<i32>().ok()?.checked_mul(100)? + frac.parse::<i32>().ok()?;
        let s = if whole == "99" && hundredths > 9_899 {
            Score::win_in(100 - (hundredths - 9_900))
        } else {
            Score(hundredths)
        };
        Some(if neg { -s } else { s })
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hub())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_text() {
        assert_eq!(Score(0).hub(), "0.00");
        assert_eq!(Score(12).hub(), "0.12");
        assert_eq!(Score(-305).hub(), "-3.05");
        assert_eq!(Score(-5).hub(), "-0.05");
        assert_eq!(Score::win_in(13).hub(), "99.87");
        assert_eq!(Score::loss_in(4).hub(), "-99.96");
        assert_eq!(Score::win_in(1).hub(), "99.99");
        assert_eq!(Score::db_win(13).hub(), "89.87");
        assert_eq!(Score::db_win(500).hub(), "89.01");
        assert_eq!(Score::db_loss(2).hub(), "-89.98");
        assert!(!Score::db_win(1).is_decisive());
        // Stored at ply 4 and read at ply 1: three plies nearer.
        let (win, loss) = (Score::db_win(10), Score::db_loss(10));
        assert_eq!(win.to_tt(4), Score::db_win(6));
        assert_eq!(win.to_tt(4).from_tt(1), Score::db_win(7));
        assert_eq!(loss.to_tt(4).from_tt(1), Score::db_loss(7));
        assert_eq!(win.to_tt(4).from_tt(4), win);
        assert!(Score::db_win(99).is_db_win() && !Score(Score::DB_WIN.0 - 100).is_db_win());
        assert!(Score::db_loss(1).is_db_loss() && !Score::db_loss(1).is_db_win());
    }

    #[test]
    fn hub_text_reads_back() {
        for s in [
            Score(0),
            Score(12),
            Score(-305),
            Score(-5),
            Score::win_in(13),
            Score::loss_in(4),
            Score::db_win(13),
            Score::db_loss(2),
        ] {
            assert_eq!(Score::from_hub(&s.hub()), Some(s), "{s:?}");
        }
        for bad in ["", "1", "0.5", "x.00", "--1.00", "1.000"] {
            assert_eq!(Score::from_hub(bad), None, "{bad}");
        }
    }

    #[test]
    fn tt_round_trip_keeps_distance_to_the_end() {
        let s = Score::win_in(9);
        assert_eq!(s.to_tt(4).from_tt(4), s);
        // Stored at ply 4 (5 plies from that node), read at ply 2: a win in 7.
        assert_eq!(s.to_tt(4).from_tt(2), Score::win_in(7));
        let l = Score::loss_in(6);
        assert_eq!(l.to_tt(3).from_tt(1), Score::loss_in(4));
        assert_eq!(Score(50).to_tt(7), Score(50));
    }
}
