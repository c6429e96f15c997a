//! Grades a puzzle as a person would solve it and explains every step.
//!
//! ```sh
//! cargo run -p kenken-techniques --example grade_and_explain
//! ```
//!
//! What `grader grade PUZZLE --explain` prints, done with the library.

use kenken_techniques::{Grader, Options, Rating, Status, Step};

/// The 6×6 of the README, as a Tatham game ID. `read_any` also takes K6C/D6C
/// strings, SudokuWiki URLs, the text format and letter grids.
const PUZZLE: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";

fn main() {
    // 1. Read the string: `None` lets the reader detect the format. The result
    //    holds the validated puzzle (and, for some formats, more: a position, …).
    let puzzle = kenken_formats::read_any(PUZZLE, None)
        .expect("a valid puzzle string")
        .puzzle;

    // 2. Prepare a grader: it builds every cage's combination table and counts
    //    the solutions once, so that each run of the ladder can start from there.
    let grader = Grader::new(&puzzle).expect("within the default limits");

    // 3. Run the ladder with the default techniques. `true` checks every step
    //    against the unique solution; the log keeps every step, naked singles
    //    (rating 0) included.
    let grade = grader.grade(Options::default(), true);
    assert_eq!(grade.unsound_step, None, "no step removed the solution");

    // 4. Print the log. `labelled_text` names cells as the grid is drawn (`B3`);
    //    `explanation` says in plain English why the step holds. The layout (the
    //    puzzle with its combination tables) is what the explanation reads.
    let layout = grader.layout();
    let mut last_ladder_step: Option<&Step> = None;
    for (i, step) in grade.steps.iter().enumerate() {
        println!(
            "{}: ({}) {}",
            i + 1,
            step.rating,
            step.labelled_text(&puzzle)
        );
        // A naked single that only places what the step before it found (a
        // hidden single leaves one candidate) needs no explanation of its own.
        if !last_ladder_step.is_some_and(|ladder| step.echoes(ladder)) {
            println!("   {}", step.explanation(layout));
        }
        if !step.is_propagation() {
            last_ladder_step = Some(step);
        }
    }

    // 5. The ratings: the hardest step and the sum of all of them, in tenths
    //    (`Rating(31)` is 3.1), shown as the reference solver writes them.
    println!(
        "Max difficulty: {}; total difficulty: {}",
        grade.max, grade.total
    );
    println!("Status: {}", grade.status);

    // What `grader grade` says of this puzzle: solved, max 3.1 (a region
    // parity step), total 16.1.
    assert_eq!(grade.status, Status::Solved);
    assert_eq!(grade.max, Rating::tenths(31));
    assert_eq!(grade.total, Rating::tenths(161));
}
