//! Times a booklet of 1 000 puzzles with answers (the first 1 000 of the reference
//! corpus, sizes 3 to 9): reading, rating and solving them, then the PDF, with
//! the process's peak memory.
//!
//! ```sh
//! cargo run --release -p kenken-benches --example booklet_thousand [-- [OUT.pdf] [--count N]]
//! ```
//!
//! `OUT.pdf` keeps the booklet; `--count N` takes the first N puzzles instead of
//! 1 000 (a quick check that it runs).

use kenken_booklet::{prepare, Booklet, Item, Options};
use kenken_model::Limits;
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    let corpus: Vec<String> =
        serde_json::from_str(include_str!("../../puzzles/reference-corpus.json"))
            .expect("a JSON array of game IDs");
    let mut count = 1000;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--count" {
            let n = args.next().and_then(|n| n.parse().ok());
            count = n.expect("--count N: a number of puzzles");
        } else {
            out = Some(arg);
        }
    }
    let started = Instant::now();
    let items: Vec<Item> = corpus[..count]
        .par_iter()
        .enumerate()
        .map(|(i, id)| prepare(i + 1, id, Limits::new()).expect("a unique puzzle"))
        .collect();
    let prepared = started.elapsed();
    let booklet = Booklet::new(
        &items,
        Options {
            answers: true,
            ..Options::default()
        },
    );
    let pdf = booklet.pdf().expect("a PDF");
    let total = started.elapsed();
    if let Some(path) = out {
        std::fs::write(&path, &pdf).expect("the PDF is written");
    }
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string());
    println!(
        "{count} puzzles, {} pages: rated and solved in {:.2} s, PDF ({:.1} MB) in {:.2} s, {:.2} s in all; peak memory {peak}",
        booklet.page_count(),
        prepared.as_secs_f64(),
        pdf.len() as f64 / 1e6,
        (total - prepared).as_secs_f64(),
        total.as_secs_f64(),
    );
}
