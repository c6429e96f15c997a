//! The solving state: candidates per cell, live combinations per cage, placed cells;
//! and propagation (rating 0) to a fixed point.

use crate::step::{CageCut, Reason, Step};
use crate::{Layout, TechniqueKind};
use kenken_model::bits::{self, BitSet};
use kenken_model::{BitView, Budget, CageId, CellId, Digit, Digits, Exhausted, Puzzle, MAX_SIZE};
use std::sync::Arc;
use thiserror::Error;

/// Combinations read between two charges to a budget when a cage's candidates are
/// worked out from all of them.
const CHARGE_EVERY: usize = 4096;

/// Propagation ran into an empty cell or an empty cage: the state has no solution.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Contradiction {
    #[error("cell {0} has no candidate left")]
    EmptyCell(String),
    #[error("cage {0} has no combination left")]
    EmptyCage(CageId),
}

/// Why propagation stopped before a fixed point.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Halt {
    /// The state has no solution.
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
    /// The budget ran out first.
    #[error(transparent)]
    Exhausted(#[from] Exhausted),
}

/// Why a state could not be built from pencil marks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    /// The puzzle's tables do not fit the default limits.
    #[error("the puzzle cannot be graded: {0}")]
    Exhausted(#[from] Exhausted),
    #[error("pencil marks for {got} cells, the grid has {expected}")]
    WrongCellCount { expected: usize, got: usize },
    #[error("the pencil marks contradict the puzzle: {0}")]
    Contradiction(#[from] Contradiction),
}

/// Candidates of every cell and the live combinations of every cage.
///
/// Invariant after [`State::propagate`]: every cell's candidates are exactly the
/// digits its cage's live combinations put there, and every cell with a single
/// candidate is placed with that digit removed from its peers.
#[derive(Clone, Debug)]
pub struct State {
    layout: Arc<Layout>,
    cand: Vec<Digits>,
    placed: Flags,
    /// Every cage's live combinations as bits, cage by cage (see
    /// [`Layout::live_at`]): one buffer, so that a copy of the state is cheap.
    live: Vec<u64>,
    live_count: Vec<usize>,
    /// Cages whose live combinations changed since [`State::take_changed_cages`].
    changed: Flags,
    /// Cages that must be filtered by the next propagation.
    dirty: Flags,
    /// Cells whose candidates changed since propagation last looked at them: the
    /// only ones that can have become naked singles.
    touched: Flags,
}

/// A set of cell or cage indices, inline: a state's flags are copied with it
/// without an allocation each (a batch clones a state per run of every puzzle). One
/// bit per cell of the largest grid (a grid never has more cages than cells).
type Flags = BitSet<{ (MAX_SIZE * MAX_SIZE).div_ceil(64) }>;

/// Removes candidate `d` of `cell` if it has it, marking its cage for filtering and
/// the cell as touched; whether it had it. (A free function over the state's fields,
/// so that propagation can call it while it borrows the layout.)
#[inline]
fn remove_candidate(
    layout: &Layout,
    cand: &mut [Digits],
    dirty: &mut Flags,
    touched: &mut Flags,
    cell: CellId,
    d: Digit,
) -> bool {
    let c = &mut cand[cell.index()];
    if !c.contains(d) {
        return false;
    }
    c.remove(d);
    dirty.insert(layout.cell_cage[cell.index()].0.index());
    touched.insert(cell.index());
    true
}

impl State {
    /// The initial state of a puzzle, before any propagation.
    pub fn new(puzzle: &Puzzle) -> Result<State, Exhausted> {
        Ok(State::from_layout(Arc::new(Layout::new(puzzle)?)))
    }

    /// The initial state over an already built layout.
    pub fn from_layout(layout: Arc<Layout>) -> State {
        State::from_layout_within(layout, &mut Budget::unlimited())
            .unwrap_or_else(|why| unreachable!("an unlimited budget ran out: {why}"))
    }

    /// [`State::from_layout`] spending a unit per combination read on `budget`: a
    /// puzzle with huge tables gives up at its deadline.
    pub fn from_layout_within(
        layout: Arc<Layout>,
        budget: &mut Budget,
    ) -> Result<State, Exhausted> {
        let mut s = State::unfiltered(layout);
        for cage in 0..s.layout.cage_count() {
            s.recompute_candidates(CageId::new(cage), budget)?;
        }
        Ok(s)
    }

    /// The initial state with every digit a candidate of every cell, every cage
    /// to be filtered and every cell to be looked at: propagation then makes it
    /// [`State::from_layout`]'s, propagated, without a pass over the combinations
    /// of its own.
    pub(crate) fn unfiltered(layout: Arc<Layout>) -> State {
        let cells = layout.puzzle.size().cell_count();
        let cages = layout.cage_count();
        let live = layout.initial_live().to_vec();
        let live_count = layout
            .tables
            .iter()
            .map(|t| t.combos.live.count_ones())
            .collect();
        State {
            cand: vec![Digits::full(layout.n); cells],
            placed: Flags::default(),
            live,
            live_count,
            changed: Flags::default(),
            dirty: Flags::first(cages),
            touched: Flags::first(cells),
            layout,
        }
    }

    /// A propagated state from pencil marks: each cell keeps only the candidates
    /// given for it (reading order), then propagation runs. For tests, hints on a
    /// position a person has reached, and imported K6C progress.
    pub fn with_candidates(puzzle: &Puzzle, marks: &[Digits]) -> Result<State, StateError> {
        let mut s = State::new(puzzle)?;
        let size = puzzle.size();
        if marks.len() != size.cell_count() {
            return Err(StateError::WrongCellCount {
                expected: size.cell_count(),
                got: marks.len(),
            });
        }
        for cell in size.cells() {
            for d in s.candidates(cell).difference(marks[cell.index()]) {
                s.eliminate(cell, d);
            }
        }
        s.propagate()?;
        s.forget_changed_cages();
        Ok(s)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.layout.puzzle
    }

    /// N.
    #[inline]
    pub fn n(&self) -> usize {
        self.layout.n
    }

    #[inline]
    pub fn candidates(&self, cell: CellId) -> Digits {
        self.cand[cell.index()]
    }

    /// Whether the cell has been placed (its single candidate propagated).
    #[inline]
    pub fn is_placed(&self, cell: CellId) -> bool {
        self.placed.contains(cell.index())
    }

    /// The candidates of an unplaced cell, none of a placed one: worked out with a
    /// mask, not a branch, for scans that OR many cells (which cells are placed is
    /// the puzzle's data, which a branch would often mispredict).
    #[inline]
    pub(crate) fn open_candidates(&self, cell: CellId) -> Digits {
        let unplaced = u16::from(!self.is_placed(cell)).wrapping_neg();
        Digits::from_bits(self.candidates(cell).bits() & unplaced)
    }

    /// The cell's digit once it is placed.
    pub fn value(&self, cell: CellId) -> Option<Digit> {
        if self.placed.contains(cell.index()) {
            self.cand[cell.index()].single_digit()
        } else {
            None
        }
    }

    /// Whether every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.placed.len() == self.layout.puzzle.size().cell_count()
    }

    /// The live combinations of a cage.
    #[inline]
    pub fn live(&self, cage: CageId) -> BitView<'_> {
        let (words, len) = self.live_words(cage);
        BitView::new(words, len)
    }

    /// Every cage's live bits, cage after cage (see [`Layout::live_at`]).
    pub(crate) fn live_store(&self) -> &[u64] {
        &self.live
    }

    /// The words of the cage's live bits and how many bits are the cage's (bits
    /// past its combination count may be anything).
    #[inline]
    pub(crate) fn live_words(&self, cage: CageId) -> (&[u64], usize) {
        let (at, len) = self.layout.live_at(cage);
        (&self.live[at..at + len.div_ceil(64)], len)
    }

    #[inline]
    pub fn live_count(&self, cage: CageId) -> usize {
        self.live_count[cage.index()]
    }

    /// Indices of the cage's live combinations, ascending.
    pub fn live_combinations(&self, cage: CageId) -> impl Iterator<Item = usize> + '_ {
        let (words, len) = self.live_words(cage);
        ones(words, len)
    }

    /// The grid as digits in reading order, 0 for unplaced cells.
    pub fn grid(&self) -> Vec<Digit> {
        self.puzzle()
            .size()
            .cells()
            .map(|c| self.value(c).unwrap_or(0))
            .collect()
    }

    /// Cages whose combinations changed since the last call (for techniques that
    /// only revisit what changed).
    pub fn take_changed_cages(&mut self) -> Vec<CageId> {
        let mut out = Vec::new();
        self.take_changed_cages_into(&mut out);
        out
    }

    /// Forgets which cages changed (as [`State::take_changed_cages`] without the
    /// list), for a state whose changes nobody looks at, such as a start state.
    pub fn forget_changed_cages(&mut self) {
        self.changed = Flags::default();
    }

    /// [`State::take_changed_cages`] into a buffer (cleared first), so that a
    /// stepping loop reuses one buffer for every step.
    pub fn take_changed_cages_into(&mut self, out: &mut Vec<CageId>) {
        out.clear();
        let mut from = 0;
        while let Some(i) = self.changed.take_from(from) {
            out.push(CageId::new(i));
            from = i + 1;
        }
    }

    /// Applies a step's own removals (not the propagation that follows).
    pub fn apply(&mut self, step: &Step) {
        for cut in &step.cuts {
            for &i in &cut.removed {
                self.kill(cut.cage, i as usize);
            }
        }
        for &(cell, d) in &step.eliminations {
            self.eliminate(cell, d);
        }
    }

    /// Removes a candidate (its cage's combinations using it are filtered by the next
    /// propagation).
    pub fn eliminate(&mut self, cell: CellId, d: Digit) {
        let State {
            layout,
            cand,
            dirty,
            touched,
            ..
        } = self;
        remove_candidate(layout, cand, dirty, touched, cell, d);
    }

    fn kill(&mut self, cage: CageId, i: usize) {
        let (at, _) = self.layout.live_at(cage);
        let (word, bit) = (&mut self.live[at + i / 64], 1u64 << (i % 64));
        if *word & bit != 0 {
            *word &= !bit;
            self.live_count[cage.index()] -= 1;
            self.changed.insert(cage.index());
            self.dirty.insert(cage.index());
        }
    }

    /// Runs the combination filter and naked singles to a fixed point; returns the
    /// naked-single steps in the order they were placed.
    pub fn propagate(&mut self) -> Result<Vec<Step>, Contradiction> {
        let mut singles = Vec::new();
        self.propagate_into(&mut singles)?;
        Ok(singles)
    }

    /// [`State::propagate`] appending the naked-single steps to `singles` (a step
    /// log), so that the stepping loop needs no buffer of its own.
    pub fn propagate_into(&mut self, singles: &mut Vec<Step>) -> Result<(), Contradiction> {
        self.propagate_within(&mut Budget::unlimited(), Some(singles))
            .map_err(unbounded)
    }

    /// [`State::propagate`] without a step per naked single (for ratings alone).
    pub fn propagate_quietly(&mut self) -> Result<(), Contradiction> {
        self.propagate_within(&mut Budget::unlimited(), None)
            .map_err(unbounded)
    }

    /// Propagation to a fixed point spending its work on `budget` (each cage
    /// filtered costs its live combinations), appending the naked-single steps to
    /// `singles` when given. A state left by an exhausted budget is consistent but
    /// not at a fixed point.
    pub fn propagate_within(
        &mut self,
        budget: &mut Budget,
        singles: Option<&mut Vec<Step>>,
    ) -> Result<(), Halt> {
        match singles {
            Some(singles) => {
                self.run_propagation(budget, |cell, d| singles.push(Step::naked_single(cell, d)))
            }
            None => self.run_propagation(budget, |_, _| {}),
        }
    }

    /// Propagation to a fixed point, telling `placed_single` each naked single.
    fn run_propagation(
        &mut self,
        budget: &mut Budget,
        mut placed_single: impl FnMut(CellId, Digit),
    ) -> Result<(), Halt> {
        loop {
            let mut any = false;
            // Cages in index order; one dirtied on the way is filtered in this pass
            // when it comes later, in the next when it came before.
            let mut from = 0;
            while let Some(cage) = self.dirty.take_from(from) {
                any = true;
                let cage = CageId::new(cage);
                budget.spend(self.live_count(cage) as u64 + 1)?;
                self.filter_cage(cage)?;
                from = cage.index() + 1;
            }
            // Place every new single, reading order, and remove its digit from the
            // other cells of its regions. Only touched cells can be new singles; one
            // touched here after the cell being placed is placed in this pass, one
            // before it in the next (as a scan of every cell would do).
            let State {
                layout,
                cand,
                placed,
                dirty,
                touched,
                ..
            } = self;
            let size = layout.puzzle.size();
            let mut from = 0;
            while let Some(cell) = touched.take_from(from).map(CellId::new) {
                from = cell.index() + 1;
                if placed.contains(cell.index()) {
                    continue;
                }
                if let Some(d) = cand[cell.index()].single_digit() {
                    any = true;
                    placed.insert(cell.index());
                    placed_single(cell, d);
                    for &p in layout.peers(cell) {
                        if remove_candidate(layout, cand, dirty, touched, p, d)
                            && cand[p.index()].is_empty()
                        {
                            return Err(Contradiction::EmptyCell(size.cell_name(p)).into());
                        }
                    }
                }
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// Drops the cage's combinations that use a digit no longer a candidate of its
    /// cell, then recomputes the cage cells' candidates from the survivors.
    fn filter_cage(&mut self, cage: CageId) -> Result<(), Contradiction> {
        let State {
            layout,
            cand,
            live,
            live_count,
            changed,
            touched,
            ..
        } = self;
        let cells = layout.cage_cells(cage);
        let (at, len) = layout.live_at(cage);
        let live = &mut live[at..at + len.div_ceil(64)];
        let mut removed = 0;
        // What the survivors put in each cell: packed as their combinations are
        // (bit `pos * n + d - 1`) when those fit a word, else a digit set per cell
        // in `union`.
        let n = layout.n;
        let mut union_packed = 0u64;
        let width = cells.len();
        // (Made only on the path that uses them: most calls take the packed path,
        // which should not pay for zeroing 64 digit sets.)
        let mut union_small: [Digits; 64];
        let mut union_big: Vec<Digits>;
        let mut union: &[Digits] = &[];
        if let Some(packed) = layout.packed(cage) {
            // One word per combination (see `Layout::packed`): it survives when it
            // sets no bit outside the cells' candidates, and the survivors' OR is
            // the union of what they put in each cell.
            let allowed = cells.iter().enumerate().fold(0u64, |a, (pos, c)| {
                a | u64::from(cand[c.index()].bits()) << (pos * n)
            });
            for (w, word) in live.iter_mut().enumerate() {
                for b in bits::ones(*word & bits::tail_mask(len, w)) {
                    let combo = packed[w * 64 + b];
                    // Masks, not a branch, on whether it survives: that is the
                    // puzzle's data, which a branch would often mispredict.
                    let dies = combo & !allowed != 0;
                    *word &= !(u64::from(dies) << b);
                    removed += usize::from(dies);
                    union_packed |= combo & u64::from(dies).wrapping_sub(1);
                }
            }
        } else {
            // On the stack for any cage of up to 64 cells.
            let (mut masks_small, mut masks_big) = ([Digits::EMPTY; 64], Vec::new());
            let (masks, union_mut): (&mut [Digits], &mut [Digits]) = if width <= 64 {
                union_small = [Digits::EMPTY; 64];
                (&mut masks_small[..width], &mut union_small[..width])
            } else {
                masks_big.resize(width, Digits::EMPTY);
                union_big = vec![Digits::EMPTY; width];
                (&mut masks_big, &mut union_big)
            };
            for (m, c) in masks.iter_mut().zip(cells) {
                *m = cand[c.index()];
            }
            filter_rows(layout, cage, live, len, masks, union_mut, &mut removed);
            union = union_mut;
        }
        if removed > 0 {
            live_count[cage.index()] -= removed;
            changed.insert(cage.index());
        }
        if live_count[cage.index()] == 0 {
            return Err(Contradiction::EmptyCage(cage));
        }
        let digits = (1u64 << n) - 1;
        for (pos, &c) in cells.iter().enumerate() {
            let u = match union.get(pos) {
                Some(&u) => u,
                None => Digits::from_bits(((union_packed >> (pos * n)) & digits) as u16),
            };
            // A mask, not a branch, on whether the cell narrows (the same reason
            // as above).
            let narrows = !cand[c.index()].difference(u).is_empty();
            cand[c.index()] &= u;
            touched.insert_if(c.index(), narrows);
            if cand[c.index()].is_empty() {
                return Err(Contradiction::EmptyCell(layout.puzzle.size().cell_name(c)));
            }
        }
        Ok(())
    }

    fn recompute_candidates(&mut self, cage: CageId, budget: &mut Budget) -> Result<(), Exhausted> {
        let layout = &self.layout;
        let cells = layout.cage_cells(cage);
        let mut union = [Digits::EMPTY; 64];
        let width = cells.len();
        let mut extra: Vec<Digits> = Vec::new();
        let union: &mut [Digits] = if width <= 64 {
            &mut union[..width]
        } else {
            extra.resize(width, Digits::EMPTY);
            &mut extra
        };
        let count = self.live_count[cage.index()];
        for (k, i) in self.live_combinations(cage).enumerate() {
            if k.is_multiple_of(CHARGE_EVERY) {
                budget.spend(CHARGE_EVERY.min(count - k) as u64)?;
            }
            for (u, &d) in union.iter_mut().zip(layout.combination(cage, i)) {
                u.insert(d);
            }
        }
        for (pos, &c) in cells.iter().enumerate() {
            self.cand[c.index()] &= union[pos];
        }
        Ok(())
    }

    /// Appends to `out` the (cell, digit) eliminations that removing the
    /// combinations `removed` (ascending table indices) from `cage` causes
    /// directly: candidates of its cells that no remaining live combination puts
    /// there. Steps report these, so a log shows what a combination cut means on
    /// the grid.
    fn eliminations_from_cut_into(
        &self,
        cage: CageId,
        removed: &[u32],
        out: &mut Vec<(CellId, Digit)>,
    ) {
        let cells = self.layout.cage_cells(cage);
        // What the surviving combinations put in each cell (on the stack for any
        // cage of up to 64 cells).
        let mut keep_small = [Digits::EMPTY; 64];
        let mut keep_big = Vec::new();
        let keep: &mut [Digits] = if cells.len() <= 64 {
            &mut keep_small[..cells.len()]
        } else {
            keep_big.resize(cells.len(), Digits::EMPTY);
            &mut keep_big
        };
        let mut r = removed.iter().peekable();
        for i in self.live_combinations(cage) {
            while r.peek().is_some_and(|&&x| (x as usize) < i) {
                r.next();
            }
            if r.peek().is_some_and(|&&x| x as usize == i) {
                continue;
            }
            for (k, &d) in keep.iter_mut().zip(self.layout.combination(cage, i)) {
                k.insert(d);
            }
        }
        for (pos, &c) in cells.iter().enumerate() {
            for d in self.cand[c.index()].difference(keep[pos]) {
                out.push((c, d));
            }
        }
    }

    /// A step that keeps only the live combinations of `cage` for which `keep` holds,
    /// as a [`CageCut`] (None when nothing would be removed).
    pub fn cut_where(
        &self,
        cage: CageId,
        mut keep: impl FnMut(&[Digit]) -> bool,
    ) -> Option<CageCut> {
        self.cut_where_index(cage, |i| keep(self.layout.combination(cage, i)))
    }

    /// [`State::cut_where`] with `keep` told the combination's index (to look it up
    /// in another form, such as [`Layout::packed`]).
    pub(crate) fn cut_where_index(
        &self,
        cage: CageId,
        mut keep: impl FnMut(usize) -> bool,
    ) -> Option<CageCut> {
        let removed: Vec<u32> = self
            .live_combinations(cage)
            .filter(|&i| !keep(i))
            .map(|i| i as u32)
            .collect();
        (!removed.is_empty()).then(|| CageCut {
            cage,
            before: self.live_count(cage),
            after: self.live_count(cage) - removed.len(),
            removed,
        })
    }

    /// Builds a step from combination cuts, filling in the direct eliminations.
    pub fn step_from_cuts(
        &self,
        technique: TechniqueKind,
        rating: crate::Rating,
        reason: Reason,
        cuts: Vec<CageCut>,
    ) -> Step {
        let mut step = Step::from_cuts(technique, rating, reason, cuts);
        for cut in &step.cuts {
            self.eliminations_from_cut_into(cut.cage, &cut.removed, &mut step.eliminations);
        }
        step
    }
}

/// A propagation without a budget can only stop at a contradiction.
fn unbounded(halt: Halt) -> Contradiction {
    match halt {
        Halt::Contradiction(c) => c,
        Halt::Exhausted(e) => unreachable!("an unlimited budget ran out: {e}"),
    }
}

/// The set bits among the first `len` of a word slice, ascending.
fn ones(words: &[u64], len: usize) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(move |(w, &word)| {
        bits::ones(word & bits::tail_mask(len, w)).map(move |b| w * 64 + b)
    })
}

/// The combination filter one row at a time, for cages whose combinations do not
/// fit one word: drops from `live` the combinations that put a digit outside the
/// cells' candidates (`masks`), counting them in `removed`, and collects in `union`
/// what the survivors put in each cell.
fn filter_rows(
    layout: &Layout,
    cage: CageId,
    live: &mut [u64],
    len: usize,
    masks: &[Digits],
    union: &mut [Digits],
    removed: &mut usize,
) {
    for (w, word) in live.iter_mut().enumerate() {
        for b in bits::ones(*word & bits::tail_mask(len, w)) {
            let row = layout.combination(cage, w * 64 + b);
            if row.iter().zip(masks.iter()).any(|(&d, m)| !m.contains(d)) {
                *word &= !(1 << b);
                *removed += 1;
            } else {
                for (u, &d) in union.iter_mut().zip(row) {
                    u.insert(d);
                }
            }
        }
    }
}
