//! Cage–line claiming: in a region, when every unplaced cell that can hold digit d
//! belongs to one cage, that cage must put d in one of those cells; its
//! combinations that do not are dropped.

use crate::explain::{capitalised, go, or_list, plural, Evidence, Words};
use crate::labels::{self, and_list, cage_with_clue};
use crate::step::Reason;
use crate::technique::{kinds, RegionMemo};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{CageId, CellId, Digit, Digits, Puzzle, RegionKind, Size, MAX_SIZE};

struct ClaimingFinder {
    kind: TechniqueKind,
    /// The regions found barren.
    barren: RegionMemo,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(ClaimingFinder {
        kind,
        barren: RegionMemo::default(),
    })
}

impl Technique for ClaimingFinder {
    fn find(&mut self, state: &State, ctx: &mut Context, _size: usize) -> Option<Step> {
        let layout = state.layout();
        // Per cage, the digits its unplaced cells in the region being scanned can
        // hold (emptied again as they are read).
        let mut by_cage = [0u16; MAX_SIZE * MAX_SIZE];
        for (r, region) in layout.regions().iter().enumerate() {
            if self.barren.is_barren(ctx, r) {
                continue;
            }
            // The digits whose unplaced holders in the region all lie in one cage:
            // those in exactly one cage's digits. Masks, not branches, on the
            // cells: which are placed and what they hold is the puzzle's data,
            // which branches would often mispredict.
            for &c in &region.cells {
                by_cage[layout.cell_cage[c.index()].0.index()] |= state.open_candidates(c).bits();
            }
            let (mut once, mut again) = (0u16, 0u16);
            for &c in &region.cells {
                // Each cage counted once: its slot is empty after its first cell.
                let slot = &mut by_cage[layout.cell_cage[c.index()].0.index()];
                again |= once & *slot;
                once |= *slot;
                *slot = 0;
            }
            for d in Digits::from_bits(once & !again) {
                let can_hold = |&c: &CellId| state.open_candidates(c).contains(d);
                // The holders' positions in their cage, on the stack: most digits
                // cut nothing, and the step's own lists are built only for a cut.
                let mut at = [0usize; MAX_SIZE];
                let mut holders = 0;
                let mut cage = CageId::new(0);
                for c in region.cells.iter().filter(|c| can_hold(c)) {
                    (cage, at[holders]) = layout.cell_cage[c.index()];
                    holders += 1;
                }
                let positions = &at[..holders];
                ctx.budget.spend(state.live_count(cage) as u64).ok()?;
                let cut = match layout.packed(cage) {
                    // One AND per combination: whether it puts d at one of them.
                    Some(packed) => {
                        let n = layout.n();
                        let mask = positions
                            .iter()
                            .fold(0u64, |m, &p| m | 1 << (p * n + d as usize - 1));
                        state.cut_where_index(cage, |i| packed[i] & mask != 0)
                    }
                    None => state.cut_where(cage, |row| positions.iter().any(|&p| row[p] == d)),
                };
                if let Some(cut) = cut {
                    // The reference names all the cage's cells on the line, not
                    // only the holders.
                    let on_line: Vec<CellId> = region
                        .cells
                        .iter()
                        .copied()
                        .filter(|c| layout.cell_cage[c.index()].0 == cage)
                        .collect();
                    return Some(state.step_from_cuts(
                        self.kind,
                        self.kind.rate(1, 1),
                        Reason::Claiming(Claiming {
                            region: region.kind,
                            digit: d,
                            cage,
                            cells: on_line,
                        }),
                        vec![cut],
                    ));
                }
            }
            self.barren.mark_barren(ctx, r);
        }
        None
    }
}

/// In `region`, every cell that can hold `digit` belongs to `cage`, so the cage
/// must put it in one of `cells`: all the cage's cells in `region`, placed or
/// not, in the region's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claiming {
    pub region: RegionKind,
    pub digit: Digit,
    pub cage: CageId,
    pub cells: Vec<CellId>,
}

impl Words for Claiming {
    fn reference_text(&self, step: &Step, size: Size) -> String {
        let (before, after) = step.counts(self.cage);
        let cells: Vec<String> = self.cells.iter().map(|&c| size.cell_name(c)).collect();
        format!(
            "Claiming candidates: cage {} must contain {} in {}: from {before} combinations to {after}",
            self.cage,
            self.digit,
            cells.join(", ")
        )
    }

    fn labelled_text(&self, step: &Step, puzzle: &Puzzle) -> String {
        let (before, after) = step.counts(self.cage);
        format!(
            "Claiming candidates: {} must contain {} in {}: from {before} combinations to {after}",
            labels::cage(puzzle, self.cage),
            self.digit,
            labels::cells(puzzle.size(), &self.cells)
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let size = puzzle.size();
        let (before, after) = step.counts(self.cage);
        let gone = before - after;
        let digit = self.digit;
        let why = format!(
            "{} needs a {digit}, and every cell of it that can still hold one is in \
             {}, whose cells there are {}. So that cage must put a {digit} in {}: \
             its {} without one there {}, from {before} to {after}.",
            capitalised(&labels::region(self.region)),
            cage_with_clue(puzzle, self.cage),
            and_list(self.cells.iter().map(|&c| labels::cell(size, c)).collect()),
            or_list(size, &self.cells),
            plural(gone, "combination", "combinations"),
            go(gone),
        );
        format!("{why} {}", step.removals(size))
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        format!(
            "Look at {}: are the places left for one of its digits all in one cage?",
            labels::region(self.region)
        )
    }

    fn evidence(&self, _step: &Step, _puzzle: &Puzzle, e: &mut Evidence) {
        e.regions.push(self.region);
        e.cages.push(self.cage);
        e.cells.extend(&self.cells);
        e.digits.insert(self.digit);
    }
}
