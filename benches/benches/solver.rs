//! The exhaustive solver ([`search::solve`]: build the combination tables, find a
//! solution and prove there is no second one) per grid size. It is the independent
//! check behind every grade and runs inside every [`kenken_techniques::Grader::new`],
//! so its cost is paid once per graded puzzle.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kenken_benches::{puzzles, SIZE_GROUPS};
use kenken_search as search;
use std::hint::black_box;
use std::time::Duration;

/// `solver/<group>`: one iteration solves every puzzle of the group once.
fn per_size(c: &mut Criterion) {
    let mut bench = c.benchmark_group("solver");
    for name in SIZE_GROUPS {
        let puzzles = puzzles(name);
        bench.throughput(Throughput::Elements(puzzles.len() as u64));
        bench.bench_function(name, |b| {
            b.iter(|| {
                for puzzle in &puzzles {
                    black_box(search::solve(black_box(puzzle)));
                }
            })
        });
    }
    bench.finish();
}

criterion_group! {
    name = benches;
    // Short runs, as in the grading bench: a few minutes for the whole suite.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    targets = per_size
}
criterion_main!(benches);
