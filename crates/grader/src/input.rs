//! Reading a puzzle argument: a literal puzzle string, a path to a file holding one,
//! or `-` for standard input, then the puzzle in it. Shared by the subcommands that
//! take one puzzle; problems are reported on stderr with the subcommand's name.

use crate::exit::BAD_INPUT;
use anyhow::{bail, Context};
use kenken_formats::{read_any, Format, FormatError, Imported, Position};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where a puzzle's text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The argument itself.
    Literal,
    /// A file named by the argument.
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

impl Source {
    /// For messages: "the argument", "file x.txt", "standard input".
    pub fn describe(&self) -> String {
        match self {
            Source::Literal => "the argument".to_string(),
            Source::File(p) => format!("file {}", p.display()),
            Source::Stdin => "standard input".to_string(),
        }
    }
}

/// A puzzle's text and its source.
#[derive(Clone, Debug)]
pub struct PuzzleInput {
    pub text: String,
    pub source: Source,
}

/// Reads the puzzle an argument names. An argument that is an existing file is read
/// as a file; one that looks like a path but names nothing is an error (rather
/// than a confusing "unknown format"); anything else is the puzzle itself.
pub fn read_puzzle_arg(arg: &str) -> anyhow::Result<PuzzleInput> {
    if arg == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the puzzle from standard input")?;
        return Ok(PuzzleInput {
            text,
            source: Source::Stdin,
        });
    }
    let path = Path::new(arg);
    if !arg.contains('\n') && path.is_file() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the puzzle file {}", path.display()))?;
        return Ok(PuzzleInput {
            text,
            source: Source::File(path.to_path_buf()),
        });
    }
    if looks_like_path(arg) {
        bail!("cannot read the puzzle file {arg}: no such file");
    }
    Ok(PuzzleInput {
        text: arg.to_string(),
        source: Source::Literal,
    })
}

/// No puzzle string has a path separator without also having a `:` (Tatham IDs,
/// URLs) or a line break (text formats), nor ends in a file extension.
fn looks_like_path(arg: &str) -> bool {
    let t = arg.trim();
    if t.contains('\n') || t.contains(':') || t.contains('#') {
        return false;
    }
    t.contains('/')
        || t.contains('\\')
        || [".txt", ".keen", ".json", ".ndjson", ".puz"]
            .iter()
            .any(|ext| t.to_ascii_lowercase().ends_with(ext))
}

/// Reads the puzzle an argument names in `format` (detected when `None`). A problem
/// is reported on stderr as `grader <command>: error: …` (with the offending line
/// and a caret where the position is known) and gives the bad-input exit code. A
/// Tatham ID that only the lenient reading accepts is read, with a warning naming
/// the relaxed rules.
pub fn load_puzzle(
    command: &str,
    arg: &str,
    format: Option<Format>,
) -> Result<(PuzzleInput, Imported), ExitCode> {
    let input = read_puzzle_arg(arg).map_err(|e| {
        eprintln!("grader {command}: error: {e:#}");
        ExitCode::from(BAD_INPUT)
    })?;
    match read_any(&input.text, format) {
        Ok(imported) => {
            if let Some(warning) = relaxed_warning(&imported) {
                eprintln!("grader {command}: warning: {warning}");
            }
            Ok((input, imported))
        }
        Err(e) => {
            report_read_error(command, &input, &e);
            Err(ExitCode::from(BAD_INPUT))
        }
    }
}

/// For a Tatham ID read leniently: which of Tatham's rules it breaks and which
/// rules the lenient reading relaxed.
pub fn relaxed_warning(imported: &Imported) -> Option<String> {
    if imported.relaxed.is_empty() {
        return None;
    }
    let rules: Vec<String> = imported.relaxed.iter().map(|r| r.to_string()).collect();
    let strict = imported
        .strict_error
        .as_ref()
        .map(|e| format!(" ({})", e.rule))
        .unwrap_or_default();
    Some(format!(
        "not a valid game ID by Tatham's rules{strict}; read it leniently, relaxing: {}",
        rules.join("; ")
    ))
}

/// Prints a read error, with the offending line and a caret under the position
/// when the position is a place in the text.
fn report_read_error(command: &str, input: &PuzzleInput, e: &FormatError) {
    eprintln!(
        "grader {command}: error: cannot read the puzzle from {}: {e}",
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
