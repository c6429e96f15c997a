//! Compatibility with the reference solver on ../shared/reference.
mod common;

use kenken_techniques::{Grader, Options};
use std::io::BufRead;

#[derive(Debug)]
struct Row {
    puzzle: String,
    success: bool,
    max: f64,
    total: f64,
    depth: f64,
    cc_steps: f64,
}

fn load() -> Vec<Row> {
    let f = std::fs::File::open(common::shared_reference("reference-ratings.ndjson")).unwrap();
    std::io::BufReader::new(f)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
            Row {
                puzzle: v["puzzle"].as_str().unwrap().to_string(),
                success: v["success"].as_bool().unwrap(),
                max: v["max"].as_f64().unwrap(),
                total: v["total"].as_f64().unwrap(),
                depth: v["depth"].as_f64().unwrap(),
                cc_steps: v["cc_steps"].as_f64().unwrap(),
            }
        })
        .collect()
}

#[test]
fn agreement_with_reference() {
    let rows = load();
    let (mut ok_max, mut ok_total, mut ok_depth, mut ok_steps, mut ok_success) = (0, 0, 0, 0, 0);
    let mut unsound = 0;
    for row in &rows {
        let p = common::tatham(&row.puzzle);
        let g = Grader::new(&p).unwrap();
        let n = g.grade(Options::default(), true);
        let c = g.grade(Options::cage_combinations_only(), true);
        if n.unsound_step.is_some() || c.unsound_step.is_some() {
            unsound += 1;
        }
        let max = n.max.as_f64();
        let total = n.total.as_f64();
        let same = |a: f64, b: f64| (a - b).abs() < 1e-6;
        ok_success += usize::from(n.solved() == row.success);
        ok_max += usize::from(same(max, row.max));
        ok_total += usize::from(same(total, row.total));
        ok_depth += usize::from(same(c.depth as f64, row.depth));
        ok_steps += usize::from(same(c.ladder_steps as f64, row.cc_steps));
        if !same(max, row.max) || !same(c.depth as f64, row.depth) || !same(total, row.total) {
            eprintln!(
                "DIFF {} ours max {} total {} depth {} steps {} | ref max {} total {} depth {} steps {}",
                row.puzzle, max, total, c.depth, c.ladder_steps, row.max, row.total, row.depth, row.cc_steps
            );
        }
    }
    eprintln!(
        "{} puzzles: success {ok_success}, max {ok_max}, total {ok_total}, depth {ok_depth}, cc_steps {ok_steps}, unsound {unsound}",
        rows.len()
    );
    assert_eq!(unsound, 0);
}
