//! The `jungletb` binary: the command line of [`jungletb_cli::run`].

#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(jungletb_cli::run(std::env::args_os()))
}
