//! `jungletb`: generate, probe, verify and inspect Jungle endgame tablebases.
//!
//! The command line as a library: [`run`] is the whole program (the
//! `jungletb` binary calls it, and so does the console script the Python
//! wheel installs), so that one build gives both.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// `println!` for command output: a closed pipe (`jungletb stats | head -1`)
/// ends the program quietly instead of panicking; any other write error is
/// reported (see [`output::write_line`]).
macro_rules! outln {
    () => {
        $crate::output::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::write_line(format_args!($($arg)*))
    };
}

/// `eprintln!` for messages and progress on standard error: a write that
/// fails (the reader of `2>&1 | head` gone) is dropped, never a panic, so
/// that it cannot kill a signal handler or a solve (see
/// [`output::write_err_line`]).
macro_rules! errln {
    () => {
        $crate::output::write_err_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::write_err_line(format_args!($($arg)*))
    };
}

mod advice;
mod args;
mod cmd_compare;
mod cmd_compress;
mod cmd_generate;
mod cmd_info;
mod cmd_movegen_suite;
mod cmd_perft;
mod cmd_plan;
mod cmd_probe;
mod cmd_puzzles;
mod cmd_render;
mod cmd_rules;
mod cmd_serve;
mod cmd_site;
mod cmd_stats;
mod cmd_verify;
mod cmd_zugzwangs;
mod output;
pub mod progress;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Endgame tablebases for Jungle (Dou Shou Qi).
///
/// Generate tables by retrograde analysis, probe positions (value, distance
/// in plies, best moves, the line to the end), verify and inspect tables.
#[derive(Parser)]
#[command(name = "jungletb", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate every table up to N pieces (missing or invalid ones only).
    Generate(cmd_generate::Args),
    /// List what is left to generate, with cost estimates; write Slurm scripts.
    Plan(cmd_plan::Args),
    /// Probe positions: value, distance, best moves and the line to the end.
    Probe(cmd_probe::Args),
    /// Count move sequences of a given depth (move-generator check).
    Perft(cmd_perft::Args),
    /// Write the move-generator suite of a rule set (JSON lines), or check
    /// another Jungle program's answers against it.
    MovegenSuite(cmd_movegen_suite::Args),
    /// Check checksums, headers and the forward consistency of every position.
    Verify(cmd_verify::Args),
    /// Write compressed distribution tables (.jtbz) beside or apart from the originals.
    Compress(cmd_compress::Args),
    /// Show the header of one table file.
    Info(cmd_info::InfoArgs),
    /// Per-material and per-piece-count totals of a table directory.
    Stats(cmd_stats::StatsArgs),
    /// List the rule sets and options, or resolve one rule set.
    Rules(cmd_rules::Args),
    /// Mutual and half zugzwangs per material, with examples.
    Zugzwangs(cmd_zugzwangs::Args),
    /// Positions where exactly one move wins, deepest first.
    Puzzles(cmd_puzzles::Args),
    /// Write a static site of the tables: a page per material, the board
    /// probing in the browser (WebAssembly), the tables to download.
    Site(cmd_site::Args),
    /// Which positions change value between two rule sets.
    CompareRules(cmd_compare::Args),
    /// Serve the HTTP API and the web board.
    Serve(cmd_serve::Args),
    /// Write pictures as SVG: the map of a piece, a material's histogram.
    Render(cmd_render::Args),
}

/// The exit status of a solve stopped by a signal, which the same command
/// resumes (the Slurm scripts requeue on it): 75, `EX_TEMPFAIL`. Its
/// checkpoint is saved, or it stopped before it had anything to save (a
/// signal between two materials, or before a sweep's first group).
pub const EXIT_CHECKPOINTED: u8 = 75;

/// The exit status of a command that failed with `e`: 1, or
/// [`EXIT_CHECKPOINTED`].
fn exit_code_of(e: &(dyn std::error::Error + 'static)) -> u8 {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(
            jungletb_solver::SolveError::Checkpointed { .. }
            | jungletb_solver::SolveError::Interrupted { .. },
        ) = c.downcast_ref()
        {
            return EXIT_CHECKPOINTED;
        }
        cause = c.source();
    }
    1
}

/// Runs the command line on `args` (the program name first, as
/// [`std::env::args_os`] gives it) and returns the process's exit status:
/// 0 on success, 1 on failure (the error and its hint on stderr; 75 for
/// a solve stopped with its checkpoint saved, [`EXIT_CHECKPOINTED`]), 2 for
/// bad arguments (clap's message). `--help` and `--version` print and
/// return 0.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code().clamp(0, 255) as u8;
        }
    };
    let result = match cli.command {
        Command::Generate(a) => cmd_generate::run(a),
        Command::Plan(a) => cmd_plan::run(a),
        Command::Probe(a) => cmd_probe::run(a),
        Command::Perft(a) => cmd_perft::run(a),
        Command::MovegenSuite(a) => cmd_movegen_suite::run(a),
        Command::Verify(a) => cmd_verify::run(a),
        Command::Compress(a) => cmd_compress::run(a),
        Command::Info(a) => cmd_info::run_info(a),
        Command::Stats(a) => cmd_stats::run_stats(a),
        Command::Rules(a) => cmd_rules::run(a),
        Command::Zugzwangs(a) => cmd_zugzwangs::run(a),
        Command::Puzzles(a) => cmd_puzzles::run(a),
        Command::Site(a) => cmd_site::run(a),
        Command::CompareRules(a) => cmd_compare::run(a),
        Command::Serve(a) => cmd_serve::run(a),
        Command::Render(a) => cmd_render::run(a),
    };
    match result {
        Ok(code) if code == ExitCode::SUCCESS => 0,
        Ok(_) => 1,
        Err(e) => {
            // The whole cause chain on one line ("a: b: c"), then what to
            // do about it, if we know.
            advice::eprint_error(&advice::chain(e.as_ref()), advice::hint_for(e.as_ref()));
            exit_code_of(e.as_ref())
        }
    }
}
