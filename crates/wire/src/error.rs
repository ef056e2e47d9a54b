//! Failed answers: a machine-readable kind and a message.

use jungletb_tablebase::{ProbeError, TableError};
use serde::{Deserialize, Serialize};

/// What kind of failure an [`ErrorAnswer`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The position text does not parse.
    Notation,
    /// The position cannot occur under the rules.
    ImpossiblePosition,
    /// The rule set or a rule option is not valid.
    Rules,
    /// A move asked about is not legal in the position.
    IllegalMove,
    /// The game is over: no table holds the position.
    GameOver,
    /// The request names rules other than the tables' (the rule set is
    /// the path's; `ruleset` and `rule` parameters must agree with it).
    RulesetMismatch,
    /// No tables for the rule set.
    NoTables,
    /// The table the position needs is not there.
    MissingTable,
    /// A table is damaged or not readable (the server's fault, not the
    /// request's).
    BadTable,
    /// The request lacks `position` (or `fen`).
    MissingPosition,
    /// The request lacks `square`.
    MissingSquare,
    /// `square` is not a square.
    Square,
    /// No piece stands on the square asked about.
    NoPiece,
    /// The material in the path is not one.
    Material,
    /// A path segment does not parse.
    Path,
    /// The server holds no rule set of that name.
    UnknownRuleset,
    /// No such route.
    NoRoute,
    /// The HTTP method is not one the route answers.
    MethodNotAllowed,
    /// The query string is longer than the server reads.
    QueryTooLong,
    /// A query parameter the route does not know, or one given twice:
    /// refused rather than ignored (`&variant=popular` must not be answered
    /// under the path's rules).
    Parameter,
    /// The server is at its limit of work in progress; try again.
    Overloaded,
    /// The server is shutting down.
    ShuttingDown,
    /// A failure inside the server.
    Internal,
}

impl ErrorKind {
    /// The kind of a probe failure.
    pub fn of(e: &ProbeError) -> ErrorKind {
        match e {
            ProbeError::Position(_) => ErrorKind::ImpossiblePosition,
            ProbeError::Rules(_) => ErrorKind::Rules,
            ProbeError::RulesetMismatch { .. } => ErrorKind::RulesetMismatch,
            ProbeError::GameOver(_) => ErrorKind::GameOver,
            ProbeError::IllegalMove { .. } => ErrorKind::IllegalMove,
            ProbeError::NoTables { .. } => ErrorKind::NoTables,
            ProbeError::Table(TableError::Missing(_)) => ErrorKind::MissingTable,
            ProbeError::Table(_) => ErrorKind::BadTable,
        }
    }

    /// The HTTP status of an answer of this kind: 400 for a request at
    /// fault, 404 for what this server does not hold, 405, 503 for a
    /// server at its limit or stopping, 500 for the server's own failure.
    pub fn status(self) -> u16 {
        match self {
            ErrorKind::Notation
            | ErrorKind::ImpossiblePosition
            | ErrorKind::Rules
            | ErrorKind::IllegalMove
            | ErrorKind::GameOver
            | ErrorKind::RulesetMismatch
            | ErrorKind::MissingPosition
            | ErrorKind::MissingSquare
            | ErrorKind::Square
            | ErrorKind::NoPiece
            | ErrorKind::Material
            | ErrorKind::Path
            | ErrorKind::QueryTooLong
            | ErrorKind::Parameter => 400,
            ErrorKind::NoTables
            | ErrorKind::MissingTable
            | ErrorKind::UnknownRuleset
            | ErrorKind::NoRoute => 404,
            ErrorKind::MethodNotAllowed => 405,
            ErrorKind::Overloaded | ErrorKind::ShuttingDown => 503,
            ErrorKind::BadTable | ErrorKind::Internal => 500,
        }
    }
}

/// A failed answer: `{"error": "...", "kind": "..."}` (with `input` on the
/// lines of `probe --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorAnswer {
    /// The text asked about, as given (`probe --json` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// What went wrong, for people.
    pub error: String,
    /// What went wrong, for programs.
    pub kind: ErrorKind,
}

/// An error and its causes, one sentence: `a: b: c`. A cause whose
/// message the one before already ends with is skipped (errors that wrap
/// another and show its message, as `ProbeError::Position` does).
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut last = s.clone();
    let mut cause = e.source();
    while let Some(c) = cause {
        let m = c.to_string();
        if !last.ends_with(&m) {
            s.push_str(": ");
            s.push_str(&m);
        }
        last = m;
        cause = c.source();
    }
    s
}
