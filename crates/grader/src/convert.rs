//! `grader convert <PUZZLE> --to FORMAT [--from FORMAT]`: reads a puzzle in any
//! supported format (auto-detected unless `--from` says) and prints it in another.
//!
//! Bad input (unreadable, malformed, or not expressible in the target format) is
//! reported on stderr with the rule and position, and exits with code 2. A Tatham ID
//! that only the lenient reading accepts is converted, with a warning naming the
//! relaxed rules.

use crate::input::{read_puzzle_arg, PuzzleInput};
use anyhow::Context;
use clap::{Args, ValueEnum};
use kenken_formats::{read_any, write, CellProgress, Format, FormatError, Position};
use std::io::Write;
use std::process::ExitCode;

/// The exit code for bad input.
const BAD_INPUT: u8 = 2;

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
            FromFormat::Text => Format::Text,
            FromFormat::LetterGrid => Format::LetterGrid,
        }
    }
}

pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let input = match read_puzzle_arg(&args.puzzle) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("grader convert: error: {e:#}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    let imported = match read_any(&input.text, args.from.map(Format::from)) {
        Ok(i) => i,
        Err(e) => {
            report_read_error(&input, &e);
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    if !imported.relaxed.is_empty() {
        let rules: Vec<String> = imported.relaxed.iter().map(|r| r.to_string()).collect();
        let strict = imported
            .strict_error
            .as_ref()
            .map(|e| format!(" ({})", e.rule))
            .unwrap_or_default();
        eprintln!(
            "grader convert: warning: not a valid game ID by Tatham's rules{strict}; read it leniently, relaxing: {}",
            rules.join("; ")
        );
    }
    // Carry pencil marks over only when the input noted some.
    let progress = imported
        .progress
        .filter(|p| p.iter().any(|&c| c != CellProgress::Unknown));
    let to = Format::from(args.to);
    match write(&imported.puzzle, to, progress.as_deref()) {
        Ok(s) => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{s}").context("cannot write to standard output")?;
            out.flush().context("cannot write to standard output")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("grader convert: error: cannot write the puzzle as {to}: {e}");
            Ok(ExitCode::from(BAD_INPUT))
        }
    }
}

/// Prints a read error, with the offending line and a caret under the position
/// when the position is a place in the text.
fn report_read_error(input: &PuzzleInput, e: &FormatError) {
    eprintln!(
        "grader convert: error: cannot read the puzzle from {}: {e}",
        input.source.describe()
    );
    if let Some((line, column)) = locate(&input.text, &e.position) {
        if line.chars().count() <= 300 {
            eprintln!("  {line}");
            eprintln!("  {}^", " ".repeat(column));
        }
    }
}

/// The line holding a position and the 0-based character column in it.
fn locate<'a>(text: &'a str, position: &Position) -> Option<(&'a str, usize)> {
    match *position {
        Position::Offset(offset) => {
            let mut seen = 0;
            for line in text.split('\n') {
                let len = line.chars().count();
                if offset <= seen + len {
                    return Some((line.trim_end_matches('\r'), offset - seen));
                }
                seen += len + 1;
            }
            None
        }
        Position::Line {
            line,
            column: Some(column),
        } => {
            let l = text.split('\n').nth(line.checked_sub(1)?)?;
            Some((l.trim_end_matches('\r'), column.saturating_sub(1)))
        }
        _ => None,
    }
}
