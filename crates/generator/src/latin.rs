//! Random Latin squares (the solution every candidate of an attempt keeps).

use crate::rng::AttemptRng;
use kenken_model::Digit;
use rand::seq::SliceRandom;
use rand::Rng;

/// A random Latin square of order `n` in reading order, digits 1..=n; with
/// `boxes` (rows, cols), every box holds every digit too (KenDoku).
pub fn random_square(n: usize, boxes: Option<(usize, usize)>, rng: &mut AttemptRng) -> Vec<Digit> {
    match boxes {
        None => by_rows(n, rng),
        Some(shape) => with_boxes(n, shape, rng),
    }
}

/// Row by row, each row a random perfect matching of columns to digits not yet
/// in their column. A Latin rectangle always extends by one row (Hall's
/// theorem), so this never backtracks.
fn by_rows(n: usize, rng: &mut AttemptRng) -> Vec<Digit> {
    let mut grid = vec![0 as Digit; n * n];
    // used[c] bit d: digit d+1 already in column c.
    let mut used = vec![0u32; n];
    let mut digits: Vec<usize> = (0..n).collect();
    let mut cols: Vec<usize> = (0..n).collect();
    for r in 0..n {
        // digit_col[d]: the column digit d is matched to in this row.
        let mut digit_col = vec![usize::MAX; n];
        cols.shuffle(rng);
        for &c in &cols {
            digits.shuffle(rng);
            let mut seen = vec![false; n];
            let placed = augment(c, &used, &digits, &mut digit_col, &mut seen);
            debug_assert!(placed, "a Latin rectangle always extends");
        }
        for (d, &c) in digit_col.iter().enumerate() {
            grid[r * n + c] = (d + 1) as Digit;
            used[c] |= 1 << d;
        }
    }
    grid
}

/// Kuhn's augmenting path from column `c` (digits tried in `order`).
fn augment(
    c: usize,
    used: &[u32],
    order: &[usize],
    digit_col: &mut [usize],
    seen: &mut [bool],
) -> bool {
    for &d in order {
        if used[c] & (1 << d) != 0 || seen[d] {
            continue;
        }
        seen[d] = true;
        if digit_col[d] == usize::MAX || augment(digit_col[d], used, order, digit_col, seen) {
            digit_col[d] = c;
            return true;
        }
    }
    false
}

/// Cell by cell with random digit order and backtracking, restarting after too
/// many dead ends (a sudoku-like fill: rows, columns and boxes).
fn with_boxes(n: usize, (br, bc): (usize, usize), rng: &mut AttemptRng) -> Vec<Digit> {
    let box_of = |cell: usize| ((cell / n) / br) * (n / bc) + (cell % n) / bc;
    loop {
        let mut grid = vec![0 as Digit; n * n];
        let mut rows = vec![0u32; n];
        let mut cols = vec![0u32; n];
        let mut boxes = vec![0u32; n];
        // Per cell, the digits still to try (shuffled when the cell is entered).
        let mut tries: Vec<Vec<usize>> = vec![Vec::new(); n * n];
        let mut cell = 0;
        let mut entered = true;
        let mut dead_ends = 0usize;
        while cell < n * n {
            if entered {
                let free = !(rows[cell / n] | cols[cell % n] | boxes[box_of(cell)]);
                let mut options: Vec<usize> = (0..n).filter(|&d| free & (1 << d) != 0).collect();
                options.shuffle(rng);
                tries[cell] = options;
            }
            if let Some(d) = tries[cell].pop() {
                grid[cell] = (d + 1) as Digit;
                rows[cell / n] |= 1 << d;
                cols[cell % n] |= 1 << d;
                boxes[box_of(cell)] |= 1 << d;
                cell += 1;
                entered = true;
                continue;
            }
            dead_ends += 1;
            if cell == 0 || dead_ends > 50 * n * n {
                break;
            }
            cell -= 1;
            let d = usize::from(grid[cell] - 1);
            grid[cell] = 0;
            rows[cell / n] &= !(1 << d);
            cols[cell % n] &= !(1 << d);
            boxes[box_of(cell)] &= !(1 << d);
            entered = false;
        }
        if cell == n * n {
            return grid;
        }
        // A fresh start draws new numbers: the restart is part of the attempt's
        // deterministic stream.
        let _: u32 = rng.random();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::attempt_rng;

    fn is_latin(n: usize, g: &[Digit]) -> bool {
        (0..n).all(|i| {
            let row: u32 = (0..n).map(|j| 1 << g[i * n + j]).fold(0, |a, b| a | b);
            let col: u32 = (0..n).map(|j| 1 << g[j * n + i]).fold(0, |a, b| a | b);
            row == col && row == ((1 << (n + 1)) - 2)
        })
    }

    #[test]
    fn squares_are_latin_at_every_size() {
        for n in 3..=16 {
            for seed in 0..5 {
                let g = random_square(n, None, &mut attempt_rng(seed));
                assert!(is_latin(n, &g), "{n} {seed}");
            }
        }
    }

    #[test]
    fn boxed_squares_fill_their_boxes() {
        for (n, br, bc) in [(4, 2, 2), (6, 2, 3), (8, 2, 4), (9, 3, 3)] {
            let g = random_square(n, Some((br, bc)), &mut attempt_rng(7));
            assert!(is_latin(n, &g));
            for b in 0..n {
                let mut seen = 0u32;
                for (cell, &d) in g.iter().enumerate() {
                    if ((cell / n) / br) * (n / bc) + (cell % n) / bc == b {
                        seen |= 1 << d;
                    }
                }
                assert_eq!(seen, (1 << (n + 1)) - 2);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_square() {
        assert_eq!(
            random_square(9, None, &mut attempt_rng(3)),
            random_square(9, None, &mut attempt_rng(3))
        );
    }
}
