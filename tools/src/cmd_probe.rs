//! `jungletb probe`.

use crate::common::{CmdResult, RulesArgs};
use clap::Args as ClapArgs;
use jungletb_format::Tablebase;
use jungletb_rules::{Color, Move, Position, Value};
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `probe`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Tables root directory.
    #[arg(
        long,
        default_value = "tables",
        env = "JUNGLETB_TABLES",
        value_name = "DIR"
    )]
    tables: PathBuf,
    #[command(flatten)]
    rules: RulesArgs,
    /// One JSON object per position per line.
    #[arg(long)]
    json: bool,
    /// Read positions from standard input, one per line.
    #[arg(long)]
    batch: bool,
    /// Positions, e.g. "7/7/7/7/7/7/7/7/E5r w" (quote each).
    positions: Vec<String>,
}

/// The full answer for one position.
struct Answer {
    pos: Position,
    value: Value,
    best: Vec<Move>,
    line: Vec<Move>,
}

fn answer(tb: &Tablebase, text: &str) -> Result<Answer, String> {
    let pos: Position = text.parse().map_err(|e| format!("{e}"))?;
    let value = tb.probe(&pos).map_err(|e| e.to_string())?;
    let best = tb.best_moves(&pos).map_err(|e| e.to_string())?;
    let line = tb.line(&pos).map_err(|e| e.to_string())?;
    Ok(Answer {
        pos,
        value,
        best,
        line,
    })
}

fn moves_text(m: &[Move]) -> String {
    if m.is_empty() {
        "(none)".into()
    } else {
        m.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve()?;
    let mut inputs = a.positions.clone();
    if a.batch {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| format!("reading standard input: {e}"))?;
            if !line.trim().is_empty() {
                inputs.push(line.trim().to_string());
            }
        }
    }
    if inputs.is_empty() {
        return Err("no position given (pass positions as arguments or use --batch)".into());
    }
    let tb = Tablebase::open(&a.tables, rules.clone());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0usize;
    for text in &inputs {
        let result = match &tb {
            Ok(tb) => answer(tb, text),
            Err(e) => Err(e.to_string()),
        };
        let written = match (&result, a.json) {
            (Ok(ans), true) => writeln!(
                out,
                "{}",
                json!({
                    "position": text,
                    "value": ans.value.wdl_name(),
                    "plies": ans.value.plies(),
                    "best_moves": ans.best.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                    "line": ans.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                })
            ),
            (Err(e), true) => writeln!(out, "{}", json!({ "position": text, "error": e })),
            (Ok(ans), false) => {
                let mover = match ans.pos.side_to_move() {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                writeln!(
                    out,
                    "{}\n{}\nValue: {} for {mover} (to move)\nBest moves: {}\nLine: {}\n",
                    ans.pos,
                    ans.pos.to_diagram(&rules),
                    ans.value,
                    moves_text(&ans.best),
                    if ans.line.is_empty() && ans.value == Value::Draw {
                        "(draw: no forced end)".to_string()
                    } else {
                        moves_text(&ans.line)
                    }
                )
            }
            (Err(e), false) => {
                eprintln!("jungletb: error: {text}: {e}");
                Ok(())
            }
        };
        written.map_err(|e| format!("writing output: {e}"))?;
        if result.is_err() {
            failed += 1;
        }
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
