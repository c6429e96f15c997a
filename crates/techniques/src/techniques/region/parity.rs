//! Region parity: when exactly one cage part of a slice has an unknown parity, the
//! slice total's parity forces it.

use super::slices::SliceTotals;
use crate::step::Reason;
use crate::{State, Step, TechniqueKind};

/// The region-parity step (of `kind`) on this slice, when exactly one part has an
/// unknown parity and forcing it removes something.
pub fn deduce(state: &State, totals: &SliceTotals, kind: TechniqueKind) -> Option<Step> {
    let mut open = None;
    let mut known_parity = 0;
    for (i, part) in totals.parts.iter().enumerate() {
        match totals.parity(part) {
            Some(p) => known_parity ^= p,
            None if open.is_none() => open = Some(i),
            None => return None,
        }
    }
    let part = &totals.parts[open?];
    let want = (totals.target % 2) ^ known_parity;
    if totals.values(part).iter().all(|v| v % 2 == want) {
        return None;
    }
    let removed: Vec<u32> = totals
        .sums(state, part)
        .filter(|(_, s)| s % 2 != want)
        .map(|(c, _)| c as u32)
        .collect();
    if removed.is_empty() {
        return None;
    }
    let before = state.live_count(part.cage);
    let cut = crate::step::CageCut {
        cage: part.cage,
        after: before - removed.len(),
        before,
        removed,
    };
    Some(state.step_from_cuts(
        kind,
        kind.rate(1, totals.slice.count),
        Reason::RegionParity {
            slice: totals.slice,
            target: totals.target,
            cage: part.cage,
            odd: want == 1,
        },
        vec![cut],
    ))
}
