//! `grader solve`: the grid and the verdict, exit codes 0 / 3 / 2, `--timeout`,
//! and `--many`: rows in input order, the same under `--jobs 1` and `2`.

use super::reference::{AMBIGUOUS, IMPOSSIBLE, ROWS, SIX, SIX_SOLUTION};
use super::{bad_input, grader, grader_stdin, ok, stderr, stdout};
use serde_json::Value;

#[test]
fn unique_solution() {
    assert_eq!(
        ok(grader(&["solve", SIX])),
        format!("{SIX_SOLUTION}\nunique")
    );
    let doc: Value = serde_json::from_str(&ok(grader(&["solve", SIX, "--json"]))).unwrap();
    assert_eq!(doc["verdict"], "unique");
    assert_eq!(doc["size"], 6);
    assert_eq!(doc["solution"][0], serde_json::json!([2, 3, 1, 5, 6, 4]));
}

#[test]
fn not_unique_exits_3() {
    let o = grader(&["solve", AMBIGUOUS]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[3].starts_with("ambiguous"), "{out}");

    let o = grader(&["solve", IMPOSSIBLE]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("impossible"), "{}", stdout(&o));

    let o = grader(&["solve", IMPOSSIBLE, "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["verdict"], "impossible");
    assert!(doc["solution"].is_null());
}

#[test]
fn bad_input_exits_2() {
    let err = bad_input(grader(&["solve", "6:a_a_,s2"]));
    assert!(err.starts_with("grader solve: error:"), "{err}");
    assert!(err.contains("block structure"), "{err}");
}

/// A 9×9 made mostly of six-cell `+` cages: the exhaustive search takes minutes.
const SIX_CELL_CAGES_9: &str = "# 9\n+ 27 F9 F8 G9 G8 E8 E9\n+ 31 H5 I5 G5 I6 H4 F5\n\
    + 32 F3 F2 E3 G2 G3 E2\n+ 21 A3 A2 B2 B3 A1 B1\n+ 28 E4 E5 F4 G4 D4 D5\n\
    + 26 D2 C2 C3 C1 D3 D1\n+ 38 B7 A7 C7 B8 B6 A8\n+ 28 E7 E6 D7 F6 G6 F7\n\
    + 36 G1 H1 I1 H2 F1 H3\n+ 34 A9 B9 C9 D9 C8 D8\n+ 31 D6 C6 C5 B5 A5 B4\n+ 5 A6\n\
    + 31 G7 H7 I7 I8 I9 H9\n+ 3 A4\n+ 9 E1\n+ 13 I2 I3 I4\n+ 3 H6\n+ 1 H8\n+ 8 C4\n";

#[test]
fn timeout_gives_up_and_says_so() {
    let started = std::time::Instant::now();
    let o = grader(&["solve", SIX_CELL_CAGES_9, "--timeout", "0.3"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("timeout (--timeout passed"), "{out}");
    let o = grader(&["solve", SIX_CELL_CAGES_9, "--timeout", "0.3", "--json"]);
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["verdict"], "timeout");
    assert!(doc["solution"].is_null());
    // A quick puzzle is not affected.
    assert_eq!(
        ok(grader(&["solve", SIX, "--timeout", "5"])),
        format!("{SIX_SOLUTION}\nunique")
    );
    let o = grader(&["solve", SIX, "--timeout", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_limit_is_named_as_such() {
    // A 12×12 of whole-row `+` cages: its tables need more than the default memory
    // limit (no --timeout given, so none is mentioned).
    let mut text = String::from("# 12\n");
    for row in 'A'..='L' {
        let cells: Vec<String> = (1..=12).map(|c| format!("{row}{c}")).collect();
        text += &format!("+ 78 {}\n", cells.join(" "));
    }
    let o = grader(&["solve", &text]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.trim_end(),
        "limit (it needs more memory than the limit of 512 MiB: the number of solutions is unknown)"
    );
}

/// `solution` of a `solve --many` row: the grid's digits in reading order.
fn digits(grid: &str) -> String {
    grid.split_whitespace().collect()
}

fn ndjson_rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn many_puzzles_one_row_each_in_order() {
    let input = serde_json::to_string(&[SIX, AMBIGUOUS, IMPOSSIBLE, "hello", SIX]).unwrap();
    let o = grader_stdin(&["solve", "--many"], &input);
    // An invalid row outranks the puzzles that are not unique.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Puzzle #\tPuzzle String\tSolution\tError\tStatus");
    assert_eq!(
        lines[1],
        format!("1\t{SIX}\t{}\t\tunique", digits(SIX_SOLUTION))
    );
    assert!(lines[2].starts_with("2\t# 3\\n+ 6 A1 A2 A3"), "{out}");
    assert!(lines[2].ends_with("\t\tambiguous"), "{out}");
    assert!(lines[3].ends_with("\t\t\timpossible"), "{out}");
    assert!(
        lines[4].starts_with("4\thello\t\tthe input is not"),
        "{out}"
    );
    assert!(lines[4].ends_with("\tinvalid"), "{out}");
    assert_eq!(lines[5], lines[1].replacen('1', "5", 1));
    let err = stderr(&o);
    assert!(err.contains("puzzle 4 (\"hello\")"), "{err}");
    assert!(
        err.contains("not unique: 1 ambiguous, 1 impossible"),
        "{err}"
    );

    let rows = ndjson_rows(&stdout(&grader_stdin(
        &["solve", "--many", "-", "--format", "ndjson", "--times"],
        &input,
    )));
    assert_eq!(rows[0]["status"], "unique");
    assert_eq!(rows[0]["solution"], digits(SIX_SOLUTION));
    assert!(rows[0]["ms"].as_f64().is_some());
    assert_eq!(rows[1]["status"], "ambiguous");
    assert_eq!(rows[1]["solution"].as_str().unwrap().len(), 9);
    assert_eq!(rows[2]["status"], "impossible");
    assert!(rows[2].get("solution").is_none());
    assert_eq!(rows[3]["status"], "invalid");
    assert_eq!(rows[4]["index"], 5);

    // Exit codes: 0 when all are unique, 3 when one is not.
    let o = grader_stdin(&["solve", "--many"], &format!("{SIX}\n{SIX}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = grader_stdin(
        &["solve", "--many", "--quiet"],
        &format!("\"{SIX}\"\n{}\n", serde_json::to_string(AMBIGUOUS).unwrap()),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // The one-puzzle options do not mix with --many, nor the batch ones without it.
    assert_eq!(
        grader(&["solve", "--many", "--json"]).status.code(),
        Some(2)
    );
    assert_eq!(
        grader(&["solve", SIX, "--jobs", "2"]).status.code(),
        Some(2)
    );
}

#[test]
fn many_puzzles_agree_with_one_at_a_time_and_across_jobs() {
    // Every reference row, repeated past one chunk of two workers (4 096), with
    // sizes mixed so that the workers finish out of order.
    let puzzles: Vec<&str> = (0..5000)
        .map(|i| ROWS[(i * 7) % ROWS.len()].puzzle)
        .collect();
    // From a file: on a pipe, a chunk's rows would fill the output pipe while the
    // test is still writing the input.
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-solve-many.txt");
    std::fs::write(&path, input).unwrap();
    let file = path.to_str().unwrap();
    let one = ok(grader(&[
        "solve", "--many", file, "--jobs", "1", "--format", "ndjson",
    ]));
    let two = ok(grader(&[
        "solve", "--many", file, "--jobs", "2", "--format", "ndjson",
    ]));
    assert_eq!(one, two);
    let rows = ndjson_rows(&two);
    assert_eq!(rows.len(), puzzles.len());
    let mut solutions = std::collections::HashMap::new();
    for (i, (row, puzzle)) in rows.iter().zip(&puzzles).enumerate() {
        assert_eq!(row["index"], i + 1);
        assert_eq!(row["puzzle"], *puzzle);
        assert_eq!(row["status"], "unique");
        let solution = solutions
            .entry(*puzzle)
            .or_insert_with(|| digits(&ok(grader(&["solve", puzzle])).replace("unique", "")));
        assert_eq!(row["solution"], solution.as_str(), "{puzzle}");
    }
}

#[test]
fn many_puzzles_with_a_timeout() {
    let input = serde_json::to_string(&[SIX_CELL_CAGES_9, SIX]).unwrap();
    let started = std::time::Instant::now();
    let o = grader_stdin(
        &["solve", "--many", "--timeout", "0.3", "--format", "ndjson"],
        &input,
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let rows = ndjson_rows(&stdout(&o));
    assert_eq!(rows[0]["status"], "timeout");
    assert_eq!(rows[0]["error"], "--timeout passed");
    assert!(rows[0].get("solution").is_none());
    assert_eq!(rows[1]["status"], "unique");
    assert!(
        stderr(&o).contains("not unique: 1 timeout"),
        "{}",
        stderr(&o)
    );
}
