//! `jungletb probe`.

use crate::common::{CmdResult, RulesArgs, TablesArg};
use clap::Args as ClapArgs;
use jungletb_tablebase::{Evaluation, GameOver, ProbeError, Tablebase};
use jungletb_indexer::Material;
use jungletb_rules::{Color, Move, Position, Ruleset, Value};
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

/// Arguments of `probe`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// One JSON object per position per line.
    #[arg(long)]
    json: bool,
    /// Read positions from standard input, one per line, answering each as
    /// soon as it is read (also the default when no position is given and
    /// standard input is not a terminal).
    #[arg(long)]
    batch: bool,
    /// Positions, e.g. "7/7/7/7/7/7/7/7/E5r w" (quote each).
    positions: Vec<String>,
}

/// The full answer for one position.
struct Answer {
    eval: Evaluation,
    line: Vec<Move>,
}

/// A failed position: a machine-readable kind and a message.
struct Failure {
    kind: &'static str,
    message: String,
}

impl From<ProbeError> for Failure {
    fn from(e: ProbeError) -> Failure {
        let kind = match &e {
            ProbeError::Position(_) => "impossible_position",
            ProbeError::Rules(_) => "rules",
            ProbeError::GameOver(_) => "game_over",
            ProbeError::NoTables(_) => "no_tables",
            ProbeError::Table(jungletb_tablebase::TableError::Missing(_)) => "missing_table",
            ProbeError::Table(_) => "bad_table",
        };
        Failure {
            kind,
            message: e.to_string(),
        }
    }
}

fn answer(
    tb: &Tablebase,
    text: &str,
    hint: &dyn Fn(&Position) -> String,
) -> Result<Answer, Failure> {
    let pos: Position = text.parse().map_err(|e| Failure {
        kind: "notation",
        message: format!("{e}"),
    })?;
    let with_hint = |e: ProbeError| {
        let mut f = Failure::from(e);
        if f.kind == "missing_table" {
            f.message = format!("{}; {}", f.message, hint(&pos));
        }
        f
    };
    let eval = tb.evaluate(&pos).map_err(with_hint)?;
    let line = if eval.game_over.is_some() {
        Vec::new()
    } else {
        tb.line(&pos).map_err(with_hint)?
    };
    Ok(Answer { eval, line })
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

fn best_moves(a: &Answer) -> Vec<Move> {
    let Some(best) = a.eval.moves.first().map(|r| r.value) else {
        return Vec::new();
    };
    a.eval
        .moves
        .iter()
        .take_while(|r| r.value == best)
        .map(|r| r.mv)
        .collect()
}

fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

fn json_answer(text: &str, result: &Result<Answer, Failure>) -> serde_json::Value {
    match result {
        Ok(a) => json!({
            "input": text,
            "position": a.eval.position.to_string(),
            "side_to_move": side_letter(a.eval.position.side_to_move()),
            "value": a.eval.value.wdl_name(),
            "plies": a.eval.value.plies(),
            "game_over": a.eval.game_over.map(GameOver::name),
            "moves": a.eval.moves.iter().map(|r| json!({
                "move": r.mv.to_string(),
                "value": r.value.wdl_name(),
                "plies": r.value.plies(),
                "capture": r.mv.captured.is_some(),
            })).collect::<Vec<_>>(),
            "best_moves": best_moves(a).iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "line": a.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        }),
        Err(f) => json!({ "input": text, "position": text, "error": f.message, "kind": f.kind }),
    }
}

fn write_text(out: &mut impl Write, rules: &Ruleset, a: &Answer) -> std::io::Result<()> {
    let mover = match a.eval.position.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    writeln!(
        out,
        "{}\n{}",
        a.eval.position,
        a.eval.position.to_diagram(rules)
    )?;
    match a.eval.game_over {
        Some(f @ (GameOver::Den | GameOver::NoPieces)) => {
            writeln!(
                out,
                "Game over ({}): {} for {mover} (to move)\n",
                f.describe(),
                a.eval.value
            )?;
            return Ok(());
        }
        Some(GameOver::NoMoves) => writeln!(
            out,
            "Game over ({}): {} for {mover} (to move)",
            GameOver::NoMoves.describe(),
            a.eval.value
        )?,
        None => writeln!(out, "Value: {} for {mover} (to move)", a.eval.value)?,
    }
    if !a.eval.moves.is_empty() {
        writeln!(out, "Moves:")?;
        for r in &a.eval.moves {
            writeln!(
                out,
                "  {:<6} {}{}",
                r.mv.to_string(),
                r.value,
                if r.mv.captured.is_some() {
                    " (capture)"
                } else {
                    ""
                }
            )?;
        }
    }
    writeln!(out, "Best moves: {}", moves_text(&best_moves(a)))?;
    let line = if a.line.is_empty() && a.eval.value == Value::Draw {
        "(draw: no forced end)".to_string()
    } else {
        moves_text(&a.line)
    };
    writeln!(out, "Line: {line}\n")
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let from_stdin = a.batch || (a.positions.is_empty() && !std::io::stdin().is_terminal());
    if a.positions.is_empty() && !from_stdin {
        return Err(
            "no position given (pass positions as arguments, or pipe them in one per line)".into(),
        );
    }
    let tb = Tablebase::open(&a.tables.path, rules.clone());
    let hint = |pos: &Position| {
        let material = Material::of_position(pos).map_or(String::new(), |m| m.to_string());
        format!(
            "generate it with: jungletb generate --out {} {} --material {material}",
            a.tables.path.display(),
            a.rules.command_args()
        )
    };
    let stdout = std::io::stdout();
    let mut failed = 0usize;
    let mut one = |text: &str| -> std::io::Result<()> {
        let result = match &tb {
            Ok(tb) => answer(tb, text, &hint),
            Err(e) => Err(Failure::from(ProbeError::NoTables(format!(
                "{e}; generate tables with: jungletb generate --out {} {}",
                a.tables.path.display(),
                a.rules.command_args()
            )))),
        };
        let mut out = stdout.lock();
        match (&result, a.json) {
            (_, true) => writeln!(out, "{}", json_answer(text, &result))?,
            (Ok(ans), false) => write_text(&mut out, &rules, ans)?,
            (Err(f), false) => eprintln!("jungletb: error: {text}: {}", f.message),
        }
        // Answer each line as soon as it is read: a GUI or an engine may
        // keep one process open as a pipe.
        out.flush()?;
        if result.is_err() {
            failed += 1;
        }
        Ok(())
    };
    let written = (|| -> std::io::Result<()> {
        for text in &a.positions {
            one(text)?;
        }
        if from_stdin {
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                if !line.trim().is_empty() {
                    one(line.trim())?;
                }
            }
        }
        Ok(())
    })();
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(format!("probe: {e}")),
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
