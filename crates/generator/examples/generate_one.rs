//! Makes one unique 6×6 puzzle whose hardest step is rated 3.0 to 3.5.
//!
//! ```sh
//! cargo run -p kenken-generator --example generate_one
//! ```
//!
//! What `grader generate --size 6 --min 3 --max 3.5 --seed 1` does, done with the
//! library.

use kenken_generator::{generate, Event, GenerateOptions, Generated};
use kenken_search::{count_solutions, Verdict};
use std::time::Instant;

fn main() {
    // 1. The options, as `grader generate` and the Python package take them. A
    //    fixed seed makes the same puzzle every time, on any number of threads;
    //    the other fields keep their defaults (one puzzle, every operation,
    //    cages of 2 to 5 cells, …).
    let options = GenerateOptions {
        size: 6,
        min: 3.0,
        max: Some(3.5),
        seed: Some(1),
        ..GenerateOptions::default()
    };

    // 2. `plan` checks them (every number in range, a band some puzzle can
    //    reach) and gives the request and the run's bounds.
    let plan = options.plan().expect("valid options");
    let seed = plan.seed.unwrap_or_else(kenken_generator::clock_seed);
    let limits = plan.limits(Instant::now());

    // 3. Run it. Attempts run in parallel on the current rayon pool (here the
    //    global one; `ThreadPool::install` picks another). Each puzzle found is
    //    handed to the closure, which returns false to stop the run early.
    let mut found: Vec<Generated> = Vec::new();
    let report = generate(&plan.request, seed, &limits, |event| {
        if let Event::Found(generated) = event {
            found.push(generated.clone());
        }
        true
    })
    .expect("a valid request");
    println!("{} attempt(s), stopped: {:?}", report.tried, report.stopped);

    // 4. Print each puzzle as a Tatham game ID (playable in Simon Tatham's Keen)
    //    with its ratings: the hardest step and the sum of all steps.
    for generated in &found {
        let id = kenken_formats::tatham::write(&generated.puzzle).expect("not a KenDoku");
        println!(
            "{id}\n  max {} (first reached by {}), total {}",
            generated.max,
            generated.technique.name(),
            generated.total
        );
    }

    // One puzzle, rated in the band, with exactly one solution (checked here by
    // the exhaustive solver, independently of the generator's own check).
    assert_eq!(found.len(), 1);
    let generated = &found[0];
    assert!(plan.request.in_band(generated.max));
    assert!(generated.max.as_f64() >= 3.0 && generated.max.as_f64() <= 3.5);
    assert_eq!(
        count_solutions(&generated.puzzle, 2).verdict,
        Verdict::Unique
    );
}
