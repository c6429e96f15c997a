//! Hidden subsets: k digits of a region whose possible cells are exactly k cells;
//! those cells lose every other digit. Only looked for in regions with at least
//! k + 2 unplaced cells.

use super::subsets::first_tight_subset;
use crate::explain::{capitalised, number, Evidence, Words};
use crate::labels;
use crate::step::{subset_name, Reason};
use crate::technique::{kinds, RegionMemo};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{CellId, Digits, Puzzle, RegionKind, Size, MAX_SIZE};
use std::ops::RangeInclusive;

struct HiddenSubsetFinder {
    kind: TechniqueKind,
    /// Per size k, the regions found barren.
    barren: [RegionMemo; MAX_SIZE + 1],
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(HiddenSubsetFinder {
        kind,
        barren: Default::default(),
    })
}

impl Technique for HiddenSubsetFinder {
    fn sizes(&self, state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        2..=state.n().saturating_sub(2)
    }

    fn find(&mut self, state: &State, ctx: &mut Context, k: usize) -> Option<Step> {
        let barren = &mut self.barren[k];
        for (r, region) in state.layout().regions().iter().enumerate() {
            if barren.is_barren(ctx, r) {
                continue;
            }
            // A pass over the region, and its k-subsets of digits (at most a few
            // thousand at the largest size).
            ctx.budget.spend(region.cells.len() as u64 * 16).ok()?;
            // The region's unplaced cells, on the stack (every region, every call).
            let mut open = [CellId::new(0); MAX_SIZE];
            let mut unplaced = 0;
            for &c in region.cells.iter().filter(|&&c| !state.is_placed(c)) {
                open[unplaced] = c;
                unplaced += 1;
            }
            let open = &open[..unplaced];
            if open.len() < k + 2 {
                barren.mark_barren(ctx, r);
                continue;
            }
            // Where each still-missing digit can go, as a mask over `open`.
            let mut digits = Digits::EMPTY;
            for &c in open {
                digits |= state.candidates(c);
            }
            let mut places = [(0u8, 0u32); 16];
            let mut count = 0;
            for d in digits.iter() {
                let mask = open
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| state.candidates(c).contains(d))
                    .fold(0u32, |m, (i, _)| m | 1 << i);
                places[count] = (d, mask);
                count += 1;
            }
            let places = &places[..count];
            let mut masks = [0u32; 16];
            for (m, &(_, p)) in masks.iter_mut().zip(places) {
                *m = p;
            }
            let step = first_tight_subset(&masks[..count], k, |subset, union| {
                let keep: Digits = subset.iter().map(|&i| places[i].0).collect();
                let cells: Vec<CellId> = (0..open.len())
                    .filter(|i| union & (1 << i) != 0)
                    .map(|i| open[i])
                    .collect();
                let eliminations: Vec<_> = cells
                    .iter()
                    .flat_map(|&c| {
                        state
                            .candidates(c)
                            .difference(keep)
                            .iter()
                            .map(move |d| (c, d))
                    })
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                Some(Step {
                    technique: self.kind,
                    rating: self.kind.rate(k, 1),
                    reason: Reason::HiddenSubset(HiddenSubset {
                        region: region.kind,
                        digits: keep,
                        cells,
                    }),
                    placements: Vec::new(),
                    eliminations,
                    cuts: Vec::new(),
                    proofs: Vec::new(),
                })
            });
            if step.is_some() {
                return step;
            }
            barren.mark_barren(ctx, r);
        }
        None
    }
}

/// The k `digits` are confined to the k `cells` of `region`, so those cells
/// lose every other digit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenSubset {
    pub region: RegionKind,
    pub digits: Digits,
    pub cells: Vec<CellId>,
}

impl HiddenSubset {
    fn digit_list(&self) -> String {
        let ds: Vec<String> = self.digits.iter().map(|d| d.to_string()).collect();
        ds.join(", ")
    }
}

impl Words for HiddenSubset {
    fn reference_text(&self, step: &Step, size: Size) -> String {
        // The reference names only the cells that lose a digit.
        let mut losing: Vec<CellId> = Vec::new();
        for &(c, _) in &step.eliminations {
            if !losing.contains(&c) {
                losing.push(c);
            }
        }
        let losing: Vec<String> = losing.iter().map(|&c| size.cell_name(c)).collect();
        format!(
            "{}: {} in {}",
            subset_name(self.digits.len()),
            self.digit_list(),
            losing.join(", ")
        )
    }

    fn labelled_text(&self, _step: &Step, puzzle: &Puzzle) -> String {
        format!(
            "{}: {} in {} ({})",
            subset_name(self.digits.len()),
            self.digit_list(),
            labels::cells(puzzle.size(), &self.cells),
            labels::region(self.region)
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let size = layout.puzzle().size();
        let k = number(self.digits.len());
        let why = format!(
            "In {}, the digits {} can only go in {}. {} digits for {} cells: those \
             cells hold {} between them, so every other candidate goes from them.",
            labels::region(self.region),
            labels::digits(self.digits.iter()),
            labels::and_list(self.cells.iter().map(|&c| labels::cell(size, c)).collect()),
            capitalised(k),
            k,
            labels::digits(self.digits.iter()),
        );
        format!("{why} {}", step.removals(size))
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: which of its digits have only a few places left?",
            labels::region(self.region)
        )
    }

    fn evidence(&self, _step: &Step, _puzzle: &Puzzle, e: &mut Evidence) {
        e.regions.push(self.region);
        e.cells.extend(&self.cells);
        e.digits = self.digits;
    }
}
