//! `jungletb verify`.

use crate::common::{count, only_materials, thread_pool, CmdResult, TablesArg};
use clap::Args as ClapArgs;
use jungletb_tablebase::{
    table_files, Header, Table, Tablebase, COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
use jungletb_rules::Ruleset;
use jungletb_solver::verify_material;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `verify`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Only print problems and the final summary.
    #[arg(long, short)]
    quiet: bool,
    /// One JSON object per table, then a summary object.
    #[arg(long)]
    json: bool,
    /// Only the table of this material (e.g. ELvR; repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
}

/// The verdict on one file.
struct Verdict {
    /// Positions checked (0 when the file failed before any).
    positions: u64,
    /// `None` if it passed, else what is wrong.
    failure: Option<String>,
    /// What passed means for this file (text output).
    note: String,
    /// Up to ten positions whose stored value disagrees with their
    /// successors: (position, stored, recomputed).
    examples: Vec<(String, String, String)>,
}

impl Verdict {
    fn failed(e: impl std::fmt::Display) -> Verdict {
        Verdict {
            positions: 0,
            failure: Some(e.to_string()),
            note: String::new(),
            examples: Vec::new(),
        }
    }
}

/// Checks one file (see [`run`]).
fn check(
    path: &Path,
    pool: &rayon::ThreadPool,
    bases: &mut BTreeMap<(PathBuf, u64), Tablebase>,
) -> Result<Verdict, String> {
    // The header names the rule set and material; the Tablebase then opens
    // the table once, checksums included.
    let header = match Header::read(path) {
        Ok(h) => h,
        Err(e) => return Ok(Verdict::failed(e)),
    };
    let ext = if header.compressed {
        COMPRESSED_EXTENSION
    } else {
        TABLE_EXTENSION
    };
    let expected_name = format!("{}.{ext}", header.material);
    if path.file_name().and_then(|n| n.to_str()) != Some(expected_name.as_str()) {
        return Ok(Verdict::failed(format!(
            "holds {}, so it must be named {expected_name}",
            header.material
        )));
    }
    let rules = Ruleset::from_canonical_string(&header.ruleset).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let plain_sibling = path.with_extension(TABLE_EXTENSION);
    if header.compressed && plain_sibling.exists() {
        // The plain table beside it is verified on its own; the compressed
        // one must decode to exactly its values.
        let check = Table::open_any(path)
            .and_then(|c| Ok((c, Table::open_any(&plain_sibling)?)))
            .map_err(|e| e.to_string())
            .and_then(|(c, p)| {
                p.same_values(&c)
                    .map_err(|e| e.to_string())
                    .map(|()| p.header().sides)
            });
        return Ok(match check {
            Ok(sides) => Verdict {
                positions: sides.iter().map(|s| s.positions).sum(),
                failure: None,
                note: format!("same values as {}", plain_sibling.display()),
                examples: Vec::new(),
            },
            Err(e) => Verdict::failed(e),
        });
    }
    let tb = bases
        .entry((dir.clone(), rules.id()))
        .or_insert_with(|| Tablebase::with_dir(dir, rules.clone()));
    let material = header.material;
    Ok(match pool.install(|| verify_material(tb, material)) {
        Ok(r) => Verdict {
            positions: r.positions,
            failure: (r.mismatches > 0).then(|| {
                format!(
                    "{} of {} positions disagree with their successors",
                    r.mismatches, r.positions
                )
            }),
            note: format!("{} positions, {}", r.positions, rules.label()),
            examples: r
                .examples
                .into_iter()
                .map(|(p, s, c)| (p, s.to_string(), c.to_string()))
                .collect(),
        },
        Err(e) => Verdict::failed(e),
    })
}

pub fn run(a: Args) -> CmdResult {
    let files = only_materials(
        table_files(&a.tables.path).map_err(|e| e.to_string())?,
        &a.materials,
    )?;
    if files.is_empty() {
        return Err(format!(
            "no table files (*.{TABLE_EXTENSION}, *.{COMPRESSED_EXTENSION}) in '{}'",
            a.tables.path.display()
        ));
    }
    let pool = thread_pool(a.threads)?;
    let mut bad = 0usize;
    let mut checked = 0u64;
    // One Tablebase per (directory, rule set) so sub-tables are shared.
    let mut bases: BTreeMap<(PathBuf, u64), Tablebase> = BTreeMap::new();
    let start = std::time::Instant::now();
    for path in &files {
        let v = check(path, &pool, &mut bases)?;
        checked += v.positions;
        bad += v.failure.is_some() as usize;
        if a.json {
            outln!(
                "{}",
                json!({
                    "file": path.display().to_string(),
                    "ok": v.failure.is_none(),
                    "positions": v.positions,
                    "error": v.failure,
                    "examples": v.examples.iter().map(|(p, s, c)| json!({
                        "position": p, "stored": s, "successors_give": c,
                    })).collect::<Vec<_>>(),
                })
            );
            continue;
        }
        match &v.failure {
            None if a.quiet => {}
            None => outln!("ok   {} ({})", path.display(), v.note),
            Some(e) => {
                outln!("FAIL {}: {e}", path.display());
                for (pos, stored, computed) in &v.examples {
                    outln!("     {pos}: stored {stored}, successors give {computed}");
                }
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        outln!(
            "{}",
            json!({ "tables": files.len(), "positions": checked, "failed": bad, "seconds": seconds })
        );
    } else {
        outln!(
            "{}, {} positions checked, {} failed, {:.2} s",
            count(files.len(), "table", "tables"),
            checked,
            bad,
            seconds
        );
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
