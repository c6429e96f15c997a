//! Every number option of every subcommand, given a value it cannot use (zero, a
//! negative, NaN, infinity, 1e300, a thread count no machine needs), is refused
//! before any work with exit code 2 and a message naming the flag: never a panic,
//! never an abort, never silently ignored. And a closed output pipe ends a run
//! quietly.

use super::{bad_input, grader, README};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const FOUR: &str = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";

/// Each bad option set, and the flag its message must name.
fn refused() -> Vec<(Vec<&'static str>, &'static str)> {
    let mut cases: Vec<(Vec<&str>, &str)> = Vec::new();
    let generate = |extra: &[&'static str]| {
        let mut v = vec!["generate", "--size", "4", "--min", "0", "--max-tries", "3"];
        v.extend_from_slice(extra);
        v
    };
    for t in ["1e300", "nan", "0", "-1", "inf", "-inf", "1e10"] {
        cases.push((generate(&["--timeout", t]), "--timeout"));
        cases.push((
            vec!["batch", "puzzles/sample.json", "--timeout", t],
            "--timeout",
        ));
        cases.push((vec!["grade", FOUR, "--timeout", t], "--timeout"));
        cases.push((vec!["solve", FOUR, "--timeout", t], "--timeout"));
        cases.push((vec!["hint", FOUR, "--timeout", t], "--timeout"));
        cases.push((vec!["render", FOUR, "--timeout", t], "--timeout"));
        cases.push((
            vec![
                "print",
                "puzzles/sample.json",
                "-o",
                "x.pdf",
                "--timeout",
                t,
            ],
            "--timeout",
        ));
        cases.push((vec!["serve", "--timeout", t], "--timeout"));
    }
    for m in ["0", "nan", "-3", "inf", "1e300"] {
        cases.push((generate(&["--max-mean-cage", m]), "--max-mean-cage"));
    }
    for r in ["nan", "-1", "1e9", "inf"] {
        cases.push((generate(&["--min", r]), "--min"));
        cases.push((generate(&["--max", r]), "--max"));
    }
    for (flag, value) in [
        ("--count", "-1"),
        ("--count", "0"),
        ("--max-tries", "0"),
        ("--steps", "0"),
        ("--steps", "-5"),
        ("--max-givens", "-1"),
        ("--max-givens", "100000"),
        ("--max-depth", "9"),
        ("--max-depth", "1"),
        ("--jobs", "0"),
        ("--jobs", "5000"),
        ("--jobs", "-1"),
        ("--ops", "%"),
        ("--require", "nope"),
    ] {
        cases.push((generate(&[flag, value]), flag));
    }
    cases.push((generate(&["--size", "-1"]), "size"));
    cases.push((generate(&["--size", "100000"]), "size"));
    cases.push((generate(&["--cage-sizes", "x-y"]), "--cage-sizes"));
    cases.push((generate(&["--cage-sizes", "9-2"]), "cage sizes"));
    for (flag, value) in [
        ("--jobs", "0"),
        ("--jobs", "1000"),
        ("--jobs", "-1"),
        ("--max-depth", "1"),
        ("--max-depth", "9"),
        ("--max-depth", "-300"),
        ("--max-memory", "0"),
        ("--max-memory", "12"),
        ("--max-memory", "99999999999G"),
        ("--max-memory", "lots"),
        ("--max-work", "0"),
    ] {
        cases.push((vec!["batch", "puzzles/sample.json", flag, value], flag));
    }
    cases.push((vec!["grade", FOUR, "--max-depth", "12"], "--max-depth"));
    cases.push((
        vec!["check", FOUR, "--state", "-", "--max-work", "0"],
        "--max-work",
    ));
    cases.push((
        vec!["solve", "--many", "puzzles/sample.json", "--jobs", "1000"],
        "--jobs",
    ));
    for s in ["0", "nan", "-1", "100", "inf"] {
        cases.push((vec!["render", FOUR, "--scale", s], "--scale"));
    }
    cases.push((vec!["render", FOUR, "--step", "0"], "--step"));
    cases.push((vec!["serve", "--threads", "0"], "--threads"));
    cases.push((vec!["serve", "--port", "70000"], "--port"));
    cases.push((
        vec![
            "print",
            "puzzles/sample.json",
            "-o",
            "x.pdf",
            "--per-page",
            "5",
        ],
        "--per-page",
    ));
    cases
}

#[test]
fn every_number_option_refuses_what_it_cannot_use() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut failures = Vec::new();
    for (args, flag) in refused() {
        let out = Command::new(super::GRADER)
            .args(&args)
            .current_dir(root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let fine = out.status.code() == Some(2)
            && out.stdout.is_empty()
            && err.contains(flag)
            && !err.contains("panicked")
            && !err.contains("internal error");
        if !fine {
            failures.push(format!(
                "{args:?}: exit {:?}, stderr: {err}",
                out.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_messages_say_what_is_allowed() {
    let err = bad_input(grader(&[
        "generate",
        "--size",
        "4",
        "--min",
        "0",
        "--timeout",
        "1e300",
    ]));
    assert_eq!(
        err,
        "grader generate: error: --timeout must be a positive number of seconds, at most 1e9, not 1e300\n"
    );
    let err = bad_input(grader(&["batch", "-", "--jobs", "1000"]));
    assert_eq!(
        err,
        "grader batch: error: --jobs must be 1 to 256 threads, not 1000\n"
    );
    let err = bad_input(grader(&[
        "generate",
        "--size",
        "4",
        "--min",
        "0",
        "--max-mean-cage",
        "1.2",
    ]));
    assert!(
        err.contains("no layout has a mean cage size of 1.2 cells or less"),
        "{err}"
    );
}

/// A shell command run with its address space capped at 4 GiB.
fn capped(command: &str) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 4194304 && {command}"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap()
}

#[test]
fn the_most_threads_allowed_run_in_4_gib() {
    let grader = super::GRADER;
    let out = capped(&format!(
        "{grader} batch puzzles/sample.json --jobs 256 --format ndjson"
    ));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 20);
    let out = capped(&format!(
        "{grader} generate --size 4 --min 1 --max 1 --count 3 --seed 1 --jobs 256"
    ));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `grader batch big | head -1`: the run ends quietly once the reader has gone.
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    for args in [
        vec!["batch", "puzzles/reference-corpus.json", "--jobs", "1"],
        vec!["solve", "--many", "puzzles/reference-corpus.json"],
        vec!["grade", README],
    ] {
        let mut child = Command::new(super::GRADER)
            .args(&args)
            .current_dir(root)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        // The reader is dropped here: the pipe closes.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}
