//! How steps are worded in reports: by default in the grid's labels (cells `B3`,
//! cages by their clue cell, as `grader render` draws them) with a plain-English
//! explanation in JSON; with `--reference-text`, the reference solver's wording
//! (`r2c3` cells, 0-based cage numbers) and nothing more, as the reference's logs
//! and the snapshots have it.

use crate::report::{step_line, CellDigit, StepJson};
use kenken_model::{CellId, Digit};
use kenken_techniques::{labels, Layout, Step};

/// The wording of one puzzle's steps.
#[derive(Clone, Copy)]
pub struct Wording<'a> {
    layout: &'a Layout,
    reference: bool,
}

impl<'a> Wording<'a> {
    pub fn new(layout: &'a Layout, reference: bool) -> Wording<'a> {
        Wording { layout, reference }
    }

    /// A step as a log line without its number: `(1.5) Claiming candidates: …`.
    pub fn line(&self, step: &Step) -> String {
        let puzzle = self.layout.puzzle();
        if self.reference {
            step_line(step, puzzle.size())
        } else {
            format!("({}) {}", step.rating, step.labelled_text(puzzle))
        }
    }

    /// A step in `grade --json`: with its explanation unless in the reference's
    /// wording.
    pub fn json(&self, step: &Step) -> StepJson {
        let size = self.layout.puzzle().size();
        if self.reference {
            return StepJson::new(step, size);
        }
        let cells = |list: &[(CellId, Digit)]| {
            list.iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: labels::cell(size, cell),
                    digit,
                })
                .collect()
        };
        StepJson {
            technique: step.technique.id(),
            rating: step.rating.as_f64(),
            text: step.labelled_text(self.layout.puzzle()),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
            explanation: Some(step.explanation(self.layout)),
        }
    }
}
