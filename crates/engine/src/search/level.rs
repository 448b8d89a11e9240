//! Playing levels 1-10, for a person to play against: the table of each level's settings and
//! the pick that makes a level play like a weaker player rather than a shallow perfect one.
//!
//! A level searches its best few root moves (multi-PV) within a node limit, then chooses
//! among the moves that score within a margin of the best, each with a softmax weight that
//! falls with its loss, and now and then overlooks the scores altogether (an oversight: any
//! of the moves searched). The node limit, the number of moves, the margin, the temperature
//! and the chance of an oversight all grow as the level falls. Level 10 is the engine
//! itself within a node limit: one line, no chance. A position with one legal move (a forced capture)
//! plays it at once.
//!
//! The choices are drawn from a seeded generator the caller passes in, so the same seed
//! picks the same moves. The ladder that calibrates the table (each level against the next,
//! by matches) is docs/LEVELS.md.

use super::{Engine, Limits, Line, Outcome, SearchControl};
use crate::core::rng::SplitMix64;
use crate::core::{movegen, Game};

/// The highest level; level `MAX` is the strongest below full strength.
pub const MAX: u8 = 10;

/// One level's settings. Scores are in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Nodes the search may spend on all its lines together.
    pub nodes: u64,
    /// Root moves searched, each with its own score (multi-PV lines): the moves a pick
    /// chooses among.
    pub candidates: usize,
    /// A move scoring more than this below the best is never chosen, but by an oversight.
    pub margin: i32,
    /// Softmax temperature: a move `d` below the best weighs `exp(-d / temperature)`
    /// against the best's 1. 0 always takes the best of the moves within the margin.
    pub temperature: f64,
    /// Chance per thousand moves with a choice of an oversight: one of the searched moves
    /// at random, whatever its score.
    pub oversight: u32,
}

/// The levels, 1 first. Each row is at least as strong as the one before in every column:
/// more nodes, fewer moves to choose among, a smaller margin, a colder softmax, fewer
/// oversights (a test checks it). The steps were measured by matches (docs/LEVELS.md,
/// `scripts/levels-ladder.sh`).
pub const TABLE: [Settings; MAX as usize] = [
    settings(400, 10, 250, 120.0, 150),
    settings(800, 8, 190, 95.0, 100),
    settings(1_500, 7, 160, 75.0, 70),
    settings(2_500, 6, 135, 58.0, 50),
    settings(4_000, 5, 110, 45.0, 35),
    settings(8_000, 4, 80, 32.0, 20),
    settings(16_000, 4, 55, 22.0, 10),
    settings(30_000, 3, 38, 15.0, 4),
    settings(70_000, 2, 22, 9.0, 0),
    settings(250_000, 1, 0, 0.0, 0),
];

const fn settings(
    nodes: u64,
    candidates: usize,
    margin: i32,
    temperature: f64,
    oversight: u32,
) -> Settings {
    Settings {
        nodes,
        candidates,
        margin,
        temperature,
        oversight,
    }
}

/// A playing level, 1 to `MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayLevel(u8);

impl PlayLevel {
    /// Level `n`, or an error that says the range.
    pub fn new(n: u64) -> Result<PlayLevel, String> {
        match u8::try_from(n) {
            Ok(n) if (1..=MAX).contains(&n) => Ok(PlayLevel(n)),
            _ => Err(format!("level {n} is not from 1 to {MAX}")),
        }
    }

    /// A level from the text of a number (`"3"`), or an error naming the text.
    pub fn parse(text: &str) -> Result<PlayLevel, String> {
        let t = text.trim();
        match t.parse::<u64>() {
            Ok(n) => PlayLevel::new(n),
            Err(_) => Err(format!("level '{t}' is not a whole number from 1 to {MAX}")),
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }

    pub fn settings(self) -> &'static Settings {
        &TABLE[usize::from(self.0 - 1)]
    }

    /// The limits of a search at this level: `base` (a clock, a depth, a node count: the
    /// first reached still ends the search) with the level's node limit and its lines.
    pub fn limits(self, base: &Limits) -> Limits {
        let s = self.settings();
        Limits {
            nodes: Some(base.nodes.map_or(s.nodes, |n| n.min(s.nodes))),
            multipv: s.candidates,
            // Play, not analysis: a single legal move is played at once.
            analyze: false,
            ..base.clone()
        }
    }
}

impl std::fmt::Display for PlayLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The indices of the lines with a move: the ones a pick chooses among.
fn playable(lines: &[Line]) -> Vec<usize> {
    (0..lines.len())
        .filter(|&k| !lines[k].pv.is_empty())
        .collect()
}

/// The `playable` lines that score within `settings.margin` of the best, with what each
/// gives away against it.
fn within_margin(lines: &[Line], playable: &[usize], settings: &Settings) -> Vec<(usize, i64)> {
    let best = playable
        .iter()
        .map(|&k| i64::from(lines[k].score.0))
        .max()
        .unwrap_or(0);
    playable
        .iter()
        .map(|&k| (k, best - i64::from(lines[k].score.0)))
        .filter(|&(_, loss)| loss <= i64::from(settings.margin))
        .collect()
}

/// Which of `lines` (best first, as a multi-PV search gives them) a player with `settings`
/// plays. Lines without a move are never chosen; with none at all, 0.
pub fn choose(lines: &[Line], settings: &Settings, rng: &mut SplitMix64) -> usize {
    let playable = playable(lines);
    let Some(&first) = playable.first() else {
        return 0;
    };
    if playable.len() == 1 {
        return first;
    }
    // 1. An oversight: a move searched, whatever it scores.
    if settings.oversight > 0 && (rng.below(1000) as u32) < settings.oversight {
        return *rng.pick(&playable);
    }
    // 2. The moves within the margin, weighed by how much they give away.
    let near = within_margin(lines, &playable, settings);
    if settings.temperature <= 0.0 || near.len() == 1 {
        return near
            .iter()
            .min_by_key(|&&(k, loss)| (loss, k))
            .map_or(first, |p| p.0);
    }
    let weights: Vec<f64> = near
        .iter()
        .map(|&(_, loss)| (-(loss as f64) / settings.temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    // A draw in [0, total) from 53 random bits.
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (&(k, _), w) in near.iter().zip(&weights) {
        if x < *w {
            return k;
        }
        x -= w;
    }
    near.last().map_or(first, |p| p.0)
}

/// Search `game` at `level` within `base` (see `PlayLevel::limits`) and play the level's
/// pick: the outcome's `best`, `score`, `pv` and `ponder` are the chosen line's, and
/// `lines` holds every line it chose among. Progress goes to `on_info`, as `Engine::search`
/// reports it (numbered lines when the level searches several).
pub fn search(
    engine: &Engine,
    game: &Game,
    level: PlayLevel,
    base: &Limits,
    control: &SearchControl,
    rng: &mut SplitMix64,
    on_info: &mut dyn FnMut(&super::Info),
) -> Outcome {
    let limits = level.limits(base);
    let mut out = engine.search(game, &limits, control, on_info);
    if movegen::legal_moves(game.position()).len() <= 1 {
        return out;
    }
    let k = choose(&out.lines, level.settings(), rng);
    if let Some(line) = out.lines.get(k).filter(|l| !l.pv.is_empty()) {
        out.best = line.pv.first().copied();
        out.ponder = line.pv.get(1).copied();
        out.score = line.score;
        out.pv = line.pv.clone();
    }
    out
}

/// The chance that `choose` plays each of `lines` for a player with `settings`: the same
/// steps, added up instead of drawn (the puzzles rate themselves with it, `crate::puzzle`).
/// Lines without a move get 0; the chances of the playable lines sum to 1.
pub fn chances(lines: &[Line], settings: &Settings) -> Vec<f64> {
    let mut p = vec![0.0; lines.len()];
    let playable = playable(lines);
    let Some(&first) = playable.first() else {
        return p;
    };
    if playable.len() == 1 {
        p[first] = 1.0;
        return p;
    }
    // 1. An oversight: each move searched alike.
    let oversight = f64::from(settings.oversight.min(1000)) / 1000.0;
    for &k in &playable {
        p[k] += oversight / playable.len() as f64;
    }
    // 2. The moves within the margin, by their weights (or the best alone when cold).
    let near = within_margin(lines, &playable, settings);
    let rest = 1.0 - oversight;
    if settings.temperature <= 0.0 || near.len() == 1 {
        if let Some(&(k, _)) = near.iter().min_by_key(|&&(k, loss)| (loss, k)) {
            p[k] += rest;
        }
        return p;
    }
    let weights: Vec<f64> = near
        .iter()
        .map(|&(_, loss)| (-(loss as f64) / settings.temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    for (&(k, _), w) in near.iter().zip(&weights) {
        p[k] += rest * w / total;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_fen;
    use crate::core::Move;
    use crate::search::Score;

    #[test]
    fn the_table_gets_stronger_with_every_level() {
        for pair in TABLE.windows(2) {
            let (weak, strong) = (pair[0], pair[1]);
            assert!(strong.nodes > weak.nodes, "{weak:?} {strong:?}");
            assert!(strong.candidates <= weak.candidates, "{weak:?} {strong:?}");
            assert!(strong.margin <= weak.margin, "{weak:?} {strong:?}");
            assert!(
                strong.temperature <= weak.temperature,
                "{weak:?} {strong:?}"
            );
            assert!(strong.oversight <= weak.oversight, "{weak:?} {strong:?}");
        }
        for s in TABLE {
            assert!(s.candidates >= 1 && s.margin >= 0 && s.temperature >= 0.0);
            assert!(s.oversight < 1000);
        }
    }

    /// `chances` is what `choose` draws from: over many seeds, each line is picked about as
    /// often as its chance says, at every level.
    #[test]
    fn chances_match_the_picks() {
        let lines: Vec<Line> = [60, 40, 10, -50, -200, -400]
            .iter()
            .enumerate()
            .map(|(i, &s)| Line {
                score: Score(s),
                pv: vec![Move::quiet(
                    crate::core::Square::new(i as u8),
                    crate::core::Square::new(i as u8 + 8),
                )],
            })
            .collect();
        for level in 1..=MAX {
            let s = PlayLevel::new(u64::from(level)).unwrap().settings();
            let shown = &lines[..s.candidates.min(lines.len())];
            let p = chances(shown, s);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{p:?}");
            let mut rng = SplitMix64::new(u64::from(level));
            let n = 40_000;
            let mut seen = vec![0u32; shown.len()];
            for _ in 0..n {
                seen[choose(shown, s, &mut rng)] += 1;
            }
            for (k, (&c, &q)) in seen.iter().zip(&p).enumerate() {
                let f = f64::from(c) / f64::from(n);
                assert!(
                    (f - q).abs() < 0.01,
                    "level {level} line {k}: picked {f}, chance {q}"
                );
            }
        }
    }

    #[test]
    fn levels_are_checked() {
        assert_eq!(PlayLevel::new(1).unwrap().get(), 1);
        assert_eq!(PlayLevel::parse(" 10 ").unwrap().get(), 10);
        assert_eq!(PlayLevel::new(10).unwrap().settings(), &TABLE[9]);
        for bad in [
            "0",
            "11",
            "-1",
            "three",
            "",
            "1.5",
            "99999999999999999999999",
        ] {
            let err = PlayLevel::parse(bad).unwrap_err();
            assert!(err.contains("from 1 to 10"), "{bad}: {err}");
        }
        assert!(PlayLevel::new(256).is_err());
    }

    #[test]
    fn the_level_caps_the_nodes_and_sets_the_lines() {
        let level = PlayLevel::new(3).unwrap();
        let s = level.settings();
        let l = level.limits(&Limits {
            depth: Some(9),
            analyze: true,
            ..Limits::default()
        });
        assert_eq!(l.nodes, Some(s.nodes));
        assert_eq!(l.multipv, s.candidates);
        assert_eq!(l.depth, Some(9));
        assert!(!l.analyze);
        let fewer = level.limits(&Limits {
            nodes: Some(300),
            ..Limits::default()
        });
        assert_eq!(fewer.nodes, Some(300));
    }

    /// Lines with made-up moves and the given scores, best first.
    fn lines(scores: &[i32]) -> Vec<Line> {
        let pos = crate::core::Position::start();
        let moves: Vec<Move> = movegen::legal_moves(&pos).iter().copied().collect();
        scores
            .iter()
            .zip(moves)
            .map(|(&s, mv)| Line {
                score: Score(s),
                pv: vec![mv],
            })
            .collect()
    }

    fn counts(ls: &[Line], s: &Settings, seed: u64, draws: usize) -> Vec<usize> {
        let mut rng = SplitMix64::new(seed);
        let mut n = vec![0; ls.len()];
        for _ in 0..draws {
            n[choose(ls, s, &mut rng)] += 1;
        }
        n
    }

    #[test]
    fn the_pick_keeps_to_the_margin_and_favours_the_better_moves() {
        let ls = lines(&[50, 40, 0, -300, Score::loss_in(3).0]);
        let s = settings(1000, 5, 60, 30.0, 0);
        let n = counts(&ls, &s, 1, 3000);
        assert_eq!(n[3] + n[4], 0, "beyond the margin: {n:?}");
        assert!(n[0] > n[1] && n[1] > n[2] && n[2] > 0, "{n:?}");
        // Cold: always the best.
        let cold = settings(1000, 5, 60, 0.0, 0);
        assert_eq!(counts(&ls, &cold, 1, 100)[0], 100);
        // Oversights reach every move searched.
        let careless = settings(1000, 5, 0, 0.0, 500);
        let n = counts(&ls, &careless, 2, 3000);
        assert!(n.iter().all(|&c| c > 0), "{n:?}");
        assert!(n[0] > 1000, "{n:?}");
    }

    #[test]
    fn a_won_line_is_not_traded_for_an_ordinary_one() {
        let ls = lines(&[Score::win_in(7).0, Score::win_in(11).0, 80]);
        let s = settings(1000, 3, 250, 120.0, 0);
        let n = counts(&ls, &s, 3, 500);
        assert_eq!(n[2], 0, "{n:?}");
        assert!(n[1] > 0, "a longer win is as good: {n:?}");
    }

    #[test]
    fn the_same_seed_picks_the_same_moves() {
        let ls = lines(&[10, 0, -20, -40, -80]);
        let s = TABLE[0];
        let a = counts(&ls, &s, 42, 1);
        let mut r1 = SplitMix64::new(42);
        let mut r2 = SplitMix64::new(42);
        let seq1: Vec<usize> = (0..50).map(|_| choose(&ls, &s, &mut r1)).collect();
        let seq2: Vec<usize> = (0..50).map(|_| choose(&ls, &s, &mut r2)).collect();
        assert_eq!(seq1, seq2);
        assert_eq!(a.iter().sum::<usize>(), 1);
        assert!(seq1.iter().any(|&k| k != seq1[0]), "{seq1:?}");
        assert_eq!(choose(&[], &s, &mut r1), 0);
        assert_eq!(choose(&ls[..1], &s, &mut r1), 0);
    }

    /// The move `level` plays in `fen` with `seed`.
    fn pick(engine: &mut Engine, fen: &str, level: u64, seed: u64) -> Move {
        let game = Game::new(parse_fen(fen).unwrap());
        engine.clear();
        let out = search(
            engine,
            &game,
            PlayLevel::new(level).unwrap(),
            &Limits::default(),
            &SearchControl::new(),
            &mut SplitMix64::new(seed),
            &mut |_| {},
        );
        out.best.unwrap()
    }

    /// Over the bench positions with a choice, level 1 often plays another move than a
    /// full search's best, level 10 seldom, and a seed always gives the same move.
    #[test]
    fn level_one_strays_from_the_best_and_level_ten_mostly_not() {
        let mut engine = Engine::new(16, 1);
        let fens: Vec<&str> = crate::bench::POSITIONS
            .iter()
            .copied()
            .filter(|f| movegen::legal_moves(&parse_fen(f).unwrap()).len() > 1)
            .collect();
        assert!(fens.len() >= 12, "{}", fens.len());
        let (mut strays_1, mut strays_10) = (0, 0);
        for (i, fen) in fens.iter().enumerate() {
            engine.clear();
            let best = engine
                .search(
                    &Game::new(parse_fen(fen).unwrap()),
                    &Limits {
                        depth: Some(12),
                        ..Limits::default()
                    },
                    &SearchControl::new(),
                    &mut |_| {},
                )
                .best
                .unwrap();
            let seed = i as u64;
            let one = pick(&mut engine, fen, 1, seed);
            assert_eq!(
                one,
                pick(&mut engine, fen, 1, seed),
                "{fen}: same seed, same move"
            );
            strays_1 += usize::from(one != best);
            strays_10 += usize::from(pick(&mut engine, fen, 10, seed) != best);
        }
        assert!(
            strays_1 >= fens.len() / 3,
            "level 1 strayed {strays_1} of {}",
            fens.len()
        );
        assert!(
            strays_10 <= fens.len() / 4,
            "level 10 strayed {strays_10} of {}",
            fens.len()
        );
        assert!(strays_10 < strays_1);
    }

    #[test]
    fn a_forced_move_is_played_at_once() {
        // White must capture: 22x13 is the only legal move.
        let fen = "W:W22:B17,1";
        let pos = parse_fen(fen).unwrap();
        let legal = movegen::legal_moves(&pos);
        assert_eq!(legal.len(), 1);
        let mut engine = Engine::new(16, 1);
        for seed in 0..5 {
            assert_eq!(pick(&mut engine, fen, 1, seed), legal[0]);
        }
    }
}
