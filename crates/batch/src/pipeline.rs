//! The streaming machinery of the commands that take many puzzles (`grader batch`,
//! `grader solve --many`, the Python package's `grade_many` and its Dask shards):
//! jobs taken lazily from an iterator, worked on a chunk at a time on a rayon pool,
//! and handed back in input order.
//!
//! Each chunk ([`CHUNK_PER_JOB`] jobs per worker thread) is read, worked on (grouped
//! by size: see [`work_chunk`]) and handed to the caller's writer before the next
//! chunk is read, so memory stays flat however long the input. A job that is not a
//! puzzle, or whose puzzle cannot be read, gets an outcome saying why, and the input
//! goes on; so does a job whose work panics (a bug).

use crate::text::{clip, clip_message, panic_message, relaxed_warning};
use kenken_formats::batch_input::Entry;
use kenken_formats::{read_any, tatham, Imported};
use kenken_model::clock::Instant;
use rayon::prelude::*;
use rayon::ThreadPool;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// Entries per worker thread in a chunk.
///
/// Large, because a chunk is worked on by size (see [`work_chunk`]) and a longer
/// run of puzzles of one size goes faster: each then comes after more puzzles like
/// it, with the caches and branch predictors tuned to them (the smaller the
/// puzzles, the more this counts), and fewer chunk ends leave a worker waiting.
/// Memory still stays flat, a chunk at a time; the cost is that on a stream the
/// first rows come out only once the first chunk is read and worked on.
pub const CHUNK_PER_JOB: usize = 2048;

/// One entry of a batch to work on (serialisable, to be sent to another process).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// 1-based position among the entries of the whole input.
    pub index: usize,
    /// The puzzle string; when `problem` is set, the text that is not one (which
    /// may be long, or hold control characters: it is cut before it is shown).
    pub text: String,
    /// Why the entry is not a puzzle string (the batch reader's message).
    pub problem: Option<String>,
    /// Read the puzzle with every operation hidden.
    #[serde(default)]
    pub hide_ops: bool,
    /// The bytes of input read for this entry (for progress against the input's
    /// length).
    pub bytes: u64,
}

impl Job {
    /// A puzzle string at an index.
    pub fn new(index: usize, text: impl Into<String>) -> Job {
        let text = text.into();
        Job {
            index,
            bytes: text.len() as u64,
            text,
            problem: None,
            hide_ops: false,
        }
    }

    /// The puzzle string, unless the entry is not one.
    pub fn puzzle(&self) -> Option<&str> {
        self.problem.is_none().then_some(self.text.as_str())
    }
}

impl From<Entry> for Job {
    fn from(entry: Entry) -> Job {
        Job {
            index: entry.index,
            problem: entry.problem.map(|p| p.to_string()),
            text: entry.text,
            hide_ops: entry.hide_ops,
            bytes: entry.bytes,
        }
    }
}

/// What a command does with each puzzle.
pub trait Work: Sync {
    /// What the work finds for a puzzle.
    type Found: Send;
    /// Works on a puzzle read from a job (called on a worker thread).
    fn work(&self, imported: Imported) -> Self::Found;
}

/// What became of one job.
#[derive(Clone, Debug)]
pub enum Outcome<F> {
    /// Worked on: what was found, and a warning when the puzzle was read
    /// leniently.
    Found { found: F, warning: Option<String> },
    /// The job is not a puzzle, or not a valid one: why.
    Invalid(String),
    /// The work panicked (a bug): the message.
    Internal(String),
}

impl<F> Outcome<F> {
    /// What was found, when the job was worked on.
    pub fn found(&self) -> Option<&F> {
        match self {
            Outcome::Found { found, .. } => Some(found),
            _ => None,
        }
    }

    /// Why the job has no result (invalid or internal), for messages.
    pub fn failure(&self) -> Option<&str> {
        match self {
            Outcome::Invalid(e) | Outcome::Internal(e) => Some(e),
            Outcome::Found { .. } => None,
        }
    }

    /// A warning about the puzzle (read leniently), for messages.
    pub fn warning(&self) -> Option<&str> {
        match self {
            Outcome::Found { warning, .. } => warning.as_deref(),
            _ => None,
        }
    }

    /// The row's status when the job has no result: `invalid` or `error`.
    pub fn failure_status(&self) -> Option<&'static str> {
        match self {
            Outcome::Invalid(_) => Some("invalid"),
            Outcome::Internal(_) => Some("error"),
            Outcome::Found { .. } => None,
        }
    }
}

/// Told as each job is done, on the worker that did it (a progress bar).
pub trait Progress: Sync {
    fn done(&self, job: &Job);
}

/// No progress to tell.
impl Progress for () {
    fn done(&self, _: &Job) {}
}

/// What was done with one job.
#[derive(Clone, Debug)]
pub struct Done<F> {
    pub outcome: Outcome<F>,
    /// When timed: the time taken, reading included.
    pub took: Option<Duration>,
    /// Whether the job was read as a puzzle.
    pub read: bool,
}

impl<F> Done<F> {
    /// The job's text as its row shows it: as given when it was read as a puzzle
    /// (a puzzle is bounded in size by its format), cut otherwise (what could not
    /// be read as one may be anything).
    pub fn shown<'j>(&self, job: &'j Job) -> Cow<'j, str> {
        if self.read {
            Cow::Borrowed(&job.text)
        } else {
            clip(&job.text)
        }
    }
}

/// How a run ended.
#[derive(Debug)]
pub struct Finished<E> {
    /// Rows written.
    pub rows: usize,
    /// Rows whose job had no result (invalid or internal).
    pub failures: usize,
    /// The input stopped being readable after `rows` rows.
    pub input_error: Option<E>,
}

/// The jobs of one chunk on `pool`.
pub fn chunk_size(pool: &ThreadPool) -> usize {
    CHUNK_PER_JOB * pool.current_num_threads()
}

/// Works on every job on `pool`, a chunk at a time, and hands each chunk's jobs
/// and what was done with them, in input order, to `write`. `times`: time each
/// job.
///
/// An `Err` from `write` ends the run and is returned; an `Err` item of `jobs` (the
/// input stopped being readable) ends it after the rows before it, in
/// [`Finished::input_error`].
pub fn run<W, E, F>(
    pool: &ThreadPool,
    mut jobs: impl Iterator<Item = Result<Job, E>>,
    times: bool,
    work: &W,
    progress: &dyn Progress,
    mut write: impl FnMut(&[Job], &[Done<W::Found>]) -> Result<(), F>,
) -> Result<Finished<E>, F>
where
    W: Work,
{
    let size = chunk_size(pool);
    let mut finished = Finished {
        rows: 0,
        failures: 0,
        input_error: None,
    };
    loop {
        let mut chunk: Vec<Job> = Vec::with_capacity(size);
        for item in jobs.by_ref().take(size) {
            match item {
                Ok(job) => chunk.push(job),
                Err(e) => {
                    finished.input_error = Some(e);
                    break;
                }
            }
        }
        let done = work_chunk(pool, &chunk, work, times, progress);
        finished.failures += done
            .iter()
            .filter(|d| d.outcome.failure().is_some())
            .count();
        write(&chunk, &done)?;
        finished.rows += chunk.len();
        if finished.input_error.is_some() || chunk.len() < size {
            break;
        }
    }
    Ok(finished)
}

/// Works on a chunk on `pool`: what was done with each job, in the chunk's order.
///
/// The puzzles are read and worked on by size, largest first (input order within
/// a size); what is returned is still in input order. A Tatham ID tells its size
/// up front ([`tatham::size_hint`]): it is read just before it is worked on; a job
/// in another format is read first, to learn its size.
///
/// * Working on a small puzzle right after a large one costs more than after one
///   of its own size: the caches and branch predictors are then tuned to other
///   tables and other loop counts. Grouped by size, nearly every puzzle runs
///   warm; read right before it is worked on, its reading too.
/// * Largest first, one puzzle per task, keeps the workers busy to the end of a
///   chunk: the small puzzles fill in while the last large ones finish (rayon's
///   default long runs of puzzles per task cannot be shared once started, and
///   leave a core idle at the end of each chunk).
/// * The process's one-time warm-up (its code fetched into the caches for the first
///   time) falls on a puzzle that takes milliseconds, not on a 3×3 that takes
///   microseconds once warm.
pub fn work_chunk<W: Work>(
    pool: &ThreadPool,
    chunk: &[Job],
    work: &W,
    times: bool,
    progress: &dyn Progress,
) -> Vec<Done<W::Found>> {
    pool.install(|| work_chunk_here(chunk, work, times, progress))
}

/// [`work_chunk`] on the current rayon pool (in WebAssembly, rayon's pool of
/// the calling thread alone).
pub fn work_chunk_here<W: Work>(
    chunk: &[Job],
    work: &W,
    times: bool,
    progress: &dyn Progress,
) -> Vec<Done<W::Found>> {
    // (job index, its size, and for a job read ahead what it read and the time
    // reading took)
    type Ahead<F> = (
        usize,
        usize,
        Option<(Result<Imported, Outcome<F>>, Duration)>,
    );
    let clock = |on: bool| on.then(Instant::now);
    let since = |t: Option<Instant>| t.map_or(Duration::ZERO, |t| t.elapsed());
    let mut ahead: Vec<Ahead<W::Found>> = chunk
        .par_iter()
        .enumerate()
        .map(|(i, job)| {
            if let Some(size) = size_hint(job) {
                return (i, size, None);
            }
            let started = clock(times);
            let imported = read_job(job);
            let size = imported.as_ref().map_or(0, |p| p.puzzle.size().get());
            (i, size, Some((imported, since(started))))
        })
        .collect();
    ahead.sort_by_key(|&(i, size, _)| (std::cmp::Reverse(size), i));
    // One puzzle per task: rayon otherwise cuts the chunk into a few long runs of
    // puzzles, and a run of the largest ones cannot be shared once started.
    let done: Vec<(usize, Done<W::Found>)> = ahead
        .into_par_iter()
        .with_max_len(1)
        .map(|(i, _, read)| {
            let started = clock(times);
            let (imported, reading) = match read {
                Some(read) => read,
                None => (read_job(&chunk[i]), Duration::ZERO),
            };
            let read = imported.is_ok();
            let outcome = match imported {
                Ok(imported) => work_one(work, imported),
                Err(outcome) => outcome,
            };
            progress.done(&chunk[i]);
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
    let mut outcomes: Vec<Option<Done<W::Found>>> = (0..chunk.len()).map(|_| None).collect();
    for (i, d) in done {
        outcomes[i] = Some(d);
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every job of the chunk is worked on once"))
        .collect()
}

/// Works on one puzzle already read: what was found, with a warning when it was
/// read leniently, or the error of a panic (a bug).
pub fn work_one<W: Work>(work: &W, imported: Imported) -> Outcome<W::Found> {
    let warning = relaxed_warning(&imported);
    match guarded(|| work.work(imported)) {
        Ok(found) => Outcome::Found { found, warning },
        Err(failed) => failed,
    }
}

/// The size a puzzle job declares up front, if its format does (a Tatham ID).
fn size_hint(job: &Job) -> Option<usize> {
    job.puzzle().and_then(tatham::size_hint)
}

/// Runs `work`; a panic (a bug) becomes the job's error instead of ending the
/// run.
fn guarded<T, F>(work: impl FnOnce() -> T) -> Result<T, Outcome<F>> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        Outcome::Internal(format!(
            "internal error (a bug in the grader, please report it): {}",
            panic_message(&*payload)
        ))
    })
}

/// Reads a job's puzzle (a job that is not a puzzle string is invalid; a reader's
/// panic, a bug, is the job's error).
fn read_job<F>(job: &Job) -> Result<Imported, Outcome<F>> {
    match &job.problem {
        Some(problem) => Err(Outcome::Invalid(problem.clone())),
        None => guarded(|| read_any(&job.text, None))?
            .map(|imported| imported.hiding_ops(job.hide_ops))
            .map_err(|e| Outcome::Invalid(clip_message(e.to_string()))),
    }
}

/// Writes the rows of a command (TSV or NDJSON).
pub trait Rows<F> {
    /// What comes before the first row (a TSV header).
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()>;
    /// One row. `shown` is the job's text as the row shows it ([`Done::shown`]);
    /// `took` is set when the jobs are timed.
    fn row(
        &mut self,
        out: &mut dyn Write,
        job: &Job,
        shown: &str,
        outcome: &Outcome<F>,
        took: Option<Duration>,
    ) -> io::Result<()>;

    /// The rows of a chunk, in order.
    fn chunk(&mut self, out: &mut dyn Write, jobs: &[Job], done: &[Done<F>]) -> io::Result<()> {
        for (job, d) in jobs.iter().zip(done) {
            self.row(out, job, &d.shown(job), &d.outcome, d.took)?;
        }
        Ok(())
    }
}
