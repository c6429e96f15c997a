#[path = "../tests/common/mod.rs"]
mod common;
use kenken_techniques::{Grader, Options};
fn main() {
    let id = std::env::args().nth(1).unwrap();
    let p = common::tatham(&id);
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
