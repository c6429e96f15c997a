//! The proofs of a cage-combination step: for each combination it removes, the
//! fewest cages of the set whose live combinations leave it no room, and how that
//! unfolds, in words.
//!
//! With the removed combination assumed, each other cage keeps the combinations
//! that repeat none of its digits in a shared line. The smallest subset of the
//! set's other cages with no clash-free choice of one combination each is found
//! by trying subsets smallest first (a set has at most seven other cages), each
//! by a small depth-first search. The text then follows that subset: a cage left
//! with one combination takes it and the others lose what clashes with it, until
//! one cage has nothing left; where no cage is forced, the text splits on the cage
//! with the fewest combinations.

use crate::explain::or_words;
use crate::labels::{self, and_list, cage_with_clue};
use crate::proof::{CombinationProof, LiveCage, Proof};
use crate::step::CageCut;
use crate::{Layout, State};
use kenken_model::{Budget, CageId, CellId, Digit, Exhausted, Puzzle};

/// The proofs of every combination the cuts remove, the set being `set`.
pub(super) fn prove(
    state: &State,
    set: &[CageId],
    cuts: &[CageCut],
    budget: &mut Budget,
) -> Result<Vec<Proof>, Exhausted> {
    let layout = state.layout();
    let mut proofs = Vec::new();
    for cut in cuts {
        let others: Vec<Option<Other>> = set
            .iter()
            .filter(|&&c| c != cut.cage)
            .map(|&cage| Other::new(state, cage, budget).map(Some))
            .collect::<Result<_, _>>()?;
        let others: Vec<Other> = others.into_iter().flatten().collect();
        for &i in &cut.removed {
            let digits = layout.combination(cut.cage, i as usize).to_vec();
            let assumed: Vec<(CellId, Digit)> = layout
                .cage_cells(cut.cage)
                .iter()
                .copied()
                .zip(digits.iter().copied())
                .collect();
            let domains: Vec<Vec<usize>> = others
                .iter()
                .map(|o| o.compatible(layout, &assumed))
                .collect();
            budget.spend(others.iter().map(|o| o.live.len() as u64).sum())?;
            let fewest = fewest_without_room(layout, &others, &domains, budget)?;
            let chosen: Vec<&Other> = fewest.iter().map(|&k| &others[k]).collect();
            let text = Chain {
                layout,
                cages: &chosen,
            }
            .tell(cut.cage, &digits);
            proofs.push(Proof::Combination(CombinationProof {
                cage: cut.cage,
                digits,
                cages: chosen
                    .iter()
                    .map(|o| LiveCage {
                        cage: o.cage,
                        live: o
                            .live
                            .iter()
                            .map(|&j| layout.combination(o.cage, j).to_vec())
                            .collect(),
                    })
                    .collect(),
                text,
            }));
        }
    }
    Ok(proofs)
}

/// Another cage of the set: its cells and its live combinations before the step.
struct Other {
    cage: CageId,
    cells: Vec<CellId>,
    /// Indices into the cage's table.
    live: Vec<usize>,
}

impl Other {
    fn new(state: &State, cage: CageId, budget: &mut Budget) -> Result<Other, Exhausted> {
        budget.spend(state.live_count(cage) as u64)?;
        Ok(Other {
            cage,
            cells: state.layout().cage_cells(cage).to_vec(),
            live: state.live_combinations(cage).collect(),
        })
    }

    /// Positions in `live` of the combinations that repeat no assumed digit in a
    /// shared line.
    fn compatible(&self, layout: &Layout, assumed: &[(CellId, Digit)]) -> Vec<usize> {
        (0..self.live.len())
            .filter(|&k| self.clash(layout, k, assumed).is_none())
            .collect()
    }

    /// The first clash of combination `k` with the assumed digits: the cell of
    /// this cage, the digit, and the region both cells share.
    fn clash(
        &self,
        layout: &Layout,
        k: usize,
        assumed: &[(CellId, Digit)],
    ) -> Option<(CellId, Digit, usize)> {
        let row = layout.combination(self.cage, self.live[k]);
        for (&cell, &d) in self.cells.iter().zip(row) {
            for &(other, e) in assumed {
                // A cage's own digits, once taken, are among the assumed ones.
                if d == e && other != cell {
                    if let Some(r) = shared_region(layout, cell, other) {
                        return Some((cell, d, r));
                    }
                }
            }
        }
        None
    }
}

/// The region two cells share, if any (the first of the cell's: row, column, box).
fn shared_region(layout: &Layout, a: CellId, b: CellId) -> Option<usize> {
    let theirs = layout.cell_regions(b);
    layout
        .cell_regions(a)
        .iter()
        .copied()
        .find(|r| theirs.contains(r))
}

/// Whether combination `j` of cage `a` and `k` of cage `b` repeat no digit in a
/// shared line.
fn fit(layout: &Layout, a: &Other, j: usize, b: &Other, k: usize) -> bool {
    let ra = layout.combination(a.cage, a.live[j]);
    let rb = layout.combination(b.cage, b.live[k]);
    a.cells.iter().zip(ra).all(|(&ca, &da)| {
        b.cells
            .iter()
            .zip(rb)
            .all(|(&cb, &db)| da != db || shared_region(layout, ca, cb).is_none())
    })
}

/// The smallest subset (positions in `others`, in their order) with no
/// clash-free choice of one of `domains` each; the first such of its size.
fn fewest_without_room(
    layout: &Layout,
    others: &[Other],
    domains: &[Vec<usize>],
    budget: &mut Budget,
) -> Result<Vec<usize>, Exhausted> {
    let n = others.len();
    for size in 1..=n {
        let mut subset: Vec<usize> = (0..size).collect();
        loop {
            if !has_choice(layout, others, domains, &subset, budget)? {
                return Ok(subset);
            }
            // The next subset of this size in lexicographic order.
            let Some(at) = (0..size).rev().find(|&i| subset[i] < n - size + i) else {
                break;
            };
            subset[at] += 1;
            for i in at + 1..size {
                subset[i] = subset[i - 1] + 1;
            }
        }
    }
    // The step removed the combination: the whole set leaves it no room.
    Ok((0..n).collect())
}

/// Whether the cages of `subset` have a clash-free choice of one of their
/// `domains` each (forward checking, the fewest options first).
fn has_choice(
    layout: &Layout,
    others: &[Other],
    domains: &[Vec<usize>],
    subset: &[usize],
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    let open: Vec<(usize, Vec<usize>)> = subset.iter().map(|&c| (c, domains[c].clone())).collect();
    search(layout, others, open, budget)
}

fn search(
    layout: &Layout,
    others: &[Other],
    mut open: Vec<(usize, Vec<usize>)>,
    budget: &mut Budget,
) -> Result<bool, Exhausted> {
    budget.spend(1)?;
    let Some(pick) = (0..open.len()).min_by_key(|&i| open[i].1.len()) else {
        return Ok(true);
    };
    let (cage, options) = open.swap_remove(pick);
    for j in options {
        let mut rest = Vec::with_capacity(open.len());
        let mut dead = false;
        for (other, domain) in &open {
            budget.spend(domain.len() as u64)?;
            let kept: Vec<usize> = domain
                .iter()
                .copied()
                .filter(|&k| fit(layout, &others[cage], j, &others[*other], k))
                .collect();
            dead |= kept.is_empty();
            rest.push((*other, kept));
        }
        if !dead && search(layout, others, rest, budget)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The most cages a proof's text splits on before it sums up the rest.
const MAX_SPLITS: usize = 2;

/// The most options of a split a text tells one by one; past it (and for a split
/// inside another), it says where they all end.
const MAX_TOLD: usize = 3;

/// The most combinations a text lists one by one with what each repeats; past
/// it, it says what they repeat between them.
const LISTED: usize = 6;

/// The text of a proof: what the assumption leaves each cage of the subset.
struct Chain<'a> {
    layout: &'a Layout,
    cages: &'a [&'a Other],
}

impl Chain<'_> {
    fn puzzle(&self) -> &Puzzle {
        self.layout.puzzle()
    }

    /// `If A5, A6, A7 were 1, 6, 9, cage A1 (18×) could only be (2, 9) or (9, 2),
    /// and each repeats the 9 in row A.`
    fn tell(&self, cage: CageId, digits: &[Digit]) -> String {
        let size = self.puzzle().size();
        let cells = self.layout.cage_cells(cage);
        let assumed: Vec<(CellId, Digit)> =
            cells.iter().copied().zip(digits.iter().copied()).collect();
        let opening = format!(
            "If {} were {}",
            labels::cells(size, cells),
            digit_list(digits)
        );
        if let [only] = self.cages {
            let all: Vec<usize> = (0..only.live.len()).collect();
            if all.len() > LISTED {
                return format!(
                    "{opening}, each of the {} combinations still possible for {} would \
                     repeat {}.",
                    all.len(),
                    cage_with_clue(self.puzzle(), only.cage),
                    self.repeated(only, &all, &assumed)
                );
            }
            return format!(
                "{opening}, {} could only be {}, and {} repeats {}.",
                cage_with_clue(self.puzzle(), only.cage),
                self.combinations(only, &all),
                if all.len() == 1 { "it" } else { "each" },
                self.repeated(only, &all, &assumed)
            );
        }
        let domains: Vec<Vec<usize>> = self
            .cages
            .iter()
            .map(|o| o.compatible(self.layout, &assumed))
            .collect();
        let told = self.unfold(assumed, domains, vec![false; self.cages.len()], 0);
        format!("{opening}: {}.", told.text)
    }

    /// What the assumed digits leave the cages, until one has nothing: a cage with
    /// one combination left takes it; otherwise a split on the cage with the
    /// fewest, told option by option when they are few, summed up when many.
    fn unfold(
        &self,
        mut assumed: Vec<(CellId, Digit)>,
        mut domains: Vec<Vec<usize>>,
        mut taken: Vec<bool>,
        splits: usize,
    ) -> Unfolded {
        let puzzle = self.puzzle();
        let mut said: Vec<String> = Vec::new();
        loop {
            if let Some(k) = (0..self.cages.len()).find(|&k| domains[k].is_empty()) {
                let cage = self.cages[k];
                let all: Vec<usize> = (0..cage.live.len()).collect();
                said.push(format!(
                    "{} has nothing left: {}",
                    cage_with_clue(puzzle, cage.cage),
                    self.each_clash(cage, &all, &assumed)
                ));
                return Unfolded::ended(said, vec![cage.cage]);
            }
            if let Some(k) = (0..self.cages.len()).find(|&k| !taken[k] && domains[k].len() == 1) {
                let cage = self.cages[k];
                let j = domains[k][0];
                let others: Vec<usize> = (0..cage.live.len()).filter(|&i| i != j).collect();
                let reason = match others.len() {
                    0 => String::new(),
                    1 => format!(
                        ", as its other combination repeats {}",
                        self.repeated(cage, &others, &assumed)
                    ),
                    _ => format!(
                        ", as its other combinations repeat {}",
                        self.repeated(cage, &others, &assumed)
                    ),
                };
                said.push(format!(
                    "{} must be {}{reason}",
                    cage_with_clue(puzzle, cage.cage),
                    self.combination(cage, j)
                ));
                taken[k] = true;
                let row = self.layout.combination(cage.cage, cage.live[j]);
                assumed.extend(cage.cells.iter().copied().zip(row.iter().copied()));
                for (m, domain) in domains.iter_mut().enumerate() {
                    if !taken[m] {
                        domain.retain(|&i| self.cages[m].clash(self.layout, i, &assumed).is_none());
                    }
                }
                continue;
            }
            // No cage is forced: split on the open cage with the fewest left.
            let Some(k) = (0..self.cages.len())
                .filter(|&k| !taken[k])
                .min_by_key(|&k| domains[k].len())
            else {
                return Unfolded::ended(said, Vec::new());
            };
            let cage = self.cages[k];
            let name = cage_with_clue(puzzle, cage.cage);
            let open: Vec<CageId> = (0..self.cages.len())
                .filter(|&m| !taken[m] && m != k)
                .map(|m| self.cages[m].cage)
                .collect();
            if splits >= MAX_SPLITS {
                said.push(format!(
                    "whichever combination {name} takes, {} is left with nothing",
                    one_of(puzzle, &open)
                ));
                return Unfolded::ended(said, open);
            }
            let branches: Vec<(usize, Unfolded)> = domains[k]
                .iter()
                .map(|&j| {
                    let mut with = assumed.clone();
                    let row = self.layout.combination(cage.cage, cage.live[j]);
                    with.extend(cage.cells.iter().copied().zip(row.iter().copied()));
                    let mut sub = domains.clone();
                    sub[k] = vec![j];
                    for (m, domain) in sub.iter_mut().enumerate() {
                        if m != k && !taken[m] {
                            domain
                                .retain(|&i| self.cages[m].clash(self.layout, i, &with).is_none());
                        }
                    }
                    let mut sub_taken = taken.clone();
                    sub_taken[k] = true;
                    (j, self.unfold(with, sub, sub_taken, splits + 1))
                })
                .collect();
            let options = self.combinations(cage, &domains[k]);
            let mut empty: Vec<CageId> =
                branches.iter().flat_map(|(_, u)| u.empty.clone()).collect();
            empty.sort_unstable();
            empty.dedup();
            if branches.windows(2).all(|w| w[0].1.text == w[1].1.text) {
                // Every option ends the same way: said once.
                said.push(format!(
                    "whether {name} is {options}, {}",
                    branches[0].1.text
                ));
            } else if branches.len() > MAX_TOLD || splits > 0 {
                // Many options, or a split inside a split: where they all end.
                said.push(format!(
                    "whichever of its {} combinations left {name} takes, {} is left with nothing",
                    branches.len(),
                    one_of(puzzle, &empty)
                ));
            } else {
                let each: Vec<String> = branches
                    .iter()
                    .map(|(j, then)| format!("with {}, {}", self.combination(cage, *j), then.text))
                    .collect();
                said.push(format!("{name} could be {options}: {}", each.join("; ")));
            }
            return Unfolded::ended(said, empty);
        }
    }

    /// One combination of a cage: `(2, 9)`.
    fn combination(&self, cage: &Other, k: usize) -> String {
        format!(
            "({})",
            digit_list(self.layout.combination(cage.cage, cage.live[k]))
        )
    }

    /// Combinations as a group: `(2, 6) or (6, 2)`.
    fn combinations(&self, cage: &Other, ks: &[usize]) -> String {
        or_words(ks.iter().map(|&k| self.combination(cage, k)).collect())
    }

    /// What the combinations `ks` repeat: `the 9 or the 6 in row A`, `the 9 in row A
    /// or the 6 in column 3`.
    fn repeated(&self, cage: &Other, ks: &[usize], assumed: &[(CellId, Digit)]) -> String {
        let mut by_region: Vec<(usize, Vec<Digit>)> = Vec::new();
        for &k in ks {
            let Some((_, d, r)) = cage.clash(self.layout, k, assumed) else {
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
    fn each_clash(&self, cage: &Other, ks: &[usize], assumed: &[(CellId, Digit)]) -> String {
        if ks.len() > LISTED {
            return format!(
                "each of its {} combinations repeats {}",
                ks.len(),
                self.repeated(cage, ks, assumed)
            );
        }
        let mut groups: Vec<((usize, Digit), Vec<usize>)> = Vec::new();
        for &k in ks {
            let Some((_, d, r)) = cage.clash(self.layout, k, assumed) else {
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

/// `1, 6, 9`.
fn digit_list(digits: &[Digit]) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an assumption comes to: the text, and the cages left with nothing at the
/// end of its branches.
struct Unfolded {
    text: String,
    empty: Vec<CageId>,
}

impl Unfolded {
    /// Statements in order, `a; then b; then c`, ending with `empty` empty.
    fn ended(said: Vec<String>, empty: Vec<CageId>) -> Unfolded {
        Unfolded {
            text: said.join("; then "),
            empty,
        }
    }
}

/// `cage B3 (12×)`, or `one of cages B3 and C1`.
fn one_of(puzzle: &Puzzle, cages: &[CageId]) -> String {
    match cages {
        [one] => cage_with_clue(puzzle, *one),
        _ => format!("one of {}", labels::cages_in_sentence(puzzle, cages)),
    }
}
