//! Region parity (rating 3.0 one line, 3.1 several): when exactly one cage part of a
//! slice has an unknown parity, the slice total's parity forces it.

use super::region_totals::SliceTotals;
use crate::step::Reason;
use crate::{Rating, State, Step, TechniqueKind};

pub fn deduce(state: &State, totals: &SliceTotals) -> Option<Step> {
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
        TechniqueKind::RegionParity,
        Rating::tenths(if totals.slice.count > 1 { 31 } else { 30 }),
        Reason::RegionParity {
            slice: totals.slice,
            target: totals.target,
            cage: part.cage,
            odd: want == 1,
        },
        vec![cut],
    ))
}
