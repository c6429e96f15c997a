//! Every generated puzzle is unique and rated in its band, checked again from its
//! written game ID by the exhaustive solver and a fresh grader: nothing of the
//! generator's own bookkeeping is trusted.

use crate::common;

use kenken_formats::{tatham, Strictness};
use kenken_generator::Request;
use kenken_model::Budget;
use kenken_search::{count_solutions, Verdict};
use kenken_techniques::{Grader, Options, Rating, Status};
use proptest::prelude::*;

/// The bands tried: (min, max) in tenths.
const BANDS: [(u32, Option<u32>); 6] = [
    (0, Some(15)),
    (20, Some(29)),
    (30, Some(39)),
    (40, Some(40)),
    (42, Some(44)),
    (40, None),
];

fn regrade(id: &str, strict: bool) -> (Verdict, Status, Rating) {
    let strictness = if strict {
        Strictness::Strict
    } else {
        Strictness::Lenient
    };
    let (puzzle, _) = tatham::read_with(id, strictness).expect("a generated ID reads back");
    let verdict = count_solutions(&puzzle, 2).verdict;
    let grader = Grader::new(&puzzle).unwrap();
    let summary = grader.rate(Options::default());
    let _ = Budget::unlimited();
    (verdict, summary.status, summary.max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generated_puzzles_are_unique_and_in_band(
        size in 4usize..=7,
        band in 0usize..BANDS.len(),
        seed in any::<u64>(),
        strict in any::<bool>(),
    ) {
        let (lo, hi) = BANDS[band];
        let mut request = Request::new(size, Rating(lo), hi.map(Rating));
        request.rules.strict = strict;
        let found = common::run(&request, seed, 2, 60, 2);
        for g in &found {
            let id = tatham::write(&g.puzzle).unwrap();
            let (verdict, status, max) = regrade(&id, strict);
            prop_assert_eq!(verdict, Verdict::Unique, "{}", id);
            prop_assert_eq!(status, Status::Solved, "{}", id);
            prop_assert!(request.in_band(max), "{} rated {} outside {:?}", id, max, (lo, hi));
            prop_assert_eq!(max, g.max);
            prop_assert!(g.puzzle.cages().iter().filter(|c| c.len() == 1).count() <= request.rules.max_givens);
        }
    }
}

#[test]
fn technique_rules_hold_on_the_solve_path() {
    use kenken_techniques::TechniqueKind;
    let mut request = Request::new(7, Rating(30), Some(Rating(39)));
    request.require = vec![TechniqueKind::from_id("region-sum").unwrap()];
    request.forbid = vec![TechniqueKind::from_id("cage-combination").unwrap()];
    let found = common::run(&request, 11, 3, 200, 2);
    assert_eq!(found.len(), 3);
    for g in &found {
        let grade = Grader::new(&g.puzzle)
            .unwrap()
            .grade(Options::default(), false);
        assert!(grade
            .steps
            .iter()
            .any(|s| s.technique == TechniqueKind::from_id("region-sum").unwrap()));
        assert!(!grade
            .steps
            .iter()
            .any(|s| s.technique == TechniqueKind::from_id("cage-combination").unwrap()));
        let first_max = grade.steps.iter().find(|s| s.rating == grade.max).unwrap();
        assert_eq!(first_max.technique, g.technique);
    }
}

#[test]
fn kendoku_puzzles_have_boxes_and_are_unique() {
    let mut request = Request::new(6, Rating(30), None);
    request.kendoku = true;
    let found = common::run(&request, 5, 2, 60, 2);
    assert_eq!(found.len(), 2);
    for g in &found {
        assert_eq!(g.puzzle.boxes(), Some((2, 3)));
        let d6c = kenken_formats::sudokuwiki::write_d6c(&g.puzzle, None).unwrap();
        let back = kenken_formats::sudokuwiki::read(&d6c).unwrap();
        assert_eq!(count_solutions(&back, 2).verdict, Verdict::Unique);
        let max = Grader::new(&back).unwrap().rate(Options::default()).max;
        assert!(max >= Rating(30));
    }
}

#[test]
fn large_lenient_grids_work() {
    let request = Request::new(12, Rating(0), None);
    let found = common::run(&request, 3, 1, 10, 2);
    assert_eq!(found.len(), 1);
    let id = tatham::write(&found[0].puzzle).unwrap();
    assert_eq!(regrade(&id, false).0, Verdict::Unique);
}

/// The bands a random layout is far from: a 4×4 rated 4.4 (one sgt-keen 4×4 in
/// 1 500), a 5×5 rated 4.6 and a 6×6 rated 4.8 or more (none among 10 000 of
/// sgt-keen's), each within a few hundred attempts at most.
#[test]
fn the_walk_reaches_the_rare_bands() {
    for (size, lo, hi, tries) in [
        (4, 44, Some(44), 3000),
        (5, 46, Some(46), 300),
        (6, 48, None, 60),
    ] {
        let request = Request::new(size, Rating(lo), hi.map(Rating));
        let found = common::run(&request, 1, 1, tries, 2);
        assert_eq!(found.len(), 1, "{size}x{size} at {lo}");
        let id = tatham::write(&found[0].puzzle).unwrap();
        let (verdict, status, max) = regrade(&id, false);
        assert_eq!((verdict, status), (Verdict::Unique, Status::Solved), "{id}");
        assert!(request.in_band(max), "{id} rated {max}");
    }
}

/// A run hands on no puzzle twice, nor a turn or reflection of one: 3×3 puzzles
/// solved by singles are few, and attempts keep meeting the same ones.
#[test]
fn a_run_hands_on_each_puzzle_once() {
    use kenken_generator::{canonical_key, generate, Event, RunLimits};
    let request = Request::new(3, Rating(0), Some(Rating(10)));
    let limits = RunLimits {
        count: 30,
        max_tries: Some(400),
        deadline: None,
    };
    let mut keys = Vec::new();
    let report = generate(&request, 5, &limits, |e| {
        if let Event::Found(g) = e {
            keys.push(canonical_key(&g.puzzle));
        }
        true
    })
    .unwrap();
    assert_eq!(keys.len(), report.found);
    assert!(report.repeats > 0, "{report:?}");
    let mut distinct = keys.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), keys.len());
}
