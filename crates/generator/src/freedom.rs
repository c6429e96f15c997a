//! How little a candidate's clues say.
//!
//! A cage's clue leaves some number of fillings: digit tuples, in cell order,
//! that give the clue with no digit twice in a row or column of the cage (the
//! cage's combination table before anything else is known). The natural log of
//! that number is the cage's *freedom*, and a candidate's freedom is the sum over
//! its cages. Among unique candidates, the hard ones are far more common at high
//! freedom than at low (4×4s rated 4.4: one in 200 of the unique candidates a
//! walk judged at freedom 12.5, none of the 190 000 it judged at 10.5 or less),
//! and the search below the band seeks it (see [`crate::search`]).
//!
//! Fillings are counted once per shape of cage and operation, for every clue at
//! once, and kept per thread: a run meets the same few shapes again and again.

use crate::clues::{allowed, clue, op_code};
use crate::draft::Draft;
use crate::request::Rules;
use kenken_model::{Digit, Op};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::Arc;

/// The most fillings enumerated for one shape and operation: every cage of up
/// to five cells on a 16×16 grid (16^5 = 2^20); a larger cage counts as a given
/// (freedom 0), so the walk neither seeks nor avoids it.
const MAX_FILLINGS: u64 = 1 << 20;

/// The most shapes a thread keeps counts of before it starts again from empty.
const MAX_CACHED: usize = 1 << 12;

/// A cage's shape, packed: the grid size, the operation, the rules' strictness
/// and operations, the cell count, and each cell's row and column relative to the
/// first cell (cells in reading order; 4 and 5 bits). A shape with more than
/// [`MAX_FILLINGS`] fillings is never packed, and those have at most 12 cells:
/// 25 bits, then 9 a cell after the first, fit 128.
type ShapeKey = u128;

/// The fillings of one shape and operation, by clue.
struct ShapeCounts {
    /// (clue, fillings giving it), by clue.
    by_clue: Vec<(u64, u64)>,
}

thread_local! {
    static SHAPES: RefCell<FxHashMap<ShapeKey, Option<Arc<ShapeCounts>>>> =
        RefCell::new(FxHashMap::default());
}

/// The freedom of a draft: the sum of its cages'.
pub fn draft_freedom(draft: &Draft, rules: &Rules) -> f64 {
    draft
        .cages
        .iter()
        .map(|c| cage_freedom(draft.size, &c.cells, c.op, &draft.digits(&c.cells), rules))
        .sum()
}

/// The freedom of one cage: `cells` (reading order) of an `n`×`n` grid with
/// operation `op` on these `digits` (the solution's). Zero for a given, and for a
/// cage with too many fillings to count (see [`MAX_FILLINGS`]).
pub fn cage_freedom(n: usize, cells: &[usize], op: Op, digits: &[Digit], rules: &Rules) -> f64 {
    if cells.len() < 2 {
        return 0.0;
    }
    let Some(value) = clue(op, digits) else {
        return 0.0;
    };
    let Some(counts) = shape_counts(n, cells, op, rules) else {
        return 0.0;
    };
    let fillings = counts
        .by_clue
        .binary_search_by_key(&value, |&(c, _)| c)
        .map_or(1, |i| counts.by_clue[i].1);
    (fillings as f64).ln()
}

/// The counts of a shape, from this thread's cache (they depend on nothing
/// else, so which thread computed them never shows); None for a shape with too
/// many fillings.
fn shape_counts(n: usize, cells: &[usize], op: Op, rules: &Rules) -> Option<Arc<ShapeCounts>> {
    if (n as u64).checked_pow(cells.len() as u32)? > MAX_FILLINGS {
        return None;
    }
    let offsets: Vec<(usize, usize)> = cells
        .iter()
        .map(|&c| (c / n - cells[0] / n, c % n + n - 1 - cells[0] % n))
        .collect();
    let flags = [
        rules.strict,
        rules.ops.add,
        rules.ops.sub,
        rules.ops.mul,
        rules.ops.div,
    ]
    .iter()
    .fold(0u128, |bits, &on| bits << 1 | u128::from(on));
    let head = (n as u128) << 16 | u128::from(op_code(op)) << 13 | flags << 8 | cells.len() as u128;
    let key = offsets[1..].iter().fold(head, |key, &(dr, dc)| {
        key << 9 | (dr as u128) << 5 | dc as u128
    });
    SHAPES.with(|shapes| {
        if let Some(found) = shapes.borrow().get(&key) {
            return found.clone();
        }
        let made = Arc::new(count_fillings(n, &offsets, op, rules));
        let mut shapes = shapes.borrow_mut();
        if shapes.len() >= MAX_CACHED {
            shapes.clear();
        }
        shapes.insert(key, Some(Arc::clone(&made)));
        Some(made)
    })
}

/// Every filling of the shape (digits 1..=n, none twice in a row or column),
/// by the clue the operation gives it where the rules allow that clue.
fn count_fillings(n: usize, offsets: &[(usize, usize)], op: Op, rules: &Rules) -> ShapeCounts {
    let k = offsets.len();
    // For each cell, the earlier cells it shares a row or column with.
    let clashes: Vec<Vec<usize>> = (0..k)
        .map(|i| {
            (0..i)
                .filter(|&j| offsets[i].0 == offsets[j].0 || offsets[i].1 == offsets[j].1)
                .collect()
        })
        .collect();
    let mut by_clue: FxHashMap<u64, u64> = FxHashMap::default();
    let mut digits: Vec<Digit> = vec![0; k];
    let fill = Fill {
        n,
        op,
        rules,
        clashes: &clashes,
    };
    fill.from(0, &mut digits, &mut by_clue);
    let mut by_clue: Vec<(u64, u64)> = by_clue.into_iter().collect();
    by_clue.sort_unstable();
    ShapeCounts { by_clue }
}

/// The enumeration of [`count_fillings`].
struct Fill<'a> {
    n: usize,
    op: Op,
    rules: &'a Rules,
    clashes: &'a [Vec<usize>],
}

impl Fill<'_> {
    /// Every filling of cells `at..` after `digits[..at]`.
    fn from(&self, at: usize, digits: &mut Vec<Digit>, by_clue: &mut FxHashMap<u64, u64>) {
        if at == digits.len() {
            if allowed(self.op, digits, self.rules) {
                if let Some(c) = clue(self.op, digits) {
                    *by_clue.entry(c).or_default() += 1;
                }
            }
            return;
        }
        for d in 1..=self.n as Digit {
            if self.clashes[at].iter().all(|&j| digits[j] != d) {
                digits[at] = d;
                self.from(at + 1, digits, by_clue);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::random_draft;
    use crate::latin::random_square;
    use crate::request::Request;
    use crate::rng::attempt_rng;
    use kenken_model::Combinations;
    use kenken_techniques::Rating;

    fn rules() -> Rules {
        Request::new(4, Rating(0), None).rules
    }

    #[test]
    fn a_clue_is_as_free_as_its_fillings() {
        let r = rules();
        // On a 4×4 domino: 3− is (1,4) and (4,1); 1− has six fillings.
        let f = |op, digits: [Digit; 2]| cage_freedom(4, &[0, 1], op, &digits, &r);
        assert!((f(Op::Sub, [1, 4]) - 2f64.ln()).abs() < 1e-12);
        assert!((f(Op::Sub, [2, 3]) - 6f64.ln()).abs() < 1e-12);
        // 5+: (1,4) (4,1) (2,3) (3,2). Every × clue of a 4×4 domino has two.
        assert!((f(Op::Add, [2, 3]) - 4f64.ln()).abs() < 1e-12);
        for digits in [[1, 2], [3, 4], [2, 4]] {
            assert!((f(Op::Mul, digits) - 2f64.ln()).abs() < 1e-12);
        }
    }

    /// Freedom is the log of the size of the cage's combination table.
    #[test]
    fn freedom_counts_what_the_combination_tables_hold() {
        let request = Request::new(6, Rating(0), None);
        let mut rng = attempt_rng(3);
        for _ in 0..50 {
            let solution = random_square(6, None, &mut rng);
            let draft = random_draft(&request, solution, &mut rng).unwrap();
            let puzzle = draft.puzzle();
            let want: f64 = puzzle
                .cage_ids()
                .map(|g| (Combinations::enumerate(&puzzle, g).unwrap().len() as f64).ln())
                .sum();
            assert!((draft_freedom(&draft, &request.rules) - want).abs() < 1e-9);
        }
    }

    #[test]
    fn the_shape_decides_which_digits_may_repeat() {
        let r = rules();
        // 4+ on a 4×4: in a row of three, no filling (1+2+1 repeats a digit);
        // on an L whose ends share no line, one: (1,2,1), the 1s at the ends.
        let row = shape_counts(4, &[0, 1, 2], Op::Add, &r).unwrap();
        let fillings =
            |counts: &ShapeCounts, c: u64| counts.by_clue.iter().find(|x| x.0 == c).map(|x| x.1);
        assert_eq!(fillings(&row, 4), None);
        assert_eq!(fillings(&row, 6), Some(6));
        // Cells 0, 1, 5: 0 and 5 share neither row nor column.
        let ell = shape_counts(4, &[0, 1, 5], Op::Add, &r).unwrap();
        assert_eq!(fillings(&ell, 4), Some(1));
    }

    #[test]
    fn givens_and_huge_cages_count_as_nothing() {
        let r = rules();
        assert_eq!(cage_freedom(4, &[3], Op::Given, &[2], &r), 0.0);
        let cells: Vec<usize> = (0..8).collect();
        let digits: Vec<Digit> = (1..=8).collect();
        assert_eq!(cage_freedom(16, &cells, Op::Add, &digits, &r), 0.0);
    }
}
