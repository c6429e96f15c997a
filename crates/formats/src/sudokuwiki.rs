//! SudokuWiki's KenKen strings: the packed `K6C` (KenKen 6x6) and `D6C` (KenDoku
//! 6x6, 2x3 boxes) strings with per-cell progress, and the unpacked
//! `KenKen6x6.aspx?bd=` URL.
//!
//! A packed string is the prefix then 36 cells in reading order, 4 base-36 digits
//! each, of `p = (colour << 18) + (field << 7) + progress`:
//!
//! * colour 0..=4 — cages are drawn by colour, so two edge-adjacent cells of the
//!   same colour are in the same cage; that is how the reader recovers the cages;
//! * field, 11 bits — the clue in a cage's first cell, the operator number in the
//!   next cell (right if in the cage, else below), 0 elsewhere;
//! * progress, 7 bits — 0 unknown, 7..=12 solved digit + 6, else candidate bits + 12.

use crate::cages::{char_offset, PendingCage};
use crate::our_reading;
use crate::{Format, FormatError, Location, Rule, WriteError};
use kenken_model::{CellId, Digit, Digits, Puzzle, Size};

/// The only grid side the packed and URL formats hold.
const SIDE: usize = 6;
/// The largest clue an 11-bit field holds.
pub const MAX_PACKED_CLUE: u64 = 2047;
const URL_PREFIX: &str = "https://www.sudokuwiki.org/KenKen6x6.aspx?bd=";

/// What is known about one cell in a packed string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellProgress {
    /// Nothing noted (progress 0).
    Unknown,
    /// Pencil-marked candidates (progress = bits + 12).
    Candidates(Digits),
    /// A placed digit (progress = digit + 6).
    Solved(Digit),
}

impl CellProgress {
    /// The 7-bit progress number; `unnoted` is what [`CellProgress::Unknown`]
    /// becomes (0 for a bare puzzle, the full mask for a solver state).
    fn code(self, cell: &str, unnoted: u32) -> Result<u32, WriteError> {
        match self {
            CellProgress::Unknown => Ok(unnoted),
            CellProgress::Solved(d) if (1..=SIDE as u8).contains(&d) => Ok(d as u32 + 6),
            CellProgress::Solved(d) => Err(WriteError::DigitOutOfRange {
                cell: cell.to_string(),
                digit: d,
                size: SIDE,
            }),
            CellProgress::Candidates(c) if c.is_empty() => {
                Err(WriteError::EmptyCandidates(cell.to_string()))
            }
            CellProgress::Candidates(c) => match c.max() {
                Some(d) if d as usize > SIDE => Err(WriteError::DigitOutOfRange {
                    cell: cell.to_string(),
                    digit: d,
                    size: SIDE,
                }),
                _ => Ok(c.bits() as u32 + 12),
            },
        }
    }

    fn from_code(code: u32) -> Option<CellProgress> {
        match code {
            0 => Some(CellProgress::Unknown),
            7..=12 => Some(CellProgress::Solved((code - 6) as Digit)),
            13..=75 => Some(CellProgress::Candidates(Digits::from_bits(
                (code - 12) as u16,
            ))),
            _ => None,
        }
    }
}

/// Reads a K6C or D6C string, dropping the progress.
pub fn read(input: &str) -> Result<Puzzle, FormatError> {
    read_packed(input).map(|(p, _)| p)
}

/// Reads a K6C or D6C string: the puzzle (a KenDoku with 2x3 boxes for D6C) and the
/// progress of each of the 36 cells in reading order.
pub fn read_packed(input: &str) -> Result<(Puzzle, Vec<CellProgress>), FormatError> {
    let Some(start) = packed_start(input) else {
        let at = char_offset(input, input.len() - input.trim_start().len());
        return Err(FormatError::at(Format::K6c, at, Rule::PackedPrefix));
    };
    let kendoku = input.as_bytes()[start].eq_ignore_ascii_case(&b'D');
    let format = if kendoku { Format::D6c } else { Format::K6c };
    let body_start = start + 3;
    // In a pasted address the string may be followed by more URL parameters.
    let rest = &input[body_start..];
    let body = rest[..rest.find(['&', '#']).unwrap_or(rest.len())].trim_end();
    let count = body.chars().count();
    if count != 4 * SIDE * SIDE {
        return Err(FormatError::at(
            format,
            char_offset(input, body_start),
            Rule::PackedLength(count),
        ));
    }
    let size = Size::new(SIDE).map_err(|e| FormatError::from((format, e)))?;
    let mut colour = [0u32; SIDE * SIDE];
    let mut field = [0u32; SIDE * SIDE];
    let mut progress = Vec::with_capacity(SIDE * SIDE);
    let chars: Vec<char> = body.chars().collect();
    let first_char = char_offset(input, body_start);
    for cell in 0..SIDE * SIDE {
        let at_cell = Location::Cell {
            row: cell / SIDE,
            col: cell % SIDE,
        };
        let mut p = 0u32;
        for k in 0..4 {
            let ch = chars[4 * cell + k];
            let d = ch.to_digit(36).ok_or_else(|| {
                FormatError::at(format, first_char + 4 * cell + k, Rule::Base36(ch))
            })?;
            p = p * 36 + d;
        }
        colour[cell] = p >> 18;
        field[cell] = (p >> 7) & 0x7ff;
        if colour[cell] > 4 {
            return Err(FormatError::new(
                format,
                at_cell,
                Rule::Colour(colour[cell]),
            ));
        }
        let code = p & 0x7f;
        progress.push(
            CellProgress::from_code(code)
                .ok_or_else(|| FormatError::new(format, at_cell.clone(), Rule::Progress(code)))?,
        );
    }

    let cages = colour_areas(&colour);
    let mut pending = Vec::with_capacity(cages.len());
    for cells in cages {
        let anchor = cells[0];
        let at = |c: usize| Location::Cell {
            row: c / SIDE,
            col: c % SIDE,
        };
        let op_cell = op_cell(anchor, |c| cells.contains(&c));
        let op = match op_cell {
            None => kenken_model::Op::Given,
            Some(oc) => match field[oc] {
                0 => {
                    return Err(FormatError::new(
                        format,
                        at(oc),
                        Rule::MissingOperator { cells: cells.len() },
                    ))
                }
                code => our_reading::packed_operator(code)
                    .ok_or_else(|| FormatError::new(format, at(oc), Rule::OperatorCode(code)))?,
            },
        };
        for &c in &cells {
            if c != anchor && Some(c) != op_cell && field[c] != 0 {
                return Err(FormatError::new(format, at(c), Rule::StrayField(field[c])));
            }
        }
        pending.push(PendingCage {
            cells: cells.iter().map(|&c| CellId::new(c)).collect(),
            op,
            clue: field[anchor] as u64,
            location: at(anchor),
            label: format!("at {}", size.cell_label(CellId::new(anchor))),
        });
    }
    let boxes = kendoku.then_some((2, 3));
    let puzzle = crate::cages::assemble(format, size, pending, boxes)?;
    Ok((puzzle, progress))
}

/// The cages of a colouring: the edge-connected areas of one colour, each in
/// reading order, in the order of their first cells.
fn colour_areas(colour: &[u32; SIDE * SIDE]) -> Vec<Vec<usize>> {
    let mut area = [usize::MAX; SIDE * SIDE];
    let mut cages = Vec::new();
    for first in 0..SIDE * SIDE {
        if area[first] != usize::MAX {
            continue;
        }
        let id = cages.len();
        let mut cells = vec![first];
        area[first] = id;
        let mut k = 0;
        while k < cells.len() {
            let c = cells[k];
            k += 1;
            for n in neighbours(c) {
                if area[n] == usize::MAX && colour[n] == colour[c] {
                    area[n] = id;
                    cells.push(n);
                }
            }
        }
        cells.sort_unstable();
        cages.push(cells);
    }
    cages
}

/// Reads SudokuWiki's unpacked KenKen URL (`…KenKen6x6.aspx?bd=` + 36 cage colours
/// `1`–`5` + `,` + each cell's entry and a `,`): cages are the edge-connected
/// areas of one colour, and a cage's clue and operator (`12x`, `3-`, `2/`, `7+`, or
/// a bare value for a given) stand in its first cell, nothing in its others.
pub fn read_url(input: &str) -> Result<Puzzle, FormatError> {
    const KEY: &str = "kenken6x6.aspx?bd=";
    let format = Format::SudokuWiki;
    let Some(key) = find_ignore_ascii_case(input, KEY) else {
        return Err(FormatError::new(format, Location::Input, Rule::UrlPrefix));
    };
    let start = key + KEY.len();
    let rest = &input[start..];
    let body = rest[..rest.find(['&', '#']).unwrap_or(rest.len())].trim_end();
    let at = |offset: usize| char_offset(input, start + offset);
    let size = Size::new(SIDE).map_err(|e| FormatError::from((format, e)))?;

    let mut colour = [0u32; SIDE * SIDE];
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits != SIDE * SIDE || body.as_bytes().get(digits) != Some(&b',') {
        return Err(FormatError::at(format, at(0), Rule::UrlColours(digits)));
    }
    for (cell, b) in body.bytes().take(SIDE * SIDE).enumerate() {
        match b {
            b'1'..=b'5' => colour[cell] = u32::from(b - b'1'),
            _ => {
                return Err(FormatError::at(
                    format,
                    at(cell),
                    Rule::Colour(u32::from(b - b'0')),
                ))
            }
        }
    }
    let entries_text = &body[digits + 1..];
    let mut entries: Vec<&str> = entries_text.split(',').collect();
    // Each entry is followed by a comma, so the last piece is empty.
    if entries.last() == Some(&"") {
        entries.pop();
    }
    if entries.len() != SIDE * SIDE {
        return Err(FormatError::at(
            format,
            at(digits + 1),
            Rule::UrlEntries(entries.len()),
        ));
    }
    let cell_at = |c: usize| Location::Cell {
        row: c / SIDE,
        col: c % SIDE,
    };
    let mut pending = Vec::new();
    for cells in colour_areas(&colour) {
        let anchor = cells[0];
        for &c in &cells[1..] {
            if !entries[c].trim().is_empty() {
                return Err(FormatError::new(
                    format,
                    cell_at(c),
                    Rule::UrlStrayEntry(entries[c].trim().chars().take(40).collect()),
                ));
            }
        }
        let (op, clue) = our_reading::parse_unpacked_url_entry(entries[anchor].trim(), cells.len())
            .ok_or_else(|| {
                FormatError::new(
                    format,
                    cell_at(anchor),
                    Rule::UrlEntry(entries[anchor].trim().chars().take(40).collect()),
                )
            })?;
        pending.push(PendingCage {
            cells: cells.iter().map(|&c| CellId::new(c)).collect(),
            op,
            clue,
            location: cell_at(anchor),
            label: format!("at {}", size.cell_label(CellId::new(anchor))),
        });
    }
    crate::cages::assemble(format, size, pending, None)
}

/// Writes a KenKen 6x6 as a K6C string. `progress` (36 cells, reading order) is a
/// solver state to store; without it every cell is written "nothing known".
pub fn write_k6c(puzzle: &Puzzle, progress: Option<&[CellProgress]>) -> Result<String, WriteError> {
    if puzzle.is_kendoku() {
        return Err(WriteError::KenDokuNotSupported(Format::K6c));
    }
    write_packed(puzzle, Format::K6c, progress)
}

/// Writes a KenDoku 6x6 (2x3 boxes) as a D6C string; see [`write_k6c`].
pub fn write_d6c(puzzle: &Puzzle, progress: Option<&[CellProgress]>) -> Result<String, WriteError> {
    check_size(puzzle, Format::D6c)?;
    if puzzle.boxes() != Some((2, 3)) {
        return Err(WriteError::NotKenDoku);
    }
    write_packed(puzzle, Format::D6c, progress)
}

fn check_size(puzzle: &Puzzle, format: Format) -> Result<(), WriteError> {
    if puzzle.has_hidden_ops() {
        return Err(WriteError::HiddenOperations(format));
    }
    let n = puzzle.size().get();
    if n != SIDE {
        return Err(WriteError::UnsupportedSize {
            format,
            size: n,
            supported: "6x6",
        });
    }
    Ok(())
}

fn write_packed(
    puzzle: &Puzzle,
    format: Format,
    progress: Option<&[CellProgress]>,
) -> Result<String, WriteError> {
    check_size(puzzle, format)?;
    let size = puzzle.size();
    if let Some(p) = progress {
        if p.len() != SIDE * SIDE {
            return Err(WriteError::ProgressLength {
                expected: SIDE * SIDE,
                found: p.len(),
            });
        }
    }
    let colours = colour_cages(puzzle)?;
    let mut field = [0u32; SIDE * SIDE];
    for cage in puzzle.cages() {
        let anchor = cage.anchor().index();
        if cage.clue > MAX_PACKED_CLUE {
            return Err(WriteError::ClueTooLarge {
                format,
                cell: size.cell_name(cage.anchor()),
                clue: cage.clue,
                max: MAX_PACKED_CLUE,
            });
        }
        field[anchor] = cage.clue as u32;
        if let Some(code) = our_reading::packed_operator_code(cage.op) {
            let mine = |c: usize| cage.cells.contains(&CellId::new(c));
            if let Some(oc) = op_cell(anchor, mine) {
                field[oc] = code;
            }
        }
    }
    let unnoted = our_reading::unnoted_candidates(SIDE).bits() as u32 + 12;
    let mut out = String::with_capacity(3 + 4 * SIDE * SIDE);
    out.push_str(if format == Format::D6c { "D6C" } else { "K6C" });
    for cell in size.cells() {
        let i = cell.index();
        let prog = match progress {
            None => 0,
            Some(p) => p[i].code(&size.cell_name(cell), unnoted)?,
        };
        let colour = colours[puzzle.cage_of(cell).index()] as u32;
        let p = (((colour << 11) + field[i]) << 7) + prog;
        push_base36(&mut out, p);
    }
    Ok(out)
}

/// Writes a KenKen 6x6 as SudokuWiki's unpacked solver URL.
pub fn write_url(puzzle: &Puzzle) -> Result<String, WriteError> {
    check_size(puzzle, Format::SudokuWiki)?;
    if puzzle.is_kendoku() {
        return Err(WriteError::KenDokuNotSupported(Format::SudokuWiki));
    }
    let colours = colour_cages(puzzle)?;
    let size = puzzle.size();
    let mut out = String::from(URL_PREFIX);
    for cell in size.cells() {
        let colour = colours[puzzle.cage_of(cell).index()];
        out.push((b'1' + colour) as char);
    }
    out.push(',');
    for cell in size.cells() {
        let cage = puzzle.cage(puzzle.cage_of(cell));
        if cage.anchor() == cell {
            out.push_str(&our_reading::unpacked_url_entry(cage.op, cage.clue));
        }
        out.push(',');
    }
    Ok(out)
}

/// Colours the cages with at most 5 colours (0..=4) so that cages sharing an edge
/// differ: greedily in cage order (each cage takes the smallest colour its earlier
/// neighbours leave free), falling back to backtracking when 5 are not enough. The
/// result is the lexicographically first proper colouring, so it equals the greedy
/// one whenever greedy succeeds. Returns one colour per cage, in cage order.
pub fn colour_cages(puzzle: &Puzzle) -> Result<Vec<u8>, WriteError> {
    let adjacent = cage_adjacency(puzzle);
    match greedy_colouring(&adjacent) {
        Some(c) => Ok(c),
        None => backtracking_colouring(&adjacent),
    }
}

/// For each cage, the cages it shares an edge with.
fn cage_adjacency(puzzle: &Puzzle) -> Vec<Vec<usize>> {
    let size = puzzle.size();
    let mut adjacent = vec![Vec::<usize>::new(); puzzle.cages().len()];
    for cell in size.cells() {
        let (r, c) = (size.row(cell), size.col(cell));
        let a = puzzle.cage_of(cell).index();
        let mut link = |other: CellId| {
            let b = puzzle.cage_of(other).index();
            if a != b && !adjacent[a].contains(&b) {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
        };
        if c + 1 < size.get() {
            link(size.cell(r, c + 1));
        }
        if r + 1 < size.get() {
            link(size.cell(r + 1, c));
        }
    }
    adjacent
}

/// The smallest colour from `from` on that no neighbour of cage `i` has.
fn free_colour(adjacent: &[Vec<usize>], colour: &[u8], i: usize, from: u8) -> Option<u8> {
    (from..5).find(|&k| adjacent[i].iter().all(|&j| colour[j] != k))
}

/// Each cage in order takes the smallest colour its earlier neighbours leave free;
/// `None` when some cage finds all 5 taken.
fn greedy_colouring(adjacent: &[Vec<usize>]) -> Option<Vec<u8>> {
    let mut colour = vec![u8::MAX; adjacent.len()];
    for i in 0..adjacent.len() {
        colour[i] = free_colour(adjacent, &colour, i, 0)?;
    }
    Some(colour)
}

/// Depth-first search in cage order, colours tried in increasing order, with a step
/// budget so no puzzle can hang a writer (a planar map always has a 5-colouring;
/// the budget is never met in practice).
fn backtracking_colouring(adjacent: &[Vec<usize>]) -> Result<Vec<u8>, WriteError> {
    let n = adjacent.len();
    let mut colour = vec![u8::MAX; n];
    let mut i = 0usize;
    let mut budget: u64 = 10_000_000;
    while i < n {
        budget = budget.checked_sub(1).ok_or(WriteError::Colouring)?;
        let from = if colour[i] == u8::MAX {
            0
        } else {
            colour[i] + 1
        };
        colour[i] = u8::MAX;
        match free_colour(adjacent, &colour, i, from) {
            Some(k) => {
                colour[i] = k;
                i += 1;
            }
            None if i == 0 => return Err(WriteError::Colouring),
            None => i -= 1,
        }
    }
    Ok(colour)
}

/// The cell holding a cage's operator: the one right of its first cell if it is in
/// the cage, otherwise the one below if it is; `None` for a single cell.
fn op_cell(anchor: usize, in_cage: impl Fn(usize) -> bool) -> Option<usize> {
    let (r, c) = (anchor / SIDE, anchor % SIDE);
    if c + 1 < SIDE && in_cage(anchor + 1) {
        Some(anchor + 1)
    } else if r + 1 < SIDE && in_cage(anchor + SIDE) {
        Some(anchor + SIDE)
    } else {
        None
    }
}

fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / SIDE, cell % SIDE);
    [
        (r > 0).then(|| cell - SIDE),
        (c > 0).then(|| cell - 1),
        (c + 1 < SIDE).then_some(cell + 1),
        (r + 1 < SIDE).then_some(cell + SIDE),
    ]
    .into_iter()
    .flatten()
}

fn push_base36(out: &mut String, p: u32) {
    let mut digits = [b'0'; 4];
    let mut v = p;
    for d in digits.iter_mut().rev() {
        *d = b"0123456789abcdefghijklmnopqrstuvwxyz"[(v % 36) as usize];
        v /= 36;
    }
    out.extend(digits.iter().map(|&b| b as char));
}

/// The byte offset in `input` where a packed string's `K6C` / `D6C` prefix starts:
/// at the start (after spaces), or after `bd=` in a pasted SudokuWiki address.
pub(crate) fn packed_start(input: &str) -> Option<usize> {
    let lead = input.len() - input.trim_start().len();
    let is_prefix = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 3
            && (b[0].eq_ignore_ascii_case(&b'K') || b[0].eq_ignore_ascii_case(&b'D'))
            && b[1] == b'6'
            && b[2].eq_ignore_ascii_case(&b'C')
    };
    if is_prefix(&input[lead..]) {
        return Some(lead);
    }
    let bd = find_ignore_ascii_case(input, "bd=")? + 3;
    is_prefix(&input[bd..]).then_some(bd)
}

/// The byte offset of the first occurrence of `needle` (ASCII) in `haystack`,
/// ignoring ASCII case; without lower-casing a copy of the input, as format
/// detection runs on every line of a batch.
fn find_ignore_ascii_case(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(0);
    }
    h.windows(n.len()).position(|w| w.eq_ignore_ascii_case(n))
}

/// Whether a packed string (see [`packed_start`]) is a D6C.
pub(crate) fn packed_is_kendoku(input: &str) -> bool {
    packed_start(input).is_some_and(|s| input.as_bytes()[s].eq_ignore_ascii_case(&b'D'))
}

/// Whether the input looks like SudokuWiki's unpacked KenKen URL.
pub(crate) fn looks_like_unpacked_url(input: &str) -> bool {
    find_ignore_ascii_case(input, "kenken6x6.aspx?bd=")
        .is_some_and(|i| input.as_bytes().get(i + 18).is_some_and(u8::is_ascii_digit))
}

/// The colour (0..=4) of each cell's cage in reading order, as the packed and URL
/// writers use it.
pub fn cell_colours(puzzle: &Puzzle) -> Result<Vec<u8>, WriteError> {
    let colours = colour_cages(puzzle)?;
    Ok(puzzle
        .size()
        .cells()
        .map(|c| colours[puzzle.cage_of(c).index()])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tatham;

    const README: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";

    #[test]
    fn packed_round_trip_with_progress() {
        let p = tatham::read(README).unwrap();
        let s = write_k6c(&p, None).unwrap();
        assert_eq!(s.len(), 3 + 144);
        let (q, prog) = read_packed(&s).unwrap();
        assert_eq!(q, p);
        assert!(prog.iter().all(|&c| c == CellProgress::Unknown));
        let mut state = vec![CellProgress::Unknown; 36];
        state[0] = CellProgress::Solved(4);
        state[1] = CellProgress::Candidates(Digits::from_iter([1, 6]));
        let s = write_k6c(&p, Some(&state)).unwrap();
        let (_, prog) = read_packed(&s.to_ascii_uppercase()).unwrap();
        assert_eq!(prog[0], CellProgress::Solved(4));
        assert_eq!(prog[1], CellProgress::Candidates(Digits::from_iter([1, 6])));
        assert_eq!(prog[2], CellProgress::Candidates(Digits::full(6)));
    }

    #[test]
    fn d6c_is_kendoku() {
        let p = tatham::read(README).unwrap();
        assert!(matches!(write_d6c(&p, None), Err(WriteError::NotKenDoku)));
        let k = Puzzle::new_kendoku(p.size(), p.cages().to_vec(), 2, 3).unwrap();
        let s = write_d6c(&k, None).unwrap();
        assert!(s.starts_with("D6C"));
        assert_eq!(read(&s).unwrap(), k);
        assert!(matches!(
            write_k6c(&k, None),
            Err(WriteError::KenDokuNotSupported(Format::K6c))
        ));
    }

    #[test]
    fn other_sizes_and_large_clues_are_refused() {
        let p = tatham::read("4:_a_7a4_a3,m2m3d2d2a7s1s2a3").unwrap();
        assert!(matches!(
            write_k6c(&p, None),
            Err(WriteError::UnsupportedSize { size: 4, .. })
        ));
        assert!(write_url(&p).is_err());
        let big = tatham::read(
            "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m2048m24d2",
        )
        .unwrap();
        assert!(matches!(
            write_k6c(&big, None),
            Err(WriteError::ClueTooLarge { clue: 2048, .. })
        ));
    }

    #[test]
    fn backtracking_when_greedy_runs_out() {
        // Found by a random search: greedy in cage order (letters are in cage
        // order) gives O's neighbours all five colours, so O needs backtracking.
        let rows = ["AABCCC", "AADEFG", "HIJKFG", "HLLKMN", "OOLOON", "OOOOPP"];
        let s = Size::new(6).unwrap();
        let mut letters: Vec<char> = rows.concat().chars().collect();
        letters.sort_unstable();
        letters.dedup();
        let cages = letters
            .iter()
            .map(|&l| {
                let cells = s
                    .cells()
                    .filter(|c| rows[s.row(*c)].as_bytes()[s.col(*c)] == l as u8)
                    .collect();
                kenken_model::Cage::new(cells, kenken_model::Op::Add, 7)
            })
            .collect();
        let p = Puzzle::new(s, cages).unwrap();
        assert_eq!(greedy_colouring(&cage_adjacency(&p)), None);
        let colours = colour_cages(&p).unwrap();
        for cell in s.cells() {
            for other in s.cells() {
                let adjacent =
                    s.row(cell).abs_diff(s.row(other)) + s.col(cell).abs_diff(s.col(other)) == 1;
                let (a, b) = (p.cage_of(cell), p.cage_of(other));
                if adjacent && a != b {
                    assert_ne!(colours[a.index()], colours[b.index()]);
                }
            }
        }
        let s = write_k6c(&p, None).unwrap();
        assert_eq!(read(&s).unwrap(), p);
    }

    #[test]
    fn url() {
        let p = tatham::read(README).unwrap();
        let u = write_url(&p).unwrap();
        assert!(u.starts_with(URL_PREFIX));
        assert!(u.contains(",2-,,9+,"), "{u}");
        assert_eq!(u.matches(',').count(), 37);
        assert_eq!(read_url(&u).unwrap(), p);
        // Pasted with more parameters after it, and `*` for times.
        let pasted = format!("{}&x=1", u.replace(",6x,", ",6*,"));
        assert_eq!(read_url(&pasted).unwrap(), p);
    }

    #[test]
    fn url_errors_say_what_is_wrong() {
        let u = write_url(&tatham::read(README).unwrap()).unwrap();
        let rule = |s: &str| read_url(s).unwrap_err().rule;
        assert_eq!(rule("https://example.org/?bd=1"), Rule::UrlPrefix);
        assert_eq!(rule(&u.replacen("?bd=1", "?bd=", 1)), Rule::UrlColours(35));
        assert_eq!(rule(&u.replacen("?bd=1", "?bd=6", 1)), Rule::Colour(6));
        assert_eq!(rule(&u.replace(",2/,,", ",2/,")), Rule::UrlEntries(35));
        assert_eq!(
            rule(&u.replace(",9+,", ",9%,")),
            Rule::UrlEntry("9%".into())
        );
        assert_eq!(
            rule(&u.replace(",2-,,", ",2-,3,")),
            Rule::UrlStrayEntry("3".into())
        );
    }
}
