//! `jungletb probe`.

use crate::advice::{chain, eprint_error, hint_for};
use crate::args::{CmdResult, RulesArgs, TablesArg};
use crate::output::{duration, human_bytes};
use anyhow::bail;
use clap::Args as ClapArgs;
use jungletb_indexer::Material;
use jungletb_rules::{line_text, Color, Move, Position, Ruleset, Value};
use jungletb_solver::{Calibration, Plan};
use jungletb_tablebase::{Evaluation, ProbeError, Tablebase};
use jungletb_wire::{self as wire, ErrorKind};
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
    /// Count the opponent's replies to each move by their value for the
    /// opponent (`replies` in JSON, `replies W/D/L` in text): among moves
    /// of equal value, the one that leaves fewest good replies is the
    /// practical choice. A ply of probes more.
    #[arg(long)]
    replies: bool,
    /// Read positions from standard input, one per line, answering each as
    /// soon as it is read (also the default when no position is given and
    /// standard input is not a terminal); blank lines and lines starting
    /// with `#` are skipped.
    #[arg(long)]
    batch: bool,
    /// Positions, e.g. "7/7/7/7/7/7/7/7/E5r w" (quote each), or `start`.
    positions: Vec<String>,
}

/// The full answer for one position.
struct Answer {
    eval: Evaluation,
    line: Vec<Move>,
}

/// A failed position: what the JSON line says, and the error itself for
/// the text output (its cause chain and hint).
struct Failure {
    kind: ErrorKind,
    error: anyhow::Error,
}

impl From<ProbeError> for Failure {
    fn from(e: ProbeError) -> Failure {
        Failure {
            kind: ErrorKind::of(&e),
            error: e.into(),
        }
    }
}

/// What generating `material` under `rules` into `root` costs, said when
/// it is more than a few seconds: it builds every smaller table it needs
/// too. An error if no index can hold the material.
fn generate_cost(
    root: &std::path::Path,
    rules: &Ruleset,
    material: Material,
) -> Result<String, jungletb_indexer::IndexError> {
    let (canonical, _) = material.canonical();
    jungletb_indexer::PositionIndex::new(canonical, rules)?;
    let list = Material::with_dependencies(&[canonical]);
    let Ok(plan) = Plan::new(root, rules, list, Calibration::default()) else {
        return Ok(String::new());
    };
    let seconds = plan.core_seconds() / rayon::current_num_threads().max(1) as f64;
    if seconds < 30.0 {
        return Ok(String::new());
    }
    let memory = plan.largest_memory();
    let warning = crate::advice::memory_advice(&plan).map_or(String::new(), |m| format!("; {m}"));
    Ok(format!(
        " (it also builds the {} smaller tables it needs that are missing: about {} on this \
         machine's {} cores and up to {} of memory, by `jungletb plan`'s estimate{warning})",
        plan.entries.len().saturating_sub(1),
        duration(seconds),
        rayon::current_num_threads(),
        human_bytes(memory)
    ))
}

fn answer(tb: &Tablebase, text: &str, replies: bool) -> Result<Answer, Failure> {
    let pos = text.parse::<Position>().map_err(|e| Failure {
        kind: ErrorKind::Notation,
        error: e.into(),
    })?;
    let eval = if replies {
        tb.evaluate_with_replies(&pos)?
    } else {
        tb.evaluate(&pos)?
    };
    let line = if eval.game_over.is_some() {
        Vec::new()
    } else {
        tb.line(&pos)?
    };
    Ok(Answer { eval, line })
}

/// The number of pieces of a position whose table is missing because no
/// index holds its material (the start position's 16 pieces).
fn beyond_every_index(rules: &Ruleset, text: &str, f: &Failure) -> Option<u32> {
    if f.kind != ErrorKind::MissingTable {
        return None;
    }
    let material = Material::of_position(&text.parse::<Position>().ok()?)?;
    match jungletb_indexer::PositionIndex::new(material.canonical().0, rules) {
        Err(jungletb_indexer::IndexError::TooLarge { .. }) => Some(material.piece_count()),
        _ => None,
    }
}

/// What to do about a failed position: for a missing table or rule set,
/// the command that makes it, with this run's --tables, --ruleset and
/// --rule options and the material as written.
fn probe_hint(a: &Args, text: &str, f: &Failure) -> Option<String> {
    // --out is the tables root, also when --tables names one rule set's
    // directory (else the tables would go to tables/standard/standard).
    let root = a
        .rules
        .resolve_in(Some(&a.tables.path))
        .ok()
        .map(|rules| jungletb_tablebase::table_dir(&a.tables.path, &rules))
        .filter(|dir| dir == &a.tables.path)
        .and_then(|dir| dir.parent().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| a.tables.path.clone());
    let generate = format!(
        "jungletb generate --out {} {}",
        root.display(),
        a.rules.command_args()
    );
    match f.kind {
        ErrorKind::MissingTable => {
            let pos = text.parse::<Position>().ok()?;
            let material = Material::of_position(&pos)?;
            let rules = a.rules.resolve_in(Some(&a.tables.path)).ok()?;
            Some(match generate_cost(&a.tables.path, &rules, material) {
                Err(too_large) => format!(
                    "no table can hold this position of {} pieces: {too_large} (tables are made \
                     up to 6 pieces so far)",
                    material.piece_count()
                ),
                Ok(cost) => format!(
                    "generate it with `{generate} --material {material}`{cost}, or point \
                     --tables (or JUNGLETB_TABLES) at the tables"
                ),
            })
        }
        ErrorKind::NoTables => {
            let rules = a.rules.resolve_in(Some(&a.tables.path)).ok()?;
            let missing = jungletb_tablebase::table_dir(&a.tables.path, &rules);
            Some(
                crate::advice::nested_hint(&missing, &rules.label()).unwrap_or_else(|| {
                    format!(
                        "make them with `{generate}`, or point --tables (or JUNGLETB_TABLES) at \
                         the tables"
                    )
                }),
            )
        }
        _ => hint_for(f.error.as_ref()),
    }
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

/// The line of `--json` output for one input (see `jungletb_wire`).
fn json_answer(rules: &Ruleset, text: &str, result: &Result<Answer, Failure>) -> String {
    let strings = |m: &[Move]| m.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    match result {
        Ok(a) => {
            let mut answer = wire::position_answer(rules, &a.eval);
            answer.input = Some(text.to_string());
            answer.best_moves = Some(strings(&best_moves(a)));
            answer.line = Some(strings(&a.line));
            serde_json::to_string(&answer)
        }
        Err(f) => serde_json::to_string(&wire::ErrorAnswer {
            input: Some(text.to_string()),
            error: chain(f.error.as_ref()),
            kind: f.kind,
        }),
    }
    .expect("serialisable")
}

fn write_text(out: &mut impl Write, rules: &Ruleset, a: &Answer) -> std::io::Result<()> {
    let mover = match a.eval.position.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    // The rule set that answered, always: a folder of other rules' tables
    // never answers unannounced.
    writeln!(
        out,
        "{}\n{}\nRules: {}",
        a.eval.position,
        a.eval.position.to_diagram(rules),
        rules.label()
    )?;
    if let Some(over) = a.eval.game_over {
        // A finished game has no best move and no line: say why instead.
        writeln!(
            out,
            "Game over ({}): {} for {mover} (to move); no moves to play\n",
            over.describe(),
            a.eval.value
        )?;
        return Ok(());
    }
    writeln!(out, "Value: {} for {mover} (to move)", a.eval.value)?;
    if !a.eval.moves.is_empty() {
        writeln!(out, "Moves:")?;
        let board = rules.board();
        for r in &a.eval.moves {
            // The piece's letter before the move, as in the line; what the
            // move does after its value.
            let piece = a
                .eval
                .position
                .piece_at(r.mv.from)
                .map_or(' ', |p| p.letter());
            let marks = match (r.mv.captured.is_some(), board.is_den(r.mv.to)) {
                (true, true) => " (capture, den)",
                (true, false) => " (capture)",
                (false, true) => " (den)",
                (false, false) => "",
            };
            let replies = r.replies.map_or(String::new(), |r| {
                format!("  replies {}/{}/{} (win/draw/loss)", r.win, r.draw, r.loss)
            });
            writeln!(
                out,
                "  {piece}{:<6} {}{marks}{replies}",
                r.mv.to_string(),
                r.value
            )?;
        }
    }
    writeln!(out, "Best moves: {}", moves_text(&best_moves(a)))?;
    let line = if a.line.is_empty() && a.eval.value == Value::Draw {
        "(draw: no forced end)".to_string()
    } else {
        line_text(&a.eval.position, &a.line, rules)
    };
    writeln!(out, "Line: {line}\n")
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let from_stdin = a.batch || (a.positions.is_empty() && !std::io::stdin().is_terminal());
    if a.positions.is_empty() && !from_stdin {
        bail!("no position given (pass positions as arguments, or pipe them in one per line)");
    }
    let tb = Tablebase::open(&a.tables.path, rules.clone());
    let stdout = std::io::stdout();
    let mut failed = 0usize;
    let mut one = |text: &str| -> std::io::Result<()> {
        let result = match &tb {
            Ok(tb) => answer(tb, text, a.replies),
            Err(e) => Err(Failure::from(e.clone())),
        };
        let mut out = stdout.lock();
        match (&result, a.json) {
            (_, true) => writeln!(out, "{}", json_answer(&rules, text, &result))?,
            (Ok(ans), false) => write_text(&mut out, &rules, ans)?,
            (Err(f), false) => {
                // The input is echoed once (a notation error may quote it
                // already); a position no table can hold says so instead
                // of naming a file that cannot exist.
                let message = chain(f.error.as_ref());
                if let Some(n) = beyond_every_index(&rules, text, f) {
                    eprint_error(
                        &format!(
                            "{text}: no table holds a position of {n} pieces (tables are made \
                             up to 6 pieces; an index exists up to 7)"
                        ),
                        None,
                    );
                } else if message.contains(text) {
                    eprint_error(&message, probe_hint(&a, text, f));
                } else {
                    eprint_error(&format!("{text}: {message}"), probe_hint(&a, text, f));
                }
            }
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
                // Blank lines and `#` comments are skipped (a file of
                // positions may carry notes).
                let text = line.trim();
                if !text.is_empty() && !text.starts_with('#') {
                    one(text)?;
                }
            }
        }
        Ok(())
    })();
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(anyhow::Error::from(e).context("probe")),
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
