//! The [`FlatPuzzle`]: a puzzle and the live combinations of its cages flattened
//! into index-based vectors, built (and rebuilt in the same memory) before a
//! search.

use super::encoding::{encode, pack_parts, BLOCK, PACKED};
use super::refill;
use crate::SearchTable;
use kenken_model::{bits, Budget, Combinations, Digit, Digits, Exhausted, Puzzle};
use std::borrow::Borrow;

/// Where a cage's data lives in the flat vectors of [`FlatPuzzle`].
#[derive(Clone, Copy, Debug)]
pub(super) struct CageInfo {
    /// Start of the cage's cells in `FlatPuzzle::cage_cells`.
    cells: usize,
    /// Number of cells (the width of every combination).
    pub(super) width: usize,
    /// Start of the cage's combinations in `FlatPuzzle::combo_bits`.
    pub(super) combos: usize,
    /// Number of combinations.
    pub(super) count: usize,
    /// Start of the cage's live bitset in a level's live words.
    pub(super) words: usize,
    /// Number of live words (`ceil(combinations / 64)`).
    pub(super) nwords: usize,
    /// Start of the cage's digit masks in `FlatPuzzle::masks`: for cage position `pos`
    /// and digit `d`, `nwords` words at `masks + (pos * n + d - 1) * nwords` mark
    /// the combinations that put `d` there.
    pub(super) masks: usize,
    /// The cage's parts (range of `FlatPuzzle::parts`).
    pub(super) parts: usize,
    pub(super) nparts: usize,
    /// Start of the cage's combinations in `FlatPuzzle::packed` and
    /// `FlatPuzzle::packed_parts`, when it has at most [`PACKED`] cells and parts
    /// (`usize::MAX` otherwise).
    pub(super) packed: usize,
}

/// The cells of a cage that lie in one house, when there are at least two (one
/// cell is the naked single's business).
#[derive(Clone, Copy, Debug)]
pub(super) struct Part {
    pub(super) cage: usize,
    /// Index of the house in `FlatPuzzle::houses` (in units of `n` cells).
    pub(super) house: usize,
    /// Range of cage positions in `FlatPuzzle::part_pos`.
    pub(super) pos: usize,
    pub(super) len: usize,
}

/// The puzzle, flattened for the search. Immutable while searching.
///
/// A thread keeps its last flat puzzle (see [`Buffers`](super::Buffers)) and fills
/// it again for the next puzzle: the vectors keep their memory, and the houses are
/// kept as they are when the grid has the same size and boxes.
#[derive(Default)]
pub(crate) struct FlatPuzzle {
    pub(super) n: usize,
    pub(super) ncells: usize,
    /// All digits 1..=N as a mask.
    pub(super) full: u16,
    /// The grid the houses were built for: its size and boxes.
    shape: Option<(usize, Option<(usize, usize)>)>,
    /// The cage of every cell.
    pub(super) cell_cage: Vec<u32>,
    /// Houses (rows, columns, boxes), `n` cells each.
    pub(super) houses: Vec<u16>,
    /// Per cell, its houses as bits (at most 48 houses: 3 × 16).
    pub(super) cell_houses: Vec<u64>,
    /// Per cell, the other cells of its houses, each once, in the order of its
    /// houses and of their cells (at most 2 × 15 + 9 = 39): those of cell `c` are
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    pub(super) cages: Vec<CageInfo>,
    cage_cells: Vec<u16>,
    pub(super) parts: Vec<Part>,
    pub(super) part_pos: Vec<u16>,
    /// Per house, the parts (indices into `parts`) lying in it: those of house `h`
    /// are `house_parts[house_part_start[h]..house_part_start[h + 1]]`.
    house_part_start: Vec<u32>,
    house_parts: Vec<u32>,
    /// Per usable combination, one single-bit digit mask per cage cell. Only the
    /// combinations that were live in the caller's tables (and whose digits fit the
    /// grid) are copied, so the search never looks at dead ones.
    pub(super) combo_bits: Vec<u16>,
    /// Per cage, position and digit, the combinations using that digit there (see
    /// [`CageInfo::masks`]). Striking a removed candidate's combinations off is then
    /// a few word operations, whatever the number of combinations.
    pub(super) masks: Vec<u64>,
    /// Per combination of a small cage (see [`CageInfo::packed`]), its digit bits
    /// in one word, lane `i` for its `i`-th cell; and the digits it puts in each of
    /// the cage's parts, lane `i` for its `i`-th part (unused lanes all ones).
    pub(super) packed: Vec<u64>,
    pub(super) packed_parts: Vec<u64>,
    /// Live words per search level (all cages).
    pub(super) total_words: usize,
}

impl FlatPuzzle {
    /// Flattens `puzzle` with the live combinations of `tables` into this flat puzzle
    /// (whatever it held before), reserving its bytes on `budget` first (they stay
    /// reserved while the search runs).
    ///
    /// Panics when `tables` does not match the puzzle's cages (see
    /// [`crate::count_solutions_with`]).
    pub(crate) fn fill(
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
    /// [`crate::count_solutions_prepared`]).
    pub(crate) fn fill_prepared(
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

    /// The other cells of the houses of `cell` (see [`FlatPuzzle::peers`]).
    #[inline]
    pub(super) fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }

    /// The parts lying in house `h`.
    #[inline]
    pub(super) fn parts_in(&self, h: usize) -> &[u32] {
        &self.house_parts[self.house_part_start[h] as usize..self.house_part_start[h + 1] as usize]
    }

    /// The bytes its vectors hold.
    pub(super) fn capacity_bytes(&self) -> usize {
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
    pub(super) fn cells_of(&self, info: &CageInfo) -> &[u16] {
        &self.cage_cells[info.cells..info.cells + info.width]
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
    // The live set's words, the last one's bits past the table's end clear.
    let len = table.len();
    for (w, &word) in table.live.words().iter().enumerate() {
        spend_rows(w, len, table.width(), budget)?;
        for b in bits::ones(word) {
            copy(table.row(w * 64 + b));
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
