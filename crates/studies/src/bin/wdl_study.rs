//! Measures the WDL code on plain tables: bits per position with three
//! choices of don't-care slots. `cargo run --release -p jungletb-studies --bin wdl_study --
//! TABLES_DIR MATERIAL…`
use jungletb_format::encoding::decode;
use jungletb_format::wdl_code::{encode, fill_runs, ANY};
use jungletb_indexer::Material;
use jungletb_rules::{Ruleset, Value, Wdl};
use jungletb_tablebase::Tablebase;

fn wdl_bit(w: Wdl) -> u8 {
    match w {
        Wdl::Draw => 1,
        Wdl::Win => 2,
        Wdl::Loss => 4,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Ruleset::standard();
    let tb = Tablebase::open(&args[1], rules.clone()).unwrap();
    let mut tot = [0f64; 3];
    let mut positions = 0u64;
    for m in &args[2..] {
        let m: Material = m.parse().unwrap();
        let t = tb.table(m).unwrap();
        let raw = t.raw_values().unwrap();
        let idx = t.index();
        let mut masks = [
            vec![0u8; raw.len()],
            vec![0u8; raw.len()],
            vec![0u8; raw.len()],
        ];
        let mut n = 0u64;
        for (i, &r) in raw.iter().enumerate() {
            let Some(v) = decode(r) else { continue };
            n += 1;
            let exact = wdl_bit(v.wdl());
            masks[0][i] = exact;
            // Allowed: anything not above the true value (loss < draw < win).
            let below = match v.wdl() {
                Wdl::Win => ANY,
                Wdl::Draw => 1 | 4,
                Wdl::Loss => 4,
            };
            masks[1][i] = if v == Value::Win(1) { ANY } else { exact };
            let pos = idx.position(i as u64).unwrap();
            let moves = pos.legal_moves(&rules);
            let mut best: Option<Wdl> = if moves.is_empty() {
                Some(Wdl::Loss)
            } else {
                None
            };
            for mv in moves.iter() {
                if pos.is_winning_move(&rules, mv) {
                    best = Some(Wdl::Win);
                    break;
                }
                if mv.captured.is_some() {
                    let c = Value::from_child(tb.probe(&pos.play(mv)).unwrap()).wdl();
                    let rank = |w: Wdl| match w {
                        Wdl::Loss => 0,
                        Wdl::Draw => 1,
                        Wdl::Win => 2,
                    };
                    if best.is_none_or(|b| rank(c) > rank(b)) {
                        best = Some(c);
                    }
                }
            }
            masks[2][i] = if best == Some(v.wdl()) { below } else { exact };
        }
        positions += n;
        let mut line = format!("{m}: {n} positions");
        for (k, mask) in masks.iter().enumerate() {
            let filled = fill_runs(mask);
            if let Ok(dir) = std::env::var("DUMP") {
                std::fs::write(format!("{dir}/{m}.{k}"), &filled).unwrap();
            }
            let e = encode(&filled);
            let bits = e.stored_bytes() as f64 * 8.0;
            tot[k] += bits;
            line += &format!(
                " | {:.4} bits/pos ({} blocks, {} symbols)",
                bits / n as f64,
                e.starts.len() - 1,
                e.symbols.len()
            );
        }
        println!("{line}");
    }
    println!(
        "total: unused-only {:.4}  +win1 {:.4}  +captures {:.4} bits/pos",
        tot[0] / positions as f64,
        tot[1] / positions as f64,
        tot[2] / positions as f64
    );
}
