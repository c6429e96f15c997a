//! Reading a puzzle argument: a literal puzzle string, a path to a file holding one,
//! or `-` for standard input, then the puzzle in it; and opening a batch input.
//! Shared by the subcommands; problems are reported on stderr with the
//! subcommand's name and give the bad-input exit code.

use crate::exit::BAD_INPUT;
use anyhow::{anyhow, bail};
use kenken_batch::text::{clip_message, relaxed_warning};
pub use kenken_batch::HideOps;
use kenken_formats::batch_input::{self, BatchError, Entries, Shape};
use kenken_formats::{read_any, Format, FormatError, Imported, Location, Rule};
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::os::fd::AsFd;
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

/// Says on stderr that standard input is being read, when it is a terminal (where a
/// silent wait looks like a hang).
fn announce_stdin(command: &str, what: &str) {
    if io::stdin().is_terminal() {
        eprintln!(
            "grader {command}: reading {what} from standard input (end with Ctrl-D; see `grader {command} --help`)"
        );
    }
}

/// Reads the puzzle an argument names. An argument that is an existing file is read
/// as a file; one that looks like a path but names nothing is an error (rather
/// than a confusing "unknown format"); anything else is the puzzle itself. The
/// text may be UTF-8 or UTF-16 with a byte-order mark.
pub fn read_puzzle_arg(command: &str, arg: &str) -> anyhow::Result<PuzzleInput> {
    if arg == "-" {
        announce_stdin(command, "the puzzle");
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| anyhow!("cannot read the puzzle from standard input: {e}"))?;
        let text = batch_input::decode_text(bytes, "standard input")?;
        return Ok(PuzzleInput {
            text,
            source: Source::Stdin,
        });
    }
    let path = Path::new(arg);
    if !arg.contains('\n') {
        if path.is_dir() {
            bail!("cannot read the puzzle file {arg}: it is a directory");
        }
        if path.is_file() {
            let bytes = std::fs::read(path)
                .map_err(|e| anyhow!("cannot read the puzzle file {}: {e}", path.display()))?;
            let text = batch_input::decode_text(bytes, &format!("file {}", path.display()))?;
            return Ok(PuzzleInput {
                text,
                source: Source::File(path.to_path_buf()),
            });
        }
    }
    if looks_like_path(arg) {
        bail!("cannot read the puzzle file {arg}: no such file");
    }
    Ok(PuzzleInput {
        text: arg.to_string(),
        source: Source::Literal,
    })
}

/// Opens the input of a subcommand that reads many puzzles: a file, or `-` for
/// standard input. An input that cannot be used is reported on stderr and gives
/// the bad-input exit code.
pub fn open_batch(command: &str, arg: &str) -> Result<Entries<'static>, ExitCode> {
    let opened = if arg == "-" {
        announce_stdin(command, "puzzles (one per line, NDJSON or a JSON array)");
        open_stdin()
    } else {
        batch_input::open(arg)
    };
    opened.map_err(|e| {
        eprintln!("grader {command}: error: {e}");
        ExitCode::from(BAD_INPUT)
    })
}

/// Standard input as a batch; its length is known when it is a regular file.
fn open_stdin() -> Result<Entries<'static>, BatchError> {
    let name = "standard input";
    let metadata = io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map(File::from)
        .and_then(|f| f.metadata())
        .ok();
    if metadata.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(BatchError::IsADirectory {
            name: name.to_string(),
        });
    }
    let len = metadata.filter(|m| m.is_file()).map(|m| m.len());
    batch_input::from_reader(io::stdin().lock(), name, len)
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
/// the relaxed rules. With `hide`, the puzzle's operations are hidden.
pub fn load_puzzle(
    command: &str,
    arg: &str,
    format: Option<Format>,
    hide: HideOps,
) -> Result<(PuzzleInput, Imported), ExitCode> {
    let input = read_puzzle_arg(command, arg).map_err(|e| {
        eprintln!("grader {command}: error: {e:#}");
        ExitCode::from(BAD_INPUT)
    })?;
    match read_any(&input.text, format) {
        Ok(imported) => {
            if let Some(warning) = relaxed_warning(&imported) {
                eprintln!("grader {command}: warning: {warning}");
            }
            Ok((input, imported.hiding_ops(hide.hide_ops)))
        }
        Err(e) => {
            match e.rule {
                Rule::ManyPuzzles { count, shape } => {
                    report_many(command, arg, &input, count, shape)
                }
                _ => report_read_error(command, &input, &e),
            }
            Err(ExitCode::from(BAD_INPUT))
        }
    }
}

/// Says that the input holds several puzzles, and which command reads them.
fn report_many(command: &str, arg: &str, input: &PuzzleInput, count: usize, shape: Shape) {
    let puzzles = if count == 1 { "puzzle" } else { "puzzles" };
    eprintln!(
        "grader {command}: error: {} holds {count} {puzzles} ({}), not one puzzle string",
        input.source.describe(),
        shape.describe()
    );
    let many = match command {
        "grade" => "grader batch",
        "solve" => "grader solve --many",
        _ => return,
    };
    let file = match &input.source {
        Source::File(_) => arg,
        _ => "-",
    };
    eprintln!("  to read them all, use `{many} {file}`");
}

/// Prints a read error, with the offending line and a caret under the position
/// when the position is a place in the text.
fn report_read_error(command: &str, input: &PuzzleInput, e: &FormatError) {
    eprintln!(
        "grader {command}: error: cannot read the puzzle from {}: {}",
        input.source.describe(),
        clip_message(e.to_string())
    );
    if let Some((line, column)) = locate(&input.text, &e.location) {
        // Shown as it is, so that the caret lines up: only a short line of
        // printable text.
        if line.chars().count() <= 300 && !line.chars().any(char::is_control) {
            eprintln!("  {line}");
            eprintln!("  {}^", " ".repeat(column));
        }
    }
}

/// The line holding a position and the 0-based character column in it.
fn locate<'a>(text: &'a str, position: &Location) -> Option<(&'a str, usize)> {
    match *position {
        Location::Offset(offset) => {
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
        Location::Line {
            line,
            column: Some(column),
        } => {
            let l = text.split('\n').nth(line.checked_sub(1)?)?;
            Some((l.trim_end_matches('\r'), column.saturating_sub(1)))
        }
        _ => None,
    }
}
