//! What `kenken.dask` runs on each side of a cluster, behind functions whose
//! inputs and outputs are plain bytes, strings and numbers (so that they travel
//! between processes without custom pickling):
//!
//! * on the client, [`BatchReader`] reads the input with `grader batch`'s reader
//!   and cuts it into shards of jobs, numbered as in the whole input, each job
//!   saying whether to hide its puzzle's operations;
//! * on a worker, [`grade_shard`] grades a shard on the library's pipeline and
//!   returns its rows, written by the same code as `grader batch` writes them,
//!   with the shard's tally;
//! * for generation, [`attempt_range`] runs a range of a seeded run's attempts and
//!   [`generated_line`] numbers a found puzzle's row on the client.

use crate::errors::{options_error, BatchInputError, GenerateError};
use crate::options;
use crate::pools;
use kenken_batch::generating::{
    attempt_range as run_range, check_format, closest_code, closest_of_code, closest_text,
    generated_line as line_of, Attempt, GenerateFormat, GeneratedRow,
};
use kenken_batch::pipeline::{self, Job, Rows};
use kenken_batch::text::clip;
use kenken_batch::{GradeRows, Grading, HideOps, Mode, RowFormat, TsvColumns};
use kenken_formats::batch_input::{self, Entries};
use kenken_generator::{canonical_key, GenerateOptions, Request, RunReport, Stopped};
use kenken_model::options::MAX_SECONDS;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::time::{Duration, Instant};

/// The input of a distributed `grade`, read on the client a shard at a time.
#[pyclass(module = "kenken._kenken", name = "_BatchReader", unsendable)]
pub struct BatchReader {
    entries: Option<Entries<'static>>,
    /// Why the input stopped being readable, once it has.
    error: Option<String>,
    /// Entries read so far.
    read: usize,
    /// Hide every puzzle's operations (as well as those of the entries that ask).
    hide: HideOps,
}

#[pymethods]
impl BatchReader {
    /// Opens a batch input (a JSON array, NDJSON, a JSON object of puzzle arrays,
    /// one puzzle per line), as `grader batch FILE` does; with `hide_ops=True`
    /// every puzzle is to be read with its operations hidden, as by `grader batch
    /// --hide-ops`. Raises BatchInputError with `grader batch`'s message when it
    /// cannot be used, OptionsError for a `hide_ops` that is not a bool.
    #[new]
    #[pyo3(signature = (path, **options))]
    fn new(path: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<BatchReader> {
        let hide = options::only_hide_ops("_BatchReader", options)?;
        let entries =
            batch_input::open(path).map_err(|e| BatchInputError::new_err(e.to_string()))?;
        Ok(BatchReader {
            entries: Some(entries),
            error: None,
            read: 0,
            hide,
        })
    }

    /// The next shard of up to `size` entries, encoded for [`grade_shard`], or None
    /// at the end of the input. When the input stops being readable the shard
    /// holds the entries before that point and [`BatchReader::error`] says why.
    fn take<'py>(&mut self, py: Python<'py>, size: usize) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let Some(entries) = &mut self.entries else {
            return Ok(None);
        };
        let mut jobs: Vec<Job> = Vec::with_capacity(size.min(1 << 16));
        for item in entries.by_ref().take(size.max(1)) {
            match item {
                Ok(entry) => {
                    let mut job = Job::from(entry);
                    job.hide_ops |= self.hide.hide_ops;
                    jobs.push(job);
                }
                Err(e) => {
                    self.error = Some(e.to_string());
                    self.entries = None;
                    break;
                }
            }
        }
        if jobs.len() < size.max(1) {
            self.entries = None;
        }
        if jobs.is_empty() {
            return Ok(None);
        }
        self.read += jobs.len();
        let encoded = encode(&jobs);
        Ok(Some(PyBytes::new(py, &encoded)))
    }

    /// Why the input stopped being readable (None while it reads, or when it was
    /// read to its end).
    #[getter]
    fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The entries read so far.
    #[getter]
    fn read(&self) -> usize {
        self.read
    }
}

/// A shard as bytes: its jobs as JSON (index, text, problem, hide_ops, bytes).
fn encode(jobs: &[Job]) -> Vec<u8> {
    serde_json::to_vec(jobs).expect("a shard serialises")
}

fn decode(bytes: &[u8]) -> PyResult<Vec<Job>> {
    serde_json::from_slice(bytes).map_err(|e| options_error(format!("not a shard of puzzles: {e}")))
}

/// Checks the grading options before a run starts (OptionsError, with the message
/// a run would give). The options are `grader batch`'s, by their Python names.
#[pyfunction]
#[pyo3(name = "_check_grade_options", signature = (**options))]
pub fn check_grade_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    options::grade_settings("grade", options, Mode::N)?;
    Ok(())
}

/// Grades a shard made by `_BatchReader.take` on `jobs` threads and returns a dict:
/// `rows` (bytes: the shard's rows as `grader batch --format FORMAT` writes them,
/// without the TSV header), `tally` (JSON, for `--summary`), the counts `invalid`,
/// `error` and `stopped` (by status), and `failures` and `warnings` (lists of
/// (index, shown text, message)). The options are `grader batch`'s;
/// `hide_ops_column` adds the `Hide Ops` column of `grader batch --hide-ops`'s
/// TSV rows.
#[pyfunction]
#[pyo3(name = "_grade_shard", signature = (shard, *, jobs = None, format = "ndjson", times = false,
                    hide_ops_column = false, **options))]
pub fn grade_shard<'py>(
    py: Python<'py>,
    shard: &[u8],
    jobs: Option<&Bound<'py, PyAny>>,
    format: &str,
    times: bool,
    hide_ops_column: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = options::grade_settings("grade", options, Mode::N)?;
    let format = row_format(format)?;
    let jobs_list = decode(shard)?;
    let pool = pools::pool(options::jobs(jobs)?)?;
    let work = Grading::new(&settings);
    let (rows, written) = py.detach(|| {
        let done = pipeline::work_chunk(&pool, &jobs_list, &work, times, &());
        let columns = TsvColumns {
            mode: settings.mode,
            times,
            hide_ops: hide_ops_column,
        };
        let mut rows = GradeRows::new(format, columns);
        let mut out = Vec::with_capacity(jobs_list.len() * 128);
        let written = rows.chunk(&mut out, &jobs_list, &done);
        let notes: Vec<(bool, usize, String, String)> = jobs_list
            .iter()
            .zip(&done)
            .filter_map(|(job, d)| {
                let (failed, message) = match (d.outcome.failure(), d.outcome.warning()) {
                    (Some(e), _) => (true, e),
                    (None, Some(w)) => (false, w),
                    (None, None) => return None,
                };
                Some((
                    failed,
                    job.index,
                    clip(job.text.trim()).into_owned(),
                    message.to_string(),
                ))
            })
            .collect();
        ((out, rows.tally, notes), written)
    });
    written.map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
    let (out, tally, notes) = rows;
    let result = PyDict::new(py);
    result.set_item("rows", PyBytes::new(py, &out))?;
    result.set_item("tally", tally.to_json())?;
    result.set_item("invalid", tally.not_graded("invalid"))?;
    result.set_item("error", tally.not_graded("error"))?;
    result.set_item("stopped", tally.stopped().clone())?;
    let pick = |failed: bool| -> Vec<(usize, &str, &str)> {
        notes
            .iter()
            .filter(|n| n.0 == failed)
            .map(|n| (n.1, n.2.as_str(), n.3.as_str()))
            .collect()
    };
    result.set_item("failures", pick(true))?;
    result.set_item("warnings", pick(false))?;
    Ok(result)
}

fn row_format(name: &str) -> PyResult<RowFormat> {
    match name {
        "tsv" => Ok(RowFormat::Tsv),
        "ndjson" => Ok(RowFormat::Ndjson),
        _ => Err(options_error(format!(
            "format must be \"tsv\" or \"ndjson\", not {name:?}"
        ))),
    }
}

/// The TSV header of `grader batch --format tsv` for a mode (with `hide_ops`,
/// `grader batch --hide-ops`'s).
#[pyfunction]
#[pyo3(name = "_tsv_header", signature = (mode, times = false, hide_ops = false))]
pub fn tsv_header(mode: &str, times: bool, hide_ops: bool) -> PyResult<String> {
    let mode = Mode::from_name(mode).map_err(options::refused)?;
    let columns = TsvColumns {
        mode,
        times,
        hide_ops,
    };
    let mut out = Vec::new();
    kenken_batch::grade_rows::write_tsv_header(&mut out, columns).expect("writes to memory");
    Ok(String::from_utf8(out).expect("the header is text"))
}

/// The tally of a whole run, from its shards' `tally`, as `grader batch
/// --summary` writes it.
#[pyfunction]
#[pyo3(name = "_summary")]
pub fn summary(tallies: Vec<String>, mode: &str) -> PyResult<String> {
    let mode = Mode::from_name(mode).map_err(options::refused)?;
    let mut whole = kenken_batch::Tally::default();
    for t in &tallies {
        whole.merge(&kenken_batch::Tally::from_json(t).map_err(options_error)?);
    }
    let mut out = Vec::new();
    whole.write(&mut out, mode).expect("writes to memory");
    Ok(String::from_utf8(out).expect("the tally is text"))
}

fn generate_format(name: &str) -> PyResult<GenerateFormat> {
    match name {
        "ndjson" => Ok(GenerateFormat::Ndjson),
        "tatham" => Ok(GenerateFormat::Tatham),
        "k6c" => Ok(GenerateFormat::K6c),
        "d6c" => Ok(GenerateFormat::D6c),
        "text" => Ok(GenerateFormat::Text),
        _ => Err(options_error(format!(
            "format must be one of ndjson, tatham, k6c, d6c, text, not {name:?}"
        ))),
    }
}

/// Checks a generation request and its output format before a run starts
/// (OptionsError, GenerateError, with `grader generate`'s messages). The options
/// are `kenken.generate`'s, by name.
#[pyfunction]
#[pyo3(name = "_check_generation", signature = (format, **options))]
pub fn check_generation(format: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    let plan = options::generation_plan("generate", options)?;
    check_format(generate_format(format)?, &plan.request).map_err(GenerateError::new_err)
}

/// Runs attempts `start..end` of the run seeded with `seed` (on `jobs` threads,
/// giving up `remaining` seconds from now) and returns their outcomes in attempt
/// order, up to and with the first one the deadline interrupted: `("found", row,
/// line, key)` (the row as a dict, numbered 0, its line in `format`, and the
/// puzzle's name up to turns and reflections, which a run hands on once: see
/// [`canonical_key`]), `("missed", closest)` (what came closest to the band as a
/// [`closest_code`], or None) or `("interrupted",)`.
#[pyfunction]
#[pyo3(name = "_attempt_range", signature = (start, end, seed, *, jobs = None, remaining = None,
                    format = "ndjson", **options))]
pub fn attempt_range<'py>(
    start: u64,
    end: u64,
    seed: u64,
    jobs: Option<&Bound<'py, PyAny>>,
    remaining: Option<f64>,
    format: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyList>> {
    Python::attach(|py| attempt_range_with(py, start..end, seed, jobs, remaining, format, options))
}

fn attempt_range_with<'py>(
    py: Python<'py>,
    attempts: std::ops::Range<u64>,
    seed: u64,
    jobs: Option<&Bound<'py, PyAny>>,
    remaining: Option<f64>,
    format: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyList>> {
    let request = options::generation_plan("generate", options)?.request;
    let format = generate_format(format)?;
    // Seconds left of the run's timeout (none or negative once it has passed).
    let deadline = remaining
        .filter(|t| !t.is_nan())
        .map(|t| Instant::now() + Duration::from_secs_f64(t.clamp(0.0, MAX_SECONDS)));
    let pool = pools::pool(options::jobs(jobs)?)?;
    let outcomes = py.detach(|| pool.install(|| run_range(&request, seed, attempts, deadline)));
    let written = |e: kenken_formats::WriteError| options_error(e.to_string());
    let mut list = Vec::with_capacity(outcomes.len());
    for outcome in &outcomes {
        let item = match outcome {
            Attempt::Found(g) => {
                let row = pythonize::pythonize(py, &GeneratedRow::new(g, 0).map_err(written)?)?;
                let line = line_of(g, 0, format).map_err(written)?;
                let key: String = canonical_key(&g.puzzle)
                    .iter()
                    .map(|x| format!("{x:x}."))
                    .collect();
                ("found", row, line, key).into_pyobject(py)?.into_any()
            }
            Attempt::Missed { closest } => ("missed", closest.map(closest_code))
                .into_pyobject(py)?
                .into_any(),
            Attempt::Interrupted => ("interrupted",).into_pyobject(py)?.into_any(),
        };
        list.push(item);
    }
    Ok(PyList::new(py, list)?.unbind())
}

/// A found puzzle's NDJSON line, numbered `index` (the row from `_attempt_range`).
#[pyfunction]
#[pyo3(name = "_generated_line")]
pub fn generated_line(row: &Bound<'_, PyAny>, index: usize) -> PyResult<String> {
    let mut row: GeneratedRow = pythonize::depythonize(row)?;
    row.index = index;
    Ok(serde_json::to_string(&row).expect("a row serialises"))
}

/// What came closest to the band among a distributed run's missed attempts, in the
/// words `grader generate` ends such a run with: `missed` holds the `closest`
/// value of each missed attempt's outcome (see `_attempt_range`).
#[pyfunction]
#[pyo3(name = "_closest_text", signature = (missed, *, size, min, max = None))]
pub fn closest_text_of(
    missed: Vec<Option<i64>>,
    size: i64,
    min: f64,
    max: Option<f64>,
) -> PyResult<String> {
    let request = band_request(size, min, max)?;
    let mut report = RunReport {
        found: 0,
        tried: 0,
        stopped: Stopped::Tries,
        repeats: 0,
        missed: Default::default(),
    };
    for code in missed {
        *report
            .missed
            .entry(code.and_then(closest_of_code))
            .or_default() += 1;
    }
    Ok(closest_text(report.closest(&request), &request))
}

/// A run's attempts as `grader generate`'s messages write them: `120 attempts`,
/// or `120 attempts (3 repeated an earlier puzzle)`.
#[pyfunction]
#[pyo3(name = "_attempts_text")]
pub fn attempts_text_of(tried: u64, repeats: u64) -> String {
    kenken_batch::generating::attempts_text(tried, repeats)
}

/// A band as `grader generate`'s messages write it: `4.4`, `3-3.9`, `4.4+`.
#[pyfunction]
#[pyo3(name = "_band_text", signature = (*, size, min, max = None))]
pub fn band_text_of(size: i64, min: f64, max: Option<f64>) -> PyResult<String> {
    Ok(kenken_batch::generating::band_text(&band_request(
        size, min, max,
    )?))
}

/// A band's request alone (what the messages about a run need), checked.
fn band_request(size: i64, min: f64, max: Option<f64>) -> PyResult<Request> {
    let options = GenerateOptions {
        size,
        min,
        max,
        ..GenerateOptions::default()
    };
    options
        .plan()
        .map(|plan| plan.request)
        .map_err(|e| match e {
            kenken_generator::GenerateError::Options(e) => options::refused(e),
            e => GenerateError::new_err(e.to_string()),
        })
}
