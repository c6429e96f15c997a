//! A step as every front end hands it on (`grader grade --json`, the page's API,
//! Python's `kenken.steps`): plain data with the grid's names, serialised the same
//! way everywhere.
//!
//! ```json
//! {"technique": "cage-combination", "name": "Cage comparison", "rating": 4.0,
//!  "text": "…", "placements": [], "eliminations": [{"cell": "A5", "index": 4, "digit": 1}],
//!  "combinations": [{"cage": "A5", "cells": ["A5", "A6", "A7"], "before": 22,
//!                    "removed": [[1, 6, 9], [6, 1, 9]]}],
//!  "proof": [{"cage": "A5", "digits": [1, 6, 9],
//!             "cages": [{"cage": "A1", "cells": ["A1", "A2"], "live": [[2, 9], [9, 2]]}],
//!             "chain": [{"empty": "A1"}],
//!             "text": "If A5, A6, A7 were 1, 6, 9, …"}],
//!  "explanation": "…"}
//! ```

use crate::labels;
use crate::proof::{ChainEntry, Known, Proof};
use crate::step::Total;
use crate::{Layout, Step};
use kenken_model::{CageId, CellId, Digit, Size};
use serde::Serialize;

/// A step, with its names, its removals, its proofs and its explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepReport {
    /// The technique's id (`cage-combination`), as `--disable` takes it.
    pub technique: &'static str,
    /// The technique's name for this step (`Hidden pair`, `X-Wing`).
    pub name: String,
    pub rating: f64,
    /// The step's line in the grid's names.
    pub text: String,
    pub placements: Vec<CellDigit>,
    pub eliminations: Vec<CellDigit>,
    /// The cage combinations the step removes, cage by cage.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combinations: Vec<CombinationsRemoved>,
    /// Why each removal holds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proof: Vec<ProofReport>,
    /// The step in plain English.
    pub explanation: String,
}

/// A cell and a digit: `{"cell": "B3", "index": 9, "digit": 4}` (`index` in
/// reading order from 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellDigit {
    pub cell: String,
    pub index: usize,
    pub digit: Digit,
}

/// The combinations a step removes from one cage, each as the digits of `cells`
/// in that order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombinationsRemoved {
    pub cage: String,
    pub cells: Vec<String>,
    /// Live combinations before the step.
    pub before: usize,
    pub removed: Vec<Vec<Digit>>,
}

/// A proof as data (see [`crate::proof`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ProofReport {
    Combination {
        /// The cage whose combination goes.
        cage: String,
        /// The combination, as the digits of the cage's cells.
        digits: Vec<Digit>,
        /// The cages that leave it no room, with what they could be before the step.
        cages: Vec<LiveCageReport>,
        /// How the cages run out of room, claim by claim (see [`ChainReport`]).
        chain: Vec<ChainReport>,
        text: String,
    },
    Region {
        /// The lines of the slice: `row C`, `row D`.
        lines: Vec<String>,
        /// What the lines add up (or multiply) to.
        total: Amount,
        /// The cage parts whose total (or parity) is known.
        known: Vec<PartReport>,
        /// What the other parts must make together: a total, or `odd` / `even`.
        left: Amount,
        /// Each unknown part with the totals (or parities) it can make there.
        parts: Vec<LossReport>,
        /// The totals each unknown cage loses inside the lines.
        losses: Vec<LossReport>,
        text: String,
    },
}

/// One claim of a cage comparison's chain (see [`crate::proof::ChainEntry`]):
/// `{"forced": "B1", "digits": [4, 1]}`, `{"empty": "C1"}` or `{"branch": "D1",
/// "cases": [{"digits": [1, 6], "chain": […]}, …]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ChainReport {
    Forced {
        forced: String,
        digits: Vec<Digit>,
    },
    Empty {
        empty: String,
    },
    Branch {
        branch: String,
        cases: Vec<CaseReport>,
    },
}

/// One case of a branch: the branched cage's digits, and the chain that follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseReport {
    pub digits: Vec<Digit>,
    pub chain: Vec<ChainReport>,
}

fn chain_report(chain: &[ChainEntry], layout: &Layout) -> Vec<ChainReport> {
    chain
        .iter()
        .map(|entry| match entry {
            ChainEntry::Forced { cage, digits } => ChainReport::Forced {
                forced: cage_name(layout, *cage),
                digits: digits.clone(),
            },
            ChainEntry::Empty { cage } => ChainReport::Empty {
                empty: cage_name(layout, *cage),
            },
            ChainEntry::Branch { cage, cases } => ChainReport::Branch {
                branch: cage_name(layout, *cage),
                cases: cases
                    .iter()
                    .map(|c| CaseReport {
                        digits: c.digits.clone(),
                        chain: chain_report(&c.chain, layout),
                    })
                    .collect(),
            },
        })
        .collect()
}

/// A cage and its combinations before the step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiveCageReport {
    pub cage: String,
    pub cells: Vec<String>,
    pub live: Vec<Vec<Digit>>,
    /// The combinations the clue and the candidates before the step still allow
    /// that earlier steps cut (so not in `live`); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<Vec<Digit>>,
    /// The earlier steps (numbered as the step log numbers them, from 1) that cut
    /// combinations the candidates before the step still allow; absent when none
    /// did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub narrowed_by: Vec<usize>,
}

/// A known part of a slice: a cage's cells there and their total (`value`) or
/// only its parity (`parity`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartReport {
    pub cage: String,
    pub cells: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Amount>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parity: Option<&'static str>,
}

/// Totals (or parities) of an unknown cage's cells inside a slice: those it can
/// make (`parts`) or those it loses (`losses`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LossReport {
    pub cage: String,
    pub cells: Vec<String>,
    pub totals: Vec<Amount>,
}

/// A total: a number (a sum, or a product up to 64 bits), or text (a larger
/// product, or `odd` / `even`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Amount {
    Number(u64),
    Text(String),
}

impl From<Known> for Amount {
    fn from(known: Known) -> Amount {
        match known {
            Known::Total(Total::Sum(s)) => Amount::Number(u64::from(s)),
            Known::Total(Total::Product(p)) => {
                match p.value().and_then(|v| u64::try_from(v).ok()) {
                    Some(value) => Amount::Number(value),
                    None => Amount::Text(p.to_string()),
                }
            }
            Known::Parity(odd) => Amount::Text(labels::parity(odd).to_string()),
        }
    }
}

impl StepReport {
    /// The step in the grid's names, within the puzzle's layout.
    pub fn new(step: &Step, layout: &Layout) -> StepReport {
        let puzzle = layout.puzzle();
        let size = puzzle.size();
        let cells = |list: &[(CellId, Digit)]| {
            list.iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: labels::cell(size, cell),
                    index: cell.index(),
                    digit,
                })
                .collect()
        };
        StepReport {
            technique: step.technique.id(),
            name: step.technique_name(),
            rating: step.rating.as_f64(),
            text: step.labelled_text(puzzle),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
            combinations: step
                .cuts
                .iter()
                .map(|cut| CombinationsRemoved {
                    cage: cage_name(layout, cut.cage),
                    cells: names(size, layout.cage_cells(cut.cage)),
                    before: cut.before,
                    removed: cut
                        .removed
                        .iter()
                        .map(|&i| layout.combination(cut.cage, i as usize).to_vec())
                        .collect(),
                })
                .collect(),
            proof: step
                .proofs
                .iter()
                .map(|p| proof_report(p, layout))
                .collect(),
            explanation: step.explanation(layout),
        }
    }
}

/// A cage by its clue cell: `A5`.
fn cage_name(layout: &Layout, cage: CageId) -> String {
    let puzzle = layout.puzzle();
    labels::cell(puzzle.size(), puzzle.cage(cage).anchor())
}

fn names(size: Size, cells: &[CellId]) -> Vec<String> {
    cells.iter().map(|&c| labels::cell(size, c)).collect()
}

/// A region proof's part or loss: its cage, cells and totals.
fn loss_report(loss: &crate::proof::Loss, layout: &Layout) -> LossReport {
    LossReport {
        cage: cage_name(layout, loss.cage),
        cells: names(layout.puzzle().size(), &loss.cells),
        totals: loss.totals.iter().map(|&t| t.into()).collect(),
    }
}

fn proof_report(proof: &Proof, layout: &Layout) -> ProofReport {
    let size = layout.puzzle().size();
    match proof {
        Proof::Combination(p) => ProofReport::Combination {
            cage: cage_name(layout, p.cage),
            digits: p.digits.clone(),
            cages: p
                .cages
                .iter()
                .map(|c| LiveCageReport {
                    cage: cage_name(layout, c.cage),
                    cells: names(size, layout.cage_cells(c.cage)),
                    live: c.live.clone(),
                    cut: c.cut.clone(),
                    narrowed_by: c.narrowed_by.iter().map(|i| i + 1).collect(),
                })
                .collect(),
            chain: chain_report(&p.chain, layout),
            text: p.text.clone(),
        },
        Proof::Region(p) => ProofReport::Region {
            lines: labels::slice_regions(&p.slice)
                .into_iter()
                .map(labels::region)
                .collect(),
            total: Known::Total(p.total).into(),
            known: p
                .known
                .iter()
                .map(|k| PartReport {
                    cage: cage_name(layout, k.cage),
                    cells: names(size, &k.cells),
                    value: match k.value {
                        Known::Total(_) => Some(k.value.into()),
                        Known::Parity(_) => None,
                    },
                    parity: match k.value {
                        Known::Parity(odd) => Some(labels::parity(odd)),
                        Known::Total(_) => None,
                    },
                })
                .collect(),
            left: p.left.into(),
            parts: p.parts.iter().map(|l| loss_report(l, layout)).collect(),
            losses: p.losses.iter().map(|l| loss_report(l, layout)).collect(),
            text: p.text.clone(),
        },
    }
}
