//! Hidden single (rating 1): in a region, a digit that only one unplaced cell can
//! hold goes there.

use crate::step::Reason;
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};

pub struct HiddenSingle;

impl Technique for HiddenSingle {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::HiddenSingle]
    }

    fn find(&self, state: &State, _ctx: &mut Context, _size: usize) -> Option<Step> {
        let n = state.n();
        for region in state.layout().regions() {
            for d in 1..=n as u8 {
                let mut only = None;
                let mut count = 0;
                for &c in &region.cells {
                    if !state.is_placed(c) && state.candidates(c).contains(d) {
                        count += 1;
                        only = Some(c);
                    }
                }
                if count != 1 {
                    continue;
                }
                let cell = only?;
                let eliminations = state
                    .candidates(cell)
                    .iter()
                    .filter(|&x| x != d)
                    .map(|x| (cell, x))
                    .collect();
                return Some(Step {
                    technique: TechniqueKind::HiddenSingle,
                    rating: Rating::tenths(10),
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
        }
        None
    }
}
