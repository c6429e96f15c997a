//! Draws a puzzle empty, then step 7 of its solving log, as SVG and PNG files.
//!
//! ```sh
//! cargo run -p kenken-render --example draw
//! ```
//!
//! What `grader render PUZZLE -o empty.svg` and `grader render PUZZLE --step 7
//! -o step-7.png` do, done with the library. The files go to a folder of the
//! system's temporary directory, whose path is printed.

use kenken_model::Limits;
use kenken_render::{scene, Subject};
use kenken_techniques::position::Position;
use kenken_techniques::Options;

/// The 6×6 of the README; its step 7 is a region parity step.
const PUZZLE: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";

fn main() -> std::io::Result<()> {
    let puzzle = kenken_formats::read_any(PUZZLE, None)
        .expect("a valid puzzle string")
        .puzzle;
    let dir = std::env::temp_dir().join("kenken-render-example");
    std::fs::create_dir_all(&dir)?;

    // A picture starts from a solver's position: here a blank grid (a position
    // can also hold entered digits and pencil marks, read by
    // `kenken_formats::state`).
    let blank = Position::blank(puzzle.size());

    // 1. The puzzle as written: cage borders and clues, no digits.
    //    `Subject::Position` draws the position as it is, without grading.
    let empty = scene(
        &puzzle,
        &blank,
        Subject::Position,
        Options::default(),
        Limits::new(),
    )
    .expect("a drawable puzzle");
    let empty_svg = empty.svg();
    std::fs::write(dir.join("empty.svg"), &empty_svg)?;

    // 2. Step 7 of the log from that position (numbered from 1, naked singles
    //    included, as `grader grade` numbers them), drawn on the grid as it
    //    stood before the step: its lines, cages and cells shaded, what it
    //    removes struck out. With `caption`, the step's text and its
    //    explanation are written under the grid.
    let step = Subject::Step {
        number: 7,
        caption: true,
    };
    let picture = scene(&puzzle, &blank, step, Options::default(), Limits::new())
        .expect("the log has a step 7");
    let step_svg = picture.svg();
    std::fs::write(dir.join("step-7.svg"), &step_svg)?;

    // 3. The same picture as a PNG, rasterised by resvg at twice the SVG's size.
    let png = picture.png(2.0).expect("a PNG");
    std::fs::write(dir.join("step-7.png"), &png)?;

    println!(
        "wrote empty.svg, step-7.svg and step-7.png to {}",
        dir.display()
    );

    // The files hold what they should: SVG text and a PNG's 8-byte signature.
    let read = |name: &str| std::fs::read(dir.join(name));
    assert!(read("empty.svg")?.starts_with(b"<svg"));
    assert!(read("step-7.svg")?.starts_with(b"<svg"));
    assert!(read("step-7.png")?.starts_with(b"\x89PNG\r\n\x1a\n"));
    // The step adds pencil marks, shading and a caption to the grid.
    assert!(step_svg.len() > empty_svg.len());
    // An SVG is deterministic: the same input gives the same bytes.
    assert_eq!(empty_svg, empty.svg());
    Ok(())
}
