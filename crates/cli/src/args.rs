//! Command-line options shared by several commands, and how they are read:
//! tables, rule sets, materials, byte counts, worker threads.

use anyhow::{anyhow, Context};
use clap::Args;
use jungletb_rules::Ruleset;
use jungletb_tablebase::Header;
use std::path::{Path, PathBuf};

/// Where the tables are: `--tables DIR` or `JUNGLETB_TABLES`.
#[derive(Args, Debug, Clone)]
pub struct TablesArg {
    /// Tables root directory (one directory per rule set in it), or one rule
    /// set's directory.
    #[arg(
        long = "tables",
        default_value = "tables",
        env = "JUNGLETB_TABLES",
        value_name = "DIR",
        global = true
    )]
    pub path: PathBuf,
}

/// The rule set to use: a named one plus overrides.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule set: standard, leiden or popular, or the label of a custom rule
    /// set's directory (default: standard, or the rule set of the tables
    /// when --tables names one rule set's directory).
    #[arg(long, value_name = "NAME", global = true)]
    pub ruleset: Option<String>,
    /// Override one rule option, e.g. --rule universal_traps=true (repeatable).
    #[arg(long = "rule", value_name = "KEY=VALUE", global = true)]
    pub rules: Vec<String>,
}

impl RulesArgs {
    /// The resolved rule set.
    pub fn resolve(&self) -> anyhow::Result<Ruleset> {
        self.resolve_in(None)
    }

    /// The resolved rule set; `--ruleset` may also name the directory of a
    /// custom rule set under the tables root `tables` (e.g.
    /// `standard-custom-0123456789abcdef`): its options are read from a
    /// table's header there.
    pub fn resolve_in(&self, tables: Option<&Path>) -> anyhow::Result<Ruleset> {
        let mut r = match &self.ruleset {
            // Not given: the rule set of the tables when --tables is one
            // rule set's directory, else standard.
            None => tables
                .and_then(jungletb_tablebase::ruleset_of_dir)
                .unwrap_or_else(Ruleset::standard),
            Some(name) => match Ruleset::by_name(name) {
                Ok(r) => r,
                Err(e) => {
                    match tables.and_then(|t| jungletb_tablebase::ruleset_of_label(t, name)) {
                        Some(r) => r,
                        None => return Err(e.into()),
                    }
                }
            },
        };
        for kv in &self.rules {
            r.apply_override(kv)?;
        }
        r.check_supported()?;
        Ok(r)
    }

    /// The `--ruleset`/`--rule` arguments that select this rule set again
    /// (for hints naming a command to run).
    pub fn command_args(&self) -> String {
        let mut s = format!("--ruleset {}", self.name());
        for kv in &self.rules {
            s.push_str(&format!(" --rule {kv}"));
        }
        s
    }
}

impl RulesArgs {
    /// The directory a command that works on every rule set by default
    /// works on: `tables` itself, or the rule set's directory under it when
    /// `--ruleset` or `--rule` is given.
    pub fn directory_under(&self, tables: &Path) -> anyhow::Result<std::path::PathBuf> {
        if self.ruleset.is_none() && self.rules.is_empty() {
            return Ok(tables.to_path_buf());
        }
        let rules = self.resolve_in(Some(tables))?;
        Ok(jungletb_tablebase::find_table_dir(tables, &rules))
    }

    /// The `--ruleset` given, or `standard`.
    pub fn name(&self) -> &str {
        self.ruleset.as_deref().unwrap_or("standard")
    }
}

/// Parses `--material` arguments (any colour order).
pub fn parse_materials(materials: &[String]) -> anyhow::Result<Vec<jungletb_indexer::Material>> {
    materials
        .iter()
        .map(|s| {
            s.parse::<jungletb_indexer::Material>()
                .with_context(|| format!("--material {s}"))
        })
        .collect()
}

/// The error type of commands: a message for the user.
pub type CmdResult = anyhow::Result<std::process::ExitCode>;

/// A worker pool of `threads` threads (default: all cores).
pub fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t.max(1));
    }
    Ok(pool.build()?)
}

/// Parses a byte count with an optional binary suffix: `1048576`, `512K`,
/// `64M`, `4G`, `1T` (also `KiB`, `MB`, … : all binary multiples).
pub fn parse_bytes(text: &str) -> Result<u64, ByteCountError> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, suffix) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| ByteCountError::NotANumber(text.into()))?;
    let shift = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(ByteCountError::UnknownUnit {
                text: text.into(),
                unit: suffix.into(),
            })
        }
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| ByteCountError::TooLarge(text.into()))
}

/// A `--mem` or `--node-mem` value that is not a byte count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByteCountError {
    /// No number in front.
    NotANumber(String),
    /// A unit other than B, K, M, G, T (with or without `iB`).
    UnknownUnit {
        /// The whole value.
        text: String,
        /// The unit.
        unit: String,
    },
    /// More than 2^64 bytes.
    TooLarge(String),
}

impl std::fmt::Display for ByteCountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ByteCountError::NotANumber(t) => {
                write!(f, "'{t}' is not a byte count (e.g. 4G, 512M, 1048576)")
            }
            ByteCountError::UnknownUnit { text, unit } => {
                write!(f, "'{text}': unknown unit '{unit}' (use K, M, G or T)")
            }
            ByteCountError::TooLarge(t) => write!(f, "'{t}' is too large"),
        }
    }
}

impl std::error::Error for ByteCountError {}

/// Output and work options of the whole-table scans (`zugzwangs`,
/// `compare-rules`, `puzzles`).
#[derive(Args, Debug, Clone)]
pub struct ScanArgs {
    /// JSON lines instead of text: zugzwangs and compare-rules write one
    /// object per material, then one per piece count; puzzles one per
    /// puzzle, with its solution and line.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

/// What a scan over tables works on: the rules (`rule_args` read in
/// `tables`), their tables, and the materials asked for (every table if
/// none; see [`materials_in`]).
pub fn scan_tables(
    tables: &TablesArg,
    rule_args: &RulesArgs,
    materials: &[String],
) -> anyhow::Result<(
    Ruleset,
    jungletb_tablebase::Tablebase,
    Vec<jungletb_indexer::Material>,
)> {
    let rules = rule_args.resolve_in(Some(&tables.path))?;
    let dir = jungletb_tablebase::find_table_dir(&tables.path, &rules);
    let list = materials_in(&dir, &rules, rule_args, materials)?;
    let tb = jungletb_tablebase::Tablebase::with_dir(dir, rules.clone());
    Ok((rules, tb, list))
}

/// The materials with a table (plain or compressed) of `rules` in `dir`,
/// sorted by piece count then name; only `materials` if given (an unknown
/// name, or one without a table, is an error).
pub fn materials_in(
    dir: &Path,
    rules: &Ruleset,
    rule_args: &RulesArgs,
    materials: &[String],
) -> anyhow::Result<Vec<jungletb_indexer::Material>> {
    if !dir.is_dir() {
        return Err(anyhow!(
            "no tables of rule set '{}': '{}' is not a directory (make them with `jungletb \
             generate {} --out {}`)",
            rules.label(),
            dir.display(),
            rule_args.command_args(),
            dir.parent().unwrap_or(dir).display()
        ));
    }
    let files = jungletb_solver::select_files(dir, &parse_materials(materials)?)?;
    let mut out = Vec::new();
    for f in &files {
        let h = Header::read(f)?;
        h.check_ruleset(rules, f)?;
        out.push(h.material);
    }
    out.sort_by_key(|m| (m.piece_count(), m.to_string()));
    out.dedup();
    if out.is_empty() {
        return Err(if materials.is_empty() {
            anyhow!("no tables in '{}'", dir.display())
        } else {
            anyhow!(
                "no table of {} in '{}'",
                materials.join(", "),
                dir.display()
            )
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_parse_with_binary_units() {
        assert_eq!(parse_bytes("1048576"), Ok(1 << 20));
        assert_eq!(parse_bytes("512K"), Ok(512 << 10));
        assert_eq!(parse_bytes("4G"), Ok(4 << 30));
        assert_eq!(parse_bytes("64 MiB"), Ok(64 << 20));
        assert!(parse_bytes("four").is_err());
        assert!(parse_bytes("4X").is_err());
        assert!(parse_bytes("99999999999T").is_err());
    }
}
