//! Grading: the ladder per size and per hardness band, mode n and mode c timed
//! apart, and batch-like mode-b throughput runs over a fixed 100-puzzle sample and
//! over 50 puzzles the reference grades in at most 2 ms.
//!
//! The per-group benchmarks time [`Grader::grade`] alone, on graders built before
//! the timed loop: building one runs the exhaustive solution count, which the
//! `solver` bench measures, and both modes share it, so leaving it in would blur
//! the difference between the modes. The batch benchmarks time everything
//! `grader batch --mode b` does per puzzle (read, build with the solution count
//! deferred, both modes), single-threaded.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use kenken_benches::{group, puzzles, BAND_GROUPS, QUICK_GROUP, SAMPLE_GROUP, SIZE_GROUPS};
use kenken_formats::read_any;
use kenken_techniques::{Grader, Options};
use std::hint::black_box;
use std::time::Duration;

/// The two ladders the reference grades with: n (everything) and c (propagation and
/// cage combinations only).
fn modes() -> [(&'static str, Options); 2] {
    [
        ("n", Options::default()),
        ("c", Options::cage_combinations_only()),
    ]
}

/// `grading/<group>/<mode>`: one iteration grades every puzzle of the group once.
fn per_group(c: &mut Criterion) {
    let mut bench = c.benchmark_group("grading");
    for name in SIZE_GROUPS.iter().chain(&BAND_GROUPS) {
        let graders: Vec<Grader> = puzzles(name)
            .iter()
            .map(|p| Grader::new(p).expect("a reference puzzle builds a grader"))
            .collect();
        bench.throughput(Throughput::Elements(graders.len() as u64));
        for (mode, options) in modes() {
            bench.bench_function(format!("{name}/{mode}"), |b| {
                b.iter(|| {
                    for grader in &graders {
                        black_box(grader.grade(black_box(options), false));
                    }
                })
            });
        }
    }
    bench.finish();
}

/// `grading_batch/mode_b/<group>`: read, build and grade in both modes, as the batch
/// command does for each line, over the fixed sample and the quick puzzles.
fn batch_sample(c: &mut Criterion) {
    let [(_, normal), (_, cc)] = modes();
    let mut bench = c.benchmark_group("grading_batch");
    // One iteration of the sample is most of a second: flat sampling keeps it to one
    // iteration per sample instead of criterion's linear 1, 2, …, 10 ramp (55
    // iterations).
    bench
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for name in [SAMPLE_GROUP, QUICK_GROUP] {
        let texts: Vec<&str> = group(name).iter().map(|e| e.puzzle.as_str()).collect();
        bench.throughput(Throughput::Elements(texts.len() as u64));
        bench.bench_function(format!("mode_b/{name}"), |b| {
            b.iter(|| {
                for &text in &texts {
                    let imported = read_any(black_box(text), None).expect("a reference ID reads");
                    let grader = Grader::deferred(&imported.puzzle, kenken_model::Limits::new())
                        .expect("builds a grader");
                    black_box(grader.grade(normal, false));
                    black_box(grader.grade(cc, false));
                }
            })
        });
    }
    bench.finish();
}

criterion_group! {
    name = benches;
    // Short runs: the machine has two cores shared with compiles, and a few minutes
    // for the whole suite is what makes people run it before and after a change.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(30);
    targets = per_group, batch_sample
}
criterion_main!(benches);
