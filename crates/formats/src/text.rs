//! The line-per-cage text format, meant for people to read and type:
//!
//! ```text
//! # 3
//! + 3 A1 B1
//! + 5 A2 B2
//! ! 1 A3
//! + 5 B3 C3
//! + 4 C1 C2
//! ```
//!
//! The first line is `# <size>`; then one line per cage: operator (`+ - * / !`, also
//! `– x × ÷`), clue, cells named row letter + column number (`A1` top left). `!` is
//! a single given cell. See [`our_reading::TEXT_FORGIVING_SPELLING`] for what else
//! the reader forgives.

use crate::cages::{assemble, PendingCage};
use crate::error::quoted;
use crate::our_reading;
use crate::{Format, FormatError, Location, Rule, WriteError};
use kenken_model::{CellId, Op, Puzzle, Size};

const FORMAT: Format = Format::Text;

/// Reads the text format.
pub fn read(input: &str) -> Result<Puzzle, FormatError> {
    let mut lines = input
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else {
        return Err(FormatError::new(FORMAT, Location::Input, Rule::Empty));
    };
    let size = parse_header(header).map_err(|rule| {
        FormatError::new(
            FORMAT,
            Location::Line {
                line: header_line,
                column: None,
            },
            rule,
        )
    })?;
    let mut cages = Vec::new();
    for (line, text) in lines {
        cages.push(parse_cage(size, line, text)?);
    }
    assemble(FORMAT, size, cages, None)
}

fn parse_header(header: &str) -> Result<Size, Rule> {
    let rest = header.trim().strip_prefix('#').ok_or(Rule::MissingHeader)?;
    let n = rest.trim();
    n.parse::<usize>()
        .ok()
        .and_then(|v| Size::new(v).ok())
        .ok_or_else(|| Rule::BadSize(quoted(n)))
}

/// The whitespace-separated words of a line with their 1-based character columns.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, ch)) in text.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (true, Some((b, c))) => {
                out.push((c + 1, &text[b..byte]));
                start = None;
            }
            (false, None) => start = Some((byte, col)),
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push((c + 1, &text[b..]));
    }
    out
}

fn parse_cage(size: Size, line: usize, text: &str) -> Result<PendingCage, FormatError> {
    let at = |column: usize| Location::Line {
        line,
        column: Some(column),
    };
    let err = |column: usize, rule| FormatError::new(FORMAT, at(column), rule);
    let words = words(text);
    let (op_col, op_word) = words[0];
    let op = our_reading::operator_from_spelling(op_word)
        .ok_or_else(|| err(op_col, Rule::BadOperator(quoted(op_word))))?;
    let Some(&(value_col, value_word)) = words.get(1) else {
        return Err(err(
            op_col + op_word.chars().count(),
            Rule::BadValue(String::new()),
        ));
    };
    let clue = value_word
        .parse::<u64>()
        .ok()
        .filter(|_| value_word.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| err(value_col, Rule::BadValue(quoted(value_word))))?;
    let mut cells: Vec<CellId> = Vec::new();
    for &(col, name) in &words[2..] {
        let cell = parse_cell(size, name).map_err(|rule| err(col, rule))?;
        if cells.contains(&cell) {
            return Err(err(col, Rule::DuplicateCell(size.cell_label(cell))));
        }
        cells.push(cell);
    }
    if cells.is_empty() {
        return Err(FormatError::new(
            FORMAT,
            Location::Line { line, column: None },
            Rule::NoCells,
        ));
    }
    Ok(PendingCage {
        cells,
        op,
        clue,
        location: Location::Line { line, column: None },
        label: format!("on line {line}"),
    })
}

/// `B3` (or `b3`): row letter, 1-based column number.
fn parse_cell(size: Size, name: &str) -> Result<CellId, Rule> {
    let bad = || Rule::BadCellName(quoted(name));
    let mut chars = name.chars();
    let letter = chars.next().ok_or_else(bad)?;
    if !letter.is_ascii_alphabetic() {
        return Err(bad());
    }
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return Err(bad());
    }
    let row = (letter.to_ascii_uppercase() as u8 - b'A') as usize;
    let col = digits.parse::<usize>().map_err(|_| bad())?;
    if row >= size.get() || col == 0 || col > size.get() {
        return Err(Rule::CellOutside {
            name: name.to_string(),
            size: size.get(),
        });
    }
    Ok(size.cell(row, col - 1))
}

/// How the text format writes an operation (`+ - * / !`); `None` when it is
/// hidden (the format then writes `?`).
pub fn op_symbol(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::Given => "!",
        Op::Hidden => return None,
    })
}

/// Writes the text format: `# <size>`, then one line per cage in clue order, cells
/// in reading order, operators `+ - * / !`. No trailing newline.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    if puzzle.is_kendoku() {
        return Err(WriteError::KenDokuNotSupported(FORMAT));
    }
    let size = puzzle.size();
    let mut out = format!("# {}", size.get());
    for cage in puzzle.cages() {
        out.push_str(&format!(
            "\n{} {}",
            op_symbol(cage.op).unwrap_or("?"),
            cage.clue
        ));
        for &c in &cage.cells {
            out.push(' ');
            out.push_str(&size.cell_label(c));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "# 3\n+ 3 A1 B1\n+ 5 A2 B2\n! 1 A3\n+ 5 B3 C3\n+ 4 C1 C2";

    #[test]
    fn spec_example_round_trips() {
        let p = read(EXAMPLE).unwrap();
        assert_eq!(p.cages().len(), 5);
        assert_eq!(p.cages()[2].op, Op::Given);
        assert_eq!(write(&p).unwrap(), EXAMPLE);
    }

    #[test]
    fn forgiving_spellings() {
        let s = "\r\n#3\r\n+ 3 a1 b1\n\n× 10 A2 B2\n! 1 A3\n– 1 B3 C3\n÷ 2 C1 C2\n";
        let p = read(s).unwrap();
        assert_eq!(p.cages()[1].op, Op::Mul);
        assert_eq!(p.cages()[3].op, Op::Sub);
        assert_eq!(p.cages()[4].op, Op::Div);
    }

    #[test]
    fn a_hidden_operation_reads_and_writes_as_a_question_mark() {
        let text = "# 3\n? 3 A1 B1\n? 3 A2 A3\n? 6 B2 B3 C3\n? 5 C1 C2";
        let p = read(text).unwrap();
        assert!(p.cages().iter().all(|c| c.op == Op::Hidden));
        assert_eq!(write(&p).unwrap(), text);
        let e = crate::tatham::write(&p).unwrap_err();
        assert!(e.to_string().contains("only text can"), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("# 3\n+ 3 A1 B1\n+ 5 A2 B2 A1\n").unwrap_err();
        assert_eq!(
            e.location,
            Location::Line {
                line: 3,
                column: None
            }
        );
        assert!(matches!(e.rule, Rule::CellInTwoCages { .. }), "{e}");
        let e = read("# 3\n+ 3 A1 D1\n").unwrap_err();
        assert!(matches!(e.rule, Rule::CellOutside { .. }));
        assert_eq!(
            e.location,
            Location::Line {
                line: 2,
                column: Some(8)
            }
        );
        let e = read("# 3\n+ 3 A1 B1\n").unwrap_err();
        assert!(matches!(e.rule, Rule::CellUncovered(_)));
        let e = read("# 3\n% 3 A1 B1\n").unwrap_err();
        assert!(matches!(e.rule, Rule::BadOperator(_)));
        let e = read("3\n").unwrap_err();
        assert_eq!(e.rule, Rule::MissingHeader);
        let e = read("# 3\n+ 3 A1 A3\n+ 5 A2 B1 B2 B3 C1 C2 C3\n").unwrap_err();
        assert!(matches!(e.rule, Rule::CageNotConnected(_)));
        let e = read("# 3\n! 3 A1 A2\n").unwrap_err();
        assert!(matches!(e.rule, Rule::GivenWithSeveralCells(2)));
    }
}
