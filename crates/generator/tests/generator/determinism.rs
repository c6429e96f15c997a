//! The same seed and request give the same puzzles whatever the number of
//! threads, a puzzle's own seed makes it again as the first of a run, and a
//! run's limits (tries, deadline, the caller's stop) end it.

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

/// A run stopped early (by its count, or by its caller) hands on the start of a
/// longer run's puzzles, whatever the threads.
#[test]
fn a_short_run_is_the_start_of_a_longer_one() {
    use kenken_generator::{generate, Event, RunLimits, Stopped};
    let request = Request::new(5, Rating(40), Some(Rating(42)));
    let long = ids(&common::run(&request, 9, 6, 500, 1));
    assert_eq!(long.len(), 6);
    assert_eq!(ids(&common::run(&request, 9, 2, 500, 3)), long[..2]);
    let limits = RunLimits {
        count: 6,
        max_tries: Some(500),
        deadline: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut found = Vec::new();
    let report = pool
        .install(|| {
            generate(&request, 9, &limits, |e| match e {
                Event::Found(g) => {
                    found.push(g.clone());
                    found.len() < 3
                }
                Event::Progress { .. } => true,
            })
        })
        .unwrap();
    assert_eq!(report.stopped, Stopped::Cancelled);
    assert_eq!(report.found, 3);
    assert_eq!(ids(&found), long[..3]);
}

/// The deadline stops a run that cannot succeed (a 9×9 rated 6.0 or more)
/// within a step of each running attempt.
#[test]
fn a_deadline_ends_the_run() {
    use kenken_generator::{generate, RunLimits, Stopped};
    use std::time::{Duration, Instant};
    let request = Request::new(9, Rating(60), None);
    let start = Instant::now();
    let limits = RunLimits {
        count: 1,
        max_tries: None,
        deadline: Some(start + Duration::from_millis(500)),
    };
    let report = generate(&request, 1, &limits, |_| true).unwrap();
    assert_eq!(report.stopped, Stopped::Timeout);
    assert_eq!(report.found, 0);
    let secs = start.elapsed().as_secs_f64();
    assert!(secs < 8.0, "took {secs:.1} s");
}
