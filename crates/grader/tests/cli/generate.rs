//! `grader generate`: NDJSON rows in the band, the same rows whatever `--jobs`,
//! exit code 4 with what was reached when the budget runs out, 2 for bad options.

use super::{grader, stderr, stdout};

fn rows(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("an NDJSON row"))
        .collect()
}

#[test]
fn rows_are_in_band_and_do_not_depend_on_jobs() {
    let args = |jobs: &'static str| {
        [
            "generate", "--size", "5", "--min", "3", "--max", "4.2", "--count", "4", "--seed",
            "12", "--jobs", jobs,
        ]
    };
    let one = grader(&args("1"));
    let two = grader(&args("2"));
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    let rows = rows(&stdout(&one));
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["index"], i + 1);
        let max = row["max"].as_f64().unwrap();
        assert!((3.0..=4.2).contains(&max), "{row}");
        assert!(row["puzzle"].as_str().unwrap().starts_with("5:"));
        assert!(row["technique"].is_string() && row["seed"].is_u64() && row["depth"].is_u64());
        // The grader agrees when it grades the puzzle on its own.
        let graded = grader(&["grade", row["puzzle"].as_str().unwrap()]);
        let text = stdout(&graded);
        let line = text
            .lines()
            .find(|l| l.starts_with("Max difficulty: "))
            .unwrap();
        let graded_max: f64 = line["Max difficulty: ".len()..]
            .split(';')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(graded_max, max, "{text}");
        assert!(text.contains("Status: solved"));
    }
}

#[test]
fn an_unreachable_band_ends_with_what_was_reached() {
    let o = grader(&[
        "generate",
        "--size",
        "4",
        "--min",
        "9",
        "--count",
        "1",
        "--seed",
        "1",
        "--max-tries",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(err.contains("found 0 of 1"), "{err}");
    assert!(err.contains("closest max rating reached"), "{err}");
}

/// A 9×9 rated 6.0 or more (a twelve-cage combination) is out of reach: the
/// timeout ends the run within a step of each running attempt.
#[test]
fn the_timeout_ends_a_run_promptly() {
    let start = std::time::Instant::now();
    let o = grader(&[
        "generate",
        "--size",
        "9",
        "--min",
        "6",
        "--seed",
        "1",
        "--jobs",
        "2",
        "--timeout",
        "1",
    ]);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(4));
    let err = stderr(&o);
    assert!(err.contains("stopped by --timeout 1"), "{err}");
    assert!(secs < 10.0, "took {secs:.1} s");
}

#[test]
fn bad_options_are_refused() {
    for args in [
        &["generate", "--size", "12", "--min", "3", "--strict"][..],
        &["generate", "--size", "6", "--min", "4", "--max", "3"],
        &["generate", "--size", "7", "--min", "3", "--kendoku"],
        &["generate", "--size", "7", "--min", "3", "--format", "k6c"],
    ] {
        let o = grader(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn strict_tatham_output_reads_back_strictly() {
    let o = grader(&[
        "generate", "--size", "6", "--min", "4", "--count", "3", "--seed", "5", "--strict",
        "--format", "tatham",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for id in stdout(&o).lines() {
        let back = kenken_formats::tatham::read_with(id, kenken_formats::Strictness::Strict);
        assert!(back.is_ok(), "{id}");
    }
}
