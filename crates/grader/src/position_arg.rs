//! The `--state` of `render`, `hint` and `check`: a solver's position, read with
//! [`kenken_formats::state`] from a literal, a file or `-`, or else taken from a
//! K6C/D6C puzzle string's own progress.

use crate::exit::BAD_INPUT;
use crate::input::read_puzzle_arg;
use kenken_formats::state;
use kenken_formats::{CellProgress, Imported};
use kenken_techniques::position::{Entry, Position};
use std::process::ExitCode;

/// The position `arg` names, or (without one) the progress a K6C/D6C puzzle
/// carries, or the empty grid. Problems are reported on stderr with the command's
/// name and give the bad-input exit code.
pub fn load_position(
    command: &str,
    imported: &Imported,
    arg: Option<&str>,
) -> Result<Position, ExitCode> {
    let fail = |message: String| {
        eprintln!("grader {command}: error: {message}");
        ExitCode::from(BAD_INPUT)
    };
    let puzzle = &imported.puzzle;
    let progress = match arg {
        Some(arg) => {
            let input = read_puzzle_arg(command, arg).map_err(|e| fail(format!("{e:#}")))?;
            state::read(puzzle, &input.text).map_err(|e| {
                fail(format!(
                    "cannot read the position from {}: {e}",
                    input.source.describe()
                ))
            })?
        }
        None => match &imported.progress {
            Some(progress) => progress.clone(),
            None => return Ok(Position::blank(puzzle.size())),
        },
    };
    let entries = progress
        .into_iter()
        .map(|p| match p {
            CellProgress::Unknown => Entry::Blank,
            CellProgress::Solved(d) => Entry::Digit(d),
            CellProgress::Candidates(m) => Entry::Marks(m),
        })
        .collect();
    Position::new(puzzle.size(), entries).map_err(|e| fail(format!("bad position: {e}")))
}
