//! What the command line adds to an error: the whole cause chain in one
//! line, and a hint naming the command or option that helps. The libraries
//! carry data (paths, materials, rule sets) and never name a command; the
//! advice is given here, at the edge.

use jungletb_solver::SolveError;
use jungletb_tablebase::{ProbeError, TableError, Unsupported};
use std::error::Error;
use std::path::Path;

pub use jungletb_wire::chain;

/// A hint for the first error in `e`'s chain that has one.
pub fn hint_for(e: &(dyn Error + 'static)) -> Option<String> {
    let mut cur: Option<&(dyn Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(h) = hint_one(err) {
            return Some(h);
        }
        cur = err.source();
    }
    None
}

/// The hint for `e` itself, if it has one.
fn hint_one(e: &(dyn Error + 'static)) -> Option<String> {
    if let Some(p) = e.downcast_ref::<ProbeError>() {
        return match p {
            ProbeError::NoTables { ruleset, dir, .. } => {
                Some(nested_hint(dir, ruleset).unwrap_or_else(|| {
                    format!(
                        "make them with `jungletb generate {} --out {}`, or point --tables (or \
                         JUNGLETB_TABLES) at the directory that holds them",
                        ruleset_args(ruleset),
                        dir.parent().unwrap_or(dir).display()
                    )
                }))
            }
            ProbeError::Table(t) => table_hint(t),
            _ => None,
        };
    }
    if let Some(t) = e.downcast_ref::<TableError>() {
        return table_hint(t);
    }
    if let Some(s) = e.downcast_ref::<SolveError>() {
        return match s {
            SolveError::Table(t) => table_hint(t),
            SolveError::Probe(p) => hint_one(p),
            SolveError::MemoryTooSmall { need, .. } => {
                Some(format!("give --mem at least {need} bytes"))
            }
            SolveError::NoSpace {
                dir,
                need,
                available,
                ..
            } => Some(format!(
                "free at least {} in {} (or give --out another disk); if its file system stores \
                 tables in less than their size (compression), --no-space-check solves anyway",
                crate::output::human_bytes(need - available),
                dir.display()
            )),
            SolveError::SpaceUnknown { .. } => Some(
                "--no-space-check solves without the check (a disk that fills up then fails the \
                 write of the table being made; finished tables are kept)"
                    .into(),
            ),
            SolveError::NoPlainTables { .. } => Some(
                "compress writes a .jtbz from its .jtb and keeps the .jtb: nothing is left to do \
                 here; a damaged .jtbz is written again from its .jtb (`jungletb generate` \
                 makes the .jtb again where it was removed)"
                    .into(),
            ),
            SolveError::NoTables { .. } => Some(
                "point --tables (or JUNGLETB_TABLES) at a tables root or one rule set's \
                 directory; `jungletb generate` makes tables"
                    .into(),
            ),
            _ => None,
        };
    }
    None
}

/// The hint for tables of rule set `wanted` looked for in `missing`
/// (`<root>/<label>`) when `<root>` is itself one rule set's directory:
/// the tables root is its parent, and making tables under `<root>` would
/// nest one rule set's folder in another's.
pub fn nested_hint(missing: &Path, wanted: &str) -> Option<String> {
    let inner = missing.parent()?;
    let holds = jungletb_tablebase::ruleset_of_dir(inner)?.label();
    let root = inner.parent().filter(|p| !p.as_os_str().is_empty());
    let root = root.map_or_else(|| ".".to_string(), |p| p.display().to_string());
    Some(format!(
        "'{}' is the folder of the {holds} tables: for {wanted}, point --tables at the \
         tables root '{root}' (tables of {wanted} made inside it would nest one rule set's \
         folder in another's), or use {} for its own",
        inner.display(),
        ruleset_args(&holds)
    ))
}

/// `--ruleset NAME`, or what to pass for a custom rule set's label.
fn ruleset_args(label: &str) -> String {
    if jungletb_rules::Ruleset::by_name(label).is_ok() {
        format!("--ruleset {label}")
    } else {
        "--ruleset … --rule …  (the options of that rule set)".into()
    }
}

fn table_hint(t: &TableError) -> Option<String> {
    match t {
        TableError::Missing(path) => {
            let material = path.file_stem()?.to_str()?;
            let root = path.parent().and_then(Path::parent)?;
            Some(format!(
                "generate it (and the smaller tables it needs) with `jungletb generate \
                 --material {material} --out {}` and the same --ruleset/--rule options, or \
                 point --tables (or JUNGLETB_TABLES) at the tables",
                root.display()
            ))
        }
        TableError::NeedsSearch(_) => Some(
            "probe it with the tables its captures lead into beside it, or write it with \
             `jungletb compress --no-dont-cares`"
                .into(),
        ),
        TableError::Truncated { path, .. }
        | TableError::ChecksumMismatch { path, .. }
        | TableError::Corrupt { path, .. }
        | TableError::WrongMaterial { path, .. } => Some(damaged_hint(path)),
        TableError::NotATable(path) => Some(damaged_hint(path)),
        TableError::UnsupportedVersion {
            what: Unsupported::OldCompressedPayload,
            ..
        } => Some(
            "rewrite it with `jungletb compress` from the plain table (or `jungletb \
             generate` then `jungletb compress`)"
                .into(),
        ),
        TableError::UnsupportedVersion { .. } => Some(
            "regenerate it with `jungletb generate` (plain tables) or rewrite it with \
             `jungletb compress` (compressed ones)"
                .into(),
        ),
        _ => None,
    }
}

/// Writes an error and, if there is one, its hint to standard error: the
/// one shape every command's errors take.
pub fn eprint_error(message: &str, hint: Option<String>) {
    errln!("jungletb: error: {message}");
    if let Some(hint) = hint {
        errln!("hint: {hint}");
    }
}

/// Writes the `FAIL` line of one table of a run over many (`verify`,
/// `compress`) and its hint to standard output, where the run's other
/// lines go.
pub fn print_failure(path: &Path, e: &(dyn Error + 'static), hint: Option<String>) {
    outln!("FAIL {}: {}", path.display(), chain(e));
    if let Some(hint) = hint {
        outln!("     hint: {hint}");
    }
}

/// [`hint_for`] of a table `compress` could not write: a missing capture
/// table is explained with `--no-dont-cares` when don't-cares were asked.
pub fn compress_hint(dont_cares: bool, error: &SolveError) -> Option<String> {
    match error {
        SolveError::Probe(ProbeError::Table(TableError::Missing(p))) if dont_cares => {
            Some(format!(
                "{} is missing: the tables its captures lead into must be beside a table to \
                 compress it with don't-cares; pass --no-dont-cares to store every value instead",
                p.display()
            ))
        }
        e => hint_for(e),
    }
}

/// When the most memory-hungry material of `plan` needs more than this
/// machine has (and no `--mem` bounds it), what to do: a `--mem` that keeps
/// its working arrays in files, and the least that still needs in memory.
pub fn memory_advice(plan: &jungletb_solver::Plan) -> Option<String> {
    memory_advice_for(plan, jungletb_solver::machine_memory()?)
}

/// [`memory_advice`] on a machine of `machine` bytes.
fn memory_advice_for(plan: &jungletb_solver::Plan, machine: u64) -> Option<String> {
    let largest = plan.largest()?;
    if largest.memory_bytes <= machine {
        return None;
    }
    let least = jungletb_solver::minimum_memory(largest.slots);
    let human = crate::output::human_bytes;
    let head = format!(
        "{} needs about {} of memory, more than this machine's {}",
        largest.material,
        human(largest.memory_bytes),
        human(machine)
    );
    Some(if least > machine {
        format!(
            "{head}, and even with its working arrays in files (--mem) it needs {}: it cannot \
             be solved here",
            human(least)
        )
    } else {
        // Three quarters of the machine: room for the page cache the
        // files are read through.
        format!(
            "{head}: `--mem {}M` keeps its working arrays in files beside the tables (slower; \
             at least {} stays in memory)",
            (machine * 3 / 4) >> 20,
            human(least)
        )
    })
}

/// What to do about a damaged table at `path`: the command that replaces
/// it, which keeps the damaged file aside.
fn damaged_hint(path: &Path) -> String {
    let compressed = path
        .extension()
        .is_some_and(|x| x == jungletb_tablebase::COMPRESSED_EXTENSION);
    let dir = path.parent().unwrap_or(Path::new("."));
    let root = dir.parent().unwrap_or(Path::new("."));
    if compressed {
        format!(
            "the file is damaged: `jungletb compress --tables {}` writes it again from its plain \
             table, which must be there (the damaged copy is replaced)",
            dir.display()
        )
    } else {
        let material = path.file_stem().and_then(|s| s.to_str()).unwrap_or("…");
        format!(
            "the file is damaged: `jungletb generate --out {} --material {material}` with the same \
             --ruleset/--rule options renames it aside (*.invalid-N, never deleted) and solves it \
             again",
            root.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_beyond_the_machines_memory_names_the_mem_that_runs_it() {
        let dir = tempfile::tempdir().unwrap();
        let list = jungletb_indexer::Material::with_dependencies(&["ELTvELT".parse().unwrap()]);
        let rules = jungletb_rules::Ruleset::standard();
        let cal = jungletb_solver::Calibration::default();
        let plan = jungletb_solver::Plan::new(dir.path(), &rules, list, cal).unwrap();
        // About 5.9 GiB at the peak; at the least the buckets of a round
        // and 64 MiB (a few hundred MB on a few threads).
        assert_eq!(memory_advice_for(&plan, 8 << 30), None);
        let four = memory_advice_for(&plan, 4 << 30).expect("advice on 4 GiB");
        assert!(
            four.starts_with("ELTvELT needs about") && four.contains("`--mem 3072M`"),
            "{four}"
        );
        let tiny = memory_advice_for(&plan, 128 << 20).expect("advice on 128 MiB");
        assert!(tiny.contains("cannot be solved here"), "{tiny}");
    }

    #[test]
    fn a_damaged_table_names_the_command_that_replaces_it() {
        let plain = TableError::ChecksumMismatch {
            path: "/t/standard/ELvR.jtb".into(),
            part: "payload",
        };
        let hint = hint_for(&plain).expect("a hint");
        assert!(
            hint.contains("jungletb generate --out /t --material ELvR") && hint.contains("aside"),
            "{hint}"
        );
        let packed = TableError::Truncated {
            path: "/t/standard/ELvR.jtbz".into(),
            expected: 10,
            found: 5,
        };
        let hint = hint_for(&packed).expect("a hint");
        assert!(
            hint.contains("jungletb compress --tables /t/standard"),
            "{hint}"
        );
    }

    /// The library says what is old as data; the remedy is the CLI's.
    #[test]
    fn an_old_compressed_payload_is_to_be_compressed_again() {
        let old = TableError::UnsupportedVersion {
            path: "/t/standard/ELvR.jtbz".into(),
            what: Unsupported::OldCompressedPayload,
        };
        assert!(!old.to_string().contains("`jungletb"), "{old}");
        let hint = hint_for(&old).expect("a hint");
        assert!(hint.contains("`jungletb compress`"), "{hint}");
    }

    /// The free space that cannot be read stops `generate` before solving;
    /// the way on is the option that skips the check.
    #[test]
    fn free_space_that_cannot_be_read_points_at_no_space_check() {
        let e = SolveError::SpaceUnknown {
            dir: "/t/standard".into(),
            source: std::io::Error::from_raw_os_error(38),
        };
        assert!(chain(&e).starts_with("/t/standard: reading the free space failed"));
        let hint = hint_for(&e).expect("a hint");
        assert!(hint.contains("--no-space-check"), "{hint}");
    }
}
