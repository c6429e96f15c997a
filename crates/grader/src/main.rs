//! `grader`: the command-line front end of the KenKen grader.
//!
//! This file only parses the command line and dispatches; each subcommand lives in
//! its own module with an `Args` struct and a `run` function returning the exit
//! code. Exit codes: 0 success, 2 bad input (the message on stderr names the rule
//! and where), 1 anything else (such as a closed output).

mod convert;
mod input;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "grader",
    version,
    about = "Solve, grade and convert KenKen (Calcudoku) puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Convert a puzzle to another string format.
    Convert(convert::ConvertArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Convert(args) => convert::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("grader: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
