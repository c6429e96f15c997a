//! Region totals: every row and column adds up to N(N+1)/2, so a slice of adjacent
//! lines adds up to a known total. This file scans the slices in the specified order
//! and asks, for each, the region-sum deduction ([`super::region_sum`]) and then the
//! region-parity deduction ([`super::region_parity`]).
//!
//! Order: for u_max = 1 ..= deepest cage-combination level tried + 1; for slice size
//! n = 1..=N; rows, then columns (none for n = N, the whole grid); first line
//! top/left first; for KenDoku, each box after the single rows and columns. A
//! slice's totals are computed once per search and reused by every
//! u_max pass.

use super::{region_parity, region_sum};
use crate::step::{Axis, Slice};
use crate::{Context, State, Step, Technique, TechniqueKind};
use kenken_model::{CageId, CellId, RegionKind};
use std::ops::RangeInclusive;

pub struct RegionTotals;

/// One cage's part of a slice.
pub struct Part {
    pub cage: CageId,
    /// Positions (in the cage's cell order) of its cells inside the slice.
    pub positions: Vec<usize>,
    /// Distinct inside sums over the live combinations, ascending.
    pub values: Vec<u32>,
}

impl Part {
    /// Each live combination with the sum of its digits inside the slice (computed
    /// again on demand: only a step needs it).
    pub fn sums<'a>(&'a self, state: &'a State) -> impl Iterator<Item = (usize, u32)> + 'a {
        state.live_combinations(self.cage).map(move |i| {
            let row = state.layout().combination(self.cage, i);
            (i, self.positions.iter().map(|&p| row[p] as u32).sum())
        })
    }

    pub fn is_known(&self) -> bool {
        self.values.len() == 1
    }

    /// Some(parity) when every value has the same parity.
    pub fn parity(&self) -> Option<u32> {
        let p = self.values[0] % 2;
        self.values.iter().all(|v| v % 2 == p).then_some(p)
    }
}

/// A slice with what each cage contributes to it.
pub struct SliceTotals {
    pub slice: Slice,
    pub target: u32,
    /// Cages in the order their first cell is met scanning the slice line by line.
    pub parts: Vec<Part>,
}

impl SliceTotals {
    pub fn new(state: &State, slice: Slice) -> SliceTotals {
        let layout = state.layout();
        let size = state.puzzle().size();
        let n = state.n();
        let mut parts: Vec<Part> = Vec::new();
        let box_region = |b: usize| &layout.regions()[layout.region_index(RegionKind::Box(b))];
        for line in slice.first..slice.first + slice.count {
            for across in 0..n {
                let cell: CellId = match slice.axis {
                    Axis::Rows => size.cell(line, across),
                    Axis::Cols => size.cell(across, line),
                    Axis::Boxes => box_region(line).cells[across],
                };
                let (cage, pos) = layout.cell_cage[cell.index()];
                match parts.iter_mut().find(|p| p.cage == cage) {
                    Some(p) => p.positions.push(pos),
                    None => parts.push(Part {
                        cage,
                        positions: vec![pos],
                        values: Vec::new(),
                    }),
                }
            }
        }
        let mut seen: Vec<u64> = Vec::new();
        for part in &mut parts {
            part.positions.sort_unstable();
            // Distinct sums through a bit set (sums are at most cells × N).
            let words = (part.positions.len() * n) / 64 + 1;
            seen.clear();
            seen.resize(words, 0);
            for i in state.live_combinations(part.cage) {
                let row = layout.combination(part.cage, i);
                let s: usize = part.positions.iter().map(|&p| row[p] as usize).sum();
                seen[s / 64] |= 1 << (s % 64);
            }
            for (w, &bits) in seen.iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    part.values.push(w as u32 * 64 + b.trailing_zeros());
                    b &= b - 1;
                }
            }
        }

        SliceTotals {
            slice,
            target: slice.count as u32 * size.line_total(),
            parts,
        }
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
        let n = state.n();
        let sums = ctx.options.is_enabled(TechniqueKind::RegionSum);
        let parity = ctx.options.is_enabled(TechniqueKind::RegionParity);
        let mut slices = Vec::new();
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
        let mut totals: Vec<Option<SliceTotals>> = (0..slices.len()).map(|_| None).collect();
        for u_max in 1..=ctx.deepest_level() + 1 {
            for (i, &slice) in slices.iter().enumerate() {
                let t = totals[i].get_or_insert_with(|| SliceTotals::new(state, slice));
                if sums {
                    if let Some(step) = region_sum::deduce(state, t, u_max) {
                        return Some(step);
                    }
                }
                if parity {
                    if let Some(step) = region_parity::deduce(state, t) {
                        return Some(step);
                    }
                }
            }
        }
        None
    }
}
