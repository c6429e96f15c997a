//! The backtracking search over a [`FlatPuzzle`]: per-level copies of the state,
//! branching on a cage's combinations, the solutions found, and the vectors a
//! thread keeps for its next search.

use super::flat::FlatPuzzle;
use super::propagate::{restrict, Culprit, Flow, LevelMut, Work};
use super::refill;
use kenken_model::{bits, Budget, Digit, Digits, Exhausted};

/// The vectors of a search, kept by a thread from one puzzle to the next (see
/// [`Buffers`](super::Buffers)).
#[derive(Default)]
pub(crate) struct SearchBuffers {
    cand: Vec<u16>,
    live: Vec<u64>,
    live_count: Vec<u32>,
    weight: Vec<u32>,
    work: Work,
}

impl SearchBuffers {
    pub(super) fn capacity_bytes(&self) -> usize {
        let w = &self.work;
        2 * self.cand.capacity()
            + 8 * self.live.capacity()
            + 4 * (self.live_count.capacity() + self.weight.capacity())
            + 2 * (w.union.capacity() + w.forced.capacity() + w.cells.capacity())
            + w.cell_queued.capacity()
            + 4 * w.cages.capacity()
            + w.cage_queued.capacity()
            + 2 * w.pend.capacity()
            + w.stale.capacity()
    }
}

/// A backtracking search over one [`FlatPuzzle`].
pub(crate) struct Search<'a, 'b> {
    lay: &'a FlatPuzzle,
    limit: usize,
    /// Per level: candidates, live words and live counts, at fixed strides.
    cand: Vec<u16>,
    live: Vec<u64>,
    live_count: Vec<u32>,
    /// Levels allocated so far.
    levels: usize,
    work: Work,
    /// Per cage, 1 + the failures it was blamed for ("weighted degree"): the
    /// branching heuristic prefers cages that keep causing dead ends.
    weight: Vec<u32>,
    solutions: usize,
    first: Option<Vec<Digit>>,
    nodes: u64,
    /// Every node spends its propagation's work here, and the per-level copies of
    /// the state are reserved here: the search gives up once it is exhausted.
    budget: &'b mut Budget,
    /// Why the search stopped before it was done.
    stopped: Option<Exhausted>,
}

/// What a finished or interrupted search found.
pub(crate) struct Results {
    pub solutions: usize,
    pub first: Option<Vec<Digit>>,
    pub nodes: u64,
    pub stopped: Option<Exhausted>,
}

impl<'a, 'b> Search<'a, 'b> {
    /// A search over `lay` in the vectors of `spare` (taken; [`Search::finish`]
    /// gives them back).
    pub(crate) fn new(
        lay: &'a FlatPuzzle,
        limit: usize,
        budget: &'b mut Budget,
        spare: &mut SearchBuffers,
    ) -> Result<Search<'a, 'b>, Exhausted> {
        let ncages = lay.cages.len();
        // Enough levels for typical searches up front; deeper ones are added once.
        let levels = 8.min(lay.ncells + 1);
        budget.reserve(levels * Search::level_bytes(lay))?;
        let mut spare = std::mem::take(spare);
        refill(&mut spare.cand, levels * lay.ncells, 0);
        refill(&mut spare.live, levels * lay.total_words, 0);
        refill(&mut spare.live_count, levels * ncages, 0);
        refill(&mut spare.weight, ncages, 1);
        spare.work.reset(lay);
        Ok(Search {
            lay,
            limit,
            cand: spare.cand,
            live: spare.live,
            live_count: spare.live_count,
            levels,
            work: spare.work,
            weight: spare.weight,
            solutions: 0,
            first: None,
            nodes: 0,
            budget,
            stopped: None,
        })
    }

    /// The bytes of one level's copy of the state.
    fn level_bytes(lay: &FlatPuzzle) -> usize {
        2 * lay.ncells + 8 * lay.total_words + 4 * lay.cages.len()
    }

    /// Spends the work done since the last spending without counting a node;
    /// true (and remembered) once the budget is exhausted.
    fn spend_work(&mut self) -> bool {
        let units = std::mem::take(&mut self.work.units);
        if let Err(why) = self.budget.spend(units) {
            self.stopped.get_or_insert(why);
        }
        self.stopped.is_some()
    }

    /// Spends the work done since the last call; true (and remembered) once the
    /// budget is exhausted.
    fn out_of_budget(&mut self) -> bool {
        let units = std::mem::take(&mut self.work.units) + 1;
        if let Err(why) = self.budget.spend(units) {
            self.stopped.get_or_insert(why);
        }
        self.stopped.is_some()
    }

    /// Runs the whole search from the puzzle's start (restricted to `candidates`).
    pub(crate) fn run(&mut self, candidates: Option<&[Digits]>) {
        let lay = self.lay;
        if let Some(cands) = candidates {
            assert_eq!(
                cands.len(),
                lay.ncells,
                "one candidate set per cell is required"
            );
        }
        // A deadline already passed: not even the root (nodes stays 0).
        if let Err(why) = self.budget.check() {
            self.stopped = Some(why);
            return;
        }
        self.nodes = 1;
        let root = &mut self.cand[..lay.ncells];
        root.fill(lay.full);
        if let Some(cands) = candidates {
            for (cell, d) in cands.iter().enumerate() {
                if !restrict(lay, root, &mut self.work, cell, d.bits()) {
                    self.work.clear();
                    return;
                }
            }
        }
        for (g, info) in lay.cages.iter().enumerate() {
            let count = info.count;
            let words = &mut self.live[info.words..info.words + info.nwords];
            words.fill(u64::MAX);
            if count % 64 != 0 {
                words[info.nwords - 1] = (1u64 << (count % 64)) - 1;
            }
            self.live_count[g] = count as u32;
            self.work.stale[g] = true;
            self.work.push_cage(g);
        }
        // Every house gets a first look ("every digit has a place").
        self.work.houses = (1u64 << (lay.houses.len() / lay.n)) - 1;
        if self.propagate(0) && !self.out_of_budget() {
            self.search(0);
        }
    }

    /// What the search found; its vectors go back to `spare`.
    pub(crate) fn finish(self, spare: &mut SearchBuffers) -> Results {
        *spare = SearchBuffers {
            cand: self.cand,
            live: self.live,
            live_count: self.live_count,
            weight: self.weight,
            work: self.work,
        };
        Results {
            solutions: self.solutions,
            first: self.first,
            nodes: self.nodes,
            stopped: self.stopped,
        }
    }

    /// Propagates level `lvl`; on a contradiction the queues are cleared for the
    /// next attempt.
    fn propagate(&mut self, lvl: usize) -> bool {
        let lay = self.lay;
        let flow = loop {
            let (mut st, work) = self.level(lvl);
            match lay.propagate(&mut st, work) {
                Flow::Paused => {
                    if self.spend_work() {
                        // The budget ran out: the level is given up (not blamed
                        // on any cage).
                        self.work.clear();
                        return false;
                    }
                }
                flow => break flow,
            }
        };
        let ok = flow == Flow::Fixed;
        let work = &mut self.work;
        if !ok {
            work.clear();
            match std::mem::replace(&mut work.culprit, Culprit::None) {
                Culprit::None => {}
                Culprit::Cage(g) => self.weight[g] = self.weight[g].saturating_add(1),
                Culprit::House(h) => {
                    for &c in &lay.houses[h * lay.n..(h + 1) * lay.n] {
                        let g = lay.cell_cage[c as usize] as usize;
                        self.weight[g] = self.weight[g].saturating_add(1);
                    }
                }
            }
        }
        ok
    }

    fn level(&mut self, lvl: usize) -> (LevelMut<'_>, &mut Work) {
        let (nc, nw, ng) = (self.lay.ncells, self.lay.total_words, self.lay.cages.len());
        (
            LevelMut {
                cand: &mut self.cand[lvl * nc..(lvl + 1) * nc],
                live: &mut self.live[lvl * nw..(lvl + 1) * nw],
                live_count: &mut self.live_count[lvl * ng..(lvl + 1) * ng],
            },
            &mut self.work,
        )
    }

    /// Copies level `lvl` into `lvl + 1`, adding levels when the search first gets
    /// this deep (at most one per cell: every branch places a cell). False when the
    /// budget refuses the memory for them.
    fn push_level(&mut self, lvl: usize) -> bool {
        let (nc, nw, ng) = (self.lay.ncells, self.lay.total_words, self.lay.cages.len());
        if lvl + 1 >= self.levels {
            let levels = (2 * self.levels).min(nc + 1).max(lvl + 2);
            let bytes = (levels - self.levels) * Search::level_bytes(self.lay);
            if let Err(why) = self.budget.reserve(bytes) {
                self.stopped.get_or_insert(why);
                return false;
            }
            self.levels = levels;
            self.cand.resize(self.levels * nc, 0);
            self.live.resize(self.levels * nw, 0);
            self.live_count.resize(self.levels * ng, 0);
        }
        self.cand
            .copy_within(lvl * nc..(lvl + 1) * nc, (lvl + 1) * nc);
        self.live
            .copy_within(lvl * nw..(lvl + 1) * nw, (lvl + 1) * nw);
        self.live_count
            .copy_within(lvl * ng..(lvl + 1) * ng, (lvl + 1) * ng);
        true
    }

    /// Searches below level `lvl`, which is at a fixed point.
    ///
    /// Branches on the unsettled cage with the fewest live combinations. A cage
    /// beats a cell: at a fixed point a cell's candidates are exactly the digits
    /// its cage's live combinations put there, so an unplaced cell means a cage
    /// with two or more combinations, and one cage branch places all of its cells
    /// (fewer nodes than branching on the cell with the fewest candidates, several
    /// times fewer on the hardest puzzles).
    fn search(&mut self, lvl: usize) {
        let lay = self.lay;
        let ng = lay.cages.len();
        let counts = &self.live_count[lvl * ng..(lvl + 1) * ng];
        let mut best_cage = usize::MAX;
        // Above any count (a u32), so that the products below fit in a u64.
        let (mut best_l, mut best_w) = (1u64 << 32, 1u64);
        for (g, (&l, &w)) in counts.iter().zip(&self.weight).enumerate() {
            // Fewest combinations per unit of blame: l / w < best_l / best_w.
            let (l, w) = (l as u64, w as u64);
            if l > 1 && l * best_w < best_l * w {
                (best_l, best_w) = (l, w);
                best_cage = g;
            }
        }

        if best_cage == usize::MAX {
            // Every cage is settled, so every cell is placed, and propagation
            // found no clash: a solution.
            let cand = &self.cand[lvl * lay.ncells..(lvl + 1) * lay.ncells];
            debug_assert!(cand.iter().all(|&c| c.count_ones() == 1));
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Some(
                    cand.iter()
                        .map(|&c| c.trailing_zeros() as Digit + 1)
                        .collect(),
                );
            }
            return;
        }

        let info = lay.cages[best_cage];
        let cells = lay.cells_of(&info);
        let base = lvl * lay.total_words + info.words;
        for wi in 0..info.nwords {
            // The parent's words are not touched by the children (they work one
            // level down), so reading them word by word is safe.
            for b in bits::ones(self.live[base + wi]) {
                let combo =
                    &lay.combo_bits[info.combos + (wi * 64 + b) * info.width..][..info.width];
                if !self.push_level(lvl) {
                    return;
                }
                let (st, work) = self.level(lvl + 1);
                for (&c, &d) in cells.iter().zip(combo) {
                    // A live combination only uses candidates: never empties.
                    restrict(lay, st.cand, work, c as usize, d);
                }
                if self.descend(lvl + 1) {
                    return;
                }
            }
        }
    }

    /// Propagates a freshly branched level and searches below it. True when the
    /// whole search should stop: the solution limit has been reached, or the
    /// budget is exhausted.
    fn descend(&mut self, lvl: usize) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return true;
        }
        if self.propagate(lvl) {
            self.search(lvl);
        }
        self.solutions >= self.limit || self.stopped.is_some()
    }
}
