//! What to generate, as every front end takes it ([`GenerateOptions`]: `grader
//! generate`'s flags, `kenken.generate`'s keyword arguments, a Dask generation
//! task's options), checked once by [`GenerateOptions::plan`] into a [`Request`]
//! and the run's bounds ([`Plan`]).
//!
//! A new generation option is one field of [`GenerateOptions`] (its doc comment is
//! the command line's help), one check in [`GenerateOptions::plan`], one field of
//! [`Request`] or [`Plan`].

use crate::{GenerateError, OpSet, Request, RunLimits};
use kenken_model::clock::Instant;
use kenken_model::options::{self, OptionsError};
use kenken_techniques::{Options, Rating, TechniqueKind};
use serde::{Deserialize, Deserializer};
use std::str::FromStr;
use std::time::Duration;

/// The highest rating a band may name.
pub const MAX_RATING: f64 = 1000.0;

/// A rating from a number: 0 to [`MAX_RATING`], to the tenth.
pub fn rating(option: &'static str, x: f64) -> Result<Rating, OptionsError> {
    options::number_in(option, x, 0.0..=MAX_RATING)
        .map(|x| Rating((x * 10.0).round() as u32))
        .map_err(|_| {
            OptionsError::new(
                option,
                format!("must be a rating from 0 to 1000, not {}", FloatText(x)),
            )
        })
}

/// The sizes of multi-cell cages, `LO-HI` (or one size): on the command line
/// `2-5`, from Python `(2, 5)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CageSizes {
    pub lo: i64,
    pub hi: i64,
}

impl Default for CageSizes {
    fn default() -> CageSizes {
        CageSizes { lo: 2, hi: 5 }
    }
}

impl std::fmt::Display for CageSizes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.lo, self.hi)
    }
}

impl FromStr for CageSizes {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<CageSizes, OptionsError> {
        let bad = || {
            OptionsError::new(
                "cage_sizes",
                format!("must be a range of cage sizes LO-HI such as 2-4, not {s:?}"),
            )
        };
        let (lo, hi) = s.split_once('-').unwrap_or((s, s));
        Ok(CageSizes {
            lo: lo.trim().parse().map_err(|_| bad())?,
            hi: hi.trim().parse().map_err(|_| bad())?,
        })
    }
}

impl<'de> Deserialize<'de> for CageSizes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CageSizes, D::Error> {
        #[derive(Deserialize)]
        #[serde(
            untagged,
            expecting = "must be a pair (lo, hi) or text such as \"2-4\""
        )]
        enum Given {
            Pair(i64, i64),
            Text(String),
        }
        match Given::deserialize(d)? {
            Given::Pair(lo, hi) => Ok(CageSizes { lo, hi }),
            Given::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// The options of a generation run, as given (see [`GenerateOptions::plan`] for
/// the checks). Field names are the Python keyword arguments; the command line
/// spells them with dashes.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields, default)]
pub struct GenerateOptions {
    /// Grid size: 3 to 9 with --strict, up to 16 otherwise.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", allow_hyphen_values = true)
    )]
    pub size: i64,
    /// The lowest max rating wanted (e.g. 4.4).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "RATING", allow_hyphen_values = true)
    )]
    pub min: f64,
    /// The highest max rating wanted (default: no upper bound).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "RATING", allow_hyphen_values = true)
    )]
    pub max: Option<f64>,
    /// How many puzzles to make: at least 1.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "K",
            allow_hyphen_values = true,
            default_value_t = GenerateOptions::default().count
        )
    )]
    pub count: i64,
    /// The run's seed (default: from the clock, printed at the end). The same seed
    /// and options give the same puzzles, whatever --jobs.
    #[cfg_attr(feature = "clap", arg(long, value_name = "S"))]
    pub seed: Option<u64>,
    /// The operations clues may use, a subset of `+-*/` (`x` for ×).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "OPS", default_value_t = GenerateOptions::default().ops)
    )]
    pub ops: String,
    /// Tatham's rules: − and ÷ on two-cell cages only, sizes 3–9, so every ID plays
    /// in Tatham's Keen.
    #[cfg_attr(feature = "clap", arg(long))]
    pub strict: bool,
    /// The sizes of cages of two or more cells, `LO-HI`.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "LO-HI", default_value_t = GenerateOptions::default().cage_sizes)
    )]
    pub cage_sizes: CageSizes,
    /// The most single-cell cages (givens) a puzzle may have.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "N",
            allow_hyphen_values = true,
            default_value_t = GenerateOptions::default().max_givens
        )
    )]
    pub max_givens: i64,
    /// The largest mean number of cells per cage (Tatham's puzzles: about 2.25).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "CELLS",
            allow_hyphen_values = true,
            default_value_t = GenerateOptions::default().max_mean_cage
        )
    )]
    pub max_mean_cage: f64,
    /// KenDoku: boxes as extra regions (2×3 on a 6×6, written as D6C).
    #[cfg_attr(feature = "clap", arg(long))]
    pub kendoku: bool,
    /// Puzzles whose cages show only their clues: unique (and rated) with every
    /// operation hidden, written in the text format (`? 12 A1 A2`).
    #[cfg_attr(feature = "clap", arg(long))]
    pub hide_ops: bool,
    /// A technique the solve path must use (repeat or separate with commas).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "TECHNIQUE", value_delimiter = ',')
    )]
    #[serde(deserialize_with = "options::one_or_many")]
    pub require: Vec<String>,
    /// A technique the solve path must not use (repeat or separate with commas).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "TECHNIQUE", value_delimiter = ',')
    )]
    #[serde(deserialize_with = "options::one_or_many")]
    pub forbid: Vec<String>,
    /// The largest number of cages a cage-combination step may combine (2 to 8).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", allow_hyphen_values = true)
    )]
    pub max_depth: Option<i64>,
    /// Give up after this many attempts (an attempt is one solution and layout,
    /// searched towards the band).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "N",
            allow_hyphen_values = true,
            default_value_t = GenerateOptions::default().max_tries
        )
    )]
    pub max_tries: u64,
    /// Mutations one attempt tries before it gives up and a fresh attempt starts
    /// (default: 40 per cell, 600 on a 4×4, 8 000 on a 5×5).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", allow_hyphen_values = true)
    )]
    pub steps: Option<i64>,
    /// Give up after this many seconds.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "SECONDS", allow_hyphen_values = true)
    )]
    pub timeout: Option<f64>,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions {
            size: 0,
            min: 0.0,
            max: None,
            count: 1,
            seed: None,
            ops: OpSet::ALL.to_string(),
            strict: false,
            cage_sizes: CageSizes::default(),
            max_givens: 1,
            max_mean_cage: 2.4,
            kendoku: false,
            hide_ops: false,
            require: Vec::new(),
            forbid: Vec::new(),
            max_depth: None,
            max_tries: 10_000,
            steps: None,
            timeout: None,
        }
    }
}

/// A generation run, checked: what to make, how many, and when to give up.
#[derive(Clone, Debug)]
pub struct Plan {
    pub request: Request,
    /// At least 1.
    pub count: usize,
    /// None: the caller picks one (from the clock).
    pub seed: Option<u64>,
    pub max_tries: u64,
    pub timeout: Option<Duration>,
}

impl Plan {
    /// The run's bounds, its clock started at `start`.
    pub fn limits(&self, start: Instant) -> RunLimits {
        RunLimits {
            count: self.count,
            max_tries: Some(self.max_tries),
            deadline: self.timeout.map(|t| start + t),
        }
    }
}

impl GenerateOptions {
    /// The request and the run's bounds, checked: every number in its range (an
    /// [`OptionsError`] naming the option), then the request as a whole
    /// ([`Request::check`]: a band that is not empty, cage sizes the grid can hold,
    /// a mean cage size some layout reaches, …).
    pub fn plan(&self) -> Result<Plan, GenerateError> {
        let max_depth = self
            .max_depth
            .map(|d| Options::checked_max_depth("max_depth", d))
            .transpose()?;
        let mut request = Request::new(
            // A size outside 3..=16 is Request::check's to word.
            usize::try_from(self.size.clamp(0, 1 << 20)).unwrap_or(0),
            rating("min", self.min)?,
            self.max.map(|m| rating("max", m)).transpose()?,
        );
        request.rules.ops = OpSet::parse(&self.ops).ok_or_else(|| {
            OptionsError::new(
                "ops",
                format!(
                    "must be a set of operations from + - * /, not {:?}",
                    self.ops
                ),
            )
        })?;
        request.rules.strict = self.strict;
        // A range outside 2..=16 is Request::check's to word; a size that is not
        // a size at all is refused here.
        let cage_size = |n: i64| {
            usize::try_from(n)
                .ok()
                .filter(|&n| n <= 1 << 20)
                .ok_or_else(|| {
                    OptionsError::new("cage_sizes", format!("must be sizes from 2 to 16, not {n}"))
                })
        };
        request.rules.cage_sizes = cage_size(self.cage_sizes.lo)?..=cage_size(self.cage_sizes.hi)?;
        request.rules.max_givens =
            options::count_in("max_givens", self.max_givens, 0..=256)? as usize;
        request.rules.max_mean_cage_size =
            options::number_in("max_mean_cage", self.max_mean_cage, 1.0..=256.0)?;
        request.kendoku = self.kendoku;
        request.hide_ops = self.hide_ops;
        request.require = TechniqueKind::switchable_list("require", &self.require)?;
        request.forbid = TechniqueKind::switchable_list("forbid", &self.forbid)?;
        if let Some(steps) = self.steps {
            request.steps = options::count_in("steps", steps, 1..=1 << 40)? as usize;
        }
        if let Some(depth) = max_depth {
            request.options.max_depth = depth;
        }
        if self.size != request.size as i64 {
            // Negative or absurd: reported as the size given.
            return Err(GenerateError::Size {
                size: self.size,
                min: kenken_model::MIN_SIZE,
                max: kenken_model::MAX_SIZE,
                why: "",
            });
        }
        request.check()?;
        Ok(Plan {
            request,
            count: options::count_in("count", self.count, 1..=i64::MAX)? as usize,
            seed: self.seed,
            max_tries: options::count_in(
                "max_tries",
                i64::try_from(self.max_tries).unwrap_or(i64::MAX),
                1..=i64::MAX,
            )? as u64,
            timeout: self
                .timeout
                .map(|t| options::seconds("timeout", t))
                .transpose()?,
        })
    }
}

/// A number as an error quotes it.
struct FloatText(f64);

impl std::fmt::Display for FloatText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_nan() {
            write!(f, "nan")
        } else if self.0.abs() >= 1e9 && self.0.is_finite() {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(size: i64, min: f64) -> GenerateOptions {
        GenerateOptions {
            size,
            min,
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn a_plain_request_plans() {
        let plan = asked(6, 4.4).plan().unwrap();
        assert_eq!(plan.request.size, 6);
        assert_eq!(plan.request.min, Rating(44));
        assert_eq!(plan.count, 1);
        assert_eq!(plan.max_tries, 10_000);
    }

    #[test]
    fn bad_numbers_are_named() {
        let err = |o: GenerateOptions| o.plan().unwrap_err().to_string();
        assert_eq!(
            err(GenerateOptions {
                timeout: Some(1e300),
                ..asked(4, 0.0)
            }),
            "timeout must be a positive number of seconds, at most 1e9, not 1e300"
        );
        for t in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(err(GenerateOptions {
                timeout: Some(t),
                ..asked(4, 0.0)
            })
            .starts_with("timeout must be"));
        }
        for m in [0.0, f64::NAN, -3.0] {
            assert!(err(GenerateOptions {
                max_mean_cage: m,
                ..asked(4, 0.0)
            })
            .starts_with("max_mean_cage must be a number from 1 to 256"));
        }
        assert_eq!(
            err(asked(4, f64::NAN)),
            "min must be a rating from 0 to 1000, not nan"
        );
        assert_eq!(
            err(GenerateOptions {
                max_tries: 0,
                ..asked(4, 0.0)
            }),
            "max_tries must be at least 1, not 0"
        );
        for count in [0, -1] {
            assert_eq!(
                err(GenerateOptions {
                    count,
                    ..asked(4, 0.0)
                }),
                format!("count must be at least 1, not {count}")
            );
        }
        assert!(err(asked(-3, 1.0)).starts_with("grid size -3 is outside 3..=16"));
        assert!(err(asked(1 << 40, 1.0)).starts_with("grid size 1099511627776 is outside"));
        assert!(err(GenerateOptions {
            require: vec!["nope".into()],
            ..asked(4, 0.0)
        })
        .starts_with("require takes technique ids"));
    }

    #[test]
    fn cage_sizes_read_both_ways() {
        assert_eq!("2-4".parse(), Ok(CageSizes { lo: 2, hi: 4 }));
        assert_eq!("3".parse(), Ok(CageSizes { lo: 3, hi: 3 }));
        assert!("a-b".parse::<CageSizes>().is_err());
        let o: GenerateOptions =
            serde_json::from_str(r#"{"size":5,"min":1,"cage_sizes":[2,3],"require":"fish"}"#)
                .unwrap();
        assert_eq!(o.cage_sizes, CageSizes { lo: 2, hi: 3 });
        assert_eq!(o.require, vec!["fish".to_string()]);
    }

    #[test]
    fn an_unreachable_mean_cage_size_is_refused() {
        let e = GenerateOptions {
            max_mean_cage: 1.2,
            ..asked(6, 1.0)
        }
        .plan()
        .unwrap_err();
        assert!(matches!(e, GenerateError::MeanCageSize { .. }), "{e}");
    }
}
