//! Cage–line claiming (rating 1.5): in a region, when every unplaced cell that can
//! hold digit d belongs to one cage, that cage must put d in one of those cells; its
//! combinations that do not are dropped.

use crate::step::Reason;
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};
use kenken_model::CellId;

pub struct Claiming;

impl Technique for Claiming {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::Claiming]
    }

    fn find(&self, state: &State, _ctx: &mut Context, _size: usize) -> Option<Step> {
        let layout = state.layout();
        let n = state.n();
        for region in layout.regions() {
            for d in 1..=n as u8 {
                let holders: Vec<CellId> = region
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| !state.is_placed(c) && state.candidates(c).contains(d))
                    .collect();
                let Some(&first) = holders.first() else {
                    continue;
                };
                let cage = layout.cell_cage[first.index()].0;
                if holders
                    .iter()
                    .any(|c| layout.cell_cage[c.index()].0 != cage)
                {
                    continue;
                }
                let positions: Vec<usize> = holders
                    .iter()
                    .map(|c| layout.cell_cage[c.index()].1)
                    .collect();
                let cut = state.cut_where(cage, |row| positions.iter().any(|&p| row[p] == d));
                if let Some(cut) = cut {
                    return Some(state.step_from_cuts(
                        TechniqueKind::Claiming,
                        Rating::tenths(15),
                        Reason::Claiming {
                            region: region.kind,
                            digit: d,
                            cage,
                            cells: holders,
                        },
                        vec![cut],
                    ));
                }
            }
        }
        None
    }
}
