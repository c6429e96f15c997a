//! What can be wrong with a generation request.

use kenken_model::OptionsError;
use thiserror::Error;

/// A request the generator cannot carry out as asked (checked before any search).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GenerateError {
    /// An option whose value is out of its range (`--timeout nan`).
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error("grid size {size} is outside {min}..={max}{why}")]
    Size {
        size: i64,
        min: usize,
        max: usize,
        why: &'static str,
    },
    #[error("the rating band is empty: --min {min} is above --max {max}")]
    EmptyBand { min: String, max: String },
    #[error(
        "cage sizes {lo}-{hi} are not a range of multi-cell cage sizes (2 <= lo <= hi <= {cells})"
    )]
    CageSizes { lo: usize, hi: usize, cells: usize },
    #[error("no layout has a mean cage size of {asked} cells or less with these rules: with at most {givens} single-cell cage(s) and cages of at least {lo} cells, a {size}x{size} grid's mean is at least {least:.2}")]
    MeanCageSize {
        asked: f64,
        least: f64,
        size: usize,
        givens: usize,
        lo: usize,
    },
    #[error("no operation left: --ops must name at least one of + - * /")]
    NoOps,
    #[error("with --strict and --ops {ops}, cages of {lo} or more cells can get no clue (Tatham allows - and / on two cells only)")]
    NoOpForCageSizes { ops: String, lo: usize },
    #[error("a {size}x{size} KenDoku has no boxes: its size must be a product of two numbers, as 4 = 2x2, 6 = 2x3, 8 = 2x4, 9 = 3x3")]
    NoBoxes { size: usize },
    #[error("--strict makes Tatham Keen puzzles, which have no KenDoku boxes")]
    StrictKendoku,
    #[error("technique {0} is both required and forbidden")]
    RequiredAndForbidden(&'static str),
    #[error("technique {0} is switched off in the grader's options, so no puzzle can use it")]
    RequiredButDisabled(&'static str),
}
