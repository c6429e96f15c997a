//! Slices and their totals: a slice of n adjacent lines adds up to n·N(N+1)/2, and
//! each cage with cells inside contributes the possible sums of those cells.
//!
//! The slices, in the order the ladder fixes (`docs/ladder.md`): slice size n = 1..=N; rows, then
//! columns (none for n = N, the whole grid); first line top/left first; for
//! KenDoku, each box after the single rows and columns. A slice's totals are
//! computed once ([`SliceCache`]) and reused until a cage of the slice changes; a
//! slice where neither deduction can find anything is worked out only as far as it
//! takes to know that (see [`Stop`]).

use crate::step::{Axis, Slice};
use crate::Layout;
use crate::State;
use kenken_model::bits::{self, BitSet};
use kenken_model::{Budget, CageId, Digit, Exhausted, RegionKind, MAX_SIZE};
use std::ops::Range;

/// One cage's part of a slice: where its cells inside the slice and its possible
/// inside sums are kept in the slice's [`SliceTotals`].
#[derive(Clone, Debug)]
pub struct Part {
    pub cage: CageId,
    /// Range of [`SliceTotals::positions`]: positions (in the cage's cell order) of
    /// its cells inside the slice, ascending.
    positions: Range<usize>,
    /// Range of [`SliceTotals::values`]: distinct inside sums over the live
    /// combinations, ascending.
    values: Range<usize>,
    /// Whether every cell of the cage is inside the slice.
    whole: bool,
}

impl Part {
    /// Whether every cell of the cage is inside the slice.
    pub fn is_whole(&self) -> bool {
        self.whole
    }
}

/// A slice with what each cage contributes to it.
#[derive(Clone, Debug)]
pub struct SliceTotals {
    pub slice: Slice,
    pub target: u32,
    /// Cages in the order their first cell is met scanning the slice line by line.
    pub parts: Vec<Part>,
    positions: Vec<usize>,
    values: Vec<u32>,
    /// `Some(u)` when the totals stop at the part that made `u` parts of unknown
    /// sum and two of unknown parity (see [`Stop`]): then neither deduction finds
    /// anything with at most `u − 1` unknowns, and the parts after it were not
    /// worked out.
    pub(super) stopped_at: Option<usize>,
}

/// When building a slice's totals may stop: once this many of its parts have an
/// unknown sum and two an unknown parity, the region sum (with fewer unknowns
/// allowed) and the region parity find nothing there, whatever the other parts
/// hold, so the rest need not be worked out nor the slice searched. (`None`: work
/// out every part.)
pub(crate) type Stop = Option<usize>;

/// Distinct sums of each cage's whole live combinations, computed once and shared
/// by every slice that holds the whole cage, with the tick they were computed at
/// (see [`Ticks`]); and buffers for building a slice's totals, reused from slice
/// to slice (a 9×9 grid has 89 slices).
#[derive(Clone, Debug, Default)]
pub struct WholeSums {
    sums: Vec<Option<(u32, Vec<u32>)>>,
    /// The cages each line crosses (made at the first slice).
    lines: LineParts,
    /// Per cage, its part's index in the slice being built (`u32::MAX` otherwise).
    slot: Vec<u32>,
    /// The cages of the slice being built in the order met, with their cells there.
    met: Vec<(CageId, CagePositions)>,
    /// The slice's inside sums while they are gathered.
    values: Vec<u32>,
}

/// A set of positions in a cage's cell order, a bit each (a cage has at most
/// `MAX_SIZE`² cells).
type CagePositions = BitSet<{ (MAX_SIZE * MAX_SIZE).div_ceil(64) }>;

/// Per line (every region of the layout, in its order), the cages it crosses in
/// the order met along it, each with the positions of its cells on the line.
///
/// A slice's parts are its lines' parts merged: a pass over a few cages per line
/// instead of over every cell of the slice, with each part's positions coming out
/// sorted (a 7×7 grid has 55 slices holding 1 127 cells, but only a few cages
/// per line).
#[derive(Clone, Debug, Default)]
struct LineParts {
    parts: Vec<(CageId, CagePositions)>,
    /// Where each line's parts start in `parts`, and where the last one ends.
    start: Vec<usize>,
}

impl LineParts {
    fn of(layout: &Layout) -> LineParts {
        let mut lines = LineParts {
            parts: Vec::new(),
            start: vec![0],
        };
        for region in layout.regions() {
            let first = lines.parts.len();
            for cell in &region.cells {
                let (cage, pos) = layout.cell_cage[cell.index()];
                let k = match lines.parts[first..].iter().position(|&(c, _)| c == cage) {
                    Some(k) => first + k,
                    None => {
                        lines.parts.push((cage, CagePositions::new()));
                        lines.parts.len() - 1
                    }
                };
                lines.parts[k].1.insert(pos);
            }
            lines.start.push(lines.parts.len());
        }
        lines
    }

    /// The parts of line `region` (an index into [`Layout::regions`]).
    fn line(&self, region: usize) -> &[(CageId, CagePositions)] {
        &self.parts[self.start[region]..self.start[region + 1]]
    }
}

/// When cages last changed: the current tick and, per cage, the tick of its last
/// change. Totals computed at a tick stay right while none of their cages changed
/// after it.
#[derive(Clone, Copy)]
pub struct Ticks<'a> {
    pub clock: u32,
    pub changed_at: &'a [u32],
}

impl Ticks<'_> {
    fn unchanged_since(&self, cage: CageId, tick: u32) -> bool {
        self.changed_at.get(cage.index()).is_none_or(|&t| t <= tick)
    }
}

impl WholeSums {
    fn get(
        &mut self,
        state: &State,
        cage: CageId,
        changes: Ticks,
        budget: &mut Budget,
    ) -> Result<&[u32], Exhausted> {
        if self.sums.is_empty() {
            self.sums = vec![None; state.layout().cage_count()];
        }
        let entry = &mut self.sums[cage.index()];
        if entry
            .as_ref()
            .is_none_or(|(tick, _)| !changes.unchanged_since(cage, *tick))
        {
            let mut out = entry.take().map(|(_, v)| v).unwrap_or_default();
            out.clear();
            let width = state.layout().cage_cells(cage).len();
            distinct_sums_by(
                state,
                cage,
                width,
                |row| row.iter().map(|&d| d as usize).sum(),
                &mut out,
                budget,
            )?;
            *entry = Some((changes.clock, out));
        }
        Ok(&entry.as_ref().expect("just filled").1)
    }
}

/// The slices of a run in search order, each one's totals with the tick they were
/// computed at, and the whole-cage sums.
#[derive(Clone, Debug, Default)]
pub(super) struct SliceCache {
    pub slices: Vec<Slice>,
    pub totals: Vec<Option<(u32, SliceTotals)>>,
    whole: WholeSums,
}

/// Some(parity) when every one of (at least one) `values` has the same parity.
fn common_parity(values: &[u32]) -> Option<u32> {
    let p = values[0] % 2;
    values.iter().all(|v| v % 2 == p).then_some(p)
}

/// Appends the distinct sums of the digits at `positions` over the cage's live
/// combinations to `out`, ascending (through a bit set: sums are at most cells × N).
fn distinct_sums(
    state: &State,
    cage: CageId,
    positions: &[usize],
    out: &mut Vec<u32>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let sum = |row: &[Digit]| positions.iter().map(|&p| row[p] as usize).sum();
    distinct_sums_by(state, cage, positions.len(), sum, out, budget)
}

/// Appends the distinct values of `sum` (of at most `cells` digits) over the cage's
/// live combinations to `out`, ascending, spending a unit per digit added on
/// `budget`.
fn distinct_sums_by(
    state: &State,
    cage: CageId,
    cells: usize,
    sum: impl Fn(&[Digit]) -> usize,
    out: &mut Vec<u32>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    budget.spend((state.live_count(cage) * cells) as u64)?;
    let layout = state.layout();
    let words = (cells * state.n()) / 64 + 1;
    let mut small = [0u64; 8];
    let mut large = Vec::new();
    let seen: &mut [u64] = if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        &mut large
    };
    for i in state.live_combinations(cage) {
        let s = sum(layout.combination(cage, i));
        seen[s / 64] |= 1 << (s % 64);
    }
    out.extend(bits::ones_in(seen).map(|s| s as u32));
    Ok(())
}

impl SliceCache {
    /// The slices of a puzzle, none of them worked out yet.
    pub fn new(state: &State) -> SliceCache {
        let slices = slices(state);
        SliceCache {
            totals: vec![None; slices.len()],
            slices,
            whole: WholeSums::default(),
        }
    }

    /// Computes the totals of slice `i`, or refreshes them if a cage of the slice
    /// changed since they were.
    ///
    /// Totals that stopped early (see [`Stop`]) stay as they are while their parts'
    /// cages are unchanged and the stop is the same (it only moves up, with the
    /// deepest cage-combination level); otherwise they are built again.
    ///
    /// Fails when the budget runs out first; the slice's totals are then gone, to
    /// be built afresh.
    pub fn bring_up_to_date(
        &mut self,
        i: usize,
        state: &State,
        changes: Ticks,
        stop: Stop,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let slot = &mut self.totals[i];
        if let Some((tick, t)) = slot {
            let unchanged = t
                .parts
                .iter()
                .all(|p| changes.unchanged_since(p.cage, *tick));
            match t.stopped_at {
                None if unchanged => return Ok(()),
                None => {
                    let refreshed = t.refresh(state, &mut self.whole, changes, *tick, budget);
                    if refreshed.is_err() {
                        *slot = None;
                    } else {
                        *tick = changes.clock;
                    }
                    return refreshed;
                }
                Some(u) if unchanged && stop == Some(u) => return Ok(()),
                Some(_) => {}
            }
        }
        *slot = None;
        let t = SliceTotals::build(
            state,
            self.slices[i],
            &mut self.whole,
            changes,
            stop,
            budget,
        )?;
        *slot = Some((changes.clock, t));
        Ok(())
    }
}

impl SliceTotals {
    /// A slice's totals worked out whole, from scratch (what the kept ones are
    /// checked against).
    #[cfg(test)]
    pub fn new(state: &State, slice: Slice) -> SliceTotals {
        let changes = Ticks {
            clock: 0,
            changed_at: &[],
        };
        SliceTotals::build(
            state,
            slice,
            &mut WholeSums::default(),
            changes,
            None,
            &mut Budget::unlimited(),
        )
        .expect("an unlimited budget")
    }

    /// As [`SliceTotals::new`], taking whole-cage sums from (and adding them to)
    /// `whole`, which must belong to the same run (`changes` tells which of its sums
    /// are out of date), and stopping as `stop` allows.
    fn build(
        state: &State,
        slice: Slice,
        whole: &mut WholeSums,
        changes: Ticks,
        stop: Stop,
        budget: &mut Budget,
    ) -> Result<SliceTotals, Exhausted> {
        let layout = state.layout();
        let size = state.puzzle().size();
        let n = state.n();
        if whole.lines.start.is_empty() {
            whole.lines = LineParts::of(layout);
        }
        if whole.slot.len() < layout.cage_count() {
            whole.slot.resize(layout.cage_count(), u32::MAX);
        }
        // The cages in the order met line by line, with their cells in the slice.
        let mut met = std::mem::take(&mut whole.met);
        met.clear();
        for line in slice.first..slice.first + slice.count {
            let region = layout.region_index(match slice.axis {
                Axis::Rows => RegionKind::Row(line),
                Axis::Cols => RegionKind::Col(line),
                Axis::Boxes => RegionKind::Box(line),
            });
            for &(cage, cells) in whole.lines.line(region) {
                let slot = &mut whole.slot[cage.index()];
                if *slot == u32::MAX {
                    *slot = met.len() as u32;
                    met.push((cage, cells));
                } else {
                    let have = &mut met[*slot as usize].1;
                    *have = have.union(&cells);
                }
            }
        }
        let mut positions = Vec::with_capacity(slice.count * n);
        let mut parts = Vec::with_capacity(met.len());
        let mut values = std::mem::take(&mut whole.values);
        values.clear();
        for &(cage, _) in &met {
            whole.slot[cage.index()] = u32::MAX;
        }
        let (mut unknown_sums, mut unknown_parities) = (0, 0);
        let mut stopped_at = None;
        for &(cage, cells) in &met {
            let p0 = positions.len();
            positions.extend(cells.iter());
            let range = p0..positions.len();
            let v0 = values.len();
            let is_whole = range.len() == layout.cage_cells(cage).len();
            let summed = if is_whole {
                whole
                    .get(state, cage, changes, budget)
                    .map(|sums| values.extend_from_slice(sums))
            } else {
                distinct_sums(state, cage, &positions[range.clone()], &mut values, budget)
            };
            if let Err(why) = summed {
                (whole.met, whole.values) = (met, values);
                return Err(why);
            }
            let mine = &values[v0..];
            unknown_sums += usize::from(mine.len() > 1);
            unknown_parities += usize::from(common_parity(mine).is_none());
            parts.push(Part {
                cage,
                positions: range,
                values: v0..values.len(),
                whole: is_whole,
            });
            if let Some(u) = stop {
                if unknown_sums >= u && unknown_parities >= 2 {
                    stopped_at = Some(u);
                    break;
                }
            }
        }
        let totals = SliceTotals {
            slice,
            target: slice.count as u32 * size.line_total(),
            parts,
            positions,
            // Kept at its size: the buffer grew for the slice, the copy does not.
            values: values.clone(),
            stopped_at,
        };
        (whole.met, whole.values) = (met, values);
        Ok(totals)
    }

    /// Brings totals computed at `tick` up to date: the inside sums of the cages
    /// changed since are computed again, the others kept (which cages a slice holds,
    /// and where, never changes).
    ///
    /// In place: a part's sums only narrow as its cage loses combinations, so each
    /// part's new sums fit where its old ones began, behind the parts before it.
    fn refresh(
        &mut self,
        state: &State,
        whole: &mut WholeSums,
        changes: Ticks,
        tick: u32,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let mut scratch = std::mem::take(&mut whole.values);
        let mut end = 0;
        for part in &mut self.parts {
            let v0 = end;
            if changes.unchanged_since(part.cage, tick) {
                self.values.copy_within(part.values.clone(), v0);
                end += part.values.len();
            } else {
                let fresh: &[u32] = if part.whole {
                    whole.get(state, part.cage, changes, budget)?
                } else {
                    scratch.clear();
                    let positions = &self.positions[part.positions.clone()];
                    distinct_sums(state, part.cage, positions, &mut scratch, budget)?;
                    &scratch
                };
                debug_assert!(fresh.len() <= part.values.len(), "sums only narrow");
                self.values[v0..v0 + fresh.len()].copy_from_slice(fresh);
                end += fresh.len();
            }
            part.values = v0..end;
        }
        self.values.truncate(end);
        whole.values = scratch;
        Ok(())
    }

    /// The part's positions (in its cage's cell order) inside the slice.
    pub fn positions(&self, part: &Part) -> &[usize] {
        &self.positions[part.positions.clone()]
    }

    /// The part's distinct inside sums, ascending.
    pub fn values(&self, part: &Part) -> &[u32] {
        &self.values[part.values.clone()]
    }

    pub fn is_known(&self, part: &Part) -> bool {
        part.values.len() == 1
    }

    /// Some(parity) when every value of the part has the same parity.
    pub fn parity(&self, part: &Part) -> Option<u32> {
        common_parity(self.values(part))
    }

    /// Each live combination of the part's cage with the sum of its digits inside
    /// the slice (computed again on demand: only a step needs it).
    pub fn sums<'a>(
        &'a self,
        state: &'a State,
        part: &'a Part,
    ) -> impl Iterator<Item = (usize, u32)> + 'a {
        let positions = self.positions(part);
        state.live_combinations(part.cage).map(move |i| {
            let row = state.layout().combination(part.cage, i);
            let sum = if part.whole {
                row.iter().map(|&d| d as u32).sum()
            } else {
                positions.iter().map(|&p| row[p] as u32).sum()
            };
            (i, sum)
        })
    }
}

/// The slices in search order (see the module documentation).
pub(super) fn slices(state: &State) -> Vec<Slice> {
    let n = state.n();
    // n(n+1)/2 row slices, as many column slices but the whole grid, n boxes.
    let mut slices = Vec::with_capacity(n * (n + 1) + n);
    for count in 1..=n {
        for axis in [Axis::Rows, Axis::Cols] {
            if axis == Axis::Cols && count == n {
                continue;
            }
            for first in 0..=n - count {
                slices.push(Slice { axis, first, count });
            }
        }
        // KenDoku: each box is a region adding up to the same total, after the
        // single rows and columns.
        if count == 1 && state.puzzle().is_kendoku() {
            for first in 0..n {
                slices.push(Slice {
                    axis: Axis::Boxes,
                    first,
                    count: 1,
                });
            }
        }
    }
    slices
}
