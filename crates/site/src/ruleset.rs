//! One rule set's part of a site, `<label>/`: its tables (compressed
//! into the site where the tables directory has them plain only), a page
//! and the statistics of each material, its puzzles, exercises, index and
//! downloads, and its entry in the site's list of rule sets.

use crate::pages::{self, MaterialPage};
use crate::{io, write, Manifest, SiteError, TableEntry};
use jungletb_analysis::histogram::histogram;
use jungletb_analysis::zugzwang;
use jungletb_indexer::Material;
use jungletb_rules::{Position, Ruleset};
use jungletb_tablebase::{ProbeError, TableError, Tablebase};
use jungletb_wire::{MaterialStats, RulesetEntry};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The tables of one rule set to build a site's part from.
pub(crate) struct RulesetSource<'a> {
    /// Its tables directory.
    pub(crate) dir: &'a Path,
    /// Its rules.
    pub(crate) rules: &'a Ruleset,
    /// Its materials, in the order of its pages.
    pub(crate) materials: Vec<Material>,
    /// Its tables.
    tb: Tablebase,
}

impl<'a> RulesetSource<'a> {
    /// The tables of `rules` in `dir`.
    pub(crate) fn new(dir: &'a Path, rules: &'a Ruleset) -> Result<Self, SiteError> {
        let tb = Tablebase::with_dir(dir.to_path_buf(), rules.clone());
        let mut materials: Vec<Material> = tb.materials();
        if materials.is_empty() {
            return Err(SiteError::NoTables(dir.to_path_buf()));
        }
        materials.sort_by_key(|m| (m.piece_count(), m.to_string()));
        Ok(RulesetSource {
            dir,
            rules,
            materials,
            tb,
        })
    }
}

/// What one rule set's part of a site holds.
pub(crate) struct RulesetBuilt {
    /// Its entry in `rulesets.json`.
    pub(crate) entry: RulesetEntry,
    /// Materials with a page.
    pub(crate) materials: usize,
    /// Bytes of its table files.
    pub(crate) table_bytes: u64,
    /// Bytes of everything else it wrote.
    pub(crate) other_bytes: u64,
}

/// Writes the part of the site `out` of the rule set of `src`, calling
/// `progress()` as each material is done; removes what an earlier build
/// of it served and this one does not.
pub(crate) fn build_ruleset(
    src: &RulesetSource<'_>,
    out: &Path,
    progress: &(dyn Fn() + Sync),
) -> Result<RulesetBuilt, SiteError> {
    let (dir, rules, tb) = (src.dir, src.rules, &src.tb);
    let label = rules.label();
    let site_dir = out.join(&label);
    compress_plain(dir, &site_dir, out, &src.materials)?;
    let pages: Vec<MaterialPage> = src
        .materials
        .par_iter()
        .map(|&m| {
            let page = material_page(tb, dir, &site_dir, m);
            progress();
            page
        })
        .collect::<Result<_, _>>()?;
    let mut other = 0u64;
    let mut table_bytes = 0u64;
    let base = site_dir.join("materials");
    for p in &pages {
        let m = &p.table.material;
        place_table(
            &served_file(dir, &site_dir, m.parse().expect("a material")),
            &site_dir.join(&p.table.file),
        )?;
        table_bytes += p.table.bytes;
        other += write(&base.join(format!("{m}.svg")), &p.svg)?;
        other += write(&base.join(format!("{m}.json")), json(&p.stats))?;
        other += write(&base.join(format!("{m}.html")), pages::material(rules, p))?;
    }
    let manifest = Manifest {
        ruleset: label.clone(),
        tables: pages.iter().map(|p| p.table.clone()).collect(),
    };
    let mut files: Vec<(&str, String)> = vec![
        ("manifest.json", json(&manifest)),
        ("board.json", json(&jungletb_wire::BoardAnswer::new(rules))),
        (
            "stats.json",
            json(&pages.iter().map(|p| &p.stats).collect::<Vec<_>>()),
        ),
    ];
    let mut puzzles: Vec<&jungletb_wire::PuzzleAnswer> =
        pages.iter().flat_map(|p| &p.puzzles).collect();
    puzzles.sort_by_key(|p| std::cmp::Reverse(p.plies));
    puzzles.truncate(PUZZLES_LISTED);
    files.push(("puzzles.json", json(&puzzles)));
    let exercises: Vec<&jungletb_wire::ExerciseAnswer> =
        pages.iter().flat_map(|p| &p.exercises).collect();
    files.push(("exercises.json", json(&exercises)));
    files.push(("index.html", pages::index(rules, &pages)));
    files.push(("puzzles.html", pages::puzzles(rules, &puzzles)));
    files.push(("train.html", pages::train(rules, &pages)));
    files.push(("downloads.html", pages::downloads(rules, &pages)));
    for (name, text) in &files {
        other += write(&site_dir.join(name), text)?;
    }
    // What an earlier build served and this one does not.
    let mut keep: BTreeSet<String> = pages.iter().map(|p| p.table.file.clone()).collect();
    keep.extend(files.iter().map(|(name, _)| name.to_string()));
    prune(&site_dir, &keep)?;
    let pages_kept = pages
        .iter()
        .flat_map(|p| {
            let m = &p.table.material;
            ["svg", "json", "html"].map(|ext| format!("{m}.{ext}"))
        })
        .collect();
    prune(&base, &pages_kept)?;
    Ok(RulesetBuilt {
        entry: ruleset_entry(tb, rules),
        materials: pages.len(),
        table_bytes,
        other_bytes: other,
    })
}

/// `value` as JSON.
pub(crate) fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("serialisable")
}

/// The entry of `rules` in `rulesets.json`, as the server's
/// `/api/rulesets` lists it, with its base and options.
fn ruleset_entry(tb: &Tablebase, rules: &Ruleset) -> RulesetEntry {
    let label = rules.label();
    let mut entry = RulesetEntry::new(label.clone(), Some(&tb.coverage()));
    // The label starts with the base's name (`popular-custom-…`).
    entry.base = Some(
        label
            .split("-custom-")
            .next()
            .unwrap_or("standard")
            .to_string(),
    );
    entry.options = Some(
        rules
            .options()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    );
    entry
}

/// Only-move puzzles shown a material.
const PUZZLES_PER_MATERIAL: usize = 3;
/// Zugzwangs of each kind shown a material.
const ZUGZWANGS_PER_KIND: usize = 5;
/// Puzzles on `puzzles.html`, the deepest of all materials.
const PUZZLES_LISTED: usize = 60;

/// SHA-256 of a file, in hex.
fn sha256(path: &Path) -> Result<String, SiteError> {
    let mut f = std::fs::File::open(path).map_err(io(path))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(io(path))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The table file a material is served from: its compressed file in the
/// tables directory `dir`, else the one compressed into the site's
/// `site_dir`, else (a table a build could not compress) its plain file.
fn served_file(dir: &Path, site_dir: &Path, m: Material) -> PathBuf {
    [dir, site_dir]
        .into_iter()
        .map(|d| jungletb_tablebase::compressed_table_path(d, m))
        .find(|p| p.exists())
        .unwrap_or_else(|| jungletb_tablebase::table_path(dir, m))
}

/// Compresses into the site `out` every table of `materials` that `dir`
/// holds plain only and the site does not hold compressed yet.
fn compress_plain(
    dir: &Path,
    site_dir: &Path,
    out: &Path,
    materials: &[Material],
) -> Result<(), SiteError> {
    let plain: Vec<Material> = materials
        .iter()
        .copied()
        .filter(|&m| !served_file(dir, site_dir, m).ends_with(format!("{m}.jtbz")))
        .collect();
    if plain.is_empty() {
        return Ok(());
    }
    let opts = jungletb_solver::CompressOptions {
        tables: dir.to_path_buf(),
        out: Some(out.to_path_buf()),
        zstd_level: jungletb_format::compressed::DEFAULT_ZSTD_LEVEL,
        dont_cares: true,
        materials: plain.clone(),
    };
    let report =
        jungletb_solver::compress(&opts, &|_| {}).map_err(|source| SiteError::Compress {
            path: dir.to_path_buf(),
            source,
        })?;
    if let Some((path, source)) = report.failed.into_iter().next() {
        return Err(SiteError::Compress { path, source });
    }
    Ok(())
}

/// Removes from `dir` the files (not directories, nor names starting with
/// a dot) whose names `keep` does not hold: what an earlier build served
/// and this one does not.
pub(crate) fn prune(dir: &Path, keep: &BTreeSet<String>) -> Result<(), SiteError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        if is_file && !name.starts_with('.') && !keep.contains(&name) {
            std::fs::remove_file(e.path()).map_err(io(&e.path()))?;
        }
    }
    Ok(())
}

/// The page of canonical material `m`.
fn material_page(
    tb: &Tablebase,
    dir: &Path,
    site_dir: &Path,
    m: Material,
) -> Result<MaterialPage, SiteError> {
    let path = served_file(dir, site_dir, m);
    let bytes = std::fs::metadata(&path).map_err(io(&path))?.len();
    let table = tb.table(m)?;
    let hist = histogram(tb, m)?;
    let stats = MaterialStats::new(table.header(), Some(bytes), Some(&hist));
    let svg = jungletb_analysis::svg::histogram_svg(m, &hist);
    let longest = [&stats.white_to_move, &stats.black_to_move]
        .into_iter()
        .filter_map(|s| s.longest_win_example.clone().flatten())
        .max_by_key(|e| e.plies);
    let longest = match longest {
        Some(e) => {
            let pos: Position = e.position.parse().map_err(|err| {
                SiteError::Probe(ProbeError::Table(TableError::Corrupt {
                    path: path.clone(),
                    what: format!("longest win {}: {err}", e.position),
                }))
            })?;
            let line = tb.line(&pos)?.iter().map(|mv| mv.to_string()).collect();
            Some((e.position, line))
        }
        None => None,
    };
    let open = jungletb_tablebase::Table::open_any(&path)
        .map_err(ProbeError::Table)?
        .open_ranges();
    let zugzwangs = zugzwang::scan_material(tb, m, ZUGZWANGS_PER_KIND)?;
    let puzzles = jungletb_analysis::puzzles::puzzles_of(tb, m, &hist, PUZZLES_PER_MATERIAL)?
        .iter()
        .map(|p| {
            let line = tb.line(&p.position)?;
            Ok(jungletb_wire::PuzzleAnswer::new(tb.rules(), p, &line))
        })
        .collect::<Result<Vec<_>, ProbeError>>()?;
    let exercises = jungletb_analysis::exercises::exercises_of(tb, m, &hist)?
        .iter()
        .map(|e| jungletb_wire::ExerciseAnswer::new(tb.rules(), e))
        .collect();
    let mut depends: Vec<String> = m
        .sub_materials()
        .into_iter()
        .map(|s| s.canonical().0.to_string())
        .collect();
    depends.sort();
    depends.dedup();
    Ok(MaterialPage {
        stats,
        table: TableEntry {
            material: m.to_string(),
            file: path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string(),
            bytes,
            sha256: sha256(&path)?,
            open,
        },
        svg,
        longest,
        zugzwangs,
        depends,
        puzzles,
        exercises,
    })
}

/// Links (or copies) a table into the site (a table compressed into the
/// site is there already).
fn place_table(from: &Path, to: &Path) -> Result<(), SiteError> {
    if from == to {
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let _ = std::fs::remove_file(to);
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).map_err(io(to))?;
    }
    Ok(())
}
