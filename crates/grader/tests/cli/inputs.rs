//! What a batch makes of unusual input: bad elements anywhere in an array, category
//! objects on one line, UTF-16, huge or out-of-range sizes, long or binary junk
//! (never echoed whole), the `Status` column, many puzzles given to `grade`, and
//! the terminal: the progress bar and the note that standard input is read.

use super::reference::{AMBIGUOUS, IMPOSSIBLE, ROWS};
use super::{bad_input, grader, grader_stdin, ok, stderr, stdout, GRADER};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const GOOD: &str = "3:_a_aa_aa,s1m3a6m6";

fn ndjson_rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn grader_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(GRADER)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn temp_file(name: &str, contents: &[u8]) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_bad_element_gets_its_row_and_the_rest_are_graded() {
    // Well-formed JSON that cannot be decoded: a lone surrogate, a number out of
    // range. Every element gets a row, in order.
    for bad in ["\"\\udc00\"", "1e400", "{\"puzzle\": \"\\ud800\"}"] {
        let input = format!("[\"{GOOD}\",{bad},\n \"{GOOD}\"]");
        let o = grader_stdin(&["batch", "-", "--format", "ndjson"], &input);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let rows = ndjson_rows(&stdout(&o));
        assert_eq!(rows.len(), 3, "{bad}: {}", stdout(&o));
        assert_eq!(rows[0]["status"], "solved");
        assert_eq!(rows[1]["status"], "invalid");
        assert_eq!(rows[2]["status"], "solved");
        assert_eq!(rows[2]["index"], 3);
        let error = rows[1]["error"].as_str().unwrap();
        // The place counts from the start of the whole input.
        assert!(
            error.starts_with("array element 2 (line 1, column 24) is not valid JSON:"),
            "{error}"
        );
        assert!(stderr(&o).contains("puzzle 2 ("), "{}", stderr(&o));
    }
    // The same in a category object, pretty or on one line.
    let pretty = format!("{{\n \"Easy\": [\"{GOOD}\", 1e400],\n \"Hard\": [\"{GOOD}\"]\n}}\n");
    let one_line = format!("{{\"Easy\":[\"{GOOD}\",1e400],\"Hard\":[\"{GOOD}\"]}}\n");
    for input in [pretty, one_line] {
        let o = grader_stdin(&["batch", "-", "--format", "ndjson"], &input);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let statuses: Vec<String> = ndjson_rows(&stdout(&o))
            .iter()
            .map(|r| r["status"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(statuses, ["solved", "invalid", "solved"], "{input}");
        assert!(stderr(&o).contains("element 2 of category \"Easy\""));
    }
}

#[test]
fn a_malformed_array_is_refused_before_any_row() {
    let input = format!("[\"{GOOD}\",\n\"{GOOD}\",\n\"{GOOD}\" \"{GOOD}\"]");
    let o = grader_stdin(&["batch", "-"], &input);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    // Not even the header: nothing of the array was graded.
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(err.contains("not a valid JSON array"), "{err}");
    assert!(err.contains("(line 3, column"), "{err}");
    assert!(err.contains("no puzzle of it was read"), "{err}");
}

#[test]
fn one_line_category_objects_are_graded() {
    // What `jq -c` makes of the reference's test-grid file.
    let puzzles: Vec<&str> = ROWS.iter().map(|r| r.puzzle).take(5).collect();
    let one_line = format!(
        "{{\"Hard\":{},\"Easy\":{}}}",
        serde_json::to_string(&puzzles[..3]).unwrap(),
        serde_json::to_string(&puzzles[3..]).unwrap()
    );
    let rows = ndjson_rows(&ok(grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &one_line,
    )));
    let graded: Vec<&str> = rows.iter().map(|r| r["puzzle"].as_str().unwrap()).collect();
    assert_eq!(graded, puzzles);
    assert!(rows.iter().all(|r| r["status"] == "solved"));
    // Several such lines, and ordinary NDJSON between them.
    let input = format!("{one_line}\n\"{GOOD}\"\n{one_line}\n");
    let rows = ndjson_rows(&ok(grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &input,
    )));
    assert_eq!(rows.len(), 11);
    assert_eq!(rows[5]["puzzle"], GOOD);
    assert_eq!(rows[10]["index"], 11);
}

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut bytes = match (bom, big_endian) {
        (false, _) => vec![],
        (true, false) => vec![0xFF, 0xFE],
        (true, true) => vec![0xFE, 0xFF],
    };
    for unit in text.encode_utf16() {
        bytes.extend(if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    bytes
}

#[test]
fn utf16_with_a_byte_order_mark_is_read() {
    let lines = format!("{GOOD}\n{}\n", ROWS[1].puzzle);
    let expected = ok(grader_stdin(&["batch", "-"], &lines));
    for big_endian in [false, true] {
        let bytes = utf16(&lines, big_endian, true);
        assert_eq!(ok(grader_bytes(&["batch", "-"], &bytes)), expected);
        let file = temp_file(&format!("cli-utf16-{big_endian}.txt"), &bytes);
        assert_eq!(ok(grader(&["batch", &file])), expected);
        // One puzzle too.
        let one = temp_file(
            &format!("cli-utf16-one-{big_endian}.txt"),
            &utf16(&format!("{GOOD}\r\n"), big_endian, true),
        );
        assert!(ok(grader(&["solve", &one])).ends_with("unique"));
    }
    // Without a byte-order mark it is not guessed at, but named.
    let bytes = utf16(&lines, false, false);
    let err = bad_input(grader_bytes(&["batch", "-"], &bytes));
    assert!(err.contains("UTF-16 without a byte-order mark"), "{err}");
    let file = temp_file("cli-utf16-nobom.txt", &bytes);
    let err = bad_input(grader(&["grade", &file]));
    assert!(err.contains("UTF-16 without a byte-order mark"), "{err}");
}

#[test]
fn sizes_are_reported_as_written_and_with_what_is_accepted() {
    let o = grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        "99999999999999999999:_a_aa_aa,s1m3a6m6\n17:_a,a1\n2:_a,a1\n",
    );
    let rows = ndjson_rows(&stdout(&o));
    let errors: Vec<&str> = rows.iter().map(|r| r["error"].as_str().unwrap()).collect();
    assert!(
        errors[0].contains("(it is 99999999999999999999)"),
        "{}",
        errors[0]
    );
    for (error, size) in errors.iter().zip(["99999999999999999999", "17", "2"]) {
        assert!(
            error.contains("between 3 and 9 (Tatham's limit), or 10 to 16 read leniently"),
            "{error}"
        );
        assert!(error.contains(&format!("(it is {size})")), "{error}");
    }
    // A 10×10 ID is judged on what is wrong with it, not on Tatham's limit.
    let err = bad_input(grader(&["grade", "10:_,a1"]));
    assert!(err.contains("Not enough data in block structure"), "{err}");
    assert!(!err.contains("Grid size"), "{err}");
    // The text format holds 3 to 16.
    let err = bad_input(grader(&["grade", "# 17\n+ 3 A1 A2"]));
    assert!(
        err.contains("\"17\" is not a grid size from 3 to 16"),
        "{err}"
    );
    // And a 16×16 is read (leniently, with a warning) as a game ID.
    let text = "# 16\n".to_string()
        + &(0..16)
            .map(|r| {
                let row = (b'A' + r) as char;
                let cells: Vec<String> = (1..=16).map(|c| format!("{row}{c}")).collect();
                format!("+ 136 {}\n", cells.join(" "))
            })
            .collect::<String>();
    let id = ok(grader(&["convert", &text, "--to", "tatham"]));
    assert!(id.starts_with("16:"), "{id}");
    let o = grader(&["convert", &id, "--to", "text"]);
    assert!(stderr(&o).contains("grid larger than Tatham's 9x9"));
    assert_eq!(ok(o), text.trim_end());
}

#[test]
fn max_depth_help_shows_its_range_and_default() {
    let help = ok(grader(&["batch", "--help"]));
    let at = help.find("--max-depth").unwrap();
    let text = &help[at..at + 300];
    assert!(text.contains("2 to 8"), "{text}");
    assert!(text.contains("[default: 8]"), "{text}");
}

#[test]
fn the_status_column_and_the_error_column() {
    let input = serde_json::to_string(&[GOOD, AMBIGUOUS, IMPOSSIBLE, "hello"]).unwrap();
    let o = grader_stdin(&["batch", "-", "--mode", "b"], &input);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tMax Depth\tSteps\tError\tStatus"
    );
    let last_two = |line: &str| -> (String, String) {
        let cells: Vec<&str> = line.split('\t').collect();
        (
            cells[cells.len() - 2].to_string(),
            cells[cells.len() - 1].to_string(),
        )
    };
    assert_eq!(last_two(lines[1]), ("".into(), "solved".into()));
    assert_eq!(last_two(lines[2]), ("".into(), "ambiguous".into()));
    assert_eq!(last_two(lines[3]), ("".into(), "impossible".into()));
    let (error, status) = last_two(lines[4]);
    assert!(
        error.starts_with("the input is not in any known"),
        "{error}"
    );
    assert_eq!(status, "invalid");
    // Stuck: no technique left (cage combinations switched off on a puzzle that
    // needs them).
    let o = grader_stdin(
        &["batch", "-", "--disable", "cage-combination,region-sum"],
        ROWS[4].puzzle,
    );
    assert_eq!(
        last_two(stdout(&o).lines().nth(1).unwrap()),
        ("".into(), "stuck".into())
    );
    // With --times, Ms stays before Error.
    let out = ok(grader_stdin(&["batch", "-", "--times"], GOOD));
    assert_eq!(
        out.lines().next().unwrap(),
        "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tMs\tError\tStatus"
    );
}

/// Seven `+` cages, one per row: grading takes minutes.
const ROW_CAGES_7: &str = "# 7\n+ 28 A1 A2 A3 A4 A5 A6 A7\n+ 28 B1 B2 B3 B4 B5 B6 B7\n\
    + 28 C1 C2 C3 C4 C5 C6 C7\n+ 28 D1 D2 D3 D4 D5 D6 D7\n+ 28 E1 E2 E3 E4 E5 E6 E7\n\
    + 28 F1 F2 F3 F4 F5 F6 F7\n+ 28 G1 G2 G3 G4 G5 G6 G7\n";

#[test]
fn a_timeout_says_so_in_the_error_column() {
    let input = serde_json::to_string(&[ROW_CAGES_7, GOOD]).unwrap();
    let out = ok(grader_stdin(&["batch", "-", "--timeout", "0.2"], &input));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].ends_with("\t--timeout passed\ttimeout"), "{out}");
    assert!(lines[1].contains("\t0\t"), "{out}");
    assert!(lines[2].ends_with("\t\tsolved"), "{out}");
    let rows = ndjson_rows(&ok(grader_stdin(
        &["batch", "-", "--timeout", "0.2", "--format", "ndjson"],
        &input,
    )));
    assert_eq!(rows[0]["error"], "--timeout passed");
    assert!(rows[1].get("error").is_none());
}

#[test]
fn junk_is_cut_and_escaped_wherever_it_is_echoed() {
    let long = "x".repeat(5_000_000);
    let control = "4:\u{1b}[31mred\u{0}\u{7}";
    // A rule that quotes a word of the input (here the size) quotes it cut.
    let size = format!("# {}", "7".repeat(1_000_000));
    let input = format!("{long}\n{control}\n{GOOD}\n{size}\n");
    let o = grader_stdin(&["batch", "-"], &input);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let err = stderr(&o);
    assert!(out.len() < 4_000, "{} bytes of rows", out.len());
    assert!(err.len() < 4_000, "{} bytes on stderr", err.len());
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 5);
    assert!(
        rows[4].contains("is not a grid size from 3 to 16"),
        "{}",
        rows[4]
    );
    let grade_err = bad_input(grader_stdin(&["grade", "-"], &size));
    assert!(grade_err.len() < 1_000, "{grade_err}");
    let cells: Vec<&str> = rows[1].split('\t').collect();
    assert_eq!(cells[0], "1");
    assert_eq!(cells[1], format!("{}…", "x".repeat(200)));
    let cells: Vec<&str> = rows[2].split('\t').collect();
    assert_eq!(cells[1], "4:\\u{1b}[31mred\\u{0}\\u{7}");
    assert!(rows[3].starts_with(&format!("3\t{GOOD}\t1")));
    assert!(!out.contains('\u{1b}') && !err.contains('\u{1b}'));
    assert!(err.contains("puzzle 1 (\"xxx"), "{err}");
    assert!(
        err.contains("puzzle 2 (\"4:\\u{1b}[31mred\\0\\u{7}\")"),
        "{err}"
    );
    // NDJSON: cut too (JSON escapes the control characters).
    let rows = ndjson_rows(&stdout(&grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &input,
    )));
    assert_eq!(rows[0]["puzzle"].as_str().unwrap().chars().count(), 201);
    assert_eq!(rows[1]["puzzle"], control);
    assert_eq!(rows[2]["puzzle"], GOOD);
    // A valid puzzle is echoed whole, however long: a 16×16 in the text format.
    let text = "# 16\n".to_string()
        + &(0..16)
            .map(|r| {
                let row = (b'A' + r) as char;
                let cells: Vec<String> = (1..=16).map(|c| format!("{row}{c}")).collect();
                format!("+ 136 {}\n", cells.join(" "))
            })
            .collect::<String>();
    // (Its cages' tables are too large for the memory limit: a `limit` row, with
    // the puzzle whole.)
    let rows = ndjson_rows(&stdout(&grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &serde_json::to_string(&[&text]).unwrap(),
    )));
    assert_eq!(rows[0]["status"], "limit");
    assert_eq!(rows[0]["puzzle"], text.as_str());
}

#[test]
fn grade_points_a_file_of_many_puzzles_to_batch() {
    let puzzles: Vec<&str> = ROWS.iter().map(|r| r.puzzle).take(3).collect();
    let array = temp_file(
        "cli-many.json",
        serde_json::to_string(&puzzles).unwrap().as_bytes(),
    );
    let lines = temp_file("cli-many.txt", puzzles.join("\n").as_bytes());
    let ndjson = temp_file(
        "cli-many.ndjson",
        puzzles
            .iter()
            .map(|p| format!("{{\"puzzle\": \"{p}\"}}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    for (file, shape) in [
        (&array, "a JSON array"),
        (&lines, "one puzzle per line"),
        (&ndjson, "NDJSON"),
    ] {
        let err = bad_input(grader(&["grade", file]));
        assert!(err.contains(&format!("holds 3 puzzles ({shape})")), "{err}");
        assert!(err.contains(&format!("use `grader batch {file}`")), "{err}");
        let err = bad_input(grader(&["solve", file]));
        assert!(
            err.contains(&format!("use `grader solve --many {file}`")),
            "{err}"
        );
        let err = bad_input(grader(&["convert", file, "--to", "text"]));
        assert!(err.contains("holds 3 puzzles"), "{err}");
    }
    let err = bad_input(grader_stdin(&["grade", "-"], &puzzles.join("\n")));
    assert!(err.contains("use `grader batch -`"), "{err}");
    // A broken puzzle in a many-line format is not taken for a batch.
    let err = bad_input(grader(&["grade", "# 3\n+ 3 A1 B1\n+ 5 A2 Z9\n"]));
    assert!(!err.contains("holds"), "{err}");
    assert!(err.contains("Z9"), "{err}");
}

/// Runs the grader on a pseudo-terminal (util-linux `script`), so that its
/// standard input and stderr are terminals; `None` when `script` is missing.
fn on_a_terminal(args: &str) -> Option<std::process::Child> {
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        eprintln!("skipped: no `script` command to make a terminal");
        return None;
    }
    Some(
        Command::new("script")
            .args(["-qec", &format!("{GRADER} {args}"), "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    )
}

#[test]
fn reading_a_terminal_is_announced() {
    for (args, what) in [
        ("batch", "grader batch: reading puzzles"),
        ("solve --many", "grader solve: reading puzzles"),
        ("grade -", "grader grade: reading the puzzle"),
    ] {
        let Some(mut child) = on_a_terminal(args) else {
            return;
        };
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(20));
        let _ = child.kill();
        let _ = child.wait();
        let line = line.expect("nothing said while waiting on the terminal");
        assert!(line.starts_with(what), "{args}: {line}");
        assert!(
            line.contains("from standard input (end with Ctrl-D"),
            "{line}"
        );
    }
}

#[test]
fn progress_on_a_terminal_for_every_input_shape() {
    let puzzles: Vec<&str> = ROWS.iter().map(|r| r.puzzle).collect();
    let array = temp_file(
        "cli-progress.json",
        serde_json::to_string(&puzzles).unwrap().as_bytes(),
    );
    let lines = temp_file("cli-progress.txt", puzzles.join("\n").as_bytes());
    let count = format!("/{} puzzles", puzzles.len());
    for (file, bar) in [(&array, count.as_str()), (&lines, "%")] {
        for command in ["batch", "solve --many"] {
            let Some(child) = on_a_terminal(&format!("{command} {file} > /dev/null")) else {
                return;
            };
            let o = child.wait_with_output().unwrap();
            let shown = String::from_utf8_lossy(&o.stdout).replace('\r', "\n");
            assert!(shown.contains(bar), "{command} {file}: {shown}");
            assert!(shown.contains("/s"), "{shown}");
            let last = shown.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
            assert!(
                last.contains(&format!(
                    "{}: {} row(s), no errors, in ",
                    command.split(' ').next().unwrap(),
                    puzzles.len()
                )),
                "{command} {file}: {last:?}"
            );
        }
    }
    // --quiet: nothing.
    let Some(child) = on_a_terminal(&format!("batch {array} --quiet > /dev/null")) else {
        return;
    };
    let o = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).trim().is_empty());
}
