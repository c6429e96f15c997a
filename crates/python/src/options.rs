//! Keyword arguments into the libraries' option sets: the grading options
//! ([`GradeOptions`]) and the generation options ([`GenerateOptions`]) are read
//! from the keyword arguments by their field names and checked by the libraries'
//! one constructor, so the package takes the options `grader` takes with the same
//! checks and messages. A keyword that is not an option is a `TypeError`, as for
//! any Python function; a value of the wrong type or out of range an
//! `OptionsError` that names it.

use crate::errors::{options_error, GenerateError};
use kenken_batch::{GradeOptions, GradeSettings, Mode};
use kenken_generator::{GenerateOptions, Plan};
use kenken_model::options::{self, OptionsError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// An [`OptionsError`] as the package raises it.
pub fn refused(e: OptionsError) -> PyErr {
    options_error(e.to_string())
}

/// The option set `T` from `function`'s keyword arguments (its defaults for those
/// not given).
pub fn from_kwargs<T: DeserializeOwned + Default>(
    function: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<T> {
    let Some(kwargs) = kwargs else {
        return Ok(T::default());
    };
    // An option given as None takes its default, as if it were left out.
    let given = PyDict::new(kwargs.py());
    for (key, value) in kwargs.iter() {
        if !value.is_none() {
            given.set_item(key, value)?;
        }
    }
    let mut reader = pythonize::Depythonizer::from_object(given.as_any());
    serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let problem = e.inner().to_string();
        if let Some(name) = problem
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next())
        {
            return PyTypeError::new_err(format!(
                "{function}() got an unexpected keyword argument '{name}'"
            ));
        }
        options_error(format!("{}: {problem}", e.path()))
    })
}

/// The grading options of `function`'s keyword arguments, checked; `mode` when
/// none is given.
pub fn grade_settings(
    function: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
    mode: Mode,
) -> PyResult<GradeSettings> {
    let mut given: GradeOptions = from_kwargs(function, kwargs)?;
    if !kwargs.is_some_and(|k| k.contains("mode").unwrap_or(false)) {
        given.mode = mode;
    }
    given.settings().map_err(refused)
}

/// The generation options of `function`'s keyword arguments, checked: an
/// `OptionsError` for a value out of range, a `GenerateError` for a request the
/// generator refuses.
pub fn generation_plan(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Plan> {
    let given: GenerateOptions = from_kwargs(function, kwargs)?;
    given.plan().map_err(|e| match e {
        kenken_generator::GenerateError::Options(e) => refused(e),
        e => GenerateError::new_err(e.to_string()),
    })
}

/// `jobs`: threads, 1 to 256, every core by default.
pub fn jobs(jobs: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let n = jobs
        .filter(|j| !j.is_none())
        .map(|j| integer("jobs", j))
        .transpose()?;
    options::jobs("jobs", n).map_err(refused)
}

/// `timeout`: seconds, positive and finite, or None.
pub fn timeout(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|t| options::seconds("timeout", t))
        .transpose()
        .map_err(refused)
}

/// A whole number given as `option` (an int of any size, not a bool).
pub fn integer(option: &'static str, value: &Bound<'_, PyAny>) -> PyResult<i64> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(options_error(format!(
            "{option} must be a whole number, not a bool"
        )));
    }
    if !value.is_instance_of::<pyo3::types::PyInt>() {
        return Err(options_error(format!(
            "{option} must be a whole number, not a {}",
            value.get_type().name()?
        )));
    }
    value
        .extract::<i64>()
        .map_err(|_| options_error(format!("{option} is out of range: {value}")))
}
