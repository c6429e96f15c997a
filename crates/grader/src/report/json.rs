//! JSON output: steps and grids as `grade --json` and `hint --json` write them.

use kenken_model::{Digit, Size};
use kenken_techniques::{Step, StepReport};
use serde::Serialize;

/// A cell and a digit: `{"cell":"r1c2","digit":3}`.
#[derive(Serialize)]
pub struct CellDigit {
    pub cell: String,
    pub digit: Digit,
}

/// A step in `grade --json` and `hint --json`.
#[derive(Serialize)]
#[serde(untagged)]
pub enum StepJson {
    /// In the grid's names, with removals, proofs and explanation.
    Labelled(Box<StepReport>),
    /// In the reference solver's wording (`--reference-text`).
    Reference(ReferenceStep),
}

/// A step in the reference solver's wording: its line, `r2c3` cells.
#[derive(Serialize)]
pub struct ReferenceStep {
    /// The technique's command-line id (`hidden-subset`).
    pub technique: &'static str,
    pub rating: f64,
    pub text: String,
    pub placements: Vec<CellDigit>,
    pub eliminations: Vec<CellDigit>,
}

impl ReferenceStep {
    pub fn new(step: &Step, size: Size) -> ReferenceStep {
        let cells = |list: &[(kenken_model::CellId, Digit)]| {
            list.iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: size.cell_name(cell),
                    digit,
                })
                .collect()
        };
        ReferenceStep {
            technique: step.technique.id(),
            rating: step.rating.as_f64(),
            text: step.text(size),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
        }
    }
}

/// A grid in reading order as rows.
pub fn grid_rows(grid: &[Digit], size: Size) -> Vec<Vec<Digit>> {
    grid.chunks(size.get()).map(<[Digit]>::to_vec).collect()
}
