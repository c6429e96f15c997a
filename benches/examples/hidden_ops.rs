//! Times mode n grading, on one core with the default limits, of every puzzle of
//! `puzzles/hidden-ops.json` and every 8×8 and 9×9 Tatham puzzle of the corpus that
//! stays unique with its operations hidden, each graded with its operations hidden
//! and shown; prints per size the puzzles, how many did not finish (a limit or the
//! timeout stopped them), the median, 99th percentile and slowest time of each, and
//! for the hidden ones how many took over a second and the time of them all:
//!
//! ```sh
//! cargo run --release -p kenken-benches --example hidden_ops [-- --timeout SECONDS] [--sizes 8,9] [--per-size N] [--rows FILE]
//! ```
//!
//! `--timeout` bounds each grading (none by default, as `grader batch`);
//! `--per-size` keeps the first N puzzles of each size (`hidden-ops.json`'s first;
//! the corpus has about 1 900 8×8 and 9×9 Tatham puzzles unique when hidden);
//! `--rows` writes one TSV row per puzzle and variant (size, status, milliseconds,
//! puzzle).
use kenken_model::{Limits, Puzzle};
use kenken_techniques::{Grader, Options, Status};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One timed grading.
struct Timed {
    size: usize,
    hidden: bool,
    ms: f64,
    status: Status,
    id: String,
}

fn main() {
    let mut timeout: Option<f64> = None;
    let mut sizes: Vec<usize> = (3..=9).collect();
    let mut rows_path: Option<String> = None;
    let mut per_size = usize::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--timeout" => timeout = Some(value().parse().expect("--timeout: seconds")),
            "--sizes" => {
                sizes = value()
                    .split(',')
                    .map(|s| s.parse().expect("--sizes: sizes like 8,9"))
                    .collect()
            }
            "--rows" => rows_path = Some(value()),
            "--per-size" => per_size = value().parse().expect("--per-size: a count"),
            other => panic!("unknown argument {other}"),
        }
    }
    let ids = puzzle_ids();
    eprintln!("{} puzzles", ids.len());
    let mut timed = Vec::new();
    let mut taken = [0usize; 10];
    for id in &ids {
        let shown = kenken_formats::tatham::read(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let size = shown.size().get();
        if !sizes.contains(&size) || taken[size] >= per_size {
            continue;
        }
        taken[size] += 1;
        eprint!("\r{size}×{size}: {}   ", taken[size]);
        for hidden in [true, false] {
            let puzzle = if hidden {
                shown.with_hidden_ops()
            } else {
                shown.clone()
            };
            let (ms, status) = grade(&puzzle, timeout);
            timed.push(Timed {
                size,
                hidden,
                ms,
                status,
                id: id.clone(),
            });
        }
    }
    if let Some(path) = rows_path {
        let mut out = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for t in &timed {
            let variant = if t.hidden { "hidden" } else { "shown" };
            writeln!(
                out,
                "{}\t{variant}\t{}\t{:.3}\t{}",
                t.size, t.status, t.ms, t.id
            )
            .unwrap();
        }
    }
    println!(
        "| size | puzzles | hidden: unfinished | median | p99 | max | over 1 s | all runs | shown: median | p99 | max |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for size in sizes {
        let of = |hidden: bool| -> Vec<&Timed> {
            timed
                .iter()
                .filter(|t| t.size == size && t.hidden == hidden)
                .collect()
        };
        let (hidden, shown) = (of(true), of(false));
        if hidden.is_empty() {
            continue;
        }
        let unfinished = hidden.iter().filter(|t| !finished(t.status)).count();
        let [hm, h99, hmax] = quantiles(&hidden);
        let [sm, s99, smax] = quantiles(&shown);
        let over_a_second = hidden.iter().filter(|t| t.ms > 1_000.0).count();
        let all = hidden.iter().map(|t| t.ms).sum::<f64>() / 1e3;
        println!(
            "| {size}×{size} | {} | {unfinished} | {hm:.2} ms | {h99:.1} ms | {hmax:.1} ms | {over_a_second} | {all:.2} s | {sm:.3} ms | {s99:.2} ms | {smax:.2} ms |",
            hidden.len()
        );
    }
}

/// Whether a grading ended on its own (solved, stuck, ambiguous or impossible)
/// rather than at a limit.
fn finished(status: Status) -> bool {
    !matches!(status, Status::Limit | Status::TimedOut)
}

/// The median, 99th percentile and largest time.
fn quantiles(times: &[&Timed]) -> [f64; 3] {
    let mut ms: Vec<f64> = times.iter().map(|t| t.ms).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    [at(0.5), at(0.99), at(1.0)]
}

/// Mode n as `grader batch` grades a puzzle: the solution counted only when the
/// ladder does not solve it.
fn grade(puzzle: &Puzzle, timeout: Option<f64>) -> (f64, Status) {
    let started = Instant::now();
    let limits = Limits::new().until(timeout.map(|s| started + Duration::from_secs_f64(s)));
    let status = match Grader::deferred(puzzle, limits) {
        Ok(grader) => grader.rate(Options::default()).status,
        Err(why) => Status::of(why),
    };
    (started.elapsed().as_secs_f64() * 1e3, status)
}

/// The puzzles: `hidden-ops.json`'s, then the 8×8 and 9×9 Tatham puzzles of the
/// corpus that stay unique with their operations hidden, each once.
fn puzzle_ids() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles");
    let read = |name: &str| -> serde_json::Value {
        let text =
            std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let mut ids: Vec<String> = read("hidden-ops.json")
        .as_array()
        .expect("a list of entries")
        .iter()
        .map(|entry| {
            entry["puzzle"]
                .as_str()
                .expect("a puzzle string")
                .to_string()
        })
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("tatham-8x8") || n.starts_with("tatham-9x9"))
        .collect();
    names.sort();
    for name in names {
        for id in read(&name).as_array().expect("a list of puzzle strings") {
            let id = id.as_str().expect("a puzzle string").to_string();
            if ids.contains(&id) {
                continue;
            }
            let hidden = kenken_formats::tatham::read(&id)
                .unwrap_or_else(|e| panic!("{id}: {e}"))
                .with_hidden_ops();
            if kenken_search::count_solutions(&hidden, 2).is_unique() {
                ids.push(id);
            }
        }
    }
    ids
}
