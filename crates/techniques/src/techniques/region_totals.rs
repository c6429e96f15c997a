//! Region totals: every row and column adds up to N(N+1)/2, so a slice of adjacent
//! lines adds up to a known total. This file scans the slices in the specified order
//! and asks, for each, the region-sum deduction ([`super::region_sum`]) and then the
//! region-parity deduction ([`super::region_parity`]).
//!
//! Order: for u_max = 1 ..= deepest cage-combination level tried + 1; for slice size
//! n = 1..=N; rows, then columns (none for n = N, the whole grid); first line
//! top/left first; for KenDoku, each box after the single rows and columns. A
//! slice's totals are computed once and reused by every u_max pass and by later
//! searches, until a cage of the slice changes; a slice where neither deduction
//! can find anything is worked out only as far as it takes to know that (see
//! `Stop`).

use super::cage_combination::MAX_LEVEL;
use super::{region_parity, region_sum};
use crate::state::bits;
use crate::step::{Axis, Slice};
use crate::technique::still_barren;
use crate::Layout;
use crate::{Context, State, Step, Technique, TechniqueKind};
use kenken_model::{Budget, CageId, Digit, Exhausted, RegionKind, MAX_SIZE};
use std::ops::{Range, RangeInclusive};

pub struct RegionTotals;

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
    stopped_at: Option<usize>,
}

/// When building a slice's totals may stop: once this many of its parts have an
/// unknown sum and two an unknown parity, the region sum (with fewer unknowns
/// allowed) and the region parity find nothing there, whatever the other parts
/// hold, so the rest need not be worked out nor the slice searched. (On the
/// reference file's line 332, a 7×7 of multiplication cages whose 55 slices hold
/// 586 parts, 121 parts are left out that way: 4 % of its grading's instructions.)
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stop {
    Never,
    AtUnknowns(usize),
}

/// Distinct sums of each cage's whole live combinations, computed once and shared
/// by every slice that holds the whole cage, with the tick they were computed at
/// (see [`Changes`]); and buffers for building a slice's totals, reused from slice
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
type CagePositions = [u64; POSITION_WORDS];
const POSITION_WORDS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(64);

/// Per line (every region of the layout, in its order), the cages it crosses in
/// the order met along it, each with the positions of its cells on the line.
///
/// A slice's parts are its lines' parts merged: a pass over a few cages per line
/// instead of over every cell of the slice, with each part's positions coming out
/// sorted. (A 7×7 grid has 55 slices holding 1 127 cells; on the reference file's
/// line 332 this took 10 % off its grading's instructions and 9 % off its time.)
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
                        lines.parts.push((cage, [0; POSITION_WORDS]));
                        lines.parts.len() - 1
                    }
                };
                lines.parts[k].1[pos / 64] |= 1 << (pos % 64);
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
pub struct Changes<'a> {
    pub clock: u32,
    pub changed_at: &'a [u32],
}

impl Changes<'_> {
    fn unchanged_since(&self, cage: CageId, tick: u32) -> bool {
        self.changed_at.get(cage.index()).is_none_or(|&t| t <= tick)
    }
}

impl WholeSums {
    fn get(
        &mut self,
        state: &State,
        cage: CageId,
        changes: Changes,
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

/// What region totals keep between searches of one run: the slices in search
/// order, each one's totals with the tick they were computed at, and the whole-cage
/// sums; and per slice, when each deduction last found nothing there.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    slices: Vec<Slice>,
    totals: Vec<Option<(u32, SliceTotals)>>,
    whole: WholeSums,
    barren: Vec<Barren>,
}

/// When the deductions last found nothing in a slice: 1 + the tick, 0 for never.
/// Both read nothing but the slice's totals (and, to cut, its cages' combinations,
/// from which the totals come), so while the totals are those of that tick they
/// still find nothing, and are skipped. This changes no result, only the time.
#[derive(Clone, Copy, Debug, Default)]
struct Barren {
    /// The region sum, per unknown-count limit `u_max` (at most the deepest
    /// cage-combination level + 1).
    sum: [u32; MAX_LEVEL + 2],
    parity: u32,
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
    for (w, &bits) in seen.iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            out.push(w as u32 * 64 + b.trailing_zeros());
            b &= b - 1;
        }
    }
    Ok(())
}

impl Memory {
    /// Computes the totals of slice `i`, or refreshes them if a cage of the slice
    /// changed since they were.
    ///
    /// Totals that stopped early (see [`Stop`]) stay as they are while their parts'
    /// cages are unchanged and the stop is the same (it only moves up, with the
    /// deepest cage-combination level); otherwise they are built again.
    ///
    /// Fails when the budget runs out first; the slice's totals are then gone, to
    /// be built afresh.
    fn bring_up_to_date(
        &mut self,
        i: usize,
        state: &State,
        changes: Changes,
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
                Some(u) if unchanged && matches!(stop, Stop::AtUnknowns(v) if v == u) => {
                    return Ok(())
                }
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
    pub fn new(state: &State, slice: Slice) -> SliceTotals {
        let changes = Changes {
            clock: 0,
            changed_at: &[],
        };
        SliceTotals::build(
            state,
            slice,
            &mut WholeSums::default(),
            changes,
            Stop::Never,
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
        changes: Changes,
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
                    for (a, b) in have.iter_mut().zip(cells) {
                        *a |= b;
                    }
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
            for (w, &word) in cells.iter().enumerate() {
                positions.extend(bits(word).map(|b| w * 64 + b));
            }
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
            if let Stop::AtUnknowns(u) = stop {
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
        changes: Changes,
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

impl Technique for RegionTotals {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::RegionSum, TechniqueKind::RegionParity]
    }

    /// One size: the u_max passes run inside [`RegionTotals::find`], so that each
    /// slice's totals are computed once for all of them.
    fn sizes(&self, _state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        1..=1
    }

    fn find(&self, state: &State, ctx: &mut Context, _size: usize) -> Option<Step> {
        let sums = ctx.options.is_enabled(TechniqueKind::RegionSum);
        let parity = ctx.options.is_enabled(TechniqueKind::RegionParity);
        let deepest = ctx.deepest_level();
        let ctx_memos = ctx.memos;
        let changes = Changes {
            clock: ctx.combos.clock(),
            changed_at: ctx.combos.changed_at(),
        };
        let mem = &mut ctx.totals;
        let budget = &mut ctx.budget;
        if mem.slices.is_empty() {
            mem.slices = slices(state);
            mem.totals = vec![None; mem.slices.len()];
            mem.barren = vec![Barren::default(); mem.slices.len()];
        }
        let stamp = changes.clock + 1;
        // A deduction that found nothing still does on totals computed no later.
        let skip = |barren: u32, tick: u32| ctx_memos && still_barren(barren, tick);
        // More unknowns than the last pass allows, and two unknown parities: nothing.
        let stop = Stop::AtUnknowns(deepest + 2);
        for u_max in 1..=deepest + 1 {
            for i in 0..mem.slices.len() {
                // The first pass brings each slice it reaches up to date.
                if u_max == 1
                    && mem
                        .bring_up_to_date(i, state, changes, stop, budget)
                        .is_err()
                {
                    return None;
                }
                let (tick, t) = mem.totals[i].as_ref().expect("computed in the first pass");
                if t.stopped_at.is_some() {
                    continue;
                }
                let barren = &mut mem.barren[i];
                if sums && !skip(barren.sum[u_max], *tick) {
                    budget.spend(t.parts.len() as u64).ok()?;
                    if let Some(step) = region_sum::deduce(state, t, u_max) {
                        return Some(step);
                    }
                    barren.sum[u_max] = stamp;
                }
                if parity && !skip(barren.parity, *tick) {
                    if let Some(step) = region_parity::deduce(state, t) {
                        return Some(step);
                    }
                    barren.parity = stamp;
                }
            }
        }
        None
    }
}

/// The slices in search order (see the module documentation).
fn slices(state: &State) -> Vec<Slice> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ladder, Grader, Options};

    /// The totals kept between steps (refreshed part by part) are the ones computed
    /// from scratch, at every state of whole gradings that use region sums; and
    /// where they stopped early, the deductions find nothing on the whole slice.
    #[test]
    fn kept_totals_match_fresh_ones() {
        let ids = [
            "7:b_aa__aa_14a__aa_aa_a_ab_a4_ab_3a_4a_caa,m756d2a6m210d3a10a5m105s1d2a9d2s1m6a11s5m150s2m63s3s1",
            "6:c_10a_a_6a__a7_aa_b_aa_a_,a21d2s1s3d3a9d2a7a6d2s3m12m30m8m6s1",
            "6:aabab__a_3a_4a3__a_3a__aa_b_4a__a_,d2s2a8d2s2m6s1m6a10d3s2a7a9m12m20s1",
        ];
        let (mut compared, mut stopped) = (0, 0);
        for id in ids {
            let puzzle = kenken_formats::tatham::read(id).expect("puzzle");
            let grader = Grader::new(&puzzle).expect("grader");
            let (mut state, _) = grader.start();
            let mut ctx = Context::new(Options::default(), puzzle.cages().len());
            while let Some(step) = ladder::next_step(&state, &mut ctx) {
                let changes = Changes {
                    clock: ctx.combos.clock(),
                    changed_at: ctx.combos.changed_at(),
                };
                let deepest = ctx.deepest_level();
                let mem = &mut ctx.totals;
                for i in 0..mem.slices.len() {
                    if mem.totals[i].is_none() {
                        continue;
                    }
                    mem.bring_up_to_date(
                        i,
                        &state,
                        changes,
                        Stop::AtUnknowns(deepest + 2),
                        &mut Budget::unlimited(),
                    )
                    .expect("an unlimited budget");
                    let kept = &mem.totals[i].as_ref().expect("kept").1;
                    let fresh = SliceTotals::new(&state, mem.slices[i]);
                    assert!(kept.parts.len() <= fresh.parts.len());
                    for (a, b) in kept.parts.iter().zip(&fresh.parts) {
                        assert_eq!(a.cage, b.cage);
                        assert_eq!(kept.positions(a), fresh.positions(b));
                        assert_eq!(kept.values(a), fresh.values(b), "{id} {:?}", mem.slices[i]);
                    }
                    if kept.stopped_at.is_some() {
                        for u_max in 1..=deepest + 1 {
                            assert_eq!(region_sum::deduce(&state, &fresh, u_max), None);
                        }
                        assert_eq!(region_parity::deduce(&state, &fresh), None);
                        stopped += 1;
                    } else {
                        assert_eq!(kept.parts.len(), fresh.parts.len());
                    }
                    compared += 1;
                }
                state.apply(&step);
                if state.propagate().is_err() {
                    break;
                }
                let changed = state.take_changed_cages();
                ctx.cages_changed(&changed);
            }
        }
        assert!(compared > 100, "only {compared} slices compared");
        assert!(stopped > 10, "only {stopped} slices stopped early");
    }
}
