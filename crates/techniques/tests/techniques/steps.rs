//! One test per technique: a state built from a pencil-mark layout, the exact step
//! the technique finds on it, and nothing once the pattern is broken.
//!
//! Puzzles are written in the line-per-cage text format. To keep the cages from
//! doing a technique's work themselves, row patterns sit on grids whose cages are
//! whole columns (and the reverse), so only the technique under test sees them.

use kenken_model::{Budget, CageId, Digits, Puzzle, RegionKind, Size};
use kenken_techniques::{Context, Options, Rating, Reason, State, Step, TechniqueKind};

fn puzzle(text: &str) -> Puzzle {
    kenken_formats::text::read(text).expect("test puzzle")
}

/// Every column a `+` cage (a permutation of 1..=n): rows carry the patterns.
fn column_cages(n: usize) -> Puzzle {
    let total = n * (n + 1) / 2;
    let mut text = format!("# {n}\n");
    for c in 1..=n {
        let cells: Vec<String> = (0..n)
            .map(|r| format!("{}{c}", (b'A' + r as u8) as char))
            .collect();
        text.push_str(&format!("+ {total} {}\n", cells.join(" ")));
    }
    puzzle(&text)
}

/// Pencil marks: one whitespace-separated token per cell, reading order; `.` is
/// every digit.
fn marks(size: Size, grid: &str) -> Vec<Digits> {
    let tokens: Vec<&str> = grid.split_whitespace().collect();
    assert_eq!(tokens.len(), size.cell_count(), "one token per cell");
    tokens
        .iter()
        .map(|t| {
            if *t == "." {
                Digits::full(size.get())
            } else {
                t.bytes().map(|b| b - b'0').collect()
            }
        })
        .collect()
}

fn state(p: &Puzzle, grid: &str) -> State {
    State::with_candidates(p, &marks(p.size(), grid)).expect("consistent marks")
}

/// The first step of this size that the technique finding `id`'s steps finds,
/// made for the state's puzzle as a run makes it.
fn find(id: &str, s: &State, size: usize) -> Option<Step> {
    let kind = TechniqueKind::from_id(id).expect("a registry id");
    let mut technique = kind.technique(s.layout()).expect("not propagation");
    let mut ctx = Context::new(Options::default(), s.layout(), Budget::unlimited());
    technique.find(s, &mut ctx, size)
}

fn kind(id: &str) -> TechniqueKind {
    TechniqueKind::from_id(id).expect("a registry id")
}

fn cell(p: &Puzzle, name: &str) -> kenken_model::CellId {
    let b = name.as_bytes();
    p.size()
        .cell((b[1] - b'1') as usize, (b[3] - b'1') as usize)
}

#[test]
fn naked_single_is_propagation() {
    let p = column_cages(4);
    let mut s = State::new(&p).unwrap();
    s.eliminate(cell(&p, "r1c1"), 1);
    s.eliminate(cell(&p, "r1c1"), 2);
    s.eliminate(cell(&p, "r1c1"), 3);
    let singles = s.propagate().unwrap();
    assert_eq!(singles[0].text(p.size()), "Naked single: 4 in r1c1");
    assert_eq!(singles[0].rating, Rating::ZERO);
    assert!(
        !s.candidates(cell(&p, "r1c2")).contains(4),
        "peers lose the digit"
    );
    assert!(!s.candidates(cell(&p, "r2c1")).contains(4));
}

#[test]
fn hidden_single() {
    let p = column_cages(4);
    let s = state(&p, "123 123 123 . \n . . . . \n . . . . \n . . . .");
    let step = find("hidden-single", &s, 1).expect("4 has one place in row 1");
    assert_eq!(step.text(p.size()), "Hidden single: 4 in r1c4");
    assert_eq!(step.rating, Rating::tenths(10));
    assert_eq!(step.placements, vec![(cell(&p, "r1c4"), 4)]);
    assert_eq!(step.eliminations.len(), 3);

    let broken = state(&p, "123 123 . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find("hidden-single", &broken, 1), None);
}

#[test]
fn hidden_single_in_a_kendoku_box() {
    let base = column_cages(6);
    let p = Puzzle::new_kendoku(base.size(), base.cages().to_vec(), 2, 3).unwrap();
    // In box 1 (r1-2, c1-3) only r2c3 can hold 1; every row and column still has
    // several places for it.
    let s = state(
        &p,
        "23456 23456 23456 . . . \n 23456 23456 . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .",
    );
    let step = find("hidden-single", &s, 1).expect("box hidden single");
    assert_eq!(step.text(p.size()), "Hidden single: 1 in r2c3");
    assert!(matches!(
        step.reason,
        Reason::HiddenSingle(kenken_techniques::HiddenSingle {
            region: RegionKind::Box(0),
            ..
        })
    ));
}

/// Four 2×2 box cages of sum 10 on a 4×4 grid.
fn box_cages() -> Puzzle {
    puzzle("# 4\n+ 10 A1 A2 B1 B2\n+ 10 A3 A4 B3 B4\n+ 10 C1 C2 D1 D2\n+ 10 C3 C4 D3 D4\n")
}

#[test]
fn claiming() {
    let p = box_cages();
    // Row 1: only cage 0's cells can hold 1, so cage 0 must put its 1 in row 1
    // ({2,2,3,3} and the {1,2,3,4} layouts with 1 in row 2 go: 28 -> 14).
    let s = state(&p, ". . 234 234 \n . . . . \n . . . . \n . . . .");
    let step = find("claiming", &s, 1).expect("claiming");
    assert_eq!(
        step.text(p.size()),
        "Claiming candidates: cage 0 must contain 1 in r1c1, r1c2: from 28 combinations to 14"
    );
    assert_eq!(step.rating, Rating::tenths(15));
    assert_eq!(step.cuts[0].cage, CageId::new(0));

    let broken = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find("claiming", &broken, 1), None);
}

#[test]
fn pointing() {
    let p = box_cages();
    // Cage 0 is {1,2} over {3,4}: every combination puts 1 and 2 in row 1 and 3
    // and 4 in row 2, so the rest of those rows lose them.
    let s = state(&p, "12 12 . . \n 34 34 . . \n . . . . \n . . . .");
    let step = find("pointing", &s, 1).expect("pointing");
    assert_eq!(
        step.text(p.size()),
        "Pointing candidates: all combinations for cage 0 contain 1r1,2r1,3r2,4r2; eliminations in r1c3, r1c4, r2c3, r2c4"
    );
    assert_eq!(step.eliminations.len(), 8);

    let broken = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find("pointing", &broken, 1), None);
}

#[test]
fn hidden_pair_triple() {
    let p = column_cages(6);
    let s = state(&p, "1256 3456 1234 1234 1234 1234 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    let step = find("hidden-subset", &s, 2).expect("hidden pair");
    assert_eq!(step.text(p.size()), "Hidden pair: 5, 6 in r1c1, r1c2");
    assert_eq!(step.rating, Rating::tenths(20));
    assert_eq!(step.eliminations.len(), 4);
    let broken = state(&p, "1256 3456 12345 1234 1234 1234 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    assert_eq!(find("hidden-subset", &broken, 2), None);

    // 4, 5, 6 confined to r1c1..r1c3: a hidden triple (2.1).
    let s = state(&p, "1456 2456 3456 123 123 123 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    assert_eq!(find("hidden-subset", &s, 2), None, "no pair");
    let step = find("hidden-subset", &s, 3).expect("hidden triple");
    assert_eq!(
        step.text(p.size()),
        "Hidden triple: 4, 5, 6 in r1c1, r1c2, r1c3"
    );
    assert_eq!(step.rating, Rating::tenths(21));
}

#[test]
fn x_wing_and_swordfish() {
    let p = column_cages(4);
    // Digit 1 in rows 1 and 3 only in columns 1 and 2.
    let s = state(&p, ". . 234 234 \n . . . . \n . . 234 234 \n . . . .");
    let step = find("fish", &s, 2).expect("x-wing");
    assert_eq!(step.text(p.size()), "X-Wing: 1 in r1, 3");
    assert_eq!(step.rating, Rating::tenths(20));
    let cells: Vec<String> = step
        .eliminations
        .iter()
        .map(|(c, _)| p.size().cell_name(*c))
        .collect();
    assert_eq!(cells, ["r2c1", "r2c2", "r4c1", "r4c2"]);
    let broken = state(&p, ". . 234 234 \n . . . . \n . . . 234 \n . . . .");
    assert_eq!(find("fish", &broken, 2), None);

    let p = column_cages(6);
    // Digit 1: row 1 in c1, c2; row 2 in c2, c3; row 3 in c1, c3 (no two rows
    // share two columns, so no X-Wing).
    let s = state(
        &p,
        ". . 23456 23456 23456 23456 \n 23456 . . 23456 23456 23456 \n . 23456 . 23456 23456 23456 \n . . . . . . \n . . . . . . \n . . . . . .",
    );
    assert_eq!(find("fish", &s, 2), None, "no x-wing");
    let step = find("fish", &s, 3).expect("swordfish");
    assert_eq!(step.text(p.size()), "Swordfish: 1 in r1, 2, 3");
    assert_eq!(step.rating, Rating::tenths(21));
}

#[test]
fn region_sum_one_unknown() {
    // Row 1: cage 0 is {1,2,3} (sum 6), so r1c4 (cage 1, with r2c4) must be 4.
    let p = puzzle("# 4\n+ 6 A1 A2 A3\n+ 5 A4 B4\n+ 6 B1 B2 B3\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find("region-sum", &s, 1).expect("region sum");
    assert_eq!(
        step.text(p.size()),
        "Region sum: Row 1 must sum to 10; cage 1's cells within this region must sum to 4; reduced from 4 combinations to 1"
    );
    assert_eq!(step.technique, kind("region-sum"));
    assert_eq!(step.rating, Rating::tenths(30));
}

/// Row 1: cage 0 (sum 3) known, r1c3 in cage 1 and r1c4 in cage 2 unknown.
fn two_unknowns(second: &str) -> Puzzle {
    puzzle(&format!(
        "# 4\n+ 3 A1 A2\n+ 7 A3 B3\n{second} A4 B4\n+ 7 B1 B2\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n"
    ))
}

#[test]
fn region_sum_scans_single_unknowns_first() {
    // Row 1 has two unknowns (r1c3 + r1c4 = 7); column 3 has one, so the first
    // pass over the slices (at most one unknown) finds column 3 first.
    let p = two_unknowns("+ 5");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find("region-sum", &s, 1).expect("region sum");
    assert_eq!(
        step.text(p.size()),
        "Region sum: Col 3 must sum to 10; cage 4's cells within this region must sum to 3; reduced from 216 combinations to 36"
    );
    assert_eq!(step.rating, Rating::tenths(30));
}

#[test]
fn region_parity() {
    // r1c4 is in {1,3} (odd) and cage 0 adds 3: r1c3 must be even.
    let p =
        puzzle("# 4\n+ 3 A1 A2\n+ 5 A3 B3\n* 3 A4 B4\n+ 7 B1 B2\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find("region-sum", &s, 1).expect("region parity");
    assert_eq!(
        step.text(p.size()),
        "Region parity: Row 1 must sum to Even number; cage 1's cells within this region must sum to Even number; reduced from 4 combinations to 2"
    );
    assert_eq!(step.technique, kind("region-parity"));
    assert_eq!(step.rating, Rating::tenths(30));

    // With r1c4 of either parity too, the first step is a region sum, not parity.
    let broken = two_unknowns("+ 5");
    let s = state(&broken, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find("region-parity", &s, 1).expect("a region sum");
    assert_eq!(step.technique, kind("region-sum"));
}

#[test]
fn cage_combination_of_two_cages() {
    // Cage 1 (r1c3, r1c4) is {3,4}: cage 0's layouts using 4 in row 1 clash.
    let p = puzzle("# 4\n/ 2 A1 A2\n+ 7 A3 A4\n+ 30 B1 B2 B3 B4 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find("cage-combination", &s, 2).expect("cage comparison");
    assert_eq!(
        step.text(p.size()),
        "Cage comparison: cages 1, 0 interact such that cage 0 has incongruous combinations; reduced from 4 to 2 combinations"
    );
    assert_eq!(step.rating, Rating::tenths(40));
}

/// A 6×6 KenDoku (2×3 boxes): the cage shapes of a Tatham puzzle, with clues
/// recomputed from a grid whose boxes also hold every digit.
fn kendoku() -> (Puzzle, Vec<u8>) {
    use kenken_model::{Cage, Op};
    let grid: Vec<u8> = [
        [1, 2, 3, 4, 5, 6],
        [4, 5, 6, 1, 2, 3],
        [2, 3, 1, 5, 6, 4],
        [5, 6, 4, 2, 3, 1],
        [3, 1, 2, 6, 4, 5],
        [6, 4, 5, 3, 1, 2],
    ]
    .concat();
    let shapes = kenken_formats::tatham::read(
        "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2",
    )
    .unwrap();
    let mut cages: Vec<Cage> = shapes
        .cages()
        .iter()
        .map(|cage| {
            let digits: Vec<u64> = cage.cells.iter().map(|c| grid[c.index()] as u64).collect();
            let (max, sum, product) = (
                *digits.iter().max().unwrap(),
                digits.iter().sum::<u64>(),
                digits.iter().product::<u64>(),
            );
            let (op, clue) = match cage.op {
                Op::Given => (Op::Given, max),
                Op::Add => (Op::Add, sum),
                Op::Mul => (Op::Mul, product),
                Op::Sub => (Op::Sub, 2 * max - sum),
                Op::Div if (max * max) % product == 0 => (Op::Div, max * max / product),
                Op::Div => (Op::Mul, product),
                Op::Hidden => (Op::Add, sum),
            };
            Cage::new(cage.cells.clone(), op, clue)
        })
        .collect();
    // Turn cages into givens, in clue order, until the KenDoku is unique.
    loop {
        let p = Puzzle::new_kendoku(shapes.size(), cages.clone(), 2, 3).unwrap();
        let verdict = kenken_search::solve(&p).verdict;
        if verdict == kenken_search::Verdict::Unique {
            return (p, grid);
        }
        let i = cages.iter().position(|c| c.len() > 1).expect("a cage left");
        let cage = cages.remove(i);
        for c in cage.cells {
            cages.push(Cage::new(vec![c], Op::Given, grid[c.index()] as u64));
        }
    }
}

#[test]
fn kendoku_boxes_are_regions_for_the_solver_and_the_ladder() {
    let (p, grid) = kendoku();
    let outcome = kenken_search::solve(&p);
    assert_eq!(outcome.verdict, kenken_search::Verdict::Unique);
    assert_eq!(outcome.solution.as_deref(), Some(grid.as_slice()));
    let g = kenken_techniques::Grader::new(&p).unwrap();
    let grade = g.grade(Options::default(), true);
    assert_eq!(grade.unsound_step, None);
    assert!(grade.solved(), "{:?}", grade.status);
    assert_eq!(grade.grid, grid);
    assert_eq!(g.layout().regions().len(), 18, "rows, columns and boxes");
}
