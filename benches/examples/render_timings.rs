//! Times a picture, a hint and a check on the corpus' 9x9 puzzles (release build):
//!
//! ```sh
//! cargo run --release -p kenken-benches --example render_timings [-- COUNT]
//! ```
//!
//! `COUNT` stops after that many puzzles (all of them by default).
//!
//! Each puzzle is taken at the middle of its step log: the grid before that step
//! (digits placed, every other cell's candidates as pencil marks) is the position
//! for `hint` and `check`, and the step is drawn. "cold" times include building the
//! grader (the combination tables and the solution count), as a `grader hint` or
//! `grader check` process does once per call; the others reuse it.

use kenken_model::{Budget, Puzzle};
use kenken_render::Picture;
use kenken_techniques::position::{self, Frame, Position, Shown, Walk, Written};
use kenken_techniques::{Grader, Options};
use std::time::{Duration, Instant};

const FILES: [&str; 6] = [
    "tatham-9x9-easy.json",
    "tatham-9x9-normal.json",
    "tatham-9x9-hard.json",
    "tatham-9x9-extreme.json",
    "tatham-9x9-unreasonable.json",
    "tatham-9x9-unreasonable-mult.json",
];

/// PNGs take milliseconds: every this many puzzles is rasterised.
const PNG_EVERY: usize = 20;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles");
    let limit: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("COUNT: a number of puzzles"))
        .unwrap_or(usize::MAX);
    let mut times: Vec<(&str, Vec<Duration>)> = [
        "render SVG (a step, with caption)",
        "render PNG, scale 1",
        "render PNG, scale 2",
        "hint (grader built)",
        "hint, cold",
        "check (grader built)",
        "check, cold",
    ]
    .into_iter()
    .map(|name| (name, Vec::new()))
    .collect();
    let mut count = 0;
    for file in FILES {
        let text = std::fs::read_to_string(dir.join(file)).expect("a corpus file");
        let ids: Vec<String> = serde_json::from_str(&text).expect("a JSON array");
        for id in ids.into_iter().take(limit - count) {
            let puzzle = kenken_formats::tatham::read(&id).expect("a game ID");
            let grader = Grader::new(&puzzle).expect("a grader");
            let frames: Vec<Frame> =
                Walk::from_start(&grader, Options::default(), Budget::unlimited()).collect();
            let frame = &frames[frames.len() / 2];
            let position = position_of(&puzzle, &frame.before);

            let start = Instant::now();
            let picture = Picture::new(&puzzle)
                .cells(frame.before.clone())
                .expect("cells")
                .step(&frame.step)
                .title(frame.step.labelled_text(&puzzle))
                .note(frame.step.explanation(grader.layout()));
            let svg = picture.svg();
            times[0].1.push(start.elapsed());
            if count % PNG_EVERY == 0 {
                for (slot, scale) in [(1, 1.0), (2, 2.0)] {
                    let start = Instant::now();
                    kenken_render::png_from_svg(&svg, scale).expect("png");
                    times[slot].1.push(start.elapsed());
                }
            }

            let start = Instant::now();
            std::hint::black_box(position::hint(
                &grader,
                &position,
                Options::default(),
                Budget::unlimited(),
            ));
            times[3].1.push(start.elapsed());
            let start = Instant::now();
            let cold = Grader::new(&puzzle).expect("a grader");
            std::hint::black_box(position::hint(
                &cold,
                &position,
                Options::default(),
                Budget::unlimited(),
            ));
            times[4].1.push(start.elapsed());

            let start = Instant::now();
            std::hint::black_box(position::check(
                &grader,
                &position,
                &mut Budget::unlimited(),
            ));
            times[5].1.push(start.elapsed());
            let start = Instant::now();
            let cold = Grader::new(&puzzle).expect("a grader");
            std::hint::black_box(position::check(&cold, &position, &mut Budget::unlimited()));
            times[6].1.push(start.elapsed());
            count += 1;
        }
    }
    println!("{count} 9x9 puzzles, each at the middle of its log\n");
    println!(
        "{:<36} {:>6} {:>10} {:>10} {:>10}",
        "", "runs", "median", "p90", "max"
    );
    for (name, mut list) in times {
        list.sort();
        let at = |q: f64| list[((list.len() - 1) as f64 * q) as usize];
        let over = list.iter().filter(|t| t.as_micros() > 1000).count();
        println!(
            "{name:<36} {:>6} {:>10} {:>10} {:>10} {over:>8}",
            list.len(),
            show(at(0.5)),
            show(at(0.9)),
            show(at(1.0))
        );
    }
}

/// The position a grid shows: its digits entered, its candidates pencilled in.
fn position_of(puzzle: &Puzzle, shown: &[Shown]) -> Position {
    let entries = shown
        .iter()
        .map(|s| match *s {
            Shown::Digit(d) => Written::Digit(d),
            Shown::Candidates(c) => Written::Marks(c),
        })
        .collect();
    Position::new(puzzle.size(), entries).expect("a position")
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.0} µs")
    } else {
        format!("{:.2} ms", us / 1000.0)
    }
}
