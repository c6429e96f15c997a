//! `grader convert <PUZZLE> --to FORMAT [--from FORMAT]`: reads a puzzle in any
//! supported format (auto-detected unless `--from` says) and prints it in another.
//!
//! Bad input (unreadable, malformed, or not expressible in the target format) is
//! reported on stderr with the rule and position, and exits with code 2. A Tatham ID
//! that only the lenient reading accepts is converted, with a warning naming the
//! relaxed rules.

use crate::exit::BAD_INPUT;
use crate::input::{load_puzzle, HideOps};
use clap::{Args, ValueEnum};
use kenken_formats::{write, CellProgress, Format};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The puzzle: a string in any supported format, a file holding one, or `-` to
    /// read standard input.
    pub puzzle: String,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: ToFormat,
    /// The format to read (detected from the input when omitted).
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    #[command(flatten)]
    pub hide: HideOps,
}

/// Formats that can be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToFormat {
    /// Simon Tatham's Keen game ID.
    Tatham,
    /// SudokuWiki packed KenKen 6x6.
    K6c,
    /// SudokuWiki packed KenDoku 6x6.
    D6c,
    /// SudokuWiki's KenKen 6x6 solver URL.
    Sudokuwiki,
    /// One line per cage ("# 3" / "+ 3 A1 B1").
    Text,
}

impl From<ToFormat> for Format {
    fn from(f: ToFormat) -> Format {
        match f {
            ToFormat::Tatham => Format::Tatham,
            ToFormat::K6c => Format::K6c,
            ToFormat::D6c => Format::D6c,
            ToFormat::Sudokuwiki => Format::SudokuWiki,
            ToFormat::Text => Format::Text,
        }
    }
}

/// Formats that can be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FromFormat {
    /// Simon Tatham's Keen game ID (or a web-player URL holding one).
    Tatham,
    /// SudokuWiki packed KenKen 6x6.
    K6c,
    /// SudokuWiki packed KenDoku 6x6.
    D6c,
    /// SudokuWiki's KenKen 6x6 solver URL.
    Sudokuwiki,
    /// One line per cage ("# 3" / "+ 3 A1 B1").
    Text,
    /// Size line, a letter per cell, then the clues.
    LetterGrid,
}

impl From<FromFormat> for Format {
    fn from(f: FromFormat) -> Format {
        match f {
            FromFormat::Tatham => Format::Tatham,
            FromFormat::K6c => Format::K6c,
            FromFormat::D6c => Format::D6c,
            FromFormat::Sudokuwiki => Format::SudokuWiki,
            FromFormat::Text => Format::Text,
            FromFormat::LetterGrid => Format::LetterGrid,
        }
    }
}

pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let (_, imported) = match load_puzzle(
        "convert",
        &args.puzzle,
        args.from.map(Format::from),
        args.hide,
    ) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    // Carry pencil marks over only when the input noted some.
    let progress = imported
        .progress
        .filter(|p| p.iter().any(|&c| c != CellProgress::Unknown));
    let to = Format::from(args.to);
    match write(&imported.puzzle, to, progress.as_deref()) {
        Ok(s) => {
            crate::report::print(&s)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("grader convert: error: cannot write the puzzle as {to}: {e}");
            Ok(ExitCode::from(BAD_INPUT))
        }
    }
}
