//! Deadlines and work limits on the exhaustive search and on a [`Grader`]: a search
//! cut short says [`Verdict::Unknown`], never impossible, unique or ambiguous, and
//! the grader then ends every run with the status of what stopped it.

use kenken_model::{Exhausted, Limits, Puzzle};
use kenken_search::{count_solutions_with, count_solutions_with_deadline, Verdict};
use kenken_techniques::{Grader, Options, Rating, Status};
use std::time::{Duration, Instant};

/// A Tatham 9×9 Unreasonable (puzzles/tatham-9x9-unreasonable.json #158) whose
/// search branches (55 nodes): a normal puzzle, unique, solved in a millisecond.
const UNREASONABLE_9: &str =
    "9:_4a_a_8a_3a3__aa_9a__a_3a_b_5aa__aba_ab_3a_a__a4ba3__baa_b__a3_a_4aa_4,\
    s2d2m9s2a19a7m64d4m24a15s5m16s3a13s1m18s2s2a8m216d2s2m8m18a10s2d4d4a12a13s1a11m30s4a11m18";

/// A 9×9 made mostly of six-cell `+` cages: its solution count (two solutions are
/// enough to stop) takes well over 20 seconds.
const SIX_CELL_CAGES_9: &str = "# 9
+ 27 F9 F8 G9 G8 E8 E9
+ 31 H5 I5 G5 I6 H4 F5
+ 32 F3 F2 E3 G2 G3 E2
+ 21 A3 A2 B2 B3 A1 B1
+ 28 E4 E5 F4 G4 D4 D5
+ 26 D2 C2 C3 C1 D3 D1
+ 38 B7 A7 C7 B8 B6 A8
+ 28 E7 E6 D7 F6 G6 F7
+ 36 G1 H1 I1 H2 F1 H3
+ 34 A9 B9 C9 D9 C8 D8
+ 31 D6 C6 C5 B5 A5 B4
+ 5 A6
+ 31 G7 H7 I7 I8 I9 H9
+ 3 A4
+ 9 E1
+ 13 I2 I3 I4
+ 3 H6
+ 1 H8
+ 8 C4
";

fn read(text: &str) -> Puzzle {
    kenken_formats::read_any(text, None)
        .unwrap_or_else(|e| panic!("{e}"))
        .puzzle
}

fn tables(p: &Puzzle) -> Vec<kenken_model::Combinations> {
    p.cage_ids().map(|g| p.combinations(g).unwrap()).collect()
}

/// A deadline that has already come (the search gives up when `now >= deadline`).
fn past() -> Instant {
    Instant::now()
}

#[test]
fn a_deadline_already_passed_leaves_the_count_unknown() {
    let p = read(UNREASONABLE_9);
    let t = tables(&p);
    let full = count_solutions_with(&p, &t, None, 2);
    assert_eq!(full.verdict, Verdict::Unique);
    assert!(full.nodes > 1, "the search branches on this one");

    let cut = count_solutions_with_deadline(&p, &t, None, 2, Some(past()));
    assert_eq!(cut.verdict, Verdict::Unknown);
    assert!(!cut.is_unique());
    assert_eq!((cut.solutions_found, cut.nodes), (0, 0));
    assert_eq!(cut.solution, None);

    // No deadline, or one far away: the ordinary search.
    assert_eq!(count_solutions_with_deadline(&p, &t, None, 2, None), full);
    let later = Instant::now() + Duration::from_secs(3600);
    assert_eq!(
        count_solutions_with_deadline(&p, &t, None, 2, Some(later)),
        full
    );
}

#[test]
fn a_slow_search_stops_soon_after_its_deadline() {
    let p = read(SIX_CELL_CAGES_9);
    let t = tables(&p);
    let started = Instant::now();
    let out =
        count_solutions_with_deadline(&p, &t, None, 2, Some(started + Duration::from_millis(100)));
    assert_eq!(out.verdict, Verdict::Unknown);
    assert!(out.solutions_found < 2);
    assert!(out.nodes > 1, "stopped inside the search, not before it");
    // Generous (the machine may be busy); without the deadline it takes minutes.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_grader_whose_deadline_passed_before_it_was_built_says_so() {
    let p = read(UNREASONABLE_9);
    let limits = Limits::new().until(Some(past()));
    assert_eq!(Grader::with_limits(&p, limits).err(), Some(Exhausted::Time));
    assert_eq!(Grader::deferred(&p, limits).err(), Some(Exhausted::Time));
}

/// Every run of a grader whose solution count was cut short ends at once with the
/// status of what stopped the count: ratings 0, the propagated start.
fn assert_runs_end_at_once(grader: &Grader, status: Status, why: Exhausted) {
    assert_eq!(grader.verdict(), Verdict::Unknown);
    assert_eq!(grader.stopped(), Some(why));
    assert_eq!(grader.solution(), None);
    let start = grader.start().0.grid();
    for options in [Options::default(), Options::cage_combinations_only()] {
        for check in [false, true] {
            let grade = grader.grade(options, check);
            assert_eq!(grade.status, status);
            assert_eq!(grade.stopped, Some(why));
            assert_eq!((grade.max, grade.total), (Rating::ZERO, Rating::ZERO));
            assert_eq!(grade.ladder_steps, 0);
            assert!(grade.steps.iter().all(|s| s.is_propagation()));
            assert_eq!(grade.grid, start, "the propagated start");
            assert_eq!(grade.unsound_step, None);
        }
    }
}

#[test]
fn a_grader_whose_count_ran_out_of_time_grades_to_timed_out() {
    // Built in milliseconds; its solution count takes minutes.
    let p = read(SIX_CELL_CAGES_9);
    let started = Instant::now();
    let limits = Limits::new().until(Some(started + Duration::from_millis(300)));
    let grader = Grader::with_limits(&p, limits).unwrap();
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_runs_end_at_once(&grader, Status::TimedOut, Exhausted::Time);
}

#[test]
fn a_grader_whose_count_ran_out_of_work_grades_to_limit() {
    let p = read(SIX_CELL_CAGES_9);
    let limits = Limits {
        work: 50_000_000,
        ..Limits::new()
    };
    let grader = Grader::with_limits(&p, limits).unwrap();
    assert_runs_end_at_once(
        &grader,
        Status::Limit,
        Exhausted::Work { limit: 50_000_000 },
    );
}

#[test]
fn a_far_deadline_changes_nothing() {
    let p = read(UNREASONABLE_9);
    let grader = Grader::new(&p).unwrap();
    assert_eq!(grader.verdict(), Verdict::Unique);
    assert!(grader.solution().is_some());
    assert_eq!(
        grader.grade(Options::default(), true).status,
        Status::Solved
    );
    let later = Instant::now() + Duration::from_secs(3600);
    let grader = Grader::with_limits(&p, Limits::new().until(Some(later))).unwrap();
    assert_eq!(grader.verdict(), Verdict::Unique);
    assert_eq!(
        grader.grade(Options::default(), true).status,
        Status::Solved
    );
}

/// Found by the grading fuzz test: nine whole-row `+` cages, two of them with a
/// wrong sum. Building the grader's tables, the search's layout and the first
/// propagation each work through millions of combinations; each must look at the
/// deadline on the way (the search's layout and a node's propagation once went
/// 150 ms past a 10 ms deadline).
#[test]
fn huge_tables_do_not_hold_a_deadline_up() {
    let p = read("9:zzv_72,a15a45a45a45a49a45a45a45a45");
    let t = tables(&p);
    for ms in [10, 60, 150, 250] {
        let started = Instant::now();
        let limits = Limits::new().until(Some(started + Duration::from_millis(ms)));
        if let Ok(grader) = Grader::with_limits(&p, limits) {
            for options in [Options::default(), Options::cage_combinations_only()] {
                let _ = grader.grade(options, true);
            }
        }
        let over = started.elapsed().saturating_sub(Duration::from_millis(ms));
        assert!(over < Duration::from_millis(100), "{over:?} past {ms} ms");

        let started = Instant::now();
        let deadline = Some(started + Duration::from_millis(ms));
        let out = count_solutions_with_deadline(&p, &t, None, 2, deadline);
        let over = started.elapsed().saturating_sub(Duration::from_millis(ms));
        assert!(over < Duration::from_millis(100), "{over:?} past {ms} ms");
        assert!(matches!(
            out.verdict,
            Verdict::Unknown | Verdict::Impossible
        ));
    }
}
