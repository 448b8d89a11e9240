//! The PDN reader under damaged input: a real match game and a game with variations and
//! comments, each changed at random many times (bytes flipped, dropped, doubled, cut short,
//! brackets and move text spliced in), must always give games or an error, never a panic; a
//! game that reads must write and read again as itself.

use poolshark::core::pdn;
use poolshark::core::rng::Xorshift64;

const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    ";",
    "%",
    "x",
    "-",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "2-0",
    "0-2",
    "1-1",
    "$1",
    "!?",
    "..",
    ". ",
    "\n",
    "32",
    "0",
    "99",
    "5x14x23x32",
    "[FEN \"",
    "W:W",
    ":B",
    "K",
    "[SetUp \"1\"]",
    "\u{e9}",
    "\r",
];

fn mutate(text: &str, rng: &mut Xorshift64) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let at = rng.below(b.len());
        match rng.below(6) {
            0 => b[at] = rng.below(128) as u8,
            1 => {
                b.remove(at);
            }
            2 => {
                let end = (at + 1 + rng.below(40)).min(b.len());
                let copy = b[at..end].to_vec();
                b.splice(at..at, copy);
            }
            3 => b.truncate(at),
            _ => {
                let piece = PIECES[rng.below(PIECES.len())].as_bytes();
                b.splice(at..at, piece.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn damaged_pdn_is_read_or_refused_never_a_panic() {
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/full-path-capture.pdn"
    ))
    .unwrap();
    let tree = "[Event \"t\"]\n[Result \"*\"]\n1. 11-15 {a note} (1. 9-13 23-18 (1... 22-17 $2) \
                14x23) 23-19 8-11?! 2. 22-17 {[%eval 0.12]} 4-8 *\n";
    let mut rng = Xorshift64::new(0x5eed_0f9d_4e00);
    let (mut read, mut refused) = (0, 0);
    for round in 0..4000 {
        let base = if round % 2 == 0 { &game } else { tree };
        let text = mutate(base, &mut rng);
        match pdn::read(&text) {
            Ok(games) => {
                read += 1;
                for g in games {
                    let again = g.write();
                    let back = pdn::read(&again).unwrap_or_else(|e| {
                        panic!("{e}\n--- written:\n{again}\n--- from:\n{text}")
                    });
                    assert_eq!(back.len(), 1, "{again}");
                    assert_eq!(back[0].write(), again, "from:\n{text}");
                }
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    // Both outcomes happen, so the damage is neither always fatal nor always harmless.
    assert!(read > 100 && refused > 100, "read {read} refused {refused}");
}
