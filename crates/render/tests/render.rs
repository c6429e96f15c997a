//! Pictures: deterministic, self-contained SVG for every size; PNGs of three steps
//! compared with the committed fixtures in `tests/fixtures/` (within a small
//! tolerance, as rasterisers may differ in the last bit of anti-aliasing).
//!
//! After an intended change to the pictures, rewrite the fixtures with
//! `UPDATE_FIXTURES=1 cargo test --release -p kenken-render` and look at them.
//! Pictures of proofs are checked in `render/proofs.rs`.

use kenken_model::{Budget, Digits, Puzzle};
use kenken_render::{Picture, RenderError};
use kenken_techniques::position::{Shown, Walk};
use kenken_techniques::{Grader, Options};
use resvg::tiny_skia::Pixmap;
use std::path::PathBuf;

#[path = "render/proofs.rs"]
mod proofs;

/// The example 6x6 of `docs/formats.md`.
const SIX: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";
/// A 9x9 whose step 14 is a region sum over two cages.
const NINE: &str = "9:__b_4aa_4a5_4a_6a_3aa_4a__a_7a_3cabb_aa_5ba7__b_a__b_a_aa_a_c_ab_,s4m90m48d2a15s6s2m56d2d3s3a10a12a8a14s2s3m1296m288m60a10d2a6s1m14s1a11m1440a14m56s2s6d3";

fn read(text: &str) -> Puzzle {
    kenken_formats::read_any(text, None).expect("puzzle").puzzle
}

/// The `six` puzzle's cages as a KenDoku (2x3 boxes).
fn kendoku() -> Puzzle {
    let k6c = kenken_formats::sudokuwiki::write_k6c(&read(SIX), None).expect("K6C");
    read(&format!("D6C{}", &k6c[3..]))
}

/// Step `n` (1-based, naked singles counted) of the puzzle's log, drawn with its
/// text and explanation, as a PNG at scale 1.
fn step_png(puzzle: &Puzzle, n: usize) -> Vec<u8> {
    let grader = Grader::new(puzzle).expect("grader");
    let walk = Walk::from_start(&grader, Options::default(), Budget::unlimited());
    let frame = walk.into_iter().nth(n - 1).expect("a step n");
    Picture::new(puzzle)
        .cells(frame.before)
        .expect("one entry per cell")
        .step(&frame.step)
        .title(format!(
            "Step {n} ({}): {}",
            frame.step.rating,
            frame.step.labelled_text(puzzle)
        ))
        .note(frame.step.explanation(grader.layout()))
        .png(1.0)
        .expect("png")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Compares a PNG with its fixture: same size, and at most 0.5 % of the pixels off
/// by more than 32 in a channel.
fn matches_fixture(name: &str, png: &[u8]) {
    let path = fixture(name);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, png).expect("write the fixture");
    }
    let want = Pixmap::decode_png(&std::fs::read(&path).expect("the fixture")).expect("a PNG");
    let got = Pixmap::decode_png(png).expect("a PNG");
    assert_eq!(
        (got.width(), got.height()),
        (want.width(), want.height()),
        "{name}: size"
    );
    let off = got
        .data()
        .chunks(4)
        .zip(want.data().chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 32))
        .count();
    let pixels = (got.width() * got.height()) as usize;
    assert!(
        off * 200 <= pixels,
        "{name}: {off} of {pixels} pixels differ from the fixture (rewrite it with UPDATE_FIXTURES=1 if intended)"
    );
}

#[test]
fn claiming_on_a_6x6_matches_its_fixture() {
    matches_fixture("claiming-6x6.png", &step_png(&read(SIX), 1));
}

#[test]
fn hidden_single_in_a_kendoku_box_matches_its_fixture() {
    let puzzle = kendoku();
    matches_fixture("box-hidden-single-6x6.png", &step_png(&puzzle, 4));
}

#[test]
fn region_sum_on_a_9x9_matches_its_fixture() {
    matches_fixture("region-sum-9x9.png", &step_png(&read(NINE), 14));
}

/// A grid of the size whose cages are its rows: every size renders.
fn rows_puzzle(n: usize) -> Puzzle {
    let mut text = format!("# {n}\n");
    for r in 0..n {
        let cells: Vec<String> = (1..=n)
            .map(|c| format!("{}{c}", (b'A' + r as u8) as char))
            .collect();
        text.push_str(&format!("+ {} {}\n", n * (n + 1) / 2, cells.join(" ")));
    }
    read(&text)
}

#[test]
fn every_size_renders_self_contained_and_deterministic() {
    for n in 3..=16 {
        let puzzle = rows_puzzle(n);
        let cells: Vec<Shown> = puzzle
            .size()
            .cells()
            .map(|c| match c.index() % 3 {
                0 => Shown::Digit((c.index() % n + 1) as u8),
                1 => Shown::Candidates(Digits::full(n)),
                _ => Shown::Candidates(Digits::EMPTY),
            })
            .collect();
        let picture = Picture::new(&puzzle).cells(cells).unwrap().title("A title");
        let svg = picture.svg();
        assert_eq!(svg, picture.svg(), "{n}x{n}: not deterministic");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        // No text and no fonts: every character is a glyph outline.
        for absent in ["<text", "font", "<image"] {
            assert!(!svg.contains(absent), "{n}x{n}: {absent}");
        }
        assert!(svg.contains("<use xlink:href=\"#b"), "{n}x{n}: clues");
        let png = picture.png(0.5).unwrap();
        let pixmap = Pixmap::decode_png(&png).unwrap();
        assert!(pixmap.width() > 50 && pixmap.height() > 50);
    }
}

#[test]
fn wrong_input_is_an_error() {
    let puzzle = rows_puzzle(4);
    assert_eq!(
        Picture::new(&puzzle).cells(Vec::new()).unwrap_err(),
        RenderError::WrongCellCount {
            expected: 16,
            got: 0
        }
    );
    let picture = Picture::new(&puzzle);
    assert_eq!(picture.png(0.0).unwrap_err(), RenderError::Scale(0.0));
    assert!(matches!(
        picture.png(100.0).unwrap_err(),
        RenderError::TooLarge { .. }
    ));
    assert!(matches!(
        kenken_render::png_from_svg("<svg", 1.0).unwrap_err(),
        RenderError::Svg(_)
    ));
}
