//! The tags of a match game in PDN (`core::pdn`): the ones every match game carries
//! (`match_tags`), its place in its pair (`Pair`) and a forfeit (`Forfeit`), written by the
//! match runner and read back by `merge`.

use poolshark_engine::core::notation::write_fen;
use poolshark_engine::core::pdn::PdnGame;
use poolshark_engine::core::{Color, Position};

/// The tags poolshark writes for a match game, in order.
#[allow(clippy::too_many_arguments)]
pub fn match_tags(
    event: &str,
    date: &str,
    round: usize,
    white: &str,
    black: &str,
    result: &str,
    start: &Position,
    termination: &str,
) -> Vec<(String, String)> {
    vec![
        ("Event".into(), event.into()),
        ("Site".into(), "?".into()),
        ("Date".into(), date.into()),
        ("Round".into(), round.to_string()),
        ("White".into(), white.into()),
        ("Black".into(), black.into()),
        ("Result".into(), result.into()),
        ("GameType".into(), "23".into()),
        ("SetUp".into(), "1".into()),
        ("FEN".into(), write_fen(start)),
        ("Termination".into(), termination.into()),
    ]
}

/// The tag that places match game `i` (0-based over the whole match) in its pair:
/// `[Pair "P.G"]`, P the pair's number from 1 (pair index `i / 2`, plus 1) and G the game in
/// the pair, 1 or 2. In game 1 the match's first engine plays Black, in game 2 White. The
/// `Round` tag is the game's number in the whole match (`i + 1`), sharded or not.
pub fn pair_tag(i: usize) -> (String, String) {
    ("Pair".into(), format!("{}.{}", i / 2 + 1, i % 2 + 1))
}

/// The tag a forfeited game carries (illegal move, crash, silence, time): the colour that
/// forfeited, `[Forfeit "White"]` or `[Forfeit "Black"]`.
pub fn forfeit_tag(loser: Color) -> (String, String) {
    ("Forfeit".into(), loser.name().into())
}

/// The highest pair number a `Pair` tag may give (and a `Round` tag twice that): far
/// beyond any match, and low enough that the games a match numbers after it (`pdn_out`)
/// cannot overflow.
pub const MAX_PAIR: usize = 1_000_000_000;

/// A `Pair` or `Round` tag that is there but does not place its game in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// A `Pair` tag not `P.G`, P from 1 to `MAX_PAIR` and G 1 or 2.
    Pair(String),
    /// A `Round` tag whose number is above twice `MAX_PAIR`.
    Round(String),
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            PlaceError::Pair(v) => write!(
                f,
                "bad Pair tag \"{v}\" (want P.G, P from 1 to {MAX_PAIR}, G 1 or 2)"
            ),
            PlaceError::Round(v) => write!(
                f,
                "bad Round tag \"{v}\" (a game number above {})",
                2 * MAX_PAIR
            ),
        }
    }
}

/// A game's place in its match as (pair index from 0, game in the pair 0 or 1), from its
/// tags: the `Pair` tag, or, in files written before it, the `Round` tag (game `i + 1`).
/// `None` when neither is there, or the `Round` is not a number from 1 (a `Round` is any
/// PDN game's, `?` or `3.1`: such a game is not a match game); an error for a `Pair` that
/// does not read, or a number past `MAX_PAIR`.
pub fn place(tags: &[(String, String)]) -> Result<Option<(usize, usize)>, PlaceError> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if let Some(p) = tag("Pair") {
        let bad = || PlaceError::Pair(p.to_string());
        let (pair, game) = p.split_once('.').ok_or_else(bad)?;
        let (pair, game): (usize, usize) = match (pair.parse(), game.parse()) {
            (Ok(pair), Ok(game)) => (pair, game),
            _ => return Err(bad()),
        };
        if !(1..=MAX_PAIR).contains(&pair) || !(1..=2).contains(&game) {
            return Err(bad());
        }
        return Ok(Some((pair - 1, game - 1)));
    }
    let Some(r) = tag("Round") else {
        return Ok(None);
    };
    match r.parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(round) if round <= 2 * MAX_PAIR => Ok(Some(((round - 1) / 2, (round - 1) % 2))),
        // A number too large to be a game's, whether or not it fits a `usize`.
        _ if !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()) => {
            Err(PlaceError::Round(r.to_string()))
        }
        Ok(_) => Err(PlaceError::Round(r.to_string())),
        Err(_) => Ok(None),
    }
}

/// What a match game's tags say, read from a `PdnGame`.
pub trait MatchGame {
    /// The game's place in its match (see `place`).
    fn pair(&self) -> Result<Option<(usize, usize)>, PlaceError>;
    /// The colour that forfeited the game, from its `Forfeit` tag.
    fn forfeit(&self) -> Option<Color>;
}

impl MatchGame for PdnGame {
    fn pair(&self) -> Result<Option<(usize, usize)>, PlaceError> {
        place(&self.tags)
    }

    /// The colour that forfeited the game, from its `Forfeit` tag.
    fn forfeit(&self) -> Option<Color> {
        match self.tag("Forfeit")? {
            "White" => Some(Color::White),
            "Black" => Some(Color::Black),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolshark_engine::core::pdn::read;

    #[test]
    fn pair_tags_read_back() {
        let mut g = read("[Round \"5\"]\n1. 11-15 *").unwrap().remove(0);
        assert_eq!(g.pair(), Ok(Some((2, 0))));
        g.tags.push(pair_tag(9));
        assert_eq!(g.tags.last().unwrap().1, "5.2");
        assert_eq!(g.pair(), Ok(Some((4, 1))));
        g.tags.pop();
        g.tags.push(pair_tag(2 * MAX_PAIR - 1));
        assert_eq!(g.pair(), Ok(Some((MAX_PAIR - 1, 1))));
        g.tags.pop();
        g.tags.push(pair_tag(2 * MAX_PAIR));
        assert_eq!(g.pair(), Err(PlaceError::Pair("1000000001.1".into())));
        g.tags.pop();
        g.tags.push(forfeit_tag(Color::Black));
        assert_eq!(g.forfeit(), Some(Color::Black));
    }

    /// Issue 58, items 5 and 9: a `Pair` tag that is there but does not read is an error
    /// that says so (it was taken for no tag at all), and so is a pair number that would
    /// overflow the numbers of the games after it (it wrapped the round to 0).
    #[test]
    fn a_bad_pair_or_round_is_named() {
        let place_of = |name: &str, value: &str| place(&[(name.into(), value.into())]);
        for bad in [
            "0.1",
            "3.3",
            "3.0",
            "x",
            "3",
            "1.",
            ".1",
            "-1.1",
            "18446744073709551615.1",
            "99999999999999999999999.2",
        ] {
            assert_eq!(
                place_of("Pair", bad),
                Err(PlaceError::Pair(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            place_of("Pair", "0.1").unwrap_err().to_string(),
            "bad Pair tag \"0.1\" (want P.G, P from 1 to 1000000000, G 1 or 2)"
        );
        for bad in [
            "18446744073709551615",
            "99999999999999999999999",
            "2000000001",
        ] {
            assert_eq!(
                place_of("Round", bad),
                Err(PlaceError::Round(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(place_of("Round", "2000000000"), Ok(Some((MAX_PAIR - 1, 1))));
        // A Round that is no game number is any PDN game's: not a match game's.
        for other in ["?", "0", "3.1", ""] {
            assert_eq!(place_of("Round", other), Ok(None), "{other}");
        }
        assert_eq!(place(&[]), Ok(None));
    }
}
