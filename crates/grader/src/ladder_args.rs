//! The ladder options shared by `grade` and `batch`: `--mode`, `--disable`,
//! `--max-depth` and the limits, turned into [`GradeSettings`] and from them into
//! the options of mode n (the whole ladder) and mode c (cage combinations only).
//! The technique names come from [`TechniqueKind`], the one table that also drives
//! `grader techniques`.

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
pub use kenken_batch::grading::parse_timeout;
use kenken_batch::grading::{parse_size, DEFAULT_MAX_DEPTH};
pub use kenken_batch::{GradeSettings, Mode, Runs};
use kenken_model::Limits;
use kenken_techniques::TechniqueKind;
use std::sync::LazyLock;
use std::time::Duration;

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
    /// Switch on a technique that is off by default (see `grader techniques`), in
    /// mode n; mode c stays cage combinations only.
    #[arg(long, value_name = "TECHNIQUE", value_delimiter = ',')]
    pub enable: Vec<TechniqueArg>,
    /// The largest number of cages a cage-combination step may combine: 2 to 8.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH,
          value_parser = clap::value_parser!(u8).range(2..=8))]
    pub max_depth: u8,
    /// Give up on a puzzle after this many seconds (fractions allowed), counted from
    /// when its grading starts: its runs end with status `timeout` and the ratings
    /// reached so far. The exhaustive solution count is bounded too (`grade` counts
    /// first; `batch` counts only when a run does not solve the puzzle); when it
    /// runs out of time the status is `timeout`.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// The most memory one puzzle's grading may hold (its combination tables, the
    /// solution count's and each run's working tables), e.g. `256M`, `2G`; a
    /// puzzle that needs more ends with status `limit` and the ratings reached so
    /// far. A batch holds at most this much per job (`--jobs`), plus a few MiB.
    #[arg(long, value_name = "SIZE", default_value = "512M", value_parser = parse_size)]
    pub max_memory: usize,
    /// The most work one run may do, in elementary checks (a combination tested, a
    /// footprint compared: a few nanoseconds each); a run that needs more ends with
    /// status `limit`. The default, 2^33, is about half a minute of work at worst;
    /// the hardest puzzle of the corpus needs under 10^8. So without `--timeout` a
    /// pathological puzzle still ends, with the same result on every machine.
    #[arg(long, value_name = "CHECKS", default_value_t = Limits::DEFAULT_WORK)]
    pub max_work: u64,
}

impl LadderArgs {
    /// What these options ask of each puzzle's grading.
    pub fn settings(&self) -> GradeSettings {
        GradeSettings {
            mode: self.mode,
            disable: self.disable.iter().map(|t| t.0).collect(),
            enable: self.enable.iter().map(|t| t.0).collect(),
            max_depth: self.max_depth,
            timeout: self.timeout,
            max_memory: self.max_memory,
            max_work: self.max_work,
        }
    }

    /// The mode-n and mode-c runs of `--mode`, with these switches.
    pub fn runs(&self) -> Runs {
        self.settings().runs()
    }
}

/// A technique that can be switched off (every kind but propagation), named by its
/// [`TechniqueKind::id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TechniqueArg(pub TechniqueKind);

static SWITCHABLE: LazyLock<Vec<TechniqueArg>> = LazyLock::new(|| {
    TechniqueKind::all()
        .filter(|&k| k != TechniqueKind::PROPAGATION)
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
