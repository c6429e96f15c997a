//! Every proof of every corpus puzzle's steps rated 3 or more, checked by brute
//! force with nothing of the prover's (the puzzle's cells and cages, the search's
//! solution):
//!
//! * a cage comparison's step has one proof per removed combination; with the
//!   cage's cells set to the proof's digits, no choice of one listed live
//!   combination per listed cage avoids repeating a digit in a line, among
//!   themselves and with the assumed digits; dropping any one listed cage leaves
//!   a choice (the list is as short as it can be made by dropping cages); each
//!   listed cage's combination in the solution is among its live ones; the removed
//!   combination is not the solution's;
//! * each cage comparison's chain replays on the proof's own data, and its text
//!   says clause by clause what the chain says, and every cage narrowed by
//!   earlier steps names them (see [`super::chains`]);
//! * a region total's or parity's proof adds up: the slice's total is the lines'
//!   total, each known part holds the solution's total (or parity) there, the
//!   known parts and what is left make the slice's total, and no total a cage
//!   loses is the solution's.
//!
//! * every text of those steps reads as [`super::words`] asks.
//!
//! The puzzles of `hidden-ops.json` are checked the same way with their
//! operations hidden (each cage's combinations those of every operation), within
//! the work limit their ratings are made with.

use super::chains;
use super::corpus::{for_each_parallel, hidden_ops_corpus, report, tatham_corpus};
use super::words;
use kenken_model::{CageId, CellId, Digit, Puzzle};
use kenken_search::{count_solutions, Verdict};
use kenken_techniques::proof::{CombinationProof, Known, Proof};
use kenken_techniques::{Axis, Grader, Layout, Options, Rating, Reason, Step, Total};
use std::sync::Mutex;
use std::time::Instant;

#[test]
fn every_proof_of_every_hard_step_holds() {
    let started = Instant::now();
    let mut entries = tatham_corpus();
    entries.extend(hidden_ops_corpus());
    let texts: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let counts = Mutex::new((0usize, 0usize, 0usize));
    // Proofs with a branch; of them, those of at most four cases (a picture
    // draws them as one panel per case).
    let branched = Mutex::new((0usize, 0usize));
    let problems = for_each_parallel(&entries, |entry| {
        let puzzle = &entry.puzzle;
        let outcome = count_solutions(puzzle, 2);
        if outcome.verdict != Verdict::Unique {
            return None;
        }
        let solution = outcome.solution.expect("a unique puzzle's solution");
        let grader = Grader::with_limits(puzzle, entry.limits).expect("grader");
        let grade = grader.grade(Options::default(), false);
        for (i, step) in grade.steps.iter().enumerate() {
            if step.rating < Rating::tenths(30) {
                continue;
            }
            let at = format!("{} step {}", entry.label, i + 1);
            if step.proofs.is_empty() {
                return Some(format!(
                    "{at}: a step rated {} without a proof",
                    step.rating
                ));
            }
            let checked = match &step.reason {
                Reason::CageCombination(_) => check_combinations(puzzle, &solution, step)
                    .and_then(|()| check_chains(grader.layout(), &grade.steps, i, &branched)),
                Reason::RegionTotal(_) | Reason::RegionParity(_) => {
                    check_region(puzzle, &solution, step)
                }
                other => Err(format!("a proof of an unexpected step: {other:?}")),
            };
            let texts_read_well = [
                step.labelled_text(puzzle),
                step.explanation(grader.layout()),
            ]
            .into_iter()
            .chain(step.proofs.iter().map(|p| p.text().to_string()))
            .try_for_each(|text| words::check(&text));
            if let Err(problem) = checked.and(texts_read_well) {
                return Some(format!("{at}: {problem}"));
            }
            let mut counts = counts.lock().unwrap();
            counts.0 += 1;
            counts.1 += step.proofs.len();
            if step.technique.id() == "cage-combination" {
                counts.2 += step.proofs.len();
            }
            texts.lock().unwrap().extend(
                step.proofs
                    .iter()
                    .map(|p| (p.text().len(), p.text().to_string())),
            );
        }
        None
    });
    let (steps, proofs, combination_proofs) = *counts.lock().unwrap();
    let (branched, panelled) = *branched.lock().unwrap();
    let mut texts = texts.into_inner().unwrap();
    texts.sort_unstable();
    eprintln!(
        "proofs: {steps} steps rated 3 or more, {proofs} proofs ({combination_proofs} of cage \
         comparisons, {branched} of them with a branch, {panelled} ending in a branch of at most \
         4 cases), all verified; text length median {} \
         characters, longest {}",
        texts.get(texts.len() / 2).map_or(0, |t| t.0),
        texts.last().map_or(0, |t| t.0)
    );
    if std::env::var_os("KENKEN_SHOW_PROOFS").is_some() {
        for (_, text) in texts.iter().rev().take(5) {
            eprintln!("{text}\n");
        }
    }
    assert!(proofs > 1000, "too few proofs to mean anything: {proofs}");
    report("proofs", &problems, entries.len(), started);
}

/// Every cage comparison's chain replayed, and its text matched to it.
fn check_chains(
    layout: &Layout,
    steps: &[Step],
    k: usize,
    branched: &Mutex<(usize, usize)>,
) -> Result<(), String> {
    for proof in &steps[k].proofs {
        if let Proof::Combination(p) = proof {
            let replayed = chains::check(layout, steps, k, p)?;
            let mut counts = branched.lock().unwrap();
            counts.0 += usize::from(replayed.branched);
            counts.1 += usize::from(replayed.cases.is_some_and(|n| n <= 4));
        }
    }
    Ok(())
}

/// Whether one total of each of `others`, with `with`, makes `left` (a sum, a
/// parity of a sum, or a product).
fn completes(left: Known, with: Known, others: &[&Vec<Known>]) -> bool {
    fn go(left: Known, acc: Known, others: &[&Vec<Known>]) -> bool {
        let Some((first, rest)) = others.split_first() else {
            return match (left, acc) {
                (Known::Parity(odd), Known::Total(Total::Sum(s))) => odd == (s % 2 == 1),
                (l, a) => l == a,
            };
        };
        first.iter().any(|&t| {
            let next = match (acc, t) {
                (Known::Total(Total::Sum(a)), Known::Total(Total::Sum(b))) => {
                    Known::Total(Total::Sum(a + b))
                }
                (Known::Total(Total::Sum(a)), Known::Parity(odd)) => {
                    Known::Total(Total::Sum(a + u32::from(odd)))
                }
                (Known::Total(Total::Product(a)), Known::Total(Total::Product(b))) => {
                    Known::Total(Total::Product(a.times(b)))
                }
                _ => return true,
            };
            go(left, next, rest)
        })
    }
    go(left, with, others)
}

/// The digits of a cage's cells in the solution.
fn solution_of(puzzle: &Puzzle, solution: &[Digit], cage: CageId) -> Vec<Digit> {
    puzzle
        .cage(cage)
        .cells
        .iter()
        .map(|c| solution[c.index()])
        .collect()
}

fn check_combinations(puzzle: &Puzzle, solution: &[Digit], step: &Step) -> Result<(), String> {
    let removed: usize = step.cuts.iter().map(|c| c.removed.len()).sum();
    if step.proofs.len() != removed {
        return Err(format!(
            "{} proofs for {removed} removed combinations",
            step.proofs.len()
        ));
    }
    for proof in &step.proofs {
        let Proof::Combination(p) = proof else {
            return Err("a region proof on a cage comparison".to_string());
        };
        if p.digits == solution_of(puzzle, solution, p.cage) {
            return Err(format!(
                "the solution's combination of {} is removed",
                p.cage
            ));
        }
        for listed in &p.cages {
            let truth = solution_of(puzzle, solution, listed.cage);
            if !listed.live.contains(&truth) {
                return Err(format!(
                    "cage {}'s live list misses its solution combination",
                    listed.cage
                ));
            }
        }
        if has_choice(puzzle, p, &vec![true; p.cages.len()]) {
            return Err(format!(
                "the listed cages fit {:?} in cage {}: {}",
                p.digits, p.cage, p.text
            ));
        }
        for drop in 0..p.cages.len() {
            let mut keep = vec![true; p.cages.len()];
            keep[drop] = false;
            if p.cages.len() > 1 && !has_choice(puzzle, p, &keep) {
                return Err(format!(
                    "cage {} is not needed in the proof of {:?}",
                    p.cages[drop].cage, p.digits
                ));
            }
        }
    }
    Ok(())
}

/// Whether the kept listed cages have a choice of one live combination each
/// repeating no digit in a line, among themselves and with the assumed digits.
fn has_choice(puzzle: &Puzzle, p: &CombinationProof, keep: &[bool]) -> bool {
    let assumed: Vec<(CellId, Digit)> = puzzle
        .cage(p.cage)
        .cells
        .iter()
        .copied()
        .zip(p.digits.iter().copied())
        .collect();
    let cages: Vec<(&[CellId], &Vec<Vec<Digit>>)> = p
        .cages
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(c, _)| (puzzle.cage(c.cage).cells.as_slice(), &c.live))
        .collect();
    fn fits(puzzle: &Puzzle, placed: &[(CellId, Digit)], cells: &[CellId], row: &[Digit]) -> bool {
        cells.iter().zip(row).all(|(&c, &d)| {
            placed
                .iter()
                .all(|&(o, e)| e != d || o == c || !puzzle.sees(o, c))
        })
    }
    fn choose(
        puzzle: &Puzzle,
        placed: &mut Vec<(CellId, Digit)>,
        cages: &[(&[CellId], &Vec<Vec<Digit>>)],
    ) -> bool {
        let Some(((cells, live), rest)) = cages.split_first() else {
            return true;
        };
        live.iter().any(|row| {
            if !fits(puzzle, placed, cells, row) {
                return false;
            }
            let before = placed.len();
            placed.extend(cells.iter().copied().zip(row.iter().copied()));
            let found = choose(puzzle, placed, rest);
            placed.truncate(before);
            found
        })
    }
    choose(puzzle, &mut assumed.clone(), &cages)
}

fn check_region(puzzle: &Puzzle, solution: &[Digit], step: &Step) -> Result<(), String> {
    let [Proof::Region(p)] = step.proofs.as_slice() else {
        return Err("a region step without exactly one region proof".to_string());
    };
    let n = puzzle.size().get() as u32;
    let inside = |cell: CellId| -> bool {
        let (row, col) = (puzzle.size().row(cell), puzzle.size().col(cell));
        let at = match p.slice.axis {
            Axis::Rows => row,
            Axis::Cols => col,
            Axis::Boxes => puzzle.box_of(cell).unwrap_or(usize::MAX),
        };
        (p.slice.first..p.slice.first + p.slice.count).contains(&at)
    };
    // The slice's total, worked out afresh, and the solution's total of a set of
    // cells.
    let lines = p.slice.count as u32;
    let sum_of =
        |cells: &[CellId]| -> u32 { cells.iter().map(|c| u32::from(solution[c.index()])).sum() };
    match p.total {
        Total::Sum(t) if t == lines * n * (n + 1) / 2 => {}
        Total::Product(_) => {}
        other => return Err(format!("the slice's total is not {other}")),
    }
    let mut known_sum = 0u32;
    let mut known_parity = 0u32;
    for part in &p.known {
        if !part.cells.iter().all(|&c| inside(c)) {
            return Err(format!(
                "a known part of cage {} is outside the slice",
                part.cage
            ));
        }
        let truth = sum_of(&part.cells);
        match part.value {
            Known::Total(Total::Sum(v)) if v == truth => known_sum += v,
            Known::Parity(odd) if odd == (truth % 2 == 1) => known_parity ^= truth % 2,
            Known::Total(Total::Product(_)) => {}
            other => return Err(format!("cage {}'s known part is not {other:?}", part.cage)),
        }
    }
    match (p.total, p.left) {
        (Total::Sum(t), Known::Total(Total::Sum(left))) if known_sum + left != t => {
            return Err(format!("{known_sum} known and {left} left do not make {t}"))
        }
        (Total::Sum(t), Known::Parity(odd)) if (known_parity ^ u32::from(odd)) != t % 2 => {
            return Err("the parities do not make the slice's".to_string())
        }
        _ => {}
    }
    // The unknown parts and the known ones cover the slice; each part's totals
    // hold the solution's; each lost total is one the part could make, and no
    // choice of one total of each other part completes what is left with it.
    let mut covered: Vec<CellId> = p
        .known
        .iter()
        .flat_map(|k| k.cells.iter().copied())
        .collect();
    covered.extend(p.parts.iter().flat_map(|u| u.cells.iter().copied()));
    covered.sort_unstable();
    let mut all: Vec<CellId> = puzzle.size().cells().filter(|&c| inside(c)).collect();
    all.sort_unstable();
    if covered != all {
        return Err("the known and unknown parts do not cover the slice".to_string());
    }
    for part in &p.parts {
        let truth = sum_of(&part.cells);
        let holds = part.totals.iter().any(|t| match *t {
            Known::Total(Total::Sum(v)) => v == truth,
            Known::Parity(odd) => odd == (truth % 2 == 1),
            Known::Total(Total::Product(_)) => true,
        });
        if !holds || part.cells.iter().any(|&c| !inside(c)) {
            return Err(format!(
                "cage {}'s part misses its solution's total",
                part.cage
            ));
        }
    }
    for loss in &p.losses {
        let Some(at) = p.parts.iter().position(|u| u.cage == loss.cage) else {
            return Err(format!(
                "cage {} loses totals but is no unknown part",
                loss.cage
            ));
        };
        let others: Vec<&Vec<Known>> = p
            .parts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, u)| &u.totals)
            .collect();
        for &lost in &loss.totals {
            let could = p.parts[at].totals.iter().any(|&t| match (t, lost) {
                (Known::Parity(odd), Known::Total(Total::Sum(v))) => odd == (v % 2 == 1),
                (t, l) => t == l,
            });
            if !could {
                return Err(format!(
                    "cage {} loses {lost:?}, not among its totals",
                    loss.cage
                ));
            }
            if completes(p.left, lost, &others) {
                return Err(format!(
                    "cage {}'s lost {lost:?} is completed by the other parts",
                    loss.cage
                ));
            }
        }
    }
    for loss in &p.losses {
        let truth = sum_of(&loss.cells);
        for total in &loss.totals {
            if *total == Known::Total(Total::Sum(truth)) {
                return Err(format!(
                    "cage {} loses its solution's total {truth}",
                    loss.cage
                ));
            }
        }
    }
    Ok(())
}
