//! Booklets of the sample puzzles: page counts, the PDF checked by Debian's
//! `qpdf --check` and a page rendered by `pdftoppm` (poppler-utils), as a reader
//! would open it. The test script installs both; without them these tests say
//! so and pass, except under CI, where a missing tool fails them.

use kenken_booklet::{prepare, Booklet, Item, ItemError, Options, Paper, PerPage};
use kenken_model::Limits;
use resvg::tiny_skia::Pixmap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn sample() -> Vec<Item> {
    let text = include_str!("../../../puzzles/sample.json");
    let ids: Vec<String> = serde_json::from_str(text).expect("a JSON array");
    ids.iter()
        .enumerate()
        .map(|(i, id)| prepare(i + 1, id, Limits::new()).expect("a unique puzzle"))
        .collect()
}

/// Whether a command-line tool is there; under CI its absence fails the test.
fn have(tool: &str) -> bool {
    let found = Command::new(tool).arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing (scripts/test.sh installs qpdf and poppler-utils)"
        );
        eprintln!("skipped: {tool} is not installed");
    }
    found
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kenken-booklet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}

fn run(command: &mut Command) -> String {
    let out = command.output().expect("the tool runs");
    assert!(
        out.status.success(),
        "{command:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The share of a rendered page's pixels that are not white.
fn ink(png: &Path) -> f64 {
    let pixmap = Pixmap::decode_png(&std::fs::read(png).expect("the PNG")).expect("a PNG");
    let dark = pixmap
        .pixels()
        .iter()
        .filter(|p| p.red() < 128 && p.green() < 128 && p.blue() < 128)
        .count();
    dark as f64 / pixmap.pixels().len() as f64
}

#[test]
fn pages_hold_one_two_four_or_six() {
    let items = sample();
    for (per_page, pages) in [(1, 20), (2, 10), (4, 5), (6, 4)] {
        let options = Options {
            per_page: PerPage::new(per_page).unwrap(),
            ..Options::default()
        };
        let booklet = Booklet::new(&items, options);
        assert_eq!(booklet.page_count(), pages, "{per_page} a page");
    }
    let with_answers = Booklet::new(
        &items,
        Options {
            answers: true,
            ..Options::default()
        },
    );
    assert_eq!(with_answers.answer_pages(), 2);
    assert_eq!(with_answers.page_count(), 7);
    assert_eq!(PerPage::new(3), None);
}

#[test]
fn pages_name_each_puzzle_its_size_and_rating() {
    let items = sample();
    assert_eq!(items[0].caption(), "3×3 – rating 1");
    let booklet = Booklet::new(&items, Options::default());
    let svg = booklet.page_svg(0);
    assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
    assert!(svg.contains("width=\"595.276pt\" height=\"841.89pt\""));
    // Deterministic, like every picture.
    assert_eq!(svg, booklet.page_svg(0));
}

#[test]
fn puzzles_without_one_solution_are_refused() {
    let unreadable = prepare(1, "6:nonsense", Limits::new()).unwrap_err();
    assert!(unreadable.is_unreadable());
    let ambiguous = prepare(2, "4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1", Limits::new()).unwrap_err();
    assert_eq!(ambiguous, ItemError::Ambiguous);
    let impossible = prepare(
        3,
        "6:aab_12a_6aa_aa_a4_a3b_a_a,a9a5m60s1d3m8d2d2a7m120s4d2a8s2m4s1",
        Limits::new(),
    )
    .unwrap_err();
    assert_eq!(impossible, ItemError::Impossible);
    assert!(!impossible.is_unreadable());
}

#[test]
fn the_pdf_passes_qpdf_and_renders_with_poppler() {
    if !have("qpdf") || !have("pdftoppm") {
        return;
    }
    let items = sample();
    for paper in [Paper::A4, Paper::Letter] {
        let booklet = Booklet::new(
            &items,
            Options {
                paper,
                answers: true,
                ..Options::default()
            },
        );
        let pdf = booklet.pdf().expect("a PDF");
        let path = scratch(&format!("{paper:?}.pdf"));
        std::fs::write(&path, &pdf).unwrap();
        let check = run(Command::new("qpdf").arg("--check").arg(&path));
        assert!(
            check.contains("No syntax or stream encoding errors found"),
            "{check}"
        );
        let info = run(Command::new("pdfinfo").arg(&path));
        assert!(info.contains("Pages:           7"), "{info}");
        let size = match paper {
            Paper::A4 => "595.276 x 841.89 pts (A4)",
            Paper::Letter => "612 x 792 pts (letter)",
        };
        assert!(info.contains(size), "{info}");
        // The first page of puzzles and the first of answers, as a reader sees them:
        // grids drawn (ink), the answers denser with digits.
        let prefix = scratch(&format!("{paper:?}-page"));
        for page in [1, 6] {
            run(Command::new("pdftoppm")
                .args([
                    "-png",
                    "-r",
                    "40",
                    "-f",
                    &page.to_string(),
                    "-l",
                    &page.to_string(),
                ])
                .arg(&path)
                .arg(&prefix));
        }
        let name = |page: usize| PathBuf::from(format!("{}-{page}.png", prefix.display()));
        let puzzles = ink(&name(1));
        let answers = ink(&name(6));
        assert!(puzzles > 0.02, "page 1 has {puzzles:.3} ink");
        assert!(
            answers > puzzles,
            "answers {answers:.3}, puzzles {puzzles:.3}"
        );
    }
}
