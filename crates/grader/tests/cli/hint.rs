//! `grader hint`: the next step from a position, level by level; a contradicted
//! entry instead of a step; JSON; a picture.

use super::reference::{AMBIGUOUS, SIX};
use super::{bad_input, grader, ok};
use serde_json::Value;

/// Row B of SIX's solution (`1 6 3 4 2 5`) entered, and B6's 5 found.
const ROW_B: &str = ". . . . . .\n1 6 3 4 2 5\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .";

#[test]
fn levels_tell_more_and_more() {
    let nudge = ok(grader(&["hint", SIX]));
    assert_eq!(
        nudge,
        "Look at row B: where can each of its missing digits go?"
    );
    let technique = ok(grader(&["hint", SIX, "--level", "technique"]));
    assert_eq!(
        technique,
        format!("{nudge}\nTechnique: Hidden single (rating 1)")
    );
    let cells = ok(grader(&["hint", SIX, "--level", "cells"]));
    assert_eq!(cells, format!("{technique}\nCells: B6"));
    let full = ok(grader(&["hint", SIX, "--level", "full"]));
    assert_eq!(
        full,
        format!(
            "{cells}\nStep: (1) Hidden single: 5 in B6 (row B)\n\
             Row B needs a 5, and B6 is the only cell of it that can still hold one. So B6 is 5."
        )
    );
}

#[test]
fn from_a_position() {
    // With row B entered, the first step left is a naked single elsewhere.
    let hint = ok(grader(&["hint", SIX, "--state", ROW_B, "--level", "full"]));
    assert!(!hint.contains("in B"), "{hint}");
    assert!(hint.contains("Step: ("), "{hint}");
    // A wrong digit is pointed at instead, telling nothing else.
    let wrong = ROW_B.replacen("1 6", "6 1", 1);
    assert_eq!(
        ok(grader(&["hint", SIX, "--state", &wrong, "--level", "full"])),
        "B1: the 6 entered there is wrong. Fix it first."
    );
    // The whole solution needs no hint.
    let solved = super::reference::SIX_SOLUTION;
    assert_eq!(
        ok(grader(&["hint", SIX, "--state", solved])),
        "Nothing left to do: the grid is solved."
    );
    // A K6C string carries its own position.
    let k6c = ok(grader(&["convert", SIX, "--to", "k6c"]));
    assert_eq!(
        ok(grader(&["hint", &k6c])),
        "Look at row B: where can each of its missing digits go?"
    );
    assert!(ok(grader(&["hint", AMBIGUOUS, "--level", "full"])).contains("more than one solution"));
}

#[test]
fn json_and_picture() {
    let doc: Value =
        serde_json::from_str(&ok(grader(&["hint", SIX, "--json", "--level", "cells"]))).unwrap();
    assert_eq!(doc["status"], "step");
    assert_eq!(doc["technique"], "Hidden single (rating 1)");
    assert_eq!(doc["cells"], serde_json::json!(["B6"]));
    assert!(doc.get("step").is_none(), "{doc}");
    let doc: Value =
        serde_json::from_str(&ok(grader(&["hint", SIX, "--json", "--level", "full"]))).unwrap();
    assert_eq!(doc["step"]["text"], "Hidden single: 5 in B6 (row B)");
    assert!(doc["step"]["explanation"]
        .as_str()
        .unwrap()
        .starts_with("Row B needs a 5"));
    let png = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-hint.png");
    ok(grader(&["hint", SIX, "-o", png.to_str().unwrap()]));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    let err = bad_input(grader(&["hint", SIX, "--level", "everything"]));
    assert!(err.contains("nudge"), "{err}");
}

/// A 6×6 (read leniently) whose first ladder step, once E5's 3 is in, is a cage
/// comparison, and whose hint at that point is a region sum.
const CAGES: &str = "6:a7b_a_a_3aa_a_a_7aa__a_5ba,s3a13d2a11s2a14d3s1a10s1s1s1a3s1m12";

#[test]
fn a_full_hint_gives_the_first_proof_of_its_step() {
    let state = "......\n......\n......\n......\n....3.\n......";
    let full = ok(grader(&[
        "hint", CAGES, "--state", state, "--level", "full",
    ]));
    let last = full.lines().last().unwrap();
    assert_eq!(
        last,
        "Why: Column 6 holds 1 to 6 once, so it adds up to 21. No part of it is known, \
         which leaves 21 for the cells of cage E6 (1−), cage A5 (2÷) and cage B6 (14+) in \
         it: cage E6 can make 3, 5, 7, 9 or 11 in E6, F6, cage A5 can make 1, 2, 3 or 4 in \
         A6 and cage B6 can make 8, 9, 10, 12 or 13 in B6, C6, D6. So cage E6 cannot make 3 \
         in E6, F6."
    );
}
