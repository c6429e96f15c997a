//! Fuzzing the grading itself on stable Rust, with proptest: random puzzles (cages
//! grown at random over a Latin square, clues read off it and now and then
//! broken) and mutated game IDs are graded under a short deadline, as `grader
//! grade` and `grader batch` do, in both modes.
//!
//! Asserted for every input: no panic; every run ends within the deadline plus
//! half a second; no step of a checked run removes the true solution; a puzzle
//! whose clues all hold on its Latin square is never called impossible, and when
//! it is called unique its solution is that square.
//!
//! A fixed seed makes a run repeatable; `KENKEN_FUZZ_CASES` sets the number of
//! puzzles (default 1 000); the ignored `grading_at_scale` grades 100 000.

use kenken_formats::read_any;
use kenken_model::{Cage, CellId, Digit, Limits, Op, Puzzle, Size};
use kenken_search::Verdict;
use kenken_techniques::{Grader, Options, Status};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// How long a grading may take.
const DEADLINE: Duration = Duration::from_millis(10);
/// How far past it a run may end.
const GRACE: Duration = Duration::from_millis(500);

/// A puzzle to grade, and the Latin square its clues hold on, if they all do.
#[derive(Clone, Debug)]
pub(super) struct Case {
    pub(super) puzzle: Puzzle,
    pub(super) square: Option<Vec<Digit>>,
}

/// A Latin square (a cyclic one with rows, columns and digits permuted), cages
/// grown over it cell by cell, clues read off it; `choices` drive the cage sizes,
/// operations and the clues broken.
fn build(n: usize, rows: &[usize], cols: &[usize], digits: &[Digit], choices: &[u32]) -> Case {
    let size = Size::new(n).unwrap();
    let square: Vec<Digit> = (0..n * n)
        .map(|i| digits[(rows[i / n] + cols[i % n]) % n])
        .collect();
    let mut choice = choices.iter().copied().cycle();
    let mut next = move |below: u32| choice.next().unwrap_or(0) % below.max(1);
    let mut cage_of = vec![usize::MAX; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    for start in 0..n * n {
        if cage_of[start] != usize::MAX {
            continue;
        }
        let target = 1 + next(6) as usize;
        let mut cells = vec![start];
        cage_of[start] = cages.len();
        while cells.len() < target {
            // A free neighbour of some cell of the cage.
            let free: Vec<usize> = cells
                .iter()
                .flat_map(|&c| {
                    let (r, k) = (c / n, c % n);
                    [
                        (r > 0).then(|| c - n),
                        (r + 1 < n).then(|| c + n),
                        (k > 0).then(|| c - 1),
                        (k + 1 < n).then(|| c + 1),
                    ]
                })
                .flatten()
                .filter(|&c| cage_of[c] == usize::MAX)
                .collect();
            if free.is_empty() {
                break;
            }
            let c = free[next(free.len() as u32) as usize];
            cage_of[c] = cages.len();
            cells.push(c);
        }
        cages.push(cells);
    }
    let mut holds = true;
    let cages = cages
        .into_iter()
        .map(|cells| {
            let values: Vec<u64> = cells.iter().map(|&c| u64::from(square[c])).collect();
            let (big, sum, product) = (
                *values.iter().max().unwrap(),
                values.iter().sum::<u64>(),
                values.iter().product::<u64>(),
            );
            let (op, mut clue) = match (values.len(), next(4)) {
                (1, _) => (Op::Given, big),
                (2, 1) => (Op::Sub, 2 * big - sum),
                (2, 2) if big * big % product == 0 => (Op::Div, big * big / product),
                (_, 0 | 2) => (Op::Add, sum),
                _ => (Op::Mul, product),
            };
            if next(25) == 0 {
                clue += 1;
                holds = false;
            }
            let cells = cells.into_iter().map(CellId::new).collect();
            Cage::new(cells, op, clue)
        })
        .collect();
    Case {
        puzzle: Puzzle::new(size, cages).expect("cages grown over the grid make a puzzle"),
        square: holds.then_some(square),
    }
}

fn random_puzzle() -> impl Strategy<Value = Case> {
    prop_oneof![3 => 3..=6usize, 2 => 7..=9usize].prop_flat_map(puzzle_of_size)
}

/// A random puzzle of size `n`, cages grown over a Latin square as [`build`]
/// grows them.
pub(super) fn puzzle_of_size(n: usize) -> impl Strategy<Value = Case> {
    let perm = |n: usize| Just((0..n).collect::<Vec<_>>()).prop_shuffle();
    let digits = Just((1..=n as Digit).collect::<Vec<_>>()).prop_shuffle();
    let choices = prop::collection::vec(any::<u32>(), 1..64);
    (perm(n), perm(n), digits, choices)
        .prop_map(move |(rows, cols, digits, choices)| build(n, &rows, &cols, &digits, &choices))
}

/// Game IDs to mutate: Tatham puzzles of several sizes and levels.
const IDS: &[&str] = &[
    "4:_a_7a4_a3,m2m3d2d2a7s1s2a3",
    "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2",
    "9:a3_a3_a__a__a_7a_21a_5a__a_aba4_a3_3a3__a3_a3_a3_a3_6a_aa_aa_,d4m18s4m6a11a11d3a7s5m8m12s1s3m20a8m8m7a10a15s5m24d2s3a12a10s3s1m6s5s4a11s3a14m180d2m72a19d2",
    "9:_4a_a_8a_3a3__aa_9a__a_3a_b_5aa__aba_ab_3a_a__a4ba3__baa_b__a3_a_4aa_4,s2d2m9s2a19a7m64d4m24a15s5m16s3a13s1m18s2s2a8m216d2s2m8m18a10s2d4d4a12a13s1a11m30s4a11m18",
    "9:zzv_72,a45a45a45a45a45a45a45a45a45",
];

/// A game ID with a few characters of its clues changed, when it still reads.
fn mutated_id() -> impl Strategy<Value = Option<Case>> {
    let edits = prop::collection::vec((any::<Index>(), select(b"0123456789asmd".to_vec())), 1..4);
    (select(IDS), edits).prop_map(|(id, edits)| {
        let mut bytes = id.as_bytes().to_vec();
        let comma = id.find(',').unwrap() + 1;
        for (at, c) in edits {
            let i = comma + at.index(bytes.len() - comma);
            bytes[i] = c;
        }
        let text = String::from_utf8(bytes).unwrap();
        read_any(&text, None).ok().map(|imported| Case {
            puzzle: imported.puzzle,
            square: None,
        })
    })
}

fn inputs() -> impl Strategy<Value = Option<Case>> {
    prop_oneof![4 => random_puzzle().prop_map(Some), 1 => mutated_id()]
}

/// Grades a case as `grade` (count first, log kept, steps checked) and `batch`
/// (count deferred, ratings only) do, in modes n and c.
fn grade(case: &Case) -> Result<(), TestCaseError> {
    let p = &case.puzzle;
    let within = |started: Instant, what: &str| {
        let took = started.elapsed();
        prop_assert!(
            took <= DEADLINE + GRACE,
            "{} took {:?}: {:?}",
            what,
            took,
            p
        );
        Ok(())
    };
    let started = Instant::now();
    let limits = Limits::new().until(Some(started + DEADLINE));
    if let Ok(grader) = Grader::with_limits(p, limits) {
        let verdict = grader.verdict();
        if let Some(square) = &case.square {
            prop_assert_ne!(verdict, Verdict::Impossible, "{:?}", p);
            if verdict == Verdict::Unique {
                prop_assert_eq!(grader.solution(), Some(square.as_slice()), "{:?}", p);
            }
        }
        for options in [Options::default(), Options::cage_combinations_only()] {
            let g = grader.grade(options, true);
            prop_assert_eq!(g.unsound_step, None, "{:?}", p);
            prop_assert_eq!(g.grid.len(), p.size().cell_count());
            if g.status == Status::Solved {
                prop_assert!(g.grid.iter().all(|&d| d != 0));
            }
        }
    }
    within(started, "grade")?;

    let started = Instant::now();
    let limits = Limits::new().until(Some(started + DEADLINE));
    if let Ok(grader) = Grader::deferred(p, limits) {
        for options in [Options::default(), Options::cage_combinations_only()] {
            let _ = grader.rate(options);
        }
    }
    within(started, "rate")
}

fn cases(default: u32) -> u32 {
    std::env::var("KENKEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Grades `cases` inputs from a fixed seed; panics with the shrunk input on the
/// first failure. Returns (inputs, puzzles graded).
fn fuzz(cases: u32) -> (u64, u64) {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 500,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let (tried, graded) = (Cell::new(0u64), Cell::new(0u64));
    let started = Instant::now();
    let result = runner.run(&inputs(), |case| {
        tried.set(tried.get() + 1);
        match case {
            Some(case) => {
                graded.set(graded.get() + 1);
                grade(&case)
            }
            None => Ok(()),
        }
    });
    if let Err(e) = result {
        panic!("grading: {e}");
    }
    eprintln!(
        "grading: {} inputs, {} puzzles graded, no failure, {:.1} s",
        tried.get(),
        graded.get(),
        started.elapsed().as_secs_f64()
    );
    (tried.get(), graded.get())
}

#[test]
fn grading_random_puzzles_under_a_deadline() {
    let (tried, graded) = fuzz(cases(1_000));
    assert!(
        graded * 2 > tried,
        "only {graded} of {tried} inputs were puzzles"
    );
}

#[test]
#[ignore = "minutes: 100 000 puzzles"]
fn grading_at_scale() {
    fuzz(100_000);
}
