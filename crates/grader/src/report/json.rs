//! JSON output: steps and grids as `grade --json` and `hint --json` write them.

use kenken_model::{Digit, Size};
use kenken_techniques::Step;
use serde::Serialize;

/// A cell and a digit: `{"cell":"r1c2","digit":3}`.
#[derive(Serialize)]
pub struct CellDigit {
    pub cell: String,
    pub digit: Digit,
}

/// A step in `grade --json`.
#[derive(Serialize)]
pub struct StepJson {
    /// The technique's command-line id (`hidden-subset`).
    pub technique: &'static str,
    pub rating: f64,
    pub text: String,
    pub placements: Vec<CellDigit>,
    pub eliminations: Vec<CellDigit>,
    /// In plain English (left out in the reference's wording).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

impl StepJson {
    pub fn new(step: &Step, size: Size) -> StepJson {
        let cells = |list: &[(kenken_model::CellId, Digit)]| {
            list.iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: size.cell_name(cell),
                    digit,
                })
                .collect()
        };
        StepJson {
            technique: step.technique.id(),
            rating: step.rating.as_f64(),
            text: step.text(size),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
            explanation: None,
        }
    }
}

/// A grid in reading order as rows.
pub fn grid_rows(grid: &[Digit], size: Size) -> Vec<Vec<Digit>> {
    grid.chunks(size.get()).map(<[Digit]>::to_vec).collect()
}
