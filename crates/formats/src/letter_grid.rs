//! The letter-grid format common in other solvers (read only):
//!
//! ```text
//! 3
//! AAB
//! CDB
//! CD1
//!
//! A 3+
//! B 2/
//! C 3x
//! D 5+
//! ```
//!
//! The size, N rows of N cells (a letter per cage, a digit for a given cell), a
//! blank line, then one clue per cage: labelled (`A 3+`) or in letter order (`3+`).
//! Choices the format leaves open are in [`our_reading::letter_order_key`]'s notes.

use crate::cages::{assemble, PendingCage};
use crate::error::quoted;
use crate::our_reading;
use crate::{Format, FormatError, Location, Rule};
use kenken_model::{CellId, Op, Puzzle, Size};
use std::collections::BTreeMap;

const FORMAT: Format = Format::LetterGrid;

/// Whether a line is a size line (`6` or `6x6`).
pub(crate) fn is_size_line(line: &str) -> bool {
    parse_size(line).is_some()
}

fn parse_size(line: &str) -> Option<usize> {
    let t = line.trim();
    let n = match t.split_once(['x', 'X']) {
        Some((a, b)) if a.trim() == b.trim() => a.trim(),
        Some(_) => return None,
        None => t,
    };
    if n.is_empty() || n.len() > 3 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Reads a letter grid.
pub fn read(input: &str) -> Result<Puzzle, FormatError> {
    let mut lines = input
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty());
    let at_line = |line: usize| Location::Line { line, column: None };
    let Some((size_line, size_text)) = lines.next() else {
        return Err(FormatError::new(FORMAT, Location::Input, Rule::Empty));
    };
    let size = parse_size(size_text)
        .and_then(|n| Size::new(n).ok())
        .ok_or_else(|| {
            FormatError::new(
                FORMAT,
                at_line(size_line),
                Rule::BadSize(quoted(size_text.trim())),
            )
        })?;
    let n = size.get();

    // The grid: each cell a cage letter or a given digit.
    let mut letters: BTreeMap<u32, (char, Vec<CellId>)> = BTreeMap::new();
    let mut givens: Vec<(CellId, u64)> = Vec::new();
    let mut last_line = size_line;
    for row in 0..n {
        let Some((line, text)) = lines.next() else {
            return Err(FormatError::new(
                FORMAT,
                at_line(last_line),
                Rule::GridRows {
                    expected: n,
                    found: row,
                },
            ));
        };
        last_line = line;
        let cells: Vec<(usize, char)> = text
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .collect();
        if cells.len() != n {
            return Err(FormatError::new(
                FORMAT,
                at_line(line),
                Rule::GridRowLength {
                    expected: n,
                    found: cells.len(),
                },
            ));
        }
        for (col, &(column, ch)) in cells.iter().enumerate() {
            let cell = size.cell(row, col);
            if let Some(d) = ch.to_digit(10) {
                givens.push((cell, d as u64));
            } else if ch.is_ascii_alphabetic() {
                letters
                    .entry(our_reading::letter_order_key(ch))
                    .or_insert_with(|| (ch, Vec::new()))
                    .1
                    .push(cell);
            } else {
                return Err(FormatError::new(
                    FORMAT,
                    Location::Line {
                        line,
                        column: Some(column + 1),
                    },
                    Rule::GridCharacter(ch),
                ));
            }
        }
    }
    for (letter, cells) in letters.values() {
        if size.disconnected_cell(cells).is_some() {
            let first = cells[0];
            return Err(FormatError::new(
                FORMAT,
                Location::Cell {
                    row: size.row(first),
                    col: size.col(first),
                },
                Rule::LetterNotConnected(*letter),
            ));
        }
    }

    // The clues: all labelled, or all unlabelled in letter order.
    let order: Vec<char> = letters.values().map(|(l, _)| *l).collect();
    let mut clues: BTreeMap<char, (usize, Option<Op>, u64)> = BTreeMap::new();
    let mut labelled: Option<bool> = None;
    let mut unlabelled_count = 0usize;
    for (line, text) in lines {
        let (label, op, value) = parse_clue(text).ok_or_else(|| {
            FormatError::new(FORMAT, at_line(line), Rule::BadClue(quoted(text.trim())))
        })?;
        if labelled.is_some_and(|l| l != label.is_some()) {
            return Err(FormatError::new(
                FORMAT,
                at_line(line),
                Rule::MixedClueStyle,
            ));
        }
        labelled = Some(label.is_some());
        let letter = match label {
            Some(l) => {
                if !order.contains(&l) {
                    return Err(FormatError::new(
                        FORMAT,
                        at_line(line),
                        Rule::UnknownCageLetter(l),
                    ));
                }
                l
            }
            None => {
                unlabelled_count += 1;
                match order.get(unlabelled_count - 1) {
                    Some(&l) => l,
                    None => {
                        return Err(FormatError::new(
                            FORMAT,
                            at_line(line),
                            Rule::ClueCount {
                                expected: order.len(),
                                found: unlabelled_count,
                            },
                        ))
                    }
                }
            }
        };
        if clues.insert(letter, (line, op, value)).is_some() {
            return Err(FormatError::new(
                FORMAT,
                at_line(line),
                Rule::DuplicateClue(letter),
            ));
        }
    }
    let mut cages = Vec::with_capacity(order.len() + givens.len());
    for (letter, cells) in letters.into_values() {
        let Some((line, op, clue)) = clues.get(&letter).copied() else {
            return Err(FormatError::new(
                FORMAT,
                at_line(last_line),
                Rule::MissingClue(letter),
            ));
        };
        // A clue without a sign: a given, or a cage whose operation is hidden.
        let op = match op {
            Some(op) => op,
            None if cells.len() == 1 => Op::Given,
            None => Op::Hidden,
        };
        if op == Op::Given && cells.len() > 1 {
            return Err(FormatError::new(
                FORMAT,
                at_line(line),
                Rule::GivenWithSeveralCells(cells.len()),
            ));
        }
        cages.push(PendingCage {
            cells,
            op,
            clue,
            location: at_line(line),
            label: format!("{letter}"),
        });
    }
    for (cell, value) in givens {
        cages.push(PendingCage {
            cells: vec![cell],
            op: Op::Given,
            clue: value,
            location: Location::Cell {
                row: size.row(cell),
                col: size.col(cell),
            },
            label: format!("given at {}", size.cell_label(cell)),
        });
    }
    assemble(FORMAT, size, cages, None)
}

/// `A 8+`, `A: 8+`, `A=8+`, `8+`, `8 +`, `5x`, `1`: (label, operator, value).
fn parse_clue(text: &str) -> Option<(Option<char>, Option<Op>, u64)> {
    let t = text.trim();
    let mut chars = t.chars();
    let first = chars.next()?;
    let (label, rest) = if first.is_ascii_alphabetic() {
        let rest = chars.as_str();
        let after = rest.trim_start_matches([':', '=']);
        if after.len() == rest.len() && !rest.starts_with(char::is_whitespace) {
            return None;
        }
        (Some(first), after.trim())
    } else {
        (None, t)
    };
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits_end == 0 {
        return None;
    }
    let value = rest[..digits_end].parse::<u64>().ok()?;
    let op_text = rest[digits_end..].trim();
    let op = if op_text.is_empty() {
        None
    } else {
        Some(our_reading::operator_from_spelling(op_text)?)
    };
    Some((label, op, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_labelled_and_unlabelled_clues() {
        let labelled = "3\nAAB\nCDB\nCD1\n\nA 3+\nB 2/\nC 3x\nD 5+\n";
        let unlabelled = "3\nA A B\nC D B\nC D 1\n\n3+\n2/\n3*\n5+\n";
        let p = read(labelled).unwrap();
        assert_eq!(read(unlabelled).unwrap(), p);
        assert_eq!(p.cages().len(), 5);
        assert_eq!(p.cage_of(p.size().cell(2, 2)), kenken_model::CageId::new(4));
        assert_eq!(p.cages()[4].op, Op::Given);
        assert_eq!(p.cages()[4].clue, 1);
    }

    #[test]
    fn errors() {
        let e = |s: &str| read(s).unwrap_err().rule;
        assert!(matches!(
            e("3\nAAB\nCDB\nCD\n\n3+\n2/\n3*\n5+\n"),
            Rule::GridRowLength { .. }
        ));
        assert_eq!(
            e("3\nAAB\nCDB\nCD1\n\n3+\n2/\n3*\n"),
            Rule::MissingClue('D')
        );
        assert!(matches!(
            e("3\nAAB\nCDB\nCD1\n\n3+\n2/\n3*\n5+\n7\n"),
            Rule::ClueCount { .. }
        ));
        assert_eq!(
            e("3\nAAB\nCDB\nCD1\n\nA 3+\n2/\n3*\n5+\n"),
            Rule::MixedClueStyle
        );
        assert_eq!(
            e("3\nABA\nCDB\nCD1\n\n3+\n2/\n3*\n5+\n"),
            Rule::LetterNotConnected('A')
        );
        // A clue without a sign on a larger cage hides its operation.
        let hidden = read("3\nAAB\nCDB\nCD1\n\n3\n2/\n3*\n5+\n").unwrap();
        assert_eq!(hidden.cages()[0].op, Op::Hidden);
        assert_eq!(hidden.cages()[0].clue, 3);
    }
}
