//! `grader print`: a PDF or SVG pages of a batch file, puzzles left out with a
//! reason, exit codes, and bad arguments.

use super::{bad_input, grader, stderr};

fn tmp(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn a_pdf_of_the_sample_with_answers() {
    let out = tmp("print-sample.pdf");
    let o = grader(&[
        "print",
        "../../puzzles/sample.json",
        "--answers",
        "--per-page",
        "6",
        "--paper",
        "letter",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains("20 puzzle(s) on 4 pages, answers on 2 pages"),
        "{said}"
    );
    let pdf = std::fs::read(&out).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(pdf.ends_with(b"%%EOF") || pdf.ends_with(b"%%EOF\n"));
}

#[test]
fn svg_pages_are_numbered_files() {
    let out = tmp("print-pages.svg");
    let o = grader(&[
        "print",
        "../../puzzles/sample.json",
        "--per-page",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for page in 1..=5 {
        let svg = std::fs::read_to_string(tmp(&format!("print-pages-{page}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"));
    }
    assert!(!tmp("print-pages-6.svg").exists());
}

#[test]
fn puzzles_that_cannot_be_printed_are_left_out_with_a_reason() {
    let input = tmp("print-mixed.json");
    std::fs::write(
        &input,
        r#"["4:_a_5a_bac_a__,d2m12a5m8s2d2s1", "4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1", 7, "3:_a_aa_aa,s1m3a6m6"]"#,
    )
    .unwrap();
    let out = tmp("print-mixed.pdf");
    let o = grader(&[
        "print",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let said = stderr(&o);
    // An entry that is not a puzzle string (exit 2) wins over an ambiguous puzzle (3).
    assert_eq!(o.status.code(), Some(2), "{said}");
    assert!(said.contains("puzzle 2 (\"4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1\"): it has more than one solution; left out"), "{said}");
    assert!(said.contains("puzzle 3 (\"7\"): array element 3"), "{said}");
    assert!(
        said.contains("wrote") && said.contains("2 puzzle(s) on 1 page"),
        "{said}"
    );
    assert!(std::fs::read(&out).unwrap().starts_with(b"%PDF-"));

    std::fs::write(
        &input,
        "4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1\n4:_a_5a_bac_a__,d2m12a5m8s2d2s1\n",
    )
    .unwrap();
    let o = grader(&[
        "print",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
}

#[test]
fn bad_arguments() {
    let err = bad_input(grader(&[
        "print",
        "../../puzzles/sample.json",
        "-o",
        "x.png",
    ]));
    assert!(err.contains("name it .pdf or .svg"), "{err}");
    let err = bad_input(grader(&[
        "print",
        "../../puzzles/sample.json",
        "--per-page",
        "3",
        "-o",
        "x.pdf",
    ]));
    assert!(err.contains("must be 1, 2, 4 or 6"), "{err}");
    let err = bad_input(grader(&["print", "no-such-file.json", "-o", "x.pdf"]));
    assert!(err.contains("no such file"), "{err}");
    let empty = tmp("print-empty.json");
    std::fs::write(&empty, "[]").unwrap();
    let err = bad_input(grader(&["print", empty.to_str().unwrap(), "-o", "x.pdf"]));
    assert!(err.contains("no puzzle to print"), "{err}");
}
