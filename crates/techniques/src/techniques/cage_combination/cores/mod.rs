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
//! most [`SPLIT_WITHOUT_GROWING`] allowed cages
//! ([`SPLIT_WITHOUT_GROWING_FIRST_DEEP`] two or three cages short of a core in a
//! first search), or else grows one covering `req` and as many allowed cages as it
//! can, and splits on the cages the witness misses: the cores holding the first,
//! those holding the second but not the first, and so on. A witness covering every
//! allowed cage ends a branch. With n − 2 cages in `req`, the last cage is settled
//! at once: a few choices for `req` are tried against every allowed cage no
//! known witness covers (after growing one when there are many such cages), and
//! only a cage none of them fits is checked with `req` on its own. Witnesses are
//! grown from a solution of the puzzle (a clash-free choice for every cage),
//! which makes them large: assuming x only unsettles the cages whose solution
//! digits clash with it. The witnesses of x are kept for its next search, at
//! any level: a witness stays one on its cages that did not change since. A
//! branch finds the witnesses covering its `req` in an index ([`WitnessTable`]):
//! a word-wise AND per branch instead of a pass over every witness (a
//! combination can have thousands).
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
//! ([`Snapshot`]) to tell which. The tests check the whole against the set-by-set
//! search on every corpus puzzle, and the kept results against searches from
//! scratch.

use super::support::{PairRows, Scratch, Tables};
use super::witnesses::{bit, Mask, WitnessTable};
use crate::technique::MAX_CAGE_SET;
use kenken_model::{bits, Budget, CageId, Exhausted};
use std::collections::HashMap;

/// The most list positions a [`Mask`] holds: longer lists are searched set by set.
pub(super) const MAX_CAGES: usize = 128;

/// The most words of one cage's domain (its universe, 64 combinations a word): a
/// list with a longer one is searched set by set.
const MAX_DOMAIN_WORDS: usize = 64;

/// Clash-free choices for n − 2 cages tried against every last cage at once (see
/// [`Search::last_cage`]).
const LAST_CAGE_CHOICES: usize = 8;

/// A branch splits on the cages a known witness misses when there are at most this
/// many, instead of growing a witness that may miss fewer: a grow costs more than
/// the branches it saves. (Measured on 26 hidden-operation 8×8s and 9×9s that take
/// 0.2–5 s: 1 as the threshold, 100 %; 2, 91 %; 3, 83 %; 4, 81 %; 6, 111 %.)
const SPLIT_WITHOUT_GROWING: u32 = 3;

/// The same in a combination's first search (not a repair), at a branch two or
/// three cages short of a core (the branches of the first settle their last cage
/// at once). (Measured against 3 there: at two short, README's 9×9 with
/// `--hide-ops` 0.75× the time, 30 hidden-operation 7×7–9×9s of 0.25–6 s 0.97×,
/// the heaviest 9×9s 0.83–0.86×; at three short as well, README's 9×9 0.90–0.92×
/// more, 29 hidden-operation 8×8s and 9×9s of 0.3–4.5 s 0.99–1.02× and all 80 of
/// `hidden-ops.json` 1.01× (noise), and 4 there, 0.94× and 0.99×. In repairs too:
/// README's 9×9 the same, but 8×8s up to 1.2×.)
const SPLIT_WITHOUT_GROWING_FIRST_DEEP: u32 = 5;

/// A branch one cage short of a core grows a witness before it settles its
/// last cage when the known witnesses leave at least this many cages open.
/// (Measured against never growing there: all 80 hidden-operation 8×8s and 9×9s
/// of `hidden-ops.json`, 0.92× the time with 4, 6 or 10 here; README's 9×9 with
/// `--hide-ops` 0.91×; a seven-cage 9×9 in mode c 0.93×; hidden generation
/// 0.96–0.98×, the same puzzles; the ordinary corpus the same. Growing at every
/// such branch: the slowest hidden 9×9 1.05×.)
const GROW_FOR_LAST_CAGE: u32 = 6;

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

/// The connected n-sets of the list that remove something (each as ascending list
/// positions; the list in ascending order), given that every smaller connected set
/// removes nothing. `solution` gives, per list position, the table index of the
/// cage's combination in a solution of the puzzle when one is known: it guides the
/// search, and results are kept in `cache` only when it is known for every cage.
/// `clock` is the state's tick and `changed_at` each cage's last change.
pub(super) fn removing_sets(
    scratch: &mut Scratch,
    n: usize,
    solution: &[Option<u32>],
    (clock, changed_at): (u32, &[u32]),
    cache: &mut CoreCache,
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
            known.retain(|&w| w != 0);
            known.sort_unstable_by(|v, w| w.cmp(v));
            known.dedup();
            known.truncate(KEPT_WITNESSES);
            let bytes = known.len() * size_of::<Mask>();
            if search.budget.memory_left() > bytes {
                search.budget.reserve(bytes)?;
                witnesses[key] = Some(Witnesses {
                    sets: known,
                    tick: clock,
                });
            }
        }
    }
    search.release();
    if keep {
        let snapshot = Snapshot::of(&problem, clock, budget)?;
        if let Some(old) = snapshots[n].replace(snapshot) {
            budget.release(old.bytes);
        }
    }
    found.sort_unstable();
    found.dedup();
    let mut sets: Vec<Vec<usize>> = found
        .into_iter()
        .map(|set| positions(set).collect())
        .collect();
    sets.sort_unstable();
    Ok(sets)
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

/// The search for the cores of one combination after another, with buffers reused
/// between them.
struct Search<'p, 'b> {
    p: &'p Problem<'p>,
    /// Cores have this many cages (n − 1).
    k: usize,
    budget: &'b mut Budget,
    reserved: usize,
    /// The domains the assumption leaves the other cages.
    assumed: Vec<u64>,
    /// Domains per depth of a choice for `req` (`k + 1` levels), and of a grow.
    levels: Vec<u64>,
    grow: Vec<u64>,
    counts: Vec<u32>,
    choice: Vec<u32>,
    /// The witnesses of the combination searched.
    witnesses: WitnessTable,
    /// Whether the search is the combination's first (not a repair).
    first: bool,
}

impl<'p, 'b> Search<'p, 'b> {
    fn new(p: &'p Problem<'p>, k: usize, budget: &'b mut Budget) -> Result<Self, Exhausted> {
        let width = p.width();
        // The search's buffers, and the problem's index of the pair tables.
        let reserved = (width * (k + 3) + 2 * p.m) * 8 + p.pairs.len() * size_of::<PairRows>();
        budget.reserve(reserved)?;
        Ok(Search {
            p,
            k,
            budget,
            reserved,
            assumed: vec![0; width],
            levels: vec![0; width * (k + 1)],
            grow: vec![0; width],
            counts: vec![0; p.m],
            choice: vec![u32::MAX; p.m],
            witnesses: WitnessTable::default(),
            first: false,
        })
    }

    /// Gives back what the search reserved on the budget.
    fn release(mut self) {
        self.witnesses.release(self.budget);
        self.budget.release(self.reserved);
    }

    /// Adds the cores of combination `x` of position `a` that hold a cage of `among`
    /// (each with `a`) to `found`; `known` holds the witnesses of x so far, and
    /// those the search grows are added to it.
    fn cores_holding(
        &mut self,
        a: usize,
        x: usize,
        among: Mask,
        known: &mut Vec<Mask>,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let p = self.p;
        self.budget.spend(p.width() as u64 + 1)?;
        self.assumed.copy_from_slice(&p.live);
        self.assumed[p.off[a]..p.off[a + 1]].fill(0);
        for j in positions(p.links[a]) {
            if !narrow(&mut self.assumed[p.off[j]..p.off[j + 1]], p.row(a, x, j)) {
                // A pair removes x: the smaller levels have not all found nothing.
                return Err(Unanswered::NotApplicable);
            }
        }
        let all = (Mask::MAX >> (MAX_CAGES - p.m)) & !bit(a);
        let start = found.len();
        self.witnesses
            .start(std::mem::take(known), p.m, self.k, self.budget)?;
        self.first = among & all == all;
        if self.first {
            self.split(0, all, found)?;
        } else {
            self.split_on(0, all, among & all, found)?;
        }
        *known = self.witnesses.take_masks();
        for set in &mut found[start..] {
            *set |= bit(a);
        }
        Ok(())
    }

    /// The cores holding every cage of `req` and none outside `allowed`. The
    /// witnesses covering `req` (at depth `|req|` of the table: met before, or
    /// grown in the branches above) guide it, and those it grows join them.
    fn split(&mut self, req: Mask, allowed: Mask, found: &mut Vec<Mask>) -> Result<(), Unanswered> {
        let size = req.count_ones() as usize;
        if size + ((allowed & !req).count_ones() as usize) < self.k {
            return Ok(());
        }
        self.budget
            .spend(self.witnesses.count(size) as u64 / 8 + 1)?;
        if size + 1 == self.k {
            // A cage a known witness covers (with `req`) makes no core with `req`.
            let mut open = allowed & !req;
            for w in self.witnesses.covering(size) {
                open &= !w;
                if open == 0 {
                    return Ok(());
                }
            }
            // Many cages left open: a witness grown here may cover many of them,
            // and the branches beside this one can use it.
            if open.count_ones() >= GROW_FOR_LAST_CAGE {
                open &= !self.grow_witness(req, allowed, size)?;
                if open == 0 {
                    return Ok(());
                }
            }
            return self.last_cage(req, open, found);
        }
        // The known witness that misses the fewest allowed cages (the first met
        // of them).
        let mut best: Option<(Mask, u32)> = None;
        for w in self.witnesses.covering(size) {
            let missed = (allowed & !w).count_ones();
            if best.is_none_or(|(_, b)| missed < b) {
                best = Some((w, missed));
                if missed == 0 {
                    break;
                }
            }
        }
        let covered = match best {
            Some((w, missed)) if missed <= self.split_without_growing(size) => w,
            _ => {
                let grown = self.grow_witness(req, allowed, size)?;
                match best {
                    Some((w, missed)) if missed <= (allowed & !grown).count_ones() => w,
                    _ => grown,
                }
            }
        };
        self.split_on(req, allowed, allowed & !covered, found)
    }

    /// Grows a witness for the branch with required cages `req` (`size` of them)
    /// and allowed cages `allowed` (see [`Search::grow`]), and adds it to the
    /// branch's witnesses: the cages it covers.
    fn grow_witness(&mut self, req: Mask, allowed: Mask, size: usize) -> Result<Mask, Unanswered> {
        match self.grow(req, allowed)? {
            Some(grown) => {
                self.witnesses.push(grown, size, self.budget)?;
                Ok(grown)
            }
            // Fewer than n − 1 cages without a choice.
            None => Err(Unanswered::NotApplicable),
        }
    }

    /// The most allowed cages a known witness may miss for a branch with `size`
    /// required cages to split on them rather than grow a witness.
    fn split_without_growing(&self, size: usize) -> u32 {
        if self.first && size + 3 >= self.k {
            SPLIT_WITHOUT_GROWING_FIRST_DEEP
        } else {
            SPLIT_WITHOUT_GROWING
        }
    }

    /// The cores holding every cage of `req`, at least one of `on` and none outside
    /// `allowed`: the cores holding the first cage of `on`, those holding the
    /// second but not the first, and so on. First is by list position, so fewest
    /// live combinations first. (Measured against this on 30 hidden-operation
    /// 7×7–9×9s of 0.25–6 s: the reverse order, 1.18× the time; fewest
    /// combinations under the assumption first, 1.03×.)
    fn split_on(
        &mut self,
        req: Mask,
        allowed: Mask,
        on: Mask,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let mut allowed = allowed;
        let depth = req.count_ones() as usize + 1;
        for c in positions(on) {
            self.witnesses.enter(depth, c);
            self.split(req | bit(c), allowed, found)?;
            allowed &= !bit(c);
        }
        Ok(())
    }

    /// A clash-free choice for the cages of `req` (with the assumption), extended
    /// greedily to as many cages of `allowed` as it can: the cages it covers
    /// (without the assumed one). `None` when `req` has no choice.
    fn grow(&mut self, req: Mask, allowed: Mask) -> Result<Option<Mask>, Exhausted> {
        let p = self.p;
        let width = p.width();
        self.budget.spend(width as u64 + p.m as u64)?;
        self.levels[..width].copy_from_slice(&self.assumed);
        self.choice.fill(u32::MAX);
        if !self.choose(req, 0)? {
            return Ok(None);
        }
        // The domains the choice for `req` leaves, then the greedy extension: the
        // open cage with the fewest combinations left first (dropping the cages
        // left with none), its solution combination when it is left, else its
        // first. (Measured against this on 30 hidden-operation 7×7–9×9s of
        // 0.25–6 s: taking first every open cage whose solution combination
        // fits, 1.29× the time, though on README's 9×9 with half the branches;
        // when the solution combination is gone, the one of the cage's first 3
        // or 8 that leaves its linked cages the most, the same time. On README's
        // 9×9: the order fixed by the first counts, a cage narrowed only when its
        // turn comes, 1.7×; never the solution combination first, about 1.7×.)
        let mut open = allowed & !req;
        self.budget
            .spend(u64::from(open.count_ones()) * u64::from(req.count_ones()))?;
        let mut queue = [0u8; MAX_CAGES];
        let mut queued = 0;
        for c in positions(open) {
            let d = &mut self.grow[p.off[c]..p.off[c + 1]];
            fitting(p, &self.assumed, &self.choice, req, c, d);
            self.counts[c] = count(d);
            queue[queued] = c as u8;
            queued += 1;
        }
        let mut covered = req;
        while queued > 0 {
            let (mut pick, mut fewest) = (usize::MAX, u32::MAX);
            let mut q = 0;
            while q < queued {
                let c = queue[q] as usize;
                let k = self.counts[c];
                if k == 0 {
                    queued -= 1;
                    queue[q] = queue[queued];
                    open &= !bit(c);
                    continue;
                }
                if k < fewest {
                    (pick, fewest) = (q, k);
                }
                q += 1;
            }
            if pick == usize::MAX {
                break;
            }
            let c = queue[pick] as usize;
            queued -= 1;
            queue[pick] = queue[queued];
            let d = &self.grow[p.off[c]..p.off[c + 1]];
            let v = p.seed_in(c, d).unwrap_or_else(|| first_one(d));
            self.choice[c] = v as u32;
            open &= !bit(c);
            covered |= bit(c);
            let linked_open = p.links[c] & open;
            self.budget.spend(u64::from(linked_open.count_ones()) + 1)?;
            for o in positions(linked_open) {
                let row = p.row(c, v, o);
                let d = &mut self.grow[p.off[o]..p.off[o + 1]];
                let mut k = 0;
                for (d, r) in d.iter_mut().zip(row) {
                    *d &= r;
                    k += d.count_ones();
                }
                self.counts[o] = k;
            }
        }
        Ok(Some(covered))
    }

    /// Chooses the cages of `req` not chosen yet, depth-first with forward checking
    /// over the cages still to choose (the cage with the fewest combinations left
    /// first, its solution combination first), their domains at `levels[depth]`.
    /// True with a choice in `choice`.
    fn choose(&mut self, req: Mask, depth: usize) -> Result<bool, Exhausted> {
        let mut done = false;
        self.each_choice(req, depth, &mut |_| {
            done = true;
            true
        })?;
        Ok(done)
    }

    /// Goes through the clash-free choices for `req` as [`Search::choose`] does,
    /// calling `visit` with each (in `choice`) until it returns true.
    fn each_choice(
        &mut self,
        req: Mask,
        depth: usize,
        visit: &mut dyn FnMut(&Search) -> bool,
    ) -> Result<bool, Exhausted> {
        let p = self.p;
        let width = p.width();
        let at = depth * width;
        let mut pick: Option<(usize, u32)> = None;
        let mut pending: Mask = 0;
        for c in positions(req) {
            if self.choice[c] == u32::MAX {
                pending |= bit(c);
                let k = count(&self.levels[at + p.off[c]..at + p.off[c + 1]]);
                if pick.is_none_or(|(_, best)| k < best) {
                    pick = Some((c, k));
                }
            }
        }
        let Some((c, k)) = pick else {
            return Ok(visit(self));
        };
        if k == 0 {
            return Ok(false);
        }
        let words = p.off[c + 1] - p.off[c];
        let mut values = [0u64; MAX_DOMAIN_WORDS];
        values[..words].copy_from_slice(&self.levels[at + p.off[c]..at + p.off[c + 1]]);
        let seed = p.seed_in(c, &values[..words]);
        let others = bits::ones_in(&values[..words]).filter(|&v| Some(v) != seed);
        pending &= !bit(c);
        for v in seed.into_iter().chain(others) {
            self.budget.spend(u64::from(pending.count_ones()) + 1)?;
            let next = (depth + 1) * width;
            let (cur, rest) = self.levels.split_at_mut(next);
            let nxt = &mut rest[..width];
            let mut dead = false;
            for o in positions(pending) {
                let range = p.off[o]..p.off[o + 1];
                let d = &mut nxt[range.clone()];
                d.copy_from_slice(&cur[at + range.start..at + range.end]);
                if p.links[c] & bit(o) != 0 && !narrow(d, p.row(c, v, o)) {
                    dead = true;
                    break;
                }
            }
            if dead {
                continue;
            }
            self.choice[c] = v as u32;
            if self.each_choice(req, depth + 1, visit)? {
                return Ok(true);
            }
            self.choice[c] = u32::MAX;
        }
        Ok(false)
    }

    /// The cores made of `req` and one more cage of `open` (cages outside `req`):
    /// a cage that some clash-free choice for `req` leaves a combination makes
    /// none. The first few choices are tried against every open cage at once; a
    /// cage none of them fits is checked with `req` on its own.
    fn last_cage(
        &mut self,
        req: Mask,
        open: Mask,
        found: &mut Vec<Mask>,
    ) -> Result<(), Unanswered> {
        let p = self.p;
        let width = p.width();
        self.budget.spend(width as u64)?;
        self.levels[..width].copy_from_slice(&self.assumed);
        self.choice.fill(u32::MAX);
        let mut open = open;
        let mut seen = 0;
        let mut domain = [0u64; MAX_DOMAIN_WORDS];
        self.each_choice(req, 0, &mut |search| {
            seen += 1;
            for o in positions(open) {
                let d = &mut domain[..p.off[o + 1] - p.off[o]];
                if fitting(p, &search.assumed, &search.choice, req, o, d) {
                    open &= !bit(o);
                }
            }
            open == 0 || seen == LAST_CAGE_CHOICES
        })?;
        if seen == 0 {
            // `req` itself has no choice.
            return Err(Unanswered::NotApplicable);
        }
        for c in positions(open) {
            self.levels[..width].copy_from_slice(&self.assumed);
            self.choice.fill(u32::MAX);
            let both = req | bit(c);
            if !self.choose(both, 0)? {
                found.push(both);
            }
        }
        Ok(())
    }
}

/// Writes into `domain` the combinations of position `c` that fit the assumption
/// (`assumed`) and the choices `choice` holds for the cages of `chosen`; true when
/// any does.
fn fitting(
    p: &Problem,
    assumed: &[u64],
    choice: &[u32],
    chosen: Mask,
    c: usize,
    domain: &mut [u64],
) -> bool {
    domain.copy_from_slice(&assumed[p.off[c]..p.off[c + 1]]);
    let mut any = domain.iter().any(|&w| w != 0);
    for r in positions(chosen & p.links[c]) {
        if !any {
            break;
        }
        any = narrow(domain, p.row(r, choice[r] as usize, c));
    }
    any
}

/// Keeps in `domain` the combinations `row` holds; true when any is left.
#[inline]
fn narrow(domain: &mut [u64], row: &[u64]) -> bool {
    let mut left = 0;
    for (d, r) in domain.iter_mut().zip(row) {
        *d &= r;
        left |= *d;
    }
    left != 0
}

fn count(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

fn first_one(words: &[u64]) -> usize {
    bits::ones_in(words).next().expect("a non-empty domain")
}

#[cfg(test)]
mod tests;
