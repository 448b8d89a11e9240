//! The stdin reader thread: it turns input into events for the loop, one per line, and one
//! for the end of input. Lines are bytes, not necessarily UTF-8, and may be of any length;
//! past `MAX_LINE` bytes the rest of the line is dropped and the loop is told.

use std::io::BufRead;
use std::sync::mpsc::Sender;

/// The longest line kept (a game of several hundred moves fits many times over).
pub const MAX_LINE: usize = 1 << 20;
/// The most of a too-long line's first word that is kept (command names are short).
const MAX_WORD: usize = 32;

/// What the loop waits for.
#[derive(Debug)]
pub enum Event {
    /// One input line, without its line end (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than `MAX_LINE` bytes, with its length and its first word (cut to
    /// `MAX_WORD` bytes): it is not parsed, but a `pos` that is refused must still clear the
    /// position.
    TooLong { length: usize, first_word: String },
    /// stdin is closed (or unreadable): the client is gone.
    Eof,
    /// The search with this number has printed its `done`.
    SearchDone(u64),
    /// The table's pages are in memory (see `Engine::tt`'s readiness).
    TableReady,
}

/// Start the reader thread.
pub fn spawn_reader(tx: Sender<Event>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("hub-stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &tx))?;
    Ok(())
}

/// Send each line of `input` as an event, then `Eof`.
pub fn read_lines(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("stdin: {e}");
                break;
            }
        };
        if buf.is_empty() {
            break;
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        length += chunk.len();
        if line.len() < MAX_LINE {
            let room = MAX_LINE - line.len();
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let used = end.unwrap_or(buf.len());
        input.consume(used);
        if end.is_some() && !send_line(&mut line, &mut length, tx) {
            return;
        }
    }
    if length > 0 {
        send_line(&mut line, &mut length, tx);
    }
    let _ = tx.send(Event::Eof);
}

fn send_line(line: &mut Vec<u8>, length: &mut usize, tx: &Sender<Event>) -> bool {
    let event = if *length > MAX_LINE {
        let word = line
            .split(|b| b.is_ascii_whitespace())
            .find(|w| !w.is_empty())
            .unwrap_or_default();
        Event::TooLong {
            length: *length,
            first_word: String::from_utf8_lossy(&word[..word.len().min(MAX_WORD)]).into_owned(),
        }
    } else {
        let mut text = String::from_utf8_lossy(line).into_owned();
        if text.ends_with('\r') {
            text.pop();
        }
        Event::Line(text)
    };
    line.clear();
    *length = 0;
    tx.send(event).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn events(input: &[u8]) -> Vec<String> {
        let (tx, rx) = channel();
        read_lines(input, &tx);
        drop(tx);
        rx.iter().map(|e| format!("{e:?}")).collect()
    }

    #[test]
    fn lines_then_eof() {
        assert_eq!(
            events(b"hub\r\nping\nlast"),
            vec!["Line(\"hub\")", "Line(\"ping\")", "Line(\"last\")", "Eof"]
        );
        assert_eq!(events(b""), vec!["Eof"]);
        assert_eq!(
            events(b"\xff\xfe\n"),
            vec!["Line(\"\u{fffd}\u{fffd}\")", "Eof"]
        );
    }

    #[test]
    fn long_lines_are_cut_off() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\n  pos moves=\"");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE));
        input.extend_from_slice(b"\"\nping\n");
        let got = events(&input);
        assert_eq!(
            got[0],
            format!(
                "TooLong {{ length: {}, first_word: \"{}\" }}",
                MAX_LINE + 10,
                "x".repeat(MAX_WORD)
            )
        );
        assert_eq!(
            got[1],
            format!(
                "TooLong {{ length: {}, first_word: \"pos\" }}",
                MAX_LINE + 14
            )
        );
        assert_eq!(got[2], "Line(\"ping\")");
    }
}
