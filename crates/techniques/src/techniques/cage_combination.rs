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

use super::cage_support::{Scratch, SupportCache};
use crate::step::{CageCut, Reason};
use crate::{Context, Rating, State, Step, Technique, TechniqueKind};
use kenken_model::CageId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::RangeInclusive;
use std::time::Instant;

pub struct CageCombination;

/// The most cages one step may combine (the spec's "up to 8").
pub const MAX_LEVEL: usize = 8;

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
    /// (Level-major: level l's flags are `dirty[l * cages..(l + 1) * cages]`.)
    dirty: Vec<bool>,
    /// Counts the changes seen (one tick per step that changed a cage).
    clock: u32,
    /// Per cage, the tick of its last change.
    changed_at: Vec<u32>,
    /// Sets (see [`set_key`]) that removed nothing, with the tick they were checked
    /// at: while none of their cages changes since, they still remove nothing, so
    /// they are skipped. This changes no result, only the time spent.
    barren: HashMap<u128, u32, BuildHasherDefault<SetKeyHasher>>,
    /// Live lists and pair compatibility tables of unchanged cages, reused between
    /// searches.
    support: SupportCache,
    /// The deepest level up to which every level from 2 found nothing since the
    /// last change (1: none). See [`has_cut_cage`] for what it allows.
    exhausted: usize,
}

impl Memory {
    pub fn new(cage_count: usize) -> Memory {
        Memory {
            deepest: 1,
            resume: vec![None; MAX_LEVEL + 1],
            dirty: vec![false; cage_count * (MAX_LEVEL + 1)],
            clock: 0,
            changed_at: vec![0; cage_count],
            barren: HashMap::default(),
            support: SupportCache::new(cage_count),
            exhausted: 1,
        }
    }

    pub fn cages_changed(&mut self, cages: &[CageId]) {
        if cages.is_empty() {
            return;
        }
        self.clock += 1;
        self.exhausted = 1;
        for c in cages {
            self.changed_at[c.index()] = self.clock;
        }
        for level in self.dirty.chunks_mut(self.changed_at.len()) {
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
        2..=ctx.options.max_depth.min(unsolved).min(MAX_LEVEL)
    }

    fn find(&self, state: &State, ctx: &mut Context, n: usize) -> Option<Step> {
        let deadline = ctx.options.deadline;
        let mem = &mut ctx.combos;
        let list = unsolved_sorted(state);
        let mut sets = Sets {
            state,
            list: &list,
            scratch: Scratch::new(state, &list, &mut mem.support, mem.clock, &mem.changed_at),
            clock: mem.clock,
            changed_at: &mem.changed_at,
            barren: &mut mem.barren,
            skip_cut_cages: mem.exhausted + 1 >= n,
            deadline,
            tried: 0,
            timed_out: false,
        };
        sets.scratch.set_deadline(deadline);
        let found = if n > mem.deepest {
            mem.deepest = n;
            sets.search_from(n, None)
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
            sets.search_from(n, start)
        } else {
            let cages = mem.changed_at.len();
            sets.search_dirty(n, &mem.dirty[n * cages..(n + 1) * cages])
        };
        if sets.timed_out {
            // Cut short: nothing is known about this level.
            ctx.timed_out = true;
            return None;
        }
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
                let cages = mem.changed_at.len();
                mem.dirty[n * cages..(n + 1) * cages].fill(false);
                if mem.exhausted + 1 == n {
                    mem.exhausted = n;
                }
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

/// One search over the cage sets of a state.
struct Sets<'a> {
    state: &'a State,
    list: &'a [CageId],
    scratch: Scratch<'a>,
    clock: u32,
    changed_at: &'a [u32],
    barren: &'a mut HashMap<u128, u32, BuildHasherDefault<SetKeyHasher>>,
    /// Whether every smaller connected set is known to remove nothing, so that sets
    /// with a cut cage can be skipped (see [`has_cut_cage`]).
    skip_cut_cages: bool,
    /// The run's deadline, checked every [`DEADLINE_EVERY`] sets tried.
    deadline: Option<Instant>,
    tried: u32,
    /// Set when the deadline passed: the search stopped early.
    timed_out: bool,
}

/// How many sets are tried between two looks at the clock.
const DEADLINE_EVERY: u32 = 256;

impl Sets<'_> {
    /// All connected n-sets of the list in lexicographic order, starting at `start`
    /// (wrapping around).
    fn search_from(&mut self, n: usize, start: Option<Vec<usize>>) -> Option<Found> {
        let m = self.list.len();
        if n > m {
            return None;
        }
        let first: Vec<usize> = (0..n).collect();
        let start = start
            .and_then(|s| first_at_or_after(&s, m))
            .unwrap_or_else(|| first.clone());
        let mut idx = start.clone();
        loop {
            if let Some(found) = self.try_set(&idx) {
                return Some(found);
            }
            if self.timed_out {
                return None;
            }
            if !next_combination(&mut idx, m) {
                idx.clone_from(&first);
            }
            if idx == start {
                return None;
            }
        }
    }

    /// Sets holding at least one dirty cage; each dirty cage (in list order) first,
    /// with the others in lexicographic order, skipping sets already tried with an
    /// earlier dirty cage.
    fn search_dirty(&mut self, n: usize, dirty: &[bool]) -> Option<Found> {
        let m = self.list.len();
        let mut done: Vec<usize> = Vec::new();
        let mut idx = Vec::with_capacity(n);
        for lead in 0..m {
            if !dirty[self.list[lead].index()] {
                continue;
            }
            let others: Vec<usize> = (0..m)
                .filter(|&i| i != lead && !done.contains(&i))
                .collect();
            if others.len() >= n - 1 {
                let mut pick: Vec<usize> = (0..n - 1).collect();
                loop {
                    idx.clear();
                    idx.push(lead);
                    idx.extend(pick.iter().map(|&p| others[p]));
                    if let Some(found) = self.try_set(&idx) {
                        return Some(found);
                    }
                    if self.timed_out {
                        return None;
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

    fn try_set(&mut self, idx: &[usize]) -> Option<Found> {
        self.tried += 1;
        if self.tried.is_multiple_of(DEADLINE_EVERY)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.timed_out = true;
        }
        if self.timed_out {
            return None;
        }
        let mut cages = [CageId::new(0); MAX_LEVEL];
        for (k, &i) in idx.iter().enumerate() {
            cages[k] = self.list[i];
        }
        let cages = &cages[..idx.len()];
        let links = links_within(self.state, cages);
        if !connected(&links, all_of(cages.len())) {
            return None;
        }
        if self.skip_cut_cages && has_cut_cage(&links, cages.len()) {
            return None;
        }
        let key = set_key(cages);
        if let Some(&checked) = self.barren.get(&key) {
            if cages.iter().all(|c| self.changed_at[c.index()] <= checked) {
                return None;
            }
        }
        let cuts = self.scratch.unsupported(idx);
        if self.scratch.timed_out() {
            self.timed_out = true;
            return None;
        }
        if cuts.is_empty() {
            self.barren.insert(key, self.clock);
            return None;
        }
        Some((idx.to_vec(), cages.to_vec(), cuts))
    }
}

/// An exact key for a set of at most 8 cages (ids below 256, as a grid has at most
/// 256 cells): the sorted ids, a byte each, and the set's size.
fn set_key(cages: &[CageId]) -> u128 {
    let mut ids = [0u8; MAX_LEVEL];
    for (k, c) in cages.iter().enumerate() {
        ids[k] = c.index() as u8;
    }
    let ids = &mut ids[..cages.len()];
    ids.sort_unstable();
    ids.iter()
        .fold(cages.len() as u128, |key, &id| (key << 8) | id as u128)
}

/// A hasher for [`set_key`]s: one multiply instead of SipHash, whose resistance to
/// chosen keys buys nothing here (the keys are cage ids of the puzzle being graded)
/// and whose cost showed in profiles.
#[derive(Default)]
pub struct SetKeyHasher(u64);

impl Hasher for SetKeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, v: u128) {
        let folded = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        self.0 = (self.0 ^ folded).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
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

/// For each cage of a set, the bit set of the set's cages it is linked with.
fn links_within(state: &State, cages: &[CageId]) -> [u8; MAX_LEVEL] {
    let layout = state.layout();
    let mut links = [0u8; MAX_LEVEL];
    for (i, &a) in cages.iter().enumerate() {
        for (j, &b) in cages.iter().enumerate() {
            if layout.linked(a, b) {
                links[i] |= 1 << j;
            }
        }
    }
    links
}

/// The bit set of the first n cages of a set.
fn all_of(n: usize) -> u8 {
    ((1u16 << n) - 1) as u8
}

/// Whether the cages of `members` (a bit set over the set) form one linked group.
fn connected(links: &[u8; MAX_LEVEL], members: u8) -> bool {
    if members == 0 {
        return true;
    }
    let first = members & members.wrapping_neg();
    let (mut reached, mut frontier) = (first, first);
    while frontier != 0 {
        let i = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = links[i] & members & !reached;
        reached |= new;
        frontier |= new;
    }
    reached == members
}

/// Whether some cage of a connected set of three or more is a cut cage: one whose
/// removal splits the rest into groups that are not linked to each other.
///
/// Such a set removes nothing once every smaller connected set removes nothing
/// (which holds when the levels are tried in order, as the ladder does): the
/// constraints between cages are pairwise, so the parts on either side of the cut
/// cage C only meet in C. Every combination of C extends to each part (the parts
/// with C are smaller connected sets, which remove nothing), and the extensions of
/// the parts combine, since nothing links them; and every combination of a cage of
/// a part extends to that part with some combination of C, and so to the rest.
/// In particular three cages in a row (A–B–C, A not linked to C) never remove
/// anything at level 3 — only a triangle can — and a set with a cage linked to just
/// one other never does.
fn has_cut_cage(links: &[u8; MAX_LEVEL], n: usize) -> bool {
    let members = all_of(n);
    n >= 3 && (0..n).any(|v| !connected(links, members & !(1 << v)))
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

    /// Links of a set from an edge list (both directions).
    fn links(edges: &[(usize, usize)]) -> [u8; MAX_LEVEL] {
        let mut l = [0u8; MAX_LEVEL];
        for &(a, b) in edges {
            l[a] |= 1 << b;
            l[b] |= 1 << a;
        }
        l
    }

    #[test]
    fn cut_cages() {
        // A path of three: the middle cage cuts it; a triangle has no cut cage.
        assert!(has_cut_cage(&links(&[(0, 1), (1, 2)]), 3));
        assert!(!has_cut_cage(&links(&[(0, 1), (1, 2), (0, 2)]), 3));
        // A square has none; a square with a tail does; two triangles sharing a
        // cage (a bow tie) do.
        assert!(!has_cut_cage(&links(&[(0, 1), (1, 2), (2, 3), (3, 0)]), 4));
        assert!(has_cut_cage(
            &links(&[(0, 1), (1, 2), (2, 3), (3, 0), (3, 4)]),
            5
        ));
        assert!(has_cut_cage(
            &links(&[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]),
            5
        ));
        // Pairs are always searched.
        assert!(!has_cut_cage(&links(&[(0, 1)]), 2));
        assert!(connected(&links(&[(0, 1), (1, 2)]), all_of(3)));
        assert!(!connected(&links(&[(0, 1)]), all_of(3)));
    }

    #[test]
    fn ratings() {
        assert_eq!(rating(2), Rating::tenths(40));
        assert_eq!(rating(4), Rating::tenths(44));
        assert_eq!(rating(8), Rating::tenths(52));
    }
}
