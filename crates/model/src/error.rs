use crate::Op;
use thiserror::Error;

/// Why a puzzle cannot be built. Every variant names the rule broken and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    #[error("grid size {0} is out of range (sizes 3 to 16 are supported)")]
    SizeOutOfRange(usize),
    #[error("cell index {index} is outside a {size}x{size} grid")]
    CellOutOfRange { index: usize, size: usize },
    #[error("cage {cage} has no cells")]
    EmptyCage { cage: usize },
    #[error("cell {cell} belongs to more than one cage")]
    CellInTwoCages { cell: String },
    #[error("cell {cell} is not covered by any cage")]
    CellUncovered { cell: String },
    #[error("cage {cage} is not edge-connected (cell {cell} touches no other cell of it)")]
    CageNotConnected { cage: usize, cell: String },
    #[error("cage {cage}: a given ({op}) must have exactly one cell, not {cells}")]
    GivenWithSeveralCells { cage: usize, op: Op, cells: usize },
    #[error("boxes of {rows}x{cols} do not tile a {size}x{size} grid")]
    BadBoxShape {
        rows: usize,
        cols: usize,
        size: usize,
    },
}
