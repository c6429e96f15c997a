//! Times mode b grading of every reference puzzle as `grader batch` does it
//! (development aid):
//!
//! ```sh
//! cargo run --release -p kenken-benches --example grade_timing [-- COUNT]
//! ```
//!
//! `COUNT` times only the first COUNT puzzles of `reference/reference-ratings.ndjson`.
//! `TIMING_TSV=path` writes one row per puzzle, `TIMING_MAX_REF=ms` skips the
//! puzzles the reference took longer on (see below).
use kenken_model::Puzzle;
use kenken_techniques::{Grader, Options};
use std::io::BufRead;
use std::path::Path;
use std::time::Instant;

/// Reads a Tatham game ID leniently, as the reference solver does.
fn tatham(id: &str) -> Puzzle {
    kenken_formats::read_any(id, Some(kenken_formats::Format::Tatham))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
        .puzzle
}

fn main() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reference/reference-ratings.ndjson");
    let count: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("COUNT: a number of puzzles"))
        .unwrap_or(usize::MAX);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    for l in std::io::BufReader::new(f).lines().take(count) {
        let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
        rows.push((
            v["puzzle"].as_str().unwrap().to_string(),
            v["ms"].as_f64().unwrap(),
        ));
    }
    let t0 = Instant::now();
    let mut phase = [0.0f64; 3];
    let mut times = Vec::new();
    // TIMING_TSV=path writes one row per puzzle: ours (ms, per phase), reference ms.
    let mut tsv = std::env::var_os("TIMING_TSV").map(|p| std::fs::File::create(p).unwrap());
    // TIMING_MAX_REF=ms skips puzzles the reference took longer on (to profile the
    // common case without the few heavy ones).
    let max_ref: f64 = std::env::var("TIMING_MAX_REF")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::INFINITY);
    rows.retain(|(_, ms)| *ms <= max_ref);
    assert!(!rows.is_empty(), "no puzzle to time");
    for (p, ms) in &rows {
        let puzzle = tatham(p);
        let t = Instant::now();
        // As `grader batch` builds it: the solution count only if a run is stuck.
        let g = Grader::deferred(&puzzle, kenken_model::Limits::new()).unwrap();
        let t1 = Instant::now();
        let _n = g.grade(Options::default(), false);
        let t2 = Instant::now();
        let _c = g.grade(Options::cage_combinations_only(), false);
        phase[0] += (t1 - t).as_secs_f64();
        phase[1] += (t2 - t1).as_secs_f64();
        phase[2] += t2.elapsed().as_secs_f64();
        times.push((t.elapsed().as_secs_f64() * 1000.0, *ms, p.clone()));
        if let Some(f) = tsv.as_mut() {
            use std::io::Write;
            let ms3 = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
            writeln!(
                f,
                "{:.4}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}",
                t.elapsed().as_secs_f64() * 1000.0,
                ms3(t, t1),
                ms3(t1, t2),
                t2.elapsed().as_secs_f64() * 1000.0,
                ms,
                p
            )
            .unwrap();
        }
    }
    let total = t0.elapsed().as_secs_f64();
    println!(
        "setup {:.3} s, mode n {:.3} s, mode c {:.3} s",
        phase[0], phase[1], phase[2]
    );
    let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pct = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    println!(
        "total {:.3} s; median {:.3} ms p90 {:.3} p99 {:.3} max {:.3}",
        total,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    // The reference's timer has millisecond resolution: skip its sub-5 ms puzzles.
    let mut ratios: Vec<(f64, f64, f64, String)> = times
        .iter()
        .filter(|(_, r, _)| *r >= 5.0)
        .map(|(o, r, p)| (r / o, *o, *r, p.clone()))
        .collect();
    ratios.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    for r in ratios.iter().take(8) {
        println!(
            "ratio {:.1}x ours {:.2} ms ref {} ms {}",
            r.0,
            r.1,
            r.2,
            &r.3[..r.3.len().min(50)]
        );
    }
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    // How concentrated the time is: the share of the slowest k puzzles.
    let mut acc = 0.0;
    for (k, t) in times.iter().enumerate() {
        acc += t.0;
        if [10, 50, 200, 1000].contains(&(k + 1)) {
            println!("slowest {:4}: {:.3} s", k + 1, acc / 1000.0);
        }
    }
    // Puzzles short of 100x the reference (its ms has 1 ms resolution: 0 counts as 0.5).
    let short = times
        .iter()
        .filter(|(o, r, _)| r.max(0.5) / o < 100.0)
        .count();
    println!(
        "puzzles under 100x the reference: {short} of {}",
        times.len()
    );
    for t in times.iter().take(5) {
        println!(
            "slow {:.2} ms (ref {} ms) {}",
            t.0,
            t.1,
            &t.2[..t.2.len().min(60)]
        );
    }
}
