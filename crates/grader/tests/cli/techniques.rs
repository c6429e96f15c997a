//! `grader techniques` and the exit codes in `--help`.

use super::{grader, ok};

#[test]
fn lists_the_ladder_with_ratings() {
    let out = ok(grader(&["techniques"]));
    let ids = [
        ("naked-single", "0"),
        ("hidden-single", "1"),
        ("claiming", "1.5"),
        ("pointing", "1.5"),
        ("hidden-subset", "2 + (k-2)/10"),
        ("fish", "2 + (k-2)/10"),
        ("region-sum", "3 + (u-1)/5"),
        ("region-parity", "3 one line, 3.1 several lines"),
        ("cage-combination", "4 + (n-2)/5"),
    ];
    let mut last = 0;
    for (id, rating) in ids {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("{id} missing:\n{out}"));
        assert!(line.contains(rating), "{line}");
        // Easiest first.
        let at = out.find(line).unwrap();
        assert!(at >= last, "{id} out of order:\n{out}");
        last = at;
    }
}

#[test]
fn help_documents_exit_codes() {
    for args in [
        &["--help"][..],
        &["batch", "--help"],
        &["grade", "--help"],
        &["solve", "--help"],
    ] {
        let help = ok(grader(args));
        assert!(help.contains("Exit codes:"), "{args:?}: {help}");
        for code in [
            "0  success",
            "1  the output could not be written",
            "2  the input cannot be used",
            "3  solve",
        ] {
            assert!(help.contains(code), "{args:?}: {help}");
        }
    }
}
