//! `kenken.generate`: unique puzzles whose max rating lies in a band, made by the
//! generator as `grader generate` makes them, rows and all.

use crate::errors::{options_error, GenerateError, IncompleteError};
use crate::pools;
use kenken_batch::generating::{rating, GeneratedRow};
use kenken_generator::{generate as run, Event, OpSet, Request, RunLimits, Stopped};
use kenken_techniques::TechniqueKind;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The technique ids of `require` / `forbid`.
fn techniques(ids: &[String]) -> PyResult<Vec<TechniqueKind>> {
    ids.iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|id| {
            TechniqueKind::all()
                .filter(|&k| k != TechniqueKind::PROPAGATION)
                .find(|k| k.id() == id)
                .ok_or_else(|| options_error(format!("unknown technique {id:?}")))
        })
        .collect()
}

/// What `generate` asks for, as `grader generate`'s options.
#[derive(Clone, Debug)]
pub struct Ask {
    pub size: usize,
    pub min: f64,
    pub max: Option<f64>,
    pub ops: String,
    pub strict: bool,
    pub cage_sizes: (usize, usize),
    pub max_givens: usize,
    pub max_mean_cage: f64,
    pub kendoku: bool,
    pub require: Vec<String>,
    pub forbid: Vec<String>,
    pub max_depth: Option<u8>,
    pub steps: Option<usize>,
}

impl Ask {
    /// The generator's request, checked; a bad option is an OptionsError, a request
    /// the generator refuses a GenerateError, with its messages.
    pub fn request(&self) -> PyResult<Request> {
        let band = |x: f64| rating(x).map_err(options_error);
        let mut request = Request::new(self.size, band(self.min)?, self.max.map(band).transpose()?);
        request.rules.ops = OpSet::parse(&self.ops).ok_or_else(|| {
            options_error(format!(
                "{:?} is not a set of operations: use + - * /",
                self.ops
            ))
        })?;
        request.rules.strict = self.strict;
        request.rules.cage_sizes = self.cage_sizes.0..=self.cage_sizes.1;
        request.rules.max_givens = self.max_givens;
        request.rules.max_mean_cage_size = self.max_mean_cage;
        request.kendoku = self.kendoku;
        request.require = techniques(&self.require)?;
        request.forbid = techniques(&self.forbid)?;
        if let Some(s) = self.steps {
            request.steps = s;
        }
        if let Some(d) = self.max_depth {
            if !(2..=8).contains(&d) {
                return Err(options_error(format!("max_depth must be 2 to 8, not {d}")));
            }
            request.options.max_depth = usize::from(d);
        }
        request
            .check()
            .map_err(|e| GenerateError::new_err(e.to_string()))?;
        Ok(request)
    }
}

/// A seed from the clock, when none is given.
pub fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Makes `count` unique `size`×`size` puzzles whose max rating (mode n, as `grade`
/// rates) lies in [`min`, `max`] and returns their rows: dicts with the fields and
/// values of `grader generate` NDJSON lines (`puzzle` as a Tatham ID, or D6C / the
/// text format for KenDoku; `max`, `total`, mode c's `depth`, the `technique` that
/// set the max, and the `seed` that makes it again as the first puzzle).
///
/// The same seed and options give the same puzzles whatever `jobs` (threads,
/// every core by default). Options as `grader generate`'s: `ops` (a subset of
/// `+-*/`), `strict` (Tatham's rules, sizes 3-9), `cage_sizes` (lo, hi),
/// `max_givens`, `max_mean_cage`, `kendoku`, `require` / `forbid` (technique
/// ids), `max_depth`, `steps` (mutations per attempt), `max_tries`, `timeout`
/// (seconds).
///
/// Raises GenerateError for a request the generator refuses, and IncompleteError
/// (with the puzzles found, in `.puzzles`) when `max_tries` or `timeout` stops the
/// run first. The work runs with the GIL released; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (size, min, max = None, count = 1, seed = None, *, jobs = None, ops = "+-*/",
                    strict = false, cage_sizes = (2, 5), max_givens = 1, max_mean_cage = 2.4,
                    kendoku = false, require = Vec::new(), forbid = Vec::new(), max_depth = None,
                    steps = None, max_tries = 10_000, timeout = None))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    size: usize,
    min: f64,
    max: Option<f64>,
    count: usize,
    seed: Option<u64>,
    jobs: Option<usize>,
    ops: &str,
    strict: bool,
    cage_sizes: (usize, usize),
    max_givens: usize,
    max_mean_cage: f64,
    kendoku: bool,
    require: Vec<String>,
    forbid: Vec<String>,
    max_depth: Option<u8>,
    steps: Option<usize>,
    max_tries: u64,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyList>> {
    let ask = Ask {
        size,
        min,
        max,
        ops: ops.to_string(),
        strict,
        cage_sizes,
        max_givens,
        max_mean_cage,
        kendoku,
        require,
        forbid,
        max_depth,
        steps,
    };
    let request = ask.request()?;
    let rows = PyList::empty(py);
    if count == 0 {
        return Ok(rows);
    }
    let seed = seed.unwrap_or_else(clock_seed);
    let start = Instant::now();
    let limits = RunLimits {
        count,
        max_tries: Some(max_tries),
        deadline: timeout
            .filter(|t| t.is_finite() && *t > 0.0)
            .map(|t| start + Duration::from_secs_f64(t)),
    };
    let pool = pools::pool(pools::jobs(jobs)?)?;
    let mut found: Vec<GeneratedRow> = Vec::new();
    let mut failure: Option<PyErr> = None;
    let report = py.detach(|| {
        pool.install(|| {
            run(&request, seed, &limits, |event| match event {
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
        Stopped::Tries => format!("max_tries={max_tries}"),
        Stopped::Timeout => format!("timeout={}", timeout.unwrap_or_default()),
        Stopped::Done | Stopped::Cancelled => "a cancellation".to_string(),
    };
    let closest = kenken_batch::generating::closest_text(report.closest(&request), &request);
    let message = format!(
        "found {} of {count} puzzle(s) rated {} in {}, {:.1} s (seed {seed}): \
         stopped by {why}; among the attempts that missed, {closest}",
        report.found,
        kenken_batch::generating::band_text(&request),
        kenken_batch::generating::attempts_text(report.tried, report.repeats),
        start.elapsed().as_secs_f64()
    );
    Err(IncompleteError::new_err((
        message,
        rows.unbind(),
        report.tried,
    )))
}

/// A checked request for a band alone (what the messages about a run need).
pub fn band_request(size: usize, min: f64, max: Option<f64>) -> PyResult<Request> {
    let band = |x: f64| rating(x).map_err(options_error);
    Ok(Request::new(size, band(min)?, max.map(band).transpose()?))
}
