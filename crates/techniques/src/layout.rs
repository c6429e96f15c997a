//! What never changes while a puzzle is solved: cage cells, combination tables and
//! their line footprints, regions and the regions of each cell. Built once per
//! puzzle and shared by every [`State`](crate::State) of it.

use crate::geometry::Geometry;
use crate::table_cache::{self, CageTable};
use kenken_model::{
    Budget, CageId, CellId, Combinations, Digit, Exhausted, Limits, Puzzle, Region, RegionKind,
};
use std::sync::Arc;

/// Static, shared facts about a puzzle that the techniques look up in their loops.
#[derive(Debug)]
pub struct Layout {
    pub(crate) puzzle: Puzzle,
    pub(crate) n: usize,
    /// Initial combination tables, one per cage in clue order, with what depends on
    /// them alone (see [`CageTable`]; shared with other puzzles' layouts through the
    /// thread's table cache).
    pub(crate) tables: Vec<Arc<CageTable>>,
    /// (cage, position in the cage) of each cell.
    pub(crate) cell_cage: Vec<(CageId, usize)>,
    /// The regions and the regions of each cell (shared by every puzzle of the
    /// size on this thread).
    geometry: Arc<Geometry>,
    /// Words per footprint (see [`Layout::footprint`]).
    pub(crate) fp_words: usize,
    /// Every cage's combinations' footprints, `fp_words` each, cage after cage;
    /// cage `c`'s start at combination `footprint_at[c]`.
    footprints: Vec<u64>,
    footprint_at: Vec<usize>,
    /// Per cage, the bit set (`link_words` words) of the cages it can clash with (a
    /// cell of one sees a cell of the other).
    cage_links: Vec<u64>,
    /// Per cage, the regions holding its cells, as a bit set of region indices (at
    /// most 3 × 16 regions: one word).
    cage_regions: Vec<u64>,
    link_words: usize,
    /// Per cage, where its live-combination bits start in a state's flat bit
    /// store (in words; every cage starts on a word) and how many there are.
    live_at: Vec<(usize, usize)>,
    /// The state's initial live bits, in that store.
    initial_live: Vec<u64>,
}

/// The states of a puzzle alive at once that a layout answers for: the grader's
/// start and one per run, with one to spare (each holds a live bit per combination).
const STATES_PER_LAYOUT: usize = 4;

/// Footprints worked out between two charges to the budget.
const FOOTPRINT_BLOCK: usize = 4096;

impl Layout {
    /// Builds the layout, enumerating every cage's combinations, within the default
    /// [`Limits`].
    pub fn new(puzzle: &Puzzle) -> Result<Layout, Exhausted> {
        Layout::build(puzzle.clone(), &mut Budget::new(Limits::new()))
    }

    /// [`Layout::new`] keeping the puzzle itself instead of a copy, spending its
    /// work and reserving its bytes on `budget` (they stay reserved: the layout
    /// holds them, with room for the states of its runs).
    pub fn build(puzzle: Puzzle, budget: &mut Budget) -> Result<Layout, Exhausted> {
        let size = puzzle.size();
        let n = size.get();
        // Pushed one by one into a vector of the right size (collecting results
        // would grow it from nothing).
        let mut tables = Vec::with_capacity(puzzle.cages().len());
        for id in puzzle.cage_ids() {
            tables.push(table_cache::combinations(&puzzle, id, budget)?);
        }
        let mut cell_cage = vec![(CageId::new(0), 0); size.cell_count()];
        for id in puzzle.cage_ids() {
            for (pos, &cell) in puzzle.cage(id).cells.iter().enumerate() {
                cell_cage[cell.index()] = (id, pos);
            }
        }
        let geometry = Geometry::of(&puzzle);
        let (cell_regions, per_cell) = (&geometry.cell_regions, geometry.regions_per_cell);
        let fp_words = (geometry.regions.len() * n).div_ceil(64);
        let mut footprint_at = Vec::with_capacity(tables.len());
        let total: usize = tables.iter().map(|t| t.combos.len()).sum();
        // Footprints, the live store of each state, and the links between cages.
        let cages = puzzle.cages().len();
        budget.reserve(
            8 * total * fp_words
                + STATES_PER_LAYOUT * total.div_ceil(8)
                + 8 * cages * cages.div_ceil(64),
        )?;
        let mut footprints = vec![0u64; total * fp_words];
        let mut at = 0;
        for id in puzzle.cage_ids() {
            let table = &tables[id.index()].combos;
            let cells = &puzzle.cage(id).cells;
            footprint_at.push(at);
            if let Some(lines) = tables[id.index()]
                .lines
                .as_deref()
                .filter(|_| fp_words <= 2)
            {
                // Rows are regions 0..N and columns N..2N: the table's digits by
                // row and by column, shifted to the cage's place.
                let (r0, c0) = table_cache::line_origin(&puzzle, cells);
                let (rows_at, cols_at) = (r0 * n, (n + c0) * n);
                let fps = &mut footprints[at * fp_words..(at + lines.len()) * fp_words];
                // A charge per block of combinations, so that the deadline is
                // looked at while a huge table is worked through.
                for (fps, lines) in fps
                    .chunks_mut(FOOTPRINT_BLOCK * fp_words)
                    .zip(lines.chunks(FOOTPRINT_BLOCK))
                {
                    budget.spend((lines.len() * fp_words) as u64)?;
                    for (fp, &(rows, cols)) in fps.chunks_exact_mut(fp_words).zip(lines) {
                        let bits = u128::from(rows) << rows_at | u128::from(cols) << cols_at;
                        fp[0] = bits as u64;
                        if let Some(high) = fp.get_mut(1) {
                            *high = (bits >> 64) as u64;
                        }
                    }
                }
                at += table.len();
                continue;
            }
            for i in 0..table.len() {
                if i.is_multiple_of(FOOTPRINT_BLOCK) {
                    budget.spend((FOOTPRINT_BLOCK.min(table.len() - i) * fp_words) as u64)?;
                }
                let fp = &mut footprints[(at + i) * fp_words..(at + i + 1) * fp_words];
                for (pos, &d) in table.row(i).iter().enumerate() {
                    for &r in &cell_regions[cells[pos].index()][..per_cell] {
                        let bit = r * n + (d as usize - 1);
                        fp[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
            at += table.len();
        }
        // Two cages can clash exactly when they touch a common region.
        let cage_regions: Vec<u64> = puzzle
            .cages()
            .iter()
            .map(|cage| {
                cage.cells
                    .iter()
                    .flat_map(|c| cell_regions[c.index()][..per_cell].iter())
                    .fold(0u64, |m, &r| m | 1 << r)
            })
            .collect();
        let cages = cage_regions.len();
        let link_words = cages.div_ceil(64);
        let mut cage_links = vec![0u64; cages * link_words];
        for (a, &regions) in cage_regions.iter().enumerate() {
            // A mask, not a branch, per pair: which pairs link is the puzzle's data,
            // which a branch would often mispredict.
            for (b, &other) in cage_regions.iter().enumerate() {
                let linked = (b != a) & (regions & other != 0);
                cage_links[a * link_words + b / 64] |= u64::from(linked) << (b % 64);
            }
        }
        // One flat store for every cage's live bits, so that copying a state copies
        // one buffer, not one per cage.
        let mut live_at = Vec::with_capacity(tables.len());
        let live_words = tables.iter().map(|t| t.combos.live.words().len()).sum();
        let mut initial_live = Vec::with_capacity(live_words);
        for table in tables.iter().map(|t| &t.combos) {
            live_at.push((initial_live.len(), table.len()));
            initial_live.extend_from_slice(table.live.words());
        }
        Ok(Layout {
            puzzle,
            n,
            tables,
            cell_cage,
            geometry,
            fp_words,
            footprints,
            footprint_at,
            cage_links,
            cage_regions,
            link_words,
            live_at,
            initial_live,
        })
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The initial combination table of a cage.
    pub fn table(&self, cage: CageId) -> &Combinations {
        &self.tables[cage.index()].combos
    }

    /// Digits of combination `i` of `cage`, in the cage's cell order.
    #[inline]
    pub fn combination(&self, cage: CageId, i: usize) -> &[Digit] {
        self.tables[cage.index()].combos.row(i)
    }

    /// Cells of a cage, reading order.
    #[inline]
    pub fn cage_cells(&self, cage: CageId) -> &[CellId] {
        &self.puzzle.cage(cage).cells
    }

    pub fn cage_count(&self) -> usize {
        self.tables.len()
    }

    /// The regions (indices into [`Layout::regions`]) holding a cell: its row, its
    /// column and, in KenDoku, its box. The cells that must differ from a cell are
    /// the other cells of these regions.
    #[inline]
    pub fn cell_regions(&self, cell: CellId) -> &[usize] {
        &self.geometry.cell_regions[cell.index()][..self.geometry.regions_per_cell]
    }

    /// The cells that must differ from a cell: the other cells of its regions,
    /// each once, in region order.
    #[inline]
    pub fn peers(&self, cell: CellId) -> &[CellId] {
        self.geometry.peers_of(cell)
    }

    /// Rows, then columns, then KenDoku boxes.
    pub fn regions(&self) -> &[Region] {
        &self.geometry.regions
    }

    /// Index of the row/column region of kind `kind` in [`Layout::regions`].
    pub fn region_index(&self, kind: RegionKind) -> usize {
        match kind {
            RegionKind::Row(r) => r,
            RegionKind::Col(c) => self.n + c,
            RegionKind::Box(b) => 2 * self.n + b,
        }
    }

    /// The set of (region, digit) pairs combination `i` of `cage` occupies, as a bit
    /// set of `fp_words` words (bit `region * n + digit - 1`). Two combinations of
    /// different cages can stand together exactly when their footprints are disjoint.
    #[inline]
    pub fn footprint(&self, cage: CageId, i: usize) -> &[u64] {
        let w = self.fp_words;
        let at = self.footprint_at[cage.index()] + i;
        &self.footprints[at * w..(at + 1) * w]
    }

    /// The footprints of every combination of `cage`, `fp_words` words each.
    #[inline]
    pub(crate) fn footprints_of(&self, cage: CageId) -> &[u64] {
        let w = self.fp_words;
        let at = self.footprint_at[cage.index()];
        &self.footprints[at * w..(at + self.live_at[cage.index()].1) * w]
    }

    /// Per cage, the regions (indices into [`Layout::regions`]) holding its cells,
    /// as a bit set.
    pub(crate) fn cage_regions(&self) -> &[u64] {
        &self.cage_regions
    }

    /// The bit set (by cage index) of the cages `a` can clash with.
    #[inline]
    pub fn links_of(&self, a: CageId) -> &[u64] {
        &self.cage_links[a.index() * self.link_words..(a.index() + 1) * self.link_words]
    }

    /// Where the live bits of `cage` are in a state's store: the first word and the
    /// number of bits.
    #[inline]
    pub(crate) fn live_at(&self, cage: CageId) -> (usize, usize) {
        self.live_at[cage.index()]
    }

    /// The combinations of `cage` packed one word each (see [`CageTable`]), when
    /// they fit; indexed like the cage's live bits.
    #[inline]
    pub(crate) fn packed(&self, cage: CageId) -> Option<&[u64]> {
        self.tables[cage.index()].packed.as_deref()
    }

    /// A state's live-bit store before anything is removed.
    pub(crate) fn initial_live(&self) -> &[u64] {
        &self.initial_live
    }

    /// Whether two cages can clash (some cell of one sees some cell of the other).
    pub fn linked(&self, a: CageId, b: CageId) -> bool {
        let b = b.index();
        self.cage_links[a.index() * self.link_words + b / 64] & (1 << (b % 64)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Footprints shifted into place from the cached tables' lines (grids up to
    /// 8×8 without boxes) are the footprints built digit by digit from the cells'
    /// regions, on sizes with one- and two-word footprints and on one without
    /// lines (9×9).
    #[test]
    fn footprints_from_lines_are_built_footprints() {
        let ids = [
            "4:aa_4c_a_aa__b,s2a7s2d2m36m24",
            "5:_aa_5aa_b_c__a_a_aa__a__,m10a10s2m15a8m12d2s2a6s2d2",
            "6:a_b_3a_14aa_ab_aaba_aa__aa_aa,m40a12a6m24s2m6m90m8s3d3a5a5s1a7d2s2",
            "8:a_a3_aa_a3_4a_a_7a__a_a_3aa_5a_a_3a3_a_5a_6aa_3aa__a_ba3,s5m5d3a12m32s5s1s5a10a12s5d2m5m18d2a8a13a10a6m24a12m40d2s2s3s1m24m5d2s6m6",
            "7:a5_4a_4a__aa__a_4a_a_3a_4a_7a_4baa_aabab,a9s5m30m6a11d3m12s2m6s2a10a6d2s4s5s1d2m168d2a8m60a9d2",
            "9:a3_a3_a__a__a_7a_21a_5a__a_aba4_a3_3a3__a3_a3_a3_a3_6a_aa_aa_,d4m18s4m6a11a11d3a7s5m8m12s1s3m20a8m8m7a10a15s5m24d2s3a12a10s3s1m6s5s4a11s3a14m180d2m72a19d2",
        ];
        for id in ids {
            let p = kenken_formats::tatham::read(id).expect("puzzle");
            let layout = Layout::new(&p).expect("layout");
            let n = layout.n();
            for cage in p.cage_ids() {
                for i in 0..layout.table(cage).len() {
                    let mut expected = vec![0u64; layout.fp_words];
                    for (pos, &d) in layout.combination(cage, i).iter().enumerate() {
                        for &r in layout.cell_regions(layout.cage_cells(cage)[pos]) {
                            let bit = r * n + d as usize - 1;
                            expected[bit / 64] |= 1 << (bit % 64);
                        }
                    }
                    assert_eq!(layout.footprint(cage, i), expected, "{id}: {cage:?} #{i}");
                }
            }
        }
    }
}
