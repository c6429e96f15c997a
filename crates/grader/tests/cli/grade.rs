//! `grader grade`: the step log, `--no-singles`, `--json`, `--hint`, the ladder
//! options, each input form, and bad input.

use super::reference::{AMBIGUOUS, IMPOSSIBLE, ROWS, SIX, SIX_LOG_START, SIX_SOLUTION};
use super::{bad_input, grader, grader_stdin, ok};
use serde_json::Value;

fn last_lines(text: &str, n: usize) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

#[test]
fn log_in_the_reference_style() {
    let log = ok(grader(&["grade", SIX, "--reference-text"]));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(&lines[..SIX_LOG_START.len()], SIX_LOG_START);
    // The reference's log has 45 steps, naked singles included.
    assert_eq!(lines.len(), 45 + 2, "{log}");
    assert!(lines[44].starts_with("45: (0) Naked single: "), "{log}");
    assert_eq!(
        last_lines(&log, 2),
        ["Max difficulty: 2; total difficulty: 12", "Status: solved"]
    );
}

#[test]
fn max_and_total_agree_with_the_reference() {
    for row in ROWS {
        let log = ok(grader(&["grade", row.puzzle, "--no-singles"]));
        assert_eq!(
            last_lines(&log, 2),
            [
                format!(
                    "Max difficulty: {}; total difficulty: {}",
                    row.max, row.total
                ),
                "Status: solved".to_string()
            ],
            "{}",
            row.puzzle
        );
        let log = ok(grader(&[
            "grade",
            row.puzzle,
            "--mode",
            "c",
            "--no-singles",
        ]));
        let depth = last_lines(&log, 2)[0];
        assert!(
            depth.starts_with(&format!("Max depth: {}; steps: ", row.depth)),
            "{}: {depth}",
            row.puzzle
        );
        if let Some(steps) = row.cc_steps {
            assert_eq!(depth, format!("Max depth: {}; steps: {steps}", row.depth));
        }
    }
}

#[test]
fn mode_b_adds_mode_c_depth_and_steps() {
    let row = &ROWS[1];
    let log = ok(grader(&[
        "grade",
        row.puzzle,
        "--mode",
        "b",
        "--no-singles",
    ]));
    assert_eq!(
        last_lines(&log, 3),
        [
            "Max difficulty: 1; total difficulty: 3",
            "Max depth: 2; steps: 7",
            "Status: solved"
        ]
    );
    // The steps shown are mode n's.
    assert_eq!(
        log,
        ok(grader(&["grade", row.puzzle, "--no-singles"]))
            .replace("Status: solved", "Max depth: 2; steps: 7\nStatus: solved")
    );
    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", row.puzzle, "--mode", "b", "--json"]))).unwrap();
    assert_eq!(doc["max"], 1.0);
    assert_eq!(doc["cc_depth"], 2);
    assert_eq!(doc["cc_steps"], 7);
    let doc: Value = serde_json::from_str(&ok(grader(&["grade", row.puzzle, "--json"]))).unwrap();
    assert!(doc.get("cc_depth").is_none(), "{doc}");
}

#[test]
fn no_singles_numbers_the_ladder_steps() {
    let log = ok(grader(&["grade", SIX, "--no-singles", "--reference-text"]));
    assert!(!log.contains("Naked single"), "{log}");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 9 + 2, "{log}");
    assert_eq!(lines[0], "1: (1) Hidden single: 5 in r2c6");
    assert_eq!(lines[7], "8: (2) Hidden pair: 2, 6 in r3c3, r5c3");
    assert_eq!(lines[8], "9: (1) Hidden single: 5 in r1c4");
}

#[test]
fn json_document() {
    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", SIX, "--json", "--reference-text"]))).unwrap();
    assert_eq!(doc["puzzle"], SIX);
    assert_eq!(doc["size"], 6);
    assert_eq!(doc["status"], "solved");
    assert_eq!(doc["max"], 2.0);
    assert_eq!(doc["total"], 12.0);
    let steps = doc["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 45);
    let first = &steps[0];
    assert_eq!(first["technique"], "hidden-single");
    assert_eq!(first["rating"], 1.0);
    assert_eq!(first["text"], "Hidden single: 5 in r2c6");
    assert_eq!(
        first["placements"],
        serde_json::json!([{"cell": "r2c6", "digit": 5}])
    );
    let eliminated: Vec<&Value> = first["eliminations"].as_array().unwrap().iter().collect();
    assert!(!eliminated.is_empty());
    assert!(eliminated
        .iter()
        .all(|e| e["cell"] == "r2c6" && e["digit"] != 5));
    assert_eq!(steps[1]["technique"], "naked-single");
    let claiming = &steps[3];
    assert_eq!(claiming["technique"], "claiming");
    assert_eq!(claiming["rating"], 1.5);
    let rows: Vec<String> = doc["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(rows.join("\n"), SIX_SOLUTION);

    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", SIX, "--json", "--no-singles"]))).unwrap();
    assert_eq!(doc["steps"].as_array().unwrap().len(), 9);
}

#[test]
fn hint_is_the_next_step() {
    assert_eq!(
        ok(grader(&["grade", SIX, "--hint"])),
        "(1) Hidden single: 5 in B6 (row B)"
    );
    assert_eq!(
        ok(grader(&["grade", SIX, "--hint", "--reference-text"])),
        "(1) Hidden single: 5 in r2c6"
    );
    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", SIX, "--hint", "--json"]))).unwrap();
    assert_eq!(doc["status"], "unsolved");
    assert_eq!(doc["step"]["text"], "Hidden single: 5 in B6 (row B)");
    // Switching a technique off changes the hint.
    let hint = ok(grader(&[
        "grade",
        SIX,
        "--hint",
        "--disable",
        "hidden-single",
    ]));
    assert!(hint.starts_with("(1.5) Claiming candidates"), "{hint}");

    // Propagation alone solves the max-0 row.
    let easy = ROWS[0].puzzle;
    assert!(ok(grader(&["grade", easy, "--hint"])).contains("No hint needed"));
    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", easy, "--hint", "--json"]))).unwrap();
    assert_eq!(doc["status"], "solved");
    assert!(doc["step"].is_null());

    assert!(ok(grader(&["grade", AMBIGUOUS, "--hint"])).contains("more than one solution"));
    assert!(ok(grader(&["grade", IMPOSSIBLE, "--hint"])).contains("no solution"));
}

#[test]
fn ladder_options() {
    // Mode c only uses cage combinations.
    let log = ok(grader(&["grade", ROWS[2].puzzle, "--mode", "c"]));
    assert!(log
        .lines()
        .filter(|l| l.starts_with(char::is_numeric))
        .all(|l| l.contains("Naked single") || l.contains("Cage comparison")));
    assert!(log.contains("Max depth: 3; steps: 8"), "{log}");
    // Without three-cage combinations, mode c gets stuck on it.
    let log = ok(grader(&[
        "grade",
        ROWS[2].puzzle,
        "--mode",
        "c",
        "--max-depth",
        "2",
    ]));
    assert!(log.contains("Status: stuck"), "{log}");
    assert!(log.contains("Grid reached:"), "{log}");

    // The max-4 row needs cage combinations; without them it is stuck, and the
    // two spellings of --disable agree.
    let max4 = ROWS[4].puzzle;
    let a = ok(grader(&[
        "grade",
        max4,
        "--disable",
        "cage-combination",
        "--disable",
        "region-sum",
    ]));
    let b = ok(grader(&[
        "grade",
        max4,
        "--disable",
        "cage-combination,region-sum",
    ]));
    assert_eq!(a, b);
    assert!(a.contains("Status: stuck"), "{a}");
    assert!(!a.contains("Cage comparison"), "{a}");
}

#[test]
fn every_input_form() {
    let expected = ok(grader(&["grade", SIX]));
    let text = ok(grader(&["convert", SIX, "--to", "text"]));
    let k6c = ok(grader(&["convert", SIX, "--to", "k6c"]));
    let url = format!("https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/keen.html#{SIX}");
    for input in [text.as_str(), k6c.as_str(), url.as_str()] {
        assert_eq!(ok(grader(&["grade", input])), expected, "{input}");
    }
    assert_eq!(ok(grader(&["grade", &text, "--from", "text"])), expected);
    assert_eq!(
        ok(grader_stdin(&["grade", "-"], &format!("{text}\n"))),
        expected
    );
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-grade-puzzle.txt");
    std::fs::write(&path, format!("{SIX}\n")).unwrap();
    assert_eq!(ok(grader(&["grade", path.to_str().unwrap()])), expected);
}

#[test]
fn statuses_of_puzzles_without_one_solution() {
    let log = ok(grader(&["grade", AMBIGUOUS]));
    assert!(log.contains("Status: ambiguous"), "{log}");
    let log = ok(grader(&["grade", IMPOSSIBLE]));
    assert!(log.contains("Status: impossible"), "{log}");
    let doc: Value = serde_json::from_str(&ok(grader(&["grade", AMBIGUOUS, "--json"]))).unwrap();
    assert_eq!(doc["status"], "ambiguous");
    assert!(doc["solution"].is_null());
}

#[test]
fn bad_input_and_arguments() {
    let bad = SIX.replace("a3_a", "a3!a");
    let err = bad_input(grader(&["grade", &bad]));
    assert!(err.starts_with("grader grade: error:"), "{err}");
    assert!(
        err.contains("Invalid character in game description"),
        "{err}"
    );
    assert!(err.contains("at character"), "{err}");
    let err = bad_input(grader(&["grade", "no/such/puzzle.txt"]));
    assert!(err.contains("no such file"), "{err}");
    let err = bad_input(grader_stdin(&["grade", "-"], ""));
    assert!(err.contains("empty"), "{err}");

    let err = bad_input(grader(&["grade", SIX, "--disable", "guessing"]));
    assert!(err.contains("invalid value 'guessing'"), "{err}");
    assert!(err.contains("hidden-subset"), "{err}");
    // Propagation cannot be switched off.
    bad_input(grader(&["grade", SIX, "--disable", "naked-single"]));
    let err = bad_input(grader(&["grade", SIX, "--max-depth", "9"]));
    assert!(err.contains("--max-depth"), "{err}");
    bad_input(grader(&["grade", SIX, "--mode", "x"]));
}

#[test]
fn default_wording_names_cells_and_cages_as_the_pictures_do() {
    let log = ok(grader(&["grade", SIX, "--no-singles"]));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "1: (1) Hidden single: 5 in B6 (row B)");
    assert_eq!(
        lines[1],
        "2: (1.5) Claiming candidates: cage B1 must contain 1 in B1, B2: from 4 combinations to 2"
    );
    assert_eq!(lines[7], "8: (2) Hidden pair: 2, 6 in C3, E3 (column 3)");
    // The ratings are the reference wording's.
    let reference = ok(grader(&["grade", SIX, "--no-singles", "--reference-text"]));
    assert_eq!(last_lines(&log, 2), last_lines(&reference, 2));

    let doc: Value = serde_json::from_str(&ok(grader(&["grade", SIX, "--json"]))).unwrap();
    let first = &doc["steps"][0];
    assert_eq!(first["text"], "Hidden single: 5 in B6 (row B)");
    assert_eq!(
        first["placements"],
        serde_json::json!([{"cell": "B6", "index": 11, "digit": 5}])
    );
    assert_eq!(
        first["explanation"],
        "Row B needs a 5, and B6 is the only cell of it that can still hold one. So B6 is 5."
    );
    // The reference's wording carries no explanations.
    let doc: Value =
        serde_json::from_str(&ok(grader(&["grade", SIX, "--json", "--reference-text"]))).unwrap();
    assert!(doc["steps"][0].get("explanation").is_none(), "{doc}");
}

#[test]
fn explain_folds_the_naked_single_that_repeats_a_step() {
    let log = ok(grader(&["grade", SIX, "--explain"]));
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[0], "1: (1) Hidden single: 5 in B6 (row B)");
    assert_eq!(
        lines[1],
        "   Row B needs a 5, and B6 is the only cell of it that can still hold one. So B6 is 5."
    );
    // Step 2 places A6 (its own single), step 3 repeats step 1 and is folded.
    assert!(
        lines[2].starts_with("2: (0) Naked single: 4 in A6"),
        "{log}"
    );
    assert!(lines[3].starts_with("   Only 4 is left for A6"), "{log}");
    assert!(lines[4].starts_with("4: "), "{log}");
    assert!(!log.contains("Naked single: 5 in B6"), "{log}");
    assert_eq!(
        last_lines(&log, 2),
        ["Max difficulty: 2; total difficulty: 12", "Status: solved"]
    );
    // Every explained step has its explanation under it.
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with(char::is_numeric) {
            assert!(lines[i + 1].starts_with("   "), "{line}");
        }
    }
}

/// The 9×9 whose step 6 is a cage comparison that removes five combinations of
/// cage A5 (a two-cage step: each proof names cage A1 alone).
const NINE: &str = "9:a__bb__a_b__a_b__a4_4a_a_6a_11a_4a_6a_6a3_aba_3a_3a_a_3aba_baa_aa_a4,m18s2d2a16d2a8s1s3m216s3s2a13s4m24s4d2m8a11s4m126m6m18d3a9d4a9d2a15a7m64a12s2d2s4m108a8m8";

#[test]
fn json_steps_list_what_they_remove_and_prove_it() {
    let doc: Value = serde_json::from_str(&ok(grader(&["grade", NINE, "--json"]))).unwrap();
    let step = &doc["steps"][5];
    assert_eq!(step["technique"], "cage-combination");
    assert_eq!(step["name"], "Cage comparison");
    let combinations = &step["combinations"];
    assert_eq!(combinations[0]["cage"], "A5");
    assert_eq!(
        combinations[0]["cells"],
        serde_json::json!(["A5", "A6", "A7"])
    );
    assert_eq!(combinations[0]["before"], 22);
    let removed = combinations[0]["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 5);
    let proofs = step["proof"].as_array().unwrap();
    assert_eq!(proofs.len(), 5, "one proof per removed combination");
    for (proof, combination) in proofs.iter().zip(removed) {
        assert_eq!(proof["cage"], "A5");
        assert_eq!(&proof["digits"], combination);
        assert_eq!(proof["cages"][0]["cage"], "A1");
        assert_eq!(proof["cages"][0]["cells"], serde_json::json!(["A1", "A2"]));
    }
    assert_eq!(
        proofs[0]["text"],
        "If A5, A6, A7 were 1, 9, 6, cage A1 (18×) could only be (2, 9), (3, 6), (6, 3) or \
         (9, 2) for A1, A2, and each repeats the 9 or the 6 in row A."
    );
    assert_eq!(proofs[0]["chain"], serde_json::json!([{"empty": "A1"}]));
    // A region sum proves itself too: the lines, the known parts, what is left.
    let region = doc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["technique"] == "region-sum")
        .expect("a region sum");
    let proof = &region["proof"][0];
    assert!(
        proof["lines"].is_array() && proof["known"].is_array(),
        "{proof}"
    );
    assert!(proof["left"].is_number(), "{proof}");
    // --explain prints the first three proofs under the step, and counts the rest.
    let log = ok(grader(&["grade", NINE, "--explain"]));
    assert!(
        log.contains("   Why: If A5, A6, A7 were 1, 9, 6, cage A1 (18×)"),
        "{log}"
    );
    assert!(log.contains("   … and 2 more like them."), "{log}");
    // --all-proofs prints all five, and needs --explain.
    let all = ok(grader(&["grade", NINE, "--explain", "--all-proofs"]));
    assert!(!all.contains("more like them"), "{all}");
    let step6: Vec<&str> = all
        .lines()
        .skip_while(|l| !l.starts_with("6: "))
        .skip(1)
        .take_while(|l| l.starts_with("   "))
        .filter(|l| l.starts_with("   Why: "))
        .collect();
    assert_eq!(step6.len(), 5, "{all}");
    let bad = grader(&["grade", NINE, "--all-proofs"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The puzzles of `puzzles/generated-rare.json`.
fn generated_rare() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../puzzles/generated-rare.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The steps a JSON log's proofs name as having cut combinations of a cage:
/// (the step's number, the cage, the numbers named, the proof's text).
fn narrowings(doc: &Value) -> Vec<(usize, String, Vec<u64>, String)> {
    let mut found = Vec::new();
    for (i, step) in doc["steps"].as_array().unwrap().iter().enumerate() {
        for proof in step["proof"].as_array().into_iter().flatten() {
            for cage in proof["cages"].as_array().into_iter().flatten() {
                if let Some(named) = cage["narrowed_by"].as_array() {
                    let named = named.iter().map(|n| n.as_u64().unwrap()).collect();
                    let text = proof["text"].as_str().unwrap().to_string();
                    found.push((
                        i + 1,
                        cage["cage"].as_str().unwrap().to_string(),
                        named,
                        text,
                    ));
                }
            }
        }
    }
    found
}

/// With `--no-singles`, the steps a proof names are numbered as that log
/// numbers them: each is a step of that log, earlier, that cut combinations of
/// the cage, the same step the whole log names, and the text (and `--explain`)
/// says that number.
#[test]
fn no_singles_numbers_the_steps_proofs_name_as_printed() {
    let mut checked = 0;
    for puzzle in generated_rare()
        .iter()
        .filter(|p| p.starts_with("6:"))
        .take(6)
    {
        let whole: Value = serde_json::from_str(&ok(grader(&["grade", puzzle, "--json"]))).unwrap();
        let listed: Value =
            serde_json::from_str(&ok(grader(&["grade", puzzle, "--json", "--no-singles"])))
                .unwrap();
        let explained = ok(grader(&[
            "grade",
            puzzle,
            "--explain",
            "--all-proofs",
            "--no-singles",
        ]));
        let whole_steps = whole["steps"].as_array().unwrap();
        let listed_steps = listed["steps"].as_array().unwrap();
        let (a, b) = (narrowings(&whole), narrowings(&listed));
        assert_eq!(a.len(), b.len(), "{puzzle}");
        for ((_, cage, whole_named, _), (at, listed_cage, named, text)) in a.iter().zip(&b) {
            assert_eq!(cage, listed_cage);
            assert_eq!(whole_named.len(), named.len(), "{puzzle}: {text}");
            for (&w, &n) in whole_named.iter().zip(named) {
                let n = n as usize;
                assert!(n < *at, "{puzzle}: step {at} names step {n}, not earlier");
                let step = &listed_steps[n - 1];
                let same = &whole_steps[w as usize - 1];
                for field in ["text", "combinations"] {
                    assert_eq!(step[field], same[field], "{puzzle}: not the same step");
                }
                let cuts_it = step["combinations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|c| c["cage"] == cage.as_str());
                assert!(cuts_it, "{puzzle}: step {n} cut nothing of cage {cage}");
                let sentence = text
                    .split("Earlier steps narrowed")
                    .skip(1)
                    .collect::<String>();
                assert!(
                    sentence
                        .split(|c: char| !c.is_ascii_digit())
                        .any(|word| word == n.to_string()),
                    "{puzzle}: `{text}` does not say step {n}"
                );
            }
            assert!(
                explained.contains(text.as_str()),
                "{puzzle}: --explain says {text}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}
