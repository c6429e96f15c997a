//! The same seed and request give the same puzzles whatever the number of
//! threads, and a puzzle's own seed makes it again as the first of a run.

use crate::common;

use kenken_formats::tatham;
use kenken_generator::Request;
use kenken_techniques::Rating;

fn ids(found: &[kenken_generator::Generated]) -> Vec<String> {
    found
        .iter()
        .map(|g| tatham::write(&g.puzzle).unwrap())
        .collect()
}

#[test]
fn same_puzzles_whatever_the_jobs() {
    let request = Request::new(6, Rating(40), Some(Rating(42)));
    let one = ids(&common::run(&request, 2024, 5, 500, 1));
    let two = ids(&common::run(&request, 2024, 5, 500, 2));
    let three = ids(&common::run(&request, 2024, 5, 500, 3));
    assert_eq!(one.len(), 5);
    assert_eq!(one, two);
    assert_eq!(one, three);
    let other = ids(&common::run(&request, 2025, 5, 500, 2));
    assert_ne!(one, other);
}

#[test]
fn a_puzzles_seed_makes_it_again() {
    let request = Request::new(5, Rating(30), None);
    let found = common::run(&request, 77, 4, 500, 2);
    let last = found.last().unwrap();
    let again = common::run(&request, last.seed, 1, 1, 1);
    assert_eq!(ids(&again), ids(std::slice::from_ref(last)));
}

#[test]
fn max_tries_bounds_the_run_and_reports_what_was_reached() {
    use kenken_generator::{generate, RunLimits, Stopped};
    // A 4×4 rated 6.0 or more (a combination of twelve cages) cannot exist.
    let request = Request::new(4, Rating(60), None);
    let limits = RunLimits {
        count: 1,
        max_tries: Some(6),
        deadline: None,
    };
    let report = generate(&request, 1, &limits, |_| true).unwrap();
    assert_eq!(report.found, 0);
    assert_eq!(report.tried, 6);
    assert_eq!(report.stopped, Stopped::Tries);
    // The climbs got well above a fresh layout's rating on the way.
    let closest = report.closest(&request);
    assert!(
        closest > Some(kenken_generator::Closest::Rated(Rating(30))),
        "{closest:?}"
    );
}
