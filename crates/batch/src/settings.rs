//! How to grade: the grading options as every front end takes them
//! ([`GradeOptions`]: `grader`'s flags, the Python keyword arguments, a Dask task's
//! options), checked once by [`GradeOptions::settings`] into [`GradeSettings`],
//! and from those the runs a mode asks for ([`Runs`]).
//!
//! A new grading option is one field of [`GradeOptions`] (its doc comment is the
//! command line's help), one check in [`GradeOptions::settings`], one field of
//! [`GradeSettings`].

use kenken_model::clock::Instant;
use kenken_model::options::{self, OptionsError};
use kenken_model::Limits;
use kenken_techniques::{Options, TechniqueKind, MAX_CAGE_SET};
use serde::Deserialize;
use std::str::FromStr;
use std::time::Duration;

/// Which ladders to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Normal: the whole ladder.
    #[default]
    N,
    /// Cage combinations only (with propagation).
    C,
    /// Both.
    B,
}

impl Mode {
    /// The mode's name: `n`, `c`, `b`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::N => "n",
            Mode::C => "c",
            Mode::B => "b",
        }
    }

    /// The mode named `n`, `c` or `b`.
    pub fn from_name(name: &str) -> Result<Mode, OptionsError> {
        [Mode::N, Mode::C, Mode::B]
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                OptionsError::new(
                    "mode",
                    format!("must be \"n\", \"c\" or \"b\", not {name:?}"),
                )
            })
    }
}

/// The largest number of cages a cage-combination step may combine, by default:
/// the ladder's own ([`Options::default`]).
pub const DEFAULT_MAX_DEPTH: u8 = MAX_CAGE_SET as u8;

/// The most memory one puzzle's grading may hold, by default.
pub const DEFAULT_MAX_MEMORY: usize = 512 << 20;

/// A memory limit as given: a number of bytes, or a size such as `512M`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(
    untagged,
    expecting = "must be a number of bytes or a size such as 512M or 2G"
)]
pub enum MemoryLimit {
    Bytes(u64),
    Text(String),
}

impl Default for MemoryLimit {
    fn default() -> MemoryLimit {
        MemoryLimit::Text(format!("{}M", DEFAULT_MAX_MEMORY >> 20))
    }
}

impl std::fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoryLimit::Bytes(b) => write!(f, "{b}"),
            MemoryLimit::Text(t) => write!(f, "{t}"),
        }
    }
}

impl FromStr for MemoryLimit {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<MemoryLimit, Self::Err> {
        Ok(MemoryLimit::Text(s.to_string()))
    }
}

impl MemoryLimit {
    /// The limit in bytes, checked ([`options::memory`]).
    pub fn bytes(&self, option: &'static str) -> Result<usize, OptionsError> {
        match self {
            MemoryLimit::Bytes(b) => {
                options::memory(option, usize::try_from(*b).unwrap_or(usize::MAX))
            }
            MemoryLimit::Text(t) => options::parse_memory(option, t),
        }
    }
}

/// How to read puzzles, for every front end that reads them: `grader`'s flag
/// on each subcommand, the Python keyword argument, a Dask task's option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields, default)]
pub struct HideOps {
    /// Read every puzzle with its operations hidden: a cage shows only its number,
    /// and any operation that makes it counts (+ or ×, and on two cells − or ÷).
    /// A batch entry can ask for it alone: {"puzzle": …, "hide_ops": true}.
    #[cfg_attr(feature = "clap", arg(long))]
    pub hide_ops: bool,
}

/// The grading options of `grader grade`, `batch`, `hint`, `check` and `render`, of
/// the Python package's `grade` and `grade_many`, and of a Dask grading task, as
/// given (see [`GradeOptions::settings`] for the checks).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(deny_unknown_fields, default)]
pub struct GradeOptions {
    /// n = the whole ladder (max and total rating); c = cage combinations only (max
    /// depth and steps); b = both.
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value_t = GradeOptions::default().mode))]
    pub mode: Mode,
    /// Switch a technique off (repeat the option or separate names with commas).
    /// See `grader techniques` for what each one does.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TECHNIQUE", value_delimiter = ',',
        value_parser = clap_support::technique_ids()))]
    #[serde(deserialize_with = "options::one_or_many")]
    pub disable: Vec<String>,
    /// Switch on a technique that is off by default (see `grader techniques`), in
    /// mode n; mode c stays cage combinations only.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TECHNIQUE", value_delimiter = ',',
        value_parser = clap_support::technique_ids()))]
    #[serde(deserialize_with = "options::one_or_many")]
    pub enable: Vec<String>,
    /// The largest number of cages a cage-combination step may combine: 2 to 8.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_hyphen_values = true, default_value_t = GradeOptions::default().max_depth))]
    pub max_depth: i64,
    /// Give up on a puzzle after this many seconds (fractions allowed), counted from
    /// when its grading starts: its runs end with status `timeout` and the ratings
    /// reached so far. The exhaustive solution count is bounded too (`grade` counts
    /// first; `batch` counts only when a run does not solve the puzzle); when it
    /// runs out of time the status is `timeout`.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "SECONDS", allow_hyphen_values = true)
    )]
    pub timeout: Option<f64>,
    /// The most memory one puzzle's grading may hold (its combination tables, the
    /// solution count's and each run's working tables), e.g. `256M`, `2G`; a
    /// puzzle that needs more ends with status `limit` and the ratings reached so
    /// far. A batch holds at most this much per job (`--jobs`), plus a few MiB.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "SIZE", default_value_t = GradeOptions::default().max_memory)
    )]
    pub max_memory: MemoryLimit,
    /// The most work one run may do, in elementary checks (a combination tested, a
    /// footprint compared: a few nanoseconds each); a run that needs more ends with
    /// status `limit`. The default, 2^33, is about half a minute of work at worst;
    /// the hardest puzzle of the corpus needs under 10^8. So without `--timeout` a
    /// pathological puzzle still ends, with the same result on every machine.
    #[cfg_attr(feature = "clap", arg(long, value_name = "CHECKS", allow_hyphen_values = true, default_value_t = GradeOptions::default().max_work))]
    pub max_work: u64,
}

impl Default for GradeOptions {
    fn default() -> GradeOptions {
        GradeOptions {
            mode: Mode::N,
            disable: Vec::new(),
            enable: Vec::new(),
            max_depth: i64::from(DEFAULT_MAX_DEPTH),
            timeout: None,
            max_memory: MemoryLimit::default(),
            max_work: Limits::DEFAULT_WORK,
        }
    }
}

impl GradeOptions {
    /// The options checked: technique ids that can be switched, a depth of 2 to 8,
    /// a positive finite timeout, a memory limit of at least 1M, some work.
    pub fn settings(&self) -> Result<GradeSettings, OptionsError> {
        Ok(GradeSettings {
            mode: self.mode,
            disable: TechniqueKind::switchable_list("disable", &self.disable)?,
            enable: TechniqueKind::switchable_list("enable", &self.enable)?,
            max_depth: Options::checked_max_depth("max_depth", self.max_depth)? as u8,
            timeout: self
                .timeout
                .map(|t| options::seconds("timeout", t))
                .transpose()?,
            max_memory: self.max_memory.bytes("max_memory")?,
            max_work: options::count_in(
                "max_work",
                i64::try_from(self.max_work).unwrap_or(i64::MAX),
                1..=i64::MAX,
            )? as u64,
        })
    }
}

#[cfg(feature = "clap")]
mod clap_support {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    use kenken_techniques::TechniqueKind;

    /// The ids of the techniques that can be switched, with their names, for
    /// `--help` and clap's own check.
    pub fn technique_ids() -> PossibleValuesParser {
        PossibleValuesParser::new(
            TechniqueKind::all()
                .filter(|&k| k != TechniqueKind::PROPAGATION)
                .map(|k| PossibleValue::new(k.id()).help(k.name())),
        )
    }
}

/// How to grade each puzzle: [`GradeOptions`] checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeSettings {
    pub mode: Mode,
    /// Techniques switched off (in both runs).
    pub disable: Vec<TechniqueKind>,
    /// Techniques off by default switched on (in mode n's run).
    pub enable: Vec<TechniqueKind>,
    /// 2 to 8.
    pub max_depth: u8,
    /// Per puzzle, counted from when its grading starts.
    pub timeout: Option<Duration>,
    /// Bytes one puzzle's grading may hold.
    pub max_memory: usize,
    /// Elementary checks one run may make.
    pub max_work: u64,
}

impl Default for GradeSettings {
    fn default() -> GradeSettings {
        GradeOptions::default()
            .settings()
            .expect("the default options are valid")
    }
}

impl GradeSettings {
    /// The mode-n and mode-c runs of the mode, with these switches.
    pub fn runs(&self) -> Runs {
        let with_switches = |mut options: Options| {
            for &t in &self.disable {
                options.disable(t);
            }
            options.max_depth = usize::from(self.max_depth);
            options
        };
        let mut normal = Options::default();
        for &t in &self.enable {
            normal.enable(t);
        }
        Runs {
            normal: (self.mode != Mode::C).then(|| with_switches(normal)),
            cc: (self.mode != Mode::N).then(|| with_switches(Options::cage_combinations_only())),
            timeout: self.timeout,
            limits: Limits {
                deadline: None,
                memory: self.max_memory,
                work: self.max_work,
            },
        }
    }
}

/// The options of the runs a mode asks for, and the limits of a puzzle's grading.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Mode n's run (modes n and b).
    pub normal: Option<Options>,
    /// Mode c's run (modes c and b).
    pub cc: Option<Options>,
    /// The timeout: see [`Runs::starting_now`].
    pub timeout: Option<Duration>,
    /// The memory and work limits, and once started the deadline.
    pub limits: Limits,
}

impl Runs {
    /// The runs of one puzzle whose clock starts now: with a timeout, the whole
    /// grading (the tables, the solution count and both runs, which may run side by
    /// side) shares the deadline now + timeout.
    pub fn starting_now(&self) -> Runs {
        Runs {
            limits: self.limits.until(self.timeout.map(|t| Instant::now() + t)),
            ..*self
        }
    }

    /// The run whose steps a one-puzzle report shows: mode n's, or mode c's in
    /// mode c.
    pub fn shown(&self) -> Options {
        self.normal.or(self.cc).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_depth_default_is_the_ladders() {
        assert_eq!(usize::from(DEFAULT_MAX_DEPTH), Options::default().max_depth);
        assert_eq!(
            usize::from(DEFAULT_MAX_DEPTH),
            Options::cage_combinations_only().max_depth
        );
    }

    #[test]
    fn modes_are_named() {
        for mode in [Mode::N, Mode::C, Mode::B] {
            assert_eq!(Mode::from_name(mode.name()), Ok(mode));
        }
        assert!(Mode::from_name("x").is_err());
    }

    #[test]
    fn options_are_checked_with_their_names() {
        let bad = |o: GradeOptions| o.settings().unwrap_err().to_string();
        let base = GradeOptions::default;
        assert_eq!(
            bad(GradeOptions {
                max_depth: 9,
                ..base()
            }),
            "max_depth must be 2 to 8, not 9"
        );
        assert!(bad(GradeOptions {
            timeout: Some(f64::NAN),
            ..base()
        })
        .starts_with("timeout must be a positive number of seconds"));
        assert!(bad(GradeOptions {
            disable: vec!["fish,nope".into()],
            ..base()
        })
        .starts_with("disable takes technique ids"));
        // An empty id is no technique's: refused, not taken for none.
        for empty in ["", " ", "fish,", ",fish"] {
            assert!(
                bad(GradeOptions {
                    enable: vec![empty.into()],
                    ..base()
                })
                .ends_with(", not \"\""),
                "{empty:?}"
            );
        }
        assert_eq!(
            bad(GradeOptions {
                max_memory: MemoryLimit::Text("12".into()),
                ..base()
            }),
            "max_memory must be at least 1M, not 12 bytes"
        );
        assert_eq!(
            bad(GradeOptions {
                max_work: 0,
                ..base()
            }),
            "max_work must be at least 1, not 0"
        );
        let fine = GradeOptions {
            disable: vec!["fish,pointing".into()],
            timeout: Some(0.5),
            ..base()
        }
        .settings()
        .unwrap();
        assert_eq!(fine.disable.len(), 2);
        assert_eq!(fine.timeout, Some(Duration::from_millis(500)));
    }

    #[test]
    fn options_read_from_json() {
        let o: GradeOptions =
            serde_json::from_str(r#"{"mode":"b","disable":"fish","max_memory":"1G"}"#).unwrap();
        assert_eq!(o.mode, Mode::B);
        assert_eq!(o.disable, vec!["fish".to_string()]);
        assert_eq!(o.settings().unwrap().max_memory, 1 << 30);
        assert!(serde_json::from_str::<GradeOptions>(r#"{"nope":1}"#).is_err());
    }
}
