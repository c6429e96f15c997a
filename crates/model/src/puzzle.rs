use crate::{
    Cage, CageId, CellId, Combinations, Exhausted, ModelError, Op, Region, RegionKind, Size,
};

/// A validated puzzle: its cages partition the grid and each is edge-connected.
///
/// Cages are kept in clue order (by their first cell in reading order), so
/// `CageId(i)` is the i-th clue of a Tatham game ID and the reference solver's
/// "cage i".
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Puzzle {
    size: Size,
    cages: Vec<Cage>,
    cage_of: Vec<CageId>,
    boxes: Option<(usize, usize)>,
}

impl Puzzle {
    /// Builds a KenKen puzzle (rows and columns are the regions).
    ///
    /// Cages may come in any order; they are sorted into clue order. A single-cell
    /// cage of any operation becomes a [`Op::Given`] (for one digit every operation
    /// means "the digit is the clue").
    pub fn new(size: Size, cages: Vec<Cage>) -> Result<Puzzle, ModelError> {
        Self::build(size, cages, None)
    }

    /// Builds a KenDoku puzzle: KenKen plus boxes of `box_rows` × `box_cols` cells as
    /// extra regions (SudokuWiki's D6C uses 2×3 boxes on a 6×6 grid).
    pub fn new_kendoku(
        size: Size,
        cages: Vec<Cage>,
        box_rows: usize,
        box_cols: usize,
    ) -> Result<Puzzle, ModelError> {
        let n = size.get();
        if box_rows == 0 || box_cols == 0 || box_rows * box_cols != n || !n.is_multiple_of(box_rows)
        {
            return Err(ModelError::BadBoxShape {
                rows: box_rows,
                cols: box_cols,
                size: n,
            });
        }
        Self::build(size, cages, Some((box_rows, box_cols)))
    }

    fn build(
        size: Size,
        mut cages: Vec<Cage>,
        boxes: Option<(usize, usize)>,
    ) -> Result<Puzzle, ModelError> {
        for (i, cage) in cages.iter_mut().enumerate() {
            if cage.cells.is_empty() {
                return Err(ModelError::EmptyCage { cage: i });
            }
            // Cells usually come sorted (`Cage::new` sorts them, readers list them
            // in reading order).
            if !cage.cells.windows(2).all(|w| w[0] < w[1]) {
                cage.cells.sort();
                cage.cells.dedup();
            }
            for &c in &cage.cells {
                size.cell_at(c.index())?;
            }
            if cage.op == Op::Given && cage.cells.len() != 1 {
                return Err(ModelError::GivenWithSeveralCells {
                    cage: i,
                    op: cage.op,
                    cells: cage.cells.len(),
                });
            }
            if cage.cells.len() == 1 {
                cage.op = Op::Given;
            }
        }
        if !cages.windows(2).all(|w| w[0].cells[0] <= w[1].cells[0]) {
            cages.sort_by_key(|c| c.cells[0]);
        }

        // No cage has this index (a grid has at most 256 cages).
        let uncovered = CageId::new(usize::from(u16::MAX));
        let mut cage_of = vec![uncovered; size.cell_count()];
        for (i, cage) in cages.iter().enumerate() {
            for &c in &cage.cells {
                if cage_of[c.index()] != uncovered {
                    return Err(ModelError::CellInTwoCages {
                        cell: size.cell_name(c),
                    });
                }
                cage_of[c.index()] = CageId::new(i);
            }
        }
        for (i, cage) in cages.iter().enumerate() {
            check_connected(size, i, cage)?;
        }
        if let Some(i) = cage_of.iter().position(|&g| g == uncovered) {
            return Err(ModelError::CellUncovered {
                cell: size.cell_name(CellId::new(i)),
            });
        }

        Ok(Puzzle {
            size,
            cages,
            cage_of,
            boxes,
        })
    }

    pub fn size(&self) -> Size {
        self.size
    }

    /// The cages in clue order.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    pub fn cage(&self, id: CageId) -> &Cage {
        &self.cages[id.index()]
    }

    pub fn cage_ids(&self) -> impl Iterator<Item = CageId> + Clone {
        (0..self.cages.len()).map(CageId::new)
    }

    /// The cage holding a cell.
    pub fn cage_of(&self, cell: CellId) -> CageId {
        self.cage_of[cell.index()]
    }

    /// The same puzzle with every operation hidden ([`Op::Hidden`]): its cages
    /// show only their clues (a given stays a given).
    pub fn with_hidden_ops(&self) -> Puzzle {
        let mut hidden = self.clone();
        for cage in &mut hidden.cages {
            if cage.op != Op::Given {
                cage.op = Op::Hidden;
            }
        }
        hidden
    }

    /// Whether some cage's operation is hidden.
    pub fn has_hidden_ops(&self) -> bool {
        self.cages.iter().any(|c| c.op == Op::Hidden)
    }

    /// KenDoku box shape (rows, cols), if this is a KenDoku.
    pub fn boxes(&self) -> Option<(usize, usize)> {
        self.boxes
    }

    pub fn is_kendoku(&self) -> bool {
        self.boxes.is_some()
    }

    /// The box index of a cell, for KenDoku.
    pub fn box_of(&self, cell: CellId) -> Option<usize> {
        let (br, bc) = self.boxes?;
        let n = self.size.get();
        let (r, c) = (self.size.row(cell), self.size.col(cell));
        Some((r / br) * (n / bc) + c / bc)
    }

    /// Whether two distinct cells must hold different digits (same row, column, or
    /// KenDoku box).
    pub fn sees(&self, a: CellId, b: CellId) -> bool {
        a != b
            && (self.size.row(a) == self.size.row(b)
                || self.size.col(a) == self.size.col(b)
                || (self.boxes.is_some() && self.box_of(a) == self.box_of(b)))
    }

    /// Every region: rows top to bottom, then columns left to right, then (KenDoku)
    /// boxes in reading order. This is the scan order of every region technique.
    pub fn regions(&self) -> Vec<Region> {
        let n = self.size.get();
        let mut out = Vec::with_capacity(3 * n);
        for r in 0..n {
            out.push(Region {
                kind: RegionKind::Row(r),
                cells: (0..n).map(|c| self.size.cell(r, c)).collect(),
            });
        }
        for c in 0..n {
            out.push(Region {
                kind: RegionKind::Col(c),
                cells: (0..n).map(|r| self.size.cell(r, c)).collect(),
            });
        }
        if self.boxes.is_some() {
            for b in 0..n {
                out.push(Region {
                    kind: RegionKind::Box(b),
                    cells: self
                        .size
                        .cells()
                        .filter(|&cell| self.box_of(cell) == Some(b))
                        .collect(),
                });
            }
        }
        out
    }

    /// The initial combination table of a cage (see [`Combinations`]).
    pub fn combinations(&self, id: CageId) -> Result<Combinations, Exhausted> {
        Combinations::enumerate(self, id)
    }
}

fn check_connected(size: Size, index: usize, cage: &Cage) -> Result<(), ModelError> {
    match size.disconnected_cell(&cage.cells) {
        None => Ok(()),
        Some(cell) => Err(ModelError::CageNotConnected {
            cage: index,
            cell: size.cell_name(cell),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(size: Size, names: &[(usize, usize)]) -> Vec<CellId> {
        names.iter().map(|&(r, c)| size.cell(r, c)).collect()
    }

    /// The 3x3 example of the text format (`docs/formats.md`).
    pub(crate) fn example() -> Puzzle {
        let s = Size::new(3).unwrap();
        Puzzle::new(
            s,
            vec![
                Cage::new(cells(s, &[(0, 0), (1, 0)]), Op::Add, 3),
                Cage::new(cells(s, &[(0, 1), (1, 1)]), Op::Add, 5),
                Cage::new(cells(s, &[(0, 2)]), Op::Given, 1),
                Cage::new(cells(s, &[(1, 2), (2, 2)]), Op::Add, 5),
                Cage::new(cells(s, &[(2, 0), (2, 1)]), Op::Add, 4),
            ],
        )
        .unwrap()
    }

    #[test]
    fn cages_are_put_in_clue_order() {
        let p = example();
        assert_eq!(p.cage(CageId::new(2)).clue, 1);
        assert_eq!(p.cage(CageId::new(3)).clue, 5);
        assert_eq!(p.cage_of(p.size().cell(2, 1)), CageId::new(4));
    }

    #[test]
    fn uncovered_overlapping_and_disconnected_cages_are_rejected() {
        let s = Size::new(3).unwrap();
        let mut cages = example().cages().to_vec();
        cages.pop();
        assert!(matches!(
            Puzzle::new(s, cages.clone()),
            Err(ModelError::CellUncovered { .. })
        ));
        cages.push(Cage::new(cells(s, &[(2, 0), (2, 1), (2, 2)]), Op::Add, 6));
        assert!(matches!(
            Puzzle::new(s, cages.clone()),
            Err(ModelError::CellInTwoCages { .. })
        ));
        cages.pop();
        cages.push(Cage::new(cells(s, &[(2, 0)]), Op::Add, 6));
        cages.push(Cage::new(cells(s, &[(2, 1)]), Op::Add, 6));
        assert!(Puzzle::new(s, cages.clone()).is_ok());
        let s4 = Size::new(4).unwrap();
        let bad = Puzzle::new(
            s4,
            vec![Cage::new(cells(s4, &[(0, 0), (1, 1)]), Op::Add, 3)],
        );
        assert!(matches!(bad, Err(ModelError::CageNotConnected { .. })));
    }

    #[test]
    fn sizes_up_to_sixteen() {
        assert!(Size::new(16).is_ok());
        assert!(Size::new(17).is_err());
        assert!(Size::new(2).is_err());
        let s = Size::new(16).unwrap();
        let cages = s
            .cells()
            .map(|c| Cage::new(vec![c], Op::Given, 16))
            .collect();
        let p = Puzzle::new(s, cages).unwrap();
        assert_eq!(p.regions().len(), 32);
        assert_eq!(s.cell_name(s.cell(15, 15)), "r16c16");
    }

    #[test]
    fn kendoku_boxes() {
        let s = Size::new(6).unwrap();
        let cages = s
            .cells()
            .map(|c| Cage::new(vec![c], Op::Given, 1))
            .collect();
        let p = Puzzle::new_kendoku(s, cages, 2, 3).unwrap();
        assert_eq!(p.box_of(s.cell(0, 3)), Some(1));
        assert_eq!(p.box_of(s.cell(2, 0)), Some(2));
        assert!(p.sees(s.cell(0, 0), s.cell(1, 2)));
        assert!(!p.sees(s.cell(0, 0), s.cell(2, 2)));
        assert_eq!(p.regions().len(), 18);
    }
}
