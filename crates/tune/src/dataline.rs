//! The tuning data line, `FEN ; White's score ; search score ; game`: its one writer
//! (`write`) and its one parser (`parse`, `numbered`), which self-play, `label`, `learn`
//! and `tune` all call.
//!
//! The score is White's in the game: `1`, `0.5` or `0` (anything from 0 to 1 is read, for
//! synthetic data). The search score is that of the search made at the position, from
//! White's side in hundredths of a man, or `-` where none was made. The game is the id of
//! the game the position came from (`selfplay` writes `SEED-INDEX`), so that positions can
//! be held out by game rather than one by one: the positions of one game are alike, and a
//! fit that has seen a game's neighbours flatters itself on the rest. The last two fields
//! may be left out (`FEN ; score`, `FEN ; score ; search`: older files). A blank line or
//! one starting with `#` (a comment, such as the settings header `label` writes) is not a
//! data line and is skipped by every reader.

use poolshark_engine::core::notation::{parse_fen, write_fen};
use poolshark_engine::core::Position;

/// One data line, parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataLine {
    pub pos: Position,
    /// White's score in the game, from 0 to 1.
    pub white_score: f64,
    /// The search score there, from White's side in hundredths of a man, if one was made.
    pub search: Option<i32>,
    /// A hash of the game's id, if the line names its game (`game_hash`).
    pub game: Option<u64>,
}

/// The data line of `pos` (with its final newline); `game` is the game's id (no spaces or
/// `;`), if known.
pub fn write(pos: &Position, white_score: f64, search: Option<i32>, game: Option<&str>) -> String {
    let search = search.map_or("-".to_string(), |s| s.to_string());
    match game {
        Some(g) => format!(
            "{} ; {} ; {} ; {}\n",
            write_fen(pos),
            white_score,
            search,
            g
        ),
        None => format!("{} ; {} ; {}\n", write_fen(pos), white_score, search),
    }
}

/// The game field of a data line, as written (trimmed), if it has one.
pub fn game_field(line: &str) -> Option<&str> {
    line.split(';').nth(3).map(str::trim)
}

/// A 64-bit hash of a game id, the same on every machine and run (FNV-1a).
pub fn game_hash(id: &str) -> u64 {
    poolshark_engine::checksum::fnv1a(id.as_bytes())
}

/// Whether a line of game `game` (a `game_hash`; else the line's index `i` among the data
/// lines) is one of the one in `every` held out of a fit.
pub fn held_out(game: Option<u64>, i: usize, every: usize) -> bool {
    match game {
        // FNV-1a of ids that differ in a digit or two is far from uniform, even in its high
        // bits (games 2039-0 to 2039-99 held out none of 100, 2039-0 to 2039-999 180 of
        // 1,000): a SplitMix64 finish spreads them.
        Some(h) => (poolshark_engine::core::rng::mix64(h) % every as u64) as usize == every - 1,
        None => i % every == every - 1,
    }
}

/// Whether `line` is no data line: blank, or a `#` comment.
pub fn is_comment(line: &str) -> bool {
    let l = line.trim();
    l.is_empty() || l.starts_with('#')
}

/// The FEN field of a data line, as written (trimmed), without parsing it.
pub fn fen_field(line: &str) -> &str {
    line.split(';').next().unwrap_or_default().trim()
}

/// Parse one data line (not a comment). The error says what is wrong, without the line
/// number (see `numbered`).
pub fn parse(line: &str) -> Result<DataLine, String> {
    let mut fields = line.split(';');
    let (Some(fen), Some(score), search, game, None) = (
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
        fields.next(),
    ) else {
        return Err("expected 'FEN ; score [; search [; game]]'".into());
    };
    let pos = parse_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    let white_score = score
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1.0).contains(s))
        .ok_or_else(|| format!("'{}' is not a score from 0 to 1", score.trim()))?;
    let search = match search.map(str::trim) {
        None | Some("-") => None,
        Some(t) => Some(
            t.parse::<i32>()
                .map_err(|_| format!("'{t}' is not a search score"))?,
        ),
    };
    let game = match game.map(str::trim) {
        None => None,
        Some("") => return Err("the game id is empty".into()),
        Some(g) if g.contains(char::is_whitespace) => {
            return Err(format!("'{g}' is not a game id (it has spaces)"))
        }
        Some(g) => Some(game_hash(g)),
    };
    Ok(DataLine {
        pos,
        white_score,
        search,
        game,
    })
}

/// The data lines of `text` with their line numbers (from 1), comments and blank lines
/// left out.
pub fn numbered(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !is_comment(l))
        .map(|(i, l)| (i + 1, l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_line_parses_back() {
        let pos = parse_fen("W:W21-32:BK1,5-12").unwrap();
        for (score, search, game) in [
            (1.0, Some(-40), Some("7-12")),
            (0.5, None, None),
            (0.0, Some(3000), Some("x")),
        ] {
            let line = write(&pos, score, search, game);
            assert!(line.ends_with('\n'));
            let d = parse(line.trim_end()).unwrap();
            assert_eq!(
                (d.pos, d.white_score, d.search, d.game),
                (pos, score, search, game.map(game_hash))
            );
        }
        let old = parse("B:W21-32:B1-12 ; 0.5").unwrap();
        assert_eq!((old.search, old.game), (None, None));
        assert_ne!(game_hash("1-2"), game_hash("1-3"));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, why) in [
            ("nonsense", "expected"),
            ("B:W21-32:B1-12 ; 1 ; 5 ; 6 ; 7", "expected"),
            ("B:W21-32:B1-12 ; 1 ; 5 ;  ", "the game id is empty"),
            ("B:W21-32:B1-12 ; 1 ; 5 ; a b", "'a b' is not a game id"),
            ("B:W33:B1 ; 1", "bad FEN"),
            ("B:W21-32:B1-12 ; 2", "'2' is not a score"),
            ("B:W21-32:B1-12 ; NaN", "'NaN' is not a score"),
            ("B:W21-32:B1-12 ; 1 ; x", "'x' is not a search score"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.starts_with(why), "{line}: {e}");
        }
    }

    /// Every line of a game falls on the same side of the split, and about one game in
    /// `every` is held out.
    #[test]
    fn games_are_held_out_whole() {
        let held = (0..10_000)
            .filter(|i| held_out(Some(game_hash(&format!("2030-{i}"))), 0, 10))
            .count();
        assert!((800..1200).contains(&held), "{held}");
        // Small runs of any seed too: about one game in ten, never none.
        for seed in [1, 7, 2039] {
            let held = |n: usize| {
                (0..n)
                    .filter(|i| held_out(Some(game_hash(&format!("{seed}-{i}"))), 0, 10))
                    .count()
            };
            assert!(
                (4..=20).contains(&held(100)),
                "seed {seed}: {} of 100",
                held(100)
            );
            assert!(
                (70..=130).contains(&held(1000)),
                "seed {seed}: {} of 1000",
                held(1000)
            );
        }
        let h = game_hash("5-5");
        let sides: Vec<bool> = (0..50).map(|i| held_out(Some(h), i, 10)).collect();
        assert!(sides.iter().all(|&s| s == sides[0]));
        // Without a game, one line in ten by its index.
        assert_eq!((0..100).filter(|&i| held_out(None, i, 10)).count(), 10);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_with_the_numbers_kept() {
        let text = "# settings\nB:W21-32:B1-12 ; 1\n\n  \nW:W21-32:B1-12 ; 0 ; 5\n";
        let v: Vec<(usize, &str)> = numbered(text).collect();
        assert_eq!(
            v,
            [(2, "B:W21-32:B1-12 ; 1"), (5, "W:W21-32:B1-12 ; 0 ; 5")]
        );
        assert_eq!(fen_field(v[1].1), "W:W21-32:B1-12");
    }
}
