//! Region parity: when exactly one cage part of a slice has an unknown parity, the
//! slice total's parity forces it.

use super::slices::SliceTotals;
use super::total::{add, cells_in_slice, it_or_them, sentence_slice, slice_total};
use crate::explain::{go, plural, Evidence, Words};
use crate::labels::{self, cage_with_clue, parity};
use crate::step::{Reason, Slice, Total};
use crate::{Layout, State, Step, TechniqueKind};
use kenken_model::{CageId, Puzzle, Size};

/// The region-parity step (of `kind`) on this slice, when exactly one part has an
/// unknown parity and forcing it removes something.
pub fn deduce(state: &State, totals: &SliceTotals, kind: TechniqueKind) -> Option<Step> {
    let mut open = None;
    let mut known_parity = 0;
    for (i, part) in totals.parts.iter().enumerate() {
        match totals.parity(part) {
            Some(p) => known_parity ^= p,
            None if open.is_none() => open = Some(i),
            None => return None,
        }
    }
    let part = &totals.parts[open?];
    let want = (totals.target % 2) ^ known_parity;
    if totals.values(part).iter().all(|v| v % 2 == want) {
        return None;
    }
    let removed: Vec<u32> = totals
        .sums(state, part)
        .filter(|(_, s)| s % 2 != want)
        .map(|(c, _)| c as u32)
        .collect();
    if removed.is_empty() {
        return None;
    }
    let before = state.live_count(part.cage);
    let cut = crate::step::CageCut {
        cage: part.cage,
        after: before - removed.len(),
        before,
        removed,
    };
    Some(state.step_from_cuts(
        kind,
        kind.rate(1, totals.slice.count),
        Reason::RegionParity(RegionParity {
            slice: totals.slice,
            target: totals.target,
            cage: part.cage,
            odd: want == 1,
        }),
        vec![cut],
    ))
}

/// Only `cage`'s part of the slice has an unknown parity, so it is forced: odd
/// when `odd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionParity {
    pub slice: Slice,
    pub target: u32,
    pub cage: CageId,
    pub odd: bool,
}

impl Words for RegionParity {
    fn reference_text(&self, step: &Step, _size: Size) -> String {
        let parity = |odd: bool| if odd { "Odd" } else { "Even" };
        let mut s = format!(
            "Region parity: {} must sum to {} number; cage {}'s cells within this region must sum to {} number; ",
            self.slice.describe(),
            parity(self.target % 2 == 1),
            self.cage,
            parity(self.odd)
        );
        s.push_str(&step.reduction_text(true));
        s
    }

    fn labelled_text(&self, step: &Step, puzzle: &Puzzle) -> String {
        format!(
            "Region parity: {} must sum to an {} number; {}'s cells within {} must sum to an {} number; {}",
            labels::slice(&self.slice),
            parity(self.target % 2 == 1),
            labels::cage(puzzle, self.cage),
            it_or_them(&self.slice),
            parity(self.odd),
            step.labelled_reduction(puzzle, true)
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let slice = &self.slice;
        let cut = step.cuts.iter().find(|c| c.cage == self.cage);
        let (before, after) = step.counts(self.cage);
        let gone = cut.map_or(0, |c| c.removed.len());
        format!(
            "{}, an {} number. Every other cage's part in {} has a known parity, so \
             the cells of {} in {} must add up to an {} number: its {} giving an {} \
             total there {}, from {before} to {after}. {}",
            slice_total(puzzle.size(), slice, Total::Sum(self.target)),
            parity(self.target % 2 == 1),
            it_or_them(slice),
            cage_with_clue(puzzle, self.cage),
            it_or_them(slice),
            parity(self.odd),
            plural(gone, "combination", "combinations"),
            parity(!self.odd),
            go(gone),
            step.removals(puzzle.size())
        )
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        format!(
            "Look at what {} {} up to: odd or even?",
            sentence_slice(&self.slice),
            add(&self.slice)
        )
    }

    fn evidence(&self, _step: &Step, puzzle: &Puzzle, e: &mut Evidence) {
        e.regions = labels::slice_regions(&self.slice);
        e.cages.push(self.cage);
        e.cells = cells_in_slice(puzzle, &self.slice, &[self.cage]);
    }
}
