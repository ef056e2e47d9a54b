//! `jungletb compress`: the compressed distribution form of table files.

use crate::common::{human_bytes, only_materials, thread_pool, CmdResult, TablesArg};
use clap::Args as ClapArgs;
use jungletb_format::compressed::DEFAULT_ZSTD_LEVEL;
use jungletb_tablebase::{
    compressed_table_path, table_files, write_compressed_table, CompressedSizes, Table, Tablebase,
    TablebaseOptions, TABLE_EXTENSION,
};
use jungletb_rules::Ruleset;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Arguments of `compress`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    /// Where to write the compressed tables (mirroring the rule-set
    /// directories); default: beside the originals, which are kept.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// zstd level of the distance blocks (1-22: higher is smaller and
    /// slower to write; reading speed hardly changes).
    #[arg(long, default_value_t = DEFAULT_ZSTD_LEVEL, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
    /// Store every position's value as it is, with no don't-cares. By
    /// default, positions whose value a capture or an entry into the den
    /// already reaches store whatever value compresses best, and probes
    /// recover them by searching those moves (which needs the tables the
    /// captures lead into beside this one, here and when probing).
    #[arg(long)]
    no_dont_cares: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Only print problems and the final summary.
    #[arg(long, short)]
    quiet: bool,
    /// Only the table of this material (e.g. ELvR; repeatable).
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
}

/// Totals over the tables compressed.
#[derive(Default)]
struct Totals {
    tables: AtomicU64,
    kept: AtomicU64,
    positions: AtomicU64,
    plain_bytes: AtomicU64,
    bytes: AtomicU64,
    wdl_bytes: AtomicU64,
    dtm_bytes: AtomicU64,
}

pub fn run(a: Args) -> CmdResult {
    let files = only_materials(
        table_files(&a.tables.path).map_err(|e| e.to_string())?,
        &a.materials,
    )?;
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some(TABLE_EXTENSION))
        .collect();
    if files.is_empty() {
        return Err(format!(
            "no table files (*.{TABLE_EXTENSION}) in '{}'",
            a.tables.path.display()
        ));
    }
    let pool = thread_pool(a.threads)?;
    // The plain tables of each rule-set directory, for the search that
    // finds the positions a capture decides.
    let mut searches: HashMap<PathBuf, Tablebase> = HashMap::new();
    if !a.no_dont_cares {
        for path in &files {
            let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
            if searches.contains_key(&dir) {
                continue;
            }
            let table = Table::open_any(path).map_err(|e| e.to_string())?;
            let rules = Ruleset::from_canonical_string(&table.header().ruleset)
                .map_err(|e| format!("{}: rule set: {e}", path.display()))?;
            // Maps capped: the search reads every plain table once, and
            // keeping them all mapped would count the whole set (page
            // cache) in the resident size.
            let options = TablebaseOptions {
                max_mapped_bytes: 1 << 30,
                ..TablebaseOptions::default()
            };
            searches.insert(
                dir.clone(),
                Tablebase::with_dir_and_options(dir, rules, options),
            );
        }
    }
    let totals = Totals::default();
    let failures = Mutex::new(Vec::new());
    let start = std::time::Instant::now();
    pool.install(|| {
        files.par_iter().for_each(|path| {
            let out_dir = output_dir(path, &a.tables.path, a.out.as_deref());
            let search = path.parent().and_then(|d| searches.get(d));
            match compress_one(path, &out_dir, a.level, search, &totals) {
                Ok(line) => {
                    if !a.quiet {
                        outln!("{line}");
                    }
                }
                Err(e) => {
                    outln!("FAIL {e}");
                    failures.lock().expect("no panics while held").push(e);
                }
            }
        })
    });
    let t = |x: &AtomicU64| x.load(Relaxed);
    let positions = t(&totals.positions).max(1) as f64;
    outln!(
        "{} tables ({} compressed now, {} already done), {} positions: {} -> {} ({:.2} %), \
         WDL {:.4} + DTM {:.4} = {:.4} bytes/position, {:.1} s",
        t(&totals.tables) + t(&totals.kept),
        t(&totals.tables),
        t(&totals.kept),
        t(&totals.positions),
        human_bytes(t(&totals.plain_bytes)),
        human_bytes(t(&totals.bytes)),
        100.0 * t(&totals.bytes) as f64 / t(&totals.plain_bytes).max(1) as f64,
        t(&totals.wdl_bytes) as f64 / positions,
        t(&totals.dtm_bytes) as f64 / positions,
        t(&totals.bytes) as f64 / positions,
        start.elapsed().as_secs_f64()
    );
    let failed = failures.into_inner().expect("no panics while held").len();
    if failed > 0 {
        return Err(format!("{failed} tables could not be compressed"));
    }
    Ok(ExitCode::SUCCESS)
}

/// The directory a table's compressed form goes to.
fn output_dir(path: &Path, root: &Path, out: Option<&Path>) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    match out {
        None => dir,
        Some(out) => match dir.strip_prefix(root) {
            Ok(rel) => out.join(rel),
            Err(_) => out.to_path_buf(),
        },
    }
}

/// Compresses one table (unless a valid compressed form with the same
/// header and the same choice of don't-cares is there already) and checks
/// that it answers the same values. With `search` (the plain tables of the
/// table's directory), positions a capture decides become don't-cares.
fn compress_one(
    path: &Path,
    out_dir: &Path,
    level: i32,
    search: Option<&Tablebase>,
    totals: &Totals,
) -> Result<String, String> {
    let plain = Table::open_any(path).map_err(|e| e.to_string())?;
    let header = plain.header();
    let target = compressed_table_path(out_dir, header.material);
    let positions: u64 = header.sides.iter().map(|s| s.positions).sum();
    let add = |c: &Table, sizes: Option<CompressedSizes>| {
        totals.positions.fetch_add(positions, Relaxed);
        totals.plain_bytes.fetch_add(plain.file_len(), Relaxed);
        totals.bytes.fetch_add(c.file_len(), Relaxed);
        if let Some(s) = sizes {
            totals.wdl_bytes.fetch_add(s.wdl_bytes, Relaxed);
            totals.dtm_bytes.fetch_add(s.dtm_bytes, Relaxed);
        }
    };
    remove_leftovers(out_dir, &header.material.to_string())?;
    // Resumable: a complete compressed table of the same source is kept.
    if let Ok(existing) = Table::open_any(&target) {
        let same = {
            let (h, e) = (plain.header(), existing.header());
            e.compressed
                && h.ruleset == e.ruleset
                && h.material == e.material
                && h.sides == e.sides
                && existing.has_dont_cares() == search.is_some()
        };
        if same {
            add(&existing, existing.compressed_sizes());
            totals.kept.fetch_add(1, Relaxed);
            return Ok(format!("kept {}", target.display()));
        }
    }
    let (stats, sizes) =
        write_compressed_table(out_dir, &plain, level, search).map_err(|e| match search {
            Some(_) => format!(
                "{e} (to compress a table without the tables its captures lead into, \
                 pass --no-dont-cares)"
            ),
            None => e.to_string(),
        })?;
    let written = Table::open_any(&stats.path).map_err(|e| e.to_string())?;
    let same = match search {
        Some(tb) => tb.same_answers(&plain, &written),
        None => plain.same_values(&written).map_err(Into::into),
    };
    if let Err(e) = same {
        // Keep the evidence, never a wrong table under a table's name.
        let bad = PathBuf::from(format!("{}.invalid", stats.path.display()));
        let _ = std::fs::rename(&stats.path, &bad);
        return Err(format!(
            "{}: {e} (moved to {})",
            stats.path.display(),
            bad.display()
        ));
    }
    add(&written, Some(sizes));
    totals.tables.fetch_add(1, Relaxed);
    Ok(format!(
        "ok   {} ({} -> {}, WDL {:.4} + DTM {:.4} bytes/position)",
        stats.path.display(),
        human_bytes(plain.file_len()),
        human_bytes(stats.bytes),
        sizes.wdl_bytes as f64 / positions.max(1) as f64,
        sizes.dtm_bytes as f64 / positions.max(1) as f64,
    ))
}

/// Removes the temporary files (`.<MATERIAL>.*.tmp`) a killed run left while
/// writing this material's compressed table. (Two `compress` runs writing
/// the same material into the same directory at once are not supported: one
/// of them then fails with an I/O error; no table is lost.)
fn remove_leftovers(dir: &Path, material: &str) -> Result<(), String> {
    let prefix = format!(".{material}.");
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(()); // not created yet: nothing left there
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".tmp") && e.path().is_file() {
            std::fs::remove_file(e.path())
                .map_err(|err| format!("{}: {err}", e.path().display()))?;
        }
    }
    Ok(())
}
