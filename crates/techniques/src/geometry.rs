//! The regions of a grid (rows, columns, KenDoku boxes) and the regions of each
//! cell: the same for every puzzle of one size and box shape, so built once per
//! thread and shared by the layouts of a batch, instead of a few dozen small
//! allocations per puzzle.

use kenken_model::{CellId, Puzzle, Region};
use std::cell::RefCell;
use std::sync::Arc;

/// Rows, then columns, then KenDoku boxes, and the regions holding each cell.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) regions: Vec<Region>,
    /// The regions (indices into `regions`) holding each cell: its row, its column
    /// and, in KenDoku, its box (the first `regions_per_cell` entries).
    pub(crate) cell_regions: Vec<[usize; 3]>,
    pub(crate) regions_per_cell: usize,
    /// The peers of each cell (the other cells of its regions, each once, in the
    /// order its regions list them), `peers_per_cell` per cell: placing a digit
    /// removes it from these without testing every region cell against the cell
    /// itself, a branch no predictor gets right (the cell's place in its row
    /// changes with every single).
    pub(crate) peers: Vec<CellId>,
    pub(crate) peers_per_cell: usize,
}

/// The key of a geometry: N and the KenDoku box shape.
type Key = (usize, Option<(usize, usize)>);

thread_local! {
    /// The geometries this thread has built (one per size met, a handful at most).
    static CACHE: RefCell<Vec<(Key, Arc<Geometry>)>> = const { RefCell::new(Vec::new()) };
}

impl Geometry {
    /// The geometry of a puzzle's grid, from this thread's cache when it has one.
    pub(crate) fn of(puzzle: &Puzzle) -> Arc<Geometry> {
        let key = (puzzle.size().get(), puzzle.boxes());
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some((_, g)) = cache.iter().find(|(k, _)| *k == key) {
                return Arc::clone(g);
            }
            let g = Arc::new(Geometry::build(puzzle));
            cache.push((key, Arc::clone(&g)));
            g
        })
    }

    /// The peers of a cell (see [`Geometry::peers`]).
    #[inline]
    pub(crate) fn peers_of(&self, cell: CellId) -> &[CellId] {
        let per_cell = self.peers_per_cell;
        &self.peers[cell.index() * per_cell..(cell.index() + 1) * per_cell]
    }

    fn build(puzzle: &Puzzle) -> Geometry {
        let cell_count = puzzle.size().cell_count();
        let regions = puzzle.regions();
        let regions_per_cell = if puzzle.boxes().is_some() { 3 } else { 2 };
        let mut cell_regions = vec![[0; 3]; cell_count];
        let mut filled = vec![0u8; cell_count];
        for (ri, region) in regions.iter().enumerate() {
            for &c in &region.cells {
                cell_regions[c.index()][filled[c.index()] as usize] = ri;
                filled[c.index()] += 1;
            }
        }
        debug_assert!(filled.iter().all(|&k| k as usize == regions_per_cell));
        let mut peers = Vec::new();
        let mut peers_per_cell = 0;
        for cell in puzzle.size().cells() {
            let first = peers.len();
            for &r in &cell_regions[cell.index()][..regions_per_cell] {
                for &p in &regions[r].cells {
                    if p != cell && !peers[first..].contains(&p) {
                        peers.push(p);
                    }
                }
            }
            // Every cell has as many peers (rows, columns and boxes are uniform).
            peers_per_cell = peers.len() - first;
        }
        debug_assert_eq!(peers.len(), peers_per_cell * cell_count);
        Geometry {
            regions,
            cell_regions,
            regions_per_cell,
            peers,
            peers_per_cell,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_model::{Cage, CellId, Op, Size};

    fn puzzle(n: usize) -> Puzzle {
        let size = Size::new(n).unwrap();
        let cages = size
            .cells()
            .map(|c| Cage::new(vec![c], Op::Given, 1))
            .collect();
        Puzzle::new(size, cages).unwrap()
    }

    #[test]
    fn one_geometry_per_size_and_each_cell_in_its_row_and_column() {
        let (four, five) = (puzzle(4), puzzle(5));
        let a = Geometry::of(&four);
        assert!(Arc::ptr_eq(&a, &Geometry::of(&four)));
        let b = Geometry::of(&five);
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(b.regions.len(), 10);
        assert_eq!(b.regions_per_cell, 2);
        // r2c4 (cell 8 of 5×5): row 1, column 3 (region 5 + 3).
        assert_eq!(b.cell_regions[8][..2], [1, 8]);
        assert!(b.regions[8].cells.contains(&CellId::new(8)));
    }

    #[test]
    fn peers_are_the_cells_sharing_a_row_column_or_box_once_each() {
        let six = Size::new(6).unwrap();
        let givens = six
            .cells()
            .map(|c| Cage::new(vec![c], Op::Given, 1))
            .collect();
        let kendoku = Puzzle::new_kendoku(six, givens, 2, 3).unwrap();
        for puzzle in [puzzle(4), puzzle(7), kendoku] {
            let size = puzzle.size();
            let g = Geometry::build(&puzzle);
            for cell in size.cells() {
                let peers = g.peers_of(cell);
                let expected: Vec<CellId> =
                    size.cells().filter(|&p| puzzle.sees(cell, p)).collect();
                let mut sorted = peers.to_vec();
                sorted.sort();
                assert_eq!(sorted, expected, "{}", size.cell_name(cell));
                // Its row first, in order (the order singles remove digits in).
                let row: Vec<CellId> = size
                    .cells()
                    .filter(|&p| p != cell && size.row(p) == size.row(cell))
                    .collect();
                assert_eq!(peers[..row.len()], row[..]);
            }
        }
    }
}
