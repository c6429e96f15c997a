//! `kenken.generate`: unique puzzles whose max rating lies in a band, made by the
//! generator as `grader generate` makes them, rows and all.

use crate::errors::{GenerateError, IncompleteError};
use crate::options;
use crate::pools;
use kenken_batch::generating::GeneratedRow;
use kenken_generator::{clock_seed, generate as run, Event, Plan, Stopped};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::time::Instant;

/// The generation options of a call: its keyword arguments with the band and the
/// count given by position.
fn plan<'py>(
    py: Python<'py>,
    band: [(&str, Option<&Bound<'py, PyAny>>); 5],
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Plan> {
    let all = match kwargs {
        Some(k) => k.copy()?,
        None => PyDict::new(py),
    };
    for (name, value) in band {
        if let Some(value) = value {
            all.set_item(name, value)?;
        }
    }
    options::generation_plan("generate", Some(&all))
}

/// Makes `count` unique `size`×`size` puzzles whose max rating (mode n, as `grade`
/// rates) lies in [`min`, `max`] and returns their rows: dicts with the fields and
/// values of `grader generate` NDJSON lines (`puzzle` as a Tatham ID, or D6C / the
/// text format for KenDoku; `max`, `total`, mode c's `depth`, the `technique` that
/// set the max, and the `seed` that makes it again as the first puzzle).
///
/// The same seed and options give the same puzzles whatever `jobs` (1 to 256
/// threads, every core by default). Options as `grader generate`'s: `ops` (a subset of
/// `+-*/`), `strict` (Tatham's rules, sizes 3-9), `cage_sizes` (lo, hi),
/// `max_givens`, `max_mean_cage`, `kendoku`, `hide_ops` (puzzles unique and rated
/// with every operation hidden: their rows say `hide_ops: True` and give the
/// puzzle in the text format, `? 12 A1 A2`), `require` / `forbid` (technique
/// ids), `max_depth`, `steps` (mutations per attempt), `max_tries`, `timeout`
/// (seconds).
///
/// Raises OptionsError for an option value out of range, TypeError for an unknown
/// option, GenerateError for a request the generator refuses, and IncompleteError
/// (with the puzzles found, in `.puzzles`) when `max_tries` or `timeout` stops the
/// run first. The work runs with the GIL released; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (size, min, max = None, count = None, seed = None, *, jobs = None, **options))]
pub fn generate<'py>(
    size: &Bound<'py, PyAny>,
    min: &Bound<'py, PyAny>,
    max: Option<&Bound<'py, PyAny>>,
    count: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    jobs: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let band = [
        ("size", Some(size)),
        ("min", Some(min)),
        ("max", max),
        ("count", count),
        ("seed", seed),
    ];
    let py = size.py();
    let plan = plan(py, band, options)?;
    let pool = pools::pool(options::jobs(jobs)?)?;
    let request = &plan.request;
    let count = plan.count;
    let rows = PyList::empty(py);
    let seed = plan.seed.unwrap_or_else(clock_seed);
    let start = Instant::now();
    let limits = plan.limits(start);
    let mut found: Vec<GeneratedRow> = Vec::new();
    let mut failure: Option<PyErr> = None;
    let report = py.detach(|| {
        pool.install(|| {
            run(request, seed, &limits, |event| match event {
                Event::Found(g) => match GeneratedRow::new(g, found.len() + 1) {
                    Ok(row) => {
                        found.push(row);
                        true
                    }
                    Err(e) => {
                        failure = Some(GenerateError::new_err(e.to_string()));
                        false
                    }
                },
                // As attempts end, and while the run waits on one: stop on Ctrl-C.
                Event::Progress { .. } => match Python::attach(|py| py.check_signals()) {
                    Ok(()) => true,
                    Err(e) => {
                        failure = Some(e);
                        false
                    }
                },
            })
        })
    });
    let report = report.map_err(|e| GenerateError::new_err(e.to_string()))?;
    if let Some(e) = failure {
        return Err(e);
    }
    for row in &found {
        rows.append(pythonize::pythonize(py, row)?)?;
    }
    if report.stopped == Stopped::Done {
        return Ok(rows);
    }
    let why = match report.stopped {
        Stopped::Tries => format!("max_tries={}", plan.max_tries),
        Stopped::Timeout => format!("timeout={}", plan.timeout.unwrap_or_default().as_secs_f64()),
        Stopped::Done | Stopped::Cancelled => "a cancellation".to_string(),
    };
    let closest = kenken_batch::generating::closest_text(report.closest(request), request);
    let message = format!(
        "found {} of {count} puzzle(s) rated {} in {}, {:.1} s (seed {seed}): \
         stopped by {why}; among the attempts that missed, {closest}",
        report.found,
        kenken_batch::generating::band_text(request),
        kenken_batch::generating::attempts_text(report.tried, report.repeats),
        start.elapsed().as_secs_f64()
    );
    Err(IncompleteError::new_err((
        message,
        rows.unbind(),
        report.tried,
    )))
}
