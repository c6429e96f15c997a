//! Solving many puzzles: the exhaustive search of one puzzle (up to two solutions,
//! with each worker's cage tables kept across a batch), what it found ([`Solved`])
//! and its rows (`grader solve --many`'s TSV and NDJSON, written by [`SolveRows`]).

use crate::pipeline::{self, Job, Outcome, Rows};
use crate::text::{millis, tsv_field};
use crate::RowFormat;
use kenken_formats::Imported;
use kenken_model::clock::Instant;
use kenken_model::{Budget, CageId, Digit, Exhausted, Limits, Op, Puzzle};
use kenken_search::{self as search, SearchOutcome, SearchTable, Verdict};
use serde::Serialize;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::{self, Write};
use std::rc::Rc;
use std::time::Duration;

/// The exhaustive search of a puzzle (up to two solutions), within the default
/// memory and work limits and given up at `deadline`.
pub fn search_puzzle(puzzle: &Puzzle, deadline: Option<Instant>) -> SearchOutcome {
    let mut budget = Budget::new(Limits::new().until(deadline));
    let mut tables = Vec::with_capacity(puzzle.cages().len());
    for g in puzzle.cage_ids() {
        match TABLES.with_borrow_mut(|cache| cache.combinations(puzzle, g, &mut budget)) {
            Ok(table) => tables.push(table),
            Err(why) => return SearchOutcome::stopped_by(why),
        }
    }
    search::count_solutions_prepared(puzzle, &tables, None, 2, &mut budget)
}

thread_local! {
    /// Each worker's cage tables, kept across the puzzles of a batch.
    static TABLES: RefCell<TableCache> = RefCell::new(TableCache::default());
}

/// Cage combination tables by what they depend on: the grid size, the operation,
/// the clue and the shape of the cage (its cells relative to its corner, in cell
/// order, which says which cells share a row or column). A batch meets the same
/// small cages over and over, and sharing a table is cheaper than enumerating it
/// again. Cages of more cells than [`TableKey`] holds, and KenDoku puzzles (whose
/// boxes add constraints), are enumerated each time.
#[derive(Default)]
struct TableCache {
    tables: HashMap<TableKey, Rc<SearchTable>, BuildHasherDefault<KeyHasher>>,
    /// The digits the tables hold, to bound the memory they take.
    digits: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct TableKey {
    size: u8,
    op: Op,
    clue: u64,
    /// Per cell, row and column relative to the cage's top left corner (4 bits
    /// each); `width` of them are used.
    cells: [u8; 8],
    width: u8,
}

impl TableCache {
    /// Digits kept at most (a byte each): a batch of random large puzzles would
    /// otherwise grow the cache without end. Full, it starts again.
    const LIMIT: usize = 8 << 20;

    fn combinations(
        &mut self,
        puzzle: &Puzzle,
        g: CageId,
        budget: &mut Budget,
    ) -> Result<Rc<SearchTable>, Exhausted> {
        let Some(key) = TableKey::of(puzzle, g) else {
            return SearchTable::enumerate_within(puzzle, g, budget).map(Rc::new);
        };
        if let Some(table) = self.tables.get(&key) {
            return Ok(Rc::clone(table));
        }
        let table = Rc::new(SearchTable::enumerate_within(puzzle, g, budget)?);
        let digits = table.len() * table.width();
        if self.digits + digits > Self::LIMIT {
            self.tables.clear();
            self.digits = 0;
        }
        if digits <= Self::LIMIT {
            self.digits += digits;
            self.tables.insert(key, Rc::clone(&table));
        }
        Ok(table)
    }
}

impl Hash for TableKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.size) | (self.op as u64) << 8 | u64::from(self.width) << 16);
        state.write_u64(u64::from_le_bytes(self.cells));
        state.write_u64(self.clue);
    }
}

/// A multiply-and-rotate hash for [`TableKey`]'s three words: a table lookup per
/// cage makes the standard library's SipHash, built to resist chosen keys, a
/// tenth of a small puzzle's time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl TableKey {
    fn of(puzzle: &Puzzle, g: CageId) -> Option<TableKey> {
        let cage = puzzle.cage(g);
        let size = puzzle.size();
        if puzzle.boxes().is_some() || cage.cells.len() > 8 {
            return None;
        }
        let top = cage.cells.iter().map(|&c| size.row(c)).min()?;
        let left = cage.cells.iter().map(|&c| size.col(c)).min()?;
        let mut cells = [0u8; 8];
        for (slot, &c) in cells.iter_mut().zip(&cage.cells) {
            *slot = ((size.row(c) - top) << 4 | (size.col(c) - left)) as u8;
        }
        Some(TableKey {
            size: size.get() as u8,
            op: cage.op,
            clue: cage.clue,
            cells,
            width: cage.cells.len() as u8,
        })
    }
}

/// How a verdict reads: `unique`, `ambiguous`, `impossible`, and `timeout` for a
/// search that stopped at its deadline.
pub fn verdict_name(verdict: Verdict, stopped: Option<Exhausted>) -> Cow<'static, str> {
    if verdict == Verdict::Unique {
        "unique".into()
    } else if verdict == Verdict::Ambiguous {
        "ambiguous".into()
    } else if verdict == Verdict::Impossible {
        "impossible".into()
    } else if verdict == Verdict::Unknown {
        match stopped {
            // The only deadline a search here has is --timeout's.
            Some(Exhausted::Time) | None => "timeout".into(),
            Some(_) => "limit".into(),
        }
    } else {
        format!("{verdict:?}").to_lowercase().into()
    }
}

/// Whether a verdict is a finding (the search ran to its end).
pub fn is_finding(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Unique | Verdict::Ambiguous | Verdict::Impossible
    )
}

/// What the search found for one puzzle.
#[derive(Clone, Debug)]
pub struct Searched {
    pub verdict: Verdict,
    /// What cut the search short, if anything did.
    pub stopped: Option<Exhausted>,
    /// The first solution found, in reading order (none when the search was cut
    /// short).
    pub solution: Option<Vec<Digit>>,
}

/// What became of one puzzle of a solving batch.
pub type Solved = Outcome<Searched>;

impl Solved {
    /// The row's status: the verdict's name, or `invalid` or `error`.
    pub fn status(&self) -> Cow<'static, str> {
        match (self.failure_status(), self.found()) {
            (Some(status), _) => status.into(),
            (None, Some(s)) => verdict_name(s.verdict, s.stopped),
            (None, None) => "error".into(),
        }
    }

    /// The `Error` column: why the puzzle has no verdict.
    pub fn error(&self) -> Option<&str> {
        let Some(s) = self.found() else {
            return self.failure();
        };
        match s.stopped {
            _ if is_finding(s.verdict) => None,
            Some(Exhausted::Memory { .. }) => Some("the memory limit was reached first"),
            Some(Exhausted::Work { .. }) => Some("the work limit was reached first"),
            _ => Some("--timeout passed"),
        }
    }

    /// The solution as one character per cell: `1`–`9`, then `A`–`G`.
    pub fn solution_text(&self) -> Option<String> {
        let solution = self.found()?.solution.as_ref()?;
        Some(solution.iter().map(|&d| digit_char(d)).collect())
    }
}

/// A digit as one character: `1`–`9`, then `A` for 10 … `G` for 16.
pub fn digit_char(d: Digit) -> char {
    char::from_digit(u32::from(d), 17).map_or('?', |c| c.to_ascii_uppercase())
}

/// Solving a puzzle: its exhaustive search, given up after `timeout`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solving {
    pub timeout: Option<Duration>,
}

impl pipeline::Work for Solving {
    type Found = Searched;

    fn work(&self, imported: Imported) -> Searched {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let outcome = search_puzzle(&imported.puzzle, deadline);
        Searched {
            verdict: outcome.verdict,
            stopped: outcome.stopped,
            solution: outcome.solution.filter(|_| is_finding(outcome.verdict)),
        }
    }
}

/// A solved puzzle's row, as `grader solve --many --format ndjson` writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveRow<'a> {
    pub index: usize,
    pub puzzle: &'a str,
    /// The puzzle was solved with every operation hidden.
    #[serde(skip_serializing_if = "crate::text::is_false")]
    pub hide_ops: bool,
    pub status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
}

impl<'a> SolveRow<'a> {
    /// The row of the job at `index`, shown as `puzzle` (solved with its
    /// operations hidden when `hide_ops` says so), with the status
    /// [`Solved::status`] gave.
    pub fn new(
        index: usize,
        puzzle: &'a str,
        hide_ops: bool,
        status: &'a str,
        outcome: &'a Solved,
        took: Option<Duration>,
    ) -> SolveRow<'a> {
        SolveRow {
            index,
            puzzle,
            hide_ops,
            status,
            solution: outcome.solution_text(),
            ms: took.map(millis),
            error: outcome.error(),
        }
    }
}

/// The rows of `solve --many`, and how many have each status.
#[derive(Debug)]
pub struct SolveRows {
    pub format: RowFormat,
    /// An `Ms` column before `Error`.
    pub times: bool,
    /// A `Hide Ops` column after `Status` (a run that hides every puzzle's
    /// operations), as [`crate::grade_rows`] has it.
    pub hide_ops_column: bool,
    pub statuses: BTreeMap<Cow<'static, str>, usize>,
}

impl SolveRows {
    pub fn new(format: RowFormat, times: bool, hide_ops_column: bool) -> SolveRows {
        SolveRows {
            format,
            times,
            hide_ops_column,
            statuses: BTreeMap::new(),
        }
    }

    /// How many rows have this status.
    pub fn count(&self, status: &str) -> usize {
        self.statuses.get(status).copied().unwrap_or(0)
    }
}

impl Rows<Searched> for SolveRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            RowFormat::Tsv => {
                let ms = if self.times { "\tMs" } else { "" };
                let hidden = if self.hide_ops_column {
                    "\tHide Ops"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "Puzzle #\tPuzzle String\tSolution{ms}\tError\tStatus{hidden}"
                )
            }
            RowFormat::Ndjson => Ok(()),
        }
    }

    fn row(
        &mut self,
        out: &mut dyn Write,
        job: &Job,
        shown: &str,
        outcome: &Solved,
        took: Option<Duration>,
    ) -> io::Result<()> {
        let status = outcome.status();
        match self.format {
            RowFormat::Tsv => {
                let solution = outcome.solution_text();
                write!(
                    out,
                    "{}\t{}\t{}",
                    job.index,
                    tsv_field(shown),
                    solution.as_deref().unwrap_or("")
                )?;
                if let Some(took) = took {
                    write!(out, "\t{}", millis(took))?;
                }
                write!(
                    out,
                    "\t{}\t{status}",
                    tsv_field(outcome.error().unwrap_or(""))
                )?;
                if self.hide_ops_column {
                    write!(out, "\t{}", u8::from(job.hide_ops))?;
                }
                out.write_all(b"\n")?;
            }
            RowFormat::Ndjson => {
                let row = SolveRow::new(job.index, shown, job.hide_ops, &status, outcome, took);
                serde_json::to_writer(&mut *out, &row)?;
                out.write_all(b"\n")?;
            }
        }
        *self.statuses.entry(status).or_default() += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_one_character_each() {
        let chars: String = (1..=16).map(digit_char).collect();
        assert_eq!(chars, "123456789ABCDEFG");
    }

    #[test]
    fn verdicts_read() {
        assert_eq!(verdict_name(Verdict::Unique, None), "unique");
        assert_eq!(
            verdict_name(Verdict::Unknown, Some(Exhausted::Time)),
            "timeout"
        );
        let work = Some(Exhausted::Work { limit: 1 });
        assert_eq!(verdict_name(Verdict::Unknown, work), "limit");
        assert!(!is_finding(Verdict::Unknown));
    }
}
