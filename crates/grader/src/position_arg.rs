//! The puzzle and position arguments of `render`, `hint` and `check`: the puzzle
//! (`--from` forcing its format), and `--state`, a solver's position read with
//! [`kenken_formats::state`] from a literal, a file or `-`, or else taken from a
//! K6C/D6C puzzle string's own progress.

use crate::convert::FromFormat;
use crate::exit::BAD_INPUT;
use crate::input::{load_puzzle, read_puzzle_arg, HideOps};
use clap::Args;
use kenken_batch::positions::position_from_progress;
use kenken_formats::state;
use kenken_formats::{Format, Imported};
use kenken_techniques::position::Position;
use std::process::ExitCode;

/// A puzzle and a solver's position in it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The puzzle: a string in any supported format, a file holding one, or `-` to
    /// read standard input.
    pub puzzle: String,
    /// The format to read (detected from the input when omitted).
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    #[command(flatten)]
    pub hide: HideOps,
    /// The solver's position: K6C/D6C with progress, or a grid of digits, `.` and
    /// `[…]` pencil marks (a string, a file, or `-`). Without it, a K6C/D6C
    /// puzzle's own progress, else the empty grid.
    #[arg(long, value_name = "STATE")]
    pub state: Option<String>,
}

impl PositionArgs {
    /// The puzzle read and the position in it; problems are reported on stderr
    /// with the command's name and give the bad-input exit code.
    pub fn load(&self, command: &str) -> Result<(Imported, Position), ExitCode> {
        let (_, imported) = load_puzzle(
            command,
            &self.puzzle,
            self.from.map(Format::from),
            self.hide,
        )?;
        let position = load_position(command, &imported, self.state.as_deref())?;
        Ok((imported, position))
    }
}

/// The position `arg` names, or (without one) the progress a K6C/D6C puzzle
/// carries, or the empty grid. Problems are reported on stderr with the command's
/// name and give the bad-input exit code.
fn load_position(
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
    position_from_progress(puzzle.size(), progress).map_err(|e| fail(format!("bad position: {e}")))
}
