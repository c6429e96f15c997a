//! `grader batch [FILE|-]`: grades many puzzles in parallel and writes one row per
//! puzzle, in input order, as TSV (the reference's columns plus `Error`) or NDJSON.
//!
//! Streaming: the input is read lazily ([`crate::batch_input`]), graded a chunk at a
//! time (2 048 puzzles per worker, grouped by size: see [`grade_chunk`]) on a rayon
//! pool of `--jobs` threads, and each chunk's rows are written and flushed before the
//! next chunk is read, so memory stays flat however long the input. A puzzle that
//! cannot be read or built gets a row saying why and one line on stderr; the batch
//! goes on, and exits with code 2 at the end.

use crate::batch_input::{self, BadInput, Entry};
use crate::exit::{panic_message, BAD_INPUT, FAILURE};
use crate::input::relaxed_warning;
use crate::ladder_args::{LadderArgs, Runs};
use crate::report::{self, label, Outcome, Tally};
use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use kenken_formats::{read_any, tatham, Imported};
use kenken_techniques::{Grader, Options, Summary};
use rayon::prelude::*;
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Puzzles per worker thread in a chunk.
///
/// Large, because a chunk is graded by size (see [`grade_chunk`]) and a longer run
/// of puzzles of one size is graded faster: each is then graded after more puzzles
/// like it, with the branch predictors tuned to them. Measured on the reference
/// file (`--jobs 1`, 15 runs each, per-puzzle medians), 2 048 against 256: 3×3s
/// 15 % faster, 4×4s 7 %, 5×5s 4 %, 9×9s 1 %; the 4×4 closest to the 100× line
/// 10.0 → 8.8 µs. Memory stays flat, a little higher (100 000 puzzles on two
/// workers: peak 27–28 MiB instead of 20–21), and both cores are busier (194 %
/// CPU instead of 187 %: fewer chunk ends leave a worker waiting); the cost is
/// that on a stream the first rows come out only once the first chunk is read and
/// graded.
const CHUNK_PER_JOB: usize = 2048;

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// A file of puzzles, or `-` for standard input: a JSON array of puzzle strings,
    /// NDJSON (one string or {"puzzle": …} object per line), a JSON object of puzzle
    /// arrays by category, or one puzzle per line, detected from the first
    /// character.
    #[arg(default_value = "-")]
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
    /// Tab-separated, with the reference's header.
    Tsv,
    /// One JSON object per line.
    Ndjson,
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    let mut entries = match batch_input::open(&args.input) {
        Ok(e) => e,
        Err(e) => return input_failure(e),
    };
    let jobs = args.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the worker threads")?;
    let runs = args.ladder.runs();
    let mode = args.ladder.mode;
    let progress = progress_bar(entries.total, args.quiet);
    // A hidden bar still takes a lock and updates its rate estimate (a powf) on
    // each tick, a few hundred instructions per puzzle: tick only a bar drawn.
    let ticking = (!progress.is_hidden()).then_some(&progress);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let write_error = "cannot write to standard output";
    if args.format == OutputFormat::Tsv {
        report::write_tsv_header(&mut out, mode, args.times).context(write_error)?;
    }
    let chunk_size = CHUNK_PER_JOB * jobs;
    let mut tally = Tally::default();
    loop {
        let mut chunk: Vec<Entry> = Vec::with_capacity(chunk_size);
        let mut input_error = None;
        for item in entries.by_ref().take(chunk_size) {
            match item {
                Ok(entry) => chunk.push(entry),
                Err(e) => {
                    input_error = Some(e);
                    break;
                }
            }
        }
        let outcomes = pool.install(|| grade_chunk(&chunk, &runs, ticking));
        progress.suspend(|| -> anyhow::Result<()> {
            for (entry, (outcome, took)) in chunk.iter().zip(&outcomes) {
                let took = args.times.then_some(*took);
                match args.format {
                    OutputFormat::Tsv => {
                        report::write_tsv(&mut out, mode, entry.index, &entry.text, outcome, took)
                    }
                    OutputFormat::Ndjson => {
                        report::write_ndjson(&mut out, entry.index, &entry.text, outcome, took)
                    }
                }
                .context(write_error)?;
                match outcome {
                    Outcome::Invalid(e) | Outcome::Internal(e) => {
                        eprintln!("grader batch: {}: {e}", label(entry.index, &entry.text));
                    }
                    Outcome::Graded {
                        warning: Some(w), ..
                    } if !args.quiet => {
                        eprintln!(
                            "grader batch: warning: {}: {w}",
                            label(entry.index, &entry.text)
                        );
                    }
                    Outcome::Graded { .. } => {}
                }
                tally.add(outcome);
            }
            out.flush().context(write_error)
        })?;
        if let Some(e) = input_error {
            progress.finish_and_clear();
            return input_failure(e);
        }
        if chunk.len() < chunk_size {
            break;
        }
    }
    progress.finish_and_clear();
    if args.summary {
        tally
            .write(&mut io::stderr().lock(), mode)
            .context("cannot write to standard error")?;
    }
    let timed_out = tally.timed_out();
    if timed_out > 0 && !args.quiet {
        eprintln!("grader batch: {timed_out} puzzle(s) reached --timeout (status `timeout`)");
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

/// An input that cannot be read on: bad input (code 2) or an I/O failure (code 1).
fn input_failure(e: anyhow::Error) -> anyhow::Result<ExitCode> {
    if let Some(bad) = e.downcast_ref::<BadInput>() {
        eprintln!("grader batch: error: {bad}");
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Err(e)
}

/// Grades a chunk: the outcome and the time taken (reading plus grading) of each
/// entry, in the chunk's order.
///
/// The puzzles are read and graded by size, largest first (input order within a
/// size); the rows are still written in input order. A Tatham ID tells its size
/// up front ([`tatham::size_hint`]): it is read just before it is graded; an entry
/// in another format is read first, to learn its size.
///
/// * Grading a small puzzle right after a large one costs up to twice as much as
///   after one of its own size, measured: the caches and branch predictors are
///   then tuned to other tables and other loop counts. Grouped by size, nearly
///   every puzzle runs warm; read right before it is graded, its reading too.
///   (Read first, in file order with sizes mixed, a 3×3 of the reference file
///   took 6–12 µs to read where it takes under 1 µs among 3×3s, and holding
///   every puzzle of the chunk grew the heap: 133 page faults over 1 507 reads.)
/// * Largest first, one puzzle per task, keeps the workers busy to the end of a
///   chunk: the small puzzles fill in while the last large ones finish. (Measured
///   on 20 000 puzzles: 187 % CPU on two cores; with rayon's default long runs of
///   puzzles per task, which cannot be shared once started, 153–171 %.)
/// * The process's one-time warm-up (its code fetched into the caches for the first
///   time, about 0.1 ms) falls on a puzzle that takes milliseconds, not on a 3×3
///   that takes microseconds once warm.
fn grade_chunk(
    chunk: &[Entry],
    runs: &Runs,
    progress: Option<&ProgressBar>,
) -> Vec<(Outcome, Duration)> {
    // (entry index, its size, and for an entry read ahead what it read and the
    // time reading took)
    type Ahead = (usize, usize, Option<(Result<Imported, Outcome>, Duration)>);
    let mut ahead: Vec<Ahead> = chunk
        .par_iter()
        .enumerate()
        .map(|(i, entry)| {
            if let Some(size) = size_hint(entry) {
                return (i, size, None);
            }
            let started = Instant::now();
            let imported = read_entry(entry);
            let size = imported.as_ref().map_or(0, |p| p.puzzle.size().get());
            (i, size, Some((imported, started.elapsed())))
        })
        .collect();
    ahead.sort_by_key(|&(i, size, _)| (std::cmp::Reverse(size), i));
    // One puzzle per task: rayon otherwise cuts the chunk into a few long runs of
    // puzzles, and a run of the largest ones cannot be shared once started.
    let graded: Vec<(usize, Outcome, Duration)> = ahead
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, _, read)| {
            let started = Instant::now();
            let (imported, reading) = match read {
                Some(read) => read,
                None => (read_entry(&chunk[i]), Duration::ZERO),
            };
            let outcome = match imported {
                Ok(imported) => guarded(|| grade_puzzle(imported, runs)).unwrap_or_else(|e| e),
                Err(outcome) => outcome,
            };
            if let Some(progress) = progress {
                progress.inc(1);
            }
            (i, outcome, reading + started.elapsed())
        })
        .collect();
    let mut outcomes: Vec<Option<(Outcome, Duration)>> = vec![None; chunk.len()];
    for (i, outcome, took) in graded {
        outcomes[i] = Some((outcome, took));
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every entry of the chunk is graded once"))
        .collect()
}

/// The size a puzzle entry declares up front, if its format does (a Tatham ID).
fn size_hint(entry: &Entry) -> Option<usize> {
    entry
        .problem
        .is_none()
        .then(|| tatham::size_hint(&entry.text))
        .flatten()
}

/// Runs `work`; a panic (a bug) becomes the entry's error instead of ending the
/// batch.
fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, Outcome> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        Outcome::Internal(format!(
            "internal error (a bug in the grader, please report it): {}",
            panic_message(&*payload)
        ))
    })
}

/// Reads an entry's puzzle (an entry that is not a puzzle string is invalid; a
/// reader's panic, a bug, is the entry's error).
fn read_entry(entry: &Entry) -> Result<Imported, Outcome> {
    if let Some(problem) = &entry.problem {
        return Err(Outcome::Invalid(problem.clone()));
    }
    guarded(|| read_any(&entry.text, None))?.map_err(|e| Outcome::Invalid(e.to_string()))
}

fn grade_puzzle(imported: Imported, runs: &Runs) -> Outcome {
    let runs = runs.starting_now();
    let warning = relaxed_warning(&imported);
    // The runs' deadline bounds the solution count too, which only runs when a run
    // does not solve the puzzle (to tell stuck, ambiguous and impossible apart).
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

/// A progress bar on stderr when it is a terminal (and not `--quiet`): a bar with
/// rate and ETA when the number of puzzles is known, a spinner with the rate
/// otherwise. Hidden (drawing nothing) in every other case.
fn progress_bar(total: Option<usize>, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::new(n as u64),
            "{bar:40} {pos}/{len} puzzles  {rate}  ETA {eta}",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {pos} puzzles  {rate}  {elapsed}",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(
            style.with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            }),
        );
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
