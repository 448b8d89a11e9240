//! The match's PDN file (`match --pdn`): games are appended to what is there, as cutechess
//! does, never written over. The games of this run are numbered (`Round`, `Pair`) after the
//! pairs already in the file, so `poolshark stats` over the file reads the runs as one match
//! with no game twice.
//!
//! A file that is not PDN, or that ends in part of a game (a match still writing it, or one
//! stopped mid-write), is refused before the match starts: appending to it would make the
//! file unreadable.

use super::tags;
use poolshark_engine::core::pdn;
use poolshark_host::files;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The open PDN file, and the number of game slots (2 per pair) already in it, by which this
/// run's game numbers are shifted.
pub struct PdnOut {
    pub file: File,
    pub offset: usize,
}

/// Open `path` to append this run's games, after checking what is there.
pub fn open(path: &Path) -> Result<PdnOut, String> {
    let offset = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > 0 => games_before(path)?,
        _ => 0,
    };
    let mut file = files::append(path).map_err(|e| format!("cannot write {e}"))?;
    // A game's text ends in a line break; a file written by hand may not.
    if !ends_in_newline(path) {
        file.write_all(b"\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(PdnOut { file, offset })
}

/// Whether `path` is empty or ends in a line break.
fn ends_in_newline(path: &Path) -> bool {
    let mut last = [b'\n'];
    let Ok(mut f) = File::open(path) else {
        return true;
    };
    if f.seek(SeekFrom::End(-1)).is_ok() {
        let _ = f.read_exact(&mut last);
    }
    last[0] == b'\n'
}

/// The game slots (2 per pair, up to the highest pair) of the match games in `path`.
fn games_before(path: &Path) -> Result<usize, String> {
    let refuse = |why: String| {
        format!(
            "--pdn {}: {why}; match appends to a PDN file and writes over nothing: give \
             another --pdn",
            path.display()
        )
    };
    let lines = files::lines(path, pdn::MAX_MOVETEXT).map_err(|e| refuse(e.reason()))?;
    // The tags alone: the moves are not replayed.
    let mut pairs = 0;
    let mut game = 0;
    for read in pdn::games(lines, pdn::Tags::default()) {
        let tags = match read.map_err(|e| refuse(e.reason()))? {
            pdn::Ending::Complete(tags) => tags,
            pdn::Ending::CutOff(_) | pdn::Ending::Bad(_, pdn::FaultAt::End) => {
                return Err(refuse(UNFINISHED.into()))
            }
            pdn::Ending::Bad(e, _) => return Err(refuse(format!("not PDN ({e})"))),
        };
        game += 1;
        // A pair number past `tags::MAX_PAIR` is refused: the games after it would overflow.
        match tags::place(&tags.tags) {
            Ok(place) => pairs = pairs.max(place.map_or(0, |(pair, _)| pair + 1)),
            Err(e) => return Err(refuse(format!("game {game}: {e}"))),
        }
    }
    Ok(2 * pairs)
}

const UNFINISHED: &str = "it ends in an unfinished game (a match still writing it, or one stopped)";

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("poolshark-pdn-out-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const GAME: &str = "[White \"b\"]\n[Black \"a\"]\n[Pair \"3.2\"]\n1. 11-15 23-19 0-1\n\n";

    #[test]
    fn games_are_numbered_after_those_there_and_nothing_is_lost() {
        let dir = scratch("offset");
        let path = dir.join("m.pdn");
        assert_eq!(open(&path).unwrap().offset, 0);
        std::fs::write(&path, GAME).unwrap();
        let mut out = open(&path).unwrap();
        assert_eq!(out.offset, 6);
        out.file.write_all(b"[Pair \"4.1\"]\n1. 11-15 *\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(GAME), "{text}");
        assert_eq!(pdn::read(&text).unwrap().len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_that_is_not_pdn_or_ends_mid_game_is_refused_untouched() {
        let dir = scratch("refuse");
        let path = dir.join("m.pdn");
        // Issue 58, item 9: a pair number that would wrap this run's rounds to 0.
        let huge = format!("{GAME}[Pair \"18446744073709551615.1\"]\n1. 11-15 *\n\n");
        for text in ["notes: [not a tag\n", &GAME[..GAME.len() - 8], &huge] {
            std::fs::write(&path, text).unwrap();
            let e = open(&path).err().expect("refused");
            assert!(e.contains("writes over nothing"), "{e}");
            if text == huge {
                assert!(
                    e.contains("game 2: bad Pair tag \"18446744073709551615.1\""),
                    "{e}"
                );
            }
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
