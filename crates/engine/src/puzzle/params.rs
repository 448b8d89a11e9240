//! The puzzles' tunables, in one place: what counts as a clear margin, a win, a hold, how
//! deep the finder and the proof search, and the rating scale.

/// Hundredths of a man, as `Score` counts.
pub type Centimen = i32;

/// A man in the material count; a king counts `KING`.
pub const MAN: Centimen = 100;
pub const KING: Centimen = 150;

/// Every move but the solution's falls short of it by this much at least: a man.
pub const MARGIN: Centimen = 100;

/// A win puzzle's solution scores at least this (a man up, or a proved win).
pub const WIN_FROM: Centimen = 100;

/// Where the second-best move scores this much already, the position is won whatever is
/// played: no puzzle.
pub const ALREADY_WON: Centimen = 300;

/// A defence puzzle's solution holds at least this (about level).
pub const HOLD_FROM: Centimen = -50;

/// A crowning decides when the position after it scores at least this.
pub const CROWN_DECIDES: Centimen = 200;

/// Proved wins and losses (the search's and the tables') weigh this, beyond any evaluation.
pub const DECIDED: Centimen = 10_000;

/// The finder's search of every position, at `--nodes` (its default here), two lines.
pub const SCREEN_NODES: u64 = 100_000;

/// The proof searches each step this many times deeper than the finder.
pub const PROOF_FACTOR: u64 = 10;

/// At most this many of the solver's moves in a solution: a longer line is no puzzle.
pub const MAX_SOLVER_MOVES: usize = 8;

/// With this many pieces or fewer, a step is proved by the endgame tables, or not at all.
pub const TABLE_PIECES: u32 = 6;

/// The transposition table of the finder's engine, fixed: a node-limited search depends on
/// it, and a puzzle set must come out the same on any machine and any number of workers.
pub const HASH_MB: usize = 16;

/// The rating scale: level `L` of the ladder (docs/LEVELS.md) stands at
/// `LEVEL_ONE + ladder[L]`, so level 1 is 800 and level 10 about 2,400; a new player, at
/// 1500, stands between levels 4 and 5.
pub const LEVEL_ONE: f64 = 800.0;

/// Each level's Elo above level 1, summed from the ladder's measured steps (docs/LEVELS.md,
/// "The ladder": 1-2 170, 2-3 171, 3-4 163, 4-5 182, 5-6 222, 6-7 166, 7-8 197, 8-9 199,
/// 9-10 144).
pub const LADDER: [f64; 10] = [
    0.0, 170.0, 341.0, 504.0, 686.0, 908.0, 1074.0, 1271.0, 1470.0, 1614.0,
];

/// A puzzle's rating stays within this much beyond the weakest and the strongest level.
pub const RATING_REACH: f64 = 400.0;
