//! The tuning data line, `FEN ; White's score ; search score`: its one writer (`write`) and
//! its one parser (`parse`, `numbered`), which self-play, `label`, `learn` and `tune` all call.
//!
//! The score is White's in the game: `1`, `0.5` or `0` (anything from 0 to 1 is read, for
//! synthetic data). The search score is that of the search made at the position, from
//! White's side in hundredths of a man, or `-` where none was made; it may be left out
//! (`FEN ; score`). A blank line or one starting with `#` (a comment, such as the settings
//! header `label` writes) is not a data line and is skipped by every reader.

use crate::core::notation::{parse_fen, write_fen};
use crate::core::Position;

/// One data line, parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataLine {
    pub pos: Position,
    /// White's score in the game, from 0 to 1.
    pub white_score: f64,
    /// The search score there, from White's side in hundredths of a man, if one was made.
    pub search: Option<i32>,
}

/// The data line of `pos` (with its final newline).
pub fn write(pos: &Position, white_score: f64, search: Option<i32>) -> String {
    let search = search.map_or("-".to_string(), |s| s.to_string());
    format!("{} ; {} ; {}\n", write_fen(pos), white_score, search)
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
    let (Some(fen), Some(score), search, None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected 'FEN ; score' or 'FEN ; score ; search'".into());
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
    Ok(DataLine {
        pos,
        white_score,
        search,
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
        for (score, search) in [(1.0, Some(-40)), (0.5, None), (0.0, Some(3000))] {
            let line = write(&pos, score, search);
            assert!(line.ends_with('\n'));
            let d = parse(line.trim_end()).unwrap();
            assert_eq!((d.pos, d.white_score, d.search), (pos, score, search));
        }
        assert_eq!(parse("B:W21-32:B1-12 ; 0.5").unwrap().search, None);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, why) in [
            ("nonsense", "expected"),
            ("B:W21-32:B1-12 ; 1 ; 5 ; 6", "expected"),
            ("B:W33:B1 ; 1", "bad FEN"),
            ("B:W21-32:B1-12 ; 2", "'2' is not a score"),
            ("B:W21-32:B1-12 ; NaN", "'NaN' is not a score"),
            ("B:W21-32:B1-12 ; 1 ; x", "'x' is not a search score"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.starts_with(why), "{line}: {e}");
        }
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
