//! Region sum (rating 3 + (u−1)/5, +0.1 over several lines, at most 3.9): the unknown
//! cage parts of a slice must make up the slice total minus the known parts; keep only
//! the values of each unknown that some choice for the others completes.

use super::region_totals::SliceTotals;
use crate::step::Reason;
use crate::{Rating, State, Step, TechniqueKind};

/// The rating of a region sum with `unknowns` unknown parts over `lines` lines.
pub fn rating(unknowns: usize, lines: usize) -> Rating {
    let multi = u32::from(lines > 1);
    Rating::tenths((30 + 2 * (unknowns as u32 - 1) + multi).min(39))
}

/// The region-sum step on this slice, when it has 1..=u_max unknown parts and removes
/// something.
pub fn deduce(state: &State, totals: &SliceTotals, u_max: usize) -> Option<Step> {
    let u = totals.parts.iter().filter(|p| !totals.is_known(p)).count();
    if u == 0 || u > u_max {
        return None;
    }
    let unknown: Vec<usize> = (0..totals.parts.len())
        .filter(|&i| !totals.is_known(&totals.parts[i]))
        .collect();
    let known: u32 = totals
        .parts
        .iter()
        .filter(|p| totals.is_known(p))
        .map(|p| totals.values(p)[0])
        .sum();
    let required = totals.target.checked_sub(known)?;
    let values: Vec<&[u32]> = unknown
        .iter()
        .map(|&i| totals.values(&totals.parts[i]))
        .collect();
    let kept = feasible_values(&values, required);
    let mut cuts = Vec::new();
    for (k, &i) in unknown.iter().enumerate() {
        let part = &totals.parts[i];
        if kept[k].len() == totals.values(part).len() {
            continue;
        }
        let removed: Vec<u32> = totals
            .sums(state, part)
            .filter(|(_, s)| !kept[k].contains(s))
            .map(|(c, _)| c as u32)
            .collect();
        if !removed.is_empty() {
            let before = state.live_count(part.cage);
            cuts.push(crate::step::CageCut {
                cage: part.cage,
                after: before - removed.len(),
                before,
                removed,
            });
        }
    }
    if cuts.is_empty() {
        return None;
    }
    Some(state.step_from_cuts(
        TechniqueKind::RegionSum,
        rating(u, totals.slice.count),
        Reason::RegionSum {
            slice: totals.slice,
            target: totals.target,
            required,
            unknown: unknown.iter().map(|&i| totals.parts[i].cage).collect(),
        },
        cuts,
    ))
}

/// For each list, the values that belong to some choice of one value per list adding
/// up to `required`.
pub fn feasible_values(lists: &[&[u32]], required: u32) -> Vec<Vec<u32>> {
    let cap = required as usize + 1;
    let reach = |sets: &mut Vec<Vec<bool>>, list: &[u32]| {
        let prev = sets.last().expect("seeded");
        let mut next = vec![false; cap];
        for (s, _) in prev.iter().enumerate().filter(|(_, &r)| r) {
            for &v in list {
                let t = s + v as usize;
                if t < cap {
                    next[t] = true;
                }
            }
        }
        sets.push(next);
    };
    let mut seed = vec![false; cap];
    seed[0] = true;
    // forward[i]: sums reachable with lists[..i]; backward[i]: with lists[i..].
    let mut forward = vec![seed.clone()];
    for list in lists {
        reach(&mut forward, list);
    }
    let mut backward = vec![seed];
    for list in lists.iter().rev() {
        reach(&mut backward, list);
    }
    backward.reverse();
    lists
        .iter()
        .enumerate()
        .map(|(i, list)| {
            list.iter()
                .copied()
                .filter(|&v| {
                    let v = v as usize;
                    v < cap
                        && (0..cap - v).any(|s| forward[i][s] && backward[i + 1][cap - 1 - v - s])
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feasible_values_keep_only_completable_choices() {
        let a: &[u32] = &[1, 2, 7];
        let b: &[u32] = &[3, 4];
        assert_eq!(feasible_values(&[a, b], 6), vec![vec![2], vec![4]]);
        assert_eq!(feasible_values(&[a], 7), vec![vec![7]]);
        assert_eq!(
            feasible_values(&[a, b], 20),
            vec![Vec::<u32>::new(), vec![]]
        );
    }

    #[test]
    fn ratings_follow_the_scale() {
        assert_eq!(rating(1, 1), Rating::tenths(30));
        assert_eq!(rating(1, 2), Rating::tenths(31));
        assert_eq!(rating(3, 1), Rating::tenths(34));
        assert_eq!(rating(5, 2), Rating::tenths(39));
        assert_eq!(rating(7, 1), Rating::tenths(39));
    }
}
