//! Keyword arguments into the libraries' option sets: the grading options
//! ([`GradeOptions`]), the generation options ([`GenerateOptions`]) and how to
//! read puzzles ([`HideOps`]) are read from the keyword arguments by their field
//! names and checked by the libraries' one constructor, so the package takes the
//! options `grader` takes with the same checks and messages. A keyword that is not
//! an option is a `TypeError`, as for any Python function; a value of the wrong
//! type or out of range an `OptionsError` that names it.

use crate::errors::{options_error, GenerateError};
use kenken_batch::{GradeOptions, GradeSettings, HideOps, Mode};
use kenken_generator::{GenerateOptions, Plan};
use kenken_model::options::{self, OptionsError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::{self, DeserializeOwned, Visitor};
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
    serde_path_to_error::deserialize(&mut reader).map_err(|e| not_an_option(function, &e))
}

/// Why keyword arguments are not an option set: a TypeError for a keyword that
/// names no option, else an OptionsError naming the option.
fn not_an_option<E: std::fmt::Display>(function: &str, e: &serde_path_to_error::Error<E>) -> PyErr {
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
}

/// Takes the option set `T` out of `function`'s keyword arguments (the keywords
/// named as its fields): `T` (its defaults for those not given, or given as None)
/// and the keyword arguments left, for the next option set.
///
/// Each value is taken as the JSON value it stands for before `T` reads it, so a
/// value must be of its field's own type: a flag takes True or False, where
/// pythonize alone would take any object's truth.
pub fn take_from_kwargs<'py, T: DeserializeOwned + Default>(
    function: &str,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(T, Option<Bound<'py, PyDict>>)> {
    let Some(kwargs) = kwargs else {
        return Ok((T::default(), None));
    };
    let left = kwargs.copy()?;
    let mut taken = serde_json::Map::new();
    for &name in field_names::<T>() {
        let Some(value) = left.get_item(name)? else {
            continue;
        };
        left.del_item(name)?;
        if value.is_none() {
            continue;
        }
        // No JSON value stands for bytes, a str holding a lone surrogate or a
        // float that is not finite (which would become null).
        let json = pythonize::depythonize::<serde_json::Value>(&value)
            .ok()
            .filter(|json| !json.is_null());
        let Some(json) = json else {
            let kind = value.get_type().name()?;
            return Err(options_error(format!("{name}: invalid type: {kind}")));
        };
        taken.insert(name.to_string(), json);
    }
    let options = serde_path_to_error::deserialize(serde_json::Value::Object(taken))
        .map_err(|e| not_an_option(function, &e))?;
    Ok((options, Some(left)))
}

/// How `function` reads puzzles (`hide_ops`), taken out of its keyword arguments,
/// with the keyword arguments left.
pub fn hide_ops<'py>(
    function: &str,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(HideOps, Option<Bound<'py, PyDict>>)> {
    take_from_kwargs(function, kwargs)
}

/// How `function` reads puzzles, when that is all its keyword arguments may say:
/// any other keyword is a TypeError.
pub fn only_hide_ops(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<HideOps> {
    let (hide, left) = hide_ops(function, kwargs)?;
    if let Some((name, _)) = left.as_ref().and_then(|left| left.iter().next()) {
        return Err(PyTypeError::new_err(format!(
            "{function}() got an unexpected keyword argument '{name}'"
        )));
    }
    Ok(hide)
}

/// The field names of the struct `T`, as its `Deserialize` asks for them.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    // The deserializer records the names and fails: no value is made.
    let _ = T::deserialize(FieldNames(&mut names));
    names
}

/// A deserializer that records the fields a struct asks for.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("only the field names are read"))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        enum identifier ignored_any
    }
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
/// generator refuses. `hide_ops` is read as every function reads it ([`HideOps`]).
pub fn generation_plan(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Plan> {
    let (hide, kwargs) = hide_ops(function, kwargs)?;
    let mut given: GenerateOptions = from_kwargs(function, kwargs.as_ref())?;
    given.hide_ops = hide.hide_ops;
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
