//! How steps are worded in reports: by default in the grid's labels (cells `B3`,
//! cages by their clue cell, as `grader render` draws them) with a plain-English
//! explanation in JSON; with `--reference-text`, the reference solver's wording
//! (`r2c3` cells, 0-based cage numbers) and nothing more, as the reference's logs
//! and the snapshots have it.

use crate::report::{step_line, ReferenceStep, StepJson};
use kenken_techniques::{Layout, Step, StepReport};

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

    /// A step in `grade --json`: the library's
    /// [`StepReport`] (names, removals, proofs, explanation), or in the
    /// reference's wording its line and `r2c3` cells only.
    pub fn json(&self, step: &Step) -> StepJson {
        if self.reference {
            StepJson::Reference(ReferenceStep::new(step, self.layout.puzzle().size()))
        } else {
            StepJson::Labelled(Box::new(StepReport::new(step, self.layout)))
        }
    }
}
