//! `grader solve`: the grid and the verdict, and exit codes 0 / 3 / 2.

use super::reference::{AMBIGUOUS, IMPOSSIBLE, SIX, SIX_SOLUTION};
use super::{bad_input, grader, ok, stderr, stdout};
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
