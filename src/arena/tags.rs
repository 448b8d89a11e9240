//! The tags of a match game in PDN (`core::pdn`): the ones every match game carries
//! (`match_tags`), its place in its pair (`Pair`) and a forfeit (`Forfeit`), written by the
//! match runner and read back by `merge`.

use crate::core::notation::write_fen;
use crate::core::pdn::PdnGame;
use crate::core::{Color, Position};

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

/// What a match game's tags say, read from a `PdnGame`.
pub trait MatchGame {
    /// The game's place in its match as (pair index from 0, game in the pair 0 or 1): from
    /// the `Pair` tag, or, in files written before it, from the `Round` tag (game `i + 1`).
    fn pair(&self) -> Option<(usize, usize)>;
    /// The colour that forfeited the game, from its `Forfeit` tag.
    fn forfeit(&self) -> Option<Color>;
}

impl MatchGame for PdnGame {
    /// The game's place in its match as (pair index from 0, game in the pair 0 or 1): from
    /// the `Pair` tag, or, in files written before it, from the `Round` tag (game `i + 1`).
    fn pair(&self) -> Option<(usize, usize)> {
        if let Some(p) = self.tag("Pair") {
            let (pair, game) = p.split_once('.')?;
            let (pair, game): (usize, usize) = (pair.parse().ok()?, game.parse().ok()?);
            return (pair >= 1 && (1..=2).contains(&game)).then(|| (pair - 1, game - 1));
        }
        let round: usize = self.tag("Round")?.parse().ok()?;
        (round >= 1).then(|| ((round - 1) / 2, (round - 1) % 2))
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
    use crate::core::pdn::read;

    #[test]
    fn pair_tags_read_back() {
        let mut g = read("[Round \"5\"]\n1. 11-15 *").unwrap().remove(0);
        assert_eq!(g.pair(), Some((2, 0)));
        g.tags.push(pair_tag(9));
        assert_eq!(g.tags.last().unwrap().1, "5.2");
        assert_eq!(g.pair(), Some((4, 1)));
        g.tags.pop();
        for bad in ["0.1", "3.3", "x", "3"] {
            g.tags.push(("Pair".into(), bad.into()));
            assert_eq!(g.pair(), None, "{bad}");
            g.tags.pop();
        }
        g.tags.push(forfeit_tag(Color::Black));
        assert_eq!(g.forfeit(), Some(Color::Black));
    }
}
