//! Helpers shared by the generator's integration tests.

use kenken_generator::{generate, Event, Generated, Request, RunLimits};

/// The puzzles of a run with this seed on a pool of `jobs` threads.
pub fn run(
    request: &Request,
    seed: u64,
    count: usize,
    max_tries: u64,
    jobs: usize,
) -> Vec<Generated> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .unwrap();
    let mut found = Vec::new();
    let limits = RunLimits {
        count,
        max_tries: Some(max_tries),
        deadline: None,
    };
    pool.install(|| {
        generate(request, seed, &limits, |e| {
            if let Event::Found(g) = e {
                found.push(g.clone());
            }
            true
        })
    })
    .unwrap();
    found
}
