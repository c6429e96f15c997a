//! Fuzzing the `grader batch` and `solve --many` binaries on stable Rust, with
//! proptest: batch inputs of every shape (JSON array, NDJSON, category object, one
//! puzzle per line) made of puzzle strings, mutated puzzle strings and junk, then
//! mutated byte by byte, go through the binary with a short `--timeout`.
//!
//! Asserted for every input: the process ends normally (an exit code, no signal,
//! no panic message); when the batch reader of the formats crate accepts the input,
//! there is one row per entry it finds, numbered 1, 2, … in input order, and the
//! exit code follows the documented rule (2 when some row is invalid, else 0 for
//! `batch`, 0 or 3 for `solve --many`); when it refuses the whole input, no row
//! and exit code 2.
//!
//! A fixed seed makes a run repeatable; `KENKEN_FUZZ_CASES` sets the number of
//! batches (default 40); the ignored `binary_at_scale` runs 1 000.

use super::GRADER;
use kenken_formats::batch_input;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;
use std::cell::Cell;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

const PUZZLES: &[&str] = &[
    "4:_a_7a4_a3,m2m3d2d2a7s1s2a3",
    "3:a_3cb_,m12s1a7",
    "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2",
    "4:a__a_aa__a_3ac,a6a8s0m2s0m12a2",
    // One + cage per row: ambiguous, and slow enough to meet the timeout.
    "9:zzv_72,a45a45a45a45a45a45a45a45a45",
    "https://www.sudokuwiki.org/KenKen6x6.aspx?bd=112112322332311211323232123432114411,2-,,9+,6x,,3-,18x,,,5+,,,,2-,,3-,6+,,,3/,7+,,2-,12x,20x,,,24x,,,,,,,2/,,",
];

const JUNK: &[&str] = &[
    "42",
    "\"\\udc00\"",
    "1e400",
    "null",
    "{\"name\": \"x\"}",
    "\"not a puzzle\"",
    "\"\\u0007\"",
];

#[derive(Clone, Debug)]
enum Element {
    Puzzle(&'static str),
    /// A puzzle string with one character replaced.
    Changed(&'static str, Index, char),
    Junk(&'static str),
}

impl Element {
    fn text(&self) -> String {
        match self {
            Element::Puzzle(s) => s.to_string(),
            Element::Changed(s, at, c) => {
                let mut chars: Vec<char> = s.chars().collect();
                let i = at.index(chars.len());
                chars[i] = *c;
                chars.into_iter().collect()
            }
            Element::Junk(j) => j.to_string(),
        }
    }

    fn json(&self) -> String {
        match self {
            Element::Junk(j) => j.to_string(),
            _ => serde_json::to_string(&self.text()).unwrap(),
        }
    }
}

fn element() -> impl Strategy<Value = Element> {
    prop_oneof![
        4 => select(PUZZLES).prop_map(Element::Puzzle),
        2 => (select(PUZZLES), any::<Index>(), select("0123456789_az,:".chars().collect::<Vec<_>>()))
            .prop_map(|(s, i, c)| Element::Changed(s, i, c)),
        1 => select(JUNK).prop_map(Element::Junk),
    ]
}

/// A batch input's bytes: one of four shapes, then up to two byte edits.
fn input() -> impl Strategy<Value = Vec<u8>> {
    let elements = prop::collection::vec(element(), 0..16);
    let edits = prop::collection::vec((any::<Index>(), any::<u8>()), 0..3);
    (0..4u8, elements, edits, any::<bool>()).prop_map(|(shape, elements, edits, edit)| {
        let json: Vec<String> = elements.iter().map(Element::json).collect();
        let text = match shape {
            0 => format!("[{}]", json.join(",\n")),
            1 => format!("\"{}\"\n{}", PUZZLES[0], json.join("\n")),
            2 => format!("{{\n\"a\": [{}]\n}}", json.join(", ")),
            _ => {
                let lines: Vec<String> = elements.iter().map(Element::text).collect();
                format!("{}\n{}\n", PUZZLES[0], lines.join("\n"))
            }
        };
        let mut bytes = text.into_bytes();
        if edit && !bytes.is_empty() {
            for (at, b) in edits {
                let i = at.index(bytes.len());
                bytes[i] = b;
            }
        }
        bytes
    })
}

/// The entries the formats crate's reader finds (`None`: it refuses the input).
fn expected_entries(bytes: &[u8]) -> Option<usize> {
    let entries = batch_input::from_reader(bytes, "input", Some(bytes.len() as u64)).ok()?;
    let mut count = 0;
    for entry in entries {
        entry.ok()?;
        count += 1;
    }
    Some(count)
}

/// Runs `grader ARGS` on `bytes` as standard input: (exit code, rows, stderr).
fn run(args: &[&str], bytes: &[u8]) -> (Option<i32>, Vec<Value>, String) {
    let mut child = Command::new(GRADER)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run the grader binary");
    // A refused input may be left unread: a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(bytes);
    let output = child.wait_with_output().unwrap();
    let rows = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
        .collect();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), rows, err)
}

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let expected = expected_entries(bytes);
    let commands: [(&[&str], &[i32]); 2] = [
        (
            &[
                "batch",
                "--format",
                "ndjson",
                "--timeout",
                "0.05",
                "--jobs",
                "2",
                "-",
            ],
            &[0],
        ),
        (
            &[
                "solve",
                "--many",
                "-",
                "--format",
                "ndjson",
                "--timeout",
                "0.05",
            ],
            &[0, 3],
        ),
    ];
    for (args, fine) in commands {
        let (code, rows, err) = run(args, bytes);
        let input = String::from_utf8_lossy(bytes);
        prop_assert!(
            code.is_some(),
            "{:?} ended by a signal: {}\n{:?}",
            args,
            err,
            input
        );
        prop_assert!(!err.contains("panicked"), "{:?}: {}", args, err);
        match expected {
            None => {
                prop_assert_eq!(code, Some(2), "{:?}: {}\n{:?}", args, err, input);
                prop_assert!(rows.is_empty(), "{:?}: rows for a refused input", args);
            }
            Some(count) => {
                prop_assert_eq!(rows.len(), count, "{:?}: {}\n{:?}", args, err, input);
                for (i, row) in rows.iter().enumerate() {
                    prop_assert_eq!(&row["index"], &Value::from(i + 1), "{:?}", args);
                }
                let invalid = rows
                    .iter()
                    .any(|r| r["status"] == "invalid" || r["status"] == "error");
                let code = code.unwrap();
                if invalid {
                    prop_assert_eq!(code, 2, "{:?}: {}", args, err);
                } else {
                    prop_assert!(fine.contains(&code), "{:?}: exit {} {}", args, code, err);
                }
            }
        }
    }
    Ok(())
}

fn fuzz(cases: u32) -> u64 {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[5; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let (tried, entries) = (Cell::new(0u64), Cell::new(0u64));
    let started = Instant::now();
    let result = runner.run(&input(), |bytes| {
        tried.set(tried.get() + 1);
        entries.set(entries.get() + expected_entries(&bytes).unwrap_or(0) as u64);
        check(&bytes)
    });
    if let Err(e) = result {
        panic!("grader binaries: {e}");
    }
    eprintln!(
        "grader binaries: {} batches, {} entries, each through batch and solve --many, \
         no failure, {:.1} s",
        tried.get(),
        entries.get(),
        started.elapsed().as_secs_f64()
    );
    tried.get()
}

fn cases(default: u32) -> u32 {
    std::env::var("KENKEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn batches_give_one_row_per_entry_in_order() {
    fuzz(cases(40));
}

#[test]
#[ignore = "minutes: 1 000 batches through two binaries"]
fn binary_at_scale() {
    fuzz(1_000);
}
