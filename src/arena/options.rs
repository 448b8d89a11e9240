//! The text forms of the match options that name an engine: limits per engine (`--depth 6,-
//! --movetime -,0.1`), playing levels (`--level 3,4`) and Hub parameters (`--param
//! 1:book=false`). The CLI calls these, so the rules live beside the match they configure and
//! tests can reach them.

use crate::arena::referee::TimeControl;
use poolshark_engine::search::level::PlayLevel;
use std::time::Duration;

/// The deepest `--depth` a match accepts.
pub const MAX_DEPTH: u32 = 60;
/// The most seconds `--movetime` accepts.
pub const MAX_MOVE_TIME: f64 = 1.0e6;

/// The kind of limit an option gives: `--tc`, `--movetime`, `--depth` or `--nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Clock,
    MoveTime,
    Depth,
    Nodes,
}

impl LimitKind {
    /// The option's name on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            LimitKind::Clock => "--tc",
            LimitKind::MoveTime => "--movetime",
            LimitKind::Depth => "--depth",
            LimitKind::Nodes => "--nodes",
        }
    }

    fn parse_one(self, s: &str) -> Result<TimeControl, String> {
        let flag = self.flag();
        match self {
            LimitKind::Clock => TimeControl::parse_clock(s),
            LimitKind::MoveTime => match s.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 && v <= MAX_MOVE_TIME => {
                    Ok(TimeControl::MoveTime(Duration::from_secs_f64(v)))
                }
                _ => Err(format!(
                    "{flag} '{s}': seconds, more than 0 and at most {MAX_MOVE_TIME}"
                )),
            },
            LimitKind::Depth => match s.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(TimeControl::Depth(d)),
                _ => Err(format!(
                    "{flag} '{s}': a whole number from 1 to {MAX_DEPTH}"
                )),
            },
            LimitKind::Nodes => match s.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(TimeControl::Nodes(n)),
                _ => Err(format!("{flag} '{s}': a whole number from 1")),
            },
        }
    }
}

/// An option's value split per engine: one value for both, or two separated by a comma,
/// where `-` leaves that engine out.
fn per_engine<'a>(flag: &str, text: &'a str) -> Result<[&'a str; 2], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [a] if *a == "-" => Err(format!(
            "{flag} '-': '-' skips one engine of two (write 6,- or -,6)"
        )),
        [a] => Ok([a, a]),
        [a, b] => Ok([a, b]),
        _ => Err(format!(
            "{flag} '{text}': one value, or two separated by a comma ('-' for none)"
        )),
    }
}

/// `--level`: each engine's playing level (`search::level`), sent as the Hub parameter
/// `level`. One level for both engines, or two separated by a comma, `-` for full strength:
/// `--level 1,2`, `--level -,10`.
pub fn parse_levels(text: &str) -> Result<[Option<PlayLevel>; 2], String> {
    let mut levels = [None, None];
    for (i, part) in per_engine("--level", text)?.into_iter().enumerate() {
        if part != "-" {
            levels[i] = Some(PlayLevel::parse(part).map_err(|e| format!("--level: {e}"))?);
        }
    }
    Ok(levels)
}

/// Each engine's limit from the limit options given. An option's value is one value for
/// both engines, or two separated by a comma, one per engine, where `-` leaves that engine
/// to another option: `--depth 6,- --movetime -,0.1` gives engine 1 depth 6 and engine 2
/// 0.1 s a move. Each engine must end with exactly one limit.
pub fn parse_limits(given: &[(LimitKind, &str)]) -> Result<[TimeControl; 2], String> {
    parse_limits_at_levels(given, [None, None])
}

/// `parse_limits`, where an engine that plays at a level and has no limit option is limited
/// by the level's own node count (its search never goes past it anyway).
pub fn parse_limits_at_levels(
    given: &[(LimitKind, &str)],
    levels: [Option<PlayLevel>; 2],
) -> Result<[TimeControl; 2], String> {
    let mut limits: [Option<(LimitKind, TimeControl)>; 2] = [None, None];
    for &(kind, text) in given {
        for (i, part) in per_engine(kind.flag(), text)?.into_iter().enumerate() {
            if part == "-" {
                continue;
            }
            let tc = kind.parse_one(part)?;
            if let Some((other, _)) = limits[i] {
                return Err(format!(
                    "engine {} has two limits ({} and {}); give '-' in one of them",
                    i + 1,
                    other.flag(),
                    kind.flag()
                ));
            }
            limits[i] = Some((kind, tc));
        }
    }
    for (limit, level) in limits.iter_mut().zip(levels) {
        if let (None, Some(l)) = (&limit, level) {
            *limit = Some((LimitKind::Nodes, TimeControl::Nodes(l.settings().nodes)));
        }
    }
    match limits {
        [Some((_, a)), Some((_, b))] => Ok([a, b]),
        [None, _] | [_, None] => {
            let i = usize::from(limits[0].is_some());
            Err(format!(
                "engine {} has no limit: give --tc, --movetime, --depth, --nodes or --level for it",
                i + 1
            ))
        }
    }
}

/// A `--param` value: `NAME=VALUE` for both engines, or `N:NAME=VALUE` for engine N (1 or
/// 2), as (engine index, name, value). A number before `:` must be 1 or 2.
pub fn parse_param(s: &str) -> Result<(Option<usize>, String, String), String> {
    let (engine, rest) = match s.split_once(':') {
        Some((n, rest)) if !n.is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()) => {
            match n.trim() {
                "1" => (Some(0), rest),
                "2" => (Some(1), rest),
                _ => {
                    return Err(format!(
                        "'{s}': engine {n} does not exist; a match has engines 1 and 2"
                    ))
                }
            }
        }
        _ => (None, s),
    };
    match rest.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => {
            Ok((engine, k.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(format!("'{s}' is not NAME=VALUE or 1:NAME=VALUE")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LimitKind::*;

    #[test]
    fn limits_one_kind_or_mixed() {
        assert_eq!(
            parse_limits(&[(Depth, "6")]),
            Ok([TimeControl::Depth(6), TimeControl::Depth(6)])
        );
        assert_eq!(
            parse_limits(&[(Depth, "6,4")]),
            Ok([TimeControl::Depth(6), TimeControl::Depth(4)])
        );
        assert_eq!(
            parse_limits(&[(Depth, "6,-"), (MoveTime, "-,0.5")]),
            Ok([
                TimeControl::Depth(6),
                TimeControl::MoveTime(Duration::from_millis(500))
            ])
        );
        assert_eq!(
            parse_limits(&[(Nodes, "- , 100"), (Clock, "10+0.1,-")]),
            Ok([
                TimeControl::parse_clock("10+0.1").unwrap(),
                TimeControl::Nodes(100)
            ])
        );
    }

    #[test]
    fn limit_errors_say_what_to_do() {
        let err = |given: &[(LimitKind, &str)]| parse_limits(given).unwrap_err();
        assert!(err(&[(Depth, "6,-")]).contains("engine 2 has no limit"));
        assert!(err(&[(Depth, "6"), (Nodes, "-,5")]).contains("engine 2 has two limits"));
        assert!(err(&[(Depth, "-")]).contains("skips one engine"));
        assert!(err(&[(Depth, "6,0")]).contains("--depth '0'"));
        assert!(err(&[(Nodes, "1,2,3")]).contains("two separated by a comma"));
        assert!(err(&[(Clock, "fast")]).contains("time control"));
        assert!(err(&[(MoveTime, "-,nan")]).contains("--movetime 'nan'"));
        assert!(err(&[]).contains("engine 1 has no limit"));
    }

    #[test]
    fn levels_per_engine_and_their_own_limits() {
        let l = |n| Some(PlayLevel::new(n).unwrap());
        assert_eq!(parse_levels("1,2"), Ok([l(1), l(2)]));
        assert_eq!(parse_levels("7"), Ok([l(7), l(7)]));
        assert_eq!(parse_levels("-, 10"), Ok([None, l(10)]));
        for bad in ["0", "11", "-", "1,2,3", "x,2", ""] {
            assert!(parse_levels(bad).is_err(), "{bad}");
        }
        assert!(parse_levels("1,11").unwrap_err().contains("from 1 to 10"));
        let n1 = l(1).unwrap().settings().nodes;
        // A level without a limit plays at its own node count; a limit given still counts.
        assert_eq!(
            parse_limits_at_levels(&[(Nodes, "-,1000000")], [l(1), None]),
            Ok([TimeControl::Nodes(n1), TimeControl::Nodes(1_000_000)])
        );
        assert_eq!(
            parse_limits_at_levels(&[(Depth, "9")], [l(1), l(2)]),
            Ok([TimeControl::Depth(9), TimeControl::Depth(9)])
        );
        assert!(parse_limits_at_levels(&[], [l(1), None])
            .unwrap_err()
            .contains("engine 2 has no limit"));
    }

    #[test]
    fn params() {
        assert_eq!(
            parse_param("1:book=false"),
            Ok((Some(0), "book".into(), "false".into()))
        );
        assert_eq!(
            parse_param("tt-size = 20"),
            Ok((None, "tt-size".into(), "20".into()))
        );
        assert!(parse_param("3:book=false")
            .unwrap_err()
            .contains("engine 3"));
        assert!(parse_param("0:book=false").is_err());
        assert!(parse_param("book").is_err());
        assert!(parse_param("2:=1").is_err());
    }
}
