//! The checks every front end (the `grader` command line, the Python package, the
//! web page) applies to the numbers it is given: durations, memory sizes, thread
//! counts and other counts. Each returns an [`OptionsError`] that names the
//! option and says what it must be, so a bad value is refused with the same words
//! everywhere and never reaches a computation that would panic on it (a duration
//! that overflows a clock, a thread pool that cannot be allocated).

use crate::budget::Bytes;
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// The longest duration an option takes, in seconds (about 31 years): long enough
/// for any run, short enough that a deadline this far ahead fits every clock.
pub const MAX_SECONDS: f64 = 1e9;

/// The most worker threads a run may ask for. Each thread holds a stack and its
/// own memory budget; past a few hundred threads a process can fail to allocate
/// them, and no machine this runs on gains from more.
pub const MAX_JOBS: usize = 256;

/// The smallest memory limit.
pub const MIN_MEMORY: usize = 1 << 20;

/// An option whose value cannot be used: `option` is its name as the libraries
/// and Python spell it (`max_depth`), `problem` the rest of the sentence (`must be
/// 2 to 8, not 9`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{option} {problem}")]
pub struct OptionsError {
    pub option: &'static str,
    pub problem: String,
}

impl OptionsError {
    pub fn new(option: &'static str, problem: impl Into<String>) -> OptionsError {
        OptionsError {
            option,
            problem: problem.into(),
        }
    }

    /// The message with the option named as a command-line flag (`--max-depth
    /// must be 2 to 8, not 9`).
    pub fn with_flag(&self) -> String {
        format!("--{} {}", self.option.replace('_', "-"), self.problem)
    }
}

/// A duration given in seconds: positive, finite, at most [`MAX_SECONDS`].
pub fn seconds(option: &'static str, secs: f64) -> Result<Duration, OptionsError> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(OptionsError::new(
            option,
            format!(
                "must be a positive number of seconds, at most {MAX_SECONDS:e}, not {}",
                Shown(secs)
            ),
        ))
    }
}

/// A memory limit in bytes: at least [`MIN_MEMORY`].
pub fn memory(option: &'static str, bytes: usize) -> Result<usize, OptionsError> {
    if bytes >= MIN_MEMORY {
        Ok(bytes)
    } else {
        Err(OptionsError::new(
            option,
            format!("must be at least 1M, not {}", Bytes(bytes)),
        ))
    }
}

/// A memory limit written as a number of bytes with an optional `K`, `M` or `G`
/// suffix (powers of 1024; `KiB`, `MiB`, `GiB`, `KB`, `MB`, `GB` and `B` are read
/// the same way): at least [`MIN_MEMORY`].
pub fn parse_memory(option: &'static str, text: &str) -> Result<usize, OptionsError> {
    let t = text.trim();
    let not_a_size = || {
        OptionsError::new(
            option,
            format!("must be a size such as 512M or 2G, not {text:?}"),
        )
    };
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(not_a_size()),
    };
    let number: usize = number.parse().map_err(|_| not_a_size())?;
    let bytes = number
        .checked_mul(1 << shift)
        .ok_or_else(|| OptionsError::new(option, format!("is too large: {text}")))?;
    memory(option, bytes)
}

/// A number of worker threads: 1 to [`MAX_JOBS`]; `None` is one per core (at most
/// [`MAX_JOBS`]).
pub fn jobs(option: &'static str, jobs: Option<i64>) -> Result<usize, OptionsError> {
    match jobs {
        None => Ok(cores().min(MAX_JOBS)),
        Some(n) if (1..=MAX_JOBS as i64).contains(&n) => Ok(n as usize),
        Some(n) => Err(OptionsError::new(
            option,
            format!("must be 1 to {MAX_JOBS} threads, not {n}"),
        )),
    }
}

/// The cores this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// A whole number within `range`.
pub fn count_in(
    option: &'static str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, OptionsError> {
    if range.contains(&value) {
        Ok(value)
    } else if *range.end() == i64::MAX {
        Err(OptionsError::new(
            option,
            format!("must be at least {}, not {value}", range.start()),
        ))
    } else {
        Err(OptionsError::new(
            option,
            format!("must be {} to {}, not {value}", range.start(), range.end()),
        ))
    }
}

/// A finite number within `range`.
pub fn number_in(
    option: &'static str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, OptionsError> {
    if value.is_finite() && range.contains(&value) {
        Ok(value)
    } else {
        Err(OptionsError::new(
            option,
            format!(
                "must be a number from {} to {}, not {}",
                Shown(*range.start()),
                Shown(*range.end()),
                Shown(value)
            ),
        ))
    }
}

/// A list of strings, or one string: how every front end gives a list option
/// (`disable="fish"` reads as `["fish"]`), for serde's `deserialize_with`.
pub fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged, expecting = "must be a technique id or a list of them")]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match serde::Deserialize::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// A number as a person writes it: `nan`, `inf`, `1e300`, `2.5`.
struct Shown(f64);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x.is_nan() {
            write!(f, "nan")
        } else if x.is_infinite() {
            write!(f, "{}inf", if x < 0.0 { "-" } else { "" })
        } else if x != 0.0 && (x.abs() >= 1e9 || x.abs() < 1e-4) {
            write!(f, "{x:e}")
        } else {
            write!(f, "{x}")
        }
    }
}

/// The field names of the struct `T`, as its `Deserialize` asks for them: the
/// names of an option set's options, for a front end that takes options by name
/// (the WebAssembly package's option objects).
pub fn field_names<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    // The deserializer records the names and fails: no value is made.
    let _ = T::deserialize(FieldNames(&mut names));
    names
}

/// A deserializer that records the fields a struct asks for.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> serde::de::Deserializer<'de> for FieldNames<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(serde::de::Error::custom("only the field names are read"))
    }

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("not a struct"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
        enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_sets_are_named_by_their_fields() {
        #[derive(serde::Deserialize)]
        #[allow(dead_code)]
        struct Set {
            max_depth: u8,
            timeout: f64,
        }
        assert_eq!(field_names::<Set>(), ["max_depth", "timeout"]);
        assert_eq!(field_names::<u8>(), [] as [&str; 0]);
    }

    #[test]
    fn durations_are_positive_finite_and_bounded() {
        assert_eq!(seconds("timeout", 1.5), Ok(Duration::from_millis(1500)));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300, -0.0] {
            let e = seconds("timeout", bad).unwrap_err();
            assert!(e
                .to_string()
                .starts_with("timeout must be a positive number of seconds"));
        }
        assert_eq!(
            seconds("timeout", 1e300).unwrap_err().with_flag(),
            "--timeout must be a positive number of seconds, at most 1e9, not 1e300"
        );
    }

    #[test]
    fn sizes_read_with_units() {
        assert_eq!(parse_memory("max_memory", "2G"), Ok(2 << 30));
        assert_eq!(parse_memory("max_memory", "512MiB"), Ok(512 << 20));
        assert!(parse_memory("max_memory", "12").is_err());
        assert!(parse_memory("max_memory", "x").is_err());
        assert!(parse_memory("max_memory", "99999999999999999999G").is_err());
        assert!(parse_memory("max_memory", "100000000000G").is_err());
    }

    #[test]
    fn thread_counts_are_capped() {
        assert_eq!(jobs("jobs", Some(3)), Ok(3));
        assert!(jobs("jobs", None).unwrap() >= 1);
        for bad in [0, -1, 257, 5000, i64::MAX] {
            assert_eq!(
                jobs("jobs", Some(bad)).unwrap_err().to_string(),
                format!("jobs must be 1 to 256 threads, not {bad}")
            );
        }
    }

    #[test]
    fn numbers_in_ranges() {
        assert_eq!(count_in("steps", 3, 1..=i64::MAX), Ok(3));
        assert_eq!(
            count_in("steps", 0, 1..=i64::MAX).unwrap_err().to_string(),
            "steps must be at least 1, not 0"
        );
        assert_eq!(
            number_in("max_mean_cage", f64::NAN, 1.0..=16.0)
                .unwrap_err()
                .to_string(),
            "max_mean_cage must be a number from 1 to 16, not nan"
        );
    }
}
