//! The ladder options shared by `grade` and `batch`: `--disable` and `--max-depth`,
//! turned into [`Options`] for mode n (the whole ladder) or mode c (cage
//! combinations only). The technique names come from [`TechniqueKind`], the one
//! table that also drives `grader techniques`.

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use kenken_model::budget::Bytes;
use kenken_model::Limits;
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

/// `--max-depth`'s default: the ladder's own ([`Options::default`]).
const DEFAULT_MAX_DEPTH: u8 = 8;

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

/// A byte count: a number with an optional `K`, `M` or `G` suffix (powers of 1024;
/// `KiB`, `MiB`, `GiB` and `B` also accepted).
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{s}` is not a size (a number with K, M or G)")),
    };
    let number: usize = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size (a number with K, M or G)"))?;
    let bytes = number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if bytes < 1 << 20 {
        return Err(format!(
            "the memory limit must be at least 1M, not {}",
            Bytes(bytes)
        ));
    }
    Ok(bytes)
}

/// A positive number of seconds.
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
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

/// The options of the runs a mode asks for, and the limits of a puzzle's grading.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Mode n's run (modes n and b).
    pub normal: Option<Options>,
    /// Mode c's run (modes c and b).
    pub cc: Option<Options>,
    /// `--timeout`: see [`Runs::starting_now`].
    pub timeout: Option<Duration>,
    /// `--max-memory` and `--max-work`, and once started the deadline.
    pub limits: Limits,
}

impl LadderArgs {
    /// The mode-n and mode-c runs of `--mode`, with these switches.
    pub fn runs(&self) -> Runs {
        let with_switches = |mut options: Options| {
            for t in &self.disable {
                options.disable(t.0);
            }
            options.max_depth = usize::from(self.max_depth);
            options
        };
        let mut normal = Options::default();
        for t in &self.enable {
            normal.enable(t.0);
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

impl Runs {
    /// The runs of one puzzle whose clock starts now: with `--timeout`, the whole
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
}
