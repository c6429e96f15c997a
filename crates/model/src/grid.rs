use crate::{bits, ModelError};
use std::fmt;

/// The smallest supported grid side.
pub const MIN_SIZE: usize = 3;
/// The largest supported grid side (digits are stored in 16-bit sets).
pub const MAX_SIZE: usize = 16;

/// Per grid side N (up to 16), 2^16 / N rounded up: see [`Size::row`].
const RECIPROCALS: [u32; MAX_SIZE + 1] = {
    let mut r = [0; MAX_SIZE + 1];
    let mut n = 1;
    while n <= MAX_SIZE {
        r[n] = (1u32 << 16).div_ceil(n as u32);
        n += 1;
    }
    r
};

/// The side N of an N×N grid, 3..=16.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Size(u8);

impl Size {
    pub fn new(n: usize) -> Result<Size, ModelError> {
        if (MIN_SIZE..=MAX_SIZE).contains(&n) {
            Ok(Size(n as u8))
        } else {
            Err(ModelError::SizeOutOfRange(n))
        }
    }

    /// N.
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }

    /// N².
    #[inline]
    pub fn cell_count(self) -> usize {
        self.get() * self.get()
    }

    /// The cell at 0-based `row` and `col`.
    #[inline]
    pub fn cell(self, row: usize, col: usize) -> CellId {
        debug_assert!(row < self.get() && col < self.get());
        CellId((row * self.get() + col) as u16)
    }

    /// The cell with this reading-order index, if it is inside the grid.
    pub fn cell_at(self, index: usize) -> Result<CellId, ModelError> {
        if index < self.cell_count() {
            Ok(CellId(index as u16))
        } else {
            Err(ModelError::CellOutOfRange {
                index,
                size: self.get(),
            })
        }
    }

    /// 0-based row of a cell.
    #[inline]
    pub fn row(self, cell: CellId) -> usize {
        // A multiplication by 2^16 / N rounded up and a shift instead of a
        // division (tens of cycles): exact for every index below 2^12, so for every
        // cell of a grid (see the test).
        let i = cell.index();
        if i < 1 << 12 {
            (i * RECIPROCALS[self.get()] as usize) >> 16
        } else {
            i / self.get()
        }
    }

    /// 0-based column of a cell.
    #[inline]
    pub fn col(self, cell: CellId) -> usize {
        cell.index() - self.row(cell) * self.get()
    }

    /// Every cell in reading order.
    pub fn cells(self) -> impl Iterator<Item = CellId> + Clone {
        (0..self.cell_count()).map(|i| CellId(i as u16))
    }

    /// The cell's name in the solver-log style: `r2c3` (1-based row and column).
    pub fn cell_name(self, cell: CellId) -> String {
        format!("r{}c{}", self.row(cell) + 1, self.col(cell) + 1)
    }

    /// The cell's name in the text format's style: `B3` (row letter, column number).
    pub fn cell_label(self, cell: CellId) -> String {
        format!(
            "{}{}",
            (b'A' + self.row(cell) as u8) as char,
            self.col(cell) + 1
        )
    }

    /// A cell of `cells` that cannot be reached from the first through edge-adjacent
    /// cells of the set, if any (None: the set is one edge-connected piece, or empty).
    /// Cages must be connected; readers use this to say which cell breaks the rule.
    pub fn disconnected_cell(self, cells: &[CellId]) -> Option<CellId> {
        if cells.len() <= 1 {
            return None;
        }
        let adjacent = |a: CellId, b: CellId| {
            self.row(a).abs_diff(self.row(b)) + self.col(a).abs_diff(self.col(b)) == 1
        };
        if cells.len() <= 64 {
            // Bit sets (every cage of a Tatham puzzle): no allocation per cage read,
            // and each cell's row and column worked out once.
            let mut places = [[0u8; 2]; 64];
            for (place, &c) in places.iter_mut().zip(cells) {
                *place = [self.row(c) as u8, self.col(c) as u8];
            }
            let adjacent = |i: usize, j: usize| {
                let ([r1, c1], [r2, c2]) = (places[i], places[j]);
                r1.abs_diff(r2) + c1.abs_diff(c2) == 1
            };
            let all = u64::MAX >> (64 - cells.len());
            let (mut seen, mut frontier) = (1u64, 1u64);
            while let Some(i) = bits::pop_first(&mut frontier) {
                for j in bits::ones(all & !seen) {
                    if adjacent(i, j) {
                        seen |= 1 << j;
                        frontier |= 1 << j;
                    }
                }
            }
            return bits::ones(all & !seen).next().map(|j| cells[j]);
        }
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, &other) in cells.iter().enumerate() {
                if !seen[j] && adjacent(cells[i], other) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().position(|s| !s).map(|j| cells[j])
    }

    /// The sum of every digit, i.e. what each row and column adds up to.
    pub fn line_total(self) -> u32 {
        let n = self.get() as u32;
        n * (n + 1) / 2
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A cell, by its reading-order index (row × N + column).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CellId(u16);

impl CellId {
    /// The cell with reading-order index `index` (not checked against a size; see
    /// [`Size::cell_at`]).
    #[inline]
    pub fn new(index: usize) -> CellId {
        CellId(index as u16)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A cage, by its position in clue order (the order of each cage's first cell in
/// reading order, which is also Tatham's clue order and the reference's numbering).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CageId(u16);

impl CageId {
    #[inline]
    pub fn new(index: usize) -> CageId {
        CageId(index as u16)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for CageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a region is: a row, a column, or (KenDoku) a box; each index is 0-based.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RegionKind {
    Row(usize),
    Col(usize),
    Box(usize),
}

impl fmt::Display for RegionKind {
    /// `r3`, `c5` or `b2`, 1-based.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionKind::Row(i) => write!(f, "r{}", i + 1),
            RegionKind::Col(i) => write!(f, "c{}", i + 1),
            RegionKind::Box(i) => write!(f, "b{}", i + 1),
        }
    }
}

/// A house: N cells that hold every digit exactly once.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Region {
    pub kind: RegionKind,
    /// Cells in reading order.
    pub cells: Vec<CellId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reading-order cells of a size.
    fn cells(size: Size, list: &[(usize, usize)]) -> Vec<CellId> {
        list.iter().map(|&(r, c)| size.cell(r, c)).collect()
    }

    #[test]
    fn rows_and_columns_of_every_cell() {
        for n in MIN_SIZE..=MAX_SIZE {
            let size = Size::new(n).unwrap();
            for i in (0..1 << 12).chain([1 << 12, 40_000]) {
                let cell = CellId::new(i);
                assert_eq!(
                    (size.row(cell), size.col(cell)),
                    (i / n, i % n),
                    "{i} on {n}"
                );
            }
        }
    }

    #[test]
    fn disconnected_cell_finds_the_cell_cut_off() {
        let size = Size::new(9).unwrap();
        assert_eq!(size.disconnected_cell(&[]), None);
        let snake = cells(size, &[(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)]);
        assert_eq!(size.disconnected_cell(&snake), None);
        // Diagonal neighbours do not connect.
        let diagonal = cells(size, &[(0, 0), (0, 1), (1, 2)]);
        assert_eq!(size.disconnected_cell(&diagonal), Some(size.cell(1, 2)));
        // Connected through a cell listed last.
        let late = cells(size, &[(0, 0), (0, 2), (0, 1)]);
        assert_eq!(size.disconnected_cell(&late), None);
    }

    #[test]
    fn disconnected_cell_handles_cages_of_more_than_64_cells() {
        // 16×16: the whole grid (256 cells) is connected; without its middle row
        // it falls in two, and the first cell past the gap is named.
        let size = Size::new(16).unwrap();
        let all: Vec<CellId> = size.cells().collect();
        assert_eq!(size.disconnected_cell(&all), None);
        let split: Vec<CellId> = size.cells().filter(|&c| size.row(c) != 8).collect();
        assert_eq!(size.disconnected_cell(&split), Some(size.cell(9, 0)));
        // 64 cells exactly (the bit-set path) split the same way.
        let four_rows: Vec<CellId> = size.cells().filter(|&c| size.row(c) < 4).collect();
        assert_eq!(four_rows.len(), 64);
        assert_eq!(size.disconnected_cell(&four_rows), None);
        let gap: Vec<CellId> = four_rows
            .into_iter()
            .filter(|&c| size.row(c) != 2)
            .collect();
        assert_eq!(size.disconnected_cell(&gap), Some(size.cell(3, 0)));
    }
}
