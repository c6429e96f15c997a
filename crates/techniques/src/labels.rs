//! The names a person sees on a grid, one convention for every output (step
//! texts, explanations, hints, pictures, the text format): rows are letters from
//! the top (`A`, `B`, …), columns numbers from the left (`1`, `2`, …), so a cell
//! is `B3`; a KenDoku box is numbered in reading order (`box 2`); a cage is named
//! by its clue cell, the first cell in reading order, where the picture writes its
//! clue (`cage B3`).
//!
//! [`Step::labelled_text`] is a step's one line in these names; the reference
//! solver's wording, with 0-based cage numbers and `r2c3` cells, stays
//! [`Step::text`].

use crate::step::{Axis, Slice, Step};
use kenken_model::{Cage, CageId, CellId, Digit, Op, Puzzle, RegionKind, Size};

/// A row's letter: `A` for the top row.
pub fn row_letter(row: usize) -> char {
    (b'A' + row as u8) as char
}

/// A cell: `B3`.
pub fn cell(size: Size, cell: CellId) -> String {
    size.cell_label(cell)
}

/// Cells: `B3, B4`.
pub fn cells(size: Size, list: &[CellId]) -> String {
    list.iter()
        .map(|&c| cell(size, c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A region: `row C`, `column 4`, `box 2`.
pub fn region(kind: RegionKind) -> String {
    match kind {
        RegionKind::Row(r) => format!("row {}", row_letter(r)),
        RegionKind::Col(c) => format!("column {}", c + 1),
        RegionKind::Box(b) => format!("box {}", b + 1),
    }
}

/// Lines of one kind, named together: `rows A, C`, `columns 2, 4` (`row A` for
/// one).
pub fn lines(kinds: &[RegionKind]) -> String {
    let Some(first) = kinds.first() else {
        return String::new();
    };
    let word = match (first, kinds.len()) {
        (RegionKind::Row(_), 1) => "row",
        (RegionKind::Row(_), _) => "rows",
        (RegionKind::Col(_), 1) => "column",
        (RegionKind::Col(_), _) => "columns",
        (RegionKind::Box(_), 1) => "box",
        (RegionKind::Box(_), _) => "boxes",
    };
    let names: Vec<String> = kinds
        .iter()
        .map(|k| match *k {
            RegionKind::Row(r) => row_letter(r).to_string(),
            RegionKind::Col(c) | RegionKind::Box(c) => (c + 1).to_string(),
        })
        .collect();
    format!("{word} {}", names.join(", "))
}

/// The regions of a slice, in order.
pub fn slice_regions(slice: &Slice) -> Vec<RegionKind> {
    (slice.first..slice.first + slice.count)
        .map(|i| match slice.axis {
            Axis::Rows => RegionKind::Row(i),
            Axis::Cols => RegionKind::Col(i),
            Axis::Boxes => RegionKind::Box(i),
        })
        .collect()
}

/// A slice: `row C`, `rows C, D`, `column 5`, `box 2`.
pub fn slice(slice: &Slice) -> String {
    lines(&slice_regions(slice))
}

/// A cage by its clue cell: `cage B3`.
pub fn cage(puzzle: &Puzzle, id: CageId) -> String {
    format!("cage {}", cell(puzzle.size(), puzzle.cage(id).anchor()))
}

/// Cages by their clue cells: `cage B3`, `cages A1, B3`.
pub fn cages(puzzle: &Puzzle, ids: &[CageId]) -> String {
    cages_joined(puzzle, ids, |names| names.join(", "))
}

/// `cage B3`, or `cages ` and the clue cells of several joined by `join`.
fn cages_joined(puzzle: &Puzzle, ids: &[CageId], join: impl Fn(Vec<String>) -> String) -> String {
    let mut names: Vec<String> = ids
        .iter()
        .map(|&id| cell(puzzle.size(), puzzle.cage(id).anchor()))
        .collect();
    match names.len() {
        1 => format!("cage {}", names.remove(0)),
        _ => format!("cages {}", join(names)),
    }
}

/// A cage's clue as the picture writes it: `12×`, `3−`, `7+`, `2÷`, `4` (a given),
/// `12` (an operation hidden).
pub fn clue(cage: &Cage) -> String {
    let symbol = match cage.op {
        Op::Add => "+",
        Op::Sub => "−",
        Op::Mul => "×",
        Op::Div => "÷",
        Op::Given | Op::Hidden => "",
    };
    format!("{}{symbol}", cage.clue)
}

/// A cage with its clue: `cage B3 (12×)`, `cage A1 (12, operation hidden)`.
pub fn cage_with_clue(puzzle: &Puzzle, id: CageId) -> String {
    let cage = puzzle.cage(id);
    if cage.op == Op::Hidden {
        return format!(
            "{} ({}, operation hidden)",
            self::cage(puzzle, id),
            cage.clue
        );
    }
    format!("{} ({})", self::cage(puzzle, id), clue(cage))
}

/// A cage with its clue, short: `cage A1 (18×)`, and `cage F5 (10?)` for a
/// hidden operation (named in full the first time a text names the cage).
pub fn cage_with_short_clue(puzzle: &Puzzle, id: CageId) -> String {
    let cage = puzzle.cage(id);
    if cage.op == Op::Hidden {
        return format!("{} ({}?)", self::cage(puzzle, id), cage.clue);
    }
    cage_with_clue(puzzle, id)
}

/// Digits: `5`, `5 and 6`, `1, 2 and 3`.
pub fn digits(list: impl IntoIterator<Item = Digit>) -> String {
    and_list(list.into_iter().map(|d| d.to_string()).collect())
}

/// Words joined as a person lists them: `a`, `a and b`, `a, b and c`.
pub fn and_list(words: Vec<String>) -> String {
    joined(words, "and")
}

/// Words joined as alternatives: `a`, `a or b`, `a, b or c`.
pub fn or_list(words: Vec<String>) -> String {
    joined(words, "or")
}

/// Words joined by commas, the last two by `conjunction`.
fn joined(mut words: Vec<String>, conjunction: &str) -> String {
    match words.len() {
        0 => String::new(),
        1 => words.pop().unwrap_or_default(),
        _ => {
            let last = words.pop().unwrap_or_default();
            format!("{} {conjunction} {last}", words.join(", "))
        }
    }
}

/// The text with its first letter in capitals.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A combination's digits as a tuple: `(2, 9)`.
pub fn tuple(digits: &[Digit]) -> String {
    let list: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    format!("({})", list.join(", "))
}

impl Step {
    /// The one-line description in the names of the grid ([`labels`](self)):
    /// `Claiming candidates: cage F1 must contain 5 in F1, F2: from 7 combinations
    /// to 5`. The same facts as [`Step::text`], which keeps the reference solver's
    /// names.
    pub fn labelled_text(&self, puzzle: &Puzzle) -> String {
        self.reason.words().labelled_text(self, puzzle)
    }

    /// One count per cut: `6, 14`.
    pub(crate) fn cut_counts(&self, count: impl Fn(&crate::CageCut) -> usize) -> String {
        self.cuts
            .iter()
            .map(|c| count(c).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `reduced from 6 combinations to 2` for the one cage of a `single` cut, else
    /// `cages B3, C1 reduced from 6, 14 combinations to 4, 6`.
    pub(crate) fn labelled_reduction(&self, puzzle: &Puzzle, single: bool) -> String {
        if let ([cut], true) = (self.cuts.as_slice(), single) {
            return format!("reduced from {} combinations to {}", cut.before, cut.after);
        }
        let cut: Vec<CageId> = self.cuts.iter().map(|c| c.cage).collect();
        format!(
            "{} reduced from {} combinations to {}",
            cages(puzzle, &cut),
            self.cut_counts(|c| c.before),
            self.cut_counts(|c| c.after)
        )
    }
}

/// A pointing step's forced digits grouped by line, lines in the order first met.
pub(crate) fn forced_by_line(forced: &[(Digit, RegionKind)]) -> Vec<(RegionKind, Vec<Digit>)> {
    let mut lines: Vec<(RegionKind, Vec<Digit>)> = Vec::new();
    for &(d, r) in forced {
        match lines.iter_mut().find(|(line, _)| *line == r) {
            Some((_, digits)) => digits.push(d),
            None => lines.push((r, vec![d])),
        }
    }
    lines
}

/// Cages in a sentence: `cage B3`, `cages C4 and B3`.
pub(crate) fn cages_in_sentence(puzzle: &Puzzle, ids: &[CageId]) -> String {
    cages_joined(puzzle, ids, and_list)
}

/// `odd` or `even`.
pub fn parity(odd: bool) -> &'static str {
    if odd {
        "odd"
    } else {
        "even"
    }
}
