//! `--strict` puzzles play in Simon Tatham's Keen: `sgt-keen --print` accepts
//! every ID (Debian's sgt-puzzles; the test is skipped with a message when it is
//! not installed, CI installs it).

use crate::common;

use kenken_formats::tatham;
use kenken_generator::Request;
use kenken_techniques::Rating;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const SGT_KEEN: &str = "/usr/games/sgt-keen";

#[test]
fn strict_ids_are_accepted_by_sgt_keen() {
    if !Path::new(SGT_KEEN).exists() {
        eprintln!("skipped: {SGT_KEEN} is missing (apt-get install sgt-puzzles)");
        return;
    }
    let mut ids = Vec::new();
    for (size, lo) in [(3, 0), (4, 20), (5, 30), (6, 40), (7, 40), (9, 30)] {
        let mut request = Request::new(size, Rating(lo), None);
        request.rules.strict = true;
        request.rules.max_givens = 2;
        for g in common::run(&request, size as u64, 3, 200, 2) {
            ids.push(tatham::write(&g.puzzle).unwrap());
        }
    }
    assert!(ids.len() >= 15, "{ids:?}");
    let mut child = Command::new(SGT_KEEN)
        .args(["--print", "1x1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(ids.join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("error parsing"), "{err}");
    assert!(out.status.success(), "{err}");
    let pages = String::from_utf8_lossy(&out.stdout)
        .matches("showpage")
        .count();
    assert_eq!(pages, ids.len());
}
