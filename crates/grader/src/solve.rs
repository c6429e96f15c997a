//! `grader solve PUZZLE`: the exhaustive solver's answer for one puzzle: the
//! solution grid (the first one found when there are several) and `unique`,
//! `ambiguous`, `impossible`, or `timeout` when `--timeout` passed first.
//!
//! `grader solve --many [FILE|-]`: the same for every puzzle of a batch input (the
//! inputs of `grader batch`), in parallel, one TSV or NDJSON row per puzzle in input
//! order, streamed like `batch` (see [`crate::pipeline`]): one process checks any
//! number of puzzles.
//!
//! Exit codes: 0 when every puzzle has exactly one solution, 3 when some puzzle is
//! ambiguous, impossible or timed out, 2 for input that cannot be used (in a batch:
//! some row is invalid), 1 for a failure to write or an internal error.

use crate::batch::{jobs, OutputFormat};
use crate::convert::FromFormat;
use crate::exit::{BAD_INPUT, FAILURE, NOT_UNIQUE};
use crate::input::{load_puzzle, open_batch, relaxed_warning};
use crate::ladder_args::parse_timeout;
use crate::pipeline::{self, Rows, Settings, Work};
use crate::report::{grid_rows, grid_text, millis, tsv_field};
use clap::Args;
use kenken_formats::batch::Entry;
use kenken_formats::{Format, Imported};
use kenken_model::{Budget, CageId, Digit, Exhausted, Limits, Op, Puzzle};
use kenken_search::{self as search, SearchOutcome, SearchTable, Verdict};
use serde::Serialize;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::{self, Write};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The puzzle: a string in any supported format, a file holding one, or `-` to
    /// read standard input. With --many: a file of puzzles, or `-` (the default) for
    /// standard input.
    #[arg(value_name = "PUZZLE", required_unless_present = "many")]
    pub puzzle: Option<String>,
    /// Solve every puzzle of a batch input (a JSON array, NDJSON, a JSON object of
    /// puzzle arrays, or one puzzle per line, as `grader batch` reads), in
    /// parallel: one row per puzzle, in input order, with its status (unique,
    /// ambiguous, impossible, timeout, invalid) and its solution as one character
    /// per cell in reading order (1-9, then A-G for 10 to 16; for an ambiguous
    /// puzzle the first solution found).
    #[arg(long)]
    pub many: bool,
    /// The format to read (detected from the input when omitted; with --many, for
    /// every puzzle on its own).
    #[arg(long, value_enum, conflicts_with = "many")]
    pub from: Option<FromFormat>,
    /// Print one JSON document: {"puzzle","size","verdict","solution"}.
    #[arg(long, conflicts_with = "many")]
    pub json: bool,
    /// Give up on a puzzle after this many seconds (fractions allowed), counted from
    /// when its search starts: its verdict is then `timeout` (whether it has 0, 1 or
    /// more solutions is unknown). The search of a large puzzle with big cages can
    /// take seconds or much longer.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// With --many: the output rows (default tsv).
    #[arg(long, value_enum, requires = "many")]
    pub format: Option<OutputFormat>,
    /// With --many: worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), requires = "many")]
    pub jobs: Option<u16>,
    /// With --many: no progress bar (it is only shown when stderr is a terminal
    /// anyway), no warnings about puzzles read leniently and no closing tally.
    #[arg(long, requires = "many")]
    pub quiet: bool,
    /// With --many: each puzzle's time in milliseconds (reading and searching): an
    /// `Ms` column before `Error` in TSV, an `ms` field in NDJSON.
    #[arg(long, requires = "many")]
    pub times: bool,
}

/// The exhaustive search of a puzzle (up to two solutions), within the default
/// memory and work limits and given up at `deadline`.
fn search_puzzle(puzzle: &Puzzle, deadline: Option<Instant>) -> SearchOutcome {
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
fn verdict_name(verdict: Verdict, stopped: Option<Exhausted>) -> Cow<'static, str> {
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
fn is_finding(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Unique | Verdict::Ambiguous | Verdict::Impossible
    )
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    if args.many {
        return run_many(args);
    }
    let arg = args.puzzle.as_deref().unwrap_or("-");
    let (input, imported) = match load_puzzle("solve", arg, args.from.map(Format::from)) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let deadline = args.timeout.map(|t| Instant::now() + t);
    let outcome = search_puzzle(&imported.puzzle, deadline);
    let size = imported.puzzle.size();
    let verdict = verdict_name(outcome.verdict, outcome.stopped);
    // A search cut short proves nothing; what it had found is not shown.
    let solution = outcome
        .solution
        .as_deref()
        .filter(|_| is_finding(outcome.verdict));
    let text = if args.json {
        serde_json::to_string(&SolveJson {
            puzzle: input.text.trim(),
            size: size.get(),
            verdict: &verdict,
            solution: solution.map(|s| grid_rows(s, size)),
        })?
    } else {
        match solution {
            Some(s) if outcome.verdict == Verdict::Ambiguous => format!(
                "{}\nambiguous (more than one solution; this is one of them)",
                grid_text(s, size)
            ),
            Some(s) => format!("{}\n{verdict}", grid_text(s, size)),
            None if outcome.verdict == Verdict::Impossible => {
                format!("{verdict} (the puzzle has no solution)")
            }
            None => {
                let why = match outcome.stopped {
                    Some(Exhausted::Time) | None => {
                        "--timeout passed before the search was done".to_string()
                    }
                    Some(limit) => limit.to_string(),
                };
                format!("{verdict} ({why}: the number of solutions is unknown)")
            }
        }
    };
    crate::report::print(&text)?;
    Ok(if outcome.verdict == Verdict::Unique {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_UNIQUE)
    })
}

#[derive(Serialize)]
struct SolveJson<'a> {
    puzzle: &'a str,
    size: usize,
    verdict: &'a str,
    /// By rows; when ambiguous, the first solution found; `null` when impossible or
    /// timed out.
    solution: Option<Vec<Vec<Digit>>>,
}

// ---- many puzzles ----

fn run_many(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let entries = match open_batch("solve", args.puzzle.as_deref().unwrap_or("-")) {
        Ok(entries) => entries,
        Err(code) => return Ok(code),
    };
    let settings = Settings {
        command: "solve",
        jobs: jobs(args.jobs),
        quiet: args.quiet,
        times: args.times,
    };
    let work = Solving {
        timeout: args.timeout,
    };
    let mut rows = SolveRows {
        format: args.format.unwrap_or(OutputFormat::Tsv),
        times: args.times,
        statuses: BTreeMap::new(),
    };
    let finished = pipeline::run(entries, &settings, &work, &mut rows)?;
    let count = |status: &str| rows.statuses.get(status).copied().unwrap_or(0);
    let not_unique: Vec<String> = rows
        .statuses
        .iter()
        .filter(|(s, _)| !["unique", "invalid", "error"].contains(&s.as_ref()))
        .map(|(s, n)| format!("{n} {s}"))
        .collect();
    if !args.quiet && !not_unique.is_empty() {
        eprintln!(
            "grader solve: not unique: {} (see their rows)",
            not_unique.join(", ")
        );
    }
    if let Some(e) = finished.input_error {
        eprintln!("grader solve: error: {e} (after {} rows)", finished.rows);
        return Ok(ExitCode::from(BAD_INPUT));
    }
    if count("error") > 0 {
        eprintln!(
            "grader solve: the solver failed on {} puzzle(s) (see their rows)",
            count("error")
        );
        return Ok(ExitCode::from(FAILURE));
    }
    if count("invalid") > 0 {
        eprintln!(
            "grader solve: {} puzzle(s) could not be read or are not valid puzzles (see their rows)",
            count("invalid")
        );
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Ok(if not_unique.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_UNIQUE)
    })
}

/// What the search found for one puzzle of a batch.
enum Solved {
    Searched {
        verdict: Verdict,
        /// What cut the search short, if anything did.
        stopped: Option<Exhausted>,
        /// The first solution found, in reading order (none when the search was
        /// cut short).
        solution: Option<Vec<Digit>>,
        warning: Option<String>,
    },
    Invalid(String),
    Internal(String),
}

impl Solved {
    fn status(&self) -> Cow<'static, str> {
        match self {
            Solved::Searched {
                verdict, stopped, ..
            } => verdict_name(*verdict, *stopped),
            Solved::Invalid(_) => "invalid".into(),
            Solved::Internal(_) => "error".into(),
        }
    }

    /// The `Error` column: why the puzzle has no verdict.
    fn error(&self) -> Option<&str> {
        match self {
            Solved::Searched { verdict, .. } if is_finding(*verdict) => None,
            Solved::Searched {
                stopped: Some(Exhausted::Memory { .. }),
                ..
            } => Some("the memory limit was reached first"),
            Solved::Searched {
                stopped: Some(Exhausted::Work { .. }),
                ..
            } => Some("the work limit was reached first"),
            Solved::Searched { .. } => Some("--timeout passed"),
            Solved::Invalid(e) | Solved::Internal(e) => Some(e),
        }
    }

    /// The solution as one character per cell: `1`–`9`, then `A`–`G`.
    fn solution_text(&self) -> Option<String> {
        match self {
            Solved::Searched {
                solution: Some(s), ..
            } => Some(s.iter().map(|&d| digit_char(d)).collect()),
            _ => None,
        }
    }
}

/// A digit as one character: `1`–`9`, then `A` for 10 … `G` for 16.
fn digit_char(d: Digit) -> char {
    char::from_digit(u32::from(d), 17).map_or('?', |c| c.to_ascii_uppercase())
}

struct Solving {
    timeout: Option<Duration>,
}

impl Work for Solving {
    type Outcome = Solved;

    fn work(&self, imported: Imported) -> Solved {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let outcome = search_puzzle(&imported.puzzle, deadline);
        Solved::Searched {
            verdict: outcome.verdict,
            stopped: outcome.stopped,
            solution: outcome.solution.filter(|_| is_finding(outcome.verdict)),
            warning: relaxed_warning(&imported),
        }
    }
}

impl pipeline::Outcome for Solved {
    fn invalid(reason: String) -> Solved {
        Solved::Invalid(reason)
    }

    fn internal(message: String) -> Solved {
        Solved::Internal(message)
    }

    fn failure(&self) -> Option<&str> {
        match self {
            Solved::Invalid(e) | Solved::Internal(e) => Some(e),
            Solved::Searched { .. } => None,
        }
    }

    fn warning(&self) -> Option<&str> {
        match self {
            Solved::Searched { warning, .. } => warning.as_deref(),
            _ => None,
        }
    }
}

/// An NDJSON row of `solve --many`.
#[derive(Serialize)]
struct SolveRow<'a> {
    index: usize,
    puzzle: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// The rows of `solve --many`, and how many have each status.
struct SolveRows {
    format: OutputFormat,
    times: bool,
    statuses: BTreeMap<Cow<'static, str>, usize>,
}

impl Rows<Solved> for SolveRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            OutputFormat::Tsv => {
                let ms = if self.times { "\tMs" } else { "" };
                writeln!(out, "Puzzle #\tPuzzle String\tSolution{ms}\tError\tStatus")
            }
            OutputFormat::Ndjson => Ok(()),
        }
    }

    fn row(
        &mut self,
        out: &mut dyn Write,
        entry: &Entry,
        shown: &str,
        outcome: &Solved,
        took: Option<Duration>,
    ) -> io::Result<()> {
        let status = outcome.status();
        let solution = outcome.solution_text();
        match self.format {
            OutputFormat::Tsv => {
                write!(
                    out,
                    "{}\t{}\t{}",
                    entry.index,
                    tsv_field(shown),
                    solution.as_deref().unwrap_or("")
                )?;
                if let Some(took) = took {
                    write!(out, "\t{}", millis(took))?;
                }
                writeln!(
                    out,
                    "\t{}\t{status}",
                    tsv_field(outcome.error().unwrap_or(""))
                )?;
            }
            OutputFormat::Ndjson => {
                let row = SolveRow {
                    index: entry.index,
                    puzzle: shown,
                    status: &status,
                    solution,
                    ms: took.map(millis),
                    error: outcome.error(),
                };
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
