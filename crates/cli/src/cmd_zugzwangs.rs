//! `jungletb zugzwangs`: mutual and half zugzwangs per material.

use crate::args::{scan_tables, thread_pool, CmdResult, RulesArgs, ScanArgs, TablesArg};
use crate::output::table_bar;
use crate::progress::SlotProgress;
use clap::Args as ClapArgs;
use jungletb_analysis::zugzwang::{scan_material_with, Report};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Arguments of `zugzwangs`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// Only this material (e.g. LvR; repeatable). Default: every table.
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
    /// Examples per material of each kind (mutual, half), longest first:
    /// by the longer of the two distances (White to move, Black to move),
    /// mutual before half at equal length, then in a fixed order of the
    /// pieces' squares.
    #[arg(long, default_value_t = 3, value_name = "N")]
    limit: usize,
    #[command(flatten)]
    scan: ScanArgs,
}

pub fn run(a: Args) -> CmdResult {
    let (_, tb, materials) = scan_tables(&a.tables, &a.rules, &a.materials)?;
    let pool = thread_pool(a.scan.threads)?;
    let bar = table_bar(materials.len(), a.scan.quiet || a.scan.json);
    let mut totals: BTreeMap<u32, (u64, u64, u64)> = BTreeMap::new();
    if !a.scan.json {
        outln!("Materials by piece count, strongest animals first.");
        outln!(
            "{:<10} {:>14} {:>14}  examples, longest first (White to move / Black to move)",
            "material",
            "mutual",
            "half"
        );
    }
    // How far one large table's scan is: in the bar's message on a
    // terminal, each tenth of a 6-piece scan in logs.
    let logs = SlotProgress::in_logs_only(a.scan.quiet || a.scan.json);
    for m in materials {
        bar.set_message(m.to_string());
        let name = std::path::PathBuf::from(m.to_string());
        let on_progress = |done: u64, n: u64| {
            bar.set_message(format!("{m} {} %", done * 100 / n.max(1)));
            logs.update(&name, done, n);
        };
        let r: Report = pool.install(|| scan_material_with(&tb, m, a.limit, &on_progress))?;
        logs.between_files(|| {});
        bar.inc(1);
        let t = totals.entry(m.piece_count()).or_default();
        t.0 += 1;
        t.1 += r.mutual;
        t.2 += r.half;
        if a.scan.json {
            let line = jungletb_wire::ZugzwangReport::from(&r);
            outln!("{}", serde_json::to_string(&line).expect("serialisable"));
            continue;
        }
        bar.suspend(|| {
            let first = r.examples.first().map_or(String::new(), |e| {
                format!(
                    "{} {} ({} / {})",
                    e.kind.name(),
                    e.position,
                    e.white_to_move,
                    e.black_to_move
                )
            });
            outln!(
                "{:<10} {:>14} {:>14}  {first}",
                r.material.to_string(),
                r.mutual,
                r.half
            );
            for e in r.examples.iter().skip(1) {
                outln!(
                    "{:<10} {:>14} {:>14}  {} {} ({} / {})",
                    "",
                    "",
                    "",
                    e.kind.name(),
                    e.position,
                    e.white_to_move,
                    e.black_to_move
                );
            }
        });
    }
    bar.finish_and_clear();
    for (n, (tables, mutual, half)) in &totals {
        if a.scan.json {
            let line = jungletb_wire::ZugzwangTotals {
                pieces: *n,
                tables: *tables,
                mutual: *mutual,
                half: *half,
            };
            outln!("{}", serde_json::to_string(&line).expect("serialisable"));
        } else {
            let tables = crate::output::count(*tables as usize, "table", "tables");
            outln!("{n} pieces: {tables}, {mutual} mutual zugzwangs, {half} half zugzwangs (placements on the board)");
        }
    }
    Ok(ExitCode::SUCCESS)
}
