//! Naked single (rating 0): a cell with one candidate left holds it. Found by the
//! propagation every run does after each step ([`State::propagate`]), not by a
//! technique of its own; its words are here like every technique's.
//!
//! [`State::propagate`]: crate::State::propagate

use crate::explain::{Evidence, Words};
use crate::labels;
use crate::{Layout, Step};
use kenken_model::{CellId, Digit, Puzzle, Size};

/// `cell` has `digit` as its only candidate left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NakedSingle {
    pub cell: CellId,
    pub digit: Digit,
}

impl Words for NakedSingle {
    fn reference_text(&self, _step: &Step, size: Size) -> String {
        format!(
            "Naked single: {} in {}",
            self.digit,
            size.cell_name(self.cell)
        )
    }

    fn labelled_text(&self, _step: &Step, puzzle: &Puzzle) -> String {
        format!(
            "Naked single: {} in {}",
            self.digit,
            labels::cell(puzzle.size(), self.cell)
        )
    }

    fn explanation(&self, _step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let cell = labels::cell(puzzle.size(), self.cell);
        let around = if puzzle.is_kendoku() {
            "its row, its column, its box or its cage"
        } else {
            "its row, its column or its cage"
        };
        let digit = self.digit;
        format!(
            "Only {digit} is left for {cell} (every other digit is ruled out by \
             {around}), so {cell} is {digit}."
        )
    }

    fn nudge(&self, puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: how many digits can it still hold?",
            labels::cell(puzzle.size(), self.cell)
        )
    }

    fn evidence(&self, _step: &Step, _puzzle: &Puzzle, e: &mut Evidence) {
        e.cells.push(self.cell);
        e.digits.insert(self.digit);
    }
}
