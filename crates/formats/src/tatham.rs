//! Simon Tatham's Keen game IDs: `<params>:<block structure>,<clues>`.
//!
//! The reader follows Tatham's `decode_params` / `validate_desc` step by step (same
//! checks, same order, same messages), so that a strict read accepts exactly the IDs
//! his program accepts — except for the `y`/`z` letters, where we follow his encoder
//! (see [`our_reading::Z_MEANS_25_WITHOUT_LINE`]) and for IDs with no description,
//! which we reject (see [`our_reading::REJECT_SEED_IDS`]). The lenient reading relaxes
//! the rules listed in [`RelaxedRule`]. The writer is Tatham's `encode_block_structure`
//! plus his clue encoding, so `write(read(s)) == s` for every ID his generator makes.

use crate::cages::char_offset;
use crate::error::quoted;
use crate::our_reading;
use crate::{Format, FormatError, Location, Rule, WriteError};
use kenken_model::{Cage, CellId, Op, Puzzle, Size, MAX_SIZE};
use std::fmt;

const FORMAT: Format = Format::Tatham;

/// How closely to follow Tatham's validation.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Strictness {
    /// Tatham's rules exactly (the default for validation).
    #[default]
    Strict,
    /// The reference solver's reading: also accepts what [`RelaxedRule`] lists.
    Lenient,
}

/// A Tatham rule that the lenient reading relaxes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RelaxedRule {
    /// `s` / `d` on a cage whose area is not 2 (generalised − / ÷ of `docs/ladder.md`).
    SubDivArea,
    /// A block structure one position short (no final virtual line).
    ShortBlockStructure,
    /// A grid larger than 9x9 (up to the model's 16x16).
    GridSize,
}

impl RelaxedRule {
    /// Tatham's message for the rule that was relaxed.
    pub fn tatham_rule(self) -> &'static str {
        match self {
            RelaxedRule::SubDivArea => "Subtraction and division blocks must have area 2",
            RelaxedRule::ShortBlockStructure => "Not enough data in block structure specification",
            RelaxedRule::GridSize => "Grid size must be between 3 and 9",
        }
    }
}

impl fmt::Display for RelaxedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RelaxedRule::SubDivArea => {
                "subtraction or division on a cage whose area is not 2 (read as largest minus / divided by the rest)"
            }
            RelaxedRule::ShortBlockStructure => {
                "block structure one position short (the final virtual line is missing)"
            }
            RelaxedRule::GridSize => "grid larger than Tatham's 9x9",
        })
    }
}

/// The grid size a game ID starts with (`6:` or `6dh:`), without reading the rest:
/// for ordering work by size before reading. `None` when the text does not start
/// like a plain game ID (a web-player URL, another format); reading the text is
/// what says whether it is a puzzle, and of which size.
pub fn size_hint(input: &str) -> Option<usize> {
    let b = input.trim_start().as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&digits) || !matches!(b.get(digits), Some(b':' | b'd' | b'm')) {
        return None;
    }
    b[..digits]
        .iter()
        .try_fold(0usize, |n, &c| Some(n * 10 + usize::from(c - b'0')))
}

/// The grid size of a game ID's parameters as written: its digits (with their
/// sign), or, when there are none, what the parameters hold instead.
fn size_as_written(params: &str, sign_or_digits: usize, end: usize) -> String {
    let digits_start = sign_or_digits
        + usize::from(matches!(
            params.as_bytes().get(sign_or_digits),
            Some(b'+' | b'-')
        ));
    if end > digits_start {
        return quoted(&params[sign_or_digits..end]);
    }
    format!("{:?}, not a number", quoted(params))
}

/// Reads a game ID with Tatham's strict rules.
pub fn read(input: &str) -> Result<Puzzle, FormatError> {
    read_with(input, Strictness::Strict).map(|(p, _)| p)
}

/// Reads a game ID; in lenient mode also returns the rules that had to be relaxed
/// (in the order first met; empty when the ID is strictly valid).
pub fn read_with(
    input: &str,
    strictness: Strictness,
) -> Result<(Puzzle, Vec<RelaxedRule>), FormatError> {
    Reader {
        input,
        lenient: strictness == Strictness::Lenient,
        relaxed: Vec::new(),
    }
    .read()
}

struct Reader<'a> {
    input: &'a str,
    lenient: bool,
    relaxed: Vec<RelaxedRule>,
}

impl Reader<'_> {
    fn err(&self, byte: usize, rule: Rule) -> FormatError {
        FormatError::at(FORMAT, char_offset(self.input, byte), rule)
    }

    fn relax(&mut self, rule: RelaxedRule) {
        if !self.relaxed.contains(&rule) {
            self.relaxed.push(rule);
        }
    }

    fn read(mut self) -> Result<(Puzzle, Vec<RelaxedRule>), FormatError> {
        let input = self.input;
        let start = input.len() - input.trim_start().len();
        let end = input.trim_end().len();
        if start >= end {
            return Err(FormatError::new(FORMAT, Location::Input, Rule::Empty));
        }
        // `id_start` is the byte offset of the game ID proper in `input`.
        let mut id_start = start;
        let mut id = &input[start..end];
        if let Some(h) = id.find('#') {
            if our_reading::is_web_player_prefix(&id[..h]) {
                id_start += h + 1;
                id = &id[h + 1..];
            }
        }
        // Tatham's midend: a ':' before any '#' separates params from description;
        // otherwise there is no description (bare params or a random seed).
        let colon = id.find(':');
        let hash = id.find('#');
        let colon = match (colon, hash) {
            (Some(c), Some(h)) if c < h => c,
            (Some(c), None) => c,
            _ => {
                return Err(self.err(id_start + hash.unwrap_or(0), Rule::NoDescription));
            }
        };
        let w = self.params(&id[..colon], id_start)?;
        let size = Size::new(w).map_err(|e| FormatError::from((FORMAT, e)))?;
        let desc_start = id_start + colon + 1;
        let desc = &id.as_bytes()[colon + 1..];
        self.description(size, desc, desc_start)
    }

    /// Tatham's `decode_params` then `validate_params`: the size is read like C's
    /// `atoi`; an optional `d<e|n|h|x|u>` and `m` follow; anything after is ignored.
    fn params(&mut self, params: &str, at: usize) -> Result<usize, FormatError> {
        let b = params.as_bytes();
        let mut i = 0;
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
            i += 1;
        }
        let number_start = i;
        let mut negative = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            negative = b[i] == b'-';
            i += 1;
        }
        let mut w: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            w = w.saturating_mul(10).saturating_add((b[i] - b'0') as i64);
            i += 1;
        }
        if negative {
            w = -w;
        }
        // For messages: the size as written, not as clamped to 64 bits.
        let written = || size_as_written(params, number_start, i);
        // Tatham skips digits from where atoi started, not after its sign.
        let mut p = 0;
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        let mut diff_ok = true;
        if p < b.len() && b[p] == b'd' {
            p += 1;
            diff_ok = p < b.len() && b"enhxu".contains(&b[p]);
        }
        if w < 3 || w > our_reading::TATHAM_MAX_SIZE as i64 {
            if self.lenient
                && w > our_reading::TATHAM_MAX_SIZE as i64
                && w <= our_reading::LENIENT_MAX_SIZE as i64
            {
                self.relax(RelaxedRule::GridSize);
            } else if self.lenient {
                return Err(self.err(at, Rule::LenientGridSize(written())));
            } else {
                return Err(self.err(at, Rule::GridSize(written())));
            }
        }
        if !diff_ok {
            return Err(self.err(at, Rule::UnknownDifficulty));
        }
        Ok(w as usize)
    }

    /// Tatham's `parse_block_structure` and the clue checks of `validate_desc`.
    fn description(
        &mut self,
        size: Size,
        desc: &[u8],
        at: usize,
    ) -> Result<(Puzzle, Vec<RelaxedRule>), FormatError> {
        let w = size.get();
        let a = w * w;
        let edges = 2 * w * (w - 1);
        let mut dsf = Dsf::new(a);
        let mut pos = 0usize;
        let mut i = 0usize;
        while i < desc.len() && desc[i] != b',' {
            let token = i;
            let c = desc[i];
            let letter = match c {
                b'_' => 0usize,
                b'a'..=b'z' => (c - b'a') as usize + 1,
                _ => {
                    let ch = self.input[at + i..].chars().next().unwrap_or('?');
                    return Err(self.err(at + i, Rule::InvalidCharacter(ch)));
                }
            };
            i += 1;
            let digits = i;
            let mut count: u64 = 0;
            while i < desc.len() && desc[i].is_ascii_digit() {
                count = count
                    .saturating_mul(10)
                    .saturating_add((desc[i] - b'0') as u64);
                i += 1;
            }
            // `atoi(n) - 1` further repeats; none for 0, and none when the string
            // ends right after the count (Tatham's loop stops at the end of input).
            let repeats = if i == digits || i == desc.len() {
                1
            } else {
                count.max(1)
            };
            // Encoder meaning: `z` = 25 non-lines and no line; `y` = 25 then a line.
            let (merges, line) = if letter == 26 {
                (25, false)
            } else {
                (letter, true)
            };
            for _ in 0..repeats {
                for _ in 0..merges {
                    if pos >= edges {
                        return Err(self.err(at + token, Rule::TooMuchBlockData));
                    }
                    let (p0, p1) = edge_cells(w, pos);
                    dsf.merge(p0, p1);
                    pos += 1;
                }
                if line {
                    pos += 1;
                    if pos > edges + 1 {
                        return Err(self.err(at + token, Rule::TooMuchBlockData));
                    }
                }
            }
        }
        if pos != edges + 1 {
            if self.lenient && our_reading::LENIENT_SHORT_BLOCK_STRUCTURE && pos == edges {
                self.relax(RelaxedRule::ShortBlockStructure);
            } else {
                return Err(self.err(at + i, Rule::NotEnoughBlockData));
            }
        }
        if i >= desc.len() || desc[i] != b',' {
            return Err(self.err(at + i, Rule::ExpectedComma));
        }
        i += 1;

        // Cages in clue order: by their first cell in reading order, which is the
        // order a scan in reading order meets them.
        let mut cage_of_root = [u16::MAX; MAX_CELLS];
        let mut cage_of_cell = [0u16; MAX_CELLS];
        let mut areas = [0u16; MAX_CELLS];
        let mut cage_count = 0;
        for (cell, cage_of) in cage_of_cell[..a].iter_mut().enumerate() {
            let root = dsf.find(cell);
            if cage_of_root[root] == u16::MAX {
                cage_of_root[root] = cage_count as u16;
                cage_count += 1;
            }
            *cage_of = cage_of_root[root];
            areas[*cage_of as usize] += 1;
        }
        let mut groups: Vec<Vec<CellId>> = areas[..cage_count]
            .iter()
            .map(|&k| Vec::with_capacity(k.into()))
            .collect();
        for (cell, &cage) in cage_of_cell[..a].iter().enumerate() {
            groups[cage as usize].push(CellId::new(cell));
        }

        let mut cages = Vec::with_capacity(groups.len());
        for cells in groups {
            let op = match desc.get(i) {
                None => return Err(self.err(at + i, Rule::TooFewClues)),
                Some(b'a') => Op::Add,
                Some(b'm') => Op::Mul,
                Some(&c @ (b's' | b'd')) => {
                    if cells.len() != 2 {
                        if self.lenient && our_reading::LENIENT_SUB_DIV_ANY_AREA {
                            self.relax(RelaxedRule::SubDivArea);
                        } else {
                            return Err(self.err(at + i, Rule::SubDivArea { area: cells.len() }));
                        }
                    }
                    if c == b's' {
                        Op::Sub
                    } else {
                        Op::Div
                    }
                }
                Some(_) => {
                    let ch = self.input[at + i..].chars().next().unwrap_or('?');
                    return Err(self.err(at + i, Rule::UnrecognisedClueType(ch)));
                }
            };
            i += 1;
            let digits = i;
            while i < desc.len() && desc[i].is_ascii_digit() {
                i += 1;
            }
            let clue = if digits == i {
                our_reading::TATHAM_MISSING_CLUE_VALUE
            } else {
                desc[digits..i]
                    .iter()
                    .try_fold(0u64, |v, &c| {
                        v.checked_mul(10)?.checked_add(u64::from(c - b'0'))
                    })
                    .ok_or_else(|| {
                        // Only ASCII digits: the slice is the input's own text.
                        let text = &self.input[at + digits..at + i];
                        self.err(at + digits, Rule::ClueTooLarge(quoted(text)))
                    })?
            };
            cages.push(Cage::new(cells, op, clue));
        }
        if i < desc.len() {
            return Err(self.err(at + i, Rule::TooManyClues));
        }
        let puzzle = Puzzle::new(size, cages).map_err(|e| FormatError::from((FORMAT, e)))?;
        Ok((puzzle, std::mem::take(&mut self.relaxed)))
    }
}

/// The two cells on either side of internal edge `pos`: first the w·(w−1) vertical
/// lines in reading order, then the w·(w−1) horizontal lines column by column.
fn edge_cells(w: usize, pos: usize) -> (usize, usize) {
    if pos < w * (w - 1) {
        let y = pos / (w - 1);
        let x = pos % (w - 1);
        (y * w + x, y * w + x + 1)
    } else {
        let x = pos / (w - 1) - w;
        let y = pos % (w - 1);
        (y * w + x, (y + 1) * w + x)
    }
}

/// The most cells a grid has (16×16).
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// A tiny union-find over cell indices, on the stack (a grid is read for every
/// line of a batch).
struct Dsf([u16; MAX_CELLS]);

impl Dsf {
    fn new(n: usize) -> Dsf {
        debug_assert!(n <= MAX_CELLS);
        Dsf(std::array::from_fn(|i| i as u16))
    }
    fn find(&mut self, x: usize) -> usize {
        let mut x = x as u16;
        while self.0[x as usize] != x {
            self.0[x as usize] = self.0[self.0[x as usize] as usize];
            x = self.0[x as usize];
        }
        x as usize
    }
    fn merge(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The smaller index is the root, as in Tatham's dsf.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.0[hi] = lo as u16;
        }
    }
}

/// Writes a puzzle as a game ID `<w>:<block structure>,<clues>`, exactly as Tatham's
/// encoder would. Givens are written `a<value>`. Sizes above 9 are written the same
/// way (only a lenient read accepts them); KenDoku boxes cannot be written.
pub fn write(puzzle: &Puzzle) -> Result<String, WriteError> {
    if puzzle.is_kendoku() {
        return Err(WriteError::KenDokuNotSupported(FORMAT));
    }
    if puzzle.has_hidden_ops() {
        return Err(WriteError::HiddenOperations(FORMAT));
    }
    let size = puzzle.size();
    let w = size.get();
    let edges = 2 * w * (w - 1);
    // The raw letters, one per line, then run-length compressed.
    let mut raw: Vec<u8> = Vec::with_capacity(edges + 1);
    let mut run = 0usize;
    for i in 0..=edges {
        let line = i == edges || {
            let (p0, p1) = edge_cells(w, i);
            puzzle.cage_of(CellId::new(p0)) != puzzle.cage_of(CellId::new(p1))
        };
        if line {
            while run > 25 {
                raw.push(b'z');
                run -= 25;
            }
            raw.push(if run == 0 { b'_' } else { b'a' - 1 + run as u8 });
            run = 0;
        } else {
            run += 1;
        }
    }
    let mut out = format!("{w}:");
    let mut r = 0;
    while r < raw.len() {
        let c = raw[r];
        let n = raw[r..].iter().take_while(|&&x| x == c).count();
        out.push(c as char);
        if n == 2 {
            out.push(c as char);
        } else if n > 2 {
            out.push_str(&n.to_string());
        }
        r += n;
    }
    out.push(',');
    for cage in puzzle.cages() {
        out.push(match cage.op {
            Op::Add | Op::Given => 'a',
            Op::Sub => 's',
            Op::Mul => 'm',
            Op::Div => 'd',
            Op::Hidden => unreachable!("refused above"),
        });
        out.push_str(&cage.clue.to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const README: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";

    #[test]
    fn size_hint_reads_the_leading_size_only() {
        assert_eq!(size_hint(README), Some(6));
        assert_eq!(size_hint("  9dx:_a_,a3"), Some(9));
        assert_eq!(size_hint("12m:whatever"), Some(12));
        // Not a plain game ID: no hint (reading says what it is).
        for text in [
            "6",
            "123:a",
            ":6",
            "K6C...",
            "#6:a",
            "https://x/keen.html#6:a",
        ] {
            assert_eq!(size_hint(text), None, "{text}");
        }
        // A hint is only a hint: the reader still validates what follows.
        assert_eq!(size_hint("5:not a puzzle"), Some(5));
        assert!(read("5:not a puzzle").is_err());
    }

    #[test]
    fn reads_and_writes_the_spec_example() {
        let p = read(README).unwrap();
        assert_eq!(p.size().get(), 6);
        assert_eq!(p.cages().len(), 16);
        assert_eq!(p.cages()[0].op, Op::Sub);
        assert_eq!(p.cages()[0].clue, 2);
        assert_eq!(write(&p).unwrap(), README);
    }

    #[test]
    fn accepts_difficulty_and_urls() {
        let body = &README[1..];
        for s in [
            format!("6dh{body}"),
            format!("6dxm{body}"),
            format!("https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/keen.html#6{body}"),
            format!("  6{body}\n"),
        ] {
            assert_eq!(write(&read(&s).unwrap()).unwrap(), README, "{s}");
        }
    }

    #[test]
    fn tatham_errors() {
        let e = |s: &str| read(s).unwrap_err().rule;
        assert_eq!(e("6dh#12345"), Rule::NoDescription);
        assert_eq!(e("6dh"), Rule::NoDescription);
        assert_eq!(e("10:_,a1"), Rule::GridSize("10".into()));
        // The size as written, however long, and what stands instead of a number.
        assert_eq!(
            e("99999999999999999999:_,a1"),
            Rule::GridSize("99999999999999999999".into())
        );
        assert_eq!(e("-4:_,a1"), Rule::GridSize("-4".into()));
        assert_eq!(
            e("\u{0} 5:_,a1"),
            Rule::GridSize("\"\\0 5\", not a number".into())
        );
        assert_eq!(e("4dq:_a_7a4_a3,m2m3d2d2a7s1s2a3"), Rule::UnknownDifficulty);
        assert_eq!(e("4:_a_7a4_a3,m2m3d2d2a7s1s2"), Rule::TooFewClues);
        assert_eq!(e("4:_a_7a4_a3,m2m3d2d2a7s1s2a3a"), Rule::TooManyClues);
        assert_eq!(e("4:_a_7a4_a3"), Rule::NotEnoughBlockData);
        // Spelled out, so that no repeat count is cut short by the end of input.
        assert_eq!(e("4:_a_______aaaa_aaa"), Rule::ExpectedComma);
        assert_eq!(e("4:_a_7a4_a3"), Rule::NotEnoughBlockData);
        assert_eq!(e("4:_a_7a4_a3__,"), Rule::TooMuchBlockData);
        assert_eq!(e("4:_a_7a4!_a3,"), Rule::InvalidCharacter('!'));
        assert_eq!(
            e("4:_a_7a4_a3,m2m3d2d2a7s1s2q3"),
            Rule::UnrecognisedClueType('q')
        );
        // The big cage of this one has 3 cells.
        assert!(matches!(
            e("4:a__a_aa__a_3ac_,a6a8s0m2s0m12a2"),
            Rule::SubDivArea { area: 3 }
        ));
        let err = read("4:_a_7a4!_a3,").unwrap_err();
        assert_eq!(err.location, Location::Offset(8));
    }

    #[test]
    fn lenient_reading_says_what_it_relaxed() {
        let s = "4:a__a_aa__a_3ac,a6a8s0m2s0m12a2";
        assert!(read(s).is_err());
        let (p, relaxed) = read_with(s, Strictness::Lenient).unwrap();
        assert_eq!(
            relaxed,
            vec![RelaxedRule::ShortBlockStructure, RelaxedRule::SubDivArea]
        );
        assert_eq!(write(&p).unwrap(), "4:a__a_aa__a_3ac_,a6a8s0m2s0m12a2");
    }

    #[test]
    fn z_and_y_follow_the_encoder() {
        // 9x9, one cage of all 81 cells: 144 edges, all non-lines, then the virtual
        // line: 144 = 5*25 + 19 -> "zzzzzs".
        let s = Size::new(9).unwrap();
        let p = Puzzle::new(s, vec![Cage::new(s.cells().collect(), Op::Add, 405)]).unwrap();
        let id = write(&p).unwrap();
        assert_eq!(id, "9:z5s,a405");
        assert_eq!(read(&id).unwrap(), p);
    }

    #[test]
    fn repeat_counts_and_missing_values() {
        // `_3` is `___`; a clue letter without digits is Tatham's 0.
        let p = read("3:a_3cb_,m12s1a7").unwrap();
        assert_eq!(read("3:a___cb_,m12s1a7").unwrap(), p);
        let p = read("3:a_3cb_,ms1a").unwrap();
        assert_eq!(p.cages()[0].clue, 0);
        assert_eq!(p.cages()[2].clue, 0);
        assert_eq!(write(&p).unwrap(), "3:a_3cb_,m0s1a0");
        // A repeat count of 0 means the letter once.
        assert_eq!(
            read("3:a_3c0b_,m12s1a7").unwrap(),
            read("3:a_3cb_,m12s1a7").unwrap()
        );
    }
}
