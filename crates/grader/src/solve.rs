//! `grader solve PUZZLE`: the exhaustive solver's answer for one puzzle: the
//! solution grid (the first one found when there are several) and `unique`,
//! `ambiguous`, `impossible`, or `timeout` when `--timeout` passed first.
//!
//! `grader solve --many [FILE|-]`: the same for every puzzle of a batch input (the
//! inputs of `grader batch`), in parallel, one TSV or NDJSON row per puzzle in input
//! order, streamed like `batch` (see [`crate::streaming`]): one process checks any
//! number of puzzles.
//!
//! Exit codes: 0 when every puzzle has exactly one solution, 3 when some puzzle is
//! ambiguous, impossible or timed out, 2 for input that cannot be used (in a batch:
//! some row is invalid), 1 for a failure to write or an internal error.

use crate::convert::FromFormat;
use crate::exit::{BAD_INPUT, FAILURE, NOT_UNIQUE};
use crate::input::{load_puzzle, open_batch, HideOps};
use crate::report::{grid_rows, grid_text};
use crate::streaming::{self, Settings};
use clap::Args;
use kenken_batch::solving::{is_finding, search_puzzle, verdict_name};
use kenken_batch::text::is_false;
use kenken_batch::{RowFormat, SolveRows, Solving};
use kenken_formats::Format;
use kenken_model::{Digit, Exhausted};
use kenken_search::Verdict;
use serde::Serialize;
use std::process::ExitCode;
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
    #[command(flatten)]
    pub hide: HideOps,
    /// Print one JSON document: {"puzzle","size","verdict","solution"}.
    #[arg(long, conflicts_with = "many")]
    pub json: bool,
    /// Give up on a puzzle after this many seconds (fractions allowed), counted from
    /// when its search starts: its verdict is then `timeout` (whether it has 0, 1 or
    /// more solutions is unknown). The search of a large puzzle with big cages can
    /// take seconds or much longer.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::options::seconds)]
    pub timeout: Option<Duration>,
    /// With --many: the output rows (default tsv).
    #[arg(long, value_enum, requires = "many")]
    pub format: Option<RowFormat>,
    /// With --many: worker threads, 1 to 256 (default: every core).
    #[arg(long, value_name = "N", requires = "many", allow_hyphen_values = true)]
    pub jobs: Option<i64>,
    /// With --many: no progress bar (it is only shown when stderr is a terminal
    /// anyway), no warnings about puzzles read leniently and no closing tally.
    #[arg(long, requires = "many")]
    pub quiet: bool,
    /// With --many: each puzzle's time in milliseconds (reading and searching): an
    /// `Ms` column before `Error` in TSV, an `ms` field in NDJSON.
    #[arg(long, requires = "many")]
    pub times: bool,
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    if args.many {
        return run_many(args);
    }
    let arg = args.puzzle.as_deref().unwrap_or("-");
    let (input, imported) = match load_puzzle("solve", arg, args.from.map(Format::from), args.hide)
    {
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
            hide_ops: args.hide.hide_ops,
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
    /// `--hide-ops`: solved with every operation hidden (left out otherwise).
    #[serde(skip_serializing_if = "is_false")]
    hide_ops: bool,
    size: usize,
    verdict: &'a str,
    /// By rows; when ambiguous, the first solution found; `null` when impossible or
    /// timed out.
    solution: Option<Vec<Vec<Digit>>>,
}

// ---- many puzzles ----

fn run_many(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let jobs = match crate::options::jobs("solve", args.jobs) {
        Ok(jobs) => jobs,
        Err(code) => return Ok(code),
    };
    let entries = match open_batch("solve", args.puzzle.as_deref().unwrap_or("-")) {
        Ok(entries) => entries,
        Err(code) => return Ok(code),
    };
    let settings = Settings {
        command: "solve",
        jobs,
        quiet: args.quiet,
        times: args.times,
        hide: args.hide,
    };
    let work = Solving {
        timeout: args.timeout,
    };
    let mut rows = SolveRows::new(
        args.format.unwrap_or(RowFormat::Tsv),
        args.times,
        args.hide.hide_ops,
    );
    let finished = streaming::run(entries, &settings, &work, &mut rows)?;
    let count = |status: &str| rows.count(status);
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
