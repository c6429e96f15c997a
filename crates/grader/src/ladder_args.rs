//! The ladder options shared by `grade` and `batch`: `--disable` and `--max-depth`,
//! turned into [`Options`] for mode n (the whole ladder) or mode c (cage
//! combinations only). The technique names come from [`TechniqueKind`], the one
//! table that also drives `grader techniques`.

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use kenken_techniques::{Options, TechniqueKind};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// Which ladders to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Normal: the whole ladder.
    N,
    /// Cage combinations only (with propagation).
    C,
    /// Both.
    B,
}

#[derive(Args, Debug, Clone)]
pub struct LadderArgs {
    /// n = the whole ladder (max and total rating); c = cage combinations only (max
    /// depth and steps); b = both.
    #[arg(long, value_enum, default_value = "n")]
    pub mode: Mode,
    /// Switch a technique off (repeat the option or separate names with commas).
    /// See `grader techniques` for what each one does.
    #[arg(long, value_name = "TECHNIQUE", value_delimiter = ',')]
    pub disable: Vec<TechniqueArg>,
    /// The largest number of cages a cage-combination step may combine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=8))]
    pub max_depth: Option<u8>,
    /// Give up on a puzzle after this many seconds (fractions allowed), counted from
    /// when its grading starts: its runs end with status `timeout` and the ratings
    /// reached so far. The exhaustive solution count is bounded too (`grade` counts
    /// first; `batch` counts only when a run does not solve the puzzle); when it
    /// runs out of time the status is `timeout`.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

/// A positive number of seconds.
fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if secs.is_finite() && secs > 0.0 {
        Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
    } else {
        Err(format!(
            "the timeout must be a positive number of seconds, not {s}"
        ))
    }
}

/// The options of the runs a mode asks for.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Mode n's run (modes n and b).
    pub normal: Option<Options>,
    /// Mode c's run (modes c and b).
    pub cc: Option<Options>,
    /// `--timeout`: see [`Runs::starting_now`].
    pub timeout: Option<Duration>,
}

impl LadderArgs {
    /// The mode-n and mode-c runs of `--mode`, with these switches.
    pub fn runs(&self) -> Runs {
        let with_switches = |mut options: Options| {
            for t in &self.disable {
                options.disable(t.0);
            }
            if let Some(d) = self.max_depth {
                options.max_depth = usize::from(d);
            }
            options
        };
        Runs {
            normal: (self.mode != Mode::C).then(|| with_switches(Options::default())),
            cc: (self.mode != Mode::N).then(|| with_switches(Options::cage_combinations_only())),
            timeout: self.timeout,
        }
    }
}

impl Runs {
    /// The runs of one puzzle whose clock starts now: with `--timeout`, both runs
    /// (which may run side by side) share the deadline now + timeout.
    pub fn starting_now(&self) -> Runs {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let with_deadline = |o: Option<Options>| {
            o.map(|mut o| {
                o.deadline = deadline;
                o
            })
        };
        Runs {
            normal: with_deadline(self.normal),
            cc: with_deadline(self.cc),
            timeout: self.timeout,
        }
    }

    /// The runs' deadline (set by [`Runs::starting_now`] with `--timeout`).
    pub fn deadline(&self) -> Option<Instant> {
        self.normal.or(self.cc).and_then(|o| o.deadline)
    }

    /// The run whose steps a one-puzzle report shows: mode n's, or mode c's in
    /// mode c.
    pub fn shown(&self) -> Options {
        self.normal.or(self.cc).unwrap_or_default()
    }
}

/// A technique that can be switched off (every kind but propagation), named by its
/// [`TechniqueKind::id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TechniqueArg(pub TechniqueKind);

static SWITCHABLE: LazyLock<Vec<TechniqueArg>> = LazyLock::new(|| {
    TechniqueKind::ALL
        .into_iter()
        .filter(|&k| k != TechniqueKind::NakedSingle)
        .map(TechniqueArg)
        .collect()
});

impl ValueEnum for TechniqueArg {
    fn value_variants<'a>() -> &'a [Self] {
        &SWITCHABLE
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.id()).help(self.0.name()))
    }
}
