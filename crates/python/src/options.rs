//! Keyword arguments into the libraries' option sets: the grading options
//! ([`GradeOptions`]), the generation options ([`GenerateOptions`]) and how to
//! read puzzles ([`HideOps`]) are read from the keyword arguments by their field
//! names and checked by the libraries' one constructor, so the package takes the
//! options `grader` takes with the same checks and messages. A keyword that is not
//! an option is a `TypeError`, as for any Python function; a value of the wrong
//! type or out of range an `OptionsError` that names it.

use crate::errors::{options_error, GenerateError};
use crate::given::{worded, Given};
use kenken_batch::{GradeOptions, GradeSettings, HideOps, Mode};
use kenken_generator::{GenerateOptions, Plan};
use kenken_model::options::{self, OptionsError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::de::value::MapDeserializer;
use serde::de::{self, DeserializeOwned, Visitor};
use serde::Deserialize;
use std::collections::HashMap;
use std::time::Duration;

/// An [`OptionsError`] as the package raises it.
pub fn refused(e: OptionsError) -> PyErr {
    options_error(e.to_string())
}

/// The option set `T` from `function`'s keyword arguments (its defaults for those
/// not given, or given as None); a keyword that names no option of `T` is a
/// TypeError.
pub fn from_kwargs<T: DeserializeOwned + Default>(
    function: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<T> {
    let (options, left) = take_from_kwargs(kwargs)?;
    refuse_left(function, left.as_ref())?;
    Ok(options)
}

/// Takes the option set `T` out of `function`'s keyword arguments (the keywords
/// named as its fields): `T` (its defaults for those not given, or given as None)
/// and the keyword arguments left, for the next option set.
///
/// Each value is read as a [`Given`], so it must be of its field's own type: a
/// flag takes True or False, a count an int.
pub fn take_from_kwargs<'py, T: DeserializeOwned + Default>(
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(T, Option<Bound<'py, PyDict>>)> {
    let Some(kwargs) = kwargs else {
        return Ok((T::default(), None));
    };
    let left = kwargs.copy()?;
    let mut taken = Vec::new();
    let mut shown = HashMap::new();
    for &name in field_names::<T>() {
        let Some(value) = left.get_item(name)? else {
            continue;
        };
        left.del_item(name)?;
        if value.is_none() {
            continue;
        }
        shown.insert(name, value.repr()?.to_string());
        taken.push((name, Given::from_py(&value)?));
    }
    let reader = MapDeserializer::<_, de::value::Error>::new(taken.into_iter());
    let options = serde_path_to_error::deserialize(reader).map_err(|e| {
        let path = e.path().to_string();
        let option = path.split('[').next().unwrap_or_default();
        let shown = shown.get(option).map_or("", String::as_str);
        options_error(worded(&path, &e.inner().to_string(), shown))
    })?;
    Ok((options, Some(left)))
}

/// A TypeError naming the first keyword argument `function` has no use for.
fn refuse_left(function: &str, left: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    match left.and_then(|left| left.iter().next()) {
        Some((name, _)) => Err(PyTypeError::new_err(format!(
            "{function}() got an unexpected keyword argument '{name}'"
        ))),
        None => Ok(()),
    }
}

/// How puzzles are read (`hide_ops`), taken out of the keyword arguments, with
/// the keyword arguments left.
pub fn hide_ops<'py>(
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(HideOps, Option<Bound<'py, PyDict>>)> {
    take_from_kwargs(kwargs)
}

/// How `function` reads puzzles, when that is all its keyword arguments may say:
/// any other keyword is a TypeError.
pub fn only_hide_ops(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<HideOps> {
    let (hide, left) = hide_ops(kwargs)?;
    refuse_left(function, left.as_ref())?;
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
    let (hide, kwargs) = hide_ops(kwargs)?;
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
pub fn timeout(timeout: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(value) = timeout.filter(|t| !t.is_none()) else {
        return Ok(None);
    };
    let secs = f64::deserialize(Given::from_py(value)?).map_err(|e| {
        let shown = value.repr().map(|r| r.to_string()).unwrap_or_default();
        options_error(worded("timeout", &e.to_string(), &shown))
    })?;
    options::seconds("timeout", secs).map(Some).map_err(refused)
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
