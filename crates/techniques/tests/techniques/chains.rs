//! A cage comparison's chain replayed with nothing of the prover's but the
//! proof's own data (its assumed digits, its listed cages' `live` lists) and the
//! puzzle's lines: each `Forced` cage has exactly that option left, each `Empty`
//! cage none, each `Branch` has one case per option left, every case ends with an
//! `Empty`; and the text has one clause per entry, each saying what its entry
//! says (the cage, `must be (…)`, `has nothing left`, `could be (…) or (…)`, a
//! case's `if cage X is (…)`), or, for a chain longer than twelve entries, its
//! branch told as `a search over cages …: N cases, none fits`. A listed cage
//! with combinations cut by earlier steps (`cut`, none of them live) names those
//! steps (`narrowed_by`): each comes before the step and removed some of them,
//! between them they removed all, and the text says so in a sentence of its own
//! (`Earlier steps narrowed cage B2 (1−): (3, 2) went at step 12, …`).

use kenken_model::{CageId, CellId, Digit, Puzzle};
use kenken_techniques::labels;
use kenken_techniques::proof::{ChainEntry, CombinationProof};
use kenken_techniques::{Layout, Step};

/// The most entries a text tells one by one.
const MAX_TOLD: usize = 12;

/// What a proof's chain comes to: its entries, and whether it branches.
pub(super) struct Replayed {
    pub(super) branched: bool,
    /// The cases of the branch that ends the chain, if it ends in one.
    pub(super) cases: Option<usize>,
}

pub(super) fn check(
    layout: &Layout,
    steps: &[Step],
    k: usize,
    p: &CombinationProof,
) -> Result<Replayed, String> {
    let puzzle = layout.puzzle();
    check_narrowing(layout, steps, k, p)?;
    let fixed: Vec<(CellId, Digit)> = puzzle
        .cage(p.cage)
        .cells
        .iter()
        .copied()
        .zip(p.digits.iter().copied())
        .collect();
    replay(puzzle, p, &p.chain, fixed)?;
    check_text(puzzle, p)?;
    Ok(Replayed {
        cases: match p.chain.last() {
            Some(ChainEntry::Branch { cases, .. }) => Some(cases.len()),
            _ => None,
        },
        branched: p
            .chain
            .iter()
            .any(|e| matches!(e, ChainEntry::Branch { .. })),
    })
}

/// The options of a listed cage: its live combinations repeating no fixed digit
/// in a line.
fn options(
    puzzle: &Puzzle,
    p: &CombinationProof,
    cage: CageId,
    fixed: &[(CellId, Digit)],
) -> Result<Vec<Vec<Digit>>, String> {
    let Some(listed) = p.cages.iter().find(|c| c.cage == cage) else {
        return Err(format!("the chain names cage {cage}, not listed"));
    };
    let cells = &puzzle.cage(cage).cells;
    Ok(listed
        .live
        .iter()
        .filter(|row| {
            cells.iter().zip(row.iter()).all(|(&c, &d)| {
                fixed
                    .iter()
                    .all(|&(o, e)| e != d || o == c || !puzzle.sees(o, c))
            })
        })
        .cloned()
        .collect())
}

fn replay(
    puzzle: &Puzzle,
    p: &CombinationProof,
    chain: &[ChainEntry],
    mut fixed: Vec<(CellId, Digit)>,
) -> Result<(), String> {
    let Some(last) = chain.last() else {
        return Err("an empty chain".to_string());
    };
    if matches!(last, ChainEntry::Forced { .. }) {
        return Err("a chain that ends with a forced cage".to_string());
    }
    for (i, entry) in chain.iter().enumerate() {
        let cage = entry.cage();
        let left = options(puzzle, p, cage, &fixed)?;
        if i + 1 < chain.len() && !matches!(entry, ChainEntry::Forced { .. }) {
            return Err(format!("cage {cage}'s entry is not the chain's last"));
        }
        match entry {
            ChainEntry::Forced { digits, .. } => {
                if left != [digits.clone()] {
                    return Err(format!(
                        "cage {cage} is said forced to {digits:?} but has {left:?}"
                    ));
                }
                let cells = &puzzle.cage(cage).cells;
                fixed.extend(cells.iter().copied().zip(digits.iter().copied()));
            }
            ChainEntry::Empty { .. } => {
                if !left.is_empty() {
                    return Err(format!("cage {cage} is said empty but has {left:?}"));
                }
            }
            ChainEntry::Branch { cases, .. } => {
                let mut said: Vec<Vec<Digit>> = cases.iter().map(|c| c.digits.clone()).collect();
                let mut want = left.clone();
                said.sort();
                want.sort();
                if said != want || said.windows(2).any(|w| w[0] == w[1]) {
                    return Err(format!(
                        "cage {cage}'s cases {said:?} are not its options {want:?}"
                    ));
                }
                let cells = &puzzle.cage(cage).cells;
                for case in cases {
                    let mut with = fixed.clone();
                    with.extend(cells.iter().copied().zip(case.digits.iter().copied()));
                    replay(puzzle, p, &case.chain, with)?;
                }
            }
        }
    }
    Ok(())
}

/// `(1, 6)`.
fn tuple(digits: &[Digit]) -> String {
    let d: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    format!("({})", d.join(", "))
}

fn size(e: &ChainEntry) -> usize {
    match e {
        ChainEntry::Branch { cases, .. } => {
            1 + cases
                .iter()
                .map(|c| c.chain.iter().map(size).sum::<usize>())
                .sum::<usize>()
        }
        _ => 1,
    }
}

fn leaves(e: &ChainEntry) -> usize {
    match e {
        ChainEntry::Branch { cases, .. } => {
            cases.iter().map(|c| c.chain.last().map_or(0, leaves)).sum()
        }
        _ => 1,
    }
}

fn cages_of(e: &ChainEntry, out: &mut Vec<CageId>) {
    out.push(e.cage());
    if let ChainEntry::Branch { cases, .. } = e {
        for case in cases {
            for e in &case.chain {
                cages_of(e, out);
            }
        }
    }
}

/// The sentence that says an earlier step narrowed a listed cage.
const NARROWED: &str = " Earlier steps narrowed ";

fn check_narrowing(
    layout: &Layout,
    steps: &[Step],
    k: usize,
    p: &CombinationProof,
) -> Result<(), String> {
    let puzzle = layout.puzzle();
    let said: Vec<&str> = p.text.split(NARROWED).skip(1).collect();
    let narrowed: Vec<_> = p.cages.iter().filter(|c| !c.cut.is_empty()).collect();
    if said.len() != narrowed.len() {
        return Err(format!(
            "{} narrowed cages, {} sentences: {}",
            narrowed.len(),
            said.len(),
            p.text
        ));
    }
    for (listed, sentence) in narrowed.iter().zip(said) {
        let cage = listed.cage;
        if listed.cut.iter().any(|c| listed.live.contains(c)) {
            return Err(format!("cage {cage}'s cut combinations are live"));
        }
        let mut covered = vec![false; listed.cut.len()];
        for &j in &listed.narrowed_by {
            if j >= k {
                return Err(format!(
                    "cage {cage} narrowed by step {}, not earlier",
                    j + 1
                ));
            }
            let mut removed_some = false;
            for cut in steps[j].cuts.iter().filter(|c| c.cage == cage) {
                for &i in &cut.removed {
                    let row = layout.combination(cage, i as usize);
                    for (m, c) in listed.cut.iter().enumerate() {
                        if c.as_slice() == row {
                            covered[m] = true;
                            removed_some = true;
                        }
                    }
                }
            }
            if !removed_some {
                return Err(format!(
                    "step {} removed none of cage {cage}'s cut combinations",
                    j + 1
                ));
            }
        }
        if covered.contains(&false) {
            return Err(format!(
                "cage {cage}'s cut combinations are not all removed by steps {:?}",
                listed.narrowed_by
            ));
        }
        let name = format!("{} (", labels::cage(puzzle, cage));
        let numbers = listed.narrowed_by.iter().all(|j| {
            sentence
                .split(|ch: char| !ch.is_ascii_digit())
                .any(|w| w == (j + 1).to_string())
        });
        if !sentence.starts_with(&name) || !numbers {
            return Err(format!(
                "`{sentence}` does not name cage {cage} and steps {:?}",
                listed.narrowed_by
            ));
        }
    }
    Ok(())
}

fn check_text(puzzle: &Puzzle, p: &CombinationProof) -> Result<(), String> {
    let text = p.text.split(NARROWED).next().unwrap_or_default();
    let text = text.strip_suffix('.').ok_or("a text without a full stop")?;
    let clauses: Vec<&str> = text.split(". ").flat_map(|s| s.split("; ")).collect();
    let opening = format!(
        "If {} were ",
        labels::cells(puzzle.size(), &puzzle.cage(p.cage).cells)
    );
    if !clauses[0].starts_with(&opening) {
        return Err(format!(
            "the text does not open with the assumption: {text}"
        ));
    }
    if let ([ChainEntry::Empty { cage }], [_]) = (p.chain.as_slice(), p.cages.as_slice()) {
        let name = format!("{} (", labels::cage(puzzle, *cage));
        let ok = clauses.len() == 1
            && clauses[0].contains(&name)
            && (clauses[0].contains("could only be") || clauses[0].contains("would repeat"));
        return if ok {
            Ok(())
        } else {
            Err(format!("a one-cage text that does not say so: {text}"))
        };
    }
    let long = p.chain.iter().map(size).sum::<usize>() > MAX_TOLD;
    let mut at = 0;
    match_chain(puzzle, &p.chain, &clauses, &mut at, None, long)
        .map_err(|e| format!("{e}: {text}"))?;
    if at != clauses.len() {
        return Err(format!(
            "{} clauses for {at} entries: {text}",
            clauses.len()
        ));
    }
    Ok(())
}

/// Matches the clauses from `at` against `chain`, a case's first clause opening
/// with `lead`.
fn match_chain(
    puzzle: &Puzzle,
    chain: &[ChainEntry],
    clauses: &[&str],
    at: &mut usize,
    mut lead: Option<String>,
    long: bool,
) -> Result<(), String> {
    for entry in chain {
        let Some(&clause) = clauses.get(*at) else {
            return Err("fewer clauses than entries".to_string());
        };
        *at += 1;
        let clause = match lead.take() {
            Some(lead) => clause
                .strip_prefix(&lead)
                .or_else(|| clause.strip_prefix(&capital(&lead)))
                .ok_or_else(|| format!("a case's clause `{clause}` does not open `{lead}`"))?,
            None => clause,
        };
        let name = format!("{} (", labels::cage(puzzle, entry.cage()));
        let says = |words: &str| clause.contains(&name) && clause.contains(words);
        match entry {
            ChainEntry::Forced { digits, .. } => {
                if !says(&format!("must be {}", tuple(digits))) {
                    return Err(format!("`{clause}` does not say cage forced"));
                }
            }
            ChainEntry::Empty { .. } => {
                if !says("has nothing left") {
                    return Err(format!("`{clause}` does not say the cage is empty"));
                }
            }
            ChainEntry::Branch { .. } if long => {
                let mut cages = Vec::new();
                cages_of(entry, &mut cages);
                let named = cages.iter().all(|&c| {
                    let anchor = labels::cell(puzzle.size(), puzzle.cage(c).anchor());
                    clause.contains(&anchor)
                });
                let search = format!(": {} cases, none fits", leaves(entry));
                if !(clause.contains("a search over") && clause.ends_with(&search) && named) {
                    return Err(format!("`{clause}` does not tell the search"));
                }
            }
            ChainEntry::Branch { cage, cases } => {
                let options: Vec<String> = cases.iter().map(|c| tuple(&c.digits)).collect();
                if !says("could be ") || !options.iter().all(|o| clause.contains(o.as_str())) {
                    return Err(format!("`{clause}` does not list the cases"));
                }
                for case in cases {
                    let lead = format!(
                        "if {} is {}, ",
                        labels::cage(puzzle, *cage),
                        tuple(&case.digits)
                    );
                    match_chain(puzzle, &case.chain, clauses, at, Some(lead), false)?;
                }
            }
        }
    }
    Ok(())
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A log that lists only some steps renumbers the steps a proof names: named
/// as that log numbers them, and a step it leaves out said as such.
#[test]
fn narrowing_is_renumbered_for_a_log_that_lists_some_steps() {
    // `puzzles/generated-rare.json` #8: step 17 leans on combinations cut at
    // steps 6, 8, 10, 12, 15 and 16 of the whole log.
    let puzzle =
        crate::common::tatham("6:_3b_4a_3a_b_4a_3a__b_a5_aa_b_b,s3s2a6a14s1m24s1s1a1a9a18s1d3s1s2");
    let grader = kenken_techniques::Grader::new(&puzzle).expect("grader");
    let grade = grader.grade(kenken_techniques::Options::default(), false);
    let layout = grader.layout();
    let step = &grade.steps[16];
    let narrowed = |step: &Step| -> Vec<(Vec<usize>, String)> {
        step.proofs
            .iter()
            .filter_map(|p| match p {
                kenken_techniques::proof::Proof::Combination(p) => Some(p),
                _ => None,
            })
            .flat_map(|p| {
                p.cages
                    .iter()
                    .filter(|c| !c.cut.is_empty())
                    .map(|c| (c.narrowed_by.clone(), p.text.clone()))
            })
            .collect()
    };
    let before = narrowed(step);
    assert!(!before.is_empty());
    // Numbered the same: the same texts.
    let mut same = step.clone();
    same.renumber_narrowing(layout, Some);
    assert_eq!(narrowed(&same), before);
    // Each step one later: the texts say so.
    let mut later = step.clone();
    later.renumber_narrowing(layout, |i| Some(i + 1));
    for ((old, _), (new, text)) in before.iter().zip(narrowed(&later)) {
        let shifted: Vec<usize> = old.iter().map(|i| i + 1).collect();
        assert_eq!(new, shifted);
        let said = text.split(NARROWED).skip(1).collect::<String>();
        for n in &new {
            assert!(
                said.split(|c: char| !c.is_ascii_digit())
                    .any(|w| w == (n + 1).to_string()),
                "{text}"
            );
        }
    }
    // Left out: said so, no number.
    let mut unlisted = step.clone();
    unlisted.renumber_narrowing(layout, |_| None);
    for (new, text) in narrowed(&unlisted) {
        assert!(new.is_empty());
        assert!(
            text.contains("at an earlier step this log leaves out"),
            "{text}"
        );
    }
}
