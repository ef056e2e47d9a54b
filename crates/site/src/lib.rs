//! `jungletb site`: a static site of one rule set's tables, served by any
//! static host (no server code): every position is probed in the
//! visitor's browser, by the probe library compiled to WebAssembly, over
//! HTTP range requests to the tables on the same host.
//!
//! What [`build`] writes into the output directory:
//!
//! | path | what |
//! |---|---|
//! | `index.html` | the materials by piece count, with win / draw / loss |
//! | `board.html` | the web board of `jungletb serve`, answered in the browser (`assets/static-api.js`) |
//! | `assets/` | the board's script and style, the JavaScript package (`jungletb.js`) and its module (`jungletb.wasm`) |
//! | `rulesets.json` | the rule set, as `/api/rulesets` lists it |
//! | `stats.json` | every material's statistics (as `jungletb stats --json --histograms`) |
//! | `puzzles.html`, `<label>/puzzles.json` | the deepest positions where exactly one move wins, each a board link, with its answer and line on request |
//! | `train.html`, `<label>/exercises.json` | for every material, won positions at a few depths and a draw to hold, each with how many moves keep its value, each a link that starts a training game |
//! | `downloads.html`, `SHA256SUMS` | every table file with its size and SHA-256 (`sha256sum -c SHA256SUMS` checks a download) |
//! | `<label>/manifest.json` | the tables the JavaScript package may read: material, file, bytes, SHA-256 |
//! | `<label>/<material>.jtbz` | the tables (hard links where the file system allows, else copies) |
//! | `<label>/board.json` | the terrain, as `/api/<label>/board` |
//! | `<label>/materials/<material>.html`, `.json`, `.svg` | a page per material: both sides' counts, the histogram, the longest win and its line, mutual zugzwangs, sizes, checksums, the tables it depends on |
//!
//! Only compressed tables are served (a probe reads a few blocks of them;
//! a plain table would be read whole): where the tables directory has a
//! material's plain table alone, `build` compresses it into the site
//! (`<label>/<material>.jtbz`, kept for the next build). A browser reads a
//! table whole only up to 64 KiB (the JavaScript package's
//! `wholeFileBelow`: every 2-piece table and the smaller 3-piece ones).
//! Building again updates the site in place and removes the files of its
//! rule set's directory that it no longer serves (a plain table an earlier
//! build linked, the pages of a material no longer there).

#![warn(missing_docs)]

mod pages;

use jungletb_analysis::histogram::histogram;
use jungletb_analysis::zugzwang::{self, Kind};
use jungletb_indexer::Material;
use jungletb_rules::{Position, Ruleset};
use jungletb_tablebase::{ProbeError, TableError, Tablebase};
use jungletb_wire::MaterialStats;
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The WebAssembly module and JavaScript package the site serves, given
/// by the caller (the CLI embeds them when built with them; see
/// `js/build.sh`).
#[derive(Debug, Clone)]
pub struct Package {
    /// `jungletb.wasm`.
    pub wasm: Vec<u8>,
    /// `index.js` of the JavaScript package.
    pub js: String,
}

/// What a site build wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Materials with a page.
    pub materials: usize,
    /// Bytes of the table files served.
    pub table_bytes: u64,
    /// Bytes of everything else the site holds.
    pub other_bytes: u64,
}

/// Why a site could not be built.
#[derive(Debug)]
pub enum SiteError {
    /// A table could not be read or probed.
    Probe(ProbeError),
    /// Writing the site failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The output directory holds files that are not a site's: nothing is
    /// overwritten.
    NotASite(PathBuf),
    /// The output directory is the site of another rule set: building
    /// this one there would replace its index and board.
    OtherRuleset {
        /// The site.
        path: PathBuf,
        /// The rule set it holds.
        holds: String,
        /// The rule set asked for.
        asked: String,
    },
    /// The tables directory has no table.
    NoTables(PathBuf),
    /// A plain table could not be compressed for the site.
    Compress {
        /// The plain table.
        path: PathBuf,
        /// Why.
        source: jungletb_solver::SolveError,
    },
}

impl fmt::Display for SiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiteError::Probe(e) => write!(f, "{e}"),
            SiteError::Io { path, .. } => write!(f, "{}: writing failed", path.display()),
            SiteError::NotASite(p) => write!(
                f,
                "{}: the directory is not empty and holds no jungletb site (no \
                 site.json): nothing written",
                p.display()
            ),
            SiteError::NoTables(p) => write!(f, "{}: no table files", p.display()),
            SiteError::OtherRuleset { path, holds, asked } => write!(
                f,
                "{}: the site of rule set '{holds}'; a site holds one rule set, so build \
                 '{asked}' into another directory: nothing written",
                path.display()
            ),
            SiteError::Compress { path, .. } => {
                write!(f, "{}: compressing it for the site failed", path.display())
            }
        }
    }
}

impl std::error::Error for SiteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SiteError::Probe(e) => Some(e),
            SiteError::Io { source, .. } => Some(source),
            SiteError::Compress { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<ProbeError> for SiteError {
    fn from(e: ProbeError) -> Self {
        SiteError::Probe(e)
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SiteError + '_ {
    move |source| SiteError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One table file the site serves.
#[derive(Debug, Clone, Serialize)]
pub struct TableEntry {
    /// Its material (`ELvR`).
    pub material: String,
    /// Its file name (`ELvR.jtbz`).
    pub file: String,
    /// Its size.
    pub bytes: u64,
    /// Its SHA-256, in hex.
    pub sha256: String,
    /// The byte ranges `[start, length]` opening it reads
    /// ([`jungletb_tablebase::Table::open_ranges`]): fetched together, they
    /// open it in one round.
    pub open: Vec<(u64, u64)>,
}

/// `<label>/manifest.json`.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    /// The rule set's label (its directory).
    pub ruleset: String,
    /// The tables.
    pub tables: Vec<TableEntry>,
}

/// Everything a material's page shows.
#[derive(Debug, Clone)]
pub(crate) struct MaterialPage {
    pub(crate) stats: MaterialStats,
    pub(crate) table: TableEntry,
    pub(crate) svg: String,
    /// The longest win (for the side to move that has the longer one) and
    /// its line.
    pub(crate) longest: Option<(String, Vec<String>)>,
    pub(crate) mutual: u64,
    pub(crate) zugzwangs: Vec<String>,
    /// Canonical materials one capture leads to.
    pub(crate) depends: Vec<String>,
    /// Its deepest only-move puzzles.
    pub(crate) puzzles: Vec<jungletb_wire::PuzzleAnswer>,
    /// Its training exercises.
    pub(crate) exercises: Vec<jungletb_wire::ExerciseAnswer>,
}

/// Only-move puzzles shown a material.
const PUZZLES_PER_MATERIAL: usize = 3;
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
fn prune(dir: &Path, keep: &std::collections::BTreeSet<String>) -> Result<(), SiteError> {
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
    let report = zugzwang::scan_material(tb, m, 5)?;
    let zugzwangs = report
        .examples
        .iter()
        .filter(|e| e.kind == Kind::Mutual)
        .map(|e| e.position.to_string())
        .collect();
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
        mutual: report.mutual,
        zugzwangs,
        depends,
        puzzles,
        exercises,
    })
}

/// Writes `bytes` to `path`, creating its directory.
fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<u64, SiteError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, bytes.as_ref()).map_err(io(path))?;
    Ok(bytes.as_ref().len() as u64)
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

/// `site.json`: marks a directory as a site (so a rebuild may replace it).
#[derive(Debug, Serialize, serde::Deserialize)]
struct SiteMark {
    generator: String,
    ruleset: String,
}

/// Builds the site of the tables of `rules` in `dir` (one rule set's
/// directory) into `out` (empty, missing, or an earlier site, which is
/// updated), calling `progress(done, total)` as materials are done.
pub fn build(
    dir: &Path,
    rules: &Ruleset,
    out: &Path,
    package: &Package,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Summary, SiteError> {
    if out.exists() {
        let empty = std::fs::read_dir(out).map_err(io(out))?.next().is_none();
        if !empty && !out.join("site.json").exists() {
            return Err(SiteError::NotASite(out.to_path_buf()));
        }
        // A site of another rule set would lose its index and board.
        let mark = std::fs::read_to_string(out.join("site.json")).ok();
        let holds = mark
            .and_then(|t| serde_json::from_str::<SiteMark>(&t).ok())
            .map(|m| m.ruleset)
            .filter(|held| *held != rules.label());
        if let Some(holds) = holds {
            return Err(SiteError::OtherRuleset {
                path: out.to_path_buf(),
                holds,
                asked: rules.label(),
            });
        }
    }
    let tb = Tablebase::with_dir(dir.to_path_buf(), rules.clone());
    let mut materials: Vec<Material> = tb.materials();
    materials.sort_by_key(|m| (m.piece_count(), m.to_string()));
    if materials.is_empty() {
        return Err(SiteError::NoTables(dir.to_path_buf()));
    }
    let label = rules.label();
    let site_dir = out.join(&label);
    compress_plain(dir, &site_dir, out, &materials)?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let pages: Vec<MaterialPage> = materials
        .par_iter()
        .map(|&m| {
            let page = material_page(&tb, dir, &site_dir, m);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n, materials.len());
            page
        })
        .collect::<Result<_, _>>()?;
    let mut other = 0u64;
    let mut table_bytes = 0u64;
    other += write(
        &out.join("site.json"),
        serde_json::to_string_pretty(&SiteMark {
            generator: concat!("jungletb ", env!("CARGO_PKG_VERSION")).to_string(),
            ruleset: label.clone(),
        })
        .expect("serialisable"),
    )?;
    for p in &pages {
        let m = &p.table.material;
        place_table(
            &served_file(dir, &site_dir, m.parse().expect("a material")),
            &site_dir.join(&p.table.file),
        )?;
        table_bytes += p.table.bytes;
        let base = site_dir.join("materials");
        other += write(&base.join(format!("{m}.svg")), &p.svg)?;
        other += write(
            &base.join(format!("{m}.json")),
            serde_json::to_string(&p.stats).expect("serialisable"),
        )?;
        other += write(&base.join(format!("{m}.html")), pages::material(rules, p))?;
    }
    let manifest = Manifest {
        ruleset: label.clone(),
        tables: pages.iter().map(|p| p.table.clone()).collect(),
    };
    other += write(
        &site_dir.join("manifest.json"),
        serde_json::to_string(&manifest).expect("serialisable"),
    )?;
    other += write(
        &site_dir.join("board.json"),
        serde_json::to_string(&jungletb_wire::BoardAnswer::new(rules)).expect("serialisable"),
    )?;
    let stats: Vec<&MaterialStats> = pages.iter().map(|p| &p.stats).collect();
    other += write(
        &out.join("stats.json"),
        serde_json::to_string(&stats).expect("serialisable"),
    )?;
    let rulesets = rulesets_answer(&tb, rules);
    other += write(
        &out.join("rulesets.json"),
        serde_json::to_string(&rulesets).expect("serialisable"),
    )?;
    let sums: String = pages
        .iter()
        .map(|p| format!("{}  {label}/{}\n", p.table.sha256, p.table.file))
        .collect();
    other += write(&out.join("SHA256SUMS"), sums)?;
    other += write(&out.join("downloads.html"), pages::downloads(rules, &pages))?;
    other += write(&out.join("index.html"), pages::index(rules, &pages))?;
    let mut puzzles: Vec<&jungletb_wire::PuzzleAnswer> =
        pages.iter().flat_map(|p| &p.puzzles).collect();
    puzzles.sort_by_key(|p| std::cmp::Reverse(p.plies));
    puzzles.truncate(PUZZLES_LISTED);
    other += write(
        &site_dir.join("puzzles.json"),
        serde_json::to_string(&puzzles).expect("serialisable"),
    )?;
    other += write(&out.join("puzzles.html"), pages::puzzles(rules, &puzzles))?;
    let exercises: Vec<&jungletb_wire::ExerciseAnswer> =
        pages.iter().flat_map(|p| &p.exercises).collect();
    other += write(
        &site_dir.join("exercises.json"),
        serde_json::to_string(&exercises).expect("serialisable"),
    )?;
    other += write(&out.join("train.html"), pages::train(rules, &pages))?;
    other += pages::write_board(out, package)?;
    // What an earlier build served and this one does not.
    let mut keep: std::collections::BTreeSet<String> =
        pages.iter().map(|p| p.table.file.clone()).collect();
    keep.extend(
        [
            "manifest.json",
            "board.json",
            "puzzles.json",
            "exercises.json",
        ]
        .map(String::from),
    );
    prune(&site_dir, &keep)?;
    let pages_kept = pages
        .iter()
        .flat_map(|p| {
            let m = &p.table.material;
            ["svg", "json", "html"].map(|ext| format!("{m}.{ext}"))
        })
        .collect();
    prune(&site_dir.join("materials"), &pages_kept)?;
    Ok(Summary {
        materials: pages.len(),
        table_bytes,
        other_bytes: other,
    })
}

/// `rulesets.json`: the one rule set of the site, as the server's
/// `/api/rulesets` lists it, with its base and options.
fn rulesets_answer(tb: &Tablebase, rules: &Ruleset) -> jungletb_wire::RulesetsAnswer {
    let label = rules.label();
    let mut entry = jungletb_wire::RulesetEntry::new(label.clone(), Some(&tb.coverage()));
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
    jungletb_wire::RulesetsAnswer {
        rulesets: vec![entry],
    }
}
