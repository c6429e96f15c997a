//! A solver's position (the `--state` of `grader hint`, `check` and `render`):
//! either a SudokuWiki K6C / D6C string with progress, whose cages must be the
//! puzzle's, or a plain grid:
//!
//! ```text
//! # a 4x4 with two digits entered and pencil marks in B1 and B2
//! 4 . . .
//! [12] [123] . .
//! . . . .
//! . . 2 .
//! ```
//!
//! * one line per row, N rows of N cells; or all N² cells on one line;
//! * a cell is a digit entered (`1`–`9`, then `a`–`g` for 10–16, either case), a
//!   blank (`.`, `0` or `_`), or pencil marks: the digits still possible between
//!   brackets (`[125]`, also `(125)` or `{125}`); empty brackets (`[]`) are a blank,
//!   as on the page;
//! * spaces, tabs and `|` between cells are ignored, and so are blank lines, lines
//!   starting with `#`, and lines made only of `-`, `+`, `=`, `|` and spaces (box
//!   rules drawn by hand).

use crate::sudokuwiki::{self, CellProgress};
use crate::FormatError;
use kenken_model::{Digit, Digits, Puzzle, Size};
use thiserror::Error;

/// Why a position cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("the position is empty")]
    Empty,
    #[error("line {line}, column {column}: {problem}")]
    Grid {
        line: usize,
        column: usize,
        problem: String,
    },
    #[error("the position has {got} rows, the grid has {expected}")]
    RowCount { expected: usize, got: usize },
    #[error("line {line}: {got} cells, a row of the grid has {expected}")]
    RowLength {
        line: usize,
        expected: usize,
        got: usize,
    },
    #[error("the position's K6C/D6C string cannot be read: {0}")]
    Packed(FormatError),
    #[error("the position's K6C/D6C string is of another puzzle (its cages differ)")]
    OtherPuzzle,
}

/// Reads a position of `puzzle`: per cell, reading order, what the solver wrote.
pub fn read(puzzle: &Puzzle, input: &str) -> Result<Vec<CellProgress>, StateError> {
    if sudokuwiki::packed_start(input).is_some() {
        let (packed, progress) = sudokuwiki::read_packed(input).map_err(StateError::Packed)?;
        if packed.cages() != puzzle.cages() || packed.boxes() != puzzle.boxes() {
            return Err(StateError::OtherPuzzle);
        }
        return Ok(progress);
    }
    read_grid(puzzle.size(), input)
}

/// Reads a plain-grid position (see the module's doc).
pub fn read_grid(size: Size, input: &str) -> Result<Vec<CellProgress>, StateError> {
    let n = size.get();
    let mut rows: Vec<(usize, Vec<CellProgress>)> = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.chars().all(|c| "-+=| \t".contains(c))
        {
            continue;
        }
        rows.push((i + 1, read_row(size, i + 1, line)?));
    }
    if let [(line, cells)] = rows.as_slice() {
        if cells.len() == size.cell_count() {
            return Ok(cells.clone());
        }
        if cells.len() != n {
            return Err(StateError::RowLength {
                line: *line,
                expected: n,
                got: cells.len(),
            });
        }
    }
    if rows.is_empty() {
        return Err(StateError::Empty);
    }
    if rows.len() != n {
        return Err(StateError::RowCount {
            expected: n,
            got: rows.len(),
        });
    }
    let mut out = Vec::with_capacity(size.cell_count());
    for (line, cells) in rows {
        if cells.len() != n {
            return Err(StateError::RowLength {
                line,
                expected: n,
                got: cells.len(),
            });
        }
        out.extend(cells);
    }
    Ok(out)
}

/// The cells of one line.
fn read_row(size: Size, line: usize, text: &str) -> Result<Vec<CellProgress>, StateError> {
    let problem = |column: usize, problem: String| StateError::Grid {
        line,
        column,
        problem,
    };
    let mut cells = Vec::new();
    let mut chars = text.chars().enumerate().peekable();
    while let Some((i, ch)) = chars.next() {
        let column = i + 1;
        match ch {
            ' ' | '\t' | '|' | '\r' => {}
            '.' | '0' | '_' => cells.push(CellProgress::Unknown),
            '[' | '(' | '{' => {
                let close = match ch {
                    '[' => ']',
                    '(' => ')',
                    _ => '}',
                };
                let mut marks = Digits::EMPTY;
                loop {
                    match chars.next() {
                        Some((_, c)) if c == close => break,
                        Some((_, ' ' | ',')) => {}
                        Some((j, c)) => match digit(size, c) {
                            Some(d) => marks.insert(d),
                            None => {
                                return Err(problem(
                                    j + 1,
                                    format!("{c:?} is not a digit of the grid"),
                                ))
                            }
                        },
                        None => {
                            return Err(problem(column, format!("no {close:?} closes this {ch:?}")))
                        }
                    }
                }
                // No mark written is a blank cell, as on the page.
                cells.push(if marks.is_empty() {
                    CellProgress::Unknown
                } else {
                    CellProgress::Candidates(marks)
                });
            }
            c => match digit(size, c) {
                Some(d) => cells.push(CellProgress::Solved(d)),
                None => {
                    return Err(problem(
                        column,
                        format!("{c:?} is not a digit of the grid, '.' or a '['"),
                    ))
                }
            },
        }
    }
    Ok(cells)
}

/// A digit of the grid: `1`–`9`, then `a`–`g` (either case) for 10–16.
fn digit(size: Size, c: char) -> Option<Digit> {
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        'a'..='g' => c as u32 - 'a' as u32 + 10,
        'A'..='G' => c as u32 - 'A' as u32 + 10,
        _ => return None,
    };
    (d as usize <= size.get()).then_some(d as Digit)
}

/// Writes a position as a plain grid: one row a line, cells separated by spaces,
/// pencil marks in brackets.
pub fn write_grid(size: Size, cells: &[CellProgress]) -> String {
    let symbol = |d: Digit| {
        if d <= 9 {
            (b'0' + d) as char
        } else {
            (b'a' + d - 10) as char
        }
    };
    cells
        .chunks(size.get())
        .map(|row| {
            row.iter()
                .map(|cell| match *cell {
                    CellProgress::Unknown => ".".to_string(),
                    CellProgress::Solved(d) => symbol(d).to_string(),
                    CellProgress::Candidates(m) => {
                        format!("[{}]", m.iter().map(symbol).collect::<String>())
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(n: usize) -> Size {
        Size::new(n).unwrap()
    }

    #[test]
    fn grid_with_pencil_marks_reads_and_writes_back() {
        let text = "# comment\n4 . . .\n[12] [123] . .\n\n. . . .\n. . 2 .\n";
        let cells = read_grid(size(4), text).unwrap();
        assert_eq!(cells[0], CellProgress::Solved(4));
        assert_eq!(cells[1], CellProgress::Unknown);
        assert_eq!(
            cells[4],
            CellProgress::Candidates([1, 2].into_iter().collect())
        );
        assert_eq!(cells[14], CellProgress::Solved(2));
        let written = write_grid(size(4), &cells);
        assert_eq!(written, "4 . . .\n[12] [123] . .\n. . . .\n. . 2 .");
        assert_eq!(read_grid(size(4), &written).unwrap(), cells);
    }

    #[test]
    fn compact_rows_one_line_and_box_rules() {
        let rows = read_grid(size(4), "4...\n.3..\n----+----\n..1.\n...2").unwrap();
        let line = read_grid(size(4), "4....3....1....2").unwrap();
        assert_eq!(rows, line);
        let big = read_grid(size(16), &format!("{}\n", "g.a_".repeat(64))).unwrap();
        assert_eq!(big[0], CellProgress::Solved(16));
        assert_eq!(big[2], CellProgress::Solved(10));
    }

    #[test]
    fn errors_say_where() {
        let err = read_grid(size(4), "4 . . .\n. 5 . .\n. . . .\n. . . .").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 3: '5' is not a digit of the grid, '.' or a '['"
        );
        let err = read_grid(size(4), "4 . .\n. . . .\n. . . .\n. . . .").unwrap_err();
        assert_eq!(err.to_string(), "line 1: 3 cells, a row of the grid has 4");
        let err = read_grid(size(4), "4...\n....").unwrap_err();
        assert_eq!(err.to_string(), "the position has 2 rows, the grid has 4");
        let err = read_grid(size(4), "[12 . . .\n. . . .\n. . . .\n. . . .").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 5: '.' is not a digit of the grid"
        );
        let err = read_grid(size(4), ". . . .\n. . . .\n. . . .\n. . . [12").unwrap_err();
        assert_eq!(err.to_string(), "line 4, column 7: no ']' closes this '['");
        // Brackets with no mark in them: a blank cell, as `.` is.
        assert_eq!(
            read_grid(size(4), "[] . . .\n. . . .\n. . . .\n. . . .").unwrap(),
            read_grid(size(4), ". . . .\n. . . .\n. . . .\n. . . .").unwrap()
        );
        assert_eq!(read_grid(size(4), "# nothing\n"), Err(StateError::Empty));
    }
}
