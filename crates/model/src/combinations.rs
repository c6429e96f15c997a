use crate::{CageId, Digit, Digits, ModelError, Op, Puzzle};
use bitvec::vec::BitVec;

/// The most assignments one cage may have. Tatham's cages (at most 6 cells, 9×9) stay
/// far below; the bound keeps a pathological imported cage (a 10-cell sum on 16×16)
/// from exhausting memory, and is reported as a typed error.
pub const MAX_COMBINATIONS_PER_CAGE: usize = 1 << 20;

/// Search nodes allowed while enumerating one cage, for the same reason.
const MAX_ENUMERATION_NODES: u64 = 1 << 27;

/// Every assignment of digits to a cage's cells (in the cage's cell order) that
/// satisfies its clue, without repeating a digit in two cells that share a row,
/// column or KenDoku box. Permutations are distinct entries.
///
/// The table is immutable; `live` marks the entries not yet ruled out, so a solver
/// strikes combinations off by clearing bits.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Combinations {
    width: usize,
    digits: Vec<Digit>,
    /// One bit per combination, set while it is still possible.
    pub live: BitVec,
}

impl Combinations {
    /// Enumerates the cage's combinations.
    pub fn enumerate(puzzle: &Puzzle, id: CageId) -> Result<Combinations, ModelError> {
        let cage = puzzle.cage(id);
        let n = puzzle.size().get();
        let width = cage.cells.len();
        // For each cell, the earlier cage cells it must differ from.
        let clash: Vec<Vec<usize>> = (0..width)
            .map(|i| {
                (0..i)
                    .filter(|&j| puzzle.sees(cage.cells[i], cage.cells[j]))
                    .collect()
            })
            .collect();
        let mut e = Enumerator {
            n: n as Digit,
            op: cage.op,
            clue: cage.clue,
            width,
            clash,
            current: Vec::with_capacity(width),
            out: Vec::new(),
            nodes: 0,
            overflow: false,
        };
        e.dfs(0, 1);
        if e.overflow {
            return Err(ModelError::TooManyCombinations {
                cage: id.index(),
                op: cage.op,
                clue: cage.clue,
                limit: MAX_COMBINATIONS_PER_CAGE,
            });
        }
        let count = e.out.len() / width.max(1);
        Ok(Combinations {
            width,
            digits: e.out,
            live: BitVec::repeat(true, count),
        })
    }

    /// Builds a table from explicit rows (each `width` digits), all live.
    pub fn from_rows(width: usize, digits: Vec<Digit>) -> Combinations {
        assert!(width > 0 && digits.len().is_multiple_of(width));
        let count = digits.len() / width;
        Combinations {
            width,
            digits,
            live: BitVec::repeat(true, count),
        }
    }

    /// Cells per combination (the cage's size).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of combinations in the table, live or not.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// Number of live combinations.
    pub fn live_count(&self) -> usize {
        self.live.count_ones()
    }

    /// The digits of combination `i`, in cage cell order.
    #[inline]
    pub fn row(&self, i: usize) -> &[Digit] {
        &self.digits[i * self.width..(i + 1) * self.width]
    }

    /// Indices of the live combinations.
    pub fn live_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.live.iter_ones()
    }

    /// The digits the live combinations put at cage position `pos`.
    pub fn candidates_at(&self, pos: usize) -> Digits {
        self.live_indices()
            .map(|i| Digits::single(self.row(i)[pos]))
            .fold(Digits::EMPTY, |a, b| a | b)
    }
}

struct Enumerator {
    n: Digit,
    op: Op,
    clue: u64,
    width: usize,
    clash: Vec<Vec<usize>>,
    current: Vec<Digit>,
    out: Vec<Digit>,
    nodes: u64,
    overflow: bool,
}

impl Enumerator {
    /// Extends `current` (whose digits sum to `sum - …` and multiply to `product`).
    fn dfs(&mut self, sum: u64, product: u64) {
        if self.overflow {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_ENUMERATION_NODES {
            self.overflow = true;
            return;
        }
        let pos = self.current.len();
        let sum = if pos == 0 { 0 } else { sum };
        if pos == self.width {
            if self.op.holds(&self.current, self.clue) {
                if self.out.len() / self.width >= MAX_COMBINATIONS_PER_CAGE {
                    self.overflow = true;
                    return;
                }
                self.out.extend_from_slice(&self.current);
            }
            return;
        }
        let left = (self.width - pos - 1) as u64;
        for d in 1..=self.n {
            if self.clash[pos].iter().any(|&j| self.current[j] == d) {
                continue;
            }
            let s = sum + d as u64;
            let p = product.saturating_mul(d as u64);
            let prune = match self.op {
                // the remaining cells add at least 1 and at most n each
                Op::Add => s + left > self.clue || s + left * (self.n as u64) < self.clue,
                Op::Mul => !self.clue.is_multiple_of(p),
                Op::Given => d as u64 != self.clue,
                Op::Sub | Op::Div => false,
            };
            if prune {
                continue;
            }
            self.current.push(d);
            self.dfs(s, p);
            self.current.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Cage, Op, Puzzle, Size};

    fn single_cage(n: usize, cells: &[(usize, usize)], op: Op, clue: u64) -> Vec<Vec<u8>> {
        let s = Size::new(n).unwrap();
        let mut cages = vec![Cage::new(
            cells.iter().map(|&(r, c)| s.cell(r, c)).collect(),
            op,
            clue,
        )];
        let first = cages[0].cells.clone();
        for c in s.cells().filter(|c| !first.contains(c)) {
            cages.push(Cage::new(vec![c], Op::Given, 1));
        }
        let p = Puzzle::new(s, cages).unwrap();
        let id = p.cage_of(first[0]);
        let t = p.combinations(id).unwrap();
        t.live_indices().map(|i| t.row(i).to_vec()).collect()
    }

    #[test]
    fn two_cell_operations() {
        assert_eq!(
            single_cage(4, &[(0, 0), (0, 1)], Op::Sub, 3),
            vec![vec![1, 4], vec![4, 1]]
        );
        assert_eq!(
            single_cage(6, &[(0, 0), (1, 0)], Op::Div, 3),
            vec![vec![1, 3], vec![2, 6], vec![3, 1], vec![6, 2]]
        );
        assert_eq!(single_cage(4, &[(0, 0), (0, 1)], Op::Add, 4).len(), 2);
    }

    #[test]
    fn l_shapes_allow_a_repeated_digit_diagonally() {
        // r1c1, r1c2, r2c1: r1c2 and r2c1 share neither row nor column.
        let combos = single_cage(4, &[(0, 0), (0, 1), (1, 0)], Op::Mul, 4);
        assert!(combos.contains(&vec![1, 2, 2]));
        assert!(!combos.contains(&vec![2, 2, 1]));
        assert!(combos.contains(&vec![4, 1, 1]));
    }

    #[test]
    fn generalised_operations_on_larger_cages() {
        let combos = single_cage(4, &[(0, 0), (0, 1), (0, 2)], Op::Sub, 0);
        // largest minus the others is 0: {1,2,3} and {1,3,4}, in any order
        assert_eq!(combos.len(), 12);
        let combos = single_cage(6, &[(0, 0), (0, 1), (0, 2)], Op::Div, 1);
        // 6 / (2*3) = 1
        assert_eq!(combos.len(), 6);
    }

    #[test]
    fn unreachable_clue_has_no_combinations() {
        assert!(single_cage(4, &[(0, 0), (0, 1)], Op::Add, 9).is_empty());
    }
}
