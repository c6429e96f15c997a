//! Cage–line pointing (rating 1.5): when every live combination of a cage puts digit
//! d inside region L, the other cells of L cannot hold d. One step per cage: all its
//! digits and lines at once.

use crate::step::Reason;
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};
use kenken_model::{CellId, Digit, RegionKind};

pub struct Pointing;

impl Technique for Pointing {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::Pointing]
    }

    fn find(&self, state: &State, _ctx: &mut Context, _size: usize) -> Option<Step> {
        let layout = state.layout();
        let n = state.n();
        let regions = layout.regions();
        for cage in layout.puzzle().cage_ids() {
            let cells = layout.cage_cells(cage);
            if cells.iter().all(|&c| state.is_placed(c)) {
                continue;
            }
            // The regions the cage touches, met cell by cell (row, column, box).
            let mut touched: Vec<usize> = Vec::new();
            for c in cells {
                for &r in &layout.cell_regions[c.index()] {
                    if !touched.contains(&r) {
                        touched.push(r);
                    }
                }
            }
            // For each touched region, the digits every combination puts in it.
            let mut always: Vec<u16> = vec![u16::MAX; touched.len()];
            for i in state.live_combinations(cage) {
                let row = layout.combination(cage, i);
                for (t, &r) in touched.iter().enumerate() {
                    let mut inside = 0u16;
                    for (pos, &c) in cells.iter().enumerate() {
                        if layout.cell_regions[c.index()].contains(&r) {
                            inside |= 1 << (row[pos] - 1);
                        }
                    }
                    always[t] &= inside;
                }
            }
            let mut forced: Vec<(Digit, RegionKind)> = Vec::new();
            let mut eliminations: Vec<(CellId, Digit)> = Vec::new();
            let mut elim_cells: Vec<CellId> = Vec::new();
            for d in 1..=n as u8 {
                for (t, &r) in touched.iter().enumerate() {
                    if always[t] & (1 << (d - 1)) == 0 {
                        continue;
                    }
                    let mut hit = false;
                    for &c in &regions[r].cells {
                        if layout.cell_cage[c.index()].0 != cage
                            && !state.is_placed(c)
                            && state.candidates(c).contains(d)
                            && !eliminations.contains(&(c, d))
                        {
                            hit = true;
                            eliminations.push((c, d));
                            if !elim_cells.contains(&c) {
                                elim_cells.push(c);
                            }
                        }
                    }
                    if hit {
                        forced.push((d, regions[r].kind));
                    }
                }
            }
            if !eliminations.is_empty() {
                return Some(Step {
                    technique: TechniqueKind::Pointing,
                    rating: Rating::tenths(15),
                    reason: Reason::Pointing {
                        cage,
                        forced,
                        cells: elim_cells,
                    },
                    placements: Vec::new(),
                    eliminations,
                    cuts: Vec::new(),
                });
            }
        }
        None
    }
}
