//! The look of a set of puzzles: how many cages of each size and with each
//! operation, to compare generated puzzles with Tatham's at the same size.

use kenken_model::{Op, Puzzle};
use std::collections::BTreeMap;
use std::fmt;

/// Cage-size and operation counts over a set of puzzles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeStats {
    pub puzzles: usize,
    /// Cages by cell count.
    pub sizes: BTreeMap<usize, usize>,
    /// Multi-cell cages by operation: +, −, ×, ÷.
    pub ops: [usize; 4],
    /// Single-cell cages.
    pub givens: usize,
    /// The most givens in one puzzle.
    pub most_givens: usize,
}

/// The operations in [`ShapeStats::ops`] order.
pub const OPS: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

impl ShapeStats {
    pub fn add(&mut self, puzzle: &Puzzle) {
        self.puzzles += 1;
        let mut givens = 0;
        for cage in puzzle.cages() {
            *self.sizes.entry(cage.len()).or_default() += 1;
            match OPS.iter().position(|&o| o == cage.op) {
                Some(i) => self.ops[i] += 1,
                None => givens += 1,
            }
        }
        self.givens += givens;
        self.most_givens = self.most_givens.max(givens);
    }

    pub fn of<'a>(puzzles: impl IntoIterator<Item = &'a Puzzle>) -> ShapeStats {
        let mut stats = ShapeStats::default();
        for p in puzzles {
            stats.add(p);
        }
        stats
    }

    pub fn cages(&self) -> usize {
        self.sizes.values().sum()
    }

    /// The mean number of cells per cage.
    pub fn mean_cage_size(&self) -> f64 {
        let cells: usize = self.sizes.iter().map(|(s, n)| s * n).sum();
        cells as f64 / self.cages().max(1) as f64
    }

    /// The share of cages of each size, sizes 1..=`up_to` (the last one counting
    /// every larger cage too).
    pub fn size_shares(&self, up_to: usize) -> Vec<f64> {
        let total = self.cages().max(1) as f64;
        (1..=up_to)
            .map(|s| {
                let n: usize = self
                    .sizes
                    .iter()
                    .filter(|&(&k, _)| k == s || (s == up_to && k > s))
                    .map(|(_, n)| n)
                    .sum();
                n as f64 / total
            })
            .collect()
    }

    /// The share of multi-cell cages with each operation (+, −, ×, ÷).
    pub fn op_shares(&self) -> [f64; 4] {
        let total = self.ops.iter().sum::<usize>().max(1) as f64;
        self.ops.map(|n| n as f64 / total)
    }

    /// Total variation distance between the cage-size mixes (0 same, 1 disjoint).
    pub fn size_distance(&self, other: &ShapeStats) -> f64 {
        let up_to = 6;
        let (a, b) = (self.size_shares(up_to), other.size_shares(up_to));
        a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum::<f64>() / 2.0
    }

    /// Total variation distance between the operation mixes.
    pub fn op_distance(&self, other: &ShapeStats) -> f64 {
        let (a, b) = (self.op_shares(), other.op_shares());
        a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum::<f64>() / 2.0
    }
}

impl fmt::Display for ShapeStats {
    /// `mean 2.25 | sizes 1:0% 2:80% 3:17% 4:3% 5+:0% | + 25% - 28% x 27% / 19% | givens ≤ 1`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mean {:.2} | sizes", self.mean_cage_size())?;
        for (i, s) in self.size_shares(5).iter().enumerate() {
            let label = if i == 4 {
                "5+".to_string()
            } else {
                (i + 1).to_string()
            };
            write!(f, " {label}:{:.0}%", 100.0 * s)?;
        }
        let o = self.op_shares();
        write!(
            f,
            " | + {:.0}% - {:.0}% x {:.0}% / {:.0}% | givens <= {}",
            100.0 * o[0],
            100.0 * o[1],
            100.0 * o[2],
            100.0 * o[3],
            self.most_givens
        )
    }
}
