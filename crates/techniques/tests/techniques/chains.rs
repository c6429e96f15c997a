//! A cage comparison's chain replayed with nothing of the prover's but the
//! proof's own data (its assumed digits, its listed cages' `live` lists) and the
//! puzzle's lines: each `Forced` cage has exactly that option left, each `Empty`
//! cage none, each `Branch` has one case per option left, every case ends with an
//! `Empty`; and the text has one clause per entry, each saying what its entry
//! says (the cage, `must be (…)`, `has nothing left`, `could be (…) or (…)`, a
//! case's `if cage X is (…)`), or, for a chain longer than twelve entries, its
//! branch told as `a search over cages …: N cases, none fits`.

use kenken_model::{CageId, CellId, Digit, Puzzle};
use kenken_techniques::labels;
use kenken_techniques::proof::{ChainEntry, CombinationProof};

/// The most entries a text tells one by one.
const MAX_TOLD: usize = 12;

/// What a proof's chain comes to: its entries, and whether it branches.
pub(super) struct Replayed {
    pub(super) branched: bool,
}

pub(super) fn check(puzzle: &Puzzle, p: &CombinationProof) -> Result<Replayed, String> {
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

fn check_text(puzzle: &Puzzle, p: &CombinationProof) -> Result<(), String> {
    let text = p
        .text
        .strip_suffix('.')
        .ok_or("a text without a full stop")?;
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
