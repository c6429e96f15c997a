//! Hidden operations against a second, independent solver: Tatham 4×4 and 5×5
//! puzzles read with every operation hidden, counted by the search and by a small
//! backtracking solver written here from the rule alone (a cage is satisfied
//! when its digits make the clue by + or ×, or, on two cells, by − or ÷). They
//! must agree on unique or ambiguous for every puzzle, and on the solution of the
//! unique ones.

use super::parse_tatham;
use kenken_model::{Digit, Op, Puzzle};
use kenken_search::{solve, Verdict};
use std::path::PathBuf;

/// The Tatham corpus files read here, and how many puzzles of each.
const FILES: [(&str, usize); 10] = [
    ("tatham-4x4-easy", 200),
    ("tatham-4x4-normal", 200),
    ("tatham-4x4-hard", 200),
    ("tatham-4x4-extreme", 200),
    ("tatham-4x4-unreasonable", 200),
    ("tatham-5x5-easy", 60),
    ("tatham-5x5-normal", 60),
    ("tatham-5x5-hard", 60),
    ("tatham-5x5-extreme", 60),
    ("tatham-5x5-unreasonable", 60),
];

fn corpus(name: &str, count: usize) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../puzzles")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
    let ids: Vec<String> = serde_json::from_str(&text).expect("a JSON list of game IDs");
    ids.into_iter().take(count).collect()
}

/// A cage as the rule sees it: its cells and its number, whatever its operation.
struct Clue {
    cells: Vec<usize>,
    target: u64,
}

/// Whether `digits` make `target` by an operation a hidden cage may have.
fn makes(digits: &[u64], target: u64) -> bool {
    let sum: u64 = digits.iter().sum();
    let product: u64 = digits.iter().product();
    if sum == target || product == target {
        return true;
    }
    if let [a, b] = *digits {
        let (big, small) = (a.max(b), a.min(b));
        return big - small == target || big == small * target;
    }
    false
}

/// Whether a cage with `digits` placed and `left` cells empty can still make
/// `target`: by a sum (each empty cell adds at least 1) or a product (what is
/// placed divides it); a two-cell cage with one cell placed always can.
fn may_make(digits: &[u64], left: usize, target: u64, cells: usize) -> bool {
    if cells == 2 && left > 0 {
        return true;
    }
    let sum: u64 = digits.iter().sum();
    let product: u64 = digits.iter().product();
    sum + left as u64 <= target || target.is_multiple_of(product)
}

/// Counts solutions up to 2 by filling cells in reading order; the first
/// solution found is kept.
struct Backtracker {
    n: usize,
    clues: Vec<Clue>,
    cage_of: Vec<usize>,
    grid: Vec<u64>,
    found: usize,
    first: Option<Vec<u64>>,
}

impl Backtracker {
    fn new(puzzle: &Puzzle) -> Backtracker {
        let n = puzzle.size().get();
        let clues: Vec<Clue> = puzzle
            .cages()
            .iter()
            .map(|c| Clue {
                cells: c.cells.iter().map(|c| c.index()).collect(),
                target: c.clue,
            })
            .collect();
        let mut cage_of = vec![0; n * n];
        for (i, clue) in clues.iter().enumerate() {
            for &cell in &clue.cells {
                cage_of[cell] = i;
            }
        }
        Backtracker {
            n,
            clues,
            cage_of,
            grid: vec![0; n * n],
            found: 0,
            first: None,
        }
    }

    fn fits(&self, cell: usize, d: u64) -> bool {
        let (row, col) = (cell / self.n, cell % self.n);
        let seen = (0..col).any(|c| self.grid[row * self.n + c] == d)
            || (0..row).any(|r| self.grid[r * self.n + col] == d);
        if seen {
            return false;
        }
        let clue = &self.clues[self.cage_of[cell]];
        // Cells are filled in reading order: a cage's cells up to this one are set.
        let placed: Vec<u64> = clue
            .cells
            .iter()
            .filter(|&&c| c < cell)
            .map(|&c| self.grid[c])
            .chain([d])
            .collect();
        let left = clue.cells.len() - placed.len();
        if left == 0 {
            makes(&placed, clue.target)
        } else {
            may_make(&placed, left, clue.target, clue.cells.len())
        }
    }

    fn run(&mut self, cell: usize) {
        if self.found >= 2 {
            return;
        }
        if cell == self.n * self.n {
            self.found += 1;
            self.first.get_or_insert_with(|| self.grid.clone());
            return;
        }
        for d in 1..=self.n as u64 {
            if self.fits(cell, d) {
                self.grid[cell] = d;
                self.run(cell + 1);
                self.grid[cell] = 0;
            }
        }
    }
}

#[test]
fn the_search_agrees_with_a_backtracker_on_hidden_operations() {
    let (mut unique, mut ambiguous) = (0, 0);
    for (name, count) in FILES {
        for id in corpus(name, count) {
            let hidden = parse_tatham(&id).with_hidden_ops();
            assert!(hidden.cages().iter().all(|c| c.op != Op::Add));
            let mut backtracker = Backtracker::new(&hidden);
            backtracker.run(0);
            let out = solve(&hidden);
            let want = match backtracker.found {
                0 => Verdict::Impossible,
                1 => Verdict::Unique,
                _ => Verdict::Ambiguous,
            };
            assert_eq!(out.verdict, want, "{id} with its operations hidden");
            let theirs: Vec<Digit> = backtracker
                .first
                .expect("a Tatham puzzle has a solution")
                .into_iter()
                .map(|d| d as Digit)
                .collect();
            if want == Verdict::Unique {
                unique += 1;
                assert_eq!(out.solution.as_deref(), Some(&theirs[..]), "{id}");
            } else {
                ambiguous += 1;
            }
            // Whatever the search found satisfies the rule as written here.
            let solution = out.solution.expect("a solution");
            for cage in hidden.cages() {
                let digits: Vec<u64> = cage
                    .cells
                    .iter()
                    .map(|c| u64::from(solution[c.index()]))
                    .collect();
                assert!(makes(&digits, cage.clue), "{id}: {cage:?} gets {digits:?}");
            }
        }
    }
    eprintln!("hidden operations: {unique} unique, {ambiguous} ambiguous");
    assert!(unique + ambiguous >= 1000);
    assert!(
        unique >= 300 && ambiguous >= 300,
        "{unique} unique, {ambiguous} ambiguous"
    );
}
