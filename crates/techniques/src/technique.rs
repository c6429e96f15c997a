//! The [`Technique`] trait, the technique names and ratings, and the options and
//! memory a ladder run carries from step to step.

use crate::state::bits;
use crate::{State, Step};
use kenken_model::{Budget, Exhausted};
use std::fmt;
use std::ops::RangeInclusive;

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

    pub(crate) fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for TechniqueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which techniques may be used and how deep cage combinations may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    enabled: u16,
    /// The largest number of cages a cage-combination step may combine (2..=8).
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            enabled: u16::MAX,
            max_depth: 8,
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
        kind == TechniqueKind::NakedSingle || self.any_enabled(kind.bit())
    }

    /// Whether any of these kinds (as a set of [`TechniqueKind::bit`]s) is enabled.
    pub(crate) fn any_enabled(&self, kinds: u16) -> bool {
        self.enabled & kinds != 0
    }

    /// Switches a technique off (propagation cannot be switched off).
    pub fn disable(&mut self, kind: TechniqueKind) {
        self.enabled &= !kind.bit();
    }

    pub fn enable(&mut self, kind: TechniqueKind) {
        self.enabled |= kind.bit();
    }
}

/// What a ladder run remembers between steps: the options, the budget it runs
/// within, and the cage-combination search position (which also decides how many
/// unknowns region sums may use).
///
/// It also keeps what techniques found to remove nothing (cage sets, slices,
/// cages that point at nothing, regions, digits without a fish), to skip it while
/// what it depends on stays the same: a run that takes more than one step with
/// the same context must report, after applying each step and propagating, which
/// cages' combinations changed ([`Context::cages_changed`], from
/// [`State::take_changed_cages`]), as [`Grader`](crate::Grader) runs do.
#[derive(Clone, Debug)]
pub struct Context {
    pub options: Options,
    pub(crate) combos: crate::techniques::cage_combination::Memory,
    pub(crate) totals: crate::techniques::region_totals::Memory,
    pub(crate) pointing: crate::techniques::pointing::Memory,
    pub(crate) fish: crate::techniques::fish::Memory,
    pub(crate) regions: RegionMemo,
    /// The deadline, work and memory the run may use: every technique spends its
    /// work here and reserves its large tables here; once it is exhausted, every
    /// search gives up and the ladder finds nothing more.
    pub(crate) budget: Budget,
    /// Whether the steps found are shown (true unless the run keeps no log; see
    /// [`Context::quiet`]).
    pub(crate) explain: bool,
    /// Whether techniques skip what they found barren while it stays the same
    /// (always, but in the test that checks the skips against a run without them).
    pub(crate) memos: bool,
}

impl Context {
    /// A run without bounds (see [`Context::within`]).
    pub fn new(options: Options, cage_count: usize) -> Context {
        Context::within(options, cage_count, Budget::unlimited())
    }

    /// A run that spends its work and holds its tables on `budget`.
    pub fn within(options: Options, cage_count: usize, budget: Budget) -> Context {
        Context {
            options,
            combos: crate::techniques::cage_combination::Memory::new(cage_count),
            totals: crate::techniques::region_totals::Memory::default(),
            pointing: crate::techniques::pointing::Memory::default(),
            fish: crate::techniques::fish::Memory::default(),
            regions: RegionMemo::default(),
            budget,
            explain: true,
            memos: true,
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

    /// Why the run's budget is exhausted, if it is (then the ladder finds nothing
    /// more).
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.budget.exhausted()
    }

    /// The run's budget.
    pub fn budget(&mut self) -> &mut Budget {
        &mut self.budget
    }

    /// Records that these cages' combinations changed (after a step; see
    /// [`Context`]).
    pub fn cages_changed(&mut self, cages: &[kenken_model::CageId]) {
        self.combos.cages_changed(cages);
        self.regions.cages_changed(cages, self.combos.clock());
    }
}

/// When a region-scanning technique last found nothing in each region, so that a
/// region whose cells did not change since is skipped (this changes no result,
/// only the time spent).
///
/// A region's cells change only with the combinations of their cages: after
/// propagation a cell's candidates are exactly what its cage's live combinations
/// put there, so a candidate lost is a combination lost, and a cell placed is a
/// cell whose candidates shrank to one. While none of the cages holding a cell of
/// the region changed, its cells have the candidates they had.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegionMemo {
    /// Per (slot, region), 1 + the cage-change tick it was last found barren at,
    /// 0 for never; slots are laid out by the techniques (see [`RegionMemo::CLAIMING`]).
    barren: Vec<u32>,
    /// Per region, the last tick a cage holding one of its cells changed.
    changed_at: Vec<u32>,
    /// Per cage, the regions holding its cells ([`crate::Layout::cage_regions`],
    /// kept for [`Context::cages_changed`], which has no state to read them from).
    cage_regions: Vec<u64>,
}

impl RegionMemo {
    /// Slots: claiming, then hidden subsets of size k at slot k (2..=N−2).
    pub(crate) const CLAIMING: usize = 0;
    const SLOTS: usize = kenken_model::MAX_SIZE + 1;

    /// Set up at the first look, from the cages' own ticks so far.
    fn init(&mut self, state: &State, cage_changed_at: &[u32]) {
        let layout = state.layout();
        let regions = layout.regions().len();
        self.barren = vec![0; regions * Self::SLOTS];
        self.changed_at = vec![0; regions];
        self.cage_regions = layout.cage_regions().to_vec();
        for (&regions, &tick) in self.cage_regions.iter().zip(cage_changed_at) {
            for r in bits(regions) {
                self.changed_at[r] = self.changed_at[r].max(tick);
            }
        }
    }

    fn cages_changed(&mut self, cages: &[kenken_model::CageId], tick: u32) {
        for c in cages {
            if let Some(&regions) = self.cage_regions.get(c.index()) {
                for r in bits(regions) {
                    self.changed_at[r] = tick;
                }
            }
        }
    }
}

/// Whether what a search found barren at `stamp` (1 + the cage-change tick it
/// found nothing at, 0 for never) is barren still, when what it read last changed
/// at tick `changed_at`: the form of every "found nothing, skip while unchanged"
/// memo of the ladder.
pub(crate) fn still_barren(stamp: u32, changed_at: u32) -> bool {
    stamp.checked_sub(1).is_some_and(|tick| changed_at <= tick)
}

impl Context {
    /// Whether `slot`'s technique found nothing in `region` and the region has not
    /// changed since (see [`RegionMemo`]).
    pub(crate) fn region_barren(&mut self, state: &State, slot: usize, region: usize) -> bool {
        if !self.memos {
            return false;
        }
        if self.regions.barren.is_empty() {
            self.regions.init(state, self.combos.changed_at());
        }
        let memo = &self.regions;
        let regions = memo.changed_at.len();
        still_barren(
            memo.barren[slot * regions + region],
            memo.changed_at[region],
        )
    }

    /// Records that `slot`'s technique found nothing in `region` now (after
    /// [`Context::region_barren`] for it).
    pub(crate) fn mark_region_barren(&mut self, slot: usize, region: usize) {
        if !self.memos {
            return;
        }
        let regions = self.regions.changed_at.len();
        self.regions.barren[slot * regions + region] = self.combos.clock() + 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ladder, Grader};

    /// Every step of a run (naked singles aside), with or without the skips of what
    /// was found barren.
    fn steps(grader: &Grader, options: Options, memos: bool) -> Vec<Step> {
        let (mut state, _) = grader.start();
        let mut ctx = Context::new(options, grader.layout().cage_count());
        ctx.memos = memos;
        let (mut steps, mut changed) = (Vec::new(), Vec::new());
        while !state.is_solved() {
            let Some(step) = ladder::next_step(&state, &mut ctx) else {
                break;
            };
            state.apply(&step);
            steps.push(step);
            if state.propagate().is_err() {
                break;
            }
            state.take_changed_cages_into(&mut changed);
            ctx.cages_changed(&changed);
        }
        steps
    }

    /// The skips (cage sets, slices, pointing cages, regions and fish digits found
    /// barren while they stay the same) change no step: every puzzle of the
    /// reference corpus, in modes n and c, gives the same steps, reasons and
    /// removals with them as without them.
    #[test]
    fn memos_change_no_step() {
        let corpus: Vec<String> =
            serde_json::from_str(include_str!("../../../puzzles/reference-corpus.json"))
                .expect("a JSON array of game IDs");
        let mut compared = 0;
        for id in &corpus {
            let puzzle = kenken_formats::tatham::read(id).expect("puzzle");
            let grader = Grader::new(&puzzle).expect("grader");
            for options in [Options::default(), Options::cage_combinations_only()] {
                let with = steps(&grader, options, true);
                let without = steps(&grader, options, false);
                assert_eq!(with, without, "{id}");
                compared += with.len();
            }
        }
        assert!(compared > 10_000, "only {compared} steps compared");
    }
}
