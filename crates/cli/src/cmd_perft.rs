//! `jungletb perft`.

use crate::args::{CmdResult, RulesArgs};
use clap::Args as ClapArgs;
use jungletb_rules::{perft, perft_divide, Position};
use std::process::ExitCode;

/// Arguments of `perft`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// The position (quote it), or "start".
    position: String,
    /// Depth in plies.
    #[arg(long, value_name = "N")]
    depth: u32,
    /// Print the count of every root move.
    #[arg(long)]
    divide: bool,
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve()?;
    let pos: Position = a.position.parse()?;
    // A finished game is a position of the game with no moves: its perft
    // is 0 at every depth above 0.
    pos.validate_reachable(&rules)?;
    if pos.is_game_over(&rules) && a.depth > 0 {
        if a.divide {
            outln!("total: 0");
        } else {
            outln!("0");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&pos, &rules, a.depth) {
            outln!("{mv}: {n}");
            total += n;
        }
        outln!("total: {total}");
    } else {
        outln!("{}", perft(&pos, &rules, a.depth));
    }
    Ok(ExitCode::SUCCESS)
}
