//! Hidden single (rating 1): in a region, a digit that only one unplaced cell can
//! hold goes there.

use crate::step::Reason;
use crate::technique::kinds;
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::Digits;

struct HiddenSingle {
    kind: TechniqueKind,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(HiddenSingle { kind })
}

impl Technique for HiddenSingle {
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
                reason: Reason::HiddenSingle {
                    region: region.kind,
                    cell,
                    digit: d,
                },
                placements: vec![(cell, d)],
                eliminations,
                cuts: Vec::new(),
            });
        }
        None
    }
}
