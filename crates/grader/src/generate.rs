//! `grader generate`: unique puzzles whose max rating lies in a band, made by the
//! `kenken-generator` library and written as they are found (NDJSON rows or
//! puzzle strings), with a progress bar on a terminal.

use crate::exit::BAD_INPUT;
use crate::ladder_args::TechniqueArg;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use kenken_batch::generating::{
    attempts_text, band_text, check_format, closest_text, generated_line, rating, GenerateFormat,
};
use kenken_formats::{tatham, Strictness};
use kenken_generator::{generate, Event, Generated, OpSet, Request, RunLimits, Stopped};
use kenken_techniques::Rating;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The exit code when the run stopped (`--max-tries`, `--timeout`) before
/// finding `--count` puzzles.
pub const INCOMPLETE: u8 = 4;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Grid size: 3 to 9 with --strict, up to 16 otherwise.
    #[arg(long, value_name = "N")]
    pub size: usize,
    /// The lowest max rating wanted (e.g. 4.4).
    #[arg(long, value_name = "RATING", value_parser = parse_rating)]
    pub min: Rating,
    /// The highest max rating wanted (default: no upper bound).
    #[arg(long, value_name = "RATING", value_parser = parse_rating)]
    pub max: Option<Rating>,
    /// How many puzzles to make.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub count: usize,
    /// The run's seed (default: from the clock, printed at the end). The same seed
    /// and options give the same puzzles, whatever --jobs.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// The output: NDJSON rows (puzzle, ratings, seed), or one puzzle string per
    /// puzzle (text: a blank line between puzzles).
    #[arg(long, value_enum, default_value = "ndjson")]
    pub format: GenerateFormat,
    /// The operations clues may use, a subset of `+-*/` (`x` for ×).
    #[arg(long, value_name = "OPS", default_value = "+-*/", value_parser = parse_ops)]
    pub ops: OpSet,
    /// Tatham's rules: − and ÷ on two-cell cages only, sizes 3–9, so every ID plays
    /// in Tatham's Keen.
    #[arg(long)]
    pub strict: bool,
    /// The sizes of cages of two or more cells, `LO-HI`.
    #[arg(long, value_name = "LO-HI", default_value = "2-5", value_parser = parse_cage_sizes)]
    pub cage_sizes: RangeInclusive<usize>,
    /// The most single-cell cages (givens) a puzzle may have.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_givens: usize,
    /// The largest mean number of cells per cage (Tatham's puzzles: about 2.25).
    #[arg(long, value_name = "CELLS", default_value_t = 2.4)]
    pub max_mean_cage: f64,
    /// KenDoku: boxes as extra regions (2×3 on a 6×6, written as D6C).
    #[arg(long)]
    pub kendoku: bool,
    /// A technique the solve path must use (repeat or separate with commas).
    #[arg(long, value_name = "TECHNIQUE", value_delimiter = ',')]
    pub require: Vec<TechniqueArg>,
    /// A technique the solve path must not use (repeat or separate with commas).
    #[arg(long, value_name = "TECHNIQUE", value_delimiter = ',')]
    pub forbid: Vec<TechniqueArg>,
    /// The largest number of cages a cage-combination step may combine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=8))]
    pub max_depth: Option<u8>,
    /// Give up after this many attempts (an attempt is one solution and layout,
    /// searched towards the band).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_tries: u64,
    /// Mutations one attempt tries before it gives up and a fresh attempt starts
    /// (default: 40 per cell, 600 on a 4×4, 8 000 on a 5×5).
    #[arg(long, value_name = "N")]
    pub steps: Option<usize>,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// No progress bar (there is none anyway when stderr is not a terminal) and no
    /// summary.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_rating(s: &str) -> Result<Rating, String> {
    let x: f64 = s.parse().map_err(|_| format!("`{s}` is not a rating"))?;
    rating(x).map_err(|_| format!("a rating is between 0 and 1000, not {s}"))
}

fn parse_ops(s: &str) -> Result<OpSet, String> {
    OpSet::parse(s).ok_or_else(|| format!("`{s}` is not a set of operations: use + - * /"))
}

fn parse_cage_sizes(s: &str) -> Result<RangeInclusive<usize>, String> {
    let bad = || format!("`{s}` is not a cage-size range LO-HI, e.g. 2-4");
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let lo: usize = lo.trim().parse().map_err(|_| bad())?;
    let hi: usize = hi.trim().parse().map_err(|_| bad())?;
    Ok(lo..=hi)
}

impl GenerateArgs {
    fn request(&self) -> Request {
        let mut request = Request::new(self.size, self.min, self.max);
        request.rules.ops = self.ops;
        request.rules.strict = self.strict;
        request.rules.cage_sizes = self.cage_sizes.clone();
        request.rules.max_givens = self.max_givens;
        request.rules.max_mean_cage_size = self.max_mean_cage;
        request.kendoku = self.kendoku;
        request.require = self.require.iter().map(|t| t.0).collect();
        request.forbid = self.forbid.iter().map(|t| t.0).collect();
        if let Some(s) = self.steps {
            request.steps = s;
        }
        if let Some(d) = self.max_depth {
            request.options.max_depth = usize::from(d);
        }
        // Only NDJSON rows carry mode c's depth.
        request.mode_c_depth = self.format == GenerateFormat::Ndjson;
        request
    }
}

/// A puzzle's output line ([`kenken_batch::generating`]'s, shared with the Python
/// package).
fn row(g: &Generated, index: usize, format: GenerateFormat) -> anyhow::Result<String> {
    Ok(generated_line(g, index, format)?)
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let request = args.request();
    if let Err(e) = request.check().map_err(|e| e.to_string()).and(check_format(
        args.format,
        args.size,
        args.kendoku,
    )) {
        eprintln!("grader: error: {e}");
        return Ok(ExitCode::from(BAD_INPUT));
    }
    if args.count == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let start = Instant::now();
    let limits = RunLimits {
        count: args.count,
        max_tries: Some(args.max_tries),
        deadline: args
            .timeout
            .filter(|t| t.is_finite() && *t > 0.0)
            .map(|t| start + Duration::from_secs_f64(t)),
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(j) = args.jobs {
        builder = builder.num_threads(usize::from(j));
    }
    let pool = builder.build().context("cannot start the worker threads")?;
    let bar = progress_bar(args.count, args.quiet);
    let mut out = BufWriter::new(io::stdout());
    let mut written = 0usize;
    let mut failure: Option<anyhow::Error> = None;
    let report = pool.install(|| {
        generate(&request, seed, &limits, |event| match event {
            Event::Found(g) => {
                written += 1;
                let result = row(g, written, args.format).and_then(|line| {
                    if args.strict {
                        // Every strict puzzle must read back under Tatham's own rules.
                        let id = tatham::write(&g.puzzle)?;
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
        Stopped::Tries => format!("--max-tries {}", args.max_tries),
        Stopped::Timeout => format!("--timeout {}", args.timeout.unwrap_or_default()),
        Stopped::Done | Stopped::Cancelled => "the output closed".to_string(),
    };
    let closest = closest_text(report.closest(&request), &request);
    eprintln!(
        "grader: found {} of {} puzzle(s) rated {band} in {attempts}, {secs:.1} s (seed {seed}): \
         stopped by {why}; among the attempts that missed, {closest}",
        report.found, args.count
    );
    Ok(ExitCode::from(INCOMPLETE))
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
