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
        // Buffers reused from cage to cage.
        let mut touched: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        let mut inside: Vec<usize> = Vec::new();
        let mut always: Vec<u16> = Vec::new();
        for cage in layout.puzzle().cage_ids() {
            let cells = layout.cage_cells(cage);
            if cells.iter().all(|&c| state.is_placed(c)) {
                continue;
            }
            // The regions the cage touches, met cell by cell (row, column, box),
            // each with the range of `inside` listing the cage positions in it.
            touched.clear();
            for c in cells {
                for &r in layout.cell_regions(*c) {
                    if !touched.iter().any(|&(x, _)| x == r) {
                        touched.push((r, 0..0));
                    }
                }
            }
            inside.clear();
            for (r, range) in &mut touched {
                let start = inside.len();
                inside.extend(
                    (0..cells.len()).filter(|&p| layout.cell_regions(cells[p]).contains(r)),
                );
                *range = start..inside.len();
            }
            // For each touched region, the digits every combination puts in it.
            always.clear();
            always.resize(touched.len(), u16::MAX);
            for i in state.live_combinations(cage) {
                let row = layout.combination(cage, i);
                for (a, (_, range)) in always.iter_mut().zip(&touched) {
                    let digits = inside[range.clone()]
                        .iter()
                        .fold(0u16, |m, &p| m | 1 << (row[p] - 1));
                    *a &= digits;
                }
            }
            let mut forced: Vec<(Digit, RegionKind)> = Vec::new();
            let mut eliminations: Vec<(CellId, Digit)> = Vec::new();
            let mut elim_cells: Vec<CellId> = Vec::new();
            for d in 1..=n as u8 {
                for (t, &(r, _)) in touched.iter().enumerate() {
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
