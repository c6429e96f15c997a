use crate::bit_vector::BitVector;
use crate::bits;
use crate::budget::{Budget, Exhausted, Limits};
use crate::{CageId, Digit, Digits, Op, Puzzle, MAX_SIZE};

/// Search nodes between two charges to the budget.
const CHARGE_EVERY: u64 = 1 << 12;

/// Work units a search node costs: a node works out a cell's digits and tries
/// each, a few elementary checks.
const UNITS_PER_NODE: u64 = 4;

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
    pub live: BitVector,
}

impl Combinations {
    /// Enumerates the cage's combinations: digits ascending at each cell, cells in
    /// the cage's order (the first cell varies slowest).
    ///
    /// Digit sets are bitmasks: a cell may take the digits not yet used by an
    /// earlier cage cell of its row, column or box, narrowed by the clue (for `+`,
    /// the digits that leave the remaining cells a reachable sum; for `×`, the
    /// divisors of the remaining product). The last cell's digit is computed, not
    /// searched: what is left of the sum or product, or one of the two that the
    /// first digit of a two-cell `−` or `÷` allows. Only `−` and `÷` on other cage
    /// sizes check the clue on each complete assignment ([`Op::holds`]). Nothing
    /// is allocated but the table itself.
    ///
    /// Bounded by the default [`Limits`] (a cage whose table would take more than
    /// 512 MiB, such as a whole-row sum on 16×16, is refused); see
    /// [`Combinations::enumerate_within`].
    pub fn enumerate(puzzle: &Puzzle, id: CageId) -> Result<Combinations, Exhausted> {
        Combinations::enumerate_within(puzzle, id, &mut Budget::new(Limits::new()))
    }

    /// [`Combinations::enumerate`] spending its work on `budget` (a unit per search
    /// node) and reserving the table's bytes there as it grows (kept reserved when
    /// it succeeds: the caller holds the table). Fails as soon as the budget is
    /// exhausted, holding nothing more.
    pub fn enumerate_within(
        puzzle: &Puzzle,
        id: CageId,
        budget: &mut Budget,
    ) -> Result<Combinations, Exhausted> {
        let cage = puzzle.cage(id);
        if cage.op == Op::Hidden {
            return Combinations::union_within(puzzle, id, budget);
        }
        Combinations::of_op(puzzle, id, cage.op, budget).map(|(table, _)| table)
    }

    /// The table of a hidden operation: the union of the tables of the
    /// operations it may be ([`Op::hidden_choices`]), in the same order (rows
    /// ascending), each combination once.
    fn union_within(
        puzzle: &Puzzle,
        id: CageId,
        budget: &mut Budget,
    ) -> Result<Combinations, Exhausted> {
        let width = puzzle.cage(id).cells.len();
        let mut tables = Vec::new();
        let mut held = 0;
        for &op in Op::hidden_choices(width) {
            match Combinations::of_op(puzzle, id, op, budget) {
                Ok((table, bytes)) => {
                    held += bytes;
                    tables.push(table);
                }
                Err(why) => {
                    budget.release(held);
                    return Err(why);
                }
            }
        }
        let mut rows: Vec<&[Digit]> = tables
            .iter()
            .flat_map(|t| (0..t.len()).map(move |i| t.row(i)))
            .collect();
        rows.sort_unstable();
        rows.dedup();
        let digits: Vec<Digit> = rows.iter().flat_map(|r| r.iter().copied()).collect();
        let table = Combinations::from_rows(width, digits);
        // The parts are given back once the union is held.
        let kept = table.digits.len() + table.len().div_ceil(8);
        if let Err(why) = budget.reserve(kept) {
            budget.release(held);
            return Err(why);
        }
        budget.release(held);
        Ok(table)
    }

    /// The table of one visible operation, and the bytes it holds on the budget.
    fn of_op(
        puzzle: &Puzzle,
        id: CageId,
        op: Op,
        budget: &mut Budget,
    ) -> Result<(Combinations, usize), Exhausted> {
        let cage = puzzle.cage(id);
        let size = puzzle.size();
        let n = size.get();
        let width = cage.cells.len();
        // Per cage cell, its row, column and box as indices into
        // `Enumerator::used`. Without boxes the box is the row again: a digit is
        // then set (and cleared) twice in the row's mask, which is harmless.
        let mut houses = [[0u8; 3]; MAX_CAGE_CELLS];
        for (h, &cell) in houses.iter_mut().zip(&cage.cells) {
            let row = size.row(cell);
            let col = MAX_SIZE + size.col(cell);
            let bx = puzzle.box_of(cell).map_or(row, |b| 2 * MAX_SIZE + b);
            *h = [row as u8, col as u8, bx as u8];
        }
        let rule = Rule {
            op,
            clue: cage.clue,
            n: n as u64,
            full: Digits::full(n).bits(),
            width,
            clue_divisors: if op == Op::Mul && cage.clue != 0 {
                (1..=n as u64)
                    .filter(|&d| cage.clue.is_multiple_of(d))
                    .fold(0, |m, d| m | 1 << (d - 1))
            } else {
                0
            },
        };
        let mut e = Enumerator {
            rule,
            houses: &houses[..width],
            used: [0; 3 * MAX_SIZE],
            current: [0; MAX_CAGE_CELLS],
            // Grown (and charged) at the first row.
            out: Vec::new(),
            found: 0,
            nodes: 0,
            charged_nodes: 0,
            budget,
            held: 0,
            stopped: None,
        };
        e.run();
        e.charge();
        let held = e.held;
        if let Some(why) = e.stopped {
            e.budget.release(held);
            return Err(why);
        }
        Ok((
            Combinations {
                width,
                digits: e.out,
                live: BitVector::repeat(true, e.found),
            },
            held,
        ))
    }

    /// Builds a table from explicit rows (each `width` digits), all live.
    pub fn from_rows(width: usize, digits: Vec<Digit>) -> Combinations {
        assert!(width > 0 && digits.len().is_multiple_of(width));
        let count = digits.len() / width;
        Combinations {
            width,
            digits,
            live: BitVector::repeat(true, count),
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

/// The most cells a cage can have (a whole 16×16 grid).
const MAX_CAGE_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// What a cage's clue allows, looked up in the enumeration's inner loops. `Copy`,
/// so that a loop keeps it in registers while it writes rows.
#[derive(Clone, Copy)]
struct Rule {
    op: Op,
    clue: u64,
    n: u64,
    /// All digits 1..=N as a mask.
    full: u16,
    /// Cells in the cage.
    width: usize,
    /// For `×`, the digits that divide the clue (none for a clue of 0).
    clue_divisors: u16,
}

impl Rule {
    /// The bit of digit `d`, or nothing when there is no such digit in 1..=N.
    #[inline(always)]
    fn digit_bit(self, d: Option<u64>) -> u16 {
        match d {
            Some(d) if (1..=self.n).contains(&d) => 1 << (d - 1),
            _ => 0,
        }
    }

    /// The digits cell `pos`, not the last, may take as far as the clue can tell
    /// when the cells from `pos` on must make `rest` (a sum for `+`, a product
    /// for `×`); `free` are the digits its houses leave it.
    #[inline(always)]
    fn digits(self, pos: usize, rest: u64, free: u16) -> u16 {
        match self.op {
            // The cells after this one add between 1 and N each.
            Op::Add => {
                let left = (self.width - pos - 1) as u64;
                let lo = rest.saturating_sub(left * self.n).max(1);
                let hi = rest.saturating_sub(left).min(self.n);
                if lo > hi {
                    0
                } else {
                    (((1u32 << hi) - 1) & !((1u32 << (lo - 1)) - 1)) as u16
                }
            }
            // A divisor of the remaining product (which divides the clue).
            Op::Mul => {
                let mut divisors = 0;
                for i in bits::ones(u64::from(free & self.clue_divisors)) {
                    if rest.is_multiple_of(i as u64 + 1) {
                        divisors |= 1 << i;
                    }
                }
                divisors
            }
            Op::Given => self.digit_bit(Some(self.clue)),
            // Checked on each whole assignment (a hidden operation's table is the
            // union of its choices' tables, so it is not enumerated here).
            Op::Sub | Op::Div | Op::Hidden => u16::MAX,
        }
    }

    /// What the cells after one with digit `d` must make, when the cells from
    /// it on must make `rest`.
    #[inline(always)]
    fn rest_after(self, rest: u64, d: u64) -> u64 {
        match self.op {
            Op::Add => rest - d,
            Op::Mul => rest / d,
            _ => rest,
        }
    }

    /// The digits the last cell may take as far as the clue can tell without
    /// checking the whole assignment: what is left of the sum or product, or
    /// what the first digit of a two-cell `−` or `÷` allows.
    #[inline(always)]
    fn last_digits(self, rest: u64, first: u64) -> u16 {
        match self.op {
            Op::Add | Op::Mul => self.digit_bit(Some(rest)),
            Op::Given => self.digit_bit(Some(self.clue)),
            Op::Sub if self.width == 2 => {
                self.digit_bit(first.checked_add(self.clue))
                    | self.digit_bit(first.checked_sub(self.clue))
            }
            Op::Div if self.width == 2 => {
                self.digit_bit(first.checked_mul(self.clue))
                    | self.digit_bit(
                        (self.clue != 0 && first.is_multiple_of(self.clue))
                            .then(|| first / self.clue),
                    )
            }
            Op::Sub | Op::Div | Op::Hidden => u16::MAX,
        }
    }

    /// Whether complete assignments must still be checked against the clue
    /// (`−` and `÷` on other than two cells).
    #[inline(always)]
    fn checks_rows(self) -> bool {
        self.op == Op::Hidden || self.width != 2 && matches!(self.op, Op::Sub | Op::Div)
    }
}

struct Enumerator<'a> {
    rule: Rule,
    /// Per cage cell, its row, column and box in `used`.
    houses: &'a [[u8; 3]],
    /// Per row (0..16), column (16..32) and box (32..48), the digits the cage
    /// cells placed so far put there.
    used: [u16; 3 * MAX_SIZE],
    /// The digits placed so far, in cage cell order.
    current: [Digit; MAX_CAGE_CELLS],
    out: Vec<Digit>,
    found: usize,
    nodes: u64,
    /// The nodes already spent on the budget.
    charged_nodes: u64,
    budget: &'a mut Budget,
    /// The bytes reserved on the budget for the table so far.
    held: usize,
    /// Why the enumeration stopped early.
    stopped: Option<Exhausted>,
}

impl Enumerator<'_> {
    /// Enumerates the whole cage.
    fn run(&mut self) {
        let rule = self.rule;
        // `rest` is what the cells still to place must make: the clue for `+` (a
        // sum to reach) and `×` (a product to reach); unused by the others.
        if rule.width == 1 {
            if self.visit() {
                let digits = rule.full & rule.last_digits(rule.clue, 0);
                self.leaves(rule, 0, digits);
            }
        } else {
            self.dfs(0, rule.clue, 0);
        }
    }

    /// Counts a node (a cage cell visited with the digits before it placed);
    /// false once the budget is exhausted.
    #[inline(always)]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHARGE_EVERY) {
            self.charge();
        }
        self.stopped.is_none()
    }

    /// Charges the nodes visited since the last charge.
    #[cold]
    fn charge(&mut self) {
        let nodes = self.nodes - self.charged_nodes;
        self.charged_nodes = self.nodes;
        if let Err(why) = self.budget.spend(UNITS_PER_NODE * nodes) {
            self.stopped.get_or_insert(why);
        }
    }

    /// Makes room for more rows in the table, reserving the bytes first (the rows
    /// and the table's live bits); false when the budget refuses them.
    ///
    /// While the rows move to their larger buffer both buffers are held, so the
    /// new one is reserved whole before the old one is given back.
    #[cold]
    fn grow(&mut self, width: usize) -> bool {
        let capacity = (2 * self.out.capacity())
            .max(self.out.len() + width)
            .max(32 * width);
        let bytes = capacity + (capacity / width).div_ceil(8);
        if let Err(why) = self.budget.reserve(bytes) {
            self.stopped.get_or_insert(why);
            return false;
        }
        self.out.reserve_exact(capacity - self.out.len());
        self.budget.release(self.held);
        self.held = bytes;
        true
    }

    /// The digits cage cell `pos` may take given the cells placed before it.
    #[inline(always)]
    fn free(&self, pos: usize) -> u16 {
        let [row, col, bx] = self.houses[pos];
        let used = self.used[row as usize] | self.used[col as usize] | self.used[bx as usize];
        self.rule.full & !used
    }

    /// Places cage cell `pos`, which is not the last. For `+` and `×`, `rest` is
    /// the sum or product the cells from `pos` on must make; `first` is the
    /// first cell's digit (for the two-cell `−` and `÷`).
    fn dfs(&mut self, pos: usize, rest: u64, first: u64) {
        if !self.visit() {
            return;
        }
        let rule = self.rule;
        let free = self.free(pos);
        let allowed = free & rule.digits(pos, rest, free);
        if pos + 2 == rule.width {
            self.penultimate(rule, pos, allowed, rest, first);
            return;
        }
        let [row, col, bx] = self.houses[pos].map(usize::from);
        for i in bits::ones(u64::from(allowed)) {
            let (bit, d) = (1u16 << i, i as u64 + 1);
            self.current[pos] = d as Digit;
            // The digit is in none of the three masks (it was allowed), so
            // clearing it afterwards restores them exactly.
            self.used[row] |= bit;
            self.used[col] |= bit;
            self.used[bx] |= bit;
            let first = if pos == 0 { d } else { first };
            self.dfs(pos + 1, rule.rest_after(rest, d), first);
            self.used[row] &= !bit;
            self.used[col] &= !bit;
            self.used[bx] &= !bit;
            if self.stopped.is_some() {
                return;
            }
        }
    }

    /// Tries each of the `allowed` digits in cell `pos`, the last but one, and
    /// records the assignments it completes. The last cell's digits are the
    /// ones it has free before `pos` is placed, less `pos`'s digit if the two
    /// cells see each other, so the houses' masks are not updated here.
    #[inline(always)]
    fn penultimate(&mut self, rule: Rule, pos: usize, allowed: u16, rest: u64, first: u64) {
        let last = pos + 1;
        let free = self.free(last);
        let (a, b) = (self.houses[pos], self.houses[last]);
        let sees = a[0] == b[0] || a[1] == b[1] || a[2] == b[2];
        for i in bits::ones(u64::from(allowed)) {
            if !self.visit() {
                return;
            }
            let (bit, d) = (1u16 << i, i as u64 + 1);
            self.current[pos] = d as Digit;
            let free = if sees { free & !bit } else { free };
            let first = if pos == 0 { d } else { first };
            let digits = free & rule.last_digits(rule.rest_after(rest, d), first);
            self.leaves(rule, last, digits);
            if self.stopped.is_some() {
                return;
            }
        }
    }

    /// Records the assignments completed by each of the `digits` in cell `pos`,
    /// the last.
    #[inline(always)]
    fn leaves(&mut self, rule: Rule, pos: usize, digits: u16) {
        for i in bits::ones(u64::from(digits)) {
            self.current[pos] = i as Digit + 1;
            if rule.checks_rows() && !rule.op.holds(&self.current[..rule.width], rule.clue) {
                continue;
            }
            if self.out.len() + rule.width > self.out.capacity() && !self.grow(rule.width) {
                return;
            }
            self.found += 1;
            self.out.extend_from_slice(&self.current[..rule.width]);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::budget::{Budget, Exhausted, Limits};
    use crate::{Cage, CellId, Combinations, Digit, Op, Puzzle, Size};

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

    /// A puzzle of `n`×`n` (KenDoku with `boxes` when given) whose first cage is
    /// `shape` with `op` and `clue`; every other cell is a given 1.
    fn puzzle_with(
        n: usize,
        boxes: Option<(usize, usize)>,
        shape: &[(usize, usize)],
        op: Op,
        clue: u64,
    ) -> (Puzzle, Vec<CellId>) {
        let s = Size::new(n).unwrap();
        let cells: Vec<_> = shape.iter().map(|&(r, c)| s.cell(r, c)).collect();
        let mut cages = vec![Cage::new(cells.clone(), op, clue)];
        cages.extend(
            s.cells()
                .filter(|c| !cells.contains(c))
                .map(|c| Cage::new(vec![c], Op::Given, 1)),
        );
        let p = match boxes {
            Some((br, bc)) => Puzzle::new_kendoku(s, cages, br, bc).unwrap(),
            None => Puzzle::new(s, cages).unwrap(),
        };
        let cells = p.cage(p.cage_of(cells[0])).cells.clone();
        (p, cells)
    }

    /// Every digit tuple of the cells (first cell slowest, digits ascending) in
    /// which no two cells that see each other share a digit.
    fn brute_force_tuples(p: &Puzzle, cells: &[CellId]) -> Vec<Vec<Digit>> {
        let n = p.size().get();
        let width = cells.len();
        let mut out = Vec::new();
        for code in 0..n.pow(width as u32) {
            let mut t = vec![0; width];
            let mut rest = code;
            for d in t.iter_mut().rev() {
                *d = (rest % n + 1) as Digit;
                rest /= n;
            }
            let clash =
                (0..width).any(|i| (0..i).any(|j| t[i] == t[j] && p.sees(cells[i], cells[j])));
            if !clash {
                out.push(t);
            }
        }
        out
    }

    /// The enumerator against a from-scratch brute force: every digit tuple of
    /// the cage that keeps the clash rule, checked with `Op::holds`, in the same
    /// order. Every shape and operation on 6×6 (with and without 2×3 KenDoku
    /// boxes) and on 16×16, every clue that has combinations and some that do not.
    #[test]
    fn same_rows_as_brute_force() {
        let shapes6: Vec<Vec<(usize, usize)>> = vec![
            vec![(0, 0)],
            vec![(0, 0), (0, 1)],
            vec![(0, 0), (1, 0)],
            vec![(1, 2), (1, 3)],
            vec![(0, 0), (0, 1), (0, 2)],
            vec![(0, 2), (0, 3), (0, 4)],
            vec![(0, 0), (0, 1), (1, 0)],
            vec![(0, 0), (0, 1), (1, 1)],
            vec![(1, 2), (2, 2), (2, 3)],
            vec![(0, 0), (0, 1), (1, 0), (1, 1)],
            vec![(1, 2), (1, 3), (2, 2), (2, 3)],
            vec![(0, 0), (0, 1), (1, 1), (1, 2)],
            vec![(0, 0), (1, 0), (2, 0), (3, 0)],
            vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)],
            vec![(1, 1), (1, 2), (1, 3), (2, 3), (3, 3)],
        ];
        let clues6: Vec<u64> = (0..=40).chain([48, 60, 72, 120, 360, 720, 1000]).collect();
        let shapes16: Vec<Vec<(usize, usize)>> = vec![
            vec![(15, 15)],
            vec![(3, 14), (3, 15)],
            vec![(0, 0), (1, 0), (1, 1)],
        ];
        let clues16: Vec<u64> = (0..=48)
            .chain([60, 64, 120, 210, 240, 256, 3360, u64::MAX])
            .collect();
        let cases = [
            (6, None, &shapes6, &clues6),
            (6, Some((2, 3)), &shapes6, &clues6),
            (16, None, &shapes16, &clues16),
            (16, Some((4, 4)), &shapes16, &clues16),
        ];
        let mut checked = 0;
        let mut rows = 0;
        for (n, boxes, shapes, clues) in cases {
            for shape in shapes.iter() {
                let (p, cells) = puzzle_with(n, boxes, shape, Op::Add, 1);
                let tuples = brute_force_tuples(&p, &cells);
                for op in [Op::Add, Op::Sub, Op::Mul, Op::Div] {
                    for &clue in clues.iter() {
                        let (p, cells) = puzzle_with(n, boxes, shape, op, clue);
                        let id = p.cage_of(cells[0]);
                        let op = p.cage(id).op;
                        let expected: Vec<Digit> = tuples
                            .iter()
                            .filter(|t| op.holds(t, clue))
                            .flatten()
                            .copied()
                            .collect();
                        let t = p.combinations(id).unwrap();
                        let what = format!("{n}x{n} {boxes:?} {shape:?} {op} {clue}");
                        assert_eq!(t.width(), cells.len(), "{what}");
                        assert_eq!(t.len() * t.width(), expected.len(), "{what}");
                        assert_eq!(t.live_count(), t.len(), "{what}");
                        let got: Vec<Digit> =
                            (0..t.len()).flat_map(|i| t.row(i).to_vec()).collect();
                        assert_eq!(got, expected, "{what}");
                        checked += 1;
                        rows += t.len();
                    }
                }
            }
        }
        assert!(
            checked > 5000 && rows > 30_000,
            "{checked} cages, {rows} rows"
        );
    }

    #[test]
    fn a_cage_too_large_for_the_budget_is_refused() {
        // 2×5 cells of a 16×16 adding to the middle: tens of millions of rows.
        let shape: Vec<_> = (0..2).flat_map(|r| (0..5).map(move |c| (r, c))).collect();
        let (p, cells) = puzzle_with(16, None, &shape, Op::Add, 85);
        let id = p.cage_of(cells[0]);
        let mut budget = Budget::new(Limits::new().with_memory(16 << 20));
        let refused = Combinations::enumerate_within(&p, id, &mut budget);
        assert_eq!(refused, Err(Exhausted::Memory { limit: 16 << 20 }));
        // Nothing stays reserved for a table that was not made.
        assert_eq!(budget.held(), 0);
        let mut budget = Budget::new(Limits {
            work: 1 << 20,
            ..Limits::new()
        });
        let refused = Combinations::enumerate_within(&p, id, &mut budget);
        assert_eq!(refused, Err(Exhausted::Work { limit: 1 << 20 }));
    }

    #[test]
    fn a_table_keeps_its_bytes_reserved() {
        let (p, cells) = puzzle_with(9, None, &[(0, 0), (0, 1), (0, 2)], Op::Add, 12);
        let id = p.cage_of(cells[0]);
        let mut budget = Budget::unlimited();
        let t = Combinations::enumerate_within(&p, id, &mut budget).unwrap();
        assert!(budget.held() >= t.len() * 3, "{} bytes", budget.held());
        assert!(budget.spent() > 0);
    }
}
