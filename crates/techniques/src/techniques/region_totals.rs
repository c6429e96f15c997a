//! Region totals: every row and column adds up to N(N+1)/2, so a slice of adjacent
//! lines adds up to a known total. This file scans the slices in the specified order
//! and asks, for each, the region-sum deduction ([`super::region_sum`]) and then the
//! region-parity deduction ([`super::region_parity`]).
//!
//! Order: for u_max = 1 ..= deepest cage-combination level tried + 1; for slice size
//! n = 1..=N; rows, then columns (none for n = N, the whole grid); first line
//! top/left first.

use super::{region_parity, region_sum};
use crate::step::{Axis, Slice};
use crate::{Context, State, Step, Technique, TechniqueKind};
use kenken_model::{CageId, CellId};
use std::ops::RangeInclusive;

pub struct RegionTotals;

/// One cage's part of a slice.
pub struct Part {
    pub cage: CageId,
    /// Positions (in the cage's cell order) of its cells inside the slice.
    pub positions: Vec<usize>,
    /// Live combination index and the sum of its digits inside the slice.
    pub sums: Vec<(usize, u32)>,
    /// Distinct inside sums, ascending.
    pub values: Vec<u32>,
}

impl Part {
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
        for line in slice.first..slice.first + slice.count {
            for across in 0..n {
                let cell: CellId = match slice.axis {
                    Axis::Rows => size.cell(line, across),
                    Axis::Cols => size.cell(across, line),
                };
                let (cage, pos) = layout.cell_cage[cell.index()];
                match parts.iter_mut().find(|p| p.cage == cage) {
                    Some(p) => p.positions.push(pos),
                    None => parts.push(Part {
                        cage,
                        positions: vec![pos],
                        sums: Vec::new(),
                        values: Vec::new(),
                    }),
                }
            }
        }
        for part in &mut parts {
            part.positions.sort_unstable();
            for i in state.live_combinations(part.cage) {
                let row = layout.combination(part.cage, i);
                let s: u32 = part.positions.iter().map(|&p| row[p] as u32).sum();
                part.sums.push((i, s));
                part.values.push(s);
            }
            part.values.sort_unstable();
            part.values.dedup();
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

    fn sizes(&self, _state: &State, ctx: &Context) -> RangeInclusive<usize> {
        1..=ctx.deepest_level() + 1
    }

    fn find(&self, state: &State, ctx: &mut Context, u_max: usize) -> Option<Step> {
        let n = state.n();
        let sums = ctx.options.is_enabled(TechniqueKind::RegionSum);
        let parity = ctx.options.is_enabled(TechniqueKind::RegionParity);
        for count in 1..=n {
            for axis in [Axis::Rows, Axis::Cols] {
                if axis == Axis::Cols && count == n {
                    continue;
                }
                for first in 0..=n - count {
                    let totals = SliceTotals::new(state, Slice { axis, first, count });
                    if sums {
                        if let Some(step) = region_sum::deduce(state, &totals, u_max) {
                            return Some(step);
                        }
                    }
                    if parity {
                        if let Some(step) = region_parity::deduce(state, &totals) {
                            return Some(step);
                        }
                    }
                }
            }
        }
        None
    }
}
