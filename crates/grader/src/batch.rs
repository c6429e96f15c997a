//! `grader batch [FILE|-]`: grades many puzzles in parallel and writes one row per
//! puzzle, in input order, as TSV (the reference's columns plus `Error` and
//! `Status`) or NDJSON.
//!
//! The input is read by [`kenken_formats::batch`] and streamed through
//! [`crate::pipeline`]. A puzzle that cannot be read or built gets a row saying why
//! and one line on stderr; the batch goes on, and exits with code 2 at the end.

use crate::exit::{BAD_INPUT, FAILURE};
use crate::input::{open_batch, relaxed_warning};
use crate::ladder_args::{LadderArgs, Mode, Runs};
use crate::pipeline::{self, Rows, Settings, Work};
use crate::report::{self, Outcome, Tally};
use anyhow::Context;
use clap::{Args, ValueEnum};
use kenken_formats::batch::Entry;
use kenken_formats::Imported;
use kenken_techniques::{Grader, Options, Summary};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

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
    pub format: OutputFormat,
    #[command(flatten)]
    pub ladder: LadderArgs,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
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

/// The output rows' format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Tab-separated, with a header line.
    Tsv,
    /// One JSON object per line.
    Ndjson,
}

/// The worker count `--jobs` asks for (default: every core).
pub fn jobs(arg: Option<u16>) -> usize {
    arg.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    let entries = match open_batch("batch", &args.input) {
        Ok(entries) => entries,
        Err(code) => return Ok(code),
    };
    let settings = Settings {
        command: "batch",
        jobs: jobs(args.jobs),
        quiet: args.quiet,
        times: args.times,
    };
    let work = Grading {
        runs: args.ladder.runs(),
    };
    let mut rows = GradeRows {
        mode: args.ladder.mode,
        format: args.format,
        times: args.times,
        tally: Tally::default(),
    };
    let finished = pipeline::run(entries, &settings, &work, &mut rows)?;
    let tally = rows.tally;
    if args.summary {
        tally
            .write(&mut io::stderr().lock(), args.ladder.mode)
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

/// Grading a puzzle: the runs its mode asks for.
struct Grading {
    runs: Runs,
}

impl Work for Grading {
    type Outcome = Outcome;

    fn work(&self, imported: Imported) -> Outcome {
        let runs = self.runs.starting_now();
        let warning = relaxed_warning(&imported);
        // The runs' deadline bounds the solution count too, which only runs when a
        // run does not solve the puzzle (to tell stuck, ambiguous and impossible
        // apart).
        let grader = match Grader::deferred_owned(imported.puzzle, runs.limits) {
            Ok(g) => g,
            // The tables alone exhaust the limits: every run ends there.
            Err(why) => {
                let stopped = |o: Option<Options>| o.map(|_| Summary::stopped_by(why));
                return Outcome::Graded {
                    normal: stopped(runs.normal),
                    cc: stopped(runs.cc),
                    warning,
                };
            }
        };
        let run = |options: Option<Options>| options.map(|o| grader.rate(o));
        // Mode b's two runs are independent: let an idle worker take one, so a slow
        // puzzle at the end of a batch does not leave the other cores waiting.
        let (normal, cc) = rayon::join(|| run(runs.normal), || run(runs.cc));
        Outcome::Graded {
            normal,
            cc,
            warning,
        }
    }
}

impl pipeline::Outcome for Outcome {
    fn invalid(reason: String) -> Outcome {
        Outcome::Invalid(reason)
    }

    fn internal(message: String) -> Outcome {
        Outcome::Internal(message)
    }

    fn failure(&self) -> Option<&str> {
        match self {
            Outcome::Invalid(e) | Outcome::Internal(e) => Some(e),
            Outcome::Graded { .. } => None,
        }
    }

    fn warning(&self) -> Option<&str> {
        match self {
            Outcome::Graded { warning, .. } => warning.as_deref(),
            _ => None,
        }
    }
}

/// The rows of `batch`, and the tally of what they hold.
struct GradeRows {
    mode: Mode,
    format: OutputFormat,
    times: bool,
    tally: Tally,
}

impl Rows<Outcome> for GradeRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            OutputFormat::Tsv => report::write_tsv_header(out, self.mode, self.times),
            OutputFormat::Ndjson => Ok(()),
        }
    }

    fn row(
        &mut self,
        out: &mut dyn Write,
        entry: &Entry,
        shown: &str,
        outcome: &Outcome,
        took: Option<Duration>,
    ) -> io::Result<()> {
        self.tally.add(outcome);
        match self.format {
            OutputFormat::Tsv => {
                report::write_tsv(out, self.mode, entry.index, shown, outcome, took)
            }
            OutputFormat::Ndjson => report::write_ndjson(out, entry.index, shown, outcome, took),
        }
    }
}
