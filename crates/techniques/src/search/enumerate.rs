//! Cage combination enumeration straight into the search's flat layout.
//!
//! [`kenken_model::Combinations::enumerate`] is the reference definition of a cage's
//! table, but it builds general-purpose tables (a `Vec` of digits and a `BitVec` per
//! cage) and finds the last digit of a cage by trying all N. On a 9×9 puzzle that
//! costs more than the whole search, so [`count_solutions`](super::count_solutions)
//! enumerates here instead: same assignments in the same order (digits ascending,
//! cage cells in order, checked against the model's tables on the whole reference
//! corpus in the tests), written directly as digit bits, with the last digit of `+`
//! and `×` cages computed rather than searched.

use kenken_model::{Digit, ModelError, Op, Puzzle, MAX_COMBINATIONS_PER_CAGE};

/// Search nodes allowed while enumerating one cage: the model's bound, so a cage
/// the model refuses is refused here too instead of taking minutes.
const MAX_ENUMERATION_NODES: u64 = 1 << 27;

/// Appends every assignment of cage `cage` of `puzzle` to `out` (one single-bit
/// digit mask per cage cell, per assignment) and returns how many there are.
pub(super) fn enumerate_cage(
    puzzle: &Puzzle,
    cage: usize,
    out: &mut Vec<u16>,
) -> Result<usize, ModelError> {
    let c = &puzzle.cages()[cage];
    let width = c.cells.len();
    let n = puzzle.size().get();
    // For each cell, the earlier cage cells it must differ from.
    let mut clash_start = Vec::with_capacity(width + 1);
    let mut clash = Vec::new();
    for i in 0..width {
        clash_start.push(clash.len());
        clash.extend((0..i).filter(|&j| puzzle.sees(c.cells[i], c.cells[j])));
    }
    clash_start.push(clash.len());
    let start = out.len();
    let mut e = Enumerator {
        n: n as u64,
        full: ((1u32 << n) - 1) as u16,
        op: c.op,
        clue: c.clue,
        width,
        clash_start,
        clash,
        current: vec![0; width],
        out,
        nodes: 0,
        overflow: false,
    };
    e.dfs(0, 0, 1);
    let overflow = e.overflow;
    if overflow {
        out.truncate(start);
        return Err(ModelError::TooManyCombinations {
            cage,
            op: c.op,
            clue: c.clue,
            limit: MAX_COMBINATIONS_PER_CAGE,
        });
    }
    Ok((out.len() - start) / width)
}

struct Enumerator<'a> {
    n: u64,
    full: u16,
    op: Op,
    clue: u64,
    width: usize,
    clash_start: Vec<usize>,
    clash: Vec<usize>,
    /// Digit bits of the cells placed so far.
    current: Vec<u16>,
    out: &'a mut Vec<u16>,
    nodes: u64,
    overflow: bool,
}

impl Enumerator<'_> {
    /// Places cage cell `pos`, the earlier ones adding up to `sum` and multiplying
    /// to `product`.
    fn dfs(&mut self, pos: usize, sum: u64, product: u64) {
        if self.overflow {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_ENUMERATION_NODES {
            self.overflow = true;
            return;
        }
        if pos == self.width {
            if self.width > 2 && matches!(self.op, Op::Sub | Op::Div) && !self.holds() {
                return;
            }
            if self.out.len() / self.width >= MAX_COMBINATIONS_PER_CAGE {
                self.overflow = true;
                return;
            }
            self.out.extend_from_slice(&self.current);
            return;
        }
        let mut allowed = self.full;
        for &j in &self.clash[self.clash_start[pos]..self.clash_start[pos + 1]] {
            allowed &= !self.current[j];
        }
        let left = (self.width - pos - 1) as u64;
        let last = left == 0;
        // The last cell of a cage has at most two digits that fit (one for `+`, `×`
        // and a given, two for a two-cell `−` or `÷`): compute them instead of
        // trying all N.
        let a = sum; // the first digit, when this is the second cell of two
        let forced = match self.op {
            Op::Add if last => self.digit_bit(self.clue.checked_sub(sum)),
            Op::Mul if last => {
                self.digit_bit((self.clue % product == 0).then(|| self.clue / product))
            }
            Op::Given => self.digit_bit(Some(self.clue)),
            Op::Sub if self.width == 2 && last => {
                self.digit_bit(Some(a + self.clue)) | self.digit_bit(a.checked_sub(self.clue))
            }
            Op::Div if self.width == 2 && last => {
                self.digit_bit(a.checked_mul(self.clue))
                    | self.digit_bit((self.clue != 0 && a % self.clue == 0).then(|| a / self.clue))
            }
            _ => u16::MAX,
        };
        allowed &= forced;
        let mut rest = allowed;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let d = bit.trailing_zeros() as u64 + 1;
            let s = sum + d;
            let p = product.saturating_mul(d);
            let prune = match self.op {
                // the remaining cells add at least 1 and at most n each
                Op::Add => s + left > self.clue || s + left * self.n < self.clue,
                Op::Mul => self.clue % p != 0,
                _ => false,
            };
            if prune {
                // Digits only grow from here on: once too big, stop.
                if self.op == Op::Add && s + left > self.clue {
                    break;
                }
                continue;
            }
            self.current[pos] = bit;
            self.dfs(pos + 1, s, p);
        }
    }

    /// The bit of digit `d`, or nothing when there is no such digit in 1..=N.
    #[inline]
    fn digit_bit(&self, d: Option<u64>) -> u16 {
        match d {
            Some(d) if (1..=self.n).contains(&d) => 1 << (d - 1),
            _ => 0,
        }
    }

    /// The generalised `−` / `÷` check on the complete assignment.
    fn holds(&self) -> bool {
        let mut digits = [0 as Digit; 16];
        if self.width <= 16 {
            for (d, &b) in digits.iter_mut().zip(&self.current) {
                *d = b.trailing_zeros() as Digit + 1;
            }
            self.op.holds(&digits[..self.width], self.clue)
        } else {
            let digits: Vec<Digit> = self
                .current
                .iter()
                .map(|&b| b.trailing_zeros() as Digit + 1)
                .collect();
            self.op.holds(&digits, self.clue)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_model::{Cage, CageId, Size};

    /// The model's table as digit bits, live rows only.
    fn model_bits(p: &Puzzle, g: usize) -> Vec<u16> {
        let t = p.combinations(CageId::new(g)).unwrap();
        t.live_indices()
            .flat_map(|i| {
                t.row(i)
                    .iter()
                    .map(|&d| 1u16 << (d - 1))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Every cage shape and operation on a small grid, every clue value that has
    /// combinations (and a few that have none).
    #[test]
    fn same_tables_as_the_model() {
        let s = Size::new(6).unwrap();
        let shapes: Vec<Vec<(usize, usize)>> = vec![
            vec![(0, 0), (0, 1)],
            vec![(0, 0), (1, 0)],
            vec![(0, 0), (0, 1), (0, 2)],
            vec![(0, 0), (0, 1), (1, 0)],
            vec![(0, 0), (0, 1), (1, 1), (1, 2)],
            vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)],
        ];
        for boxes in [false, true] {
            for shape in &shapes {
                for op in [Op::Add, Op::Sub, Op::Mul, Op::Div] {
                    for clue in (0..=40).chain([60, 72, 120, 720, 1000]) {
                        let cells: Vec<_> = shape.iter().map(|&(r, c)| s.cell(r, c)).collect();
                        let mut cages = vec![Cage::new(cells.clone(), op, clue)];
                        cages.extend(
                            s.cells()
                                .filter(|c| !cells.contains(c))
                                .map(|c| Cage::new(vec![c], Op::Given, 1)),
                        );
                        let p = if boxes {
                            Puzzle::new_kendoku(s, cages, 2, 3).unwrap()
                        } else {
                            Puzzle::new(s, cages).unwrap()
                        };
                        let g = p.cage_of(cells[0]).index();
                        let mut out = vec![7];
                        let count = enumerate_cage(&p, g, &mut out).unwrap();
                        assert_eq!(out[0], 7, "appends");
                        assert_eq!(count * shape.len(), out.len() - 1);
                        assert_eq!(out[1..], model_bits(&p, g), "{shape:?} {op} {clue}");
                    }
                }
            }
        }
    }
}
