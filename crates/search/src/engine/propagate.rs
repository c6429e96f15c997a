//! Propagation on one level's state, to a fixed point: combination filtering,
//! naked and hidden singles, "every digit has a place in every house", pointing
//! and claiming; and the queues it works from.

use super::flat::FlatPuzzle;
use super::refill;
use kenken_model::bits;

impl FlatPuzzle {
    /// Pointing: removes digit `d` (a bit) from the cells of house `h` outside cage
    /// `cage`, in house order. False on a contradiction.
    #[inline]
    fn point(&self, h: usize, cage: usize, d: u16, cand: &mut [u16], work: &mut Work) -> bool {
        let house = &self.houses[h * self.n..(h + 1) * self.n];
        // As for naked singles: a mask of the cells to narrow first.
        let mut hit = 0u32;
        for (i, &p) in house.iter().enumerate() {
            let has = (cand[p as usize] & d != 0) & (self.cell_cage[p as usize] as usize != cage);
            hit |= u32::from(has) << i;
        }
        while hit != 0 {
            let p = house[hit.trailing_zeros() as usize] as usize;
            hit &= hit - 1;
            if !narrow(self, cand, work, p, !d) {
                return false;
            }
        }
        true
    }

    /// Strikes off the combinations that use a digit removed from a cage cell
    /// since the last revision, then narrows the cage's cells to the digits the
    /// survivors use. False on a contradiction (no combination left).
    #[inline]
    fn revise(&self, cage: usize, st: &mut LevelMut<'_>, work: &mut Work) -> bool {
        let info = &self.cages[cage];
        let cells = self.cells_of(info);
        let nw = info.nwords;
        // Removing digits, narrowing each cell and pointing: passes over the live
        // words per cage position and digit.
        work.units += (nw * info.width * self.n) as u64;
        let live = &mut st.live[info.words..info.words + nw];
        let masks = &self.masks[info.masks..info.masks + info.width * self.n * nw];
        let mut changed = std::mem::take(&mut work.stale[cage]);
        for (pos, &c) in cells.iter().enumerate() {
            let gone = std::mem::take(&mut work.pend[c as usize]);
            for d in bits::ones(u64::from(gone)) {
                let m = &masks[(pos * self.n + d) * nw..][..nw];
                for (l, &m) in live.iter_mut().zip(m) {
                    changed |= *l & m != 0;
                    *l &= !m;
                }
            }
        }
        if !changed {
            // Same combinations as last time: the cells and the houses already
            // agree with them.
            return true;
        }
        let count: u32 = live.iter().map(|w| w.count_ones()).sum();
        if count == 0 {
            work.culprit = Culprit::Cage(cage);
            return false;
        }
        st.live_count[cage] = count;
        if count as usize <= SPARSE_PER_WORD * nw {
            return self.settle_sparse(cage, st, work);
        }
        // Only the words between the first and last live combination matter.
        let lo = live.iter().position(|&w| w != 0).unwrap_or(0);
        let hi = nw - live.iter().rev().position(|&w| w != 0).unwrap_or(0);
        let live = &live[lo..hi];
        for (pos, &c) in cells.iter().enumerate() {
            let c = c as usize;
            let old = st.cand[c];
            if old & old.wrapping_sub(1) == 0 {
                // One candidate: some live combination uses it (count > 0 and
                // every live one agrees with the candidates).
                continue;
            }
            let mut keep = 0;
            for d in bits::ones(u64::from(old)) {
                let m = &masks[(pos * self.n + d) * nw + lo..][..hi - lo];
                if live.iter().zip(m).any(|(&l, &m)| l & m != 0) {
                    keep |= 1 << d;
                }
            }
            if keep != old {
                // Unused by every live combination: nothing to strike off for
                // these, so the cell is queued (for singles) without revisiting
                // the cage.
                st.cand[c] = keep;
                work.push_cell(c);
                work.houses |= self.cell_houses[c];
            }
        }

        // Pointing: a digit that every live combination puts somewhere in the
        // cage's part of a house is not anywhere else in that house.
        for part in &self.parts[info.parts..info.parts + info.nparts] {
            let pos = &self.part_pos[part.pos..part.pos + part.len];
            let mut digits = 0;
            for &p in pos {
                digits |= st.cand[cells[p as usize] as usize];
            }
            for d in bits::ones(u64::from(digits)) {
                let forced = live.iter().enumerate().all(|(w, &l)| {
                    let mut covered = 0;
                    for &p in pos {
                        covered |= masks[(p as usize * self.n + d) * nw + lo + w];
                    }
                    l & !covered == 0
                });
                if forced && !self.point(part.house, cage, 1 << d, st.cand, work) {
                    return false;
                }
            }
        }
        true
    }

    /// The second half of [`FlatPuzzle::revise`] when few combinations are live:
    /// the cells' digits and what the cage forces on its houses, read from the
    /// live combinations one by one instead of digit by digit through the masks
    /// (whose words are then mostly zero). Same result, cheaper when the
    /// combinations are few. False on a contradiction.
    fn settle_sparse(&self, cage: usize, st: &mut LevelMut<'_>, work: &mut Work) -> bool {
        let info = &self.cages[cage];
        if info.packed != usize::MAX {
            return self.settle_packed(cage, st, work);
        }
        let cells = self.cells_of(info);
        let width = info.width;
        let parts = &self.parts[info.parts..info.parts + info.nparts];
        let live = &st.live[info.words..info.words + info.nwords];
        let union = &mut work.union[..width];
        let forced = &mut work.forced[..info.nparts];
        union.fill(0);
        forced.fill(u16::MAX);
        for (wi, &word) in live.iter().enumerate() {
            for b in bits::ones(word) {
                let k = wi * 64 + b;
                let combo = &self.combo_bits[info.combos + k * width..][..width];
                for (u, &b) in union.iter_mut().zip(combo) {
                    *u |= b;
                }
                for (f, part) in forced.iter_mut().zip(parts) {
                    let mut here = 0;
                    for &p in &self.part_pos[part.pos..part.pos + part.len] {
                        here |= combo[p as usize];
                    }
                    *f &= here;
                }
            }
        }
        for (i, &c) in cells.iter().enumerate() {
            let c = c as usize;
            let keep = st.cand[c] & work.union[i];
            if keep != st.cand[c] {
                // As in `revise`: unused digits need no striking off.
                st.cand[c] = keep;
                work.push_cell(c);
                work.houses |= self.cell_houses[c];
            }
        }
        for (i, part) in parts.iter().enumerate() {
            let mut digits = work.forced[i];
            while digits != 0 {
                let d = digits & digits.wrapping_neg();
                digits ^= d;
                if !self.point(part.house, cage, d, st.cand, work) {
                    return false;
                }
            }
        }
        true
    }

    /// [`FlatPuzzle::settle_sparse`] for a cage whose combinations are packed: the
    /// same result, a word operation per live combination.
    #[inline]
    fn settle_packed(&self, cage: usize, st: &mut LevelMut<'_>, work: &mut Work) -> bool {
        let info = &self.cages[cage];
        let cells = self.cells_of(info);
        let live = &st.live[info.words..info.words + info.nwords];
        let (mut union, mut forced) = (0u64, u64::MAX);
        for (wi, &word) in live.iter().enumerate() {
            for b in bits::ones(word) {
                let k = info.packed + wi * 64 + b;
                union |= self.packed[k];
                forced &= self.packed_parts[k];
            }
        }
        for (i, &c) in cells.iter().enumerate() {
            let c = c as usize;
            let keep = st.cand[c] & (union >> (16 * i)) as u16;
            if keep != st.cand[c] {
                st.cand[c] = keep;
                work.push_cell(c);
                work.houses |= self.cell_houses[c];
            }
        }
        let parts = &self.parts[info.parts..info.parts + info.nparts];
        for (i, part) in parts.iter().enumerate() {
            let mut digits = (forced >> (16 * i)) as u16;
            while digits != 0 {
                let d = digits & digits.wrapping_neg();
                digits ^= d;
                if !self.point(part.house, cage, d, st.cand, work) {
                    return false;
                }
            }
        }
        true
    }

    /// Hidden singles and "every digit has a place" in every house where a cell
    /// changed since the last look. False on a contradiction; placements are queued
    /// as cell changes.
    #[inline]
    fn hidden_singles(&self, st: &mut LevelMut<'_>, work: &mut Work) -> bool {
        let cand = &mut *st.cand;
        while work.houses != 0 {
            let h = work.houses.trailing_zeros() as usize;
            work.houses &= work.houses - 1;
            // A pass over the house, and one more per cage part in it (claiming).
            work.units += (self.n * (1 + self.parts_in(h).len())) as u64;
            let house = &self.houses[h * self.n..(h + 1) * self.n];
            let (mut once, mut twice, mut fixed) = (0u16, 0u16, 0u16);
            for &c in house {
                let x = cand[c as usize];
                twice |= once & x;
                once |= x;
                if x & x.wrapping_sub(1) == 0 {
                    fixed |= x;
                }
            }
            if once != self.full {
                work.culprit = Culprit::House(h);
                return false;
            }
            let mut singles = once & !twice & !fixed;
            while singles != 0 {
                let d = singles & singles.wrapping_neg();
                singles ^= d;
                // If two hidden singles share a cell the second finds no cell here;
                // the next pass reports the digit as missing.
                if let Some(&c) = house.iter().find(|&&c| cand[c as usize] & d != 0) {
                    restrict(self, cand, work, c as usize, d);
                }
            }
            // Claiming: a digit whose places in the house all lie in one cage
            // must be put there by that cage's combination.
            for &pi in self.parts_in(h) {
                let part = &self.parts[pi as usize];
                if st.live_count[part.cage] <= 1 {
                    // A settled cage has nothing left to choose.
                    continue;
                }
                let info = &self.cages[part.cage];
                let mut outside = 0;
                for &c in house {
                    if self.cell_cage[c as usize] as usize != part.cage {
                        outside |= cand[c as usize];
                    }
                }
                let claimed = once & !outside;
                if claimed == 0 {
                    continue;
                }
                let pos = &self.part_pos[part.pos..part.pos + part.len];
                let nw = info.nwords;
                let live = &mut st.live[info.words..info.words + nw];
                let masks = &self.masks[info.masks..];
                let mut changed = false;
                for d in bits::ones(u64::from(claimed)) {
                    for (w, l) in live.iter_mut().enumerate() {
                        let mut covered = 0;
                        for &p in pos {
                            covered |= masks[(p as usize * self.n + d) * nw + w];
                        }
                        changed |= *l & !covered != 0;
                        *l &= covered;
                    }
                }
                if changed {
                    work.stale[part.cage] = true;
                    work.push_cage(part.cage);
                }
            }
        }
        true
    }

    /// Propagates queued changes to a fixed point, or until [`PAUSE_UNITS`] of work
    /// have been done (the queues then hold the rest: calling again goes on where
    /// it stopped). On a contradiction the queues are left dirty; the caller
    /// clears them.
    pub(super) fn propagate(&self, st: &mut LevelMut<'_>, work: &mut Work) -> Flow {
        loop {
            while let Some(cell) = work.cells.pop() {
                let cell = cell as usize;
                work.cell_queued[cell] = false;
                // A naked single clears its digit from its houses.
                work.units += 1 + 2 * self.n as u64;
                if work.pend[cell] != 0 {
                    work.push_cage(self.cell_cage[cell] as usize);
                }
                let c = st.cand[cell];
                if c & (c - 1) == 0 {
                    // Naked single: a changed cell that is down to one digit is
                    // placed now; it cannot change again without emptying.
                    let peers = self.peers_of(cell);
                    // The peers that still have the digit, in order (a mask first:
                    // whether a cell has it is the data's whim, and a branch on it
                    // is mostly mispredicted).
                    let mut hit = 0u64;
                    for (i, &p) in peers.iter().enumerate() {
                        hit |= u64::from(st.cand[p as usize] & c != 0) << i;
                    }
                    while hit != 0 {
                        let p = peers[hit.trailing_zeros() as usize] as usize;
                        hit &= hit - 1;
                        if !narrow(self, st.cand, work, p, !c) {
                            return Flow::Contradiction;
                        }
                    }
                }
            }
            if let Some(cage) = work.cages.pop() {
                work.cage_queued[cage as usize] = false;
                if !self.revise(cage as usize, st, work) {
                    return Flow::Contradiction;
                }
                if work.units >= PAUSE_UNITS {
                    return Flow::Paused;
                }
                continue;
            }
            if work.houses == 0 {
                return Flow::Fixed;
            }
            if !self.hidden_singles(st, work) {
                return Flow::Contradiction;
            }
            if work.units >= PAUSE_UNITS {
                return Flow::Paused;
            }
        }
    }
}

/// Narrows `cand[cell]` to `mask`, queueing the cell (and noting the removed digits
/// for its cage) if it changed. False when no candidate is left.
#[inline(always)]
pub(super) fn restrict(
    lay: &FlatPuzzle,
    cand: &mut [u16],
    work: &mut Work,
    cell: usize,
    mask: u16,
) -> bool {
    // Most calls (a placed digit swept from its peers) change nothing.
    if cand[cell] & !mask == 0 {
        return true;
    }
    narrow(lay, cand, work, cell, mask)
}

/// The changing half of [`restrict`], kept out of line.
#[inline(never)]
fn narrow(lay: &FlatPuzzle, cand: &mut [u16], work: &mut Work, cell: usize, mask: u16) -> bool {
    let old = cand[cell];
    let new = old & mask;
    if new == 0 {
        work.culprit = Culprit::Cage(lay.cell_cage[cell] as usize);
        return false;
    }
    cand[cell] = new;
    work.pend[cell] |= old & !mask;
    work.houses |= lay.cell_houses[cell];
    work.push_cell(cell);
    true
}

/// How a propagation call ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Flow {
    /// At a fixed point.
    Fixed,
    Contradiction,
    /// Not done yet: [`PAUSE_UNITS`] of work were done (see [`FlatPuzzle::propagate`]).
    Paused,
}

/// Work units a propagation does before it pauses for the budget to be looked at:
/// a node of a puzzle with huge tables can take a long time, and a deadline must
/// hold within it. Small puzzles never come near (a 9×9 Tatham node does a few
/// thousand).
const PAUSE_UNITS: u64 = 1 << 16;

/// [`FlatPuzzle::revise`] reads the live combinations one by one (rather than through
/// the digit masks) when there are at most this many per word of its bitset.
const SPARSE_PER_WORD: usize = 4;

/// What a failed propagation ran into, for the branching heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Culprit {
    #[default]
    None,
    /// A cage lost its last combination, or one of its cells its last digit.
    Cage(usize),
    /// A house has no place left for some digit.
    House(usize),
}

/// Propagation queues. Shared by all levels: they are empty between propagations.
#[derive(Default)]
pub(super) struct Work {
    pub(super) culprit: Culprit,
    /// Scratch for [`FlatPuzzle::settle_sparse`]: digits per cage cell, and digits
    /// forced per cage part.
    pub(super) union: Vec<u16>,
    pub(super) forced: Vec<u16>,
    pub(super) cells: Vec<u16>,
    pub(super) cell_queued: Vec<bool>,
    pub(super) cages: Vec<u32>,
    pub(super) cage_queued: Vec<bool>,
    /// Per cell, digits removed since its cage was last revised.
    pub(super) pend: Vec<u16>,
    /// Per cage, combinations struck off outside [`FlatPuzzle::revise`] (by claiming),
    /// or never looked at (at the root): the next revision must narrow its cells
    /// and point even if no candidate was removed.
    pub(super) stale: Vec<bool>,
    /// Houses with a cell changed since their last hidden-single check.
    pub(super) houses: u64,
    /// Work done since the search last spent it on its budget: the words of
    /// combinations revised, the cells of the houses looked at and of the houses
    /// a placed digit is cleared from.
    pub(super) units: u64,
}

impl Work {
    #[inline]
    fn push_cell(&mut self, cell: usize) {
        if !self.cell_queued[cell] {
            self.cell_queued[cell] = true;
            self.cells.push(cell as u16);
        }
    }

    #[inline]
    pub(super) fn push_cage(&mut self, cage: usize) {
        if !self.cage_queued[cage] {
            self.cage_queued[cage] = true;
            self.cages.push(cage as u32);
        }
    }

    /// Empty queues for a flat puzzle (keeping the vectors' memory).
    pub(super) fn reset(&mut self, lay: &FlatPuzzle) {
        let (ncells, ncages) = (lay.ncells, lay.cages.len());
        self.culprit = Culprit::None;
        let width = lay.cages.iter().map(|i| i.width).max().unwrap_or(0);
        let nparts = lay.cages.iter().map(|i| i.nparts).max().unwrap_or(0);
        refill(&mut self.union, width, 0);
        refill(&mut self.forced, nparts, 0);
        self.cells.clear();
        self.cells.reserve(ncells);
        refill(&mut self.cell_queued, ncells, false);
        self.cages.clear();
        self.cages.reserve(ncages);
        refill(&mut self.cage_queued, ncages, false);
        refill(&mut self.pend, ncells, 0);
        refill(&mut self.stale, ncages, false);
        self.houses = 0;
        self.units = 0;
    }

    pub(super) fn clear(&mut self) {
        for c in self.cells.drain(..) {
            self.cell_queued[c as usize] = false;
        }
        for g in self.cages.drain(..) {
            self.cage_queued[g as usize] = false;
        }
        self.pend.fill(0);
        self.stale.fill(false);
        self.houses = 0;
    }
}

/// One level's state, borrowed mutably.
pub(super) struct LevelMut<'a> {
    pub(super) cand: &'a mut [u16],
    pub(super) live: &'a mut [u64],
    pub(super) live_count: &'a mut [u32],
}
