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

/// Reusable buffers for enumerating the cages of one puzzle (one allocation per
/// puzzle rather than several per cage).
pub(super) struct CageEnumerator {
    /// For each cage cell, the range of `clash` holding the earlier cage cells it
    /// must differ from.
    clash_start: Vec<usize>,
    clash: Vec<usize>,
    /// Digit bits of the cells placed so far.
    current: Vec<u16>,
}

impl CageEnumerator {
    pub(super) fn new() -> CageEnumerator {
        CageEnumerator {
            clash_start: Vec::new(),
            clash: Vec::new(),
            current: Vec::new(),
        }
    }

    /// Appends every assignment of cage `cage` of `puzzle` to `out` (one single-bit
    /// digit mask per cage cell, per assignment) and returns how many there are.
    pub(super) fn enumerate(
        &mut self,
        puzzle: &Puzzle,
        cage: usize,
        out: &mut Vec<u16>,
    ) -> Result<usize, ModelError> {
        let c = &puzzle.cages()[cage];
        let width = c.cells.len();
        let size = puzzle.size();
        let n = size.get();
        self.clash_start.clear();
        self.clash.clear();
        for (i, &a) in c.cells.iter().enumerate() {
            self.clash_start.push(self.clash.len());
            let (ra, ca, ba) = (size.row(a), size.col(a), puzzle.box_of(a));
            self.clash.extend((0..i).filter(|&j| {
                let b = c.cells[j];
                size.row(b) == ra || size.col(b) == ca || (ba.is_some() && puzzle.box_of(b) == ba)
            }));
        }
        self.clash_start.push(self.clash.len());
        self.current.clear();
        self.current.resize(width, 0);
        let start = out.len();
        let mut e = Enumerator {
            n: n as u64,
            full: ((1u32 << n) - 1) as u16,
            op: c.op,
            clue: c.clue,
            width,
            clash_start: &self.clash_start,
            clash: &self.clash,
            current: &mut self.current,
            out,
            found: 0,
            nodes: 0,
            overflow: false,
        };
        // `rest` is what the cells still to place must make: the clue for `+`
        // (a sum to reach) and `×` (a product to reach); unused by `−` and `÷`.
        e.dfs(0, c.clue, 0);
        let (found, overflow) = (e.found, e.overflow);
        if overflow {
            out.truncate(start);
            return Err(ModelError::TooManyCombinations {
                cage,
                op: c.op,
                clue: c.clue,
                limit: MAX_COMBINATIONS_PER_CAGE,
            });
        }
        Ok(found)
    }
}

struct Enumerator<'a> {
    n: u64,
    full: u16,
    op: Op,
    clue: u64,
    width: usize,
    clash_start: &'a [usize],
    clash: &'a [usize],
    current: &'a mut [u16],
    out: &'a mut Vec<u16>,
    found: usize,
    nodes: u64,
    overflow: bool,
}

impl Enumerator<'_> {
    /// Places cage cell `pos`. For `+` and `×`, `rest` is the sum or product the
    /// remaining cells must make; `first` is the first cell's digit (for the
    /// two-cell `−` and `÷`).
    // `u64::is_multiple_of` is Rust 1.87; the workspace's MSRV is 1.80.
    #[allow(clippy::manual_is_multiple_of)]
    fn dfs(&mut self, pos: usize, rest: u64, first: u64) {
        if self.overflow {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_ENUMERATION_NODES {
            self.overflow = true;
            return;
        }
        let mut allowed = self.full;
        for &j in &self.clash[self.clash_start[pos]..self.clash_start[pos + 1]] {
            allowed &= !self.current[j];
        }
        let left = (self.width - pos - 1) as u64;
        let last = left == 0;
        let n = self.n;
        allowed &= match self.op {
            // The last digit is what is left; before it, the remaining cells add
            // between 1 and N each.
            Op::Add if last => self.digit_bit(Some(rest)),
            Op::Add => {
                let lo = rest.saturating_sub(left * n).max(1);
                let hi = rest.saturating_sub(left).min(n);
                if lo > hi {
                    0
                } else {
                    (((1u32 << hi) - 1) & !((1u32 << (lo - 1)) - 1)) as u16
                }
            }
            // The last digit is the remaining product; before it, a divisor of it.
            Op::Mul if last => self.digit_bit(Some(rest)),
            Op::Mul => {
                let mut divisors = 0;
                for d in 1..=n.min(rest) {
                    if rest % d == 0 {
                        divisors |= 1 << (d - 1);
                    }
                }
                divisors
            }
            Op::Given => self.digit_bit(Some(self.clue)),
            Op::Sub if self.width == 2 && last => {
                self.digit_bit(Some(first + self.clue))
                    | self.digit_bit(first.checked_sub(self.clue))
            }
            Op::Div if self.width == 2 && last => {
                self.digit_bit(first.checked_mul(self.clue))
                    | self.digit_bit(
                        (self.clue != 0 && first % self.clue == 0).then(|| first / self.clue),
                    )
            }
            _ => u16::MAX,
        };
        if last {
            // The leaves, without a call each.
            let check = self.width > 2 && matches!(self.op, Op::Sub | Op::Div);
            while allowed != 0 {
                let bit = allowed & allowed.wrapping_neg();
                allowed ^= bit;
                self.current[pos] = bit;
                if check && !self.holds() {
                    continue;
                }
                if self.found >= MAX_COMBINATIONS_PER_CAGE {
                    self.overflow = true;
                    return;
                }
                self.found += 1;
                self.out.extend(self.current.iter().copied());
            }
            return;
        }
        while allowed != 0 {
            let bit = allowed & allowed.wrapping_neg();
            allowed ^= bit;
            let d = bit.trailing_zeros() as u64 + 1;
            let rest = match self.op {
                Op::Add => rest - d,
                Op::Mul => rest / d,
                _ => rest,
            };
            self.current[pos] = bit;
            self.dfs(pos + 1, rest, if pos == 0 { d } else { first });
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
            for (d, &b) in digits.iter_mut().zip(self.current.iter()) {
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
                        let count = CageEnumerator::new().enumerate(&p, g, &mut out).unwrap();
                        assert_eq!(out[0], 7, "appends");
                        assert_eq!(count * shape.len(), out.len() - 1);
                        assert_eq!(out[1..], model_bits(&p, g), "{shape:?} {op} {clue}");
                    }
                }
            }
        }
    }
}
