//! Cage combinations (rating 4 + (n−2)/5): for a connected set of n unsolved cages, a
//! combination of one of them survives only if it extends to a choice of one live
//! combination for every cage of the set with no row/column (or box) clash.
//!
//! Search order (the ladder spec fixes it, as it decides `total` and, through the
//! deepest level tried, which region sums are allowed): unsolved cages sorted by
//! live combinations (ties by cage order); sets in lexicographic order of that list;
//! at the deepest level, resume from the set of the previous success there, wrapping
//! around; at a shallower level, only sets holding a cage changed since that level
//! last found nothing, those cages first.

use crate::step::{CageCut, Reason};
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};
use kenken_model::CageId;
use std::ops::RangeInclusive;

pub struct CageCombination;

/// The rating of a combination of n cages.
pub fn rating(n: usize) -> Rating {
    Rating::tenths(40 + 2 * (n as u32 - 2))
}

/// What the cage-combination search remembers between steps.
#[derive(Clone, Debug)]
pub struct Memory {
    /// The deepest level tried so far (1 before any).
    pub deepest: usize,
    /// Per level, the set of the last success: its cages and its position (indices
    /// into the sorted list then).
    resume: Vec<Option<(Vec<CageId>, Vec<usize>)>>,
    /// Per level, the cages changed since that level last found nothing.
    dirty: Vec<Vec<bool>>,
}

impl Memory {
    pub fn new(cage_count: usize) -> Memory {
        Memory {
            deepest: 1,
            resume: vec![None; 17],
            dirty: vec![vec![false; cage_count]; 17],
        }
    }

    pub fn cages_changed(&mut self, cages: &[CageId]) {
        for level in &mut self.dirty {
            for c in cages {
                level[c.index()] = true;
            }
        }
    }
}

impl Technique for CageCombination {
    fn kinds(&self) -> &'static [TechniqueKind] {
        &[TechniqueKind::CageCombination]
    }

    fn sizes(&self, state: &State, ctx: &Context) -> RangeInclusive<usize> {
        let unsolved = state
            .puzzle()
            .cage_ids()
            .filter(|&c| state.live_count(c) > 1)
            .count();
        2..=ctx.options.max_depth.min(unsolved).min(16)
    }

    fn find(&self, state: &State, ctx: &mut Context, n: usize) -> Option<Step> {
        let mem = &mut ctx.combos;
        let list = unsolved_sorted(state);
        let found = if n > mem.deepest {
            mem.deepest = n;
            search_from(state, &list, n, None)
        } else if n == mem.deepest {
            let start = mem.resume[n].as_ref().map(|(cages, position)| {
                // The same cages where they stand now; if one is solved, the old
                // position.
                let mut at: Vec<usize> = cages
                    .iter()
                    .filter_map(|c| list.iter().position(|x| x == c))
                    .collect();
                if at.len() == cages.len() {
                    at.sort_unstable();
                    at
                } else {
                    position.clone()
                }
            });
            search_from(state, &list, n, start)
        } else {
            search_dirty(state, &list, n, &mem.dirty[n])
        };
        match found {
            Some((position, cages, cuts)) => {
                mem.resume[n] = Some((cages.clone(), position));
                Some(state.step_from_cuts(
                    TechniqueKind::CageCombination,
                    rating(n),
                    Reason::CageCombination { cages },
                    cuts,
                ))
            }
            None => {
                mem.dirty[n].iter_mut().for_each(|d| *d = false);
                None
            }
        }
    }
}

/// Unsolved cages (more than one live combination), by live count then cage order.
fn unsolved_sorted(state: &State) -> Vec<CageId> {
    let mut list: Vec<CageId> = state
        .puzzle()
        .cage_ids()
        .filter(|&c| state.live_count(c) > 1)
        .collect();
    list.sort_by_key(|&c| (state.live_count(c), c));
    list
}

type Found = (Vec<usize>, Vec<CageId>, Vec<CageCut>);

/// All connected n-sets of `list` in lexicographic order, starting at `start`
/// (wrapping around).
fn search_from(
    state: &State,
    list: &[CageId],
    n: usize,
    start: Option<Vec<usize>>,
) -> Option<Found> {
    let m = list.len();
    if n > m {
        return None;
    }
    let first: Vec<usize> = (0..n).collect();
    let start = start
        .and_then(|s| first_at_or_after(&s, m))
        .unwrap_or_else(|| first.clone());
    let mut idx = start.clone();
    loop {
        if let Some(found) = try_set(state, list, &idx) {
            return Some(found);
        }
        if !next_combination(&mut idx, m) {
            idx = first.clone();
        }
        if idx == start {
            return None;
        }
    }
}

/// Sets holding at least one dirty cage; each dirty cage (in list order) first, with
/// the others in lexicographic order, skipping sets already tried with an earlier
/// dirty cage.
fn search_dirty(state: &State, list: &[CageId], n: usize, dirty: &[bool]) -> Option<Found> {
    let m = list.len();
    let mut done: Vec<usize> = Vec::new();
    for lead in 0..m {
        if !dirty[list[lead].index()] {
            continue;
        }
        let others: Vec<usize> = (0..m)
            .filter(|&i| i != lead && !done.contains(&i))
            .collect();
        if others.len() >= n - 1 {
            let mut pick: Vec<usize> = (0..n - 1).collect();
            loop {
                let mut idx = Vec::with_capacity(n);
                idx.push(lead);
                idx.extend(pick.iter().map(|&p| others[p]));
                if let Some(found) = try_set(state, list, &idx) {
                    return Some(found);
                }
                if !next_combination(&mut pick, others.len()) {
                    break;
                }
            }
        }
        done.push(lead);
    }
    None
}

/// The first n-combination of 0..m at or after `s` in lexicographic order.
fn first_at_or_after(s: &[usize], m: usize) -> Option<Vec<usize>> {
    let n = s.len();
    let increasing = |v: &[usize]| v.windows(2).all(|w| w[0] < w[1]);
    if increasing(s) && s.last().is_none_or(|&l| l < m) {
        return Some(s.to_vec());
    }
    // Keep the longest prefix that can be kept, bump the next position past s's
    // value there, and fill the rest with the smallest values.
    for keep in (0..n).rev() {
        let prefix = &s[..keep];
        if !increasing(prefix) || prefix.last().is_some_and(|&l| l >= m) {
            continue;
        }
        let lo = (s[keep] + 1).max(prefix.last().map_or(0, |&l| l + 1));
        if lo + (n - keep) <= m {
            let mut v = prefix.to_vec();
            v.extend(lo..lo + (n - keep));
            return Some(v);
        }
    }
    None
}

/// Advances to the next n-combination of 0..m; false after the last.
fn next_combination(idx: &mut [usize], m: usize) -> bool {
    let n = idx.len();
    for i in (0..n).rev() {
        if idx[i] < m - n + i {
            idx[i] += 1;
            for j in i + 1..n {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

fn connected(state: &State, cages: &[CageId]) -> bool {
    let layout = state.layout();
    let n = cages.len();
    let mut reached = 1u32;
    let mut frontier = vec![0usize];
    while let Some(i) = frontier.pop() {
        for j in 0..n {
            if reached & (1 << j) == 0 && layout.linked(cages[i], cages[j]) {
                reached |= 1 << j;
                frontier.push(j);
            }
        }
    }
    reached.count_ones() as usize == n
}

fn try_set(state: &State, list: &[CageId], idx: &[usize]) -> Option<Found> {
    let cages: Vec<CageId> = idx.iter().map(|&i| list[i]).collect();
    if !connected(state, &cages) {
        return None;
    }
    let cuts = unsupported(state, &cages);
    (!cuts.is_empty()).then(|| (idx.to_vec(), cages, cuts))
}

/// The combinations of each cage of the set that no clash-free choice for the other
/// cages accompanies.
pub fn unsupported(state: &State, cages: &[CageId]) -> Vec<CageCut> {
    let layout = state.layout();
    let w = layout.fp_words;
    let live: Vec<Vec<usize>> = cages
        .iter()
        .map(|&c| state.live_combinations(c).collect())
        .collect();
    let mut supported: Vec<Vec<bool>> = live.iter().map(|l| vec![false; l.len()]).collect();
    let mut chosen = vec![0usize; cages.len()];
    let mut union = vec![0u64; w * (cages.len() + 1)];
    for lead in 0..cages.len() {
        // Try the other cages in set order after the lead.
        let order: Vec<usize> = std::iter::once(lead)
            .chain((0..cages.len()).filter(|&j| j != lead))
            .collect();
        for a in 0..live[lead].len() {
            if supported[lead][a] {
                continue;
            }
            chosen[lead] = a;
            let fp = layout.footprint(cages[lead], live[lead][a]);
            union[w..2 * w].copy_from_slice(fp);
            if extend(state, cages, &live, &order, 1, &mut chosen, &mut union) {
                for (k, &j) in order.iter().enumerate() {
                    let _ = k;
                    supported[j][chosen[j]] = true;
                }
            }
        }
    }
    cages
        .iter()
        .enumerate()
        .filter_map(|(j, &cage)| {
            let removed: Vec<u32> = live[j]
                .iter()
                .zip(&supported[j])
                .filter(|(_, &s)| !s)
                .map(|(&i, _)| i as u32)
                .collect();
            (!removed.is_empty()).then(|| CageCut {
                cage,
                before: live[j].len(),
                after: live[j].len() - removed.len(),
                removed,
            })
        })
        .collect()
}

/// Depth-first: chooses a combination for `order[depth..]` that clashes with nothing
/// chosen so far (`union[depth]` holds the chosen footprints).
fn extend(
    state: &State,
    cages: &[CageId],
    live: &[Vec<usize>],
    order: &[usize],
    depth: usize,
    chosen: &mut [usize],
    union: &mut [u64],
) -> bool {
    if depth == order.len() {
        return true;
    }
    let layout = state.layout();
    let w = layout.fp_words;
    let j = order[depth];
    for (b, &i) in live[j].iter().enumerate() {
        let fp = layout.footprint(cages[j], i);
        let (head, tail) = union.split_at_mut((depth + 1) * w);
        let cur = &head[depth * w..];
        if cur.iter().zip(fp).any(|(u, f)| u & f != 0) {
            continue;
        }
        for k in 0..w {
            tail[k] = cur[k] | fp[k];
        }
        chosen[j] = b;
        if extend(state, cages, live, order, depth + 1, chosen, union) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_advance_lexicographically() {
        let mut v = vec![0, 1];
        let mut all = vec![v.clone()];
        while next_combination(&mut v, 4) {
            all.push(v.clone());
        }
        assert_eq!(all.len(), 6);
        assert_eq!(all[5], vec![2, 3]);
        assert_eq!(first_at_or_after(&[1, 5], 4), Some(vec![2, 3]));
        assert_eq!(first_at_or_after(&[3, 5], 4), None);
        assert_eq!(first_at_or_after(&[1, 2], 4), Some(vec![1, 2]));
    }

    #[test]
    fn ratings() {
        assert_eq!(rating(2), Rating::tenths(40));
        assert_eq!(rating(4), Rating::tenths(44));
        assert_eq!(rating(8), Rating::tenths(52));
    }
}
