//! `grader batch`: TSV and NDJSON rows in every mode against the reference, each
//! input shape, bad rows, exit codes, order under `--jobs 2`, the tally, and
//! streaming (rows before the input ends; 100 000 lines in bounded memory).

use super::reference::{Row, AMBIGUOUS, IMPOSSIBLE, ROWS};
use super::{grader, grader_stdin, ok, stderr, stdout, GRADER};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn json_array(puzzles: &[&str]) -> String {
    serde_json::to_string(puzzles).unwrap()
}

fn reference_array() -> String {
    json_array(&ROWS.iter().map(|r| r.puzzle).collect::<Vec<_>>())
}

fn ndjson_rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn rating(v: &Value) -> String {
    // The reference prints ratings as numbers with at most one decimal.
    let x = v.as_f64().unwrap();
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// The TSV fields of a reference row in a mode.
fn tsv_expected(index: usize, row: &Row, mode: &str, cc_steps: &str) -> String {
    let normal = format!("{}\t{}", row.max, row.total);
    let cc = format!("{}\t{cc_steps}", row.depth);
    let columns = match mode {
        "n" => normal,
        "c" => cc,
        _ => format!("{normal}\t{cc}"),
    };
    format!("{index}\t{}\t1\t{columns}\t\tsolved", row.puzzle)
}

#[test]
fn tsv_rows_agree_with_the_reference_in_every_mode() {
    let input = reference_array();
    for (mode, header) in [
        (
            "n",
            "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tError\tStatus",
        ),
        (
            "c",
            "Puzzle #\tPuzzle String\tSuccess\tMax Depth\tSteps\tError\tStatus",
        ),
        (
            "b",
            "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tMax Depth\tSteps\tError\tStatus",
        ),
    ] {
        let out = ok(grader_stdin(&["batch", "-", "--mode", mode], &input));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], header);
        assert_eq!(lines.len(), ROWS.len() + 1, "{out}");
        for (i, (row, line)) in ROWS.iter().zip(&lines[1..]).enumerate() {
            // Our step count where it differs from the reference's (search order).
            let ours = line.split('\t').nth_back(2).unwrap();
            let cc_steps = row.cc_steps.map_or(ours.to_string(), |s| s.to_string());
            assert_eq!(
                *line,
                tsv_expected(i + 1, row, mode, &cc_steps),
                "mode {mode}"
            );
        }
    }
}

#[test]
fn ndjson_rows_have_the_fields_of_their_mode() {
    let input = reference_array();
    let keys = |v: &Value| -> BTreeSet<String> { v.as_object().unwrap().keys().cloned().collect() };
    let set = |ks: &[&str]| -> BTreeSet<String> { ks.iter().map(|k| k.to_string()).collect() };
    let base = ["index", "puzzle", "status", "success"];
    for (mode, extra) in [
        ("n", &["max", "total", "steps"][..]),
        ("c", &["depth", "cc_steps"]),
        ("b", &["max", "total", "steps", "depth", "cc_steps"]),
    ] {
        let out = ok(grader_stdin(
            &["batch", "-", "--mode", mode, "--format", "ndjson"],
            &input,
        ));
        let rows = ndjson_rows(&out);
        assert_eq!(rows.len(), ROWS.len());
        for (i, (row, got)) in ROWS.iter().zip(&rows).enumerate() {
            let want: Vec<&str> = base.iter().chain(extra).copied().collect();
            assert_eq!(keys(got), set(&want), "mode {mode}: {got}");
            assert_eq!(got["index"], i + 1);
            assert_eq!(got["puzzle"], row.puzzle);
            assert_eq!(got["status"], "solved");
            assert_eq!(got["success"], true);
            if mode != "c" {
                assert_eq!(rating(&got["max"]), row.max, "{got}");
                assert_eq!(rating(&got["total"]), row.total, "{got}");
            }
            if mode != "n" {
                assert_eq!(got["depth"], row.depth, "{got}");
                if let Some(s) = row.cc_steps {
                    assert_eq!(got["cc_steps"], s, "{got}");
                }
            }
        }
    }
}

#[test]
fn every_input_shape_gives_the_same_rows() {
    let puzzles: Vec<&str> = ROWS.iter().map(|r| r.puzzle).take(6).collect();
    let expected = ok(grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &json_array(&puzzles),
    ));
    let strings: String = puzzles.iter().map(|p| format!("\"{p}\"\n")).collect();
    let objects: String = puzzles
        .iter()
        .map(|p| format!("{{\"puzzle\": \"{p}\", \"source\": \"test\"}}\n\n"))
        .collect();
    let lines: String = puzzles.iter().map(|p| format!("{p}\r\n\n")).collect();
    let pretty = serde_json::to_string_pretty(&puzzles).unwrap();
    // The reference's test-grid file: puzzles by category, in document order.
    let categories = format!(
        "{{\n \"Hard\": {},\n \"Easy\": {}\n}}\n",
        json_array(&puzzles[..4]),
        json_array(&puzzles[4..])
    );
    for input in [strings, objects, lines, pretty, categories] {
        assert_eq!(
            ok(grader_stdin(&["batch", "-", "--format", "ndjson"], &input)),
            expected,
            "{input}"
        );
    }
    // A file, and standard input as the default.
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-batch-input.json");
    std::fs::write(&path, json_array(&puzzles)).unwrap();
    assert_eq!(
        ok(grader(&[
            "batch",
            path.to_str().unwrap(),
            "--format",
            "ndjson"
        ])),
        expected
    );
    assert_eq!(
        ok(grader_stdin(
            &["batch", "--format", "ndjson"],
            &json_array(&puzzles)
        )),
        expected
    );
    // Nothing in, the header out.
    assert_eq!(
        ok(grader_stdin(&["batch"], " \n")),
        "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tError\tStatus"
    );
}

#[test]
fn other_formats_and_statuses_in_a_batch() {
    let text = ok(grader(&["convert", ROWS[3].puzzle, "--to", "text"]));
    let input = json_array(&[&text, AMBIGUOUS, IMPOSSIBLE]);
    let out = ok(grader_stdin(&["batch", "-", "--mode", "b"], &input));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    // Line breaks are escaped in the TSV.
    assert_eq!(
        lines[1],
        format!(
            "1\t{}\t1\t3.1\t4.1\t2\t4\t\tsolved",
            text.replace('\n', "\\n")
        )
    );
    assert!(lines[2].starts_with("2\t# 3\\n+ 6 A1 A2 A3\\n"), "{out}");
    // Ambiguous and impossible are findings: the status says it, Error is empty.
    assert!(lines[2].ends_with("\t0\t0\t1\t0\t\tambiguous"), "{out}");
    assert!(lines[3].ends_with("\t\timpossible"), "{out}");
    let rows = ndjson_rows(&ok(grader_stdin(
        &["batch", "-", "--format", "ndjson"],
        &input,
    )));
    assert_eq!(rows[0]["puzzle"], text.as_str());
    assert_eq!(rows[0]["max"], 3.1);
    assert_eq!(rows[1]["status"], "ambiguous");
    assert_eq!(rows[1]["success"], false);
    assert_eq!(rows[2]["status"], "impossible");
}

#[test]
fn bad_puzzles_get_error_rows_and_exit_2() {
    let good = ROWS[1].puzzle;
    let bad_char = ROWS[3].puzzle.replace("a_5a", "a_5!");
    let input = format!(
        "{{\"puzzle\": \"{good}\"}}\n\"hello\"\n{{oops\n42\n\"{bad_char}\"\n{{\"id\": 7}}\n\"{good}\"\n"
    );
    let o = grader_stdin(&["batch", "-", "--format", "ndjson"], &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows = ndjson_rows(&stdout(&o));
    assert_eq!(rows.len(), 7);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        ["solved", "invalid", "invalid", "invalid", "invalid", "invalid", "solved"]
    );
    assert_eq!(rows[6]["index"], 7);
    assert_eq!(rows[6]["max"], 1.0);
    for r in &rows[1..6] {
        assert_eq!(r["success"], false);
        assert!(r.get("max").is_none(), "{r}");
    }
    let errors: Vec<&str> = rows[1..6]
        .iter()
        .map(|r| r["error"].as_str().unwrap())
        .collect();
    assert!(
        errors[0].contains("not in any known puzzle format"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("line 3 is not valid JSON"),
        "{}",
        errors[1]
    );
    assert!(errors[2].contains("not a puzzle string"), "{}", errors[2]);
    assert!(
        errors[3].contains("Invalid character in game description"),
        "{}",
        errors[3]
    );
    assert!(errors[3].contains("at character"), "{}", errors[3]);
    assert!(
        errors[4].contains("without a \"puzzle\" string"),
        "{}",
        errors[4]
    );

    // One stderr line per bad puzzle, naming its index and string, and a last line.
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 6, "{err}");
    assert!(
        lines[0].starts_with("grader batch: puzzle 2 (\"hello\"): the input is not"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("grader batch: puzzle 3 (\"{oops\"): line 3"),
        "{err}"
    );
    assert!(
        lines[3].contains(&format!("puzzle 5 (\"{bad_char}\")")),
        "{err}"
    );
    assert!(lines[5].contains("5 puzzle(s) could not be read"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // The TSV: success 0, empty numbers, the reason in the Error column.
    let o = grader_stdin(&["batch", "-", "--mode", "b"], &input);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let tsv: Vec<&str> = out.lines().collect();
    assert_eq!(tsv.len(), 8);
    assert!(
        tsv[2].starts_with("2\thello\t0\t\t\t\t\tthe input is not"),
        "{out}"
    );
    assert!(
        tsv[7].starts_with(&format!("7\t{good}\t1\t1\t3\t2\t7\t")),
        "{out}"
    );
}

#[test]
fn unreadable_inputs_exit_2() {
    let o = grader_stdin(&["batch", "-"], "[\"4:abc\", 3");
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("not a valid JSON array"),
        "{}",
        stderr(&o)
    );

    let o = grader(&["batch", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such file"), "{}", stderr(&o));

    for args in [
        &["batch", "-", "--mode", "x"][..],
        &["batch", "-", "--jobs", "0"],
        &["batch", "-", "--format", "csv"],
        &["batch", "-", "--disable", "nothing"],
    ] {
        // Refused before any input is read, naming the flag.
        let o = grader(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(args[2]), "{}", stderr(&o));
    }
}

#[test]
fn rows_keep_input_order_under_two_jobs() {
    // More than one chunk (512 puzzles at --jobs 2), sizes 4 to 9 mixed so that
    // workers finish out of order.
    let puzzles: Vec<&str> = (0..1300)
        .map(|i| ROWS[(i * 7) % ROWS.len()].puzzle)
        .collect();
    let input = json_array(&puzzles);
    let two = ok(grader_stdin(
        &[
            "batch", "-", "--mode", "b", "--jobs", "2", "--format", "ndjson",
        ],
        &input,
    ));
    let one = ok(grader_stdin(
        &[
            "batch", "-", "--mode", "b", "--jobs", "1", "--format", "ndjson",
        ],
        &input,
    ));
    assert_eq!(two, one);
    let rows = ndjson_rows(&two);
    assert_eq!(rows.len(), puzzles.len());
    for (i, (row, puzzle)) in rows.iter().zip(&puzzles).enumerate() {
        assert_eq!(row["index"], i + 1);
        assert_eq!(row["puzzle"], *puzzle);
        let reference = &ROWS[(i * 7) % ROWS.len()];
        assert_eq!(rating(&row["max"]), reference.max);
        assert_eq!(row["depth"], reference.depth);
    }
}

#[test]
fn summary_tally_and_no_progress_off_a_terminal() {
    let mut puzzles: Vec<&str> = ROWS.iter().map(|r| r.puzzle).collect();
    puzzles.push(ROWS[1].puzzle);
    puzzles.push("hello");
    puzzles.push(AMBIGUOUS);
    let o = grader_stdin(
        &["batch", "-", "--mode", "b", "--summary"],
        &json_array(&puzzles),
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let tally: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("grader batch:"))
        .collect();
    assert_eq!(
        tally,
        [
            "Max\tCount",
            "0\t1",
            "1\t3",
            "1.5\t1",
            "2\t1",
            "2.1\t1",
            "3.1\t1",
            "3.2\t1",
            "4\t1",
            "4.4\t1",
            "ambiguous\t1",
            "",
            "Max Depth\tCount",
            "1\t1",
            "2\t5",
            "3\t4",
            "4\t1",
            "ambiguous\t1",
            "invalid\t1",
            "Puzzles\t13",
        ],
        "{err}"
    );
    // stderr is a pipe here: no progress bar, nothing but rows and the tally.
    let o = grader_stdin(&["batch", "-"], &reference_array());
    assert!(o.status.success());
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn rows_stream_before_the_input_ends() {
    // One worker: chunks of 2 048. Feed more than two chunks and keep standard
    // input open: the first rows must come out anyway. (The rows are read as they
    // come, on their own thread, and the lines written on another: a chunk's rows
    // fill the output pipe long before the last line is written.)
    const LINES: usize = 4_500;
    let mut child = Command::new(GRADER)
        .args(["batch", "-", "--jobs", "1", "--format", "ndjson", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut n = 0;
        for l in BufReader::new(stdout).lines() {
            l.unwrap();
            n += 1;
            let _ = tx.send(n);
        }
        n
    });
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = format!("\"{}\"\n", ROWS[1].puzzle);
        stdin.write_all(line.repeat(LINES).as_bytes()).unwrap();
        stdin.flush().unwrap();
        stdin
    });
    let first = rx.recv_timeout(Duration::from_secs(60));
    assert_eq!(first, Ok(1), "no row before the input ended");
    drop(writer.join().unwrap());
    assert_eq!(reader.join().unwrap(), LINES);
    assert!(child.wait().unwrap().success());
}

/// The peak resident set of a running process (VmHWM), in kB.
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn hundred_thousand_lines_stream_in_bounded_memory() {
    // The test suite runs in release mode; an unoptimised build grades some twenty
    // times slower, so it streams a fifth of the lines.
    const LINES: usize = if cfg!(debug_assertions) {
        20_000
    } else {
        100_000
    };
    const LIMIT_MB: u64 = 100;
    let small: Vec<&str> = ROWS[..4].iter().map(|r| r.puzzle).collect();
    let started = Instant::now();
    let mut child = Command::new(GRADER)
        .args(["batch", "-", "--jobs", "2", "--format", "ndjson", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let input = small.clone();
    let writer = std::thread::spawn(move || {
        let mut buf = String::new();
        for i in 0..LINES {
            buf.push_str(&format!("{{\"puzzle\": \"{}\"}}\n", input[i % input.len()]));
            if buf.len() > 1 << 16 {
                stdin.write_all(buf.as_bytes()).unwrap();
                buf.clear();
            }
        }
        stdin.write_all(buf.as_bytes()).unwrap();
    });
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut rows, mut last) = (0usize, String::new());
        for line in BufReader::new(stdout).lines() {
            last = line.unwrap();
            rows += 1;
        }
        (rows, last)
    });
    let mut stderr_pipe = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        stderr_pipe.read_to_string(&mut s).unwrap();
        s
    });
    // VmHWM only grows: poll it until the process exits.
    let mut peak = 0;
    let status = loop {
        if let Some(kb) = peak_rss_kb(pid) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    writer.join().unwrap();
    let (rows, last) = reader.join().unwrap();
    let err = err_reader.join().unwrap();
    assert!(status.success(), "{err}");
    assert_eq!(rows, LINES);
    let last: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(last["index"], LINES);
    assert_eq!(last["puzzle"], small[(LINES - 1) % small.len()]);
    eprintln!(
        "{LINES} lines: peak RSS {:.1} MB, {:.1} s",
        peak as f64 / 1024.0,
        started.elapsed().as_secs_f64()
    );
    assert!(peak > 0, "could not read /proc/{pid}/status");
    assert!(
        peak < LIMIT_MB * 1024,
        "peak RSS {peak} kB is over {LIMIT_MB} MB"
    );
}

/// Seven `+` cages, one per row: every Latin square solves it, and the cage
/// combinations of 5 040 permutations each keep the grader busy for minutes.
const ROW_CAGES_7: &str = "# 7\n+ 28 A1 A2 A3 A4 A5 A6 A7\n+ 28 B1 B2 B3 B4 B5 B6 B7\n\
    + 28 C1 C2 C3 C4 C5 C6 C7\n+ 28 D1 D2 D3 D4 D5 D6 D7\n+ 28 E1 E2 E3 E4 E5 E6 E7\n\
    + 28 F1 F2 F3 F4 F5 F6 F7\n+ 28 G1 G2 G3 G4 G5 G6 G7\n";

#[test]
fn timeout_ends_a_slow_puzzle_and_the_batch_goes_on() {
    let easy = ROWS[0].puzzle;
    let input = json_array(&[ROW_CAGES_7, easy]);
    let started = Instant::now();
    let out = grader_stdin(
        &[
            "batch",
            "-",
            "--mode",
            "b",
            "--format",
            "ndjson",
            "--timeout",
            "0.3",
        ],
        &input,
    );
    // Generous: the limit is per puzzle, and setting up the 7×7 takes a moment.
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = ndjson_rows(&stdout(&out));
    assert_eq!(rows[0]["status"], "timeout");
    assert_eq!(rows[0]["success"], false);
    assert_eq!(
        rows[1]["status"], "solved",
        "the next puzzle is graded as usual"
    );
    assert!(stderr(&out).contains("1 puzzle(s) reached --timeout"));

    // The one-puzzle report says so too.
    let out = grader_stdin(&["grade", "-", "--timeout", "0.3", "--json"], ROW_CAGES_7);
    let doc: Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(doc["status"], "timeout");

    // Not a positive number of seconds: refused before anything runs.
    for bad in ["0", "-1", "soon"] {
        let out = grader(&["batch", "-", &format!("--timeout={bad}")]);
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}");
        assert!(stderr(&out).contains("--timeout"), "{}", stderr(&out));
    }
}

#[test]
fn times_add_a_column_and_change_nothing_else() {
    let input = json_array(&ROWS.iter().take(20).map(|r| r.puzzle).collect::<Vec<_>>());
    let plain = ok(grader_stdin(&["batch", "-", "--mode", "b"], &input));
    let timed = ok(grader_stdin(
        &["batch", "-", "--mode", "b", "--times"],
        &input,
    ));
    let mut plain_lines = plain.lines();
    let mut timed_lines = timed.lines();
    assert_eq!(
        timed_lines.next().unwrap(),
        "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tMax Depth\tSteps\tMs\tError\tStatus"
    );
    plain_lines.next();
    for (p, t) in plain_lines.zip(timed_lines) {
        let mut cells: Vec<&str> = t.split('\t').collect();
        let ms: f64 = cells.remove(7).parse().expect("Ms is a number");
        assert!(ms >= 0.0);
        assert_eq!(cells.join("\t"), p);
    }
    let rows = ndjson_rows(&ok(grader_stdin(
        &["batch", "-", "--format", "ndjson", "--times"],
        &input,
    )));
    assert_eq!(rows.len(), ROWS.len().min(20));
    assert!(rows
        .iter()
        .all(|r| r["ms"].as_f64().is_some_and(|ms| ms >= 0.0)));
}

/// A 9×9 made mostly of six-cell `+` cages: the exhaustive solution count that
/// comes before any grading (two solutions would end it) takes well over 20
/// seconds on its own.
const SIX_CELL_CAGES_9: &str = "# 9\n+ 27 F9 F8 G9 G8 E8 E9\n+ 31 H5 I5 G5 I6 H4 F5\n\
    + 32 F3 F2 E3 G2 G3 E2\n+ 21 A3 A2 B2 B3 A1 B1\n+ 28 E4 E5 F4 G4 D4 D5\n\
    + 26 D2 C2 C3 C1 D3 D1\n+ 38 B7 A7 C7 B8 B6 A8\n+ 28 E7 E6 D7 F6 G6 F7\n\
    + 36 G1 H1 I1 H2 F1 H3\n+ 34 A9 B9 C9 D9 C8 D8\n+ 31 D6 C6 C5 B5 A5 B4\n+ 5 A6\n\
    + 31 G7 H7 I7 I8 I9 H9\n+ 3 A4\n+ 9 E1\n+ 13 I2 I3 I4\n+ 3 H6\n+ 1 H8\n+ 8 C4\n";

#[test]
fn timeout_also_bounds_the_solution_count() {
    let easy = ROWS[0].puzzle;
    let input = json_array(&[SIX_CELL_CAGES_9, easy]);
    let started = Instant::now();
    let out = grader_stdin(
        &[
            "batch",
            "-",
            "--mode",
            "b",
            "--format",
            "ndjson",
            "--timeout",
            "0.3",
        ],
        &input,
    );
    // Generous: without the deadline on the count, this takes minutes.
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = ndjson_rows(&stdout(&out));
    assert_eq!(rows[0]["status"], "timeout");
    assert_eq!(rows[0]["success"], false);
    // A batch counts solutions only when a run does not solve the puzzle, so the
    // runs here spend the time on the ladder and report the ratings reached.
    assert!(rows[0]["max"].is_number());
    assert_eq!(
        rows[1]["status"], "solved",
        "the next puzzle is graded as usual"
    );
    assert!(stderr(&out).contains("1 puzzle(s) reached --timeout"));

    // grade and grade --hint stop there too, claiming nothing about solutions.
    let started = Instant::now();
    let out = grader_stdin(
        &["grade", "-", "--timeout", "0.3", "--json"],
        SIX_CELL_CAGES_9,
    );
    let doc: Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(doc["status"], "timeout");
    assert_eq!(doc["solution"], Value::Null);
    let out = grader_stdin(
        &["grade", "-", "--timeout", "0.3", "--hint", "--json"],
        SIX_CELL_CAGES_9,
    );
    let doc: Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(doc["status"], "timeout");
    assert_eq!(doc["step"], Value::Null);
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// A puzzle graded with its operations hidden says so: `"hide_ops": true` in an
/// NDJSON row (by `--hide-ops` or by its entry), a `Hide Ops` column after
/// `Status` in a `--hide-ops` TSV run (and none otherwise, so today's columns
/// stay as they are), and in the documents of `grade --json` and `solve --json`.
#[test]
fn rows_say_when_operations_were_hidden() {
    let three = "3:_a_aa_aa,s1m3a6m6";
    let entries = format!("\"{three}\"\n{{\"puzzle\": \"{three}\", \"hide_ops\": true}}\n");
    let flagged = |rows: &str| -> Vec<Option<bool>> {
        ndjson_rows(rows)
            .iter()
            .map(|r| r.get("hide_ops").map(|v| v.as_bool().unwrap()))
            .collect()
    };
    for command in [&["batch"][..], &["solve", "--many"]] {
        let run = |extra: &[&str]| {
            let mut args = command.to_vec();
            args.extend(["-", "--format"]);
            args.extend(extra);
            ok(grader_stdin(&args, &entries))
        };
        assert_eq!(
            flagged(&run(&["ndjson"])),
            [None, Some(true)],
            "{command:?}"
        );
        assert_eq!(
            flagged(&run(&["ndjson", "--hide-ops"])),
            [Some(true), Some(true)],
            "{command:?}"
        );
        // The field comes right after the puzzle.
        let row = run(&["ndjson", "--hide-ops"]);
        assert!(
            row.starts_with(&format!(
                "{{\"index\":1,\"puzzle\":\"{three}\",\"hide_ops\":true,"
            )),
            "{row}"
        );
        let plain = run(&["tsv"]);
        assert!(
            plain.lines().next().unwrap().ends_with("\tStatus"),
            "{plain}"
        );
        assert!(plain.lines().all(|l| !l.contains("Hide")), "{plain}");
        let hidden = run(&["tsv", "--hide-ops"]);
        let lines: Vec<&str> = hidden.lines().collect();
        assert!(lines[0].ends_with("\tStatus\tHide Ops"), "{hidden}");
        let width = lines[0].split('\t').count();
        for line in &lines[1..] {
            assert_eq!(line.split('\t').count(), width, "{line}");
            assert!(line.ends_with("\t1"), "{line}");
        }
        // The columns before it are the plain run's.
        assert_eq!(lines[0].strip_suffix("\tHide Ops"), plain.lines().next());
    }
    for command in [
        &["grade", "--json"][..],
        &["grade", "--json", "--hint"],
        &["solve", "--json"],
    ] {
        let doc = |extra: &[&str]| -> Value {
            let mut args = command.to_vec();
            args.push(three);
            args.extend(extra);
            serde_json::from_str(&ok(grader(&args))).unwrap()
        };
        assert_eq!(doc(&["--hide-ops"])["hide_ops"], true, "{command:?}");
        assert!(doc(&[]).get("hide_ops").is_none(), "{command:?}");
    }
}
