use super::*;
use kenken_model::{Cage, CellId, Op, Size};

fn size(n: usize) -> Size {
    Size::new(n).unwrap()
}

fn cells(s: Size, rc: &[(usize, usize)]) -> Vec<CellId> {
    rc.iter().map(|&(r, c)| s.cell(r, c)).collect()
}

/// Checks a solution against the puzzle's rules directly, without the solver's
/// machinery: digits in range, no repeat in a row, column or box, every cage clue
/// holds.
fn assert_valid(p: &Puzzle, sol: &[Digit]) {
    let s = p.size();
    let n = s.get();
    assert_eq!(sol.len(), s.cell_count());
    assert!(sol.iter().all(|&d| (1..=n as Digit).contains(&d)));
    for a in s.cells() {
        for b in s.cells() {
            if p.sees(a, b) {
                assert_ne!(sol[a.index()], sol[b.index()], "{a:?} and {b:?} clash");
            }
        }
    }
    for cage in p.cages() {
        let digits: Vec<Digit> = cage.cells.iter().map(|c| sol[c.index()]).collect();
        assert!(cage.op.holds(&digits, cage.clue), "cage {cage:?} broken");
    }
}

/// The 3×3 example of the text format (`docs/formats.md`); its only solution is worked out by
/// hand in the test below.
fn example() -> Puzzle {
    let s = size(3);
    Puzzle::new(
        s,
        vec![
            Cage::new(cells(s, &[(0, 0), (1, 0)]), Op::Add, 3),
            Cage::new(cells(s, &[(0, 1), (1, 1)]), Op::Add, 5),
            Cage::new(cells(s, &[(0, 2)]), Op::Given, 1),
            Cage::new(cells(s, &[(1, 2), (2, 2)]), Op::Add, 5),
            Cage::new(cells(s, &[(2, 0), (2, 1)]), Op::Add, 4),
        ],
    )
    .unwrap()
}

/// Every row is one `+` cage, so any Latin square (or Sudoku, with boxes) solves it.
fn row_sums(n: usize, boxes: Option<(usize, usize)>) -> Puzzle {
    let s = size(n);
    let total = s.line_total() as u64;
    let cages = (0..n)
        .map(|r| Cage::new((0..n).map(|c| s.cell(r, c)).collect(), Op::Add, total))
        .collect();
    match boxes {
        Some((br, bc)) => Puzzle::new_kendoku(s, cages, br, bc).unwrap(),
        None => Puzzle::new(s, cages).unwrap(),
    }
}

/// Cages of horizontal dominoes over `grid`, with clues cycling through the
/// operations so every kind of table is exercised.
fn dominoes(grid: &[Vec<Digit>], boxes: Option<(usize, usize)>) -> Puzzle {
    let n = grid.len();
    assert_eq!(n % 2, 0, "dominoes need an even size");
    let s = size(n);
    let mut cages = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for c in (0..n).step_by(2) {
            let (a, b) = (row[c] as u64, row[c + 1] as u64);
            let (op, clue) = match (r * n + c) / 2 % 4 {
                0 => (Op::Add, a + b),
                1 => (Op::Mul, a * b),
                2 => (Op::Sub, a.abs_diff(b)),
                _ if a.max(b) % a.min(b) == 0 => (Op::Div, a.max(b) / a.min(b)),
                _ => (Op::Add, a + b),
            };
            cages.push(Cage::new(vec![s.cell(r, c), s.cell(r, c + 1)], op, clue));
        }
    }
    match boxes {
        Some((br, bc)) => Puzzle::new_kendoku(s, cages, br, bc).unwrap(),
        None => Puzzle::new(s, cages).unwrap(),
    }
}

#[test]
fn unique_three_by_three() {
    let p = example();
    let out = solve(&p);
    assert_eq!(out.verdict, Verdict::Unique);
    assert!(out.is_unique());
    assert_eq!(out.solutions_found, 1);
    let sol = out.solution.unwrap();
    assert_eq!(sol, vec![2, 3, 1, 1, 2, 3, 3, 1, 2]);
    assert_valid(&p, &sol);
    assert!(out.nodes >= 1);
}

#[test]
fn ambiguous_counts_every_latin_square() {
    // 12 Latin squares of order 3, 576 of order 4.
    for (n, squares) in [(3, 12), (4, 576)] {
        let p = row_sums(n, None);
        let out = count_solutions(&p, 10_000);
        assert_eq!(out.verdict, Verdict::Ambiguous);
        assert_eq!(out.solutions_found, squares, "order {n}");
        assert_valid(&p, &out.solution.unwrap());
    }
}

#[test]
fn the_limit_stops_the_search() {
    let p = row_sums(4, None);
    let out = count_solutions(&p, 5);
    assert_eq!(out.solutions_found, 5);
    assert_eq!(out.verdict, Verdict::Ambiguous);
    let two = solve(&p);
    assert_eq!(two.solutions_found, 2);
    assert_eq!(two.verdict, Verdict::Ambiguous);
    // Below 2 the verdict could not be trusted, so the limit is raised to 2.
    for limit in [0, 1] {
        assert_eq!(count_solutions(&p, limit), two);
        assert_eq!(count_solutions(&example(), limit).verdict, Verdict::Unique);
    }
}

#[test]
fn kendoku_boxes_are_houses() {
    // 288 Sudoku grids of order 4 (2×2 boxes) among the 576 Latin squares.
    let p = row_sums(4, Some((2, 2)));
    let out = count_solutions(&p, 10_000);
    assert_eq!(out.solutions_found, 288);
    assert_valid(&p, &out.solution.unwrap());
    // A 6×6 KenDoku with 2×3 boxes built on a Sudoku grid.
    let grid: Vec<Vec<Digit>> = vec![
        vec![1, 2, 3, 4, 5, 6],
        vec![4, 5, 6, 1, 2, 3],
        vec![2, 3, 1, 5, 6, 4],
        vec![5, 6, 4, 2, 3, 1],
        vec![3, 1, 2, 6, 4, 5],
        vec![6, 4, 5, 3, 1, 2],
    ];
    let p = dominoes(&grid, Some((2, 3)));
    let out = count_solutions(&p, 1000);
    assert_ne!(out.verdict, Verdict::Impossible);
    assert_valid(&p, out.solution.as_ref().unwrap());
}

#[test]
fn unreachable_clue_is_impossible() {
    let s = size(4);
    let mut cages = vec![Cage::new(cells(s, &[(0, 0), (0, 1)]), Op::Add, 9)];
    cages.extend(
        s.cells()
            .filter(|&c| c != s.cell(0, 0) && c != s.cell(0, 1))
            .map(|c| Cage::new(vec![c], Op::Given, 1)),
    );
    let out = solve(&Puzzle::new(s, cages).unwrap());
    assert_eq!(out.verdict, Verdict::Impossible);
    assert_eq!(out.solutions_found, 0);
    assert_eq!(out.solution, None);
}

#[test]
fn clashing_givens_are_impossible() {
    let s = size(3);
    let mut cages = vec![
        Cage::new(vec![s.cell(0, 0)], Op::Given, 2),
        Cage::new(vec![s.cell(0, 1)], Op::Given, 2),
    ];
    cages.push(Cage::new(
        cells(s, &[(0, 2), (1, 2), (2, 2), (1, 1), (1, 0), (2, 0), (2, 1)]),
        Op::Add,
        14,
    ));
    let out = solve(&Puzzle::new(s, cages).unwrap());
    assert_eq!(out.verdict, Verdict::Impossible);
}

#[test]
fn a_house_missing_digits_is_impossible() {
    // Every row holds 1..4 as far as the cages know (+3 and +7), but columns 0 and
    // 1 can only ever hold 1 and 2: four cells, two digits.
    let s = size(4);
    let mut cages = Vec::new();
    for r in 0..4 {
        cages.push(Cage::new(cells(s, &[(r, 0), (r, 1)]), Op::Add, 3));
        cages.push(Cage::new(cells(s, &[(r, 2), (r, 3)]), Op::Add, 7));
    }
    let out = solve(&Puzzle::new(s, cages).unwrap());
    assert_eq!(out.verdict, Verdict::Impossible);
    assert_eq!(out.nodes, 1, "found without branching");
}

#[test]
fn precomputed_tables_and_candidates_restrict_the_puzzle() {
    let p = row_sums(3, None);
    let tables: Vec<Combinations> = p.cage_ids().map(|id| p.combinations(id).unwrap()).collect();
    assert_eq!(
        count_solutions_with(&p, &tables, None, 100).solutions_found,
        12
    );

    // Keep only the first row's combination 1,2,3: 2 squares remain.
    let mut struck = tables.clone();
    let keep = (0..struck[0].len())
        .find(|&i| struck[0].row(i) == [1, 2, 3])
        .unwrap();
    struck[0].live.fill(false);
    struck[0].live.set(keep, true);
    let out = count_solutions_with(&p, &struck, None, 100);
    assert_eq!(out.solutions_found, 2);
    assert_eq!(&out.solution.as_ref().unwrap()[..3], &[1, 2, 3]);

    // Candidates: fix the first column to 1,2,3 as well: unique.
    let s = p.size();
    let mut cands = vec![Digits::full(3); 9];
    for r in 0..3 {
        cands[s.cell(r, 0).index()] = Digits::single(r as Digit + 1);
    }
    let out = count_solutions_with(&p, &struck, Some(&cands), 100);
    assert_eq!(out.verdict, Verdict::Unique);
    assert_eq!(out.solution.unwrap(), vec![1, 2, 3, 2, 3, 1, 3, 1, 2]);

    // A state that lost the solution is impossible.
    cands[s.cell(1, 1).index()] = Digits::single(1);
    let out = count_solutions_with(&p, &struck, Some(&cands), 100);
    assert_eq!(out.verdict, Verdict::Impossible);
    cands[s.cell(1, 1).index()] = Digits::EMPTY;
    let out = count_solutions_with(&p, &struck, Some(&cands), 100);
    assert_eq!(out.verdict, Verdict::Impossible);
}

#[test]
fn hand_made_tables_may_break_row_rules_but_solutions_do_not() {
    // A table that (wrongly) allows 1,1 in a row, and a digit out of range: the
    // search must still only report true Latin squares.
    let p = row_sums(3, None);
    let mut tables: Vec<Combinations> =
        p.cage_ids().map(|id| p.combinations(id).unwrap()).collect();
    tables[0] = Combinations::from_rows(3, vec![1, 1, 1, 1, 2, 3, 4, 1, 1, 0, 3, 3]);
    let out = count_solutions_with(&p, &tables, None, 100);
    assert_eq!(out.solutions_found, 2);
    assert_valid(&p, &out.solution.unwrap());
}

#[test]
#[should_panic(expected = "one combination table per cage")]
fn tables_of_another_puzzle_are_rejected() {
    let p = example();
    count_solutions_with(&p, &[], None, 2);
}

/// A Latin square of order `n` that is not cyclic: a cyclic square with rows,
/// columns and symbols permuted by fixed multipliers.
fn latin_square(n: usize) -> Vec<Vec<Digit>> {
    let perm = |i: usize, k: usize| (i * k + 3) % n;
    // Multipliers coprime to n for the sizes used here (n = 16: odd ones).
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| (perm(perm(r, 5) + perm(c, 7), 3) % n + 1) as Digit)
                .collect()
        })
        .collect()
}

#[test]
fn sixteen_by_sixteen_dominoes() {
    let grid = latin_square(16);
    for row in &grid {
        let mut seen = Digits::EMPTY;
        row.iter().for_each(|&d| seen.insert(d));
        assert_eq!(seen, Digits::full(16));
    }
    let p = dominoes(&grid, None);
    let out = solve(&p);
    assert_ne!(out.verdict, Verdict::Impossible);
    assert_valid(&p, out.solution.as_ref().unwrap());

    // With the true solution pinned as candidates in half of the cells the
    // solution is unique and is the grid.
    let cands: Vec<Digits> = p
        .size()
        .cells()
        .map(|c| {
            let (r, col) = (p.size().row(c), p.size().col(c));
            if (r + col) % 2 == 0 {
                Digits::single(grid[r][col])
            } else {
                Digits::full(16)
            }
        })
        .collect();
    let tables: Vec<Combinations> = p.cage_ids().map(|id| p.combinations(id).unwrap()).collect();
    let out = count_solutions_with(&p, &tables, Some(&cands), 2);
    assert_eq!(out.verdict, Verdict::Unique);
    assert_eq!(out.solution.unwrap(), grid.concat());
}

#[test]
fn sixteen_by_sixteen_kendoku() {
    // A 16×16 Sudoku grid (4×4 boxes): (4·(r % 4) + r / 4 + c) mod 16.
    let grid: Vec<Vec<Digit>> = (0..16)
        .map(|r| {
            (0..16)
                .map(|c| ((4 * (r % 4) + r / 4 + c) % 16 + 1) as Digit)
                .collect()
        })
        .collect();
    let p = dominoes(&grid, Some((4, 4)));
    let out = solve(&p);
    assert_ne!(out.verdict, Verdict::Impossible);
    assert_valid(&p, out.solution.as_ref().unwrap());
}
