//! One rule for the exit codes, the same in every subcommand: 2 when the input
//! cannot be used (a bad argument, a missing file, a directory, an unreadable file
//! or stream, a bad puzzle), 1 when the output cannot be written, 0 otherwise (3
//! from `solve` for a puzzle without exactly one solution).

use super::reference::{AMBIGUOUS, ROWS};
use super::{grader, stderr, stdout, GRADER};
use std::fs::File;
use std::process::{Command, Output, Stdio};

/// Every way of naming a puzzle input, one subcommand each.
const READERS: &[&[&str]] = &[
    &["grade"],
    &["solve"],
    &["convert", "--to", "text"],
    &["batch"],
    &["solve", "--many"],
];

/// `args` with the input argument put in the place each subcommand takes it.
fn with_input<'a>(args: &[&'a str], input: &'a str) -> Vec<&'a str> {
    let mut v = vec![args[0], input];
    v.extend(&args[1..]);
    v
}

fn run(args: &[&str], stdin: Stdio, stdout: Stdio) -> Output {
    Command::new(GRADER)
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn expect(o: &Output, code: i32, message: &str, args: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn input_that_cannot_be_used_exits_2_everywhere() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    for reader in READERS {
        let args = with_input(reader, "no/such/puzzles.json");
        expect(&grader(&args), 2, "no such file", &args);
        let args = with_input(reader, dir);
        expect(&grader(&args), 2, "directory", &args);
        // A file that exists but fails when read.
        let args = with_input(reader, "/proc/self/mem");
        expect(&grader(&args), 2, "Input/output error", &args);
        // Standard input that is a directory.
        let args = with_input(reader, "-");
        let stdin = Stdio::from(File::open(dir).unwrap());
        expect(&run(&args, stdin, Stdio::piped()), 2, "directory", &args);
        // A bad argument.
        let mut args = with_input(reader, "-");
        args.push("--no-such-option");
        expect(&grader(&args), 2, "unexpected argument", &args);
    }
    // Not text.
    let path = std::path::Path::new(dir).join("cli-binary.txt");
    std::fs::write(&path, b"4:\xff\xfe\x00abc").unwrap();
    for reader in &READERS[..3] {
        let args = with_input(reader, path.to_str().unwrap());
        expect(&grader(&args), 2, "not valid UTF-8", &args);
    }
}

#[test]
fn output_that_cannot_be_written_exits_1() {
    let puzzles = serde_json::to_string(&[ROWS[0].puzzle]).unwrap();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-full.json");
    std::fs::write(&path, &puzzles).unwrap();
    let file = path.to_str().unwrap();
    for args in [
        vec!["grade", ROWS[0].puzzle],
        vec!["solve", ROWS[0].puzzle],
        vec!["convert", ROWS[0].puzzle, "--to", "text"],
        vec!["batch", file],
        vec!["solve", "--many", file],
        vec!["techniques"],
        vec!["--help"],
        vec!["-h"],
        vec!["--version"],
        vec!["batch", "--help"],
        vec!["solve", "-h"],
        vec!["help", "batch"],
    ] {
        let full = Stdio::from(File::options().write(true).open("/dev/full").unwrap());
        let o = run(&args, Stdio::null(), full);
        expect(&o, 1, "cannot write to standard output", &args);
    }
}

#[test]
fn help_and_success_exit_0_and_solve_exits_3_when_not_unique() {
    for args in [&["--help"][..], &["batch", "--help"], &["solve", "--help"]] {
        assert_eq!(grader(args).status.code(), Some(0), "{args:?}");
    }
    let o = grader(&["solve", AMBIGUOUS]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
}
