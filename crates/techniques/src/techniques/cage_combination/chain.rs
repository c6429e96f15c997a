//! A cage comparison's chain: how the fewest cages run out of room once a
//! combination is assumed, as claims a person can check one by one, and the
//! proof's text, written from the chain clause by clause.
//!
//! The chain is unit propagation: a cage with no option left ends it; a cage with
//! one option left is forced and its digits are fixed; when neither holds, it
//! branches on the open cage with the fewest options, one case per option, each
//! case going on the same way. As the cages have no clash-free choice between
//! them, every case ends with a cage that has nothing left.

use super::proof::Other;
use crate::explain::{capitalised, or_words};
use crate::labels::{self, and_list, tuple};
use crate::proof::{Case, ChainEntry, CombinationProof};
use crate::Layout;
use kenken_model::{Budget, CageId, CellId, Digit, Exhausted, Puzzle};

/// The chain of the cages `others` with `assumed` fixed.
pub(super) fn build(
    layout: &Layout,
    others: &[&Other],
    assumed: &[(CellId, Digit)],
    budget: &mut Budget,
) -> Result<Vec<ChainEntry>, Exhausted> {
    let domains: Vec<Vec<usize>> = others
        .iter()
        .map(|o| o.compatible(layout, assumed))
        .collect();
    let built = Builder { layout, others }.unfold(
        assumed.to_vec(),
        domains,
        vec![false; others.len()],
        budget,
    )?;
    Ok(built)
}

struct Builder<'a> {
    layout: &'a Layout,
    others: &'a [&'a Other],
}

impl Builder<'_> {
    fn unfold(
        &self,
        mut fixed: Vec<(CellId, Digit)>,
        mut domains: Vec<Vec<usize>>,
        mut taken: Vec<bool>,
        budget: &mut Budget,
    ) -> Result<Vec<ChainEntry>, Exhausted> {
        let mut chain = Vec::new();
        loop {
            budget.spend(domains.len() as u64)?;
            let open = |k: &usize| !taken[*k];
            if let Some(k) = (0..self.others.len())
                .filter(open)
                .find(|&k| domains[k].is_empty())
            {
                chain.push(ChainEntry::Empty {
                    cage: self.others[k].cage,
                });
                return Ok(chain);
            }
            if let Some(k) = (0..self.others.len())
                .filter(open)
                .find(|&k| domains[k].len() == 1)
            {
                let j = domains[k][0];
                chain.push(ChainEntry::Forced {
                    cage: self.others[k].cage,
                    digits: self.digits(k, j).to_vec(),
                });
                taken[k] = true;
                self.fix(&mut fixed, &mut domains, &taken, k, j, budget)?;
                continue;
            }
            let Some(k) = (0..self.others.len())
                .filter(open)
                .min_by_key(|&k| domains[k].len())
            else {
                // Every cage took a combination without a clash: cannot happen for
                // cages that leave the assumption no room; the chain just ends.
                return Ok(chain);
            };
            let mut cases = Vec::new();
            for &j in &domains[k] {
                let mut with = fixed.clone();
                let mut sub = domains.clone();
                let mut sub_taken = taken.clone();
                sub_taken[k] = true;
                self.fix(&mut with, &mut sub, &sub_taken, k, j, budget)?;
                cases.push(Case {
                    digits: self.digits(k, j).to_vec(),
                    chain: self.unfold(with, sub, sub_taken, budget)?,
                });
            }
            chain.push(ChainEntry::Branch {
                cage: self.others[k].cage,
                cases,
            });
            return Ok(chain);
        }
    }

    fn digits(&self, k: usize, j: usize) -> &[Digit] {
        let o = self.others[k];
        self.layout.combination(o.cage, o.live[j])
    }

    /// Fixes option `j` of cage `k` and drops what clashes with it from the open
    /// cages' options.
    fn fix(
        &self,
        fixed: &mut Vec<(CellId, Digit)>,
        domains: &mut [Vec<usize>],
        taken: &[bool],
        k: usize,
        j: usize,
        budget: &mut Budget,
    ) -> Result<(), Exhausted> {
        let o = self.others[k];
        fixed.extend(
            o.cells
                .iter()
                .copied()
                .zip(self.digits(k, j).iter().copied()),
        );
        for (m, domain) in domains.iter_mut().enumerate() {
            if !taken[m] {
                budget.spend(domain.len() as u64)?;
                domain.retain(|&i| self.others[m].clash(self.layout, i, fixed).is_none());
            }
        }
        Ok(())
    }
}

/// The most entries a text tells one by one; a longer chain's first branch is
/// told as the search it is.
pub(crate) const MAX_TOLD: usize = 12;

/// The most combinations a text lists one by one with what each repeats; past
/// it, it says what they repeat between them.
const LISTED: usize = 6;

/// The text of a proof, clause by clause from its chain: the clauses are
/// separated by `. ` or `; `, one per entry in the order the chain lists them
/// (a branch's clause, then its cases' clauses, each case's first clause
/// opening with `if cage X is (…)`), except that a chain longer than
/// [`MAX_TOLD`] entries tells its branch as one clause, `a search over cages
/// …: N cases, none fits`.
pub(super) fn tell(
    layout: &Layout,
    others: &[&Other],
    cage: CageId,
    digits: &[Digit],
    chain: &[ChainEntry],
) -> String {
    let puzzle = layout.puzzle();
    let cells = layout.cage_cells(cage);
    let fixed: Vec<(CellId, Digit)> = cells.iter().copied().zip(digits.iter().copied()).collect();
    let opening = format!(
        "If {} were {}",
        labels::cells(puzzle.size(), cells),
        digit_list(digits)
    );
    let mut teller = Teller {
        layout,
        others,
        named: vec![false; others.len()],
        short: chain.iter().map(ChainEntry::size).sum::<usize>() > MAX_TOLD,
    };
    if let [ChainEntry::Empty { cage: only }] = chain {
        if let Some(k) = teller.index(*only) {
            return teller.only_cage(&opening, k, &fixed);
        }
    }
    let mut sentences: Vec<String> = Vec::new();
    teller.chain(chain, fixed, None, &mut sentences, true);
    let sentences: Vec<String> = sentences
        .into_iter()
        .enumerate()
        .map(|(i, s)| if i == 0 { s } else { capitalised(&s) })
        .collect();
    let mut text = format!("{opening}, {}", sentences.join(". "));
    text.push('.');
    text
}

struct Teller<'a> {
    layout: &'a Layout,
    others: &'a [&'a Other],
    /// Whether each cage was named already (its clue and cells are said once).
    named: Vec<bool>,
    /// Whether the chain's branch is told as a search.
    short: bool,
}

impl Teller<'_> {
    fn puzzle(&self) -> &Puzzle {
        self.layout.puzzle()
    }

    fn index(&self, cage: CageId) -> Option<usize> {
        self.others.iter().position(|o| o.cage == cage)
    }

    /// `cage A1 (18×)` the first time, `cage A1 (18×)` or `cage A1 (10?)` after.
    fn name(&mut self, k: usize) -> String {
        let cage = self.others[k].cage;
        if std::mem::replace(&mut self.named[k], true) {
            labels::cage_with_short_clue(self.puzzle(), cage)
        } else {
            labels::cage_with_clue(self.puzzle(), cage)
        }
    }

    /// ` for A1, A2` when the cage's cells are not said yet (with its name).
    fn cells_once(&self, k: usize, first: bool) -> String {
        if first {
            format!(
                " for {}",
                labels::cells(self.puzzle().size(), &self.others[k].cells)
            )
        } else {
            String::new()
        }
    }

    /// `If A5, A6, A7 were 1, 6, 9, cage A1 (18×) could only be (2, 9) or (9, 2)
    /// for A1, A2, and each repeats the 9 in row A.`
    fn only_cage(&mut self, opening: &str, k: usize, fixed: &[(CellId, Digit)]) -> String {
        let only = self.others[k];
        let all: Vec<usize> = (0..only.live.len()).collect();
        let name = self.name(k);
        let cells = self.cells_once(k, true);
        if all.len() > LISTED {
            return format!(
                "{opening}, each of the {} combinations still possible for {name}{cells} \
                 would repeat {}.",
                all.len(),
                self.repeated(only, &all, fixed)
            );
        }
        format!(
            "{opening}, {name} could only be {}{cells}, and {} repeats {}.",
            self.combinations(only, &all),
            if all.len() == 1 { "it" } else { "each" },
            self.repeated(only, &all, fixed)
        )
    }

    /// The clauses of a chain, in order. Top-level entries are sentences; within
    /// a case, clauses are joined by `; `, the first opening with `prefix`.
    fn chain(
        &mut self,
        chain: &[ChainEntry],
        mut fixed: Vec<(CellId, Digit)>,
        mut prefix: Option<String>,
        out: &mut Vec<String>,
        top: bool,
    ) {
        let mut clauses: Vec<String> = Vec::new();
        for (i, entry) in chain.iter().enumerate() {
            let Some(k) = self.index(entry.cage()) else {
                continue;
            };
            let then = if top && i > 0 { "then " } else { "" };
            let lead = prefix.take().unwrap_or_default();
            match entry {
                ChainEntry::Empty { .. } => {
                    let first = !self.named[k];
                    let name = self.name(k);
                    let all: Vec<usize> = (0..self.others[k].live.len()).collect();
                    let cells = self.cells_once(k, first);
                    clauses.push(format!(
                        "{lead}{then}{name} has nothing left{cells}: {}",
                        self.each_clash(self.others[k], &all, &fixed)
                    ));
                }
                ChainEntry::Forced { digits, .. } => {
                    let first = !self.named[k];
                    let name = self.name(k);
                    let cage = self.others[k];
                    let j = (0..cage.live.len())
                        .find(|&j| self.layout.combination(cage.cage, cage.live[j]) == digits)
                        .unwrap_or(0);
                    let rest: Vec<usize> = (0..cage.live.len()).filter(|&i| i != j).collect();
                    let reason = self.others_repeat(cage, &rest, &fixed);
                    clauses.push(format!(
                        "{lead}{then}{name} must be ({}){}{reason}",
                        digit_list(digits),
                        self.cells_once(k, first)
                    ));
                    fixed.extend(cage.cells.iter().copied().zip(digits.iter().copied()));
                }
                ChainEntry::Branch { .. } if self.short && top => {
                    let mut cages: Vec<CageId> = Vec::new();
                    collect_cages(entry, &mut cages);
                    cages.sort_unstable();
                    cages.dedup();
                    clauses.push(format!(
                        "{lead}{then}a search over {}: {} cases, none fits",
                        labels::cages_in_sentence(self.puzzle(), &cages),
                        entry.leaves()
                    ));
                }
                ChainEntry::Branch { cases, .. } => {
                    let first = !self.named[k];
                    let name = self.name(k);
                    let cage = self.others[k];
                    let options: Vec<String> = cases.iter().map(|c| tuple(&c.digits)).collect();
                    let rest: Vec<usize> = (0..cage.live.len())
                        .filter(|&i| {
                            let row = self.layout.combination(cage.cage, cage.live[i]);
                            !cases.iter().any(|c| c.digits == row)
                        })
                        .collect();
                    let reason = self.others_repeat(cage, &rest, &fixed);
                    clauses.push(format!(
                        "{lead}{then}{name} could be {}{}{reason}",
                        or_words(options),
                        self.cells_once(k, first)
                    ));
                    let short = labels::cage(self.puzzle(), cage.cage);
                    let mut told: Vec<String> = Vec::new();
                    for case in cases {
                        let mut with = fixed.clone();
                        with.extend(cage.cells.iter().copied().zip(case.digits.iter().copied()));
                        let lead = format!("if {short} is ({}), ", digit_list(&case.digits));
                        self.chain(&case.chain, with, Some(lead), &mut told, false);
                    }
                    if top {
                        out.append(&mut clauses);
                        out.extend(told);
                        return;
                    }
                    clauses.extend(told);
                }
            }
        }
        if top {
            out.extend(clauses);
        } else {
            out.push(clauses.join("; "));
        }
    }

    /// One combination of a cage: `(2, 9)`.
    fn combination(&self, cage: &Other, k: usize) -> String {
        tuple(self.layout.combination(cage.cage, cage.live[k]))
    }

    /// Combinations as a group: `(2, 6) or (6, 2)`.
    fn combinations(&self, cage: &Other, ks: &[usize]) -> String {
        or_words(ks.iter().map(|&k| self.combination(cage, k)).collect())
    }

    /// Why the cage's combinations `rest` are out: `, as its other combination(s)
    /// repeat …` (nothing when there are none).
    fn others_repeat(&self, cage: &Other, rest: &[usize], fixed: &[(CellId, Digit)]) -> String {
        match rest.len() {
            0 => String::new(),
            1 => format!(
                ", as its other combination repeats {}",
                self.repeated(cage, rest, fixed)
            ),
            _ => format!(
                ", as its other combinations repeat {}",
                self.repeated(cage, rest, fixed)
            ),
        }
    }

    /// What the combinations `ks` repeat: `the 9 or the 6 in row A`, `the 9 in row A
    /// or the 6 in column 3`.
    fn repeated(&self, cage: &Other, ks: &[usize], fixed: &[(CellId, Digit)]) -> String {
        let mut by_region: Vec<(usize, Vec<Digit>)> = Vec::new();
        for &k in ks {
            let Some((_, d, r)) = cage.clash(self.layout, k, fixed) else {
                continue;
            };
            match by_region.iter_mut().find(|(region, _)| *region == r) {
                Some((_, digits)) if !digits.contains(&d) => digits.push(d),
                Some(_) => {}
                None => by_region.push((r, vec![d])),
            }
        }
        let parts: Vec<String> = by_region
            .iter()
            .map(|(r, digits)| {
                let the: Vec<String> = digits.iter().map(|d| format!("the {d}")).collect();
                format!(
                    "{} in {}",
                    or_words(the),
                    labels::region(self.layout.regions()[*r].kind)
                )
            })
            .collect();
        or_words(parts)
    }

    /// Each combination with what it repeats, grouped: `(2, 4) and (4, 2) repeat the
    /// 4 in row C, (3, 6) the 6 in column 2`; or, past [`LISTED`] combinations,
    /// `each of its 48 combinations repeats the 1 or the 2 in row A`.
    fn each_clash(&self, cage: &Other, ks: &[usize], fixed: &[(CellId, Digit)]) -> String {
        if ks.len() > LISTED {
            return format!(
                "each of its {} combinations repeats {}",
                ks.len(),
                self.repeated(cage, ks, fixed)
            );
        }
        let mut groups: Vec<((usize, Digit), Vec<usize>)> = Vec::new();
        for &k in ks {
            let Some((_, d, r)) = cage.clash(self.layout, k, fixed) else {
                continue;
            };
            match groups.iter_mut().find(|(key, _)| *key == (r, d)) {
                Some((_, members)) => members.push(k),
                None => groups.push(((r, d), vec![k])),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .enumerate()
            .map(|(i, ((r, d), members))| {
                let combos = and_list(members.iter().map(|&k| self.combination(cage, k)).collect());
                let verb = match (i, members.len()) {
                    (0, 1) => "repeats ",
                    (0, _) => "repeat ",
                    _ => "",
                };
                format!(
                    "{combos} {verb}the {d} in {}",
                    labels::region(self.layout.regions()[*r].kind)
                )
            })
            .collect();
        parts.join(", ")
    }
}

/// Every cage a branch's cases name.
fn collect_cages(entry: &ChainEntry, out: &mut Vec<CageId>) {
    out.push(entry.cage());
    if let ChainEntry::Branch { cases, .. } = entry {
        for case in cases {
            for e in &case.chain {
                collect_cages(e, out);
            }
        }
    }
}

/// `1, 6, 9`.
fn digit_list(digits: &[Digit]) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The most cut combinations a narrowing sentence lists one by one.
const CUT_LISTED: usize = 4;

/// Writes after a proof's chain text, for each listed cage that earlier steps
/// narrowed, a sentence saying which of its combinations the candidates still
/// allow went, and at which steps (`narrowed_by`, numbered from 1): `Earlier
/// steps narrowed cage B2 (1−): (3, 2) went at step 12, though the candidates
/// allow it.` Steps a log leaves out are said as such.
pub(crate) fn narrowing_words(layout: &Layout, proof: &mut CombinationProof) {
    let puzzle = layout.puzzle();
    proof.text.truncate(proof.chain_text_len);
    for listed in &proof.cages {
        if listed.cut.is_empty() {
            continue;
        }
        let what = if listed.cut.len() <= CUT_LISTED {
            and_list(listed.cut.iter().map(|c| tuple(c)).collect())
        } else {
            format!("{} of its combinations", listed.cut.len())
        };
        let at = match (listed.narrowed_by.as_slice(), listed.narrowed_by_unlisted) {
            ([], false) => "at an earlier step".to_string(),
            ([], true) => "at an earlier step this log leaves out".to_string(),
            ([one], false) => format!("at step {}", one + 1),
            (many, false) => format!(
                "at steps {}",
                and_list(many.iter().map(|s| (s + 1).to_string()).collect())
            ),
            (some, true) => format!(
                "at {} {} and at a step this log leaves out",
                if some.len() == 1 { "step" } else { "steps" },
                and_list(some.iter().map(|s| (s + 1).to_string()).collect())
            ),
        };
        // The clue in full unless the text gave it already.
        let full = labels::cage_with_clue(puzzle, listed.cage);
        let name = if proof.text.contains(&full) {
            labels::cage_with_short_clue(puzzle, listed.cage)
        } else {
            full
        };
        proof.text.push_str(&format!(
            " Earlier steps narrowed {name}: {what} went {at}, though the candidates allow {}.",
            if listed.cut.len() == 1 { "it" } else { "them" }
        ));
    }
}
