//! The ladder options shared by `grade` and `batch`: `--disable` and `--max-depth`,
//! turned into [`Options`] for mode n (the whole ladder) or mode c (cage
//! combinations only). The technique names come from [`TechniqueKind`], the one
//! table that also drives `grader techniques`.

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use kenken_techniques::{Options, TechniqueKind};
use std::sync::LazyLock;

/// Which ladder a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Ladder {
    /// Normal: the whole ladder.
    N,
    /// Cage combinations only (with propagation).
    C,
}

#[derive(Args, Debug, Clone)]
pub struct LadderArgs {
    /// Switch a technique off (repeat the option or separate names with commas).
    /// See `grader techniques` for what each one does.
    #[arg(long, value_name = "TECHNIQUE", value_delimiter = ',')]
    pub disable: Vec<TechniqueArg>,
    /// The largest number of cages a cage-combination step may combine.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=8))]
    pub max_depth: Option<u8>,
}

impl LadderArgs {
    /// The options of a ladder run with these switches.
    pub fn options(&self, ladder: Ladder) -> Options {
        let mut options = match ladder {
            Ladder::N => Options::default(),
            Ladder::C => Options::cage_combinations_only(),
        };
        for t in &self.disable {
            options.disable(t.0);
        }
        if let Some(d) = self.max_depth {
            options.max_depth = usize::from(d);
        }
        options
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
