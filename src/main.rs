//! `table`: build and query perfect lookup tables for sliding-tile puzzles.
//!
//! A thin layer over the `slidetable` library: parse arguments, call the library, print.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            if cli::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("table: {}", cli::one_line(&err));
            ExitCode::from(cli::exit_code(&err))
        }
    }
}
