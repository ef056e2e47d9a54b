//! Checking another program's answers against jungletb's move generator.

use crate::line::Line;
use crate::points::{points_of_move, Point};
use jungletb_rules::{perft, Position, Ruleset};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Perft depths a check computes at most (deeper answers are refused:
/// their count would take long to check).
pub const MAX_CHECK_DEPTH: u32 = 6;

/// What is wrong with a line of answers, so that it cannot be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// Not a JSON object with a `position` string.
    NotJson {
        /// What the JSON parser said.
        reason: String,
    },
    /// The position does not parse, or cannot occur in a game.
    BadPosition {
        /// The position's text.
        position: String,
        /// Why.
        reason: String,
    },
    /// The line names another rule set.
    OtherRules {
        /// The rule set the line names.
        line: String,
        /// The rule set checked against.
        checked: String,
    },
    /// A perft depth that is not a number from 1 to [`MAX_CHECK_DEPTH`].
    BadDepth {
        /// The depth's text.
        depth: String,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotJson { reason } => write!(f, "not a suite line: {reason}"),
            LineError::BadPosition { position, reason } => {
                write!(f, "position {position:?}: {reason}")
            }
            LineError::OtherRules { line, checked } => {
                write!(f, "the line is of the rule set {line}, not {checked}: ")?;
                if jungletb_rules::Ruleset::by_name(line).is_ok() {
                    write!(f, "check it with --ruleset {line}")
                } else {
                    write!(f, "check it with the --ruleset and --rule options whose label is {line} (`jungletb rules` prints a label)")
                }
            }
            LineError::BadDepth { depth } => write!(
                f,
                "perft depth {depth:?}: depths are 1 to {MAX_CHECK_DEPTH}"
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// How one position's answers differ from jungletb's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The line's number in its file, from 1.
    pub line: usize,
    /// The position.
    pub position: String,
    /// Moves jungletb finds legal that the answers leave out, with their
    /// points.
    pub missing: Vec<(String, Vec<Point>)>,
    /// Moves the answers give that are not legal here, with their points
    /// (none for a text that is no step or crossing of the side to move).
    pub extra: Vec<(String, Vec<Point>)>,
    /// Perft counts that differ: (depth, jungletb's, the answers').
    pub perft: Vec<(u32, u64, u64)>,
    /// The position's rule points (see `build::position_points`), which a
    /// perft difference touches somewhere.
    pub position_points: Vec<Point>,
}

/// The outcome of a check.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Lines checked.
    pub lines: usize,
    /// The lines whose answers differ.
    pub differences: Vec<Difference>,
}

impl Report {
    /// Differing lines by rule point: for each point that a wrong move
    /// touches, the lines where one does (perft-only differences count
    /// under every point of their position).
    pub fn by_point(&self) -> BTreeMap<Point, BTreeSet<usize>> {
        let mut out: BTreeMap<Point, BTreeSet<usize>> = BTreeMap::new();
        for d in &self.differences {
            let moves = d.missing.iter().chain(&d.extra);
            let mut points: Vec<Point> = moves.flat_map(|(_, p)| p.iter().copied()).collect();
            if d.missing.is_empty() && d.extra.is_empty() {
                points.extend(&d.position_points);
            }
            for p in points {
                out.entry(p).or_default().insert(d.line);
            }
        }
        out
    }
}

/// Checks the answers `line` (number `number`, from 1) under `rules`:
/// its moves and perft counts, where given, against jungletb's. `None`
/// when they agree.
pub fn check_line(
    rules: &Ruleset,
    number: usize,
    line: &Line,
) -> Result<Option<Difference>, LineError> {
    if let Some(label) = &line.rules {
        if *label != rules.label() {
            return Err(LineError::OtherRules {
                line: label.clone(),
                checked: rules.label(),
            });
        }
    }
    let bad = |reason: String| LineError::BadPosition {
        position: line.position.clone(),
        reason,
    };
    let pos: Position = line.position.parse().map_err(|e| bad(format!("{e}")))?;
    pos.validate_reachable(rules)
        .map_err(|e| bad(format!("{e}")))?;
    let over = pos.is_game_over(rules);
    let ours: BTreeSet<String> = if over {
        BTreeSet::new()
    } else {
        pos.legal_move_texts(rules).into_iter().collect()
    };
    let mut diff = Difference {
        line: number,
        position: line.position.clone(),
        missing: Vec::new(),
        extra: Vec::new(),
        perft: Vec::new(),
        position_points: crate::build::position_points(&pos, rules),
    };
    if let Some(moves) = &line.moves {
        let theirs: BTreeSet<String> = moves.iter().map(|m| m.trim().to_string()).collect();
        let points = |m: &String| points_of_move(&pos, rules, m).unwrap_or_default();
        diff.missing = ours
            .difference(&theirs)
            .map(|m| (m.clone(), points(m)))
            .collect();
        diff.extra = theirs
            .difference(&ours)
            .map(|m| (m.clone(), points(m)))
            .collect();
    }
    for (depth, &count) in &line.perft {
        let d = depth
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_CHECK_DEPTH).contains(d))
            .ok_or_else(|| LineError::BadDepth {
                depth: depth.clone(),
            })?;
        let mine = if over { 0 } else { perft(&pos, rules, d) };
        if mine != count {
            diff.perft.push((d, mine, count));
        }
    }
    diff.perft.sort();
    let differs = !(diff.missing.is_empty() && diff.extra.is_empty() && diff.perft.is_empty());
    Ok(differs.then_some(diff))
}

/// Checks every line of `text` (JSON lines; blank lines are skipped).
/// The first line that cannot be checked is an error, with its number.
pub fn check(rules: &Ruleset, text: &str) -> Result<Report, (usize, LineError)> {
    let mut report = Report::default();
    for (k, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let number = k + 1;
        let line: Line = serde_json::from_str(raw).map_err(|e| {
            (
                number,
                LineError::NotJson {
                    reason: e.to_string(),
                },
            )
        })?;
        report.lines += 1;
        if let Some(d) = check_line(rules, number, &line).map_err(|e| (number, e))? {
            report.differences.push(d);
        }
    }
    Ok(report)
}
