//! The proofs of a cage-combination step: for each combination it removes, the
//! fewest cages of the set whose live combinations leave it no room, and how that
//! unfolds, in words.
//!
//! With the removed combination assumed, each other cage keeps the combinations
//! that repeat none of its digits in a shared line. The smallest subset of the
//! set's other cages with no clash-free choice of one combination each is found
//! by trying subsets smallest first (a set has at most seven other cages), each
//! by a small depth-first search. The chain (see [`super::chain`]) then follows
//! that subset, and the text follows the chain.

use super::chain;
use crate::proof::{CombinationProof, LiveCage, Proof};
use crate::step::CageCut;
use crate::{Layout, State};
use kenken_model::{Budget, CageId, CellId, Digit, Exhausted};

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
            let chain = chain::build(layout, &chosen, &assumed, budget)?;
            let text = chain::tell(layout, &chosen, cut.cage, &digits, &chain);
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
                        cut: o.cut.clone(),
                        narrowed_by: Vec::new(),
                        narrowed_by_unlisted: false,
                    })
                    .collect(),
                chain,
                chain_text_len: text.len(),
                text,
            }));
        }
    }
    Ok(proofs)
}

/// Another cage of the set: its cells and its live combinations before the step.
pub(super) struct Other {
    pub(super) cage: CageId,
    pub(super) cells: Vec<CellId>,
    /// Indices into the cage's table.
    pub(super) live: Vec<usize>,
    /// The combinations the candidates allow that are not live: cut by earlier
    /// steps.
    cut: Vec<Vec<Digit>>,
}

impl Other {
    fn new(state: &State, cage: CageId, budget: &mut Budget) -> Result<Other, Exhausted> {
        let layout = state.layout();
        let table = layout.table(cage);
        budget.spend(table.len() as u64)?;
        let cells = layout.cage_cells(cage);
        let live = state.live(cage);
        let cut = (0..table.len())
            .filter(|&i| !live[i])
            .map(|i| table.row(i))
            .filter(|row| {
                cells
                    .iter()
                    .zip(row.iter())
                    .all(|(&c, &d)| state.candidates(c).contains(d))
            })
            .map(<[Digit]>::to_vec)
            .collect();
        Ok(Other {
            cage,
            cells: cells.to_vec(),
            live: state.live_combinations(cage).collect(),
            cut,
        })
    }

    /// Positions in `live` of the combinations that repeat no assumed digit in a
    /// shared line.
    pub(super) fn compatible(&self, layout: &Layout, assumed: &[(CellId, Digit)]) -> Vec<usize> {
        (0..self.live.len())
            .filter(|&k| self.clash(layout, k, assumed).is_none())
            .collect()
    }

    /// The first clash of combination `k` with the assumed digits: the cell of
    /// this cage, the digit, and the region both cells share.
    pub(super) fn clash(
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
