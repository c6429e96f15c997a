//! The words of a cage-combination step: its one-line texts, its explanation,
//! the nudge and the evidence.

use crate::explain::{capitalised, plural, Evidence, Words};
use crate::labels::{self, and_list, cage_with_clue};
use crate::step::{join, CageCut};
use crate::{Layout, Step};
use kenken_model::{CageId, Puzzle, Size};

/// Combinations of one of these cages that no choice for the others supports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageCombination {
    pub cages: Vec<CageId>,
}

impl Words for CageCombination {
    fn reference_text(&self, step: &Step, _size: Size) -> String {
        let name = step.technique.name();
        let cut: Vec<CageId> = step.cuts.iter().map(|c| c.cage).collect();
        let befores: Vec<String> = step.cuts.iter().map(|c| c.before.to_string()).collect();
        let afters: Vec<String> = step.cuts.iter().map(|c| c.after.to_string()).collect();
        if cut.len() == 1 {
            format!(
                "{name}: cages {} interact such that cage {} has incongruous combinations; reduced from {} to {} combinations",
                join(&self.cages),
                cut[0],
                befores[0],
                afters[0]
            )
        } else {
            format!(
                "{name}: cages {} interact such that cages {} have incongruous combinations; reduced from {} to {} combinations respectively",
                join(&self.cages),
                join(&cut),
                befores.join(", "),
                afters.join(", ")
            )
        }
    }

    fn labelled_text(&self, step: &Step, puzzle: &Puzzle) -> String {
        let name = step.technique.name();
        let cut: Vec<CageId> = step.cuts.iter().map(|c| c.cage).collect();
        let (verb, respectively) = if cut.len() == 1 {
            ("has", "")
        } else {
            ("have", " respectively")
        };
        format!(
            "{name}: {} interact such that {} {verb} incongruous combinations; reduced from {} to {} combinations{respectively}",
            labels::cages(puzzle, &self.cages),
            labels::cages(puzzle, &cut),
            step.cut_counts(|c| c.before),
            step.cut_counts(|c| c.after),
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let named: Vec<String> = self
            .cages
            .iter()
            .map(|&c| cage_with_clue(puzzle, c))
            .collect();
        let cuts: Vec<String> = step
            .cuts
            .iter()
            .map(|cut| cut_phrase(layout, cut, self.cages.contains(&cut.cage)))
            .collect();
        format!(
            "{} are linked by the lines they share, so their combinations must fit \
             together without repeating a digit in a line. {}. {}",
            capitalised(&and_list(named)),
            capitalised(&and_list(cuts)),
            step.removals(puzzle.size())
        )
    }

    fn nudge(&self, puzzle: &Puzzle) -> String {
        format!(
            "Look at how {} fit together.",
            labels::cages_in_sentence(puzzle, &self.cages)
        )
    }

    fn evidence(&self, _step: &Step, _puzzle: &Puzzle, e: &mut Evidence) {
        e.cages.extend(&self.cages);
    }
}

/// The most removed combinations an explanation lists one by one.
const LISTED_COMBINATIONS: usize = 4;

/// `cage B3 (12×) loses 2 combinations (3, 4, 1 and 4, 3, 1 for B3, C3, C4) that
/// no choice for the others fits, from 6 to 4`; a hidden operation as `(12?)`
/// when the cage was `named` already.
fn cut_phrase(layout: &Layout, cut: &CageCut, named: bool) -> String {
    let puzzle = layout.puzzle();
    let size = puzzle.size();
    let cells = layout.cage_cells(cut.cage);
    let listed = if cut.removed.len() <= LISTED_COMBINATIONS {
        let combos: Vec<String> = cut
            .removed
            .iter()
            .map(|&i| {
                let digits: Vec<String> = layout
                    .combination(cut.cage, i as usize)
                    .iter()
                    .map(|d| d.to_string())
                    .collect();
                digits.join(", ")
            })
            .collect();
        format!(" ({} for {})", and_list(combos), labels::cells(size, cells))
    } else {
        String::new()
    };
    format!(
        "{} loses {}{listed} that no choice for the others fits, from {} to {}",
        if named {
            labels::cage_with_short_clue(puzzle, cut.cage)
        } else {
            cage_with_clue(puzzle, cut.cage)
        },
        plural(cut.removed.len(), "combination", "combinations"),
        cut.before,
        cut.after
    )
}
