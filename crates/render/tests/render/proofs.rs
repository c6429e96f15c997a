//! Pictures of proofs, on real corpus steps (every 4×4 to 6×6 of
//! `puzzles/generated-rare.json`): every cage comparison's picture draws each
//! forced cage's digits (on the grid, and in a line naming the cage and its
//! digits), its cage left with nothing, a branch of at most four cases as one
//! panel per case (each panel with its case's digits and its own forced digits)
//! and a longer branch as a line, and each cut combination the proof leans on
//! with the steps that cut it; a region proof's picture keys every unknown part
//! with what it can make.

use super::{matches_fixture, read};
use kenken_model::{Budget, CellId, Digit, Puzzle};
use kenken_render::{proof_lines, Picture, PANELS_AT_MOST};
use kenken_techniques::labels;
use kenken_techniques::position::{Shown, Walk};
use kenken_techniques::proof::{ChainEntry, CombinationProof, Known, Proof};
use kenken_techniques::{Grader, Layout, Options};

/// The fill of a forced digit's square.
const FORCED: &str = "rx=\"";

const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../puzzles/generated-rare.json"
);

fn corpus(number: usize) -> Puzzle {
    let text = std::fs::read_to_string(CORPUS).expect("the corpus");
    let list: Vec<String> = serde_like_list(&text);
    read(&list[number - 1])
}

/// The strings of a JSON list of strings (the corpus file's shape).
fn serde_like_list(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Every proof of every step of the puzzle's log: the step's number (from 1),
/// the grid before it, the proof.
fn proofs(puzzle: &Puzzle) -> (Grader, Vec<(usize, Vec<Shown>, Proof)>) {
    let grader = Grader::new(puzzle).expect("grader");
    let walk = Walk::from_start(&grader, Options::default(), Budget::unlimited());
    let mut all = Vec::new();
    for (i, frame) in walk.into_iter().enumerate() {
        for proof in &frame.step.proofs {
            all.push((i + 1, frame.before.clone(), proof.clone()));
        }
    }
    (grader, all)
}

/// The part of an SVG before its first panel, and each panel's part.
fn split_panels(svg: &str) -> (&str, Vec<&str>) {
    let mut parts = svg.split("<g data-panel=\"");
    let main = parts.next().unwrap_or_default();
    (main, parts.collect())
}

/// The digits a chain's forced entries put on candidates (its top level only).
fn forced_on_candidates(
    layout: &Layout,
    before: &[Shown],
    chain: &[ChainEntry],
) -> Vec<(CellId, Digit)> {
    chain
        .iter()
        .filter_map(|e| match e {
            ChainEntry::Forced { cage, digits } => Some((cage, digits)),
            _ => None,
        })
        .flat_map(|(cage, digits)| {
            layout
                .cage_cells(*cage)
                .iter()
                .copied()
                .zip(digits.iter().copied())
        })
        .filter(|(cell, _)| matches!(before[cell.index()], Shown::Candidates(_)))
        .collect()
}

fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What the picture of one cage comparison must show; the counts it found.
fn check_combination(
    puzzle: &Puzzle,
    layout: &Layout,
    step: usize,
    before: &[Shown],
    p: &CombinationProof,
    counts: &mut Counts,
) {
    let proof = Proof::Combination(p.clone());
    let svg = Picture::new(puzzle)
        .cells(before.to_vec())
        .unwrap()
        .proof(&proof, layout)
        .svg();
    let lines = proof_lines(puzzle, &proof, layout);
    for line in &lines {
        assert!(
            svg.contains(&format!("data-text=\"{}\"", attribute(line))),
            "step {step}: the line `{line}` is not drawn"
        );
    }
    let (main, panels) = split_panels(&svg);
    let said = |what: &str| lines.iter().any(|l| l.contains(what));
    // Every forced cage: a line with its name and digits, its digits on squares.
    for entry in &p.chain {
        if let ChainEntry::Forced { cage, digits } = entry {
            let name = labels::cage(puzzle, *cage);
            let claim = format!("must be {}", labels::tuple(digits));
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(&name[5..]) && l.contains(&claim)),
                "step {step}: forced {name} {claim} not said: {lines:?}"
            );
            counts.forced += 1;
        }
    }
    let forced = forced_on_candidates(layout, before, &p.chain);
    assert_eq!(
        main.matches(FORCED).count(),
        forced.len(),
        "step {step}: forced digits drawn on the grid"
    );
    match p.chain.last() {
        Some(ChainEntry::Empty { cage }) => {
            assert!(
                main.contains("stroke-dasharray"),
                "step {step}: emptied cage"
            );
            let name = labels::cage(puzzle, *cage);
            assert!(said(&format!("{} (", &name[5..])) && said("has nothing left"));
            assert!(panels.is_empty());
        }
        Some(ChainEntry::Branch { cage, cases }) if cases.len() <= PANELS_AT_MOST => {
            counts.panelled += 1;
            assert_eq!(panels.len(), cases.len(), "step {step}: one panel per case");
            for (k, (case, panel)) in cases.iter().zip(&panels).enumerate() {
                let title = format!(
                    "Case {} of {}: {} is {}",
                    k + 1,
                    cases.len(),
                    labels::cage(puzzle, *cage),
                    labels::tuple(&case.digits)
                );
                assert!(panel.contains(&attribute(&title)), "step {step}: {title}");
                // The forced digits above the branch and the case's own.
                let mut all = forced.clone();
                all.extend(forced_on_candidates(layout, before, &case.chain));
                all.sort();
                all.dedup();
                assert_eq!(
                    panel.matches(FORCED).count(),
                    all.len(),
                    "step {step}, case {}: forced digits",
                    k + 1
                );
                if matches!(case.chain.last(), Some(ChainEntry::Empty { .. })) {
                    assert!(panel.contains("stroke-dasharray"), "step {step}: emptied");
                }
            }
        }
        Some(ChainEntry::Branch { cases, .. }) => {
            counts.too_many += 1;
            assert!(panels.is_empty(), "step {step}: no panels past four cases");
            assert!(
                said(&format!(
                    "{} cases, more than the {PANELS_AT_MOST} drawn as panels",
                    cases.len()
                )),
                "step {step}: {lines:?}"
            );
        }
        _ => panic!("step {step}: a chain that does not end"),
    }
    // Every cut combination the proof leans on, with the steps that cut it.
    for listed in p.cages.iter().filter(|c| !c.cut.is_empty()) {
        counts.narrowed += 1;
        let name = labels::capitalised(&labels::cage(puzzle, listed.cage));
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{name} (")) && l.contains(" out "))
            .unwrap_or_else(|| panic!("step {step}: no cut line for {name}: {lines:?}"));
        if listed.cut.len() <= 4 {
            for cut in &listed.cut {
                assert!(line.contains(&labels::tuple(cut)), "{line}");
            }
        }
        for &s in &listed.narrowed_by {
            assert!(
                line.split(|c: char| !c.is_ascii_digit())
                    .any(|w| w == (s + 1).to_string()),
                "step {step}: {line} does not name step {}",
                s + 1
            );
        }
    }
}

#[derive(Default, Debug)]
struct Counts {
    proofs: usize,
    forced: usize,
    panelled: usize,
    too_many: usize,
    narrowed: usize,
}

#[test]
fn a_cage_comparison_is_drawn_whole() {
    let mut counts = Counts::default();
    // Every 4×4 to 6×6 of the file (#8 and #19 among them).
    let text = std::fs::read_to_string(CORPUS).expect("the corpus");
    let small: Vec<usize> = serde_like_list(&text)
        .iter()
        .enumerate()
        .filter(|(_, p)| ["4:", "5:", "6:"].iter().any(|s| p.starts_with(s)))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(small.contains(&8) && small.contains(&19));
    for number in small {
        let puzzle = corpus(number);
        let (grader, all) = proofs(&puzzle);
        for (step, before, proof) in &all {
            if let Proof::Combination(p) = proof {
                counts.proofs += 1;
                check_combination(&puzzle, grader.layout(), *step, before, p, &mut counts);
            }
        }
    }
    eprintln!("proof pictures: {counts:?}");
    // Each kind of picture was met.
    assert!(counts.forced > 0, "{counts:?}");
    assert!(counts.panelled > 0, "{counts:?}");
    assert!(counts.too_many > 0, "{counts:?}");
    assert!(counts.narrowed > 0, "{counts:?}");
}

#[test]
fn a_region_proof_keys_its_unknown_parts() {
    let puzzle = corpus(8);
    let (grader, all) = proofs(&puzzle);
    let mut seen = 0;
    for (step, before, proof) in &all {
        let Proof::Region(p) = proof else { continue };
        seen += 1;
        let svg = Picture::new(&puzzle)
            .cells(before.clone())
            .unwrap()
            .proof(proof, grader.layout())
            .svg();
        let lines = proof_lines(&puzzle, proof, grader.layout());
        for (i, part) in p.parts.iter().enumerate() {
            let key = char::from(b'a' + i as u8);
            let cells = labels::cells(puzzle.size(), &part.cells);
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("{key}: ")) && l.contains(&cells))
                .unwrap_or_else(|| panic!("step {step}: part {key}: {lines:?}"));
            for total in &part.totals {
                let said = match total {
                    Known::Total(t) => t.to_string(),
                    Known::Parity(odd) => labels::parity(*odd).to_string(),
                };
                assert!(line.contains(&said), "step {step}: {line}");
            }
            assert!(svg.contains(&format!("data-text=\"{}\"", attribute(line))));
        }
    }
    assert!(seen > 0);
}

#[test]
fn a_proof_with_panels_matches_its_fixture() {
    let puzzle = corpus(8);
    let (grader, all) = proofs(&puzzle);
    // Its second proof: a forced cage, then a branch of two cases.
    let (_, before, proof) = all
        .iter()
        .filter(|(step, _, _)| *step == 17)
        .nth(1)
        .expect("step 17 has two proofs");
    let png = Picture::new(&puzzle)
        .cells(before.clone())
        .unwrap()
        .proof(proof, grader.layout())
        .title("Step 17, proof 2")
        .note(proof.text())
        .png(1.0)
        .unwrap();
    matches_fixture("proof-panels-6x6.png", &png);
}
