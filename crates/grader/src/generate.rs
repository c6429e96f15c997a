//! `grader generate`: unique puzzles whose max rating lies in a band, made by the
//! `kenken-generator` library and written as they are found (NDJSON rows or
//! puzzle strings), with a progress bar on a terminal.

use crate::exit::BAD_INPUT;
use crate::options;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kenken_batch::generating::{
    attempts_text, band_text, check_format, closest_text, generated_line, GenerateFormat,
};
use kenken_formats::{tatham, Strictness};
use kenken_generator::{
    clock_seed, generate, Event, GenerateError, GenerateOptions, Generated, Stopped,
};
use kenken_model::{Cage, Op, Puzzle};
use std::borrow::Cow;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The exit code when the run stopped (`--max-tries`, `--timeout`) before
/// finding `--count` puzzles.
pub const INCOMPLETE: u8 = 4;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub options: GenerateOptions,
    /// Worker threads: 1 to 256 (default: every core).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub jobs: Option<i64>,
    /// The output: NDJSON rows (puzzle, ratings, seed), or one puzzle string per
    /// puzzle (text: a blank line between puzzles).
    #[arg(long, value_enum, default_value = "ndjson")]
    pub format: GenerateFormat,
    /// No progress bar (there is none anyway when stderr is not a terminal) and no
    /// summary.
    #[arg(long)]
    pub quiet: bool,
}

/// A puzzle's output line ([`kenken_batch::generating`]'s, shared with the Python
/// package).
fn row(g: &Generated, index: usize, format: GenerateFormat) -> anyhow::Result<String> {
    Ok(generated_line(g, index, format)?)
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let jobs = match options::jobs("generate", args.jobs) {
        Ok(jobs) => jobs,
        Err(code) => return Ok(code),
    };
    let plan = match args.options.plan() {
        Ok(plan) => plan,
        Err(GenerateError::Options(e)) => return Ok(options::refuse("generate", &e)),
        Err(e) => {
            eprintln!("grader generate: error: {e}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    let mut request = plan.request.clone();
    // Only NDJSON rows carry mode c's depth.
    request.mode_c_depth = args.format == GenerateFormat::Ndjson;
    if let Err(e) = check_format(args.format, &request) {
        eprintln!("grader generate: error: {e}");
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let seed = plan.seed.unwrap_or_else(clock_seed);
    let start = Instant::now();
    let limits = plan.limits(start);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the worker threads")?;
    let bar = progress_bar(plan.count, args.quiet);
    let mut out = BufWriter::new(io::stdout());
    let mut written = 0usize;
    let mut failure: Option<anyhow::Error> = None;
    let report = pool.install(|| {
        generate(&request, seed, &limits, |event| match event {
            Event::Found(g) => {
                written += 1;
                let result = row(g, written, args.format).and_then(|line| {
                    if request.rules.strict {
                        // Every strict puzzle must read back under Tatham's own rules.
                        let id = tatham::write(&shapes_only(&g.puzzle))?;
                        tatham::read_with(&id, Strictness::Strict).map_err(|e| {
                            anyhow::anyhow!("internal error: {id} breaks Tatham's rules: {e}")
                        })?;
                    }
                    writeln!(out, "{line}")?;
                    out.flush()?;
                    Ok(())
                });
                bar.inc(1);
                match result {
                    Ok(()) => true,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                }
            }
            Event::Progress { found: _, tried } => {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "tried {tried}  {:.2} puzzles/s",
                    bar.position() as f64 / secs
                ));
                true
            }
        })
    })?;
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64();
    let band = band_text(&request);
    let attempts = attempts_text(report.tried, report.repeats);
    if report.stopped == Stopped::Done {
        if !args.quiet {
            eprintln!(
                "generated {} puzzle(s) rated {band} in {attempts}, {secs:.1} s (seed {seed})",
                report.found
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let why = match report.stopped {
        Stopped::Tries => format!("--max-tries {}", plan.max_tries),
        Stopped::Timeout => format!("--timeout {}", args.options.timeout.unwrap_or_default()),
        Stopped::Done | Stopped::Cancelled => "the output closed".to_string(),
    };
    let closest = closest_text(report.closest(&request), &request);
    eprintln!(
        "grader: found {} of {} puzzle(s) rated {band} in {attempts}, {secs:.1} s (seed {seed}): \
         stopped by {why}; among the attempts that missed, {closest}",
        report.found, plan.count
    );
    Ok(ExitCode::from(INCOMPLETE))
}

/// A puzzle to check against Tatham's rules: itself, or, when its operations are
/// hidden (which a game ID cannot show), the same cages written as sums (the rules
/// on cage shapes and grid size do not look at the operations).
fn shapes_only(puzzle: &Puzzle) -> Cow<'_, Puzzle> {
    if !puzzle.has_hidden_ops() {
        return Cow::Borrowed(puzzle);
    }
    let cages = puzzle
        .cages()
        .iter()
        .map(|c| match c.op {
            Op::Hidden => Cage::new(c.cells.clone(), Op::Add, c.clue),
            _ => c.clone(),
        })
        .collect();
    Cow::Owned(Puzzle::new(puzzle.size(), cages).expect("the same cages make a puzzle"))
}

/// Found / tried / rate on stderr when it is a terminal (and not `--quiet`).
fn progress_bar(count: usize, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(count as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} found {pos}/{len}  {msg}  {elapsed}")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
