//! A solver's position from a progress record, and a hint and a check from it as
//! documents: what `grader hint --json` and `grader check --json` print, and what
//! the WebAssembly package's `hint` and `check` return, made here once.

use kenken_formats::CellProgress;
use kenken_model::{Digit, Exhausted, Puzzle, Size};
use kenken_techniques::position::{CheckReport, Hint, Position, PositionError, Written};
use kenken_techniques::{Layout, StepReport};
use serde::{Deserialize, Serialize};

/// The position a progress record gives (a K6C/D6C string's own, or a grid
/// read with [`kenken_formats::state`]), one entry per cell in reading order.
pub fn position_from_progress(
    size: Size,
    progress: Vec<CellProgress>,
) -> Result<Position, PositionError> {
    let cells = progress
        .into_iter()
        .map(|p| match p {
            CellProgress::Unknown => Written::Blank,
            CellProgress::Solved(d) => Written::Digit(d),
            CellProgress::Candidates(m) => Written::Marks(m),
        })
        .collect();
    Position::new(size, cells)
}

/// How much a hint tells; each level tells what the ones before it do, and more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum HintLevel {
    /// Where to look.
    #[default]
    Nudge,
    /// The technique to use.
    Technique,
    /// The cells the step rests on.
    Cells,
    /// The whole step, explained.
    Full,
}

/// A hint told up to a level: `{"status", and up to the level: "nudge",
/// "technique", "cells", "step"}`, or the first wrong entry (`"conflict"`), or
/// why there is no hint (`"message"`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct HintDoc {
    /// `step`, `conflict`, `solved`, `stuck`, `ambiguous`, `contradicts-every`,
    /// `impossible`, `timeout` or `limit`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nudge: Option<String>,
    /// The technique's name and rating: `Claiming candidates (rating 1.5)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub technique: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<String>>,
    /// Steps before `step` that only strike cage combinations (nothing to write
    /// in the grid), which it may rest on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prior: Vec<StepReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<Box<StepReport>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict: Option<String>,
}

impl HintDoc {
    /// The document of `hint`, found on `layout`'s puzzle, told up to `level`.
    /// `deadline` names the time limit in the message of a hint cut short by it
    /// (`--timeout`).
    pub fn new(hint: &Hint, layout: &Layout, level: HintLevel, deadline: &str) -> HintDoc {
        let puzzle: &Puzzle = layout.puzzle();
        let mut doc = HintDoc::default();
        match hint {
            Hint::Step { frame, prior } => {
                let step = &frame.step;
                doc.status = "step";
                doc.nudge = Some(step.nudge(puzzle));
                if level >= HintLevel::Technique {
                    doc.technique = Some(format!(
                        "{} (rating {})",
                        step.technique_name(),
                        step.rating
                    ));
                }
                if level >= HintLevel::Cells {
                    doc.cells = Some(step.cells_to_look_at(puzzle));
                }
                if level >= HintLevel::Full {
                    doc.prior = prior.iter().map(|s| StepReport::new(s, layout)).collect();
                    doc.step = Some(Box::new(StepReport::new(step, layout)));
                }
            }
            Hint::Conflict(conflict) => {
                doc.status = "conflict";
                doc.conflict = Some(conflict.describe(puzzle.size()));
            }
            other => {
                let (status, message) = hint_ending(other, deadline);
                doc.status = status;
                doc.message = Some(message);
            }
        }
        doc
    }
}

/// The status and message of a hint that is not a step or a conflict.
pub fn hint_ending(hint: &Hint, deadline: &str) -> (&'static str, String) {
    let (status, message) = match hint {
        Hint::Solved => ("solved", "Nothing left to do: the grid is solved."),
        Hint::Stuck => (
            "stuck",
            "No hint: no enabled technique applies from here (the puzzle has one solution, beyond them).",
        ),
        Hint::Ambiguous => (
            "ambiguous",
            "No hint: no enabled technique applies, and the puzzle has more than one solution.",
        ),
        Hint::ContradictsEvery => (
            "contradicts-every",
            "The position agrees with none of the puzzle's solutions.",
        ),
        Hint::Impossible => ("impossible", "No hint: the puzzle has no solution."),
        Hint::Stopped(Exhausted::Time) => {
            return ("timeout", format!("No hint found: {deadline} passed."))
        }
        Hint::Stopped(_) => (
            "limit",
            "No hint found: the memory or work limit was reached.",
        ),
        Hint::Step { .. } | Hint::Conflict(_) => ("step", ""),
    };
    (status, message.to_string())
}

/// A check as a document: `{"status", "conflicts": [{"cell", "kind"}], "filled",
/// "cells"}`.
#[derive(Clone, Debug, Serialize)]
pub struct CheckDoc {
    /// `consistent`, `conflicts`, `consistent-with-some` (several solutions),
    /// `contradicts-every`, `impossible`, `timeout` or `limit`.
    pub status: &'static str,
    pub conflicts: Vec<ConflictDoc>,
    /// Cells with a digit entered, and all cells.
    pub filled: usize,
    pub cells: usize,
}

/// One entry that contradicts the solution.
#[derive(Clone, Debug, Serialize)]
pub struct ConflictDoc {
    pub cell: String,
    /// `wrong-digit` (with the digit entered) or `digit-removed`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entered: Option<Digit>,
}

impl From<&CheckReport> for CheckDoc {
    fn from(report: &CheckReport) -> CheckDoc {
        CheckDoc {
            status: report.status,
            conflicts: report
                .conflicts
                .iter()
                .map(|c| ConflictDoc {
                    cell: c.label.clone(),
                    kind: c.kind,
                    entered: c.entered,
                })
                .collect(),
            filled: report.filled,
            cells: report.cells,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_model::Digits;

    /// Each cell's progress becomes what the solver wrote there, in reading order;
    /// a record of another grid's length is refused.
    #[test]
    fn a_progress_record_becomes_a_position() {
        let size = Size::new(4).unwrap();
        let progress =
            kenken_formats::state::read_grid(size, "1 . [23] .\n. . . .\n. . . .\n. . . 4")
                .unwrap();
        let position = position_from_progress(size, progress.clone()).unwrap();
        let cells = position.cells();
        assert_eq!(cells[0], Written::Digit(1));
        assert_eq!(cells[1], Written::Blank);
        assert_eq!(cells[2], Written::Marks(Digits::from_iter([2, 3])));
        assert_eq!(cells[15], Written::Digit(4));
        assert_eq!(
            position_from_progress(size, progress[..15].to_vec()),
            Err(PositionError::WrongCellCount {
                expected: 16,
                got: 15
            })
        );
    }
}
