//! The [`Technique`] trait, the technique names and ratings, and the options and
//! memory a ladder run carries from step to step.

use crate::{State, Step};
use std::fmt;
use std::ops::RangeInclusive;
use std::time::Instant;

/// Every technique of the ladder, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TechniqueKind {
    NakedSingle,
    HiddenSingle,
    Claiming,
    Pointing,
    HiddenSubset,
    Fish,
    RegionParity,
    RegionSum,
    CageCombination,
}

impl TechniqueKind {
    /// All kinds in ladder order.
    pub const ALL: [TechniqueKind; 9] = [
        TechniqueKind::NakedSingle,
        TechniqueKind::HiddenSingle,
        TechniqueKind::Claiming,
        TechniqueKind::Pointing,
        TechniqueKind::HiddenSubset,
        TechniqueKind::Fish,
        TechniqueKind::RegionParity,
        TechniqueKind::RegionSum,
        TechniqueKind::CageCombination,
    ];

    /// The name used in step logs.
    pub fn name(self) -> &'static str {
        match self {
            TechniqueKind::NakedSingle => "Naked single",
            TechniqueKind::HiddenSingle => "Hidden single",
            TechniqueKind::Claiming => "Claiming candidates",
            TechniqueKind::Pointing => "Pointing candidates",
            TechniqueKind::HiddenSubset => "Hidden subset",
            TechniqueKind::Fish => "Fish",
            TechniqueKind::RegionParity => "Region parity",
            TechniqueKind::RegionSum => "Region sum",
            TechniqueKind::CageCombination => "Cage comparison",
        }
    }

    /// The identifier used on the command line (`--disable hidden-subset`).
    pub fn id(self) -> &'static str {
        match self {
            TechniqueKind::NakedSingle => "naked-single",
            TechniqueKind::HiddenSingle => "hidden-single",
            TechniqueKind::Claiming => "claiming",
            TechniqueKind::Pointing => "pointing",
            TechniqueKind::HiddenSubset => "hidden-subset",
            TechniqueKind::Fish => "fish",
            TechniqueKind::RegionParity => "region-parity",
            TechniqueKind::RegionSum => "region-sum",
            TechniqueKind::CageCombination => "cage-combination",
        }
    }

    /// The published rating rule.
    pub fn rating_rule(self) -> &'static str {
        match self {
            TechniqueKind::NakedSingle => "0 (propagation, with the combination filter)",
            TechniqueKind::HiddenSingle => "1",
            TechniqueKind::Claiming | TechniqueKind::Pointing => "1.5",
            TechniqueKind::HiddenSubset | TechniqueKind::Fish => {
                "2 + (k-2)/10 for size k, at most 2.9"
            }
            TechniqueKind::RegionParity => "3.0 one line, 3.1 several lines",
            TechniqueKind::RegionSum => {
                "3 + (u-1)/5 for u unknown sums, +0.1 over several lines, at most 3.9"
            }
            TechniqueKind::CageCombination => "4 + (n-2)/5 for n cages",
        }
    }

    /// What it finds, in one sentence.
    pub fn summary(self) -> &'static str {
        match self {
            TechniqueKind::NakedSingle => "a cell with one candidate is placed; impossible cage combinations are dropped",
            TechniqueKind::HiddenSingle => "a digit with one place left in a row or column",
            TechniqueKind::Claiming => "a digit whose places in a line all lie in one cage: the cage must put it there",
            TechniqueKind::Pointing => "every combination of a cage puts a digit in a line: the rest of the line loses it",
            TechniqueKind::HiddenSubset => "k digits of a line confined to k cells: those cells lose every other digit",
            TechniqueKind::Fish => "a digit confined to k columns in k rows (or the reverse): X-Wing, Swordfish, Jellyfish",
            TechniqueKind::RegionParity => "a slice of lines whose one unknown cage part must be odd or even",
            TechniqueKind::RegionSum => "a slice of lines adds up to a known total: the unknown cage parts must make up the rest",
            TechniqueKind::CageCombination => "a combination of a cage that no combination of n-1 linked cages can accompany",
        }
    }

    /// The kind named `id` (see [`TechniqueKind::id`]).
    pub fn from_id(id: &str) -> Option<TechniqueKind> {
        TechniqueKind::ALL.into_iter().find(|k| k.id() == id)
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for TechniqueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which techniques may be used, how deep cage combinations may go, and until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    enabled: u16,
    /// The largest number of cages a cage-combination step may combine (2..=8).
    pub max_depth: usize,
    /// When set, a run gives up once this instant has passed and ends with
    /// [`Status::TimedOut`](crate::Status::TimedOut) (checked before every step and
    /// every few hundred cage sets, so it stops within milliseconds).
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            enabled: u16::MAX,
            max_depth: 8,
            deadline: None,
        }
    }
}

impl Options {
    /// The cage-combinations-only ladder of mode c.
    pub fn cage_combinations_only() -> Options {
        Options {
            enabled: TechniqueKind::NakedSingle.bit() | TechniqueKind::CageCombination.bit(),
            ..Options::default()
        }
    }

    pub fn is_enabled(&self, kind: TechniqueKind) -> bool {
        kind == TechniqueKind::NakedSingle || self.enabled & kind.bit() != 0
    }

    /// Switches a technique off (propagation cannot be switched off).
    pub fn disable(&mut self, kind: TechniqueKind) {
        self.enabled &= !kind.bit();
    }

    pub fn enable(&mut self, kind: TechniqueKind) {
        self.enabled |= kind.bit();
    }
}

/// What a ladder run remembers between steps: the options and the cage-combination
/// search position (which also decides how many unknowns region sums may use).
///
/// It also keeps what techniques found to remove nothing (cage sets, slices' sums,
/// cages that point at nothing), to skip it while the cages involved stay the
/// same: a run that takes more than one step with the same context must report,
/// after applying each step and propagating, which cages' combinations changed
/// ([`Context::cages_changed`], from [`State::take_changed_cages`]), as
/// [`Grader`](crate::Grader) runs do.
#[derive(Clone, Debug)]
pub struct Context {
    pub options: Options,
    pub(crate) combos: crate::techniques::cage_combination::Memory,
    pub(crate) totals: crate::techniques::region_totals::Memory,
    pub(crate) pointing: crate::techniques::pointing::Memory,
    /// Set once the deadline has passed: every search then gives up.
    pub(crate) timed_out: bool,
    /// Whether the steps found are shown (true unless the run keeps no log; see
    /// [`Context::quiet`]).
    pub(crate) explain: bool,
}

impl Context {
    pub fn new(options: Options, cage_count: usize) -> Context {
        Context {
            options,
            combos: crate::techniques::cage_combination::Memory::new(cage_count),
            totals: crate::techniques::region_totals::Memory::default(),
            pointing: crate::techniques::pointing::Memory::default(),
            timed_out: false,
            explain: true,
        }
    }

    /// For a run whose steps nobody sees (ratings only): cage-combination steps,
    /// which make up whole runs in mode c, then leave out the candidates their cuts
    /// remove, which applying the cuts and propagating removes all the same.
    pub fn quiet(mut self) -> Context {
        self.explain = false;
        self
    }

    /// The deepest cage-combination level tried so far (1 before any).
    pub fn deepest_level(&self) -> usize {
        self.combos.deepest
    }

    /// Whether the run's deadline has passed (then the ladder finds nothing more).
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// Checks the clock against the deadline (and remembers a miss).
    pub(crate) fn out_of_time(&mut self) -> bool {
        if !self.timed_out {
            self.timed_out = self.options.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.timed_out
    }

    /// Records that these cages' combinations changed (after a step; see
    /// [`Context`]).
    pub fn cages_changed(&mut self, cages: &[kenken_model::CageId]) {
        self.combos.cages_changed(cages);
    }
}

/// A technique of the ladder: finds the first step it allows on a state, in the
/// specified search order, without changing the state.
pub trait Technique: Sync {
    /// The kinds of step it produces (two for interleaved searches).
    fn kinds(&self) -> &'static [TechniqueKind];

    /// The size parameters to try, in order (subset/fish size k, unknowns u, …);
    /// a technique without one returns `1..=1`.
    fn sizes(&self, _state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        1..=1
    }

    /// The first step of this size, if any.
    fn find(&self, state: &State, ctx: &mut Context, size: usize) -> Option<Step>;
}
