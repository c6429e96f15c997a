//! Hard bounds: the pathological corpus (`puzzles/pathological/pathological.json`:
//! whole-line cages, giant cages, huge products, domino chains, 16×16 grids) through
//! `batch --timeout 1 --jobs 2` in an address space of 2 GiB. Every row must come
//! out, in input order, with a status, each within the timeout plus half a second,
//! the whole batch within that much per row on two workers, and the process must
//! end normally (no abort on a failed allocation, exit code 0: timeouts and limits
//! are statuses, not errors). The same again with every operation hidden
//! (`--hide-ops`), where each cage's table is the union of its clue's operations.

use super::{stderr, stdout, GRADER};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The address-space limit the batch runs under.
const ADDRESS_SPACE: u64 = 2 << 30;
/// `--timeout`, seconds.
const TIMEOUT: f64 = 1.0;
/// How far past `--timeout` a row may end.
const GRACE: f64 = 0.5;

fn pathological() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/pathological/pathological.json")
}

#[test]
fn pathological_puzzles_stay_within_time_and_memory() {
    bounded_batch(&[]);
}

#[test]
fn pathological_puzzles_stay_within_time_and_memory_with_operations_hidden() {
    bounded_batch(&["--hide-ops"]);
}

/// The pathological corpus through `batch` under the limits, with `extra` flags.
fn bounded_batch(extra: &[&str]) {
    let path = pathological();
    let text = std::fs::read_to_string(&path).expect("cannot read pathological.json");
    let puzzles: Vec<String> = serde_json::from_str(&text).expect("a JSON array of strings");
    assert!(puzzles.len() >= 30, "{} puzzles", puzzles.len());

    // `prlimit` (util-linux) sets the limit for the child alone, without unsafe
    // code in the test.
    let started = Instant::now();
    let output = Command::new("prlimit")
        .arg(format!("--as={ADDRESS_SPACE}"))
        .arg("--")
        .arg(GRADER)
        .args(["batch", "--format", "ndjson", "--times", "--jobs", "2"])
        .args(["--timeout", &TIMEOUT.to_string()])
        .args(extra)
        .arg(&path)
        .output()
        .expect("cannot run prlimit (util-linux) with the grader");
    let took = started.elapsed();

    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{:?}\n{err}", output.status);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("memory allocation"), "{err}");

    let out = stdout(&output);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(rows.len(), puzzles.len(), "{out}");
    for (i, (row, puzzle)) in rows.iter().zip(&puzzles).enumerate() {
        assert_eq!(row["index"], i + 1, "row {i}: {row}");
        assert_eq!(row["puzzle"].as_str(), Some(puzzle.as_str()), "row {i}");
        let status = row["status"].as_str().unwrap_or_default();
        assert!(
            [
                "solved",
                "stuck",
                "ambiguous",
                "impossible",
                "timeout",
                "limit"
            ]
            .contains(&status),
            "row {}: status {status:?}",
            i + 1
        );
        let ms = row["ms"].as_f64().expect("--times gives each row its time");
        assert!(
            ms <= (TIMEOUT + GRACE) * 1e3,
            "puzzle {} took {ms} ms ({status})",
            i + 1
        );
    }

    // Two workers: half the rows each, one after another, plus the start-up.
    let per_worker = puzzles.len().div_ceil(2) as f64;
    let bound = Duration::from_secs_f64(per_worker * (TIMEOUT + GRACE) + 5.0);
    assert!(took <= bound, "{took:?} for {} rows", rows.len());
}

/// A Tatham 9×9 (Extreme, number 77) that is unique with every operation hidden,
/// and whose grading then takes about 2.5 s and 16 MiB of tracked memory before it
/// ends `stuck`: `grade` ends at `--timeout` and at `--max-memory`, with a status
/// that says which.
#[test]
fn a_hidden_operation_nine_by_nine_ends_at_its_timeout_and_memory_limit() {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/tatham-9x9-extreme.json");
    let text = std::fs::read_to_string(file).expect("cannot read tatham-9x9-extreme.json");
    let puzzles: Vec<String> = serde_json::from_str(&text).expect("a JSON array of strings");
    let puzzle = &puzzles[76];
    let grade = |limit: &[&str]| {
        let started = Instant::now();
        let output = Command::new(GRADER)
            .args(["grade", "--hide-ops", "--json"])
            .args(limit)
            .arg(puzzle)
            .output()
            .expect("cannot run the grader");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let row: Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
        (row, started.elapsed())
    };

    let (row, took) = grade(&["--timeout", &TIMEOUT.to_string()]);
    assert_eq!(row["status"], "timeout", "{row}");
    assert!(took.as_secs_f64() <= TIMEOUT + GRACE, "{took:?}");

    let (row, _) = grade(&["--max-memory", "8M"]);
    assert_eq!(row["status"], "limit", "{row}");
    assert!(
        row["stopped"]
            .as_str()
            .unwrap_or_default()
            .contains("memory"),
        "{row}"
    );
}

/// On a busy machine a row ends later than its timeout by about as long as its
/// thread waits for a core (docs/cli.md, "Bounds"): the heaviest pathological
/// puzzles through `batch --timeout 0.5 --jobs 2` with four busy threads beside
/// the batch's two, on however many cores, each row within a second of the
/// timeout.
#[test]
fn rows_end_soon_after_the_timeout_with_the_cores_busy() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    const BUSY_TIMEOUT: f64 = 0.5;
    const BUSY_GRACE: f64 = 1.0;
    let text = std::fs::read_to_string(pathological()).unwrap();
    let puzzles: Vec<String> = serde_json::from_str(&text).unwrap();
    // The ones that run into the timeout (whole-line cages, 16×16 giants).
    let heavy: Vec<&String> = [4, 6, 7, 9, 19, 22, 35, 37]
        .iter()
        .map(|&n| &puzzles[n - 1])
        .collect();
    let input = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-busy-bounds.json");
    std::fs::write(&input, serde_json::to_string(&heavy).unwrap()).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let spinners: Vec<_> = (0..4)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    n = std::hint::black_box(n.wrapping_mul(31).wrapping_add(7));
                }
                n
            })
        })
        .collect();
    let output = Command::new(GRADER)
        .args(["batch", "--format", "ndjson", "--times", "--jobs", "2"])
        .args(["--timeout", &BUSY_TIMEOUT.to_string()])
        .arg(&input)
        .output()
        .expect("cannot run the grader");
    stop.store(true, Ordering::Relaxed);
    for spinner in spinners {
        spinner.join().unwrap();
    }

    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), heavy.len(), "{out}");
    let timed_out = rows.iter().filter(|r| r["status"] == "timeout").count();
    assert!(timed_out >= heavy.len() / 2, "{out}");
    for row in &rows {
        let ms = row["ms"].as_f64().unwrap();
        assert!(
            ms <= (BUSY_TIMEOUT + BUSY_GRACE) * 1e3,
            "puzzle {} took {ms} ms ({})",
            row["index"],
            row["status"]
        );
    }
}
