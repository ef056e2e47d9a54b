//! `jungletb site`: a static site of jungletb tables, one rule set or
//! several, served by any static host (no server code): every position is
//! probed in the visitor's browser, by the probe library compiled to
//! WebAssembly, over HTTP range requests to the tables on the same host.
//!
//! What [`build`] writes into the output directory:
//!
//! | path | what |
//! |---|---|
//! | `index.html` | the rule sets, each with its tables and links to its pages |
//! | `board.html` | the web board of `jungletb serve`, answered in the browser (`assets/static-api.js`), every rule set of the site in its Rules menu |
//! | `assets/` | the board's script and style, the JavaScript package (`jungletb.js`) and its module (`jungletb.wasm`) |
//! | `rulesets.json` | the rule sets, as `/api/rulesets` lists them |
//! | `SHA256SUMS` | every table file's SHA-256 (`sha256sum -c SHA256SUMS` checks a download) |
//! | `site.json` | marks the directory as a site |
//! | `<label>/index.html` | the rule set's materials by piece count, strongest first, with win / draw / loss |
//! | `<label>/stats.json` | every material's statistics (as `jungletb stats --json --histograms`) |
//! | `<label>/puzzles.html`, `puzzles.json` | the deepest positions where exactly one move wins, each a board link, with its answer and line on request |
//! | `<label>/train.html`, `exercises.json` | for every material, won positions at a few depths and a draw to hold, each with how many moves keep its value, each a link that starts a training game |
//! | `<label>/downloads.html` | every table file with its size and SHA-256 |
//! | `<label>/manifest.json` | the tables the JavaScript package may read: material, file, bytes, SHA-256 |
//! | `<label>/<material>.jtbz` | the tables (hard links where the file system allows, else copies) |
//! | `<label>/board.json` | the terrain, as `/api/<label>/board` |
//! | `<label>/materials/<material>.html`, `.json`, `.svg` | a page per material: both sides' counts, the histogram, the longest win and its line, puzzles, exercises, mutual zugzwangs, sizes, checksums, the tables it depends on |
//!
//! Every page names its rule set and links to the list of rule sets.
//!
//! Only compressed tables are served (a probe reads a few blocks of them;
//! a plain table would be read whole): where the tables directory has a
//! material's plain table alone, `build` compresses it into the site
//! (`<label>/<material>.jtbz`, kept for the next build). A browser reads a
//! table whole only up to 64 KiB (the JavaScript package's
//! `wholeFileBelow`: every 2-piece table and the smaller 3-piece ones).
//!
//! Building again updates the site in place: each rule set built loses the
//! files of its directory that it no longer serves (a plain table an
//! earlier build linked, the pages of a material no longer there), and the
//! rule sets of earlier builds not built this time stay, listed with the
//! others.

#![warn(missing_docs)]

mod pages;
mod ruleset;

use jungletb_rules::Ruleset;
use jungletb_tablebase::ProbeError;
use jungletb_wire::{RulesetEntry, RulesetsAnswer};
use ruleset::{build_ruleset, json, RulesetSource};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
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
    /// The rule sets built.
    pub built: Vec<String>,
    /// The rule sets of earlier builds the site still serves.
    pub kept: Vec<String>,
    /// Materials with a page, of the rule sets built.
    pub materials: usize,
    /// Bytes of the table files of the rule sets built.
    pub table_bytes: u64,
    /// Bytes of everything else written.
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
#[derive(Debug, Clone, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The rule set's label (its directory).
    pub ruleset: String,
    /// The tables.
    pub tables: Vec<TableEntry>,
}

/// Writes `bytes` to `path`, creating its directory.
fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<u64, SiteError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, bytes.as_ref()).map_err(io(path))?;
    Ok(bytes.as_ref().len() as u64)
}

/// `site.json`: marks a directory as a site (so a rebuild may update it).
#[derive(Debug, Serialize, Deserialize)]
struct SiteMark {
    generator: String,
}

/// The tables of one rule set: its directory and its rules.
#[derive(Debug, Clone)]
pub struct RulesetTables {
    /// The directory of its tables.
    pub dir: PathBuf,
    /// Its rules.
    pub rules: Ruleset,
}

/// Builds the site of the tables of every rule set of `sets` into `out`
/// (empty, missing, or an earlier site, which is updated: see the crate
/// docs), calling `progress(done, total)` as materials are done.
pub fn build(
    sets: &[RulesetTables],
    out: &Path,
    package: &Package,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Summary, SiteError> {
    if out.exists() {
        let empty = std::fs::read_dir(out).map_err(io(out))?.next().is_none();
        if !empty && !out.join("site.json").exists() {
            return Err(SiteError::NotASite(out.to_path_buf()));
        }
    }
    let sources = sets
        .iter()
        .map(|s| RulesetSource::new(&s.dir, &s.rules))
        .collect::<Result<Vec<_>, _>>()?;
    // The rule sets of earlier builds that this one leaves as they are.
    let built: BTreeSet<String> = sets.iter().map(|s| s.rules.label()).collect();
    let earlier = std::fs::read_to_string(out.join("rulesets.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<RulesetsAnswer>(&t).ok())
        .map(|a| a.rulesets)
        .unwrap_or_default();
    let kept: Vec<RulesetEntry> = earlier
        .into_iter()
        .filter(|e| !built.contains(&e.label) && out.join(&e.label).join("manifest.json").is_file())
        .collect();
    let total: usize = sources.iter().map(|s| s.materials.len()).sum();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(n, total);
    };
    let mut summary = Summary {
        built: built.iter().cloned().collect(),
        kept: kept.iter().map(|e| e.label.clone()).collect(),
        materials: 0,
        table_bytes: 0,
        other_bytes: 0,
    };
    let mut entries = kept;
    for src in &sources {
        let part = build_ruleset(src, out, &tick)?;
        summary.materials += part.materials;
        summary.table_bytes += part.table_bytes;
        summary.other_bytes += part.other_bytes;
        entries.push(part.entry);
    }
    entries.sort_by_key(|e| order_key(&e.label));
    let manifests = entries
        .iter()
        .map(|e| {
            let path = out.join(&e.label).join("manifest.json");
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            serde_json::from_str::<Manifest>(&text).map_err(|e| SiteError::Io {
                path,
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sums: String = manifests
        .iter()
        .flat_map(|m| {
            m.tables
                .iter()
                .map(move |t| format!("{}  {}/{}\n", t.sha256, m.ruleset, t.file))
        })
        .collect();
    let answer = RulesetsAnswer {
        rulesets: entries.clone(),
    };
    let mark = SiteMark {
        generator: concat!("jungletb ", env!("CARGO_PKG_VERSION")).to_string(),
    };
    let files = [
        ("site.json", json(&mark)),
        ("rulesets.json", json(&answer)),
        ("SHA256SUMS", sums),
        ("index.html", pages::rulesets(&entries, &manifests, out)),
    ];
    for (name, text) in &files {
        summary.other_bytes += write(&out.join(name), text)?;
    }
    summary.other_bytes += pages::write_board(out, package)?;
    // The pages of one rule set that earlier versions wrote at the root.
    for old in ["puzzles.html", "train.html", "downloads.html", "stats.json"] {
        let path = out.join(old);
        if path.is_file() {
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(summary)
}

/// The order of rule sets in a site: the named ones as `rules` lists
/// them, then custom ones by label.
fn order_key(label: &str) -> (usize, String) {
    let named = jungletb_rules::BaseRuleset::ALL
        .iter()
        .position(|b| b.name() == label);
    (named.unwrap_or(usize::MAX), label.to_string())
}
