//! Cage–line pointing: when every live combination of a cage puts digit d inside
//! region L, the other cells of L cannot hold d. One step per cage: all its digits
//! and lines at once.

use crate::explain::{in_region, Evidence, Words};
use crate::labels::{self, and_list, cage_with_clue, forced_by_line};
use crate::step::Reason;
use crate::technique::{kinds, still_barren};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{CageId, CellId, Digit, Puzzle, RegionKind, Size, MAX_SIZE};
use std::ops::Range;

/// Pointing, and what it keeps for a run.
///
/// * Per cage, the regions it touches (met cell by cell: row, column, box) with
///   the cage positions in each, found once: they never change, and pointing asks
///   for them for every cage at every step that gets this far.
/// * Per cage, when it last pointed at nothing: while its combinations stay the
///   same, the digits it forces into each region stay the same, and the other
///   cells of those regions only lose candidates, so it still points at nothing
///   and is skipped. This changes no result, only the time spent.
struct PointingFinder {
    kind: TechniqueKind,
    /// Per cage, its range of `lines` (empty until the first search).
    of_cage: Vec<Range<usize>>,
    /// A region and its range of `positions`.
    lines: Vec<(usize, Range<usize>)>,
    positions: Vec<usize>,
    /// Per cage, 1 + the cage-change tick it last pointed at nothing at (0: never).
    barren: Vec<u32>,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(PointingFinder {
        kind,
        of_cage: Vec::new(),
        lines: Vec::new(),
        positions: Vec::new(),
        barren: Vec::new(),
    })
}

impl PointingFinder {
    /// Lists each cage's regions (at the first search: most runs never get this
    /// far).
    fn list_regions(&mut self, layout: &Layout) {
        // A cell adds at most one line and one position per region it is in.
        let cells = layout.puzzle().size().cell_count();
        let per_cell = cells * layout.cell_regions(CellId::new(0)).len();
        let mem = self;
        mem.of_cage.reserve(layout.cage_count());
        mem.lines.reserve(per_cell);
        mem.positions.reserve(per_cell);
        for cage in layout.puzzle().cage_ids() {
            let cells = layout.cage_cells(cage);
            let start = mem.lines.len();
            for c in cells {
                for &r in layout.cell_regions(*c) {
                    if !mem.lines[start..].iter().any(|&(x, _)| x == r) {
                        mem.lines.push((r, 0..0));
                    }
                }
            }
            for (r, range) in &mut mem.lines[start..] {
                let from = mem.positions.len();
                mem.positions.extend(
                    (0..cells.len()).filter(|&p| layout.cell_regions(cells[p]).contains(r)),
                );
                *range = from..mem.positions.len();
            }
            mem.of_cage.push(start..mem.lines.len());
        }
        mem.barren = vec![0; layout.cage_count()];
    }
}

impl Technique for PointingFinder {
    fn find(&mut self, state: &State, ctx: &mut Context, _size: usize) -> Option<Step> {
        let layout = state.layout();
        let n = state.n();
        let regions = layout.regions();
        if self.of_cage.is_empty() {
            self.list_regions(layout);
        }
        let (stamp, changed_at, memos) = (ctx.changes.stamp(), ctx.changes.cages(), ctx.memos);
        let budget = &mut ctx.budget;
        let PointingFinder {
            kind,
            of_cage,
            lines,
            positions: inside,
            barren,
        } = self;
        // Reused from cage to cage, on the stack: a cage touches at most every row,
        // column and box, 48 regions at the model's largest size.
        let (mut always_small, mut always_big) = ([0u16; 64], Vec::new());
        for cage in layout.puzzle().cage_ids() {
            let cells = layout.cage_cells(cage);
            if cells.iter().all(|&c| state.is_placed(c))
                || memos && still_barren(barren[cage.index()], changed_at[cage.index()])
            {
                continue;
            }
            // The regions the cage touches, each with its range of `inside`
            // listing the cage positions in it.
            let touched = &lines[of_cage[cage.index()].clone()];
            budget
                .spend((state.live_count(cage) * touched.len()) as u64)
                .ok()?;
            // For each touched region, the digits every combination puts in it.
            let always: &mut [u16] = if touched.len() <= always_small.len() {
                &mut always_small[..touched.len()]
            } else {
                always_big.resize(touched.len(), 0);
                &mut always_big
            };
            always.fill(u16::MAX);
            let packed = layout.packed(cage);
            let full = (1u64 << n) - 1;
            for i in state.live_combinations(cage) {
                for (a, (_, range)) in always.iter_mut().zip(touched) {
                    let at = inside[range.clone()].iter();
                    *a &= match packed {
                        // The digits at position p are bits p × N.. of the word.
                        Some(packed) => {
                            at.fold(0, |m, &p| m | ((packed[i] >> (p * n)) & full) as u16)
                        }
                        None => {
                            let row = layout.combination(cage, i);
                            at.fold(0u16, |m, &p| m | 1 << (row[p] - 1))
                        }
                    };
                }
            }
            // Only digits that another unplaced cell of the region still holds can
            // be eliminated: most cages point at nothing, and this tells so in one
            // pass over their regions, with masks rather than branches on the
            // cells (which cells are placed or hold what is the puzzle's data,
            // which branches would often mispredict).
            let mut points = 0u16;
            for (a, &(r, _)) in always.iter_mut().zip(touched) {
                let mut outside = 0u16;
                for &c in &regions[r].cells {
                    let other = layout.cell_cage[c.index()].0 != cage;
                    outside |= state.open_candidates(c).bits() & u16::from(other).wrapping_neg();
                }
                *a &= outside;
                points |= *a;
            }
            if points == 0 {
                barren[cage.index()] = stamp;
                continue;
            }
            // Every forced (digit, region) is met in any one live combination, at
            // the cell holding the digit there. Going through the reference's
            // first live combination cell by cell, each cell's regions in layout
            // order (row, column, box), lists them in the reference's order.
            let first = reference_first_live(state, cage);
            let mut forced: Vec<(Digit, RegionKind)> = Vec::new();
            let mut eliminations: Vec<(CellId, Digit)> = Vec::new();
            let mut elim_cells: Vec<CellId> = Vec::new();
            for (&cell, &d) in cells.iter().zip(layout.combination(cage, first)) {
                for &r in layout.cell_regions(cell) {
                    let Some(t) = touched.iter().position(|&(x, _)| x == r) else {
                        continue;
                    };
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
            if eliminations.is_empty() {
                barren[cage.index()] = stamp;
            } else {
                return Some(Step {
                    technique: *kind,
                    rating: kind.rate(1, 1),
                    reason: Reason::Pointing(Pointing {
                        cage,
                        forced,
                        cells: elim_cells,
                    }),
                    placements: Vec::new(),
                    eliminations,
                    cuts: Vec::new(),
                    proofs: Vec::new(),
                });
            }
        }
        None
    }
}

/// Every live combination of `cage` puts each (digit, line) of `forced` inside
/// the cage, so other cells of that line lose the digit; `cells` are those
/// cells. Both in the reference's order (see [`reference_first_live`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointing {
    pub cage: CageId,
    pub forced: Vec<(Digit, RegionKind)>,
    pub cells: Vec<CellId>,
}

impl Words for Pointing {
    fn reference_text(&self, _step: &Step, size: Size) -> String {
        let forced: Vec<String> = self.forced.iter().map(|(d, r)| format!("{d}{r}")).collect();
        let cells: Vec<String> = self.cells.iter().map(|&c| size.cell_name(c)).collect();
        format!(
            "Pointing candidates: all combinations for cage {} contain {}; eliminations in {}",
            self.cage,
            forced.join(","),
            cells.join(", ")
        )
    }

    fn labelled_text(&self, _step: &Step, puzzle: &Puzzle) -> String {
        let forced: Vec<String> = forced_by_line(&self.forced)
            .into_iter()
            .map(|(r, ds)| {
                let ds: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
                format!("{} in {}", ds.join(", "), labels::region(r))
            })
            .collect();
        format!(
            "Pointing candidates: all combinations for {} contain {}; eliminations in {}",
            labels::cage(puzzle, self.cage),
            forced.join(", "),
            labels::cells(puzzle.size(), &self.cells)
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let lines = forced_by_line(&self.forced);
        let puts: Vec<String> = lines
            .iter()
            .map(|(r, ds)| {
                let each: Vec<String> = ds.iter().map(|d| format!("a {d}")).collect();
                format!("{} in {}", and_list(each), labels::region(*r))
            })
            .collect();
        let rest = match lines.as_slice() {
            [(r, ds)] if ds.len() == 1 => format!(
                "so the {d} of {line} is inside the cage, and no other cell of {line} \
                 can be {d}",
                d = ds[0],
                line = labels::region(*r),
            ),
            [(r, _)] => format!(
                "so those digits of {line} are inside the cage, and no other cell of \
                 {line} can hold them",
                line = labels::region(*r),
            ),
            _ => "so each of those digits is inside the cage for its line, and no \
                  other cell of that line can hold it"
                .to_string(),
        };
        format!(
            "Every combination still possible for {} puts {}, {rest}. {}",
            cage_with_clue(puzzle, self.cage),
            and_list(puts),
            step.removals(puzzle.size())
        )
    }

    fn nudge(&self, puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: which digits must it put in one line?",
            cage_with_clue(puzzle, self.cage)
        )
    }

    fn evidence(&self, _step: &Step, puzzle: &Puzzle, e: &mut Evidence) {
        e.cages.push(self.cage);
        for &(d, r) in &self.forced {
            e.digits.insert(d);
            if !e.regions.contains(&r) {
                e.regions.push(r);
            }
        }
        let in_forced = |c: &&CellId| e.regions.iter().any(|&r| in_region(puzzle, r, **c));
        let cells: Vec<CellId> = puzzle
            .cage(self.cage)
            .cells
            .iter()
            .filter(in_forced)
            .copied()
            .collect();
        e.cells = cells;
    }
}

/// The cage's first live combination in the reference's order, which keeps a
/// cage's combinations by multiset (the multisets' ascending digit lists in
/// lexicographic order), each multiset's permutations in lexicographic order.
///
/// Our table is in lexicographic order, so among live combinations of the same
/// multiset the first met is the one wanted; of two multisets, the one with more
/// of the smallest digit where their digit counts differ comes first.
fn reference_first_live(state: &State, cage: CageId) -> usize {
    let layout = state.layout();
    let counts = |i: usize| {
        let mut count = [0u8; MAX_SIZE + 1];
        for &d in layout.combination(cage, i) {
            count[usize::from(d)] += 1;
        }
        count
    };
    let mut live = state.live_combinations(cage);
    let mut best = live
        .next()
        .expect("a cage with an unplaced cell has a live combination");
    let mut best_counts = counts(best);
    for i in live {
        let mine = counts(i);
        if let Some(d) = (1..=MAX_SIZE).find(|&d| mine[d] != best_counts[d]) {
            if mine[d] > best_counts[d] {
                (best, best_counts) = (i, mine);
            }
        }
    }
    best
}
