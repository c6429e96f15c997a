//! The streaming runs of the subcommands that take many puzzles (`batch`, `solve
//! --many`): entries read lazily from a [`batch_input::Entries`], worked on by the
//! [`kenken_batch::pipeline`] a chunk at a time, one row written per entry in input
//! order, and the progress bar.
//!
//! Each chunk's rows are written and flushed before the next chunk is read, so
//! memory stays flat however long the input. An entry that is not a puzzle, or
//! whose puzzle cannot be read, gets a row saying why and one line on stderr, and
//! the input goes on. A progress bar is drawn on stderr when it is a terminal.
//! SIGINT and SIGTERM end the run between two rows ([`crate::interrupt`]).

use crate::input::HideOps;
use crate::interrupt::Interrupt;
use crate::report::label;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use kenken_batch::pipeline::{self, Finished, Job, Rows, Work};
use kenken_formats::batch_input::{BatchError, Entries};
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to run.
pub struct Settings {
    /// The subcommand, for messages (`batch`, `solve`).
    pub command: &'static str,
    pub jobs: usize,
    /// No progress bar, no warnings.
    pub quiet: bool,
    /// Time each entry.
    pub times: bool,
    /// Hide every puzzle's operations (as well as those of the entries that ask).
    pub hide: HideOps,
}

/// Works on every entry and writes a row for each, in input order, on stdout.
///
/// An `Err` is a failure to start the workers or to write the rows; a failure to
/// read the input is in [`Finished::input_error`], after the rows written before it.
pub fn run<W: Work>(
    entries: Entries<'_>,
    settings: &Settings,
    work: &W,
    rows: &mut dyn Rows<W::Found>,
) -> anyhow::Result<Finished<BatchError>> {
    // The main thread is one of the workers: it would only wait otherwise, and
    // with `--jobs 1` no thread is started at all (a few tenths of a millisecond
    // of a short run).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .use_current_thread()
        .build()
        .context("cannot start the worker threads")?;
    let progress = Progress::new(&entries, settings);
    let interrupt =
        Interrupt::watch(settings.command).context("cannot watch for SIGINT and SIGTERM")?;
    if progress.shown {
        interrupt.show_progress(progress.bar.clone());
    }
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let write_error = "cannot write to standard output";
    {
        let _writing = interrupt.writing();
        rows.header(&mut out).context(write_error)?;
    }
    let command = settings.command;
    let jobs = entries.map(|entry| {
        entry.map(|entry| {
            let mut job = Job::from(entry);
            job.hide_ops |= settings.hide.hide_ops;
            job
        })
    });
    let finished = pipeline::run(
        &pool,
        jobs,
        settings.times,
        work,
        &progress,
        |jobs, done| {
            // Rows are written whole: a signal ends the run between two of them
            // (see `crate::interrupt`).
            let _writing = interrupt.writing();
            progress.bar.suspend(|| -> anyhow::Result<()> {
                for (job, d) in jobs.iter().zip(done) {
                    if interrupt.stopped() {
                        break;
                    }
                    rows.row(&mut out, job, &d.shown(job), &d.outcome, d.took)
                        .context(write_error)?;
                    interrupt.wrote_row();
                    if let Some(e) = d.outcome.failure() {
                        eprintln!("grader {command}: {}: {e}", label(job.index, &job.text));
                    } else if let Some(w) = d.outcome.warning().filter(|_| !settings.quiet) {
                        eprintln!(
                            "grader {command}: warning: {}: {w}",
                            label(job.index, &job.text)
                        );
                    }
                }
                out.flush().context(write_error)
            })?;
            if interrupt.stopped() {
                interrupt.end();
            }
            Ok::<(), anyhow::Error>(())
        },
    )?;
    progress.finish(command, &finished);
    Ok(finished)
}

/// The progress bar on stderr (when it is a terminal and not `--quiet`): against
/// the number of puzzles when the input told it up front (a JSON array), against
/// the bytes of the input when its length is known (a file of lines or NDJSON,
/// also as standard input), else a spinner; each with the count, the rate in
/// puzzles per second and, but for the spinner, the time left. Hidden (drawing
/// nothing) in every other case.
struct Progress {
    bar: ProgressBar,
    /// Whether the bar is drawn (asking the bar takes a lock).
    shown: bool,
    /// Advance by the bytes of each entry rather than by one.
    by_bytes: bool,
    /// Puzzles done (shown with the bar).
    puzzles: Arc<AtomicU64>,
    started: Instant,
}

impl Progress {
    fn new(entries: &Entries<'_>, settings: &Settings) -> Progress {
        let done = Arc::new(AtomicU64::new(0));
        let mut progress = Progress {
            bar: ProgressBar::hidden(),
            shown: false,
            by_bytes: false,
            puzzles: Arc::clone(&done),
            started: Instant::now(),
        };
        if settings.quiet || !io::stderr().is_terminal() {
            return progress;
        }
        let (bar, template) = match (entries.total(), entries.input_len()) {
            (Some(n), _) => (
                ProgressBar::new(n as u64),
                "{bar:40} {puzzles}/{len} puzzles  {rate}  ETA {eta}",
            ),
            (None, Some(bytes)) => {
                progress.by_bytes = true;
                (
                    ProgressBar::new(bytes),
                    "{bar:40} {percent:>3}%  {puzzles} puzzles  {rate}  ETA {eta}",
                )
            }
            (None, None) => (
                ProgressBar::new_spinner(),
                "{spinner} {puzzles} puzzles  {rate}  {elapsed}",
            ),
        };
        let count = Arc::clone(&done);
        let rate_count = Arc::clone(&done);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(
                style
                    .with_key(
                        "puzzles",
                        move |_: &ProgressState, w: &mut dyn fmt::Write| {
                            let _ = write!(w, "{}", count.load(Ordering::Relaxed));
                        },
                    )
                    .with_key("rate", move |s: &ProgressState, w: &mut dyn fmt::Write| {
                        let secs = s.elapsed().as_secs_f64();
                        let n = rate_count.load(Ordering::Relaxed) as f64;
                        let rate = if secs > 0.0 { n / secs } else { 0.0 };
                        let _ = write!(w, "{rate:.0}/s");
                    }),
            );
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        progress.bar = bar;
        progress.shown = true;
        progress
    }

    /// Clears the bar and, when it was shown, says what was done.
    fn finish(&self, command: &str, finished: &Finished<BatchError>) {
        if !self.shown {
            return;
        }
        self.bar.finish_and_clear();
        let errors = match finished.failures {
            0 => "no errors".to_string(),
            1 => "1 error".to_string(),
            n => format!("{n} errors"),
        };
        let stopped = if finished.input_error.is_some() {
            ", input stopped"
        } else {
            ""
        };
        eprintln!(
            "grader {command}: {} row(s), {errors}{stopped}, in {:.2} s",
            finished.rows,
            self.started.elapsed().as_secs_f64()
        );
    }
}

impl pipeline::Progress for Progress {
    /// One entry done (nothing when the bar is hidden: a hidden bar still takes a
    /// lock and updates its estimate on each tick, a few hundred instructions).
    fn done(&self, job: &Job) {
        if !self.shown {
            return;
        }
        self.puzzles.fetch_add(1, Ordering::Relaxed);
        self.bar.inc(if self.by_bytes { job.bytes } else { 1 });
    }
}
