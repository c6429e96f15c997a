//! The sets of a level that remove something, found from the combinations' side.
//!
//! At level n, once every smaller connected set is known to remove nothing (the
//! ladder tries the levels in order), a set S removes a combination x of its cage A
//! exactly when the other cages of S have no clash-free choice once x is assumed;
//! and since every smaller set leaves x room, those n − 1 other cages form a *core*
//! of x: cages without a clash-free choice, every smaller part of which has one. So
//! instead of checking each of the many connected n-sets, this finds for each live
//! combination x of each cage A every core of x of n − 1 cages; the sets that
//! remove something are exactly the cores with their A.
//!
//! The cores of x are searched by splitting on witnesses. A *witness* is a
//! clash-free choice for some cages with x assumed: no core lies inside the cages
//! it covers, so every core holds one of the cages it misses. A branch of the
//! search knows cages `req` that every core it looks for holds and the cages
//! `allowed` they may hold; it takes a known witness covering `req` that misses at
//! most [`SPLIT_WITHOUT_GROWING`] allowed cages, or else grows one covering `req`
//! and as many allowed cages as it can, and splits on the cages the witness
//! misses: the cores holding the first, those holding the second but not the
//! first, and so on. A witness covering every allowed cage ends a branch. With
//! n − 2 cages in `req`, the last cage is settled at once: a few choices for
//! `req` are tried against every allowed cage no known witness covers (after
//! growing one when there are many such cages), and only a cage none of them
//! fits is checked with `req` on its own. Witnesses are grown from a solution of
//! the puzzle (a clash-free choice for every cage), which makes them large:
//! assuming x only unsettles the cages whose solution digits clash with it. The
//! witnesses of x are kept for its next search, at any level: a witness stays one
//! on its cages that did not change since. A branch finds the witnesses covering
//! its `req` in an index ([`WitnessTable`]): a word-wise AND per branch instead of
//! a pass over every witness (a combination can have thousands).
//!
//! The result is exact whatever the witnesses are: they only decide how the search
//! splits. Each combination's cores are kept between the steps of a run
//! ([`CoreCache`]) with the tick they were found at. The state only loses
//! combinations, so a set without a clash-free choice stays without; and while a
//! solution of the puzzle stays live, a core of n − 1 cages stays a core at level n
//! (a smaller part without a choice would be a smaller set that removes something,
//! or one without a choice even without the assumption). Whether a set has a choice
//! depends only on its cages' domains under the assumption (what fits x of their
//! live combinations), so a new core holds a cage whose domain under x changed, and
//! a kept result is brought up to date by searching only the cores that hold such a
//! cage. Each level keeps the live masks its results were found against
//! ([`Snapshot`]) to tell which.
//!
//! The walk takes the first removing set from where its last step was found
//! ([`Wanted::FirstFrom`]). The kept cores of live combinations still make
//! removing sets, so once one of them lies ahead, only a new set before it can
//! come first: such a search looks only for cores that make a set of that range
//! ([`Between`]: the positions the range's sets share, none other below, one of
//! a window), and leaves the kept results as they were (the next full repair
//! searches the cages changed since them). The tests check the whole against
//! the set-by-set search on every corpus puzzle, and the kept results (asked
//! for every set, and for the first from a start on) against searches from
//! scratch.
//!
//! [`SPLIT_WITHOUT_GROWING`]: search::SPLIT_WITHOUT_GROWING
//! [`WitnessTable`]: super::witnesses::WitnessTable

use super::support::{PairRows, Scratch, Tables};
use super::witnesses::{bit, Mask};
use crate::technique::MAX_CAGE_SET;
use kenken_model::{bits, Budget, CageId, Exhausted};
use std::collections::HashMap;

mod search;
use search::Search;

/// The most list positions a [`Mask`] holds: longer lists are searched set by set.
pub(super) const MAX_CAGES: usize = 128;

/// The most words of one cage's domain (its universe, 64 combinations a word): a
/// list with a longer one is searched set by set.
const MAX_DOMAIN_WORDS: usize = 64;

/// Why the search from the combinations' side did not answer.
#[derive(Debug)]
pub(super) enum Unanswered {
    /// The budget ran out.
    Stopped,
    /// A set smaller than the level removes something (the level was asked before
    /// the smaller ones found nothing; the set-by-set search then runs instead), or
    /// the list is too long for its masks.
    NotApplicable,
}

impl From<Exhausted> for Unanswered {
    fn from(_: Exhausted) -> Unanswered {
        Unanswered::Stopped
    }
}

/// What the searches of each level found for each combination, kept between the
/// steps of a run (see the module's documentation).
#[derive(Default)]
pub(super) struct CoreCache {
    /// Per level, per combination (by its bit in the state's store of live bits).
    levels: [Vec<Option<Settled>>; MAX_CAGE_SET + 1],
    /// Per combination, the witnesses its searches grew, over the positions of
    /// `list` (whatever the level: a witness is a clash-free choice, which stays
    /// one on the cages that did not change since).
    witnesses: Vec<Option<Witnesses>>,
    list: Vec<CageId>,
    /// Per level, the live masks its last search kept its results against.
    snapshots: [Option<Snapshot>; MAX_CAGE_SET + 1],
}

impl CoreCache {
    /// Whether level `n` keeps what a search found: the next search of the level
    /// repairs it, and costs less than a first one.
    pub(super) fn keeps_results(&self, n: usize) -> bool {
        self.snapshots[n].is_some()
    }
}

/// The live masks of the list's cages at a tick, which tell whose domain under an
/// assumption changed since.
struct Snapshot {
    tick: u32,
    /// Per cage (by index; `None` for a cage not in the list), the tick its
    /// universe was built at and its live mask over it.
    live: Vec<Option<(u32, Vec<u64>)>>,
    /// What the snapshot holds on the budget.
    bytes: usize,
}

impl Snapshot {
    fn of(problem: &Problem, tick: u32, budget: &mut Budget) -> Result<Snapshot, Exhausted> {
        let tables = &problem.tables;
        let cages = (0..problem.m).map(|i| tables.cage(i).index() + 1).max();
        let cages = cages.unwrap_or(0);
        let bytes = cages * size_of::<Option<(u32, Vec<u64>)>>() + problem.width() * 8;
        budget.reserve(bytes)?;
        let mut live = vec![None; cages];
        for i in 0..problem.m {
            live[tables.cage(i).index()] = Some((tables.rebased(i), problem.live(i).to_vec()));
        }
        Ok(Snapshot { tick, live, bytes })
    }

    /// The cages of `among` whose domain under combination `x` of position `a`
    /// (what fits x of its live combinations; all of them for a cage not linked
    /// to `a`'s) may differ from the snapshot's: a cage it does not hold, or whose
    /// universe was rebuilt since, counts as changed.
    fn changed_under(&self, problem: &Problem, a: usize, x: usize, among: Mask) -> Mask {
        let tables = &problem.tables;
        positions(among)
            .filter(|&c| {
                let Some((rebased, old)) = self
                    .live
                    .get(tables.cage(c).index())
                    .and_then(Option::as_ref)
                else {
                    return true;
                };
                let live = problem.live(c);
                if *rebased != tables.rebased(c) || old.len() != live.len() {
                    return true;
                }
                if problem.links[a] & bit(c) == 0 {
                    return old.as_slice() != live;
                }
                let row = problem.row(a, x, c);
                old.iter()
                    .zip(live)
                    .zip(row)
                    .any(|((o, l), r)| (o ^ l) & r != 0)
            })
            .fold(0, |set, c| set | bit(c))
    }
}

/// The witnesses of one combination, as they were at a tick.
struct Witnesses {
    sets: Vec<Mask>,
    tick: u32,
}

/// The most witnesses kept for one combination.
const KEPT_WITNESSES: usize = 4096;

/// Bytes a kept core of n − 1 cages takes, with its vector's header.
fn core_bytes(n: usize) -> usize {
    n * size_of::<CageId>() + size_of::<Vec<CageId>>()
}

/// One combination's cores at one level, as they were at a tick: brought up to
/// date by searching the cores that hold a cage changed since.
struct Settled {
    /// The cores, with the combination's own cage.
    cores: Vec<Vec<CageId>>,
    /// The tick of the state they were found in.
    tick: u32,
}

/// Which of a level's removing sets the caller needs.
#[derive(Clone, Copy, Debug)]
pub(super) enum Wanted<'a> {
    /// Every one.
    All,
    /// The first in ascending lexicographic order from these positions on (from
    /// the first set when `None`), wrapping around: every set the answer leaves
    /// out comes after one it holds.
    FirstFrom(Option<&'a [usize]>),
}

/// The connected n-sets of the list that remove something (each as ascending list
/// positions; the list in ascending order), given that every smaller connected set
/// removes nothing: all of them, or as many as `wanted` needs. `solution` gives,
/// per list position, the table index of the cage's combination in a solution of
/// the puzzle when one is known: it guides the search, and results are kept in
/// `cache` only when it is known for every cage. `clock` is the state's tick and
/// `changed_at` each cage's last change.
pub(super) fn removing_sets(
    scratch: &mut Scratch,
    n: usize,
    solution: &[Option<u32>],
    (clock, changed_at): (u32, &[u32]),
    cache: &mut CoreCache,
    wanted: Wanted,
) -> Result<Vec<Vec<usize>>, Unanswered> {
    let m = scratch.list_len();
    if m > MAX_CAGES || n < 3 {
        return Err(Unanswered::NotApplicable);
    }
    if n > m {
        return Ok(Vec::new());
    }
    scratch.prepare_all()?;
    let (tables, budget) = scratch.tables();
    if (0..m).any(|i| tables.live_of(i).len() > MAX_DOMAIN_WORDS) {
        // A cage with more than 4 096 combinations left: searched set by set.
        return Err(Unanswered::NotApplicable);
    }
    let problem = Problem::new(tables, solution);
    // Kept results stay exact only while a solution stays live (see the module's
    // documentation).
    let keep = problem.seed.iter().all(|&s| s != u32::MAX);
    let list: Vec<CageId> = (0..m).map(|i| problem.tables.cage(i)).collect();
    let CoreCache {
        levels,
        witnesses,
        list: witnesses_list,
        snapshots,
    } = cache;
    if *witnesses_list != list {
        // Positions moved: the witnesses' masks no longer say which cages.
        for kept in witnesses.iter_mut().filter_map(Option::take) {
            budget.release(kept.sets.len() * size_of::<Mask>());
        }
        *witnesses_list = list;
    }
    let level = &mut levels[n];
    let store_bits = problem.tables.store_len() * 64;
    if keep && level.len() < store_bits {
        let bytes = (store_bits - level.len()) * size_of::<Option<Settled>>();
        budget.reserve(bytes)?;
        level.resize_with(store_bits, || None);
    }
    if keep && witnesses.len() < store_bits {
        let bytes = (store_bits - witnesses.len()) * size_of::<Option<Witnesses>>();
        budget.reserve(bytes)?;
        witnesses.resize_with(store_bits, || None);
    }
    let in_list: HashMap<CageId, usize> = (0..m).map(|i| (problem.tables.cage(i), i)).collect();
    let changed_since = |tick: u32| {
        (0..m)
            .filter(|&p| changed_at[problem.tables.cage(p).index()] > tick)
            .fold(0, |set, p| set | bit(p))
    };
    let mut search = Search::new(&problem, n - 1, budget)?;
    let mut found: Vec<Mask> = Vec::new();
    if let Wanted::FirstFrom(start) = wanted {
        let bound = keep
            .then(|| first_kept(&problem, n, level, &in_list, start))
            .flatten();
        if let Some((kept, range)) = bound {
            found = kept;
            if let Some(range) = range {
                search.budget.spend(found.len() as u64 + 1)?;
                repair_within(
                    &mut search,
                    &range,
                    level,
                    witnesses,
                    (clock, &changed_since),
                    snapshots[n].as_ref(),
                    &mut found,
                )?;
            }
            search.release();
            return Ok(sorted_sets(found));
        }
    }
    for a in 0..m {
        for x in bits::ones_in(problem.live(a)) {
            let key = problem.tables.store_bit(a, x);
            let kept = if keep { level[key].take() } else { None };
            let mut known = Vec::new();
            if let Some(kept) = witnesses.get_mut(key).and_then(Option::take) {
                search.budget.release(kept.sets.len() * size_of::<Mask>());
                let changed = changed_since(kept.tick);
                known = kept.sets;
                for w in &mut known {
                    *w &= !changed;
                }
            }
            let start = found.len();
            let mut cores: Vec<Vec<CageId>> = match kept {
                Some(settled) => {
                    search.budget.spend(settled.cores.len() as u64 + 1)?;
                    search.budget.release(settled.cores.len() * core_bytes(n));
                    let mut changed = changed_since(settled.tick) & !bit(a);
                    // A new core has a cage whose domain under x changed.
                    if let Some(snapshot) = snapshots[n].as_ref().filter(|s| s.tick == settled.tick)
                    {
                        changed = snapshot.changed_under(&problem, a, x, changed);
                    }
                    if changed != 0 {
                        search.cores_holding(a, x, changed, &mut known, &mut found)?;
                    }
                    // Cores holding a cage solved since are no sets of the list now.
                    for core in &settled.cores {
                        let set = core
                            .iter()
                            .map(|c| in_list.get(c).map(|&p| bit(p)))
                            .try_fold(0, |set, b| b.map(|b| set | b));
                        found.extend(set);
                    }
                    settled.cores
                }
                None => {
                    search.cores_holding(a, x, Mask::MAX, &mut known, &mut found)?;
                    Vec::new()
                }
            };
            if !keep {
                continue;
            }
            cores.extend(
                found[start..]
                    .iter()
                    .map(|&set| positions(set).map(|p| problem.tables.cage(p)).collect()),
            );
            cores.sort_unstable();
            cores.dedup();
            let bytes = cores.len() * core_bytes(n);
            if search.budget.memory_left() > bytes {
                search.budget.reserve(bytes)?;
                level[key] = Some(Settled { cores, tick: clock });
            }
            keep_witnesses(search.budget, witnesses, key, known, clock)?;
        }
    }
    search.release();
    if keep {
        let snapshot = Snapshot::of(&problem, clock, budget)?;
        if let Some(old) = snapshots[n].replace(snapshot) {
            budget.release(old.bytes);
        }
    }
    Ok(sorted_sets(found))
}

/// The sets of `found`, each once, as ascending positions, in ascending order.
fn sorted_sets(mut found: Vec<Mask>) -> Vec<Vec<usize>> {
    found.sort_unstable();
    found.dedup();
    let mut sets: Vec<Vec<usize>> = found
        .into_iter()
        .map(|set| positions(set).collect())
        .collect();
    sets.sort_unstable();
    sets
}

/// The n-sets (as sorted positions `U`) from `lo` up to, not including, `hi`,
/// in ascending lexicographic order, described by what they must hold: the
/// prefix `P` the two share, no other position below the first where they
/// differ, and a position of the `window` from there up to `hi`'s there.
#[derive(Clone, Copy, Debug)]
struct Between {
    prefix: Mask,
    below: Mask,
    window: Mask,
}

impl Between {
    /// The sets from `lo` (the first set when empty) up to `hi`; `None` when
    /// there are none (`lo` is `hi`). Both hold n positions, `lo` below `hi`.
    fn new(lo: &[usize], hi: &[usize]) -> Option<Between> {
        let shared = lo.iter().zip(hi).take_while(|(l, h)| l == h).count();
        if shared == hi.len() {
            return None;
        }
        let from = lo.get(shared).copied().unwrap_or(0);
        let prefix = hi[..shared].iter().fold(0, |set, &p| set | bit(p));
        let under = |p: usize| bit(p) - 1;
        Some(Between {
            prefix,
            below: under(from) & !prefix,
            window: (under(hi[shared]) | bit(hi[shared])) & !under(from),
        })
    }
}

/// The cores the level keeps, as sets with their combinations' cages, and the
/// sets a search must still look through for the first removing set from
/// `start` on (see [`Wanted::FirstFrom`]): those from `start` up to the first
/// kept one, `None` when that is `start` itself. `None` when no kept set lies
/// from `start` on before the list's end: the whole level is brought up to
/// date then.
fn first_kept(
    problem: &Problem,
    n: usize,
    level: &[Option<Settled>],
    in_list: &HashMap<CageId, usize>,
    start: Option<&[usize]>,
) -> Option<(Vec<Mask>, Option<Between>)> {
    let mut kept = Vec::new();
    for a in 0..problem.m {
        for x in bits::ones_in(problem.live(a)) {
            let key = problem.tables.store_bit(a, x);
            let Some(settled) = level.get(key).and_then(Option::as_ref) else {
                continue;
            };
            // Cores holding a cage solved since are no sets of the list now.
            kept.extend(settled.cores.iter().filter_map(|core| {
                core.iter()
                    .map(|c| in_list.get(c).map(|&p| bit(p)))
                    .try_fold(0, |set, b| b.map(|b| set | b))
            }));
        }
    }
    let lo: Vec<usize> = start.map(<[usize]>::to_vec).unwrap_or_default();
    let first = kept
        .iter()
        .map(|&set| positions(set).collect::<Vec<usize>>())
        .filter(|set| set.len() == n && *set >= lo)
        .min()?;
    Some((kept, Between::new(&lo, &first)))
}

/// The cores of every live combination that make a set of `range` with it and
/// hold a cage changed since its kept results (every core of a combination
/// without kept results), added to `found`; the kept results stay as they are,
/// the witnesses are kept as in a full repair.
fn repair_within(
    search: &mut Search,
    range: &Between,
    level: &[Option<Settled>],
    witnesses: &mut [Option<Witnesses>],
    (clock, changed_since): (u32, &dyn Fn(u32) -> Mask),
    snapshot: Option<&Snapshot>,
    found: &mut Vec<Mask>,
) -> Result<(), Unanswered> {
    let p = search.p;
    for a in 0..p.m {
        if range.below & bit(a) != 0 {
            continue;
        }
        for x in bits::ones_in(p.live(a)) {
            let key = p.tables.store_bit(a, x);
            let among = match level.get(key).and_then(Option::as_ref) {
                Some(settled) => {
                    let changed = changed_since(settled.tick) & !bit(a);
                    match snapshot.filter(|s| s.tick == settled.tick) {
                        Some(snapshot) => snapshot.changed_under(p, a, x, changed),
                        None => changed,
                    }
                }
                None => Mask::MAX,
            };
            if among == 0 {
                continue;
            }
            let mut known = Vec::new();
            if let Some(kept) = witnesses.get_mut(key).and_then(Option::take) {
                search.budget.release(kept.sets.len() * size_of::<Mask>());
                let changed = changed_since(kept.tick);
                known = kept.sets;
                for w in &mut known {
                    *w &= !changed;
                }
            }
            search.cores_within(a, x, among, range, &mut known, found)?;
            keep_witnesses(search.budget, witnesses, key, known, clock)?;
        }
    }
    Ok(())
}

/// Keeps `known`, a combination's witnesses after a search, for its next one
/// (as many as [`KEPT_WITNESSES`], while the budget has room).
fn keep_witnesses(
    budget: &mut Budget,
    witnesses: &mut [Option<Witnesses>],
    key: usize,
    mut known: Vec<Mask>,
    tick: u32,
) -> Result<(), Exhausted> {
    known.retain(|&w| w != 0);
    known.sort_unstable_by(|v, w| w.cmp(v));
    known.dedup();
    known.truncate(KEPT_WITNESSES);
    let bytes = known.len() * size_of::<Mask>();
    if budget.memory_left() > bytes {
        budget.reserve(bytes)?;
        witnesses[key] = Some(Witnesses { sets: known, tick });
    }
    Ok(())
}

/// The positions of a mask, ascending.
fn positions(mut set: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            p
        })
    })
}

/// The list's cages as the search reads them: live masks over their universes
/// (see [`Scratch`]) laid out flat, links, pair rows, and the solution's choice.
struct Problem<'s> {
    m: usize,
    tables: Tables<'s>,
    /// Where each position's words start in a flat domain, and (last) the width.
    off: Vec<usize>,
    live: Vec<u64>,
    links: Vec<Mask>,
    /// The pair tables of linked positions, position `i`'s with `j` at `i * m + j`
    /// (empty for the others).
    pairs: Vec<PairRows<'s>>,
    /// The solution's universe position per list position (`u32::MAX`: unknown).
    seed: Vec<u32>,
}

impl<'s> Problem<'s> {
    fn new(tables: Tables<'s>, solution: &[Option<u32>]) -> Problem<'s> {
        let m = tables.list_len();
        let mut off = vec![0; m + 1];
        for i in 0..m {
            off[i + 1] = off[i] + tables.live_of(i).len();
        }
        let mut live = Vec::with_capacity(off[m]);
        for i in 0..m {
            live.extend_from_slice(tables.live_of(i));
        }
        let links = (0..m)
            .map(|i| {
                (0..m)
                    .filter(|&j| tables.linked(i, j))
                    .fold(0, |set, j| set | bit(j))
            })
            .collect();
        let pairs = (0..m * m)
            .map(|ij| {
                let (i, j) = (ij / m, ij % m);
                if tables.linked(i, j) {
                    tables.pair_rows(i, j)
                } else {
                    PairRows::default()
                }
            })
            .collect();
        let seed = (0..m)
            .map(|i| {
                solution
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|combo| tables.universe_position(i, combo))
                    .filter(|&p| live[off[i] + p / 64] & (1 << (p % 64)) != 0)
                    .map_or(u32::MAX, |p| p as u32)
            })
            .collect();
        Problem {
            m,
            tables,
            off,
            live,
            links,
            pairs,
            seed,
        }
    }

    fn live(&self, i: usize) -> &[u64] {
        &self.live[self.off[i]..self.off[i + 1]]
    }

    /// The combinations of `j` that fit combination `p` of `i` (linked positions).
    #[inline]
    fn row(&self, i: usize, p: usize, j: usize) -> &'s [u64] {
        self.pairs[i * self.m + j].row(p)
    }

    fn width(&self) -> usize {
        self.off[self.m]
    }

    /// The seed of position `c` when `domain` still holds it.
    fn seed_in(&self, c: usize, domain: &[u64]) -> Option<usize> {
        let seed = self.seed[c] as usize;
        (self.seed[c] != u32::MAX && domain[seed / 64] & (1 << (seed % 64)) != 0).then_some(seed)
    }
}

#[cfg(test)]
mod tests;
