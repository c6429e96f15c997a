//! One test per technique: a state built from a pencil-mark layout, the exact step
//! the technique finds on it, and nothing once the pattern is broken.
//!
//! Puzzles are written in the line-per-cage text format. To keep the cages from
//! doing a technique's work themselves, row patterns sit on grids whose cages are
//! whole columns (and the reverse), so only the technique under test sees them.

use kenken_model::{Budget, CageId, Digits, Puzzle, RegionKind, Size};
use kenken_techniques::techniques::{
    cage_combination::CageCombination,
    cage_support::{Scratch, SupportCache},
    claiming::Claiming,
    fish::Fish,
    hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset,
    pointing::Pointing,
    region_parity, region_sum,
    region_totals::RegionTotals,
    region_totals::SliceTotals,
};
use kenken_techniques::{
    Axis, Context, Options, Rating, Reason, Slice, State, Step, Technique, TechniqueKind,
};

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

fn find(t: &dyn Technique, s: &State, size: usize) -> Option<Step> {
    let mut ctx = Context::new(Options::default(), s.layout().cage_count());
    t.find(s, &mut ctx, size)
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
    let step = find(&HiddenSingle, &s, 1).expect("4 has one place in row 1");
    assert_eq!(step.text(p.size()), "Hidden single: 4 in r1c4");
    assert_eq!(step.rating, Rating::tenths(10));
    assert_eq!(step.placements, vec![(cell(&p, "r1c4"), 4)]);
    assert_eq!(step.eliminations.len(), 3);

    let broken = state(&p, "123 123 . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find(&HiddenSingle, &broken, 1), None);
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
    let step = find(&HiddenSingle, &s, 1).expect("box hidden single");
    assert_eq!(step.text(p.size()), "Hidden single: 1 in r2c3");
    assert!(matches!(
        step.reason,
        Reason::HiddenSingle {
            region: RegionKind::Box(0),
            ..
        }
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
    let step = find(&Claiming, &s, 1).expect("claiming");
    assert_eq!(
        step.text(p.size()),
        "Claiming candidates: cage 0 must contain 1 in r1c1, r1c2: from 28 combinations to 14"
    );
    assert_eq!(step.rating, Rating::tenths(15));
    assert_eq!(step.cuts[0].cage, CageId::new(0));

    let broken = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find(&Claiming, &broken, 1), None);
}

#[test]
fn pointing() {
    let p = box_cages();
    // Cage 0 is {1,2} over {3,4}: every combination puts 1 and 2 in row 1 and 3
    // and 4 in row 2, so the rest of those rows lose them.
    let s = state(&p, "12 12 . . \n 34 34 . . \n . . . . \n . . . .");
    let step = find(&Pointing, &s, 1).expect("pointing");
    assert_eq!(
        step.text(p.size()),
        "Pointing candidates: all combinations for cage 0 contain 1r1,2r1,3r2,4r2; eliminations in r1c3, r1c4, r2c3, r2c4"
    );
    assert_eq!(step.eliminations.len(), 8);

    let broken = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    assert_eq!(find(&Pointing, &broken, 1), None);
}

#[test]
fn hidden_pair_triple() {
    let p = column_cages(6);
    let s = state(&p, "1256 3456 1234 1234 1234 1234 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    let step = find(&HiddenSubset, &s, 2).expect("hidden pair");
    assert_eq!(step.text(p.size()), "Hidden pair: 5, 6 in r1c1, r1c2");
    assert_eq!(step.rating, Rating::tenths(20));
    assert_eq!(step.eliminations.len(), 4);
    let broken = state(&p, "1256 3456 12345 1234 1234 1234 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    assert_eq!(find(&HiddenSubset, &broken, 2), None);

    // 4, 5, 6 confined to r1c1..r1c3: a hidden triple (2.1).
    let s = state(&p, "1456 2456 3456 123 123 123 \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . . \n . . . . . .");
    assert_eq!(find(&HiddenSubset, &s, 2), None, "no pair");
    let step = find(&HiddenSubset, &s, 3).expect("hidden triple");
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
    let step = find(&Fish, &s, 2).expect("x-wing");
    assert_eq!(step.text(p.size()), "X-Wing: 1 in r1, 3");
    assert_eq!(step.rating, Rating::tenths(20));
    let cells: Vec<String> = step
        .eliminations
        .iter()
        .map(|(c, _)| p.size().cell_name(*c))
        .collect();
    assert_eq!(cells, ["r2c1", "r2c2", "r4c1", "r4c2"]);
    let broken = state(&p, ". . 234 234 \n . . . . \n . . . 234 \n . . . .");
    assert_eq!(find(&Fish, &broken, 2), None);

    let p = column_cages(6);
    // Digit 1: row 1 in c1, c2; row 2 in c2, c3; row 3 in c1, c3 (no two rows
    // share two columns, so no X-Wing).
    let s = state(
        &p,
        ". . 23456 23456 23456 23456 \n 23456 . . 23456 23456 23456 \n . 23456 . 23456 23456 23456 \n . . . . . . \n . . . . . . \n . . . . . .",
    );
    assert_eq!(find(&Fish, &s, 2), None, "no x-wing");
    let step = find(&Fish, &s, 3).expect("swordfish");
    assert_eq!(step.text(p.size()), "Swordfish: 1 in r1, 2, 3");
    assert_eq!(step.rating, Rating::tenths(21));
}

#[test]
fn region_sum_one_unknown() {
    // Row 1: cage 0 is {1,2,3} (sum 6), so r1c4 (cage 1, with r2c4) must be 4.
    let p = puzzle("# 4\n+ 6 A1 A2 A3\n+ 5 A4 B4\n+ 6 B1 B2 B3\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find(&RegionTotals, &s, 1).expect("region sum");
    assert_eq!(
        step.text(p.size()),
        "Region sum: Row 1 must sum to 10; cage 1's cells within this region must sum to 4; reduced from 4 combinations to 1"
    );
    assert_eq!(step.technique, TechniqueKind::RegionSum);
    assert_eq!(step.rating, Rating::tenths(30));
}

/// Row 1: cage 0 (sum 3) known, r1c3 in cage 1 and r1c4 in cage 2 unknown.
fn two_unknowns(second: &str) -> Puzzle {
    puzzle(&format!(
        "# 4\n+ 3 A1 A2\n+ 7 A3 B3\n{second} A4 B4\n+ 7 B1 B2\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n"
    ))
}

#[test]
fn region_sum_two_unknowns() {
    // r1c3 + r1c4 = 7 with r1c3 in {3,4}: r1c4 must be 3 or 4.
    let p = two_unknowns("+ 5");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let row1 = SliceTotals::new(
        &s,
        Slice {
            axis: Axis::Rows,
            first: 0,
            count: 1,
        },
    );
    assert_eq!(
        region_sum::deduce(&s, &row1, 1),
        None,
        "two unknowns need u_max 2"
    );
    let step = region_sum::deduce(&s, &row1, 2).expect("region sum, 2 unknowns");
    assert_eq!(
        step.text(p.size()),
        "Region sum: Row 1 must sum to 10; cages 1, 2's cells within this region must sum to 7; cages 2 reduced from 4 combinations to 2"
    );
    assert_eq!(step.rating, Rating::tenths(32));
}

#[test]
fn region_parity() {
    // r1c4 is in {1,3} (odd) and cage 0 adds 3: r1c3 must be even.
    let p =
        puzzle("# 4\n+ 3 A1 A2\n+ 5 A3 B3\n* 3 A4 B4\n+ 7 B1 B2\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find(&RegionTotals, &s, 1).expect("region parity");
    assert_eq!(
        step.text(p.size()),
        "Region parity: Row 1 must sum to Even number; cage 1's cells within this region must sum to Even number; reduced from 4 combinations to 2"
    );
    assert_eq!(step.technique, TechniqueKind::RegionParity);
    assert_eq!(step.rating, Rating::tenths(30));

    // With r1c4 of either parity too, row 1's parity forces nothing.
    let broken = two_unknowns("+ 5");
    let s = state(&broken, ". . . . \n . . . . \n . . . . \n . . . .");
    let row1 = SliceTotals::new(
        &s,
        Slice {
            axis: Axis::Rows,
            first: 0,
            count: 1,
        },
    );
    assert_eq!(region_parity::deduce(&s, &row1), None);
}

#[test]
fn cage_combination_of_two_cages() {
    // Cage 1 (r1c3, r1c4) is {3,4}: cage 0's layouts using 4 in row 1 clash.
    let p = puzzle("# 4\n/ 2 A1 A2\n+ 7 A3 A4\n+ 30 B1 B2 B3 B4 C1 C2 C3 C4 D1 D2 D3 D4\n");
    let s = state(&p, ". . . . \n . . . . \n . . . . \n . . . .");
    let step = find(&CageCombination, &s, 2).expect("cage comparison");
    assert_eq!(
        step.text(p.size()),
        "Cage comparison: cages 1, 0 interact such that cage 0 has incongruous combinations; reduced from 4 to 2 combinations"
    );
    assert_eq!(step.rating, Rating::tenths(40));

    // Without the clash nothing of the pair goes.
    let s = state(&p, "12 12 . . \n . . . . \n . . . . \n . . . .");
    let list = [CageId::new(1), CageId::new(0)];
    let mut cache = SupportCache::new(s.layout().cage_count());
    let changed_at = vec![0; s.layout().cage_count()];
    let mut budget = Budget::unlimited();
    let mut scratch = Scratch::new(&s, &list, &mut cache, 0, &changed_at, &mut budget);
    assert!(scratch.unsupported(&[0, 1]).unwrap().is_empty());
}

/// The combinations of a set's cages that some clash-free choice for the whole set
/// uses, by trying every choice: the from-scratch version of [`Scratch::unsupported`].
fn supported_by_brute_force(s: &State, cages: &[CageId]) -> Vec<Vec<usize>> {
    let live: Vec<Vec<usize>> = cages
        .iter()
        .map(|&c| s.live_combinations(c).collect())
        .collect();
    let layout = s.layout();
    let clash = |a: CageId, i: usize, b: CageId, j: usize| {
        layout
            .cage_cells(a)
            .iter()
            .zip(layout.combination(a, i))
            .any(|(&x, &dx)| {
                layout
                    .cage_cells(b)
                    .iter()
                    .zip(layout.combination(b, j))
                    .any(|(&y, &dy)| dx == dy && s.puzzle().sees(x, y))
            })
    };
    let mut used: Vec<Vec<usize>> = vec![Vec::new(); cages.len()];
    let mut pick = vec![0usize; cages.len()];
    fn walk(
        k: usize,
        pick: &mut Vec<usize>,
        live: &[Vec<usize>],
        cages: &[CageId],
        clash: &dyn Fn(CageId, usize, CageId, usize) -> bool,
        used: &mut [Vec<usize>],
    ) {
        if k == cages.len() {
            for (u, &p) in used.iter_mut().zip(pick.iter()) {
                u.push(p);
            }
            return;
        }
        for &i in &live[k] {
            if (0..k).all(|j| !clash(cages[j], pick[j], cages[k], i)) {
                pick[k] = i;
                walk(k + 1, pick, live, cages, clash, used);
            }
        }
    }
    walk(0, &mut pick, &live, cages, &clash, &mut used);
    for u in &mut used {
        u.sort_unstable();
        u.dedup();
    }
    used
}

#[test]
fn cage_support_agrees_with_brute_force() {
    // Every connected set of 2 and 3 cages (and the first few of 4) of a few puzzles,
    // at each state of the first steps of their mode-c grading, with one support
    // cache for the whole run as the technique keeps it (pair tables outlive dead
    // combinations): the cuts must be exactly the brute-force ones, and a second
    // check of the same set (reusing the scratch's buffers; a pair through its
    // table where the first check tested footprints directly) must agree.
    // Sizes 4 to 8: footprints of one word (4×4, 5×5) and two (6×6 to 8×8), so the
    // first, direct check of a pair takes the single-word path (`small_pair`,
    // which reads the state's live words) whenever each of its cages has at most
    // 64 combinations in its table, and the live-list path otherwise.
    let ids = [
        "4:aa_4c_a_aa__b,s2a7s2d2m36m24",
        "5:_aa_5aa_b_c__a_a_aa__a__,m10a10s2m15a8m12d2s2a6s2d2",
        "6:a_b_3a_14aa_ab_aaba_aa__aa_aa,m40a12a6m24s2m6m90m8s3d3a5a5s1a7d2s2",
        "7:a6_aab_ba_a_a_4a__a3__a_7aa_4a_3a_4aa_aa,m48s4m20d3s1a7m24a7s3s1a6m105m24s1m36a8a6m12a10s3s4d2",
        "8:a_a3_aa_a3_4a_a_7a__a_a_3aa_5a_a_3a3_a_5a_6aa_3aa__a_ba3,s5m5d3a12m32s5s1s5a10a12s5d2m5m18d2a8a13a10a6m24a12m40d2s2s3s1m24m5d2s6m6",
    ];
    let mut checked = 0;
    for id in ids {
        let p = kenken_formats::tatham::read(id).expect("puzzle");
        let grader = kenken_techniques::Grader::new(&p).expect("grader");
        let (mut s, _) = grader.start();
        let cages = p.cages().len();
        let mut ctx = Context::new(Options::cage_combinations_only(), cages);
        let mut cache = SupportCache::new(cages);
        let (mut clock, mut changed_at) = (0u32, vec![0u32; cages]);
        for _round in 0..8 {
            let list: Vec<CageId> = p.cage_ids().filter(|&c| s.live_count(c) > 1).collect();
            let mut budget = Budget::unlimited();
            let mut scratch = Scratch::new(&s, &list, &mut cache, clock, &changed_at, &mut budget);
            let m = list.len();
            let mut sets: Vec<Vec<usize>> = Vec::new();
            for a in 0..m {
                for b in a + 1..m {
                    sets.push(vec![a, b]);
                    for c in b + 1..m {
                        sets.push(vec![a, b, c]);
                        if a == 0 && b == 1 {
                            for d in c + 1..m {
                                sets.push(vec![a, b, c, d]);
                            }
                        }
                    }
                }
            }
            for set in sets {
                let cages: Vec<CageId> = set.iter().map(|&i| list[i]).collect();
                let linked = |x: CageId, y: CageId| s.layout().linked(x, y);
                // Connected sets only, as the technique asks.
                let mut reached = vec![false; cages.len()];
                reached[0] = true;
                for _ in 0..cages.len() {
                    for i in 0..cages.len() {
                        for j in 0..cages.len() {
                            if reached[i] && linked(cages[i], cages[j]) {
                                reached[j] = true;
                            }
                        }
                    }
                }
                if reached.contains(&false) {
                    continue;
                }
                let used = supported_by_brute_force(&s, &cages);
                // Pairs checked directly first, then through their pair tables.
                scratch.set_pair_tables(false);
                let first = scratch.unsupported(&set).unwrap();
                scratch.set_pair_tables(true);
                let again = scratch.unsupported(&set).unwrap();
                for (k, &cage) in cages.iter().enumerate() {
                    let expected: Vec<u32> = s
                        .live_combinations(cage)
                        .filter(|i| used[k].binary_search(i).is_err())
                        .map(|i| i as u32)
                        .collect();
                    let got = |cuts: &[kenken_techniques::CageCut]| {
                        cuts.iter()
                            .find(|c| c.cage == cage)
                            .map(|c| c.removed.clone())
                            .unwrap_or_default()
                    };
                    assert_eq!(got(&first), expected, "{id}: set {cages:?}, cage {cage:?}");
                    assert_eq!(got(&again), expected, "{id}: again, set {cages:?}");
                }
                checked += 1;
            }
            // The next mode-c step, as a grading run takes it.
            let Some(step) = kenken_techniques::ladder::next_step(&s, &mut ctx) else {
                break;
            };
            s.apply(&step);
            s.propagate().expect("a sound step");
            let changed = s.take_changed_cages();
            ctx.cages_changed(&changed);
            clock += 1;
            for c in changed {
                changed_at[c.index()] = clock;
            }
        }
    }
    assert!(checked > 1000, "only {checked} sets checked");
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
