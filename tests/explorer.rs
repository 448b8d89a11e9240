//! `poolshark explorer` as a user runs it, through the real binary: `build` makes a games file
//! from PDN games (another start left out and counted), which reads back; an `--out` that is
//! there, or bad `--about`, is refused with nothing written; `show` lists the book's moves at
//! the start, each with its score, and the shipped games beside them.

mod support;

use support::{run_cli as run, scratch_dir};

const GAMES: &str = "[Event \"a\"]\n[Result \"0-1\"]\n1. 11-15 23-19 2. 8-11 22-17 0-1\n\n\
[Event \"b\"]\n[Result \"1/2-1/2\"]\n1. 11-15 22-18 2. 15x22 25x18 1/2-1/2\n\n\
[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"W:W21,22:B1,2\"]\n[Result \"*\"]\n1. 22-18 *\n";

#[test]
fn build_writes_a_games_file_that_reads_back() {
    let dir = scratch_dir("explorer-build");
    let pdn = dir.join("games.pdn");
    std::fs::write(&pdn, GAMES).unwrap();
    let out = dir.join("explorer.games");
    let _ = std::fs::remove_file(&out);
    let args = |plies: &str| {
        vec![
            "explorer".to_string(),
            "build".into(),
            "--pdn".into(),
            pdn.display().to_string(),
            "--out".into(),
            out.display().to_string(),
            "--about".into(),
            "two test games".into(),
            "--plies".into(),
            plies.into(),
        ]
    };
    let a = args("3");
    let argv: Vec<&str> = a.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = run(&argv);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "explorer 2 games 3 plies\n");
    assert!(
        stderr.contains("left out 1 games from another start"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# about: two test games\n"), "{text}");
    assert!(text.contains("0-1 11-15 23-19 8-11\n"), "{text}");
    assert!(text.contains("1/2-1/2 11-15 22-18 15x22x18\n"), "{text}");
    // There already: refused, the file as it was.
    let (code, _, stderr) = run(&argv);
    assert_eq!(code, 2);
    assert!(stderr.contains("is there already"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    std::fs::remove_file(&out).unwrap();
    let mut bad = argv.clone();
    bad[7] = " ";
    let (code, _, stderr) = run(&bad);
    assert_eq!(code, 2);
    assert!(stderr.contains("--about"), "{stderr}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn show_lists_the_book_and_the_games_at_the_start() {
    let (code, stdout, stderr) = run(&["explorer", "show"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let book_moves = run(&["book", "show"]).1;
    assert!(book_moves.lines().count() > 1, "{book_moves}");
    for (i, b) in book_moves.lines().enumerate() {
        // The book's moves first, best first, with the book's score.
        let hub_pdn_score: Vec<&str> = b.split(' ').collect();
        let line: Vec<&str> = lines[i].split(' ').collect();
        assert_eq!(line[..3], hub_pdn_score[..3], "{}", lines[i]);
        assert_eq!(line[3], "games", "{}", lines[i]);
    }
    let games: u32 = lines
        .iter()
        .map(|l| l.split(' ').nth(4).unwrap().parse::<u32>().unwrap())
        .sum();
    assert!(games >= 100, "the shipped games leave the start: {stdout}");
    let (code, stdout, _) = run(&["explorer", "show", "--fen", "W:W21:B1"]);
    assert_eq!((code, stdout.as_str()), (0, "no explorer moves\n"));
}
