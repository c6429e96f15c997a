//! Region sum: the unknown cage parts of a slice must make up the slice total minus
//! the known parts; keep only the values of each unknown that some choice for the
//! others completes.

use super::slices::SliceTotals;
use super::RegionTotal;
use crate::step::{Reason, Total};
use crate::technique::MAX_CAGE_SET;
use crate::{State, Step, TechniqueKind};
use kenken_model::CageId;

/// The region-sum step (of `kind`) on this slice, when it has 1..=u_max unknown
/// parts and removes something.
pub fn deduce(
    state: &State,
    totals: &SliceTotals,
    u_max: usize,
    kind: TechniqueKind,
) -> Option<Step> {
    let u = totals.parts.iter().filter(|p| !totals.is_known(p)).count();
    if u == 0 || u > u_max {
        return None;
    }
    // The unknown parts' indices: on the stack for as many as the ladder allows.
    let (mut unknown_small, mut unknown_big) = ([0usize; MAX_UNKNOWNS], Vec::new());
    let unknown: &mut [usize] = if u <= MAX_UNKNOWNS {
        &mut unknown_small[..u]
    } else {
        unknown_big.resize(u, 0);
        &mut unknown_big
    };
    let mut known = 0u32;
    let mut k = 0;
    for (i, part) in totals.parts.iter().enumerate() {
        if totals.is_known(part) {
            known += totals.values(part)[0];
        } else {
            unknown[k] = i;
            k += 1;
        }
    }
    let unknown = &*unknown;
    let required = totals.target.checked_sub(known)?;
    let kept = if u <= MAX_UNKNOWNS {
        let mut lists: [&[u32]; MAX_UNKNOWNS] = [&[]; MAX_UNKNOWNS];
        for (list, &i) in lists.iter_mut().zip(unknown) {
            *list = totals.values(&totals.parts[i]);
        }
        Kept::new(&lists[..u], required)
    } else {
        let lists: Vec<&[u32]> = unknown
            .iter()
            .map(|&i| totals.values(&totals.parts[i]))
            .collect();
        Kept::Lists(feasible_values(&lists, required))
    };
    let mut cuts = Vec::new();
    for (k, &i) in unknown.iter().enumerate() {
        let part = &totals.parts[i];
        if kept.count(k) == totals.values(part).len() {
            continue;
        }
        let removed: Vec<u32> = totals
            .sums(state, part)
            .filter(|&(_, s)| !kept.contains(k, s))
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
    // Named as the reference names them: the cages wholly inside the slice, then
    // those partly inside, each group in clue order; their cuts in the same order.
    let mut named: Vec<(bool, CageId)> = unknown
        .iter()
        .map(|&i| (!totals.parts[i].is_whole(), totals.parts[i].cage))
        .collect();
    named.sort_unstable();
    let unknown: Vec<CageId> = named.into_iter().map(|(_, cage)| cage).collect();
    cuts.sort_by_key(|cut| unknown.iter().position(|&cage| cage == cut.cage));
    Some(state.step_from_cuts(
        kind,
        kind.rate(u, totals.slice.count),
        Reason::RegionTotal(RegionTotal {
            slice: totals.slice,
            target: Total::Sum(totals.target),
            required: Total::Sum(required),
            unknown,
        }),
        cuts,
    ))
}

/// The most unknown parts a region sum takes: one more than the deepest
/// cage-combination level.
const MAX_UNKNOWNS: usize = MAX_CAGE_SET + 1;

/// The values of each unknown part that some choice for the others completes to
/// the required sum ([`feasible_values`]).
enum Kept {
    /// As bit sets, when the required sum and every value are below 128 (every
    /// slice of a grid up to 6×6, the narrower slices of larger grids): worked out
    /// on the stack, as most slices find nothing and a step is the exception.
    Bits([u128; MAX_UNKNOWNS]),
    Lists(Vec<Vec<u32>>),
}

impl Kept {
    /// For at most [`MAX_UNKNOWNS`] lists.
    fn new(lists: &[&[u32]], required: u32) -> Kept {
        let small = required < 128 && lists.iter().all(|l| l.iter().all(|&v| v < 128));
        if !small {
            return Kept::Lists(feasible_values(lists, required));
        }
        let bits = |list: &[u32]| list.iter().fold(0u128, |b, &v| b | 1 << v);
        // Sums up to `required`: bits 0..=required.
        let mask = u128::MAX >> (127 - required);
        let sums = |a: u128, mut b: u128| {
            let mut out = 0u128;
            while b != 0 {
                out |= a << b.trailing_zeros();
                b &= b - 1;
            }
            out & mask
        };
        // forward[i]: sums reachable with the first i parts; backward[i]: with the
        // parts from i on.
        let u = lists.len();
        let (mut forward, mut backward) = ([1u128; MAX_UNKNOWNS + 1], [1u128; MAX_UNKNOWNS + 1]);
        for i in 0..u {
            forward[i + 1] = sums(forward[i], bits(lists[i]));
        }
        for i in (0..u).rev() {
            backward[i] = sums(backward[i + 1], bits(lists[i]));
        }
        let mut kept = [0u128; MAX_UNKNOWNS];
        for (k, list) in lists.iter().enumerate() {
            // What the other parts can add up to; v is kept when required − v is
            // one of those sums.
            let others = sums(forward[k], backward[k + 1]);
            for &v in *list {
                if v <= required && others & (1 << (required - v)) != 0 {
                    kept[k] |= 1 << v;
                }
            }
        }
        Kept::Bits(kept)
    }

    /// How many values of unknown part `k` are kept.
    fn count(&self, k: usize) -> usize {
        match self {
            Kept::Bits(bits) => bits[k].count_ones() as usize,
            Kept::Lists(lists) => lists[k].len(),
        }
    }

    fn contains(&self, k: usize, v: u32) -> bool {
        match self {
            Kept::Bits(bits) => v < 128 && bits[k] & (1 << v) != 0,
            Kept::Lists(lists) => lists[k].contains(&v),
        }
    }
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

    /// The bit-set shortcut keeps exactly what [`feasible_values`] keeps.
    #[test]
    fn kept_bits_match_feasible_values() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..2000 {
            let u = 1 + next(MAX_UNKNOWNS as u64) as usize;
            let lists: Vec<Vec<u32>> = (0..u)
                .map(|_| {
                    let mut l: Vec<u32> = (0..1 + next(6)).map(|_| next(40) as u32).collect();
                    l.sort_unstable();
                    l.dedup();
                    l
                })
                .collect();
            let refs: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
            let required = next(128) as u32;
            let Kept::Bits(bits) = Kept::new(&refs, required) else {
                panic!("small lists take the bit sets");
            };
            let want = feasible_values(&refs, required);
            for (k, list) in want.iter().enumerate() {
                let got: Vec<u32> = (0..128).filter(|&v| bits[k] & (1 << v) != 0).collect();
                assert_eq!(&got, list, "{lists:?} {required}");
            }
        }
    }
}
