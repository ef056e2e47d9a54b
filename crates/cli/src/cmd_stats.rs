//! `jungletb stats`: a rule set's tables summed by material and by piece
//! count, from their headers (and with `--histograms`, from every value).

use crate::args::{CmdResult, RulesArgs, TablesArg};
use crate::output::human_bytes;
use anyhow::anyhow;
use clap::Args as ClapArgs;
use jungletb_analysis::histogram::{histogram, Histogram};
use jungletb_rules::Color;
use jungletb_tablebase::{
    find_table_dir, table_files, Header, COMPRESSED_EXTENSION, TABLE_EXTENSION,
};
use jungletb_wire as wire;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Arguments of `stats`.
#[derive(ClapArgs, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// One JSON object per material, then one per piece count. (Reads table
    /// headers only, unless --histograms; `verify` checks the values.)
    #[arg(long)]
    json: bool,
    /// Also read every value: distance histograms per side to move and a
    /// position of each side's longest win and loss.
    #[arg(long)]
    histograms: bool,
    /// Worker threads for --histograms (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// Wins, losses and draws from `[wins, losses, draws]`.
fn wld(c: &[u64; 3]) -> wire::Wld {
    wire::Wld {
        wins: c[0],
        losses: c[1],
        draws: c[2],
    }
}

#[derive(Default)]
struct Totals {
    tables: u64,
    /// Positions with either side to move (as the W / L / D columns count).
    positions: u64,
    slots: u64,
    bytes: u64,
    /// [side][win, loss, draw]
    wld: [[u64; 3]; 2],
    longest_win: u16,
    /// The material of the longest win.
    longest_win_in: Option<jungletb_indexer::Material>,
}

/// Positions of `h`'s material with either side to move: a table that
/// stores White to move only (a material with the same animals on both
/// sides) answers Black to move by the colour swap, with the same counts.
fn positions_both_sides(h: &Header) -> u64 {
    Color::ALL
        .iter()
        .map(|&c| {
            let s = h.side(c);
            s.wins + s.losses + s.draws
        })
        .sum()
}

impl Totals {
    fn add(&mut self, h: &Header, bytes: u64) {
        self.tables += 1;
        self.positions += positions_both_sides(h);
        self.slots += h.index_size;
        self.bytes += bytes;
        for side in Color::ALL {
            let s = h.side(side);
            let w = &mut self.wld[side.index()];
            w[0] += s.wins;
            w[1] += s.losses;
            w[2] += s.draws;
            if s.longest_win > self.longest_win || self.longest_win_in.is_none() {
                self.longest_win = self.longest_win.max(s.longest_win);
                self.longest_win_in = Some(h.material);
            }
        }
    }
}

/// One table's header and its size in bytes.
type Row = (Header, u64);

pub fn run_stats(a: StatsArgs) -> CmdResult {
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let dir = find_table_dir(&a.tables.path, &rules);
    let mut files = table_files(&dir)?;
    // A material with both a plain and a compressed file counts once (the
    // plain one, which probes prefer too).
    files.retain(|f| {
        f.extension().and_then(|x| x.to_str()) != Some(COMPRESSED_EXTENSION)
            || !f.with_extension(TABLE_EXTENSION).exists()
    });
    if files.is_empty() {
        return Err(anyhow!("no tables in '{}'", dir.display()));
    }
    let mut by_count: BTreeMap<u32, Totals> = BTreeMap::new();
    let mut rows: Vec<Row> = Vec::new();
    for f in &files {
        let h = Header::read(f)?;
        h.check_ruleset(&rules, f)?;
        let bytes = h.header_len as u64 + h.payload_len;
        by_count
            .entry(h.material.piece_count())
            .or_default()
            .add(&h, bytes);
        rows.push((h, bytes));
    }
    rows.sort_by_key(|(h, _)| h.material.strongest_first());
    let histograms = if a.histograms {
        let pool = crate::args::thread_pool(a.threads)?;
        let tb = jungletb_tablebase::Tablebase::with_dir(dir.clone(), rules.clone());
        rows.iter()
            .map(|(h, _)| pool.install(|| histogram(&tb, h.material)))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    if a.json {
        print_json(&rows, &by_count, &histograms);
    } else {
        print_text(&rows, &by_count, &histograms);
    }
    Ok(ExitCode::SUCCESS)
}

/// One JSON object per material (the HTTP API's stats shape, `jungletb_wire`),
/// then one per piece count.
fn print_json(rows: &[Row], by_count: &BTreeMap<u32, Totals>, histograms: &[Histogram]) {
    for (k, (h, bytes)) in rows.iter().enumerate() {
        let doc = wire::MaterialStats::new(h, Some(*bytes), histograms.get(k));
        outln!("{}", serde_json::to_string(&doc).expect("serialisable"));
    }
    for (n, t) in by_count {
        outln!(
            "{}",
            serde_json::to_string(&wire::PieceCountStats {
                pieces: *n,
                tables: t.tables,
                positions_both_sides_to_move: t.positions,
                slots: t.slots,
                bytes: t.bytes,
                white_to_move: wld(&t.wld[0]),
                black_to_move: wld(&t.wld[1]),
                longest_win: t.longest_win,
                longest_win_material: t.longest_win_in.map(|m| m.to_string()),
            })
            .expect("serialisable")
        );
    }
}

/// The table of materials with its legend, each material's histograms if
/// read, then a line per piece count.
fn print_text(rows: &[Row], by_count: &BTreeMap<u32, Totals>, histograms: &[Histogram]) {
    outln!("Positions count both sides to move (a table of a material with the same animals on");
    outln!("both sides stores White to move and answers Black to move by the colour swap).");
    outln!("W / L / D: the side to move's wins, losses and draws; maxW / maxL: its longest win");
    outln!("and longest loss, in plies. Materials by piece count, strongest animals first.");
    outln!(
        "{:<10} {:>10} {:>8}  {:>27}  {:>27}  {:>5} {:>5}",
        "material",
        "positions",
        "density",
        "White to move: W / L / D",
        "Black to move: W / L / D",
        "maxW",
        "maxL"
    );
    for (k, (h, _)) in rows.iter().enumerate() {
        let (w, b) = (h.side(Color::White), h.side(Color::Black));
        let stored: u64 = h.sides.iter().map(|s| s.positions).sum();
        outln!(
            "{:<10} {:>10} {:>8.4}  {:>27}  {:>27}  {:>5} {:>5}",
            h.material.to_string(),
            positions_both_sides(h),
            stored as f64 / h.index_size as f64,
            format!("{} / {} / {}", w.wins, w.losses, w.draws),
            format!("{} / {} / {}", b.wins, b.losses, b.draws),
            w.longest_win.max(b.longest_win),
            w.longest_loss.max(b.longest_loss),
        );
        if let Some(hist) = histograms.get(k) {
            print_histogram(hist);
        }
    }
    outln!();
    for (n, t) in by_count {
        outln!(
            "{n} pieces: {}, {} positions with either side to move ({} slots), {}; White to move W/L/D {} / {} / {}; Black to move W/L/D {} / {} / {}; longest win {} ({})",
            crate::output::count(t.tables as usize, "table", "tables"), t.positions, t.slots, human_bytes(t.bytes),
            t.wld[0][0], t.wld[0][1], t.wld[0][2], t.wld[1][0], t.wld[1][1], t.wld[1][2], t.longest_win,
            t.longest_win_in.map_or(String::new(), |m| m.to_string())
        );
    }
}

/// A material's distance histograms, per side to move it stores: plies and
/// count for every distance that occurs, and the longest win and loss.
fn print_histogram(hist: &Histogram) {
    for c in Color::ALL {
        let hs = hist.side(c);
        if hs.wins.iter().chain(&hs.losses).all(|&n| n == 0) && hs.draws == 0 {
            continue; // a side to move the table does not store
        }
        let side = if c == Color::White { "White" } else { "Black" };
        let row = |counts: &[u64]| {
            let cells: Vec<String> = counts
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(d, n)| format!("{d}:{n}"))
                .collect();
            if cells.is_empty() {
                "(none)".to_string()
            } else {
                cells.join(" ")
            }
        };
        outln!(
            "{:<10} {side} to move, wins by plies: {}",
            "",
            row(&hs.wins)
        );
        outln!(
            "{:<10} {side} to move, losses by plies: {}",
            "",
            row(&hs.losses)
        );
        outln!("{:<10} {side} to move, draws: {}", "", hs.draws);
        for (v, p) in hs.longest_win.iter().chain(&hs.longest_loss) {
            outln!("{:<10} {v}: {p}", "");
        }
    }
}
