//! Reading a puzzle argument: a literal puzzle string, a path to a file holding one,
//! or `-` for standard input. Shared by the subcommands that take one puzzle.

use anyhow::{bail, Context};
use std::io::Read;
use std::path::{Path, PathBuf};

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
