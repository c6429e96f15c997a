//! Compatibility with the reference solver on `reference/`.
use crate::common;

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

/// The reference's mode-n step texts (naked singles left out), by puzzle.
fn reference_logs() -> std::collections::HashMap<String, Vec<(f64, String)>> {
    let f = std::fs::File::open(common::reference_file("reference-logs.ndjson")).unwrap();
    std::io::BufReader::new(f)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
            let log = v["log"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e[0].as_f64().unwrap(), e[1].as_str().unwrap().to_string()))
                .filter(|(r, _)| *r > 0.0)
                .collect();
            (v["puzzle"].as_str().unwrap().to_string(), log)
        })
        .collect()
}

fn load() -> Vec<Row> {
    let f = std::fs::File::open(common::reference_file("reference-ratings.ndjson")).unwrap();
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
    let logs = reference_logs();
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
            let ours: Vec<String> = n
                .steps
                .iter()
                .filter(|s| !s.is_propagation())
                .map(|s| format!("({}) {}", s.rating, s.text(p.size())))
                .collect();
            let theirs: Vec<String> = logs[&row.puzzle]
                .iter()
                .map(|(r, t)| format!("({r}) {t}"))
                .collect();
            // Texts may list cages in another order; the ratings show where the
            // paths really part.
            let rating = |s: Option<&String>| s.map(|s| s.split(')').next().unwrap().to_string());
            if let Some(i) = (0..ours.len().max(theirs.len()))
                .find(|&i| rating(ours.get(i)) != rating(theirs.get(i)))
            {
                if let Some(t) = (0..i).find(|&t| ours.get(t) != theirs.get(t)) {
                    eprintln!("  texts differ from ladder step {}:", t + 1);
                    eprintln!("    ours: {}", ours[t]);
                    eprintln!("    ref:  {}", theirs[t]);
                }
                eprintln!("  first divergence at ladder step {}:", i + 1);
                eprintln!("    ours: {}", ours.get(i).map_or("(end)", |s| s.as_str()));
                eprintln!(
                    "    ref:  {}",
                    theirs.get(i).map_or("(end)", |s| s.as_str())
                );
            }
        }
    }
    eprintln!(
        "{} puzzles: success {ok_success}, max {ok_max}, total {ok_total}, depth {ok_depth}, cc_steps {ok_steps}, unsound {unsound}",
        rows.len()
    );
    assert_eq!(unsound, 0, "a step removed the true digit or combination");
    let all = rows.len();
    assert_eq!(ok_success, all, "success must agree on every puzzle");
    assert_eq!(ok_max, all, "max must agree on every puzzle");
    assert_eq!(ok_depth, all, "depth must agree on every puzzle");
    // total and the mode-c step count depend on the cage-combination search order;
    // the ladder fixes it only in outline (see the issue note). Keep what we reach.
    assert!(
        ok_total * 100 >= all * 99,
        "total agrees on {ok_total} of {all}, below 99%"
    );
    assert!(
        ok_steps * 100 >= all * 38,
        "mode-c steps agree on {ok_steps} of {all}"
    );
}

/// Where the reference's step list may part from ours, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parting {
    /// The reference names the same cage set, with the same cuts, in another
    /// order; the steps after still agree.
    SameCagesOtherOrder,
    /// The reference takes another cage set first; the paths part, so the steps
    /// after are not compared.
    OtherCagesFirst,
}

/// The known partings: (line of reference-logs.ndjson, ladder step counted from 1
/// as below, how).
///
/// Every one is a cage comparison whose cage set, or the order its cages are named
/// in, follows from the order cage sets are searched in, which the ladder
/// gives only in outline ("sorted by their number of live combinations", without
/// saying when the list is sorted). Both name a set in the order of their list of
/// unsolved cages. Ours is sorted again after every step, and a level resumes
/// from the previous success's cages where they now stand; the logs fit a
/// reference that goes on through a level's sets in the list as it was sorted
/// some steps before:
///
/// * line 1084, step 14: the reference names cages 7 (28 live combinations) and
///   8 (26) as `7, 8`: the order from before step 10 cut cage 8 from 28 to 26;
/// * line 1320, step 24: it names cages 5 (6), 10 (10) and 20 (8) as `5, 10, 20`:
///   the order from before step 22 cut cage 20 from 12 to 8;
/// * line 1183, step 15: after step 12 (cages 25, 17) cut cage 17 from 8 to 2,
///   the reference goes on with cages 25, 8 (8 had 10 then), the next pair in
///   the older order; ours, with cage 17 now first in the list, finds 17, 14;
/// * the other `OtherCagesFirst` lines likewise take another set first. With
///   1183 they are the ten puzzles whose totals differ (see
///   `agreement_with_reference`); on line 1084 the totals still agree.
const PARTINGS: &[(usize, usize, Parting)] = &[
    (92, 10, Parting::OtherCagesFirst),
    (218, 25, Parting::OtherCagesFirst),
    (390, 10, Parting::OtherCagesFirst),
    (473, 20, Parting::OtherCagesFirst),
    (614, 26, Parting::OtherCagesFirst),
    (813, 42, Parting::OtherCagesFirst),
    (984, 17, Parting::OtherCagesFirst),
    (1084, 14, Parting::SameCagesOtherOrder),
    (1084, 20, Parting::OtherCagesFirst),
    (1161, 29, Parting::OtherCagesFirst),
    (1183, 15, Parting::OtherCagesFirst),
    (1320, 24, Parting::SameCagesOtherOrder),
    (1483, 18, Parting::OtherCagesFirst),
];

/// A cage comparison (`(4) Cage comparison: cages 8, 7 interact …`) as its cages
/// in the order named, and its rating and the rest of its text; `None` for another
/// technique.
fn cage_comparison(step: &str) -> Option<(Vec<u32>, (&str, &str))> {
    let (rating, rest) = step.split_once(" Cage comparison: cages ")?;
    let (cages, rest) = rest.split_once(" interact ")?;
    let cages = cages.split(", ").map(|c| c.parse().unwrap()).collect();
    Some((cages, (rating, rest)))
}

/// Every step of the reference's mode-n logs but the naked singles (the order of
/// propagation's placements is not part of the ladder), hidden singles included,
/// must read as ours, rating and text, in order, but for the partings above.
#[test]
fn step_texts_match_reference() {
    let f = std::fs::File::open(common::reference_file("reference-logs.ndjson")).unwrap();
    let mut used = Vec::new();
    let mut all_agree = 0;
    let mut puzzles = 0;
    for (i, l) in std::io::BufReader::new(f).lines().enumerate() {
        let line = i + 1;
        let v: serde_json::Value = serde_json::from_str(&l.unwrap()).unwrap();
        let id = v["puzzle"].as_str().unwrap();
        let theirs: Vec<String> = v["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[0].as_f64().unwrap(), e[1].as_str().unwrap()))
            .filter(|(_, t)| !t.starts_with("Naked single:"))
            .map(|(r, t)| format!("({r}) {t}"))
            .collect();
        let p = common::tatham(id);
        let grade = Grader::new(&p).unwrap().grade(Options::default(), false);
        let ours: Vec<String> = grade
            .steps
            .iter()
            .filter(|s| !s.is_propagation())
            .map(|s| format!("({}) {}", s.rating, s.text(p.size())))
            .collect();
        puzzles += 1;
        let mut agree = true;
        for k in 0..ours.len().max(theirs.len()) {
            let (mine, theirs) = (ours.get(k), theirs.get(k));
            if mine == theirs {
                continue;
            }
            agree = false;
            let step = k + 1;
            let parting = PARTINGS
                .iter()
                .find(|&&(l, s, _)| (l, s) == (line, step))
                .map(|&(_, _, how)| how);
            let show = |s: Option<&String>| s.map_or("(no step)", |s| s.as_str()).to_string();
            let (mine, theirs) = (show(mine), show(theirs));
            let context = format!(
                "reference-logs.ndjson line {line} ({id}), ladder step {step}:\n  ours: {mine}\n  ref:  {theirs}"
            );
            let Some(how) = parting else {
                panic!("step texts differ at {context}");
            };
            used.push((line, step));
            let (Some((ours_set, ours_rest)), Some((ref_set, ref_rest))) =
                (cage_comparison(&mine), cage_comparison(&theirs))
            else {
                panic!("a listed parting is not a cage comparison on both sides at {context}");
            };
            let sorted = |s: &[u32]| {
                let mut s = s.to_vec();
                s.sort_unstable();
                s
            };
            let same_cages = sorted(&ours_set) == sorted(&ref_set) && ours_rest == ref_rest;
            match how {
                Parting::SameCagesOtherOrder => {
                    assert!(
                        same_cages,
                        "expected the same cages in another order at {context}"
                    );
                }
                Parting::OtherCagesFirst => {
                    assert!(!same_cages, "expected another cage set at {context}");
                    break;
                }
            }
        }
        all_agree += usize::from(agree);
    }
    let unused: Vec<_> = PARTINGS
        .iter()
        .filter(|&&(l, s, _)| !used.contains(&(l, s)))
        .collect();
    assert!(
        unused.is_empty(),
        "these partings no longer happen; remove them: {unused:?}"
    );
    eprintln!("{all_agree} of {puzzles} puzzles: every step text agrees with the reference");
}
