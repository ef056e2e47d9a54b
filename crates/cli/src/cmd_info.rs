//! `jungletb info`: one table file's header, sizes and counts.

use crate::args::{parse_materials, CmdResult, RulesArgs, TablesArg};
use crate::output::human_bytes;
use anyhow::anyhow;
use clap::Args as ClapArgs;
use jungletb_analysis::histogram::{histogram, Histogram};
use jungletb_rules::{Color, Ruleset};
use jungletb_tablebase::{
    find_table_dir, table_files, Table, COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
use jungletb_wire as wire;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `info`.
#[derive(ClapArgs, Debug)]
pub struct InfoArgs {
    /// A table file (e.g. tables/standard/ELvR.jtb); or give `--material`.
    file: Option<PathBuf>,
    /// The table of this material (any colour order) in `--tables`, of
    /// `--ruleset`, instead of a file: the plain table, else the
    /// compressed one.
    #[arg(long, value_name = "KEY", conflicts_with = "file")]
    material: Option<String>,
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// Also find a position of each side's longest win and longest loss
    /// (reads every value of the table).
    #[arg(long)]
    examples: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The table file `info` shows: the one given, or the one of `--material`;
/// and the material asked for when its table is its colour swap's.
fn table_file(a: &InfoArgs) -> anyhow::Result<(PathBuf, Option<jungletb_indexer::Material>)> {
    let Some(material) = &a.material else {
        let file = a.file.clone().ok_or_else(|| {
            anyhow!("`info` needs a table file (e.g. tables/standard/ELvR.jtb) or --material KEY")
        })?;
        return Ok((file, None));
    };
    let asked = parse_materials(std::slice::from_ref(material))?[0];
    let m = asked.canonical().0;
    let swapped = (asked != m).then_some(asked);
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let dir = find_table_dir(&a.tables.path, &rules);
    [TABLE_EXTENSION, COMPRESSED_EXTENSION]
        .iter()
        .map(|ext| dir.join(format!("{m}.{ext}")))
        .find(|f| f.exists())
        .map(|f| (f, swapped))
        .ok_or_else(|| {
            anyhow!(
                "no table of {m} in '{}' (neither {m}.{TABLE_EXTENSION} nor {m}.{COMPRESSED_EXTENSION})",
                dir.display()
            )
        })
}

pub fn run_info(a: InfoArgs) -> CmdResult {
    let (file, swapped) = table_file(&a)?;
    if file.is_dir() {
        // A file that is there as the example (a rule set's directory holds
        // them directly, a tables root one level down).
        let example = table_files(&file)
            .ok()
            .and_then(|f| f.into_iter().next())
            .unwrap_or_else(|| file.join("standard/ELvR.jtb"));
        return Err(anyhow!(
            "'{}' is a directory: `info` shows one table file (e.g. {}), or the table of `--material KEY` in `--tables {}`; `jungletb stats --tables {}` summarises a directory",
            file.display(),
            example.display(),
            file.display(),
            file.display()
        ));
    }
    let t = Table::open_any(&file)?;
    let h = t.header();
    let rules = Ruleset::from_canonical_string(&h.ruleset)?;
    let examples = if a.examples {
        Some(examples(&file, &rules, h.material)?)
    } else {
        None
    };
    if a.json {
        return info_json(&file, &t, &rules, examples.as_ref());
    }
    outln!("file:           {}", file.display());
    outln!("material:       {}", h.material);
    if let Some(asked) = swapped {
        outln!(
            "asked for:      {asked}, the colour swap of {}: one table holds both (its White is {asked}'s Black)",
            h.material
        );
    }
    outln!("format version: {}", h.format_version);
    outln!("index scheme:   {}", h.index_scheme_version);
    outln!(
        "rule set:       {} (id {:016x})",
        rules.label(),
        h.ruleset_id
    );
    for (k, v) in rules.options() {
        outln!("  {k} = {v}");
    }
    outln!("index slots:    {}", h.index_size);
    let positions: u64 = h.sides.iter().map(|s| s.positions).sum();
    outln!(
        "positions:      {} (density {:.4}){}",
        positions,
        positions as f64 / h.index_size as f64,
        if h.white_to_move_only {
            "; White to move only (Black to move is the colour swap)"
        } else {
            ""
        }
    );
    match t.compressed_sizes()? {
        None => outln!("value width:    {} byte(s)", h.value_width),
        Some(z) => outln!(
            "compressed:     WDL {} + distances {} ({} byte(s) per distance){}",
            human_bytes(z.wdl_bytes),
            human_bytes(z.dtm_bytes),
            h.value_width,
            if t.has_dont_cares() {
                "; don't-cares: positions a capture decides are searched at probe time"
            } else {
                ""
            }
        ),
    }
    outln!(
        "file size:      {} ({} bytes)",
        human_bytes(t.file_len()),
        t.file_len()
    );
    outln!("payload crc32:  {:08x} (verified)", h.payload_crc);
    for side in Color::ALL {
        if h.white_to_move_only && side == Color::Black {
            continue;
        }
        let s = h.sides[side.index()];
        outln!(
            "{:?} to move: {} wins, {} losses, {} draws; longest win {}, longest loss {}",
            side,
            s.wins,
            s.losses,
            s.draws,
            s.longest_win,
            s.longest_loss
        );
        if let Some(hist) = &examples {
            let hs = hist.side(side);
            for (v, pos) in hs.longest_win.iter().chain(&hs.longest_loss) {
                outln!("  e.g. {v}: {pos}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--examples`: one pass over the values finds each side's first position
/// (in slot order) of its longest win and loss, through the tables beside
/// `file` (which the search of don't-cares may need), reading the named
/// file, not its plain original if both are there.
fn examples(
    file: &std::path::Path,
    rules: &Ruleset,
    material: jungletb_indexer::Material,
) -> anyhow::Result<Histogram> {
    let dir = file
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .to_path_buf();
    let named_compressed = file.extension().is_some_and(|e| e == "jtbz");
    let tb = jungletb_tablebase::Tablebase::with_dir_and_options(
        dir,
        rules.clone(),
        jungletb_tablebase::TablebaseOptions {
            prefer_compressed: named_compressed,
            ..Default::default()
        },
    );
    Ok(histogram(&tb, material)?)
}

fn info_json(
    file: &std::path::Path,
    t: &Table,
    rules: &Ruleset,
    examples: Option<&Histogram>,
) -> CmdResult {
    let doc = wire::InfoAnswer::new(file.display().to_string(), t, rules, examples)?;
    outln!("{}", serde_json::to_string(&doc).expect("serialisable"));
    Ok(ExitCode::SUCCESS)
}
