//! Reading and writing puzzle strings: Tatham IDs (9×9), the auto-detecting
//! [`read_any`] on each readable format, K6C (6×6 only, by the format) and the
//! line-per-cage text format. Small next to grading, but it is on every batch line
//! and every CLI call, so a regression here would show in throughput.
//!
//! The K6C and text strings are written from the reference Tatham IDs before the
//! timed loops, so every format is timed on the same puzzles.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kenken_benches::{group, puzzles};
use kenken_formats::{read_any, sudokuwiki, tatham, text};
use kenken_model::Puzzle;
use std::hint::black_box;
use std::time::Duration;

/// Times `f` on every item of `items` per iteration, as `parsing/<id>`.
fn bench_each<T>(
    bench: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    items: &[T],
    f: impl Fn(&T),
) {
    bench.throughput(Throughput::Elements(items.len() as u64));
    bench.bench_function(id, |b| {
        b.iter(|| {
            for item in items {
                f(black_box(item));
            }
        })
    });
}

fn parsing(c: &mut Criterion) {
    let ids9: Vec<&str> = group("size9").iter().map(|e| e.puzzle.as_str()).collect();
    let ids6: Vec<&str> = group("size6").iter().map(|e| e.puzzle.as_str()).collect();
    let six: Vec<Puzzle> = puzzles("size6");
    let nine: Vec<Puzzle> = puzzles("size9");
    let k6c: Vec<String> = six
        .iter()
        .map(|p| sudokuwiki::write_k6c(p, None).expect("a 6x6 KenKen writes as K6C"))
        .collect();
    let text9: Vec<String> = nine
        .iter()
        .map(|p| text::write(p).expect("writes as text"))
        .collect();
    let text6: Vec<String> = six
        .iter()
        .map(|p| text::write(p).expect("writes as text"))
        .collect();

    let mut bench = c.benchmark_group("parsing");
    bench_each(&mut bench, "tatham_read/size9", &ids9, |s| {
        black_box(tatham::read(s).expect("reads"));
    });
    bench_each(&mut bench, "tatham_write/size9", &nine, |p| {
        black_box(tatham::write(p).expect("writes"));
    });
    // The same 6×6 puzzles in three formats: the difference is detection plus the
    // reader itself.
    bench_each(&mut bench, "read_any/tatham/size6", &ids6, |s| {
        black_box(read_any(s, None).expect("reads"));
    });
    bench_each(&mut bench, "read_any/k6c/size6", &k6c, |s| {
        black_box(read_any(s, None).expect("reads"));
    });
    bench_each(&mut bench, "read_any/text/size6", &text6, |s| {
        black_box(read_any(s, None).expect("reads"));
    });
    bench_each(&mut bench, "k6c_read/size6", &k6c, |s| {
        black_box(sudokuwiki::read_packed(s).expect("reads"));
    });
    bench_each(&mut bench, "k6c_write/size6", &six, |p| {
        black_box(sudokuwiki::write_k6c(p, None).expect("writes"));
    });
    bench_each(&mut bench, "text_write/size9", &nine, |p| {
        black_box(text::write(p).expect("writes"));
    });
    bench_each(&mut bench, "text_read/size9", &text9, |s| {
        black_box(text::read(s).expect("reads"));
    });
    bench.finish();
}

criterion_group! {
    name = benches;
    // Microseconds per iteration: 2 s is plenty of iterations, and keeps the suite
    // to a few minutes.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = parsing
}
criterion_main!(benches);
