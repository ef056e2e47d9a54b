//! Error types of the rules crate.

use std::fmt;

/// A position's notation could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, and where.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// A well-formed position that cannot occur under the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// A piece stands on a den.
    PieceOnDen(String),
    /// A piece that cannot swim stands in the water.
    PieceInWater(String),
    /// The animal does not take part under these rules.
    AnimalNotInGame(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::PieceOnDen(s) => write!(f, "impossible position: {s}"),
            PositionError::PieceInWater(s) => write!(f, "impossible position: {s}"),
            PositionError::AnimalNotInGame(s) => write!(f, "impossible position: {s}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A rule set could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// No named rule set has this name.
    UnknownRuleset(String),
    /// No option has this name.
    UnknownOption {
        /// The name given.
        option: String,
        /// The names of the options there are.
        known: Vec<&'static str>,
    },
    /// An option was given without `=value`.
    MissingValue {
        /// The option.
        option: String,
        /// Its accepted values.
        allowed: &'static str,
    },
    /// The value is not valid for the option.
    BadOptionValue {
        /// The option.
        option: String,
        /// The rejected value.
        value: String,
        /// Its accepted values.
        allowed: &'static str,
    },
    /// Options that contradict each other.
    Conflict(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownRuleset(n) => write!(
                f,
                "unknown rule set '{n}' (known: standard, leiden, popular)"
            ),
            RulesError::UnknownOption { option, known } => write!(
                f,
                "unknown rule option '{option}' (the options: {})",
                known.join(", ")
            ),
            RulesError::MissingValue { option, allowed } => write!(
                f,
                "rule option '{option}' needs a value: {option}=VALUE, VALUE one of {allowed}"
            ),
            RulesError::BadOptionValue {
                option,
                value,
                allowed,
            } => {
                write!(
                    f,
                    "invalid value '{value}' for rule option '{option}' (allowed: {allowed})"
                )
            }
            RulesError::Conflict(m) => write!(f, "conflicting rule options: {m}"),
        }
    }
}

impl std::error::Error for RulesError {}
