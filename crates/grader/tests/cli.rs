//! Integration tests of the `grader` binary. One test binary for the whole command
//! line (subcommands add their tests here), run through `std::process::Command`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[path = "cli/batch.rs"]
mod batch;
#[path = "cli/bounds.rs"]
mod bounds;
#[path = "cli/check.rs"]
mod check;
#[path = "cli/exit_codes.rs"]
mod exit_codes;
#[path = "cli/fuzz.rs"]
mod fuzz;
#[path = "cli/generate.rs"]
mod generate;
#[path = "cli/grade.rs"]
mod grade;
#[path = "cli/hint.rs"]
mod hint;
#[path = "cli/inputs.rs"]
mod inputs;
#[path = "cli/interrupt.rs"]
mod interrupt;
#[path = "cli/options.rs"]
mod options;
#[path = "cli/print.rs"]
mod print;
#[path = "cli/ratings.rs"]
mod ratings;
#[path = "cli/readme.rs"]
mod readme;
#[path = "cli/reference.rs"]
mod reference;
#[path = "cli/render.rs"]
mod render;
#[path = "cli/serve.rs"]
mod serve;
#[path = "cli/snapshots.rs"]
mod snapshots;
#[path = "cli/solve.rs"]
mod solve;
#[path = "cli/techniques.rs"]
mod techniques;

const GRADER: &str = env!("CARGO_BIN_EXE_grader");

/// The example game ID of `docs/formats.md`.
const README: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";

fn grader(args: &[&str]) -> Output {
    Command::new(GRADER)
        .args(args)
        .output()
        .expect("cannot run the grader binary")
}

fn grader_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(GRADER)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run the grader binary");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Asserts success and returns stdout without its final newline.
fn ok(o: Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}\nstderr: {}",
        o.status,
        stderr(&o)
    );
    let s = stdout(&o);
    s.strip_suffix('\n').unwrap_or(&s).to_string()
}

/// Asserts exit code 2 with no panic, and returns stderr.
fn bad_input(o: Output) -> String {
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(stdout(&o).is_empty(), "stdout: {}", stdout(&o));
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    err
}

#[test]
fn convert_to_each_format_and_back() {
    let text = ok(grader(&["convert", README, "--to", "text"]));
    assert!(text.starts_with("# 6\n- 2 A1 A2\n+ 9 A3 B2 B3\n"), "{text}");
    assert_eq!(ok(grader(&["convert", &text, "--to", "tatham"])), README);

    let k6c = ok(grader(&["convert", README, "--to", "k6c"]));
    assert!(k6c.starts_with("K6C0074"), "{k6c}");
    assert_eq!(k6c.len(), 147);
    assert_eq!(ok(grader(&["convert", &k6c, "--to", "tatham"])), README);
    // Either case reads.
    assert_eq!(
        ok(grader(&["convert", &k6c.to_uppercase(), "--to", "tatham"])),
        README
    );

    let url = ok(grader(&["convert", README, "--to", "sudokuwiki"]));
    assert!(
        url.starts_with("https://www.sudokuwiki.org/KenKen6x6.aspx?bd="),
        "{url}"
    );
    assert!(url.ends_with(",,2/,,"), "{url}");

    assert_eq!(ok(grader(&["convert", README, "--to", "tatham"])), README);
}

#[test]
fn d6c_round_trip_and_refusals() {
    // The K6C string with its prefix changed is the same cages as a KenDoku.
    let k6c = ok(grader(&["convert", README, "--to", "k6c"]));
    let d6c = format!("D6C{}", &k6c[3..]);
    assert_eq!(ok(grader(&["convert", &d6c, "--to", "d6c"])), d6c);
    let err = bad_input(grader(&["convert", &d6c, "--to", "tatham"]));
    assert!(err.contains("KenDoku"), "{err}");
    let err = bad_input(grader(&["convert", README, "--to", "d6c"]));
    assert!(err.contains("no boxes"), "{err}");
}

#[test]
fn k6c_progress_is_carried_over() {
    let k6c = ok(grader(&["convert", README, "--to", "k6c"]));
    // Cell 1: p = 256 ("0074"); solved 4 adds 4 + 6 = 10 -> 266 = "007e".
    let with_progress = format!("K6C007e{}", &k6c[7..]);
    let out = ok(grader(&["convert", &with_progress, "--to", "k6c"]));
    assert!(out.starts_with("K6C007e"), "{out}");
    // Unnoted cells become the full mask 75 when a state is written: cell 2 was
    // 256 ("0074") -> 256 + 75 = 331 = 9 * 36 + 7 = "0097".
    assert_eq!(&out[7..11], "0097");
}

#[test]
fn from_forces_the_format() {
    let text = "# 3\n+ 3 A1 B1\n+ 5 A2 B2\n! 1 A3\n+ 5 B3 C3\n+ 4 C1 C2";
    assert_eq!(
        ok(grader(&["convert", text, "--from", "text", "--to", "text"])),
        text
    );
    let err = bad_input(grader(&[
        "convert", README, "--from", "text", "--to", "tatham",
    ]));
    assert!(err.contains("text format"), "{err}");
    assert!(err.contains("line 1"), "{err}");
    let grid = "3\nAAB\nCDB\nCD1\n\nA 3+\nB 2/\nC 3x\nD 5+\n";
    let out = ok(grader(&[
        "convert",
        grid,
        "--from",
        "letter-grid",
        "--to",
        "text",
    ]));
    assert_eq!(
        out,
        "# 3\n+ 3 A1 A2\n/ 2 A3 B3\n* 3 B1 C1\n+ 5 B2 C2\n! 1 C3"
    );
    // Auto-detected too.
    assert_eq!(ok(grader(&["convert", grid, "--to", "text"])), out);
}

#[test]
fn stdin_and_files() {
    let out = ok(grader_stdin(
        &["convert", "-", "--to", "text"],
        &format!("{README}\n"),
    ));
    assert!(out.starts_with("# 6\n"), "{out}");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("cli-convert-puzzle.txt");
    std::fs::write(&path, format!("{README}\n")).unwrap();
    assert_eq!(
        ok(grader(&[
            "convert",
            path.to_str().unwrap(),
            "--to",
            "tatham"
        ])),
        README
    );
    let err = bad_input(grader(&["convert", "no/such/puzzle.txt", "--to", "text"]));
    assert!(err.contains("no such file"), "{err}");
    let err = bad_input(grader_stdin(&["convert", "-", "--to", "text"], ""));
    assert!(err.contains("empty"), "{err}");
}

#[test]
fn bad_input_names_rule_and_position() {
    let bad = README.replace("a3b", "a3!");
    let err = bad_input(grader(&["convert", &bad, "--to", "text"]));
    assert!(
        err.contains("Invalid character in game description"),
        "{err}"
    );
    assert!(err.contains("at character 17"), "{err}");
    assert!(err.contains(&format!("\n  {}^", " ".repeat(16))), "{err}");

    let err = bad_input(grader(&[
        "convert",
        "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9",
        "--to",
        "text",
    ]));
    assert!(err.contains("Too few clues for block structure"), "{err}");

    let err = bad_input(grader(&["convert", "6dh#12345", "--to", "text"]));
    assert!(err.contains("no puzzle description"), "{err}");

    let err = bad_input(grader(&["convert", "hello world", "--to", "text"]));
    assert!(err.contains("not in any known puzzle format"), "{err}");

    let err = bad_input(grader(&[
        "convert",
        "# 3\n+ 3 A1 B1\n+ 5 A2 Z9\n",
        "--to",
        "tatham",
    ]));
    assert!(err.contains("line 3, column 8"), "{err}");
    assert!(err.contains("Z9"), "{err}");

    // A 4x4 cannot be written as K6C.
    let err = bad_input(grader(&[
        "convert",
        "4:_a_7a4_a3,m2m3d2d2a7s1s2a3",
        "--to",
        "k6c",
    ]));
    assert!(err.contains("6x6"), "{err}");

    // Unknown format names are clap's usage errors (also exit code 2).
    let err = bad_input(grader(&["convert", README, "--to", "letter-grid"]));
    assert!(err.contains("invalid value"), "{err}");
}

#[test]
fn lenient_tatham_warns_and_converts() {
    let o = grader(&[
        "convert",
        "4:a__a_aa__a_3ac,a6a8s0m2s0m12a2",
        "--to",
        "tatham",
    ]);
    let err = stderr(&o);
    assert_eq!(ok(o), "4:a__a_aa__a_3ac_,a6a8s0m2s0m12a2");
    assert!(err.contains("warning"), "{err}");
    assert!(
        err.contains("Not enough data in block structure specification"),
        "{err}"
    );
    assert!(err.contains("block structure one position short"), "{err}");
    assert!(
        err.contains("subtraction or division on a cage whose area is not 2"),
        "{err}"
    );
}

#[test]
fn web_player_urls() {
    let url = format!("https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/keen.html#{README}");
    assert_eq!(ok(grader(&["convert", &url, "--to", "tatham"])), README);
}
