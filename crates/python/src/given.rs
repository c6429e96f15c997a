//! Keyword-argument values as the option sets read them.
//!
//! A Python value is first taken as a [`Given`]: a bool, an int, a float (NaN and
//! infinities included, so the libraries' checks word them), a str, a list or
//! tuple, or a value no option takes. serde then reads the option set from these,
//! so a value of the wrong type is refused the same way for every option (a flag
//! takes only True or False, a count only an int), and [`worded`] turns serde's
//! account of it into the package's words, with the value's Python repr: `seed
//! must be a whole number from 0 to 18446744073709551615, not -1`.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::de::value::{Error, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};

/// One keyword argument's value, as serde reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Given {
    Bool(bool),
    Int(i64),
    /// An int from 2^63 to 2^64 − 1.
    UInt(u64),
    /// A float, or an int past 64 bits (which no whole-number option takes).
    Float(f64),
    Str(String),
    /// A list or a tuple.
    Seq(Vec<Given>),
    /// A value no option takes (a dict, bytes, a str that is not Unicode text,
    /// …): read as the unit value, which no option takes either.
    Unreadable,
}

impl Given {
    /// `value` taken apart.
    pub fn from_py(value: &Bound<'_, PyAny>) -> PyResult<Given> {
        if let Ok(flag) = value.cast::<PyBool>() {
            return Ok(Given::Bool(flag.is_true()));
        }
        if value.is_instance_of::<PyInt>() {
            return Ok(match (value.extract::<i64>(), value.extract::<u64>()) {
                (Ok(i), _) => Given::Int(i),
                (_, Ok(u)) => Given::UInt(u),
                _ => Given::Float(value.extract().unwrap_or(f64::INFINITY)),
            });
        }
        if value.is_instance_of::<PyFloat>() {
            return Ok(Given::Float(value.extract()?));
        }
        if value.is_instance_of::<PyString>() {
            return Ok(match value.extract::<String>() {
                Ok(text) => Given::Str(text),
                Err(_) => Given::Unreadable,
            });
        }
        if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
            return value
                .try_iter()?
                .map(|item| Given::from_py(&item?))
                .collect::<PyResult<_>>()
                .map(Given::Seq);
        }
        Ok(Given::Unreadable)
    }
}

impl<'de> de::Deserializer<'de> for Given {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Given::Bool(b) => visitor.visit_bool(b),
            Given::Int(i) => visitor.visit_i64(i),
            Given::UInt(u) => visitor.visit_u64(u),
            Given::Float(x) => visitor.visit_f64(x),
            Given::Str(s) => visitor.visit_string(s),
            Given::Seq(items) => visitor.visit_seq(SeqDeserializer::new(items.into_iter())),
            Given::Unreadable => visitor.visit_unit(),
        }
    }

    /// A value given is `Some`: an option left out, or given as None, is not
    /// read at all.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    /// An enum of unit variants is given by a variant's name.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Given::Str(s) => visitor.visit_enum(s.into_deserializer()),
            other => other.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Error> for Given {
    type Deserializer = Given;

    fn into_deserializer(self) -> Given {
        self
    }
}

/// serde's `problem` with the value given to `path` (an option, or an item of
/// one: `disable[1]`), whose Python repr is `shown`, in the package's words.
pub fn worded(path: &str, problem: &str, shown: &str) -> String {
    let (option, item) = match path.split_once('[') {
        Some((option, index)) => (option, Some(index.trim_end_matches(']'))),
        None => (path, None),
    };
    let Some((unexpected, expected)) = account(problem) else {
        return if problem.starts_with("must ") {
            format!("{option} {problem}, not {shown}")
        } else {
            format!("{path}: {problem}")
        };
    };
    let expectation = expectation(expected);
    match item {
        // The whole value is shown for the option; an item's own value for an item.
        None => format!("{option} must be {expectation}, not {shown}"),
        Some(index) => {
            let value = unexpected
                .split_once('`')
                .and_then(|(_, rest)| rest.split_once('`'))
                .map_or(unexpected, |(value, _)| value);
            format!("{option}[{index}] must be {expectation}, not {value}")
        }
    }
}

/// serde's "invalid type: X, expected Y", "invalid value: X, expected Y" and
/// "unknown variant `x`, expected one of …" as (X, Y).
fn account(problem: &str) -> Option<(&str, &str)> {
    if let Some(rest) = problem
        .strip_prefix("invalid type: ")
        .or_else(|| problem.strip_prefix("invalid value: "))
    {
        return rest.rsplit_once(", expected ");
    }
    let rest = problem.strip_prefix("unknown variant ")?;
    let (unexpected, expected) = rest.split_once(", expected ")?;
    Some((unexpected, expected))
}

/// What serde expected, in words.
fn expectation(expected: &str) -> String {
    let whole = |max: u64| format!("a whole number from 0 to {max}");
    match expected {
        "u8" => whole(u8::MAX.into()),
        "u16" => whole(u16::MAX.into()),
        "u32" => whole(u32::MAX.into()),
        "u64" | "usize" => whole(u64::MAX),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "True or False".to_string(),
        "a string" => "a str".to_string(),
        "a sequence" => "a list".to_string(),
        other => other.replace('`', "\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_accounts_are_worded() {
        assert_eq!(
            worded("seed", "invalid value: integer `-1`, expected u64", "-1"),
            "seed must be a whole number from 0 to 18446744073709551615, not -1"
        );
        assert_eq!(
            worded("min", "invalid type: string \"4.4\", expected f64", "'4.4'"),
            "min must be a number, not '4.4'"
        );
        assert_eq!(
            worded(
                "mode",
                "unknown variant `x`, expected one of `n`, `c`, `b`",
                "'x'"
            ),
            "mode must be one of \"n\", \"c\", \"b\", not 'x'"
        );
        assert_eq!(
            worded(
                "disable[1]",
                "invalid type: integer `3`, expected a string",
                "['fish', 3]"
            ),
            "disable[1] must be a str, not 3"
        );
        assert_eq!(
            worded("cage_sizes", "must be a pair (lo, hi)", "(2,)"),
            "cage_sizes must be a pair (lo, hi), not (2,)"
        );
        assert_eq!(worded("ops", "no such thing", "'?'"), "ops: no such thing");
    }
}
