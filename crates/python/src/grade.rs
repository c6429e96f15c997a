//! `kenken.grade`, `kenken.grade_many` and `kenken.solve`: the work of `grader
//! batch` and `grader solve` on the library's pipeline, with rows made by the same
//! code as `grader batch --format ndjson` writes.

use crate::errors::warn;
use crate::options;
use crate::pools;
use crate::puzzle::{Puzzle, PuzzleArg};
use kenken_batch::pipeline::{self, Job};
use kenken_batch::solving::{is_finding, search_puzzle, verdict_name};
use kenken_batch::{GradeRow, Graded, Grading, HideOps, Mode};
use kenken_formats::batch_input;
use kenken_techniques::{Grader, StepReport};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyIterator, PyString};
use rayon::ThreadPool;
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// A row as a dict: the same fields and values as its NDJSON line.
fn row_dict<'py>(
    py: Python<'py>,
    index: usize,
    shown: &str,
    hide_ops: bool,
    outcome: &Graded,
    took: Option<Duration>,
) -> PyResult<Bound<'py, PyAny>> {
    let row = GradeRow::new(index, shown, hide_ops, outcome, took);
    Ok(pythonize::pythonize(py, &row)?)
}

/// Grades one puzzle as `grader batch` grades each of its puzzles, and returns its
/// row: a dict with the fields and values of a `grader batch --format ndjson` line
/// (`index` is 1, as for a batch of one).
///
/// `puzzle` is a puzzle string or a Puzzle. The options are `grader batch`'s, by
/// their names there: `mode` `"n"` (the whole ladder: `max`, `total`, `steps`),
/// `"c"` (cage combinations only: `depth`, `cc_steps`) or `"b"` (both, the
/// default here); `timeout` (seconds) bounds the whole grading; `disable` /
/// `enable` take technique ids (`grader techniques`); `max_depth` 2 to 8;
/// `max_memory` bytes or `"512M"`; `max_work` elementary checks. `times` adds `ms`.
/// `hide_ops=True` grades the puzzle with every operation hidden (`grader grade
/// --hide-ops`): a cage shows only its number, any operation that makes it
/// counts, and the row says `hide_ops: True`.
///
/// Raises FormatError for a string that is not a valid puzzle, OptionsError for
/// a bad option value and TypeError for an unknown option. The work runs with the
/// GIL released.
#[pyfunction]
#[pyo3(signature = (puzzle, *, times = false, **options))]
pub fn grade<'py>(
    py: Python<'py>,
    puzzle: PuzzleArg<'py>,
    times: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (hide, options) = options::hide_ops(options)?;
    let settings = options::grade_settings("grade", options.as_ref(), Mode::B)?;
    let work = Grading::new(&settings);
    // Timed as a batch times a puzzle: its reading included.
    let started = Instant::now();
    let read = puzzle.read(py, hide)?;
    let pool = pools::pool(1)?;
    let imported = read.imported;
    let outcome = py.detach(|| pool.install(|| pipeline::work_one(&work, imported)));
    let took = times.then(|| started.elapsed());
    row_dict(py, 1, &read.shown, read.hide_ops, &outcome, took)
}

/// Grades many puzzles in parallel, as `grader batch` does, and yields one row per
/// puzzle, in input order: dicts with the fields and values of `grader batch
/// --format ndjson` lines.
///
/// `puzzles` is any iterable of puzzle strings, Puzzles and dicts `{"puzzle":
/// …, "hide_ops": True}` (a batch entry's object: `hide_ops` may be left out,
/// other keys are ignored), read lazily: 2 048 per worker at a time are graded
/// (with the GIL released, on `jobs` threads, every core by default) before
/// their rows are yielded, so memory stays flat however long the input. An item
/// that is not a valid puzzle gets a row with status `invalid` and the reason in
/// `error`, and the rest are graded. `jobs`: 1 to 256 threads. The options are
/// `grade`'s: with `hide_ops=True` every puzzle is graded with its operations
/// hidden, as `grader batch --hide-ops` grades them.
///
/// The iterator may be shared by several threads: each row goes to one of
/// them, in input order, and a thread that asks while another grades a chunk
/// waits for it. Asked for its next row from inside its own input (the
/// iterable calling `next` on it), it raises RuntimeError.
#[pyfunction]
#[pyo3(signature = (puzzles, *, jobs = None, times = false, **options))]
pub fn grade_many<'py>(
    puzzles: &Bound<'py, PyAny>,
    jobs: Option<&Bound<'py, PyAny>>,
    times: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<RowStream> {
    let (hide, options) = options::hide_ops(options)?;
    let settings = options::grade_settings("grade_many", options.as_ref(), Mode::B)?;
    let work = Grading::new(&settings);
    let pool = pools::pool(options::jobs(jobs)?)?;
    Ok(RowStream {
        turn: Turn::default(),
        rows: Mutex::new(Rows {
            source: Some(PyIterator::from_object(puzzles)?.unbind()),
            pool,
            work,
            hide,
            times,
            next_index: 1,
            ready: VecDeque::new(),
            failed: None,
        }),
    })
}

/// The rows of `grade_many`: an iterator, grading a chunk of its input at a
/// time, that several threads may share (one at a time takes its turn).
#[pyclass(module = "kenken", frozen)]
pub struct RowStream {
    turn: Turn,
    /// Touched only by the thread whose turn it is.
    rows: Mutex<Rows>,
}

/// What a [`RowStream`] holds between two rows.
struct Rows {
    /// None once the input is used up.
    source: Option<Py<PyIterator>>,
    pool: Arc<ThreadPool>,
    work: Grading,
    /// Grade every puzzle with its operations hidden.
    hide: HideOps,
    times: bool,
    next_index: usize,
    ready: VecDeque<Py<PyAny>>,
    /// What the input raised: raised once the rows before it are out.
    failed: Option<PyErr>,
}

#[pymethods]
impl RowStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let me = std::thread::current().id();
        // Waiting for another thread's turn (it grades a chunk with the GIL
        // released, or reads the input) is done without the GIL.
        let taken = match self.turn.try_take(me) {
            Asked::Busy => py.detach(|| self.turn.take(me)),
            taken => taken,
        };
        if taken == Asked::AlreadyMine {
            return Err(PyRuntimeError::new_err(
                "grade_many's rows were asked for from inside its own input",
            ));
        }
        let _turn = TurnHeld(&self.turn);
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        rows.next(py)
    }
}

/// Whose turn it is to use a [`RowStream`]: the thread holding it, if any.
#[derive(Default)]
struct Turn {
    holder: Mutex<Option<ThreadId>>,
    free: Condvar,
}

/// What asking for the turn gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    /// The turn is the asking thread's now.
    Granted,
    /// Another thread holds it.
    Busy,
    /// The asking thread holds it already (it asked from inside its turn).
    AlreadyMine,
}

impl Turn {
    fn holder(&self) -> MutexGuard<'_, Option<ThreadId>> {
        self.holder.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the turn if it is free.
    fn try_take(&self, me: ThreadId) -> Asked {
        let mut holder = self.holder();
        match *holder {
            None => {
                *holder = Some(me);
                Asked::Granted
            }
            Some(other) if other == me => Asked::AlreadyMine,
            Some(_) => Asked::Busy,
        }
    }

    /// Takes the turn, waiting for it (never [`Asked::Busy`]).
    fn take(&self, me: ThreadId) -> Asked {
        let mut holder = self.holder();
        loop {
            match *holder {
                None => {
                    *holder = Some(me);
                    return Asked::Granted;
                }
                Some(other) if other == me => return Asked::AlreadyMine,
                Some(_) => holder = self.free.wait(holder).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }
}

/// The turn, given back when dropped.
struct TurnHeld<'a>(&'a Turn);

impl Drop for TurnHeld<'_> {
    fn drop(&mut self) {
        *self.0.holder() = None;
        self.0.free.notify_one();
    }
}

impl Rows {
    /// The next row: the first of the chunk graded, grading the next chunk when
    /// none is left.
    fn next(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        if self.ready.is_empty() {
            self.grade_chunk(py)?;
        }
        match self.ready.pop_front() {
            Some(row) => Ok(Some(row)),
            None => self.failed.take().map_or(Ok(None), Err),
        }
    }

    /// Reads the next chunk of the input and grades it.
    fn grade_chunk(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        let size = pipeline::chunk_size(&self.pool);
        let mut jobs = Vec::with_capacity(size);
        let mut iter = source.bind(py).clone();
        while jobs.len() < size {
            let item = match iter.next() {
                Some(Ok(item)) => item,
                Some(Err(e)) => {
                    self.failed = Some(e);
                    self.source = None;
                    break;
                }
                None => {
                    self.source = None;
                    break;
                }
            };
            jobs.push(job(self.next_index, &item, self.hide)?);
            self.next_index += 1;
        }
        if jobs.is_empty() {
            return Ok(());
        }
        let (pool, work, times) = (&self.pool, &self.work, self.times);
        let done = py.detach(|| pipeline::work_chunk(pool, &jobs, work, times, &()));
        for (job, d) in jobs.iter().zip(&done) {
            let row = row_dict(
                py,
                job.index,
                &d.shown(job),
                job.hide_ops,
                &d.outcome,
                d.took,
            )?;
            self.ready.push_back(row.unbind());
        }
        // After the rows are kept: a warning turned into an error loses none.
        for d in &done {
            if let Some(w) = d.outcome.warning() {
                warn(py, w)?;
            }
        }
        Ok(())
    }
}

/// The job of an item of `grade_many`'s input, read with its operations hidden
/// when `hide` says so (or when it is a Puzzle read with `hide_ops`, or a dict
/// whose `hide_ops` is True).
fn job(index: usize, item: &Bound<'_, PyAny>, hide: HideOps) -> PyResult<Job> {
    if let Ok(p) = item.cast::<Puzzle>() {
        let p = p.get();
        return Ok(Job {
            hide_ops: hide.hide_ops || p.hide.hide_ops,
            ..Job::new(index, p.source.clone())
        });
    }
    if let Ok(text) = item.extract::<String>() {
        return Ok(Job {
            hide_ops: hide.hide_ops,
            ..Job::new(index, text)
        });
    }
    if let Ok(entry) = item.cast::<PyDict>() {
        let mut job = Job::from(batch_input::entry_of_value(index, entry_value(entry)?));
        job.hide_ops |= hide.hide_ops;
        return Ok(job);
    }
    let shown = item
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let problem = if item.is_instance_of::<PyString>() {
        format!("item {index} is not valid Unicode text (it holds a lone surrogate)")
    } else {
        format!(
            "item {index} is a {}, not a puzzle string, a dict with a \"puzzle\" string or a kenken.Puzzle",
            item.get_type().name()?
        )
    };
    Ok(Job {
        problem: Some(problem),
        ..Job::new(index, shown)
    })
}

/// A dict item as the JSON object of a batch entry, read as `grader batch`
/// reads one: the dict itself when it holds JSON values only; else its
/// `puzzle` (a str, or a Puzzle's text, which then brings its own `hide_ops`
/// along) and `hide_ops` (a bool), a value of another type becoming one the
/// batch reader refuses with its words (null), other keys left out as the
/// batch reader ignores them.
fn entry_value(entry: &Bound<'_, PyDict>) -> PyResult<Value> {
    if let Ok(value) = pythonize::depythonize::<Value>(entry.as_any()) {
        return Ok(value);
    }
    let mut object = Map::new();
    let mut hidden_by_puzzle = false;
    if let Some(puzzle) = entry.get_item("puzzle")? {
        let text = if let Ok(p) = puzzle.cast::<Puzzle>() {
            hidden_by_puzzle = p.get().hide.hide_ops;
            Value::String(p.get().source.clone())
        } else {
            puzzle
                .extract::<String>()
                .map_or(Value::Null, Value::String)
        };
        object.insert("puzzle".into(), text);
    }
    match entry.get_item("hide_ops")? {
        Some(flag) => {
            let flag = flag.cast::<PyBool>().map_or(Value::Null, |b| {
                Value::Bool(b.is_true() || hidden_by_puzzle)
            });
            object.insert("hide_ops".into(), flag);
        }
        None if hidden_by_puzzle => {
            object.insert("hide_ops".into(), Value::Bool(true));
        }
        None => {}
    }
    Ok(Value::Object(object))
}

/// Solves a puzzle by exhaustive search, as `grader solve --json` does: a dict
/// `{"puzzle", "size", "verdict", "solution"}`. `verdict` is `unique`,
/// `ambiguous`, `impossible`, or `timeout` when `timeout` (seconds) passed first
/// (`limit` when the memory or work limit did); `solution` is the grid by rows
/// (for an ambiguous puzzle the first solution found), or None. With
/// `hide_ops=True` the puzzle is solved with every operation hidden (`grader
/// solve --hide-ops`), and the dict says `hide_ops: True`.
#[pyfunction]
#[pyo3(signature = (puzzle, *, timeout = None, **options))]
pub fn solve<'py>(
    py: Python<'py>,
    puzzle: PuzzleArg<'py>,
    timeout: Option<Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let timeout = options::timeout(timeout.as_ref())?;
    let hide = options::only_hide_ops("solve", options)?;
    let read = puzzle.read(py, hide)?;
    let pool = pools::pool(1)?;
    let grid = &read.imported.puzzle;
    let outcome =
        py.detach(|| pool.install(|| search_puzzle(grid, timeout.map(|t| Instant::now() + t))));
    let size = grid.size().get();
    let solution: Option<Vec<Vec<u16>>> = outcome
        .solution
        .as_deref()
        .filter(|_| is_finding(outcome.verdict))
        .map(|s| {
            s.chunks(size)
                .map(|row| row.iter().map(|&d| u16::from(d)).collect())
                .collect()
        });
    let doc = PyDict::new(py);
    doc.set_item("puzzle", read.shown.trim())?;
    if read.hide_ops {
        doc.set_item("hide_ops", true)?;
    }
    doc.set_item("size", size)?;
    doc.set_item("verdict", verdict_name(outcome.verdict, outcome.stopped))?;
    doc.set_item("solution", solution)?;
    Ok(doc)
}

/// The step log of a puzzle, as `grader grade --json` gives it: a list of dicts,
/// one per step in order (naked singles included), each with `technique` (the
/// id), `name`, `rating`, `text`, `placements` and `eliminations` (`cell`,
/// `index`, `digit`), `combinations` (the cage combinations it removes, when it
/// removes any), `proof` (why each removal holds, for cage comparisons and region
/// totals and parities) and `explanation`.
///
/// The options are `grade`'s (`mode` defaults to `"n"`: the whole ladder's log;
/// `"c"` gives mode c's; `hide_ops=True` hides every operation). As `grade`
/// gives the ratings reached when `timeout`, `max_memory` or `max_work` stops the
/// grading (its status `timeout` or `limit`), `steps` gives the steps found
/// before it (none when the puzzle's tables alone exceed the limits), as `grader
/// grade --json` lists them. Raises FormatError for a string that is not a valid
/// puzzle and OptionsError for a bad option.
#[pyfunction]
#[pyo3(signature = (puzzle, **options))]
pub fn steps<'py>(
    py: Python<'py>,
    puzzle: PuzzleArg<'py>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let (hide, options) = options::hide_ops(options)?;
    let settings = options::grade_settings("steps", options.as_ref(), Mode::N)?;
    let imported = puzzle.read(py, hide)?.imported;
    let pool = pools::pool(1)?;
    let reports = py.detach(|| {
        pool.install(|| {
            let runs = settings.runs().starting_now();
            // Tables that alone exhaust the limits leave no step.
            let Ok(grader) = Grader::with_limits(&imported.puzzle, runs.limits) else {
                return Vec::new();
            };
            let grade = grader.grade(runs.shown(), false);
            grade
                .steps
                .iter()
                .map(|s| StepReport::new(s, grader.layout()))
                .collect::<Vec<_>>()
        })
    });
    reports
        .iter()
        .map(|r| Ok(pythonize::pythonize(py, r)?))
        .collect()
}
