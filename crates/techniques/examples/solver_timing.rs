//! Times the exhaustive solver (`search::solve`: tables, the solution and the proof
//! of uniqueness) on every puzzle of the given corpus files (development aid).
//!
//!     cargo run --release -p kenken-techniques --example solver_timing -- puzzles/tatham-9x9-*.json
use std::time::Instant;

fn main() {
    let mut times = Vec::new();
    for path in std::env::args().skip(1) {
        let ids: Vec<String> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for id in ids {
            let puzzle = kenken_formats::read_any(&id, None).unwrap().puzzle;
            // Best of three, to keep scheduling noise out of a sub-millisecond figure.
            let best = (0..3)
                .map(|_| {
                    let t = Instant::now();
                    let outcome = kenken_techniques::search::solve(&puzzle);
                    assert!(outcome.is_unique(), "{id}");
                    t.elapsed().as_secs_f64() * 1e6
                })
                .fold(f64::INFINITY, f64::min);
            times.push(best);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pct = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} puzzles: median {:.1} µs, p90 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        times.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
}
