//! Hidden single (rating 1): in a region, a digit that only one unplaced cell can
//! hold goes there.

use crate::explain::{capitalised, Evidence, Words};
use crate::labels;
use crate::step::Reason;
use crate::technique::kinds;
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{CellId, Digit, Digits, Puzzle, RegionKind, Size};

struct HiddenSingleFinder {
    kind: TechniqueKind,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(HiddenSingleFinder { kind })
}

impl Technique for HiddenSingleFinder {
    fn find(&mut self, state: &State, _ctx: &mut Context, _size: usize) -> Option<Step> {
        for region in state.layout().regions() {
            // The digits held by exactly one unplaced cell: seen once and not again.
            let (mut once, mut again) = (Digits::EMPTY, Digits::EMPTY);
            for &c in &region.cells {
                if !state.is_placed(c) {
                    let m = state.candidates(c);
                    again |= once & m;
                    once |= m;
                }
            }
            // The smallest such digit, in the cell that holds it.
            let Some(d) = once.difference(again).min() else {
                continue;
            };
            let cell = *region
                .cells
                .iter()
                .find(|&&c| !state.is_placed(c) && state.candidates(c).contains(d))?;
            let eliminations = state
                .candidates(cell)
                .iter()
                .filter(|&x| x != d)
                .map(|x| (cell, x))
                .collect();
            return Some(Step {
                technique: self.kind,
                rating: self.kind.rate(1, 1),
                reason: Reason::HiddenSingle(HiddenSingle {
                    region: region.kind,
                    cell,
                    digit: d,
                }),
                placements: vec![(cell, d)],
                eliminations,
                cuts: Vec::new(),
                proofs: Vec::new(),
            });
        }
        None
    }
}

/// `digit` has one place left in `region`: `cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiddenSingle {
    pub region: RegionKind,
    pub cell: CellId,
    pub digit: Digit,
}

impl Words for HiddenSingle {
    fn reference_text(&self, _step: &Step, size: Size) -> String {
        format!(
            "Hidden single: {} in {}",
            self.digit,
            size.cell_name(self.cell)
        )
    }

    fn labelled_text(&self, _step: &Step, puzzle: &Puzzle) -> String {
        format!(
            "Hidden single: {} in {} ({})",
            self.digit,
            labels::cell(puzzle.size(), self.cell),
            labels::region(self.region)
        )
    }

    fn explanation(&self, _step: &Step, layout: &Layout) -> String {
        let cell = labels::cell(layout.puzzle().size(), self.cell);
        let digit = self.digit;
        format!(
            "{} needs a {digit}, and {cell} is the only cell of it that can still hold \
             one. So {cell} is {digit}.",
            capitalised(&labels::region(self.region)),
        )
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: where can each of its missing digits go?",
            labels::region(self.region)
        )
    }

    fn evidence(&self, _step: &Step, _puzzle: &Puzzle, e: &mut Evidence) {
        e.regions.push(self.region);
        e.cells.push(self.cell);
        e.digits.insert(self.digit);
    }
}
