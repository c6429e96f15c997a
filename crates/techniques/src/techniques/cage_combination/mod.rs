//! Cage combinations: for a connected set of n unsolved cages, a combination of one
//! of them survives only if it extends to a choice of one live combination for
//! every cage of the set with no row/column (or box) clash.
//!
//! Search order (`docs/ladder.md` fixes it, as it decides `total` and, through the
//! deepest level tried, which region sums are allowed): unsolved cages sorted by
//! live combinations (ties by cage order); sets in lexicographic order of that list
//! ([`connected_sets`]); at the deepest level, resume from the set of the previous
//! success there, wrapping around; at a shallower level, only sets holding a cage
//! changed since that level last found nothing, those cages first. Whether a set
//! removes something is [`support`]'s question.

mod chain;
pub(crate) use chain::narrowing_words;
mod connected_sets;
mod cores;
mod proof;
pub(crate) mod support;
mod witnesses;
mod words;

pub use words::CageCombination;

use crate::step::{CageCut, Reason};
use crate::technique::{kinds, MAX_CAGE_SET};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use connected_sets::{
    all_of, connected, has_cut_cage, ListLinks, Partial, Walk, MAX_WORDS, PAIR_LINKS,
};
use cores::CoreCache;
use kenken_model::{bits, Budget, CageId};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::{ControlFlow, RangeInclusive};
use support::{Scratch, SupportCache};

/// Cage combinations, and what they remember between steps of a run.
struct CageCombinationFinder {
    kind: TechniqueKind,
    /// Per level, the set of the last success: its cages and its position (indices
    /// into the sorted list then).
    resume: [Option<SetAt>; MAX_CAGE_SET + 1],
    /// Per level, the [`Changes`](crate::technique) stamp of when it last found
    /// nothing (0: never): the cages changed since are that level's dirty ones.
    barren_level: [u32; MAX_CAGE_SET + 1],
    /// Sets (see [`set_key`]) that removed nothing, with the tick they were checked
    /// at: while none of their cages changes since, they still remove nothing, so
    /// they are skipped. This changes no result, only the time spent.
    barren: HashMap<u128, u32, BuildHasherDefault<SetKeyHasher>>,
    /// The same for pairs, the sets checked most, in a flat table (allocated by the
    /// first search): entry `a * cages + b` (a < b) is 1 + the tick the pair was
    /// found barren at, 0 for never. (A map lookup cost as much as checking a small
    /// pair.)
    barren_pairs: Vec<u32>,
    /// Live lists and pair compatibility tables of unchanged cages, reused between
    /// searches.
    support: SupportCache,
    /// The deepest level up to which every level from 2 found nothing, and the tick
    /// that held at: it says so while no cage changed since. See [`has_cut_cage`]
    /// for what it allows.
    exhausted: (usize, u32),
    /// The last sorted list of unsolved cages with the links between them, and the
    /// tick it was sorted at.
    links: Option<(u32, Vec<CageId>, ListLinks)>,
    /// Per cage, the table index of its combination in a solution of the puzzle
    /// (`None` before one was looked for; empty when there is none), which guides
    /// the search from the combinations' side.
    solution: Option<Vec<Option<u32>>>,
    /// What the searches from the combinations' side found, per level and
    /// combination, while it holds.
    cores: CoreCache,
}

/// The order a level's sets are tried in.
#[derive(Clone, Copy)]
enum Order {
    /// Lexicographic, from this set on (wrapping around), or from the first.
    From(Option<Positions>),
    /// Sets holding a cage changed after this stamp, by the first such cage in
    /// the list, then the others lexicographically.
    Dirty(u32),
}

pub(crate) fn finder(layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(CageCombinationFinder {
        kind,
        resume: [None; MAX_CAGE_SET + 1],
        barren_level: [0; MAX_CAGE_SET + 1],
        barren: HashMap::default(),
        barren_pairs: Vec::new(),
        support: SupportCache::new(layout.cage_count()),
        exhausted: (1, 0),
        links: None,
        solution: None,
        cores: CoreCache::default(),
    })
}

impl Technique for CageCombinationFinder {
    fn sizes(&self, state: &State, ctx: &Context) -> RangeInclusive<usize> {
        let unsolved = state
            .puzzle()
            .cage_ids()
            .filter(|&c| state.live_count(c) > 1)
            .count();
        2..=ctx.options.max_depth.min(unsolved).min(MAX_CAGE_SET)
    }

    fn find(&mut self, state: &State, ctx: &mut Context, n: usize) -> Option<Step> {
        let clock = ctx.changes.clock();
        let changed_at = ctx.changes.cages();
        let cages = changed_at.len();
        let budget = &mut ctx.budget;
        if self.barren_pairs.is_empty() {
            budget.reserve(4 * cages * cages).ok()?;
            self.barren_pairs = vec![0; cages * cages];
        }
        // Every level up to `exhausted` found nothing, if no cage changed since.
        let exhausted = match self.exhausted {
            (level, tick) if tick == clock => level,
            _ => 1,
        };
        // The list and its links carry over from the previous search: as they are
        // while no cage changed (the next levels over the same state), brought up
        // to date (see `resort`) after a step.
        let (list, links) = match self.links.take() {
            Some((tick, list, links)) if tick == clock => (list, links),
            Some((_, mut list, mut links)) => {
                resort(state, &mut list, &mut links);
                (list, links)
            }
            None => {
                let list = unsolved_sorted(state);
                let layout = state.layout();
                let links = ListLinks::new(list.len(), |i, j| layout.linked(list[i], list[j]));
                (list, links)
            }
        };
        let deepest = ctx.deepest;
        // Once every smaller set is known to remove nothing, the sets that remove
        // something can be found from the combinations' side (see `cores`), with a
        // solution of the puzzle to guide it.
        let by_cores =
            exhausted + 1 >= n && ctx.engine.by_cores(n, state.puzzle().has_hidden_ops());
        let solution = if by_cores {
            self.solution_of(state, &list, budget)
        } else {
            Vec::new()
        };
        let mut sets = Sets {
            list: &list,
            links: &links,
            scratch: Scratch::new(state, &list, &mut self.support, clock, changed_at, budget),
            clock,
            changed_at,
            barren: &mut self.barren,
            barren_pairs: &mut self.barren_pairs,
            skip_cut_cages: exhausted + 1 >= n,
            memos: ctx.memos,
            stopped: false,
            checks_left: None,
            handed_over: false,
        };
        // Pair tables pay once sets of three cages are searched, which reuse them
        // (a set of three builds the tables it needs whatever this says).
        sets.scratch.set_pair_tables(deepest >= 3);
        // Where this level's search starts: the deepest level tried so far goes on
        // from its last success, a new one from the first set, and a shallower one
        // looks at the sets holding a cage changed since it last found nothing.
        let order = if n > deepest {
            ctx.deepest = n;
            Order::From(None)
        } else if n == deepest {
            Order::From(self.resume[n].as_ref().map(|last| {
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
            }))
        } else {
            Order::Dirty(self.barren_level[n].saturating_sub(1))
        };
        let mut found = None;
        let mut settled = false;
        let walk_limit = ctx.engine.walk_before_cores(
            !matches!(order, Order::Dirty(_)),
            self.cores.keeps_results(n),
        );
        if let Some(checks) = walk_limit.filter(|_| by_cores) {
            // A removing set is often met early in the walk; when it is not, the
            // search from the combinations' side answers for the rest of the level
            // (the first removing set in walk order, as the walk would have found).
            sets.checks_left = Some(checks);
            found = sets.walk(n, order);
            settled = found.is_some() || !sets.handed_over;
            // Should that search not apply, the walk below checks the whole level.
            sets.checks_left = None;
            sets.handed_over = false;
        }
        if by_cores && !settled && !sets.stopped {
            // The walk takes the first removing set in its order: from its start
            // on, only the first is needed; sets holding a changed cage, all.
            let wanted = match &order {
                Order::From(start) => cores::Wanted::FirstFrom(start.as_deref()),
                Order::Dirty(_) => cores::Wanted::All,
            };
            match cores::removing_sets(
                &mut sets.scratch,
                n,
                &solution,
                (clock, changed_at),
                &mut self.cores,
                wanted,
            ) {
                Ok(removing) => {
                    settled = true;
                    found = sets.first_of(&removing, &order);
                }
                Err(cores::Unanswered::Stopped) => sets.stopped = true,
                Err(cores::Unanswered::NotApplicable) => {}
            }
        }
        if !settled && !sets.stopped {
            found = sets.walk(n, order);
        }
        let stopped = sets.stopped;
        sets.scratch.release();
        self.links = Some((clock, list, links));
        if stopped {
            // Cut short (the budget says why): nothing is known about this level.
            return None;
        }
        match found {
            Some((set, cuts)) => {
                self.resume[n] = Some(set);
                let reason = Reason::CageCombination(CageCombination {
                    cages: set.cages().to_vec(),
                });
                let rating = self.kind.rate(n, 1);
                if !ctx.explain {
                    return Some(Step::from_cuts(self.kind, rating, reason, cuts));
                }
                let proofs = proof::prove(state, set.cages(), &cuts, &mut ctx.budget).ok()?;
                let mut step = state.step_from_cuts(self.kind, rating, reason, cuts);
                step.proofs = proofs;
                Some(step)
            }
            None => {
                self.barren_level[n] = ctx.changes.stamp();
                if exhausted + 1 == n {
                    self.exhausted = (n, clock);
                }
                None
            }
        }
    }
}

impl CageCombinationFinder {
    /// Per list position, the table index of the cage's combination in a solution
    /// of the puzzle that agrees with the state (looked for once a run, within its
    /// budget; none when the puzzle has no solution or the budget runs out).
    fn solution_of(
        &mut self,
        state: &State,
        list: &[CageId],
        budget: &mut Budget,
    ) -> Vec<Option<u32>> {
        let layout = state.layout();
        let per_cage = self.solution.get_or_insert_with(|| {
            let puzzle = state.puzzle();
            let tables: Vec<_> = puzzle.cage_ids().map(|c| layout.table(c)).collect();
            let candidates: Vec<_> = puzzle
                .size()
                .cells()
                .map(|cell| state.candidates(cell))
                .collect();
            let found = kenken_search::count_solutions_within(
                puzzle,
                &tables,
                Some(&candidates),
                1,
                budget,
            );
            let Some(grid) = found.solution else {
                return Vec::new();
            };
            puzzle
                .cage_ids()
                .map(|c| {
                    let digits: Vec<_> = layout
                        .cage_cells(c)
                        .iter()
                        .map(|x| grid[x.index()])
                        .collect();
                    (0..layout.table(c).len())
                        .find(|&i| layout.combination(c, i) == digits.as_slice())
                        .map(|i| i as u32)
                })
                .collect()
        });
        list.iter()
            .map(|c| per_cage.get(c.index()).copied().flatten())
            .collect()
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

/// List positions of a cage set (at most [`MAX_CAGE_SET`]), kept inline: a search's
/// start and result are built every step, and vectors for them cost about as much
/// as the pair checks of a small grid's step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Positions {
    len: usize,
    at: [usize; MAX_CAGE_SET],
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
    cages: [CageId; MAX_CAGE_SET],
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
    /// How many more sets the walk may check before it hands the level over to
    /// the search from the combinations' side (`None`: no such limit).
    checks_left: Option<u64>,
    /// Set when the walk used up `checks_left`: it stopped early, nothing is known.
    handed_over: bool,
}

/// Bytes a set found barren takes in [`CageCombination::barren`]: its key and tick, with the
/// map's slack.
const BARREN_SET_BYTES: usize = 48;

impl Sets<'_> {
    /// Whether the walk stops before its end: the budget ran out, or it hands the
    /// level over to the search from the combinations' side.
    fn halted(&self) -> bool {
        self.stopped || self.handed_over
    }

    /// Walks the level's sets in `order`; the first that removes something.
    fn walk(&mut self, n: usize, order: Order) -> Option<Found> {
        match order {
            Order::From(start) => self.search_from(n, start),
            Order::Dirty(since) => {
                let changed_at = self.changed_at;
                self.search_dirty(n, |c| changed_at[c.index()] > since)
            }
        }
    }

    /// The first of `removing` (ascending list positions) in `order` that removes
    /// something, with its members in the order the walk would have them.
    fn first_of(&mut self, removing: &[Vec<usize>], order: &Order) -> Option<Found> {
        let mut ranked: Vec<(Vec<usize>, Vec<usize>)> = removing
            .iter()
            .filter_map(|set| match order {
                Order::From(start) => {
                    // Sets from `start` on come first, then the others.
                    let before = start.as_ref().is_some_and(|s| set.as_slice() < &s[..]);
                    let mut key = vec![usize::from(before)];
                    key.extend(set);
                    Some((key, set.clone()))
                }
                Order::Dirty(since) => {
                    let lead = set
                        .iter()
                        .copied()
                        .find(|&p| self.changed_at[self.list[p].index()] > *since)?;
                    let mut members = vec![lead];
                    members.extend(set.iter().copied().filter(|&p| p != lead));
                    Some((members.clone(), members))
                }
            })
            .collect();
        ranked.sort_unstable();
        for (_, members) in ranked {
            let cuts = match self.scratch.unsupported(&members) {
                Ok(cuts) => cuts,
                Err(_) => {
                    self.stopped = true;
                    return None;
                }
            };
            debug_assert!(!cuts.is_empty(), "a core's set removes something");
            if !cuts.is_empty() {
                let mut set = SetAt {
                    positions: Positions::of(&members),
                    cages: [CageId::new(0); MAX_CAGE_SET],
                };
                for (k, &p) in members.iter().enumerate() {
                    set.cages[k] = self.list[p];
                }
                return Some((set, cuts));
            }
        }
        None
    }

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
                None if !self.halted() => self.pairs_between((0, 0), start),
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
        if let Some(start) = start.filter(|_| found.is_none() && !self.halted()) {
            let _ = walk.run(&mut Partial::default(), n, None, Some(&start), &mut |set| {
                self.visit(set, &mut found)
            });
        }
        found
    }

    /// Sets holding at least one dirty cage; each dirty cage (in list order) first,
    /// with the others in lexicographic order, skipping sets already tried with an
    /// earlier dirty cage.
    fn search_dirty(&mut self, n: usize, dirty: impl Fn(CageId) -> bool) -> Option<Found> {
        let m = self.list.len();
        // The leads done so far, as a bit set of list positions.
        let mut done = [0u64; MAX_WORDS];
        let mut found = None;
        for lead in 0..m {
            if !dirty(self.list[lead]) {
                continue;
            }
            if n == 2 {
                // The lead with each linked cage not led before, in list order.
                for (w, (&row, &done)) in self.links.row(lead).iter().zip(&done).enumerate() {
                    for b in bits::ones(row & !done) {
                        let other = w * 64 + b;
                        let found = self.try_set(&[lead, other], &PAIR_LINKS);
                        if found.is_some() || self.halted() {
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
                if found.is_some() || self.halted() {
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
                let partners = if below == 64 {
                    0
                } else {
                    row & (u64::MAX << below)
                };
                for b in bits::ones(partners) {
                    let j = w * 64 + b;
                    if (i, j) >= hi {
                        return None;
                    }
                    let found = self.try_set(&[i, j], &PAIR_LINKS);
                    if found.is_some() || self.halted() {
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
        if found.is_some() || self.halted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Checks a connected set (`links`: per member, the members it is linked with).
    fn try_set(&mut self, idx: &[usize], links: &[u8; MAX_CAGE_SET]) -> Option<Found> {
        if self.scratch.budget().spend(1).is_err() {
            self.stopped = true;
        }
        if self.halted() {
            return None;
        }
        let mut cages = [CageId::new(0); MAX_CAGE_SET];
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
        if let Some(left) = &mut self.checks_left {
            if *left == 0 {
                self.handed_over = true;
                return None;
            }
            *left -= 1;
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
            cages: [CageId::new(0); MAX_CAGE_SET],
        };
        set.cages[..cages.len()].copy_from_slice(cages);
        Some((set, cuts))
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
    let mut ids = [0u8; MAX_CAGE_SET];
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
