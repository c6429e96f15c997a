//! Hidden subsets (rating 2 + (k−2)/10, at most 2.9): k digits of a region whose
//! possible cells are exactly k cells; those cells lose every other digit. Only
//! looked for in regions with at least k + 2 unplaced cells.

use super::subsets::first_tight_subset;
use crate::step::Reason;
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};
use kenken_model::{CellId, Digits, MAX_SIZE};
use std::ops::RangeInclusive;

pub struct HiddenSubset;

/// The rating of a hidden subset or fish of size k.
pub fn size_rating(k: usize) -> Rating {
    Rating::tenths((20 + (k as u32).saturating_sub(2)).min(29))
}

impl Technique for HiddenSubset {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::HiddenSubset]
    }

    fn sizes(&self, state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        2..=state.n().saturating_sub(2)
    }

    fn find(&self, state: &State, ctx: &mut Context, k: usize) -> Option<Step> {
        for (r, region) in state.layout().regions().iter().enumerate() {
            if ctx.region_barren(state, k, r) {
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
                ctx.mark_region_barren(k, r);
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
                    technique: TechniqueKind::HiddenSubset,
                    rating: size_rating(k),
                    reason: Reason::HiddenSubset {
                        region: region.kind,
                        digits: keep,
                        cells,
                    },
                    placements: Vec::new(),
                    eliminations,
                    cuts: Vec::new(),
                })
            });
            if step.is_some() {
                return step;
            }
            ctx.mark_region_barren(k, r);
        }
        None
    }
}
