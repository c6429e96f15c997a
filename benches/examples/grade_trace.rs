//! Grades one Tatham game ID and prints how long it took and its ladder steps
//! (development aid):
//!
//! ```sh
//! cargo run --release -p kenken-benches --example grade_trace -- GAME_ID [c]
//! ```
//!
//! A second argument (any) grades in mode c (cage combinations only).
use kenken_techniques::{Grader, Options};
fn main() {
    let id = std::env::args()
        .nth(1)
        .expect("usage: grade_trace GAME_ID [c]");
    // Read leniently, as the reference solver does.
    let p = kenken_formats::read_any(&id, Some(kenken_formats::Format::Tatham))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .puzzle;
    let g = Grader::new(&p).unwrap();
    let cc = std::env::args().nth(2).is_some();
    let o = if cc {
        Options::cage_combinations_only()
    } else {
        Options::default()
    };
    let t = std::time::Instant::now();
    let r = g.grade(o, false);
    eprintln!("graded in {:?}", t.elapsed());
    for (i, s) in r.steps.iter().filter(|s| !s.is_propagation()).enumerate() {
        eprintln!("STEP {} ({}) {}", i + 1, s.rating, s.text(p.size()));
    }
}
