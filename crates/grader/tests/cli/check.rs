//! `grader check`: wrong digits and pencil marks named, nothing else told; exit
//! code 3 when something contradicts the solution.

use super::reference::{AMBIGUOUS, SIX, SIX_SOLUTION};
use super::{bad_input, grader, ok, stdout};
use serde_json::Value;

#[test]
fn consistent_positions() {
    let state = "2 3 . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . [13]\n. . . . . .";
    assert_eq!(
        ok(grader(&["check", SIX, "--state", state])),
        "All consistent so far (2 of 36 cells filled)."
    );
    assert_eq!(
        ok(grader(&["check", SIX, "--state", SIX_SOLUTION])),
        "Solved: every cell is filled, and right."
    );
    assert_eq!(
        ok(grader(&["check", AMBIGUOUS, "--state", "1..\n...\n..."])),
        "Consistent with at least one solution (the puzzle has several)."
    );
}

#[test]
fn contradictions_are_named_without_the_answer() {
    // A1 is 2 and E6 is 3.
    let state = "4 3 . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . [12]\n. . . . . .";
    let out = grader(&["check", SIX, "--state", state]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        stdout(&out),
        "A1: the 4 entered there is wrong.\nE6: its pencil marks leave out the digit it needs.\n"
    );
    let out = grader(&["check", SIX, "--state", state, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["status"], "conflicts");
    assert_eq!(
        doc["conflicts"],
        serde_json::json!([
            {"cell": "A1", "kind": "wrong-digit", "entered": 4},
            {"cell": "E6", "kind": "digit-removed"}
        ])
    );
    assert_eq!(doc["filled"], 2);
    let out = grader(&["check", AMBIGUOUS, "--state", "11.\n...\n..."]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).contains("none of the puzzle's solutions"));
}

#[test]
fn a_position_is_needed() {
    let err = bad_input(grader(&["check", SIX]));
    assert!(err.contains("--state"), "{err}");
    let err = bad_input(grader(&["check", SIX, "--state", "1 2 3"]));
    assert!(err.contains("cells, a row of the grid has 6"), "{err}");
    // A K6C string's own progress is checked; its cages must be the puzzle's.
    let k6c = ok(grader(&["convert", SIX, "--to", "k6c"]));
    assert!(ok(grader(&["check", &k6c])).starts_with("All consistent"));
    let other = ok(grader(&["convert", super::README, "--to", "k6c"]));
    let err = bad_input(grader(&["check", SIX, "--state", &other]));
    assert!(err.contains("of another puzzle"), "{err}");
}
