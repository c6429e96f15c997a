//! Builds a [`Puzzle`] from cages read out of a text, checking the model's rules
//! (cells in one cage each, every cell covered, cages connected) *before* the model
//! does, so each error can point at the input line or cell that broke the rule
//! rather than at a cage number the reader never saw.

use crate::{Format, FormatError, Location, Rule};
use kenken_model::{Cage, CellId, Op, Puzzle, Size};

/// A cage as read, with where it was read from.
pub(crate) struct PendingCage {
    pub cells: Vec<CellId>,
    pub op: Op,
    pub clue: u64,
    /// Where the cage was defined (line, offset or cell), for errors.
    pub location: Location,
    /// How to name the cage in "already in the cage …" messages.
    pub label: String,
}

/// Checks the cages against the grid and builds the puzzle (KenDoku when `boxes`).
pub(crate) fn assemble(
    format: Format,
    size: Size,
    cages: Vec<PendingCage>,
    boxes: Option<(usize, usize)>,
) -> Result<Puzzle, FormatError> {
    let err = |location: &Location, rule| FormatError::new(format, location.clone(), rule);
    let mut owner: Vec<Option<usize>> = vec![None; size.cell_count()];
    for (i, cage) in cages.iter().enumerate() {
        if cage.cells.is_empty() {
            return Err(err(&cage.location, Rule::NoCells));
        }
        if cage.op == Op::Given && cage.cells.len() > 1 {
            return Err(err(
                &cage.location,
                Rule::GivenWithSeveralCells(cage.cells.len()),
            ));
        }
        for &c in &cage.cells {
            if size.cell_at(c.index()).is_err() {
                return Err(err(
                    &cage.location,
                    Rule::CellOutside {
                        name: format!("#{}", c.index()),
                        size: size.get(),
                    },
                ));
            }
            match owner[c.index()] {
                Some(j) if j == i => {
                    return Err(err(&cage.location, Rule::DuplicateCell(size.cell_label(c))))
                }
                Some(j) => {
                    return Err(err(
                        &cage.location,
                        Rule::CellInTwoCages {
                            cell: size.cell_label(c),
                            first: cages[j].label.clone(),
                        },
                    ))
                }
                None => owner[c.index()] = Some(i),
            }
        }
    }
    if let Some(c) = owner.iter().position(Option::is_none) {
        let cell = CellId::new(c);
        return Err(err(
            &Location::Cell {
                row: size.row(cell),
                col: size.col(cell),
            },
            Rule::CellUncovered(size.cell_label(cell)),
        ));
    }
    for cage in &cages {
        if let Some(lonely) = size.disconnected_cell(&cage.cells) {
            return Err(err(
                &cage.location,
                Rule::CageNotConnected(size.cell_label(lonely)),
            ));
        }
    }
    let model_cages = cages
        .into_iter()
        .map(|c| Cage::new(c.cells, c.op, c.clue))
        .collect();
    let built = match boxes {
        None => Puzzle::new(size, model_cages),
        Some((r, c)) => Puzzle::new_kendoku(size, model_cages, r, c),
    };
    built.map_err(|e| FormatError::from((format, e)))
}

/// The 0-based character offset of byte offset `byte` in `s` (errors count
/// characters, which is what a user's editor shows).
pub(crate) fn char_offset(s: &str, byte: usize) -> usize {
    let byte = byte.min(s.len());
    let mut b = byte;
    while b > 0 && !s.is_char_boundary(b) {
        b -= 1;
    }
    s[..b].chars().count()
}
