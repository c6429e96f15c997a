//! One name for a puzzle and its mirror images: the same cages and clues turned
//! or flipped are the same puzzle to a solver, so a run hands on only the first
//! of them.

use crate::clues::op_code;
use kenken_model::Puzzle;

/// A map of (row, column, grid size) to (row, column).
type Symmetry = fn(usize, usize, usize) -> (usize, usize);

/// The symmetries of the square as maps of (row, column) on an `n`×`n` grid:
/// the identity, three turns, and four reflections (the last two swap rows and
/// columns).
const SYMMETRIES: [Symmetry; 8] = [
    |r, c, _| (r, c),
    |r, c, n| (c, n - 1 - r),
    |r, c, n| (n - 1 - r, n - 1 - c),
    |r, c, n| (n - 1 - c, r),
    |r, c, n| (r, n - 1 - c),
    |r, c, n| (n - 1 - r, c),
    |r, c, _| (c, r),
    |r, c, n| (n - 1 - c, n - 1 - r),
];

/// The smallest encoding of the puzzle over the symmetries that keep its
/// regions regions (a KenDoku's boxes of unequal sides are not turned a
/// quarter): equal for two puzzles exactly when one is a turn or reflection of
/// the other.
pub fn canonical_key(puzzle: &Puzzle) -> Vec<u64> {
    let n = puzzle.size().get();
    let quarter_turns = puzzle.boxes().is_none_or(|(r, c)| r == c);
    SYMMETRIES
        .iter()
        .enumerate()
        .filter(|&(i, _)| quarter_turns || matches!(i, 0 | 2 | 4 | 5))
        .map(|(_, map)| {
            encode(puzzle, |cell| {
                let (r, c) = map(cell / n, cell % n, n);
                r * n + c
            })
        })
        .min()
        .unwrap_or_default()
}

/// The cages with their cells mapped: each as its cell count, its cells in
/// reading order, its operation and its clue; cages in the order of their first
/// cells.
fn encode(puzzle: &Puzzle, map: impl Fn(usize) -> usize) -> Vec<u64> {
    let mut cages: Vec<Vec<u64>> = puzzle
        .cages()
        .iter()
        .map(|cage| {
            let mut cells: Vec<u64> = cage.cells.iter().map(|c| map(c.index()) as u64).collect();
            cells.sort_unstable();
            let mut code = Vec::with_capacity(cells.len() + 3);
            code.push(cells.len() as u64);
            code.extend(cells);
            code.push(u64::from(op_code(cage.op)));
            code.push(cage.clue);
            code
        })
        .collect();
    cages.sort_unstable_by_key(|c| c[1]);
    cages.concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_formats::tatham;

    #[test]
    fn turns_and_reflections_share_a_key() {
        // A 4×4 and itself turned a quarter (by hand: cell (r, c) to (c, 3 − r)).
        let p = tatham::read("4:_baa_a_a_6ab,d2m12s1m6s1d2a5").unwrap();
        let n = 4;
        let turned = kenken_model::Puzzle::new(
            p.size(),
            p.cages()
                .iter()
                .map(|cage| {
                    let cells = cage
                        .cells
                        .iter()
                        .map(|c| {
                            let (r, col) = (c.index() / n, c.index() % n);
                            kenken_model::CellId::new(col * n + (n - 1 - r))
                        })
                        .collect();
                    kenken_model::Cage::new(cells, cage.op, cage.clue)
                })
                .collect(),
        )
        .unwrap();
        assert_ne!(tatham::write(&turned).unwrap(), tatham::write(&p).unwrap());
        assert_eq!(canonical_key(&turned), canonical_key(&p));
        // Another clue is another puzzle.
        let other = tatham::read("4:_baa_a_a_6ab,d2m12s1m6s1d2a7").unwrap();
        assert_ne!(canonical_key(&other), canonical_key(&p));
    }
}
