//! `jungletb render`: pictures as SVG files (the web board's map and
//! histogram views).

use crate::args::{CmdResult, RulesArgs, TablesArg};
use anyhow::{anyhow, Context};
use clap::{Args as ClapArgs, Subcommand};
use jungletb_analysis::histogram::histogram;
use jungletb_analysis::piece_map::piece_map;
use jungletb_analysis::svg::{histogram_svg, map_svg};
use jungletb_indexer::Material;
use jungletb_rules::{Position, Square};
use jungletb_tablebase::Tablebase;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `render`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    #[command(subcommand)]
    picture: Picture,
    #[command(flatten)]
    tables: TablesArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// Write the SVG to this file (default: standard output). An existing
    /// file is not replaced unless --force is given.
    #[arg(long, short, global = true, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long, global = true)]
    force: bool,
}

#[derive(Subcommand, Debug)]
enum Picture {
    /// The value of a position with one piece on each square in turn.
    Map {
        /// The position, e.g. "7/7/7/7/7/7/7/7/E5r w".
        position: String,
        /// The square of the piece to move around, e.g. a1.
        #[arg(long)]
        square: String,
    },
    /// The distance histogram of a material, per side to move.
    Histogram {
        /// The material, e.g. ELvTR.
        material: String,
    },
}

pub fn run(a: Args) -> CmdResult {
    let rules = a.rules.resolve_in(Some(&a.tables.path))?;
    let tb = Tablebase::open(&a.tables.path, rules.clone())?;
    let svg = match &a.picture {
        Picture::Map { position, square } => {
            let pos: Position = position.parse().with_context(|| format!("'{position}'"))?;
            let from: Square = square.parse()?;
            let map = piece_map(&tb, &pos, from)?;
            map_svg(&rules, &map)
        }
        Picture::Histogram { material } => {
            let m: Material = material.parse()?;
            let table = tb.table(m)?;
            let drawn = table.header().material;
            if m != drawn {
                errln!(
                    "{m} is the colour swap of {drawn}: one table holds both; drawn as {drawn} (its White is {m}'s Black)"
                );
            }
            let hist = histogram(&tb, m)?;
            histogram_svg(table.header().material, &hist)
        }
    };
    match &a.out {
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(svg.as_bytes()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(anyhow!("render: {e}"))
                }
                _ => {}
            }
        }
        Some(path) => {
            if path.exists() && !a.force {
                return Err(anyhow!(
                    "'{}' exists; pass --force to replace it",
                    path.display()
                ));
            }
            std::fs::write(path, svg)
                .with_context(|| format!("render: cannot write '{}'", path.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
