//! The streaming machinery shared by the subcommands that take many puzzles
//! (`batch`, `solve --many`): entries read lazily from a [`batch::Entries`], worked
//! on a chunk at a time on a rayon pool, and one row written per entry in input
//! order.
//!
//! Each chunk (2 048 entries per worker) is read, worked on (grouped by size: see
//! [`work_chunk`]) and its rows written and flushed before the next chunk is read,
//! so memory stays flat however long the input. An entry that is not a puzzle, or
//! whose puzzle cannot be read, gets a row saying why and one line on stderr, and
//! the input goes on. A progress bar is drawn on stderr when it is a terminal.

use crate::exit::panic_message;
use crate::report::{clip, clip_message, label};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use kenken_formats::batch::{BatchError, Entries, Entry};
use kenken_formats::{read_any, tatham, Imported};
use rayon::prelude::*;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Entries per worker thread in a chunk.
///
/// Large, because a chunk is worked on by size (see [`work_chunk`]) and a longer
/// run of puzzles of one size goes faster: each then comes after more puzzles like
/// it, with the caches and branch predictors tuned to them. Measured on the
/// reference file (`batch --jobs 1`, 15 runs each, per-puzzle medians), 2 048
/// against 256: 3×3s 15 % faster, 4×4s 7 %, 5×5s 4 %, 9×9s 1 %. Memory stays flat
/// (100 000 puzzles on two workers: peak 27–28 MiB instead of 20–21), and both
/// cores are busier (fewer chunk ends leave a worker waiting); the cost is that on
/// a stream the first rows come out only once the first chunk is read and worked
/// on.
const CHUNK_PER_JOB: usize = 2048;

/// What a subcommand does with each puzzle.
pub trait Work: Sync {
    type Outcome: Outcome;
    /// Works on a puzzle read from an entry (called on a worker thread).
    fn work(&self, imported: Imported) -> Self::Outcome;
}

/// What a subcommand found for one entry.
pub trait Outcome: Send {
    /// The entry is not a puzzle, or not a valid one: why.
    fn invalid(reason: String) -> Self;
    /// The work panicked (a bug): the message.
    fn internal(message: String) -> Self;
    /// Why the entry has no result (invalid or internal), for stderr.
    fn failure(&self) -> Option<&str>;
    /// A warning about the puzzle (read leniently), for stderr.
    fn warning(&self) -> Option<&str>;
}

/// Writes the rows.
pub trait Rows<O> {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()>;
    /// One row. `shown` is the entry's text as the row shows it (cut and quoted
    /// when the entry is not a valid puzzle); `took` is set with `--times`.
    fn row(
        &mut self,
        out: &mut dyn Write,
        entry: &Entry,
        shown: &str,
        outcome: &O,
        took: Option<Duration>,
    ) -> io::Result<()>;
}

/// How to run.
pub struct Settings {
    /// The subcommand, for messages (`batch`, `solve`).
    pub command: &'static str,
    pub jobs: usize,
    /// No progress bar, no warnings.
    pub quiet: bool,
    /// Time each entry.
    pub times: bool,
}

/// How a run ended.
pub struct Finished {
    /// Rows written.
    pub rows: usize,
    /// Rows whose entry had no result (invalid or internal).
    pub failures: usize,
    /// The input stopped being readable after `rows` rows.
    pub input_error: Option<BatchError>,
}

/// Works on every entry and writes a row for each, in input order.
///
/// An `Err` is a failure to start the workers or to write the rows; a failure to
/// read the input is in [`Finished::input_error`], after the rows written before it.
pub fn run<W: Work>(
    mut entries: Entries<'_>,
    settings: &Settings,
    work: &W,
    rows: &mut dyn Rows<W::Outcome>,
) -> anyhow::Result<Finished> {
    // The main thread is one of the workers: it would only wait otherwise, and
    // with `--jobs 1` no thread is started at all (a few tenths of a millisecond
    // of a short run).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .use_current_thread()
        .build()
        .context("cannot start the worker threads")?;
    let progress = Progress::new(&entries, settings);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let write_error = "cannot write to standard output";
    rows.header(&mut out).context(write_error)?;
    let chunk_size = CHUNK_PER_JOB * settings.jobs;
    let mut finished = Finished {
        rows: 0,
        failures: 0,
        input_error: None,
    };
    loop {
        let mut chunk: Vec<Entry> = Vec::with_capacity(chunk_size);
        for item in entries.by_ref().take(chunk_size) {
            match item {
                Ok(entry) => chunk.push(entry),
                Err(e) => {
                    finished.input_error = Some(e);
                    break;
                }
            }
        }
        let outcomes = pool.install(|| work_chunk(&chunk, work, settings.times, &progress));
        progress.bar.suspend(|| -> anyhow::Result<()> {
            for (entry, done) in chunk.iter().zip(&outcomes) {
                let Done {
                    outcome,
                    took,
                    read,
                } = done;
                let failure = outcome.failure();
                // A puzzle is bounded in size by its format; what could not be
                // read as one may be anything.
                let shown: Cow<str> = if *read {
                    Cow::Borrowed(&entry.text)
                } else {
                    clip(&entry.text)
                };
                rows.row(&mut out, entry, &shown, outcome, *took)
                    .context(write_error)?;
                let command = settings.command;
                if let Some(e) = failure {
                    finished.failures += 1;
                    eprintln!("grader {command}: {}: {e}", label(entry.index, &entry.text));
                } else if let Some(w) = outcome.warning().filter(|_| !settings.quiet) {
                    eprintln!(
                        "grader {command}: warning: {}: {w}",
                        label(entry.index, &entry.text)
                    );
                }
            }
            finished.rows += chunk.len();
            out.flush().context(write_error)
        })?;
        if finished.input_error.is_some() || chunk.len() < chunk_size {
            break;
        }
    }
    progress.finish(settings.command, &finished);
    Ok(finished)
}

/// What was done with one entry.
struct Done<O> {
    outcome: O,
    /// With `--times`: the time taken, reading included.
    took: Option<Duration>,
    /// Whether the entry was read as a puzzle.
    read: bool,
}

/// Works on a chunk: what was done with each entry, in the chunk's order.
///
/// The puzzles are read and worked on by size, largest first (input order within
/// a size); the rows are still written in input order. A Tatham ID tells its size
/// up front ([`tatham::size_hint`]): it is read just before it is worked on; an
/// entry in another format is read first, to learn its size.
///
/// * Working on a small puzzle right after a large one costs up to twice as much as
///   after one of its own size, measured: the caches and branch predictors are
///   then tuned to other tables and other loop counts. Grouped by size, nearly
///   every puzzle runs warm; read right before it is worked on, its reading too.
/// * Largest first, one puzzle per task, keeps the workers busy to the end of a
///   chunk: the small puzzles fill in while the last large ones finish. (Measured
///   on 20 000 puzzles: 187 % CPU on two cores; with rayon's default long runs of
///   puzzles per task, which cannot be shared once started, 153–171 %.)
/// * The process's one-time warm-up (its code fetched into the caches for the first
///   time) falls on a puzzle that takes milliseconds, not on a 3×3 that takes
///   microseconds once warm.
fn work_chunk<W: Work>(
    chunk: &[Entry],
    work: &W,
    times: bool,
    progress: &Progress,
) -> Vec<Done<W::Outcome>> {
    // (entry index, its size, and for an entry read ahead what it read and the
    // time reading took)
    type Ahead<O> = (usize, usize, Option<(Result<Imported, O>, Duration)>);
    let clock = |on: bool| on.then(Instant::now);
    let since = |t: Option<Instant>| t.map_or(Duration::ZERO, |t| t.elapsed());
    let mut ahead: Vec<Ahead<W::Outcome>> = chunk
        .par_iter()
        .enumerate()
        .map(|(i, entry)| {
            if let Some(size) = size_hint(entry) {
                return (i, size, None);
            }
            let started = clock(times);
            let imported = read_entry(entry);
            let size = imported.as_ref().map_or(0, |p| p.puzzle.size().get());
            (i, size, Some((imported, since(started))))
        })
        .collect();
    ahead.sort_by_key(|&(i, size, _)| (std::cmp::Reverse(size), i));
    // One puzzle per task: rayon otherwise cuts the chunk into a few long runs of
    // puzzles, and a run of the largest ones cannot be shared once started.
    let done: Vec<(usize, Done<W::Outcome>)> = ahead
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, _, read)| {
            let started = clock(times);
            let (imported, reading) = match read {
                Some(read) => read,
                None => (read_entry(&chunk[i]), Duration::ZERO),
            };
            let read = imported.is_ok();
            let outcome = match imported {
                Ok(imported) => guarded(|| work.work(imported)).unwrap_or_else(|e| e),
                Err(outcome) => outcome,
            };
            progress.tick(&chunk[i]);
            let took = times.then(|| reading + since(started));
            (
                i,
                Done {
                    outcome,
                    took,
                    read,
                },
            )
        })
        .collect();
    let mut outcomes: Vec<Option<Done<W::Outcome>>> = (0..chunk.len()).map(|_| None).collect();
    for (i, d) in done {
        outcomes[i] = Some(d);
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every entry of the chunk is worked on once"))
        .collect()
}

/// The size a puzzle entry declares up front, if its format does (a Tatham ID).
fn size_hint(entry: &Entry) -> Option<usize> {
    entry.puzzle().and_then(tatham::size_hint)
}

/// Runs `work`; a panic (a bug) becomes the entry's error instead of ending the
/// run.
fn guarded<T, O: Outcome>(work: impl FnOnce() -> T) -> Result<T, O> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        O::internal(format!(
            "internal error (a bug in the grader, please report it): {}",
            panic_message(&*payload)
        ))
    })
}

/// Reads an entry's puzzle (an entry that is not a puzzle string is invalid; a
/// reader's panic, a bug, is the entry's error).
fn read_entry<O: Outcome>(entry: &Entry) -> Result<Imported, O> {
    match &entry.problem {
        Some(problem) => Err(O::invalid(problem.to_string())),
        None => guarded(|| read_any(&entry.text, None))?
            .map_err(|e| O::invalid(clip_message(e.to_string()))),
    }
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
    done: Arc<AtomicU64>,
    started: Instant,
}

impl Progress {
    fn new(entries: &Entries<'_>, settings: &Settings) -> Progress {
        let done = Arc::new(AtomicU64::new(0));
        let mut progress = Progress {
            bar: ProgressBar::hidden(),
            shown: false,
            by_bytes: false,
            done: Arc::clone(&done),
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

    /// One entry done (nothing when the bar is hidden: a hidden bar still takes a
    /// lock and updates its estimate on each tick, a few hundred instructions).
    fn tick(&self, entry: &Entry) {
        if !self.shown {
            return;
        }
        self.done.fetch_add(1, Ordering::Relaxed);
        self.bar.inc(if self.by_bytes { entry.bytes } else { 1 });
    }

    /// Clears the bar and, when it was shown, says what was done.
    fn finish(&self, command: &str, finished: &Finished) {
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
