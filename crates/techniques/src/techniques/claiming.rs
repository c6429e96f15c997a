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
                // The unplaced cells that can hold d (collected only when they
                // share a cage: most regions and digits stop at the check).
                let can_hold = |&c: &CellId| !state.is_placed(c) && state.candidates(c).contains(d);
                let mut cells = region.cells.iter().filter(|c| can_hold(c));
                let Some(&first) = cells.next() else {
                    continue;
                };
                let cage = layout.cell_cage[first.index()].0;
                if cells.any(|c| layout.cell_cage[c.index()].0 != cage) {
                    continue;
                }
                let holders: Vec<CellId> = region.cells.iter().copied().filter(can_hold).collect();
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
