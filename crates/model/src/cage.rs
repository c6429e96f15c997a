use crate::{CellId, Digit};
use std::fmt;

/// A cage's arithmetic operation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// Digits add up to the clue.
    Add,
    /// The largest digit minus the sum of the others is the clue (|a − b| for two).
    Sub,
    /// Digits multiply to the clue.
    Mul,
    /// The largest digit divided by the product of the others is the clue, exactly.
    Div,
    /// A single given cell: its digit is the clue.
    Given,
    /// The operation is not shown: the digits make the clue by `+` or `×`, or, on
    /// two cells, by `−` or `÷` (Calcudoku's "no-op" cages).
    Hidden,
}

impl Op {
    /// The usual symbol: `+ - x / !`.
    pub fn symbol(self) -> char {
        match self {
            Op::Add => '+',
            Op::Sub => '-',
            Op::Mul => 'x',
            Op::Div => '/',
            Op::Given => '!',
            Op::Hidden => '?',
        }
    }

    /// The operations a hidden operation may be on a cage of `cells` cells.
    pub fn hidden_choices(cells: usize) -> &'static [Op] {
        if cells == 2 {
            &[Op::Add, Op::Sub, Op::Mul, Op::Div]
        } else {
            &[Op::Add, Op::Mul]
        }
    }

    /// Whether the digits (in any order) satisfy the operation with this clue.
    pub fn holds(self, digits: &[Digit], clue: u64) -> bool {
        let sum: u64 = digits.iter().map(|&d| d as u64).sum();
        let max = digits.iter().copied().max().unwrap_or(0) as u64;
        match self {
            Op::Add => sum == clue,
            Op::Mul => {
                let mut p: u64 = 1;
                for &d in digits {
                    p = match p.checked_mul(d as u64) {
                        Some(p) => p,
                        None => return false,
                    };
                }
                p == clue
            }
            Op::Sub => max >= sum - max && max - (sum - max) == clue,
            Op::Div => {
                let mut rest: u64 = 1;
                let mut skipped = false;
                for &d in digits {
                    if !skipped && d as u64 == max {
                        skipped = true;
                        continue;
                    }
                    rest = rest.saturating_mul(d as u64);
                }
                max.is_multiple_of(rest) && max / rest == clue
            }
            Op::Given => digits.len() == 1 && digits[0] as u64 == clue,
            Op::Hidden => Op::hidden_choices(digits.len())
                .iter()
                .any(|op| op.holds(digits, clue)),
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A cage: its cells (reading order), operation and clue.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Cage {
    pub cells: Vec<CellId>,
    pub op: Op,
    pub clue: u64,
}

impl Cage {
    pub fn new(mut cells: Vec<CellId>, op: Op, clue: u64) -> Cage {
        if !cells.windows(2).all(|w| w[0] < w[1]) {
            cells.sort();
            cells.dedup();
        }
        Cage { cells, op, clue }
    }

    /// The cage's first cell in reading order (where its clue is written).
    pub fn anchor(&self) -> CellId {
        self.cells[0]
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generalised_subtraction_and_division() {
        assert!(Op::Sub.holds(&[6, 1], 5));
        assert!(Op::Sub.holds(&[1, 6], 5));
        assert!(Op::Sub.holds(&[9, 2, 3], 4));
        assert!(Op::Sub.holds(&[2, 1, 1], 0));
        assert!(Op::Sub.holds(&[1, 2, 3], 0));
        assert!(!Op::Sub.holds(&[1, 2, 4], 0));
        assert!(Op::Div.holds(&[8, 2, 2], 2));
        assert!(Op::Div.holds(&[2, 6], 3));
        assert!(!Op::Div.holds(&[4, 6], 1));
        assert!(Op::Mul.holds(&[2, 3, 4], 24));
        assert!(Op::Add.holds(&[2, 3, 4], 9));
    }

    #[test]
    fn a_hidden_operation_is_any_that_makes_the_clue() {
        assert!(Op::Hidden.holds(&[2, 6], 12));
        assert!(Op::Hidden.holds(&[2, 6], 8));
        assert!(Op::Hidden.holds(&[2, 6], 4));
        assert!(Op::Hidden.holds(&[2, 6], 3));
        assert!(!Op::Hidden.holds(&[2, 6], 5));
        assert!(Op::Hidden.holds(&[1, 2, 3], 6));
        // − and ÷ only on two cells.
        assert!(!Op::Hidden.holds(&[6, 2, 1], 3));
        assert!(!Op::Hidden.holds(&[8, 2, 2], 2));
    }
}
