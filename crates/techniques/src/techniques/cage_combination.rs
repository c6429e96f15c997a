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
use std::ops::{ControlFlow, RangeInclusive};

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
    resume: [Option<SetAt>; MAX_LEVEL + 1],
    /// Per level, the cages changed since that level last found nothing.
    /// (Level-major: level l's flags are `dirty[l * cages..(l + 1) * cages]`.)
    ///
    /// `dirty` (and `barren_pairs`) are allocated by the first search (most runs
    /// never reach cage combinations): a level's flags are only read after that
    /// level found nothing, which clears them, so changes before the first search
    /// need no marks.
    dirty: Vec<bool>,
    /// Counts the changes seen (one tick per step that changed a cage).
    clock: u32,
    /// Per cage, the tick of its last change.
    changed_at: Vec<u32>,
    /// Sets (see [`set_key`]) that removed nothing, with the tick they were checked
    /// at: while none of their cages changes since, they still remove nothing, so
    /// they are skipped. This changes no result, only the time spent.
    barren: HashMap<u128, u32, BuildHasherDefault<SetKeyHasher>>,
    /// The same for pairs, the sets checked most, in a flat table: entry
    /// `a * cages + b` (a < b) is 1 + the tick the pair was found barren at, 0 for
    /// never. (A map lookup cost as much as checking a small pair.)
    barren_pairs: Vec<u32>,
    /// Live lists and pair compatibility tables of unchanged cages, reused between
    /// searches.
    support: SupportCache,
    /// The deepest level up to which every level from 2 found nothing since the
    /// last change (1: none). See [`has_cut_cage`] for what it allows.
    exhausted: usize,
    /// The last sorted list of unsolved cages with the links between them, and the
    /// tick it was sorted at.
    links: Option<(u32, Vec<CageId>, ListLinks)>,
}

impl Memory {
    pub fn new(cage_count: usize) -> Memory {
        Memory {
            deepest: 1,
            resume: [None; MAX_LEVEL + 1],
            dirty: Vec::new(),
            clock: 0,
            changed_at: vec![0; cage_count],
            barren: HashMap::default(),
            barren_pairs: Vec::new(),
            support: SupportCache::new(cage_count),
            exhausted: 1,
            links: None,
        }
    }

    /// The current tick (one per step that changed a cage).
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// Per cage, the tick of its last change.
    pub fn changed_at(&self) -> &[u32] {
        &self.changed_at
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
        // Levels above the deepest need no marks: a level is searched for dirty
        // sets only below the deepest, after it found nothing (which clears them).
        let levels = self.dirty.chunks_mut(self.changed_at.len());
        for level in levels.take(self.deepest + 1).skip(2) {
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
        let mem = &mut ctx.combos;
        let budget = &mut ctx.budget;
        if mem.dirty.is_empty() {
            let cages = mem.changed_at.len();
            budget
                .reserve(cages * (MAX_LEVEL + 1) + 4 * cages * cages)
                .ok()?;
            mem.dirty = vec![false; cages * (MAX_LEVEL + 1)];
            mem.barren_pairs = vec![0; cages * cages];
        }
        // The list and its links carry over from the previous search: as they are
        // while no cage changed (the next levels over the same state), brought up
        // to date (see `resort`) after a step.
        let (list, links) = match mem.links.take() {
            Some((tick, list, links)) if tick == mem.clock => (list, links),
            Some((_, mut list, mut links)) => {
                resort(state, &mut list, &mut links);
                (list, links)
            }
            None => {
                let list = unsolved_sorted(state);
                let links = ListLinks::of_list(state, &list);
                (list, links)
            }
        };
        let mut sets = Sets {
            list: &list,
            links: &links,
            scratch: Scratch::new(
                state,
                &list,
                &mut mem.support,
                mem.clock,
                &mem.changed_at,
                budget,
            ),
            clock: mem.clock,
            changed_at: &mem.changed_at,
            barren: &mut mem.barren,
            barren_pairs: &mut mem.barren_pairs,
            skip_cut_cages: mem.exhausted + 1 >= n,
            memos: ctx.memos,
            stopped: false,
        };
        // Pair tables pay once sets of three cages are searched, which reuse them
        // (a set of three builds the tables it needs whatever this says).
        sets.scratch.set_pair_tables(mem.deepest >= 3);
        let found = if n > mem.deepest {
            mem.deepest = n;
            sets.search_from(n, None)
        } else if n == mem.deepest {
            let start = mem.resume[n].as_ref().map(|last| {
                // The same cages where they stand now; if one is solved, the old
                // position.
                let mut at = Positions::default();
                for c in last.cages() {
                    if let Some(i) = list.iter().position(|x| x == c) {
                        at.push(i);
                    }
                }
                if at.len() == last.positions.len() {
                    at.sort_unstable();
                    at
                } else {
                    last.positions
                }
            });
            sets.search_from(n, start)
        } else {
            let cages = mem.changed_at.len();
            sets.search_dirty(n, &mem.dirty[n * cages..(n + 1) * cages])
        };
        let stopped = sets.stopped;
        sets.scratch.release();
        mem.links = Some((mem.clock, list, links));
        if stopped {
            // Cut short (the budget says why): nothing is known about this level.
            return None;
        }
        match found {
            Some((set, cuts)) => {
                mem.resume[n] = Some(set);
                let reason = Reason::CageCombination {
                    cages: set.cages().to_vec(),
                };
                let kind = TechniqueKind::CageCombination;
                Some(if ctx.explain {
                    state.step_from_cuts(kind, rating(n), reason, cuts)
                } else {
                    Step::from_cuts(kind, rating(n), reason, cuts)
                })
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
    let mut list = Vec::with_capacity(state.layout().cage_count());
    list.extend(
        state
            .puzzle()
            .cage_ids()
            .filter(|&c| state.live_count(c) > 1),
    );
    list.sort_unstable_by_key(|&c| (state.live_count(c), c));
    list
}

/// Brings the previous search's list and its links up to date with the state:
/// drops the cages solved since and restores the order (by live count, ties by cage
/// order). The list already holds every unsolved cage, as a run's states only
/// narrow, and it is nearly sorted, as only the cages changed since moved: an
/// insertion sort puts them back in place, moving their links along, instead of
/// sorting the list and reading every link off the layout again.
fn resort(state: &State, list: &mut Vec<CageId>, links: &mut ListLinks) {
    for p in (0..list.len()).rev() {
        if state.live_count(list[p]) <= 1 {
            list.remove(p);
            links.remove(p);
        }
    }
    let key = |c: CageId| (state.live_count(c), c);
    for i in 1..list.len() {
        let k = key(list[i]);
        let mut j = i;
        while j > 0 && key(list[j - 1]) > k {
            j -= 1;
        }
        if j != i {
            list[j..=i].rotate_right(1);
            links.move_down(i, j);
        }
    }
    debug_assert_eq!(*list, unsolved_sorted(state));
    debug_assert!((0..list.len()).all(|i| (0..list.len())
        .all(|j| links.linked(i, j) == (i != j && state.layout().linked(list[i], list[j])))));
}

/// A set that removes something, and what it removes.
type Found = (SetAt, Vec<CageCut>);

/// List positions of a cage set (at most [`MAX_LEVEL`]), kept inline: a search's
/// start and result are built every step, and vectors for them cost about as much
/// as the pair checks of a small grid's step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Positions {
    len: usize,
    at: [usize; MAX_LEVEL],
}

impl Positions {
    fn of(positions: &[usize]) -> Positions {
        let mut p = Positions::default();
        for &i in positions {
            p.push(i);
        }
        p
    }

    fn push(&mut self, i: usize) {
        self.at[self.len] = i;
        self.len += 1;
    }
}

impl std::ops::Deref for Positions {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.at[..self.len]
    }
}

impl std::ops::DerefMut for Positions {
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.at[..self.len]
    }
}

/// A cage set and where it stood in the sorted list when it was found.
#[derive(Clone, Copy, Debug)]
struct SetAt {
    positions: Positions,
    cages: [CageId; MAX_LEVEL],
}

impl SetAt {
    fn cages(&self) -> &[CageId] {
        &self.cages[..self.positions.len]
    }
}

/// One search over the cage sets of a state.
struct Sets<'a> {
    list: &'a [CageId],
    links: &'a ListLinks,
    scratch: Scratch<'a>,
    clock: u32,
    changed_at: &'a [u32],
    barren: &'a mut HashMap<u128, u32, BuildHasherDefault<SetKeyHasher>>,
    barren_pairs: &'a mut [u32],
    /// Whether every smaller connected set is known to remove nothing, so that sets
    /// with a cut cage can be skipped (see [`has_cut_cage`]).
    skip_cut_cages: bool,
    /// Whether sets found barren are skipped while their cages stay the same (see
    /// [`Context`]'s `memos`).
    memos: bool,
    /// Set when the run's budget ran out: the search stopped early.
    stopped: bool,
}

/// Bytes a set found barren takes in [`Memory::barren`]: its key and tick, with the
/// map's slack.
const BARREN_SET_BYTES: usize = 48;

impl Sets<'_> {
    /// All connected n-sets of the list in lexicographic order, starting at `start`
    /// (wrapping around).
    fn search_from(&mut self, n: usize, start: Option<Positions>) -> Option<Found> {
        let m = self.list.len();
        if n > m {
            return None;
        }
        let start = start.and_then(|s| first_at_or_after(&s, m));
        if n == 2 {
            let start = start.map_or((0, 0), |s| (s[0], s[1]));
            return match self.pairs_between(start, (m, 0)) {
                None if !self.stopped => self.pairs_between((0, 0), start),
                found => found,
            };
        }
        let walk = Walk::new(self.links, 0..m);
        let mut found = None;
        // From `start` to the last set, then from the first set up to `start`.
        let _ = walk.run(
            &mut Partial::default(),
            n,
            start.as_deref(),
            None,
            &mut |set| self.visit(set, &mut found),
        );
        if let Some(start) = start.filter(|_| found.is_none() && !self.stopped) {
            let _ = walk.run(&mut Partial::default(), n, None, Some(&start), &mut |set| {
                self.visit(set, &mut found)
            });
        }
        found
    }

    /// Sets holding at least one dirty cage; each dirty cage (in list order) first,
    /// with the others in lexicographic order, skipping sets already tried with an
    /// earlier dirty cage.
    fn search_dirty(&mut self, n: usize, dirty: &[bool]) -> Option<Found> {
        let m = self.list.len();
        // The leads done so far, as a bit set of list positions.
        let mut done = [0u64; MAX_WORDS];
        let mut found = None;
        for lead in 0..m {
            if !dirty[self.list[lead].index()] {
                continue;
            }
            if n == 2 {
                // The lead with each linked cage not led before, in list order.
                for (w, (&row, &done)) in self.links.row(lead).iter().zip(&done).enumerate() {
                    let mut bits = row & !done;
                    while bits != 0 {
                        let other = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let found = self.try_set(&[lead, other], &PAIR_LINKS);
                        if found.is_some() || self.stopped {
                            return found;
                        }
                    }
                }
                done[lead / 64] |= 1 << (lead % 64);
                continue;
            }
            let others = (0..m).filter(|&i| i != lead && done[i / 64] & (1 << (i % 64)) == 0);
            let walk = Walk::new(self.links, others);
            if walk.count_from(0) + 1 >= n {
                let mut set = Partial::default();
                set.push_fixed(&walk, lead);
                let _ = walk.run(&mut set, n, None, None, &mut |set| {
                    self.visit(set, &mut found)
                });
                if found.is_some() || self.stopped {
                    return found;
                }
            }
            done[lead / 64] |= 1 << (lead % 64);
        }
        None
    }

    /// The linked pairs (i, j), i < j, from `lo` (inclusive) to `hi` (exclusive) in
    /// lexicographic order: the walk of [`Sets::search_from`] for pairs, without
    /// its general machinery (pairs are most of the searches).
    fn pairs_between(&mut self, lo: (usize, usize), hi: (usize, usize)) -> Option<Found> {
        for i in lo.0..self.list.len().min(hi.0 + 1) {
            // Partners after i; in lo's row, from lo's partner on.
            let from = if i == lo.0 { lo.1.max(i + 1) } else { i + 1 };
            for (w, &row) in self.links.row(i).iter().enumerate() {
                let below = from.saturating_sub(w * 64).min(64);
                let mut bits = if below == 64 {
                    0
                } else {
                    row & (u64::MAX << below)
                };
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if (i, j) >= hi {
                        return None;
                    }
                    let found = self.try_set(&[i, j], &PAIR_LINKS);
                    if found.is_some() || self.stopped {
                        return found;
                    }
                }
            }
        }
        None
    }

    /// Tries one set of a walk: stops the walk when it removes something (kept in
    /// `found`) or the deadline passed.
    fn visit(&mut self, set: &Partial, found: &mut Option<Found>) -> ControlFlow<()> {
        *found = self.try_set(&set.members[..set.len], &set.links);
        if found.is_some() || self.stopped {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Checks a connected set (`links`: per member, the members it is linked with).
    fn try_set(&mut self, idx: &[usize], links: &[u8; MAX_LEVEL]) -> Option<Found> {
        if self.scratch.budget().spend(1).is_err() {
            self.stopped = true;
        }
        if self.stopped {
            return None;
        }
        let mut cages = [CageId::new(0); MAX_LEVEL];
        for (k, &i) in idx.iter().enumerate() {
            cages[k] = self.list[i];
        }
        let cages = &cages[..idx.len()];
        debug_assert!(connected(links, all_of(cages.len())));
        if self.skip_cut_cages && has_cut_cage(links, cages.len()) {
            return None;
        }
        let unchanged_since =
            |checked: u32| cages.iter().all(|c| self.changed_at[c.index()] <= checked);
        let memo = match *cages {
            [a, b] => Memo::Pair(
                a.index().min(b.index()) * self.changed_at.len() + a.index().max(b.index()),
            ),
            _ => Memo::Set(set_key(cages)),
        };
        let checked = match memo {
            Memo::Pair(slot) => self.barren_pairs[slot].checked_sub(1),
            Memo::Set(key) => self.barren.get(&key).copied(),
        };
        if self.memos && checked.is_some_and(unchanged_since) {
            return None;
        }
        let Ok(cuts) = self.scratch.unsupported(idx) else {
            self.stopped = true;
            return None;
        };
        if cuts.is_empty() {
            match memo {
                Memo::Pair(slot) => self.barren_pairs[slot] = self.clock + 1,
                Memo::Set(key) => {
                    let fresh = !self.barren.contains_key(&key);
                    if fresh && self.scratch.budget().reserve(BARREN_SET_BYTES).is_err() {
                        self.stopped = true;
                        return None;
                    }
                    if self.barren.capacity() == 0 {
                        // One allocation instead of growing through 3, 7, 14, 28, … sets.
                        self.barren.reserve(64);
                    }
                    self.barren.insert(key, self.clock);
                }
            }
            return None;
        }
        let mut set = SetAt {
            positions: Positions::of(idx),
            cages: [CageId::new(0); MAX_LEVEL],
        };
        set.cages[..cages.len()].copy_from_slice(cages);
        Some((set, cuts))
    }
}

/// The candidates of a walk over cage sets (a bit set of list positions) and the
/// links between list positions, which the connectivity pruning needs.
struct Walk<'a> {
    links: &'a ListLinks,
    cand: [u64; MAX_WORDS],
}

/// The links between the cages of a list, by list position: row i is the bit set
/// of the positions linked with position i.
#[derive(Clone, Debug)]
struct ListLinks {
    words: usize,
    rows: Vec<u64>,
}

impl ListLinks {
    /// Positions `0..m`, `linked(i, j)` saying whether i and j are linked.
    #[cfg(test)]
    fn new(m: usize, linked: impl Fn(usize, usize) -> bool) -> ListLinks {
        let words = m.div_ceil(64).max(1);
        let mut rows = vec![0u64; m * words];
        for i in 0..m {
            for j in (0..m).filter(|&j| j != i && linked(i, j)) {
                rows[i * words + j / 64] |= 1 << (j % 64);
            }
        }
        ListLinks { words, rows }
    }

    /// The links between the cages of `list`, read off the layout's.
    fn of_list(state: &State, list: &[CageId]) -> ListLinks {
        let layout = state.layout();
        let words = list.len().div_ceil(64).max(1);
        let mut position = vec![u32::MAX; layout.cage_count()];
        for (i, c) in list.iter().enumerate() {
            position[c.index()] = i as u32;
        }
        let mut rows = vec![0u64; list.len() * words];
        for (i, &a) in list.iter().enumerate() {
            for (w, &word) in layout.links_of(a).iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = position[w * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    if j != u32::MAX {
                        rows[i * words + j as usize / 64] |= 1 << (j % 64);
                    }
                }
            }
        }
        ListLinks { words, rows }
    }

    #[inline]
    fn row(&self, i: usize) -> &[u64] {
        &self.rows[i * self.words..(i + 1) * self.words]
    }

    /// Whether positions i and j are linked.
    fn linked(&self, i: usize, j: usize) -> bool {
        self.row(i)[j / 64] & (1 << (j % 64)) != 0
    }

    /// Takes position `p` out of the list: its row goes, and in every row the bits
    /// of the later positions move down one.
    fn remove(&mut self, p: usize) {
        let w = self.words;
        self.rows.drain(p * w..(p + 1) * w);
        for row in self.rows.chunks_exact_mut(w) {
            take_bit(row, p);
        }
    }

    /// Moves position `from` to `to` (before it); the positions in between move up
    /// one.
    fn move_down(&mut self, from: usize, to: usize) {
        debug_assert!(to < from);
        let w = self.words;
        self.rows[to * w..(from + 1) * w].rotate_right(w);
        for row in self.rows.chunks_exact_mut(w) {
            let bit = take_bit(row, from);
            put_bit(row, to, bit);
        }
    }
}

/// Takes bit `p` out of a multi-word bit set (the bits above it move down one);
/// whether it was set.
fn take_bit(row: &mut [u64], p: usize) -> bool {
    let (w, b) = (p / 64, p % 64);
    let was = row[w] & (1 << b) != 0;
    let below = (1u64 << b) - 1;
    row[w] = (row[w] & below) | ((row[w] >> 1) & !below);
    for k in w..row.len() {
        if k > w {
            row[k] >>= 1;
        }
        if let Some(&next) = row.get(k + 1) {
            row[k] |= (next & 1) << 63;
        }
    }
    was
}

/// Puts a bit in at position `p` of a multi-word bit set, the bits from p on moving
/// up one (the top bit must be clear).
fn put_bit(row: &mut [u64], p: usize, bit: bool) {
    let (w, b) = (p / 64, p % 64);
    debug_assert!(row.last().is_none_or(|&l| l >> 63 == 0));
    for k in (w + 1..row.len()).rev() {
        row[k] = (row[k] << 1) | (row[k - 1] >> 63);
    }
    let below = (1u64 << b) - 1;
    row[w] = (row[w] & below) | ((row[w] & !below) << 1) | (u64::from(bit) << b);
}

impl<'a> Walk<'a> {
    /// A walk choosing from the list positions `cand`.
    fn new(links: &'a ListLinks, cand: impl IntoIterator<Item = usize>) -> Walk<'a> {
        assert!(links.words <= MAX_WORDS, "at most 256 cages");
        let mut bits = [0u64; MAX_WORDS];
        for i in cand {
            bits[i / 64] |= 1 << (i % 64);
        }
        Walk { links, cand: bits }
    }

    /// The candidates at position `from` or later.
    fn from(&self, from: usize) -> [u64; MAX_WORDS] {
        let mut out = self.cand;
        for (w, word) in out.iter_mut().enumerate() {
            let below = from.saturating_sub(w * 64).min(64);
            *word &= if below == 64 { 0 } else { u64::MAX << below };
        }
        out
    }

    /// How many candidates are at position `from` or later.
    fn count_from(&self, from: usize) -> usize {
        self.from(from)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// Extends `set` to n members with candidates in lexicographic order, calling
    /// `visit` on every completed set from `lo` (list positions, inclusive) up to
    /// `hi` (exclusive); breaks when `visit` does or `hi` is reached. Only connected
    /// sets are visited: a set is not extended when its linked groups cannot all be
    /// joined by the candidates after its last member, and the last member must link
    /// with every group of the others.
    fn run(
        &self,
        set: &mut Partial,
        n: usize,
        lo: Option<&[usize]>,
        hi: Option<&[usize]>,
        visit: &mut impl FnMut(&Partial) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.extend(set, 0, n, lo, hi, visit)
    }

    fn extend(
        &self,
        set: &mut Partial,
        from: usize,
        n: usize,
        lo: Option<&[usize]>,
        hi: Option<&[usize]>,
        visit: &mut impl FnMut(&Partial) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if set.len == n {
            // Tight against `hi` all the way down: this is `hi` itself.
            return match hi {
                Some(_) => ControlFlow::Break(()),
                None => visit(set),
            };
        }
        let need = n - set.len;
        let joiners = match set.len {
            0 => None,
            _ => match self.joiners(set, from) {
                None => return ControlFlow::Continue(()),
                joiners => joiners,
            },
        };
        let depth = set.len - set.fixed;
        let first = lo.map_or(from, |lo| lo[depth].max(from));
        let mut next = self.from(first);
        if let Some(hi) = hi {
            // Up to hi[depth], inclusive.
            let past = self.from(hi[depth] + 1);
            for (x, p) in next.iter_mut().zip(past) {
                *x &= !p;
            }
        }
        if need == 1 {
            // The last member must link with every group of the others.
            if let Some(joiners) = joiners {
                for (x, j) in next.iter_mut().zip(joiners) {
                    *x &= j;
                }
            }
        }
        for (w, &word) in next.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if need > 1 && self.count_from(j + 1) < need - 1 {
                    return ControlFlow::Continue(());
                }
                set.push(self, j);
                let child_lo = lo.filter(|lo| lo[depth] == j);
                let child_hi = hi.filter(|hi| hi[depth] == j);
                let flow = self.extend(set, j + 1, n, child_lo, child_hi, visit);
                set.pop();
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    /// For a non-empty set, per linked group of its cages, the candidates at
    /// position `from` or later linked with the group: `None` when some group has
    /// none (no completion of the set is connected), else the candidates linked with
    /// every group (those that connect the set when added last).
    fn joiners(&self, set: &Partial, from: usize) -> Option<[u64; MAX_WORDS]> {
        let after = self.from(from);
        let mut all = [u64::MAX; MAX_WORDS];
        let mut left = all_of(set.len);
        while left != 0 {
            // The group of the first cage left.
            let mut group = left & left.wrapping_neg();
            let mut frontier = group;
            while frontier != 0 {
                let k = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = set.links[k] & left & !group;
                group |= new;
                frontier |= new;
            }
            left &= !group;
            let mut reach = [0u64; MAX_WORDS];
            while group != 0 {
                let k = group.trailing_zeros() as usize;
                group &= group - 1;
                for ((r, l), a) in reach
                    .iter_mut()
                    .zip(self.links.row(set.members[k]))
                    .zip(&after)
                {
                    *r |= l & a;
                }
            }
            if reach.iter().all(|&r| r == 0) {
                return None;
            }
            for (x, r) in all.iter_mut().zip(reach) {
                *x &= r;
            }
        }
        Some(all)
    }
}

/// The links within a linked pair (see [`Partial::links`]).
const PAIR_LINKS: [u8; MAX_LEVEL] = [0b10, 0b01, 0, 0, 0, 0, 0, 0];

/// Words of a bit set over the cages of a grid (at most 256 cells).
const MAX_WORDS: usize = 4;

/// A set being built by a walk: its list positions and, per member, the bit set of
/// the members it is linked with.
#[derive(Default)]
struct Partial {
    members: [usize; MAX_LEVEL],
    links: [u8; MAX_LEVEL],
    len: usize,
    /// Members placed before the walk started (the lead of a dirty search).
    fixed: usize,
}

impl Partial {
    /// Adds list position `pos` before the walk starts (the lead of a dirty search).
    fn push_fixed(&mut self, walk: &Walk, pos: usize) {
        self.push(walk, pos);
        self.fixed += 1;
    }

    /// Adds list position `pos`, noting its links with the members before it.
    fn push(&mut self, walk: &Walk, pos: usize) {
        let k = self.len;
        self.members[k] = pos;
        self.links[k] = 0;
        let row = walk.links.row(pos);
        for t in 0..k {
            let other = self.members[t];
            if row[other / 64] & (1 << (other % 64)) != 0 {
                self.links[k] |= 1 << t;
                self.links[t] |= 1 << k;
            }
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len -= 1;
        let bit = 1u8 << self.len;
        for l in &mut self.links[..self.len] {
            *l &= !bit;
        }
    }
}

/// Where a set's barren tick is kept: pairs in a flat table (their slot), larger
/// sets in a map (their key).
#[derive(Clone, Copy)]
enum Memo {
    Pair(usize),
    Set(u128),
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

/// A hasher for the keys of `set_key`: one multiply instead of SipHash, whose
/// resistance to chosen keys buys nothing here (the keys are cage ids of the puzzle
/// being graded) and whose cost showed in profiles.
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
fn first_at_or_after(s: &[usize], m: usize) -> Option<Positions> {
    let n = s.len();
    let increasing = |v: &[usize]| v.windows(2).all(|w| w[0] < w[1]);
    if increasing(s) && s.last().is_none_or(|&l| l < m) {
        return Some(Positions::of(s));
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
            let mut v = Positions::of(prefix);
            for i in lo..lo + (n - keep) {
                v.push(i);
            }
            return Some(v);
        }
    }
    None
}

/// Advances to the next n-combination of 0..m; false after the last.
#[cfg(test)]
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
        let first = |s: &[usize], m| first_at_or_after(s, m).map(|p| p.to_vec());
        assert_eq!(first(&[1, 5], 4), Some(vec![2, 3]));
        assert_eq!(first(&[3, 5], 4), None);
        assert_eq!(first(&[1, 2], 4), Some(vec![1, 2]));
    }

    /// Every n-combination of 0..m in lexicographic order.
    fn all_combinations(m: usize, n: usize) -> Vec<Vec<usize>> {
        let mut v: Vec<usize> = (0..n).collect();
        let mut all = vec![v.clone()];
        while next_combination(&mut v, m) {
            all.push(v.clone());
        }
        all
    }

    /// The walk visits exactly the connected sets, in lexicographic order, within
    /// its bounds, on pseudo-random graphs of every density.
    #[test]
    fn walks_visit_the_connected_sets_in_order() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Small lists with every level up to 5, and lists over several words of a
        // bit set (more than 64 and 128 cages) with sparse links, levels 2 and 3.
        for round in 0..64 {
            let (m, max_n) = match round {
                60 | 61 => (70, 3),
                62 | 63 => (130, 3),
                _ => (4 + round % 9, 5),
            };
            let density = if m > 64 { 1 } else { 1 + round % 5 };
            let mut edges = vec![false; m * m];
            for i in 0..m {
                for j in i + 1..m {
                    let e = random() % if m > 64 { 40 } else { 6 } < density as u64;
                    edges[i * m + j] = e;
                    edges[j * m + i] = e;
                }
            }
            let linked = |i: usize, j: usize| edges[i * m + j];
            let is_connected = |set: &[usize]| {
                let mut l = [0u8; MAX_LEVEL];
                for (a, &x) in set.iter().enumerate() {
                    for (b, &y) in set.iter().enumerate() {
                        if linked(x, y) {
                            l[a] |= 1 << b;
                        }
                    }
                }
                connected(&l, all_of(set.len()))
            };
            let links = ListLinks::new(m, linked);
            let walk = Walk::new(&links, 0..m);
            for n in 2..=m.min(max_n) {
                let expected: Vec<Vec<usize>> = all_combinations(m, n)
                    .into_iter()
                    .filter(|s| is_connected(s))
                    .collect();
                let collect = |lo: Option<&[usize]>, hi: Option<&[usize]>| {
                    let mut seen = Vec::new();
                    let _ = walk.run(&mut Partial::default(), n, lo, hi, &mut |s| {
                        for a in 0..s.len {
                            for b in 0..s.len {
                                let bit = s.links[a] & (1 << b) != 0;
                                assert_eq!(bit, linked(s.members[a], s.members[b]));
                            }
                        }
                        seen.push(s.members[..s.len].to_vec());
                        ControlFlow::Continue(())
                    });
                    seen
                };
                assert_eq!(collect(None, None), expected, "m {m} n {n}");
                // Split at a set (connected or not): from it on, then before it.
                let combos = all_combinations(m, n);
                let start = &combos[random() as usize % combos.len()];
                let mut both = collect(Some(start), None);
                assert!(both.iter().all(|s| s >= start));
                let before = collect(None, Some(start));
                assert!(before.iter().all(|s| s < start));
                both.extend(before);
                both.sort();
                assert_eq!(both, expected, "m {m} n {n} split at {start:?}");
                // A fixed first member and candidates without it.
                let lead = random() as usize % m;
                let others: Vec<usize> = (0..m).filter(|&i| i != lead).collect();
                let walk = Walk::new(&links, others.iter().copied());
                let mut set = Partial::default();
                set.push_fixed(&walk, lead);
                let mut seen = Vec::new();
                let _ = walk.run(&mut set, n, None, None, &mut |s| {
                    seen.push(s.members[..s.len].to_vec());
                    ControlFlow::Continue(())
                });
                let led: Vec<Vec<usize>> = all_combinations(m - 1, n - 1)
                    .into_iter()
                    .map(|pick| {
                        let mut s = vec![lead];
                        s.extend(pick.iter().map(|&p| others[p]));
                        s
                    })
                    .filter(|s| is_connected(s))
                    .collect();
                assert_eq!(seen, led, "m {m} n {n} lead {lead}");
            }
        }
    }

    /// Removing and moving list positions keeps the links those of the new list, on
    /// lists of one to three words.
    #[test]
    fn list_links_follow_removals_and_moves() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for m in [5, 63, 64, 65, 130, 190] {
            let edges: Vec<bool> = (0..m * m).map(|_| random(4) == 0).collect();
            let linked = |a: usize, b: usize| a != b && edges[a.min(b) * m + a.max(b)];
            let mut list: Vec<usize> = (0..m).collect();
            let mut links = ListLinks::new(m, linked);
            for _ in 0..40 {
                if list.len() > 2 && random(3) == 0 {
                    let p = random(list.len());
                    list.remove(p);
                    links.remove(p);
                } else if list.len() > 1 {
                    let from = 1 + random(list.len() - 1);
                    let to = random(from);
                    list[to..=from].rotate_right(1);
                    links.move_down(from, to);
                }
                for i in 0..list.len() {
                    for j in 0..list.len() {
                        assert_eq!(links.linked(i, j), linked(list[i], list[j]), "m {m}");
                    }
                }
                assert!(links.rows.len() == list.len() * links.words);
            }
        }
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
