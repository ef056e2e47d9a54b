//! `jungletb compare-rules`: which values change between two rule sets.

use crate::args::{materials_in, thread_pool, CmdResult, RulesArgs, ScanArgs, TablesArg};
use crate::output::table_bar;
use anyhow::anyhow;
use clap::Args as ClapArgs;
use jungletb_analysis::compare::{compare_material, Comparison};
use jungletb_tablebase::{find_table_dir, Tablebase};
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Arguments of `compare-rules`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// The rule set to compare with: standard, leiden, popular or a custom
    /// rule set's directory name.
    #[arg(long, value_name = "NAME")]
    against: String,
    /// Override one option of the --against rule set (repeatable).
    #[arg(long = "against-rule", value_name = "KEY=VALUE")]
    against_rules: Vec<String>,
    /// List every material compared, not only those where something changes.
    #[arg(long)]
    all: bool,
    /// Only this material (repeatable). Default: every material with tables
    /// under both rule sets.
    #[arg(long = "material", value_name = "KEY")]
    materials: Vec<String>,
    /// How many of the most affected materials to list.
    #[arg(long, default_value_t = 5, value_name = "N")]
    top: usize,
    #[command(flatten)]
    scan: ScanArgs,
}

fn share(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

pub fn run(a: Args) -> CmdResult {
    let rules_a = a.rules.resolve_in(Some(&a.tables.path))?;
    let args_b = RulesArgs {
        ruleset: Some(a.against.clone()),
        rules: a.against_rules.clone(),
    };
    let rules_b = args_b.resolve_in(Some(&a.tables.path))?;
    if rules_a.id() == rules_b.id() {
        return Err(anyhow!(
            "both sides are the rule set '{}': nothing to compare",
            rules_a.label()
        ));
    }
    let (dir_a, dir_b) = (
        find_table_dir(&a.tables.path, &rules_a),
        find_table_dir(&a.tables.path, &rules_b),
    );
    let in_a = materials_in(&dir_a, &rules_a, &a.rules, &a.materials)?;
    let in_b = materials_in(&dir_b, &rules_b, &args_b, &a.materials)?;
    let materials: Vec<_> = in_a.into_iter().filter(|m| in_b.contains(m)).collect();
    if materials.is_empty() {
        return Err(anyhow!(
            "no material has tables under both '{}' and '{}'",
            rules_a.label(),
            rules_b.label()
        ));
    }
    let (label_a, label_b) = (rules_a.label(), rules_b.label());
    let (tb_a, tb_b) = (
        Tablebase::with_dir(dir_a, rules_a),
        Tablebase::with_dir(dir_b, rules_b),
    );
    let pool = thread_pool(a.scan.threads)?;
    let bar = table_bar(materials.len(), a.scan.quiet || a.scan.json);
    let mut by_count: BTreeMap<u32, Comparison> = BTreeMap::new();
    let mut all = Vec::new();
    if !a.scan.json {
        print_header(&label_a, &label_b);
    }
    for m in materials {
        bar.set_message(m.to_string());
        let c = pool.install(|| compare_material(&tb_a, &tb_b, m))?;
        bar.inc(1);
        let t = by_count
            .entry(m.piece_count())
            .or_insert_with(|| Comparison::new(m));
        *t = t.clone().merge(c.clone());
        let unchanged = c.changed() == 0 && c.distance_changed == 0 && c.only_in_a == 0;
        if unchanged && !a.all {
            // Only the materials that change, unless --all asks for every one.
        } else if a.scan.json {
            outln!(
                "{}",
                serde_json::to_string(&jungletb_wire::ComparisonAnswer::new(&c, None))
                    .expect("serialisable")
            );
        } else {
            bar.suspend(|| print_row(&c));
        }
        all.push(c);
    }
    bar.finish_and_clear();
    for (n, t) in &by_count {
        if a.scan.json {
            let tables = all
                .iter()
                .filter(|c| c.material.piece_count() == *n)
                .count();
            let line = jungletb_wire::ComparisonAnswer::new(t, Some(tables as u64));
            outln!("{}", serde_json::to_string(&line).expect("serialisable"));
        } else {
            outln!(
                "{n} pieces: {} of {} positions change category ({:.3} %); {} keep it with another distance (mean shift {:.1} plies, max {}); {} not legal under B",
                t.changed(), t.positions, share(t.changed(), t.positions), t.distance_changed,
                if t.distance_changed > 0 { t.distance_shift_sum as f64 / t.distance_changed as f64 } else { 0.0 },
                t.distance_shift_max, t.only_in_a
            );
        }
    }
    if !a.scan.json {
        print_most_affected(all, a.top);
    }
    Ok(ExitCode::SUCCESS)
}

/// The text table's title and column names.
fn print_header(label_a: &str, label_b: &str) {
    outln!("{label_a} (A) against {label_b} (B): positions of A's tables, looked up under B");
    outln!(
        "{:<10} {:>12} {:>10} {:>8}  {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {:>9}",
        "material",
        "positions",
        "changed",
        "share",
        "win>draw",
        "win>loss",
        "draw>win",
        "draw>loss",
        "loss>win",
        "loss>draw",
        "dist.chg"
    );
}

/// One material's line of the text table.
fn print_row(c: &Comparison) {
    let ch = &c.changes;
    outln!(
        "{:<10} {:>12} {:>10} {:>7.3}%  {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {:>9}",
        c.material.to_string(),
        c.positions,
        c.changed(),
        share(c.changed(), c.positions),
        ch[0][1],
        ch[0][2],
        ch[1][0],
        ch[1][2],
        ch[2][0],
        ch[2][1],
        c.distance_changed
    );
}

/// The `top` materials with the largest share of changed positions, each
/// with an example of its most frequent change.
fn print_most_affected(mut all: Vec<Comparison>, top: usize) {
    all.sort_by(|x, y| {
        share(y.changed(), y.positions)
            .total_cmp(&share(x.changed(), x.positions))
            .then(x.material.to_string().cmp(&y.material.to_string()))
    });
    outln!("most affected:");
    for c in all.iter().take(top).filter(|c| c.changed() > 0) {
        let example = (0..3)
            .flat_map(|x| (0..3).map(move |y| (x, y)))
            .filter(|(x, y)| x != y)
            .max_by_key(|&(x, y)| c.changes[x][y])
            .and_then(|(x, y)| c.examples[x][y].as_ref());
        let ex = example.map_or(String::new(), |(p, va, vb)| {
            format!("  e.g. {p}: {va} under A, {vb} under B")
        });
        outln!(
            "  {:<10} {:.3} % ({} positions){ex}",
            c.material.to_string(),
            share(c.changed(), c.positions),
            c.changed()
        );
    }
}
