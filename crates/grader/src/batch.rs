//! `grader batch [FILE|-]`: grades many puzzles in parallel and writes one row per
//! puzzle, in input order, as TSV (the reference's columns plus `Error` and
//! `Status`) or NDJSON.
//!
//! The input is read by [`kenken_formats::batch_input`] and streamed through
//! [`crate::streaming`]; the grading and the rows are [`kenken_batch`]'s. A puzzle that cannot be read or built gets a row saying why
//! and one line on stderr; the batch goes on, and exits with code 2 at the end.

use crate::exit::{BAD_INPUT, FAILURE};
use crate::input::{open_batch, HideOps};
use crate::options;
use crate::streaming::{self, Settings};
use anyhow::Context;
use clap::Args;
use kenken_batch::{GradeOptions, GradeRows, Grading, RowFormat, TsvColumns};
use std::io;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// A file of puzzles, or `-` for standard input: a JSON array of puzzle strings,
    /// NDJSON (one string or {"puzzle": …} object per line), a JSON object of puzzle
    /// arrays by category, or one puzzle per line, detected from the first
    /// character.
    #[arg(default_value = "-", value_name = "FILE")]
    pub input: String,
    /// The output rows.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: RowFormat,
    #[command(flatten)]
    pub hide: HideOps,
    #[command(flatten)]
    pub grading: GradeOptions,
    /// Worker threads: 1 to 256 (default: every core).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub jobs: Option<i64>,
    /// No progress bar (it is only shown when stderr is a terminal anyway), and no
    /// warnings about puzzles read leniently.
    #[arg(long)]
    pub quiet: bool,
    /// Add each puzzle's grading time in milliseconds (the worker time spent
    /// reading it, on every run and, when a run does not solve the puzzle, on the
    /// solution count): an `Ms` column before `Error` in TSV, an `ms` field in
    /// NDJSON. Off by default, so that the rows of a run are reproducible.
    #[arg(long)]
    pub times: bool,
    /// After the rows, print a difficulty tally to stderr: how many solved puzzles
    /// have each max rating (modes n, b) and each max depth (modes c, b), then the
    /// unsolved ones by status.
    #[arg(long)]
    pub summary: bool,
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    let (grading, jobs) = match (
        options::grade_settings("batch", &args.grading),
        options::jobs("batch", args.jobs),
    ) {
        (Ok(grading), Ok(jobs)) => (grading, jobs),
        (Err(code), _) | (_, Err(code)) => return Ok(code),
    };
    let entries = match open_batch("batch", &args.input) {
        Ok(entries) => entries,
        Err(code) => return Ok(code),
    };
    let settings = Settings {
        command: "batch",
        jobs,
        quiet: args.quiet,
        times: args.times,
        hide: args.hide,
    };
    let work = Grading::new(&grading);
    let columns = TsvColumns {
        mode: grading.mode,
        times: args.times,
        hide_ops: args.hide.hide_ops,
    };
    let mut rows = GradeRows::new(args.format, columns);
    let finished = streaming::run(entries, &settings, &work, &mut rows)?;
    let tally = rows.tally;
    if args.summary {
        tally
            .write(&mut io::stderr().lock(), grading.mode)
            .context("cannot write to standard error")?;
    }
    if !args.quiet {
        for (status, n) in tally.stopped() {
            let why = match *status {
                "timeout" => "reached --timeout",
                _ => "stopped before the end",
            };
            eprintln!("grader batch: {n} puzzle(s) {why} (status `{status}`)");
        }
    }
    if let Some(e) = finished.input_error {
        eprintln!("grader batch: error: {e} (after {} rows)", finished.rows);
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let (invalid, internal) = (tally.not_graded("invalid"), tally.not_graded("error"));
    if internal > 0 {
        eprintln!("grader batch: the grader failed on {internal} puzzle(s) (see their rows)");
        return Ok(ExitCode::from(FAILURE));
    }
    if invalid > 0 {
        eprintln!("grader batch: {invalid} puzzle(s) could not be read or are not valid puzzles (see their rows)");
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}
