//! The search itself: the puzzle flattened into index-based vectors, and a
//! backtracking search over per-level copies of a small state.
//!
//! Everything is plain integers in flat vectors (cells as `u16`, digit sets as raw
//! `u16` masks, live combinations as `u64` words) because the inner loops run
//! millions of times on hard puzzles and must not chase pointers or allocate.

use crate::SearchTable;
use bitvec::field::BitField;
use kenken_model::{bits, Budget, Combinations, Digit, Digits, Exhausted, Puzzle};
use std::borrow::Borrow;

/// Where a cage's data lives in the flat vectors of [`FlatPuzzle`].
#[derive(Clone, Copy, Debug)]
struct CageInfo {
    /// Start of the cage's cells in `FlatPuzzle::cage_cells`.
    cells: usize,
    /// Number of cells (the width of every combination).
    width: usize,
    /// Start of the cage's combinations in `FlatPuzzle::combo_bits`.
    combos: usize,
    /// Number of combinations.
    count: usize,
    /// Start of the cage's live bitset in a level's live words.
    words: usize,
    /// Number of live words (`ceil(combinations / 64)`).
    nwords: usize,
    /// Start of the cage's digit masks in `FlatPuzzle::masks`: for cage position `pos`
    /// and digit `d`, `nwords` words at `masks + (pos * n + d - 1) * nwords` mark
    /// the combinations that put `d` there.
    masks: usize,
    /// The cage's parts (range of `FlatPuzzle::parts`).
    parts: usize,
    nparts: usize,
    /// Start of the cage's combinations in `FlatPuzzle::packed` and
    /// `FlatPuzzle::packed_parts`, when it has at most [`PACKED`] cells and parts
    /// (`usize::MAX` otherwise).
    packed: usize,
}

/// Cages of at most this many cells and parts have each combination packed in
/// one word: a 16-bit lane per cell (or part).
pub(crate) const PACKED: usize = 4;

/// Writes a cage's digit masks from its combinations (`width` digit bits each,
/// `count` of them): for cage position `pos` and digit `d`, the `nw` words at
/// `(pos * n + d) * nw` of `masks` (zeroed) mark the combinations that put `d`
/// there. When `packed` is given (a cage of at most [`PACKED`] cells), each
/// combination's digit bits also go in one word there, lane `i` for cell `i`.
/// The deadline of `budget` is looked at every [`BLOCK`] combinations.
pub(crate) fn encode(
    combos: &[u16],
    width: usize,
    n: usize,
    masks: &mut [u64],
    packed: Option<&mut [u64]>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let count = combos.len() / width.max(1);
    let nw = count.div_ceil(64);
    // Fixed widths for the usual cage sizes, so that a row is a few moves.
    match (width, packed) {
        (1, Some(packed)) => encode_packed::<1>(combos, n, nw, masks, packed, budget),
        (2, Some(packed)) => encode_packed::<2>(combos, n, nw, masks, packed, budget),
        (3, Some(packed)) => encode_packed::<3>(combos, n, nw, masks, packed, budget),
        (4, Some(packed)) => encode_packed::<4>(combos, n, nw, masks, packed, budget),
        _ => {
            for (k, combo) in combos.chunks_exact(width.max(1)).enumerate() {
                if k % BLOCK == BLOCK - 1 {
                    budget.check()?;
                }
                let (w, bit) = (k / 64, 1u64 << (k % 64));
                for (pos, &b) in combo.iter().enumerate() {
                    let d = b.trailing_zeros() as usize;
                    masks[(pos * n + d) * nw + w] |= bit;
                }
            }
            Ok(())
        }
    }
}

/// Combinations (or table rows) worked through between two looks at a budget
/// while a flat puzzle is built: a huge table must not hold a deadline up.
const BLOCK: usize = 4096;

/// [`encode`] for a cage of `W` cells, packed.
fn encode_packed<const W: usize>(
    combos: &[u16],
    n: usize,
    nw: usize,
    masks: &mut [u64],
    packed: &mut [u64],
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    for (k, (combo, word)) in combos.chunks_exact(W).zip(packed).enumerate() {
        if k % BLOCK == BLOCK - 1 {
            budget.check()?;
        }
        let combo: &[u16; W] = combo.try_into().expect("rows have the cage's width");
        let (w, bit) = (k / 64, 1u64 << (k % 64));
        let mut cells = 0u64;
        for (pos, &b) in combo.iter().enumerate() {
            let d = b.trailing_zeros() as usize;
            masks[(pos * n + d) * nw + w] |= bit;
            cells |= u64::from(b) << (16 * pos);
        }
        *word = cells;
    }
    Ok(())
}

/// Per packed combination, the digits it puts in each of the cage's parts (lane
/// `i` for part `i`, whose cage positions are the bits of `part_pos[i]`; unused
/// lanes all ones).
fn pack_parts(packed: &[u64], part_pos: &[u8], out: &mut [u64]) {
    // Per part, the lanes of its positions.
    let mut lanes = [0u64; PACKED];
    for (lane, &positions) in lanes.iter_mut().zip(part_pos) {
        for p in bits::ones(u64::from(positions)) {
            *lane |= 0xFFFF << (16 * p);
        }
    }
    let lanes = &lanes[..part_pos.len()];
    for (&cells, out) in packed.iter().zip(out) {
        let mut in_parts = u64::MAX;
        for (i, &lane) in lanes.iter().enumerate() {
            let x = cells & lane;
            let here = (x | x >> 16 | x >> 32 | x >> 48) & 0xFFFF;
            in_parts &= !(0xFFFF << (16 * i)) | here << (16 * i);
        }
        *out = in_parts;
    }
}

/// The cells of a cage that lie in one house, when there are at least two (one
/// cell is the naked single's business).
#[derive(Clone, Copy, Debug)]
struct Part {
    cage: usize,
    /// Index of the house in `FlatPuzzle::houses` (in units of `n` cells).
    house: usize,
    /// Range of cage positions in `FlatPuzzle::part_pos`.
    pos: usize,
    len: usize,
}

/// The puzzle, flattened for the search. Immutable while searching.
///
/// A thread keeps its last flat puzzle (see [`Buffers`]) and fills it again for the
/// next puzzle: the vectors keep their memory, and the houses are kept as they are
/// when the grid has the same size and boxes.
#[derive(Default)]
pub(super) struct FlatPuzzle {
    n: usize,
    ncells: usize,
    /// All digits 1..=N as a mask.
    full: u16,
    /// The grid the houses were built for: its size and boxes.
    shape: Option<(usize, Option<(usize, usize)>)>,
    /// The cage of every cell.
    cell_cage: Vec<u32>,
    /// Houses (rows, columns, boxes), `n` cells each.
    houses: Vec<u16>,
    /// Per cell, its houses as bits (at most 48 houses: 3 × 16).
    cell_houses: Vec<u64>,
    /// Per cell, the other cells of its houses, each once, in the order of its
    /// houses and of their cells (at most 2 × 15 + 9 = 39): those of cell `c` are
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    cages: Vec<CageInfo>,
    cage_cells: Vec<u16>,
    parts: Vec<Part>,
    part_pos: Vec<u16>,
    /// Per house, the parts (indices into `parts`) lying in it: those of house `h`
    /// are `house_parts[house_part_start[h]..house_part_start[h + 1]]`.
    house_part_start: Vec<u32>,
    house_parts: Vec<u32>,
    /// Per usable combination, one single-bit digit mask per cage cell. Only the
    /// combinations that were live in the caller's tables (and whose digits fit the
    /// grid) are copied, so the search never looks at dead ones.
    combo_bits: Vec<u16>,
    /// Per cage, position and digit, the combinations using that digit there (see
    /// [`CageInfo::masks`]). Striking a removed candidate's combinations off is then
    /// a few word operations, whatever the number of combinations.
    masks: Vec<u64>,
    /// Per combination of a small cage (see [`CageInfo::packed`]), its digit bits
    /// in one word, lane `i` for its `i`-th cell; and the digits it puts in each of
    /// the cage's parts, lane `i` for its `i`-th part (unused lanes all ones).
    packed: Vec<u64>,
    packed_parts: Vec<u64>,
    /// Live words per search level (all cages).
    total_words: usize,
}

impl FlatPuzzle {
    /// Flattens `puzzle` with the live combinations of `tables` into this flat puzzle
    /// (whatever it held before), reserving its bytes on `budget` first (they stay
    /// reserved while the search runs).
    ///
    /// Panics when `tables` does not match the puzzle's cages (see
    /// [`super::count_solutions_with`]).
    pub(super) fn fill(
        &mut self,
        puzzle: &Puzzle,
        tables: &[impl Borrow<Combinations>],
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        assert_eq!(
            tables.len(),
            puzzle.cages().len(),
            "one combination table per cage is required"
        );
        let tables = tables.iter().map(Borrow::borrow);
        let n = puzzle.size().get();
        Self::reserve(n, tables.clone().map(|t| (t.len(), t.width())), budget)?;
        let total = tables.clone().map(|t| t.len() * t.width()).sum();
        self.skeleton(puzzle, total);
        for (g, table) in tables.enumerate() {
            assert_eq!(
                table.width(),
                self.cages[g].width,
                "combination table {g} does not have its cage's width"
            );
            // Fixed widths for the usual cage sizes, so that a row is a few moves.
            let out = &mut self.combo_bits;
            let count = match table.width() {
                1 => copy_live_rows::<1>(table, n, out, budget),
                2 => copy_live_rows::<2>(table, n, out, budget),
                3 => copy_live_rows::<3>(table, n, out, budget),
                4 => copy_live_rows::<4>(table, n, out, budget),
                5 => copy_live_rows::<5>(table, n, out, budget),
                6 => copy_live_rows::<6>(table, n, out, budget),
                _ => copy_live_rows::<0>(table, n, out, budget),
            }?;
            self.set_count(g, count);
        }
        self.finish(None, budget)
    }

    /// [`FlatPuzzle::fill`] from tables already in the search's form: their rows,
    /// masks and packed words are copied instead of worked out.
    ///
    /// Panics when `tables` does not match the puzzle's cages (see
    /// [`super::count_solutions_prepared`]).
    pub(super) fn fill_prepared(
        &mut self,
        puzzle: &Puzzle,
        tables: &[&SearchTable],
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        assert_eq!(
            tables.len(),
            puzzle.cages().len(),
            "one combination table per cage is required"
        );
        let n = puzzle.size().get();
        Self::reserve(n, tables.iter().map(|t| (t.len(), t.width())), budget)?;
        let total = tables.iter().map(|t| t.combos.len()).sum();
        self.skeleton(puzzle, total);
        for (g, table) in tables.iter().enumerate() {
            assert!(
                table.width() == self.cages[g].width && table.n == n,
                "table {g} was not made for a cage of this width on this grid"
            );
            budget.spend(table.combos.len() as u64)?;
            self.combo_bits.extend_from_slice(&table.combos);
            self.set_count(g, table.len());
        }
        self.finish(Some(tables), budget)
    }

    /// Reserves the bytes of a flat puzzle for tables of these (length, width) on
    /// `budget`. (The work, a unit per digit and mask word, is spent as the
    /// flat puzzle is filled, so that the deadline is looked at on the way.)
    fn reserve(
        n: usize,
        tables: impl Iterator<Item = (usize, usize)> + Clone,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let total: usize = tables.clone().map(|(len, width)| len * width).sum();
        // A digit bit per cell of each combination, and per cage cell and digit a
        // bit per combination.
        let masks: usize = tables
            .map(|(len, width)| width * n * len.div_ceil(64))
            .sum();
        budget.reserve(2 * total + 8 * masks)
    }

    /// Everything but the combinations.
    fn skeleton(&mut self, puzzle: &Puzzle, combo_capacity: usize) {
        let size = puzzle.size();
        let n = size.get();
        let ncells = size.cell_count();
        let cages = puzzle.cages();
        let boxes = puzzle.boxes();
        let nhouses = if boxes.is_some() { 3 * n } else { 2 * n };
        self.n = n;
        self.ncells = ncells;
        self.full = Digits::full(n).bits();

        // Houses: rows, columns, then boxes, n cells each.
        if self.shape != Some((n, boxes)) {
            self.shape = Some((n, boxes));
            let houses = &mut self.houses;
            let cell_houses = &mut self.cell_houses;
            houses.clear();
            houses.resize(nhouses * n, 0);
            cell_houses.clear();
            cell_houses.resize(ncells, 0);
            for r in 0..n {
                for c in 0..n {
                    let cell = r * n + c;
                    houses[r * n + c] = cell as u16;
                    houses[(n + c) * n + r] = cell as u16;
                    cell_houses[cell] = 1 << r | 1 << (n + c);
                }
            }
            if let Some((br, bc)) = boxes {
                for b in 0..n {
                    let (r0, c0) = (b / (n / bc) * br, b % (n / bc) * bc);
                    for i in 0..n {
                        let cell = (r0 + i / bc) * n + c0 + i % bc;
                        houses[(2 * n + b) * n + i] = cell as u16;
                        cell_houses[cell] |= 1 << (2 * n + b);
                    }
                }
            }
            self.peer_start.clear();
            self.peers.clear();
            for cell in 0..ncells {
                self.peer_start.push(self.peers.len() as u32);
                let first = self.peers.len();
                for h in bits::ones(self.cell_houses[cell]) {
                    for &p in &self.houses[h * n..(h + 1) * n] {
                        if p as usize != cell && !self.peers[first..].contains(&p) {
                            self.peers.push(p);
                        }
                    }
                }
            }
            self.peer_start.push(self.peers.len() as u32);
        }

        let cell_houses = &self.cell_houses;
        self.cell_cage.clear();
        self.cell_cage.resize(ncells, 0);
        self.cages.clear();
        self.cages.reserve(cages.len());
        self.cage_cells.clear();
        self.parts.clear();
        self.part_pos.clear();
        let (parts, part_pos) = (&mut self.parts, &mut self.part_pos);
        for (g, cage) in cages.iter().enumerate() {
            // Group the cage's positions by house: each house once, in the order
            // its first cage cell comes.
            let first_part = parts.len();
            let mut seen = 0u64;
            for &cell in &cage.cells {
                let hs = cell_houses[cell.index()] & !seen;
                seen |= hs;
                for h in bits::ones(hs) {
                    let pos = part_pos.len();
                    for (p, &c) in cage.cells.iter().enumerate() {
                        if cell_houses[c.index()] >> h & 1 != 0 {
                            part_pos.push(p as u16);
                        }
                    }
                    let len = part_pos.len() - pos;
                    if len >= 2 {
                        parts.push(Part {
                            cage: g,
                            house: h,
                            pos,
                            len,
                        });
                    } else {
                        part_pos.truncate(pos);
                    }
                }
            }
            self.cages.push(CageInfo {
                cells: self.cage_cells.len(),
                width: cage.cells.len(),
                combos: 0,
                count: 0,
                words: 0,
                nwords: 0,
                masks: 0,
                parts: first_part,
                nparts: parts.len() - first_part,
                packed: usize::MAX,
            });
            for &cell in &cage.cells {
                self.cell_cage[cell.index()] = g as u32;
                self.cage_cells.push(cell.index() as u16);
            }
        }

        // The parts by house, in the order of `parts` within each house.
        let start = &mut self.house_part_start;
        start.clear();
        start.resize(nhouses + 1, 0);
        for part in parts.iter() {
            start[part.house + 1] += 1;
        }
        for h in 0..nhouses {
            start[h + 1] += start[h];
        }
        self.house_parts.clear();
        self.house_parts.resize(parts.len(), 0);
        for (i, part) in parts.iter().enumerate() {
            let at = &mut start[part.house];
            self.house_parts[*at as usize] = i as u32;
            *at += 1;
        }
        // Each start moved to the next house's: shift back.
        for h in (0..nhouses).rev() {
            start[h + 1] = start[h];
        }
        start[0] = 0;

        self.combo_bits.clear();
        self.combo_bits.reserve(combo_capacity);
        self.total_words = 0;
    }

    /// Records that cage `g`'s `count` combinations were just appended (cages are
    /// filled in order).
    fn set_count(&mut self, g: usize, count: usize) {
        let width = self.cages[g].width;
        let info = &mut self.cages[g];
        info.combos = self.combo_bits.len() - count * width;
        info.count = count;
        info.nwords = count.div_ceil(64);
        info.words = self.total_words;
        self.total_words += info.nwords;
    }

    /// Builds the per-digit masks from the combinations, and packs the small
    /// cages' combinations; with `tables`, copies them from there instead.
    fn finish(
        &mut self,
        tables: Option<&[&SearchTable]>,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let n = self.n;
        let (mut total, mut packed) = (0, 0);
        for info in &self.cages {
            total += info.width * n * info.nwords;
            if info.width <= PACKED && info.nparts <= PACKED {
                packed += info.count;
            }
        }
        refill(&mut self.masks, total, 0);
        refill(&mut self.packed, packed, 0);
        refill(&mut self.packed_parts, packed, 0);
        let (mut at, mut packed_at) = (0, 0);
        for (g, info) in self.cages.iter_mut().enumerate() {
            info.masks = at;
            let (width, nw, count) = (info.width, info.nwords, info.count);
            let masks = &mut self.masks[at..at + width * n * nw];
            at += width * n * nw;
            let small = width <= PACKED && info.nparts <= PACKED;
            let packed = small.then(|| &mut self.packed[packed_at..packed_at + count]);
            budget.spend(masks.len() as u64)?;
            match tables {
                Some(tables) => {
                    masks.copy_from_slice(&tables[g].masks);
                    if let Some(packed) = packed {
                        packed.copy_from_slice(&tables[g].packed);
                    }
                }
                None => {
                    let combos = &self.combo_bits[info.combos..info.combos + count * width];
                    encode(combos, width, n, masks, packed, budget)?;
                }
            }
            if !small {
                continue;
            }
            info.packed = packed_at;
            // Each part's cage positions as bits.
            let mut part_pos = [0u8; PACKED];
            let parts = &self.parts[info.parts..info.parts + info.nparts];
            for (positions, part) in part_pos.iter_mut().zip(parts) {
                for &p in &self.part_pos[part.pos..part.pos + part.len] {
                    *positions |= 1 << p;
                }
            }
            let range = packed_at..packed_at + count;
            pack_parts(
                &self.packed[range.clone()],
                &part_pos[..info.nparts],
                &mut self.packed_parts[range],
            );
            packed_at += count;
        }
        Ok(())
    }

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

    /// The other cells of the houses of `cell` (see [`FlatPuzzle::peers`]).
    #[inline]
    fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The parts lying in house `h`.
    #[inline]
    fn parts_in(&self, h: usize) -> &[u32] {
        &self.house_parts[self.house_part_start[h] as usize..self.house_part_start[h + 1] as usize]
    }

    /// The bytes its vectors hold.
    fn capacity_bytes(&self) -> usize {
        use std::mem::size_of;
        4 * self.cell_cage.capacity()
            + 2 * self.houses.capacity()
            + 8 * self.cell_houses.capacity()
            + 4 * self.peer_start.capacity()
            + 2 * self.peers.capacity()
            + size_of::<CageInfo>() * self.cages.capacity()
            + 2 * self.cage_cells.capacity()
            + size_of::<Part>() * self.parts.capacity()
            + 2 * self.part_pos.capacity()
            + 4 * (self.house_part_start.capacity() + self.house_parts.capacity())
            + 2 * self.combo_bits.capacity()
            + 8 * (self.masks.capacity() + self.packed.capacity() + self.packed_parts.capacity())
    }

    #[inline]
    fn cells_of(&self, info: &CageInfo) -> &[u16] {
        &self.cage_cells[info.cells..info.cells + info.width]
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
    fn propagate(&self, st: &mut LevelMut<'_>, work: &mut Work) -> Flow {
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

/// Appends the live rows of `table` to `out` as digit bits, dropping the rows with
/// a digit outside 1..=`n` (it could never be placed); returns how many it copied.
/// `W` is the table's width, or 0 for any width. Spends a unit per digit of the
/// table's rows, live or not, on `budget`, [`BLOCK`] rows at a time.
fn copy_live_rows<const W: usize>(
    table: &Combinations,
    n: usize,
    out: &mut Vec<u16>,
    budget: &mut Budget,
) -> Result<usize, Exhausted> {
    let bit = |d: Digit, outside: &mut bool| {
        let k = d.wrapping_sub(1);
        *outside |= k as usize >= n;
        1u16 << (k & 15)
    };
    let mut count = 0;
    let mut copy = |row: &[Digit]| {
        let mut outside = false;
        if W == 0 {
            let start = out.len();
            out.extend(row.iter().map(|&d| bit(d, &mut outside)));
            if outside {
                out.truncate(start);
                return;
            }
        } else {
            let row: &[Digit; W] = row.try_into().expect("rows have the table's width");
            let digit_bits = row.map(|d| bit(d, &mut outside));
            if outside {
                return;
            }
            out.extend_from_slice(&digit_bits);
        }
        count += 1;
    };
    let live = &table.live;
    if live.as_bitptr().bit().into_inner() == 0 {
        // The live set's own words (a table's bits start a word unless it was
        // made from a slice of another's), the last one cut at the table's end.
        let len = table.len();
        for (w, &word) in live.as_raw_slice().iter().enumerate() {
            spend_rows(w, len, table.width(), budget)?;
            for b in bits::ones(word & bits::tail_mask(len, w)) {
                copy(table.row(w * 64 + b));
            }
        }
    } else {
        let len = table.len();
        for (w, chunk) in live.chunks(64).enumerate() {
            spend_rows(w, len, table.width(), budget)?;
            for b in bits::ones(chunk.load_le()) {
                copy(table.row(w * 64 + b));
            }
        }
    }
    Ok(count)
}

/// At the start of every [`BLOCK`] rows of a table of `len` rows (word `w` of its
/// live bits), spends their digits.
fn spend_rows(w: usize, len: usize, width: usize, budget: &mut Budget) -> Result<(), Exhausted> {
    let row = w * 64;
    if row.is_multiple_of(BLOCK) {
        budget.spend((BLOCK.min(len - row) * width) as u64)?;
    }
    Ok(())
}

/// Narrows `cand[cell]` to `mask`, queueing the cell (and noting the removed digits
/// for its cage) if it changed. False when no candidate is left.
#[inline(always)]
fn restrict(lay: &FlatPuzzle, cand: &mut [u16], work: &mut Work, cell: usize, mask: u16) -> bool {
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
enum Flow {
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
enum Culprit {
    #[default]
    None,
    /// A cage lost its last combination, or one of its cells its last digit.
    Cage(usize),
    /// A house has no place left for some digit.
    House(usize),
}

/// Propagation queues. Shared by all levels: they are empty between propagations.
#[derive(Default)]
struct Work {
    culprit: Culprit,
    /// Scratch for [`FlatPuzzle::settle_sparse`]: digits per cage cell, and digits
    /// forced per cage part.
    union: Vec<u16>,
    forced: Vec<u16>,
    cells: Vec<u16>,
    cell_queued: Vec<bool>,
    cages: Vec<u32>,
    cage_queued: Vec<bool>,
    /// Per cell, digits removed since its cage was last revised.
    pend: Vec<u16>,
    /// Per cage, combinations struck off outside [`FlatPuzzle::revise`] (by claiming),
    /// or never looked at (at the root): the next revision must narrow its cells
    /// and point even if no candidate was removed.
    stale: Vec<bool>,
    /// Houses with a cell changed since their last hidden-single check.
    houses: u64,
    /// Work done since the search last spent it on its budget: the words of
    /// combinations revised, the cells of the houses looked at and of the houses
    /// a placed digit is cleared from.
    units: u64,
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
    fn push_cage(&mut self, cage: usize) {
        if !self.cage_queued[cage] {
            self.cage_queued[cage] = true;
            self.cages.push(cage as u32);
        }
    }

    /// Empty queues for a flat puzzle (keeping the vectors' memory).
    fn reset(&mut self, lay: &FlatPuzzle) {
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

    fn clear(&mut self) {
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

/// Sets `v` to `len` copies of `value`, in the memory it already has when that is
/// enough.
fn refill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// One level's state, borrowed mutably.
struct LevelMut<'a> {
    cand: &'a mut [u16],
    live: &'a mut [u64],
    live_count: &'a mut [u32],
}

/// The vectors of a search, kept by a thread from one puzzle to the next (see
/// [`Buffers`]).
#[derive(Default)]
pub(super) struct SearchBuffers {
    cand: Vec<u16>,
    live: Vec<u64>,
    live_count: Vec<u32>,
    weight: Vec<u32>,
    work: Work,
}

impl SearchBuffers {
    fn capacity_bytes(&self) -> usize {
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

/// Everything a search allocates: a flat puzzle and the search's vectors. A thread
/// keeps one set between searches (see `count_solutions_within`), so a batch of
/// small puzzles allocates almost nothing per puzzle.
#[derive(Default)]
pub(super) struct Buffers {
    pub flat: FlatPuzzle,
    pub search: SearchBuffers,
}

impl Buffers {
    /// Kept for the next search only up to this many bytes, so that one large
    /// puzzle does not leave its memory with the thread.
    pub const KEEP: usize = 1 << 20;

    /// The bytes its vectors hold.
    pub fn capacity_bytes(&self) -> usize {
        self.flat.capacity_bytes() + self.search.capacity_bytes()
    }
}

/// A backtracking search over one [`FlatPuzzle`].
pub(super) struct Search<'a, 'b> {
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
pub(super) struct Results {
    pub solutions: usize,
    pub first: Option<Vec<Digit>>,
    pub nodes: u64,
    pub stopped: Option<Exhausted>,
}

impl<'a, 'b> Search<'a, 'b> {
    /// A search over `lay` in the vectors of `spare` (taken; [`Search::finish`]
    /// gives them back).
    pub(super) fn new(
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
    pub(super) fn run(&mut self, candidates: Option<&[Digits]>) {
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
    pub(super) fn finish(self, spare: &mut SearchBuffers) -> Results {
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
