//! The [`Technique`] trait, the options of a run, and the [`Context`] every
//! technique of a run shares: the options, the budget, when each cage and region
//! last changed, and the deepest cage-combination level tried.

use crate::{Layout, Options, State, Step, TechniqueKind};
use kenken_model::{bits, Budget, CageId, Exhausted};
use std::ops::RangeInclusive;

/// A technique of the ladder, made for one run (see
/// [`Finder::New`](crate::registry::Finder::New)): it finds the first step it
/// allows on a state, in the order the ladder fixes (`docs/ladder.md`), without changing the state,
/// and keeps what it learns between steps (what it found barren, tables it
/// built) for itself.
pub trait Technique: Send {
    /// The size parameters to try, in order (subset or fish size k, cages n, …);
    /// a technique without one keeps the default `1..=1`.
    fn sizes(&self, _state: &State, _ctx: &Context) -> RangeInclusive<usize> {
        1..=1
    }

    /// The first step of this size, if any. Gives up (finding nothing) once the
    /// run's budget is exhausted.
    fn find(&mut self, state: &State, ctx: &mut Context, size: usize) -> Option<Step>;
}

/// The most cages one cage-combination step may combine (`docs/formats.md`'s "up to 8");
/// region sums then allow one more unknown part.
pub const MAX_CAGE_SET: usize = 8;

/// What every technique of a run shares.
#[derive(Clone, Debug)]
pub struct Context {
    pub options: Options,
    /// The deadline, work and memory the run may use: every technique spends its
    /// work here and reserves its large tables here; once it is exhausted, every
    /// search gives up and the ladder finds nothing more.
    pub(crate) budget: Budget,
    /// When each cage and region last changed.
    pub(crate) changes: Changes,
    /// The deepest cage-combination level tried so far (1 before any): region sums
    /// may use one more unknown than it (`docs/ladder.md` ties the two).
    pub(crate) deepest: usize,
    /// Whether the steps found are shown (false for a run that keeps no log: see
    /// [`Ladder::quiet`](crate::Ladder::quiet)).
    pub(crate) explain: bool,
    /// Whether techniques skip what they found barren while it stays the same
    /// (always, but in the test that checks the skips against a run without them).
    pub(crate) memos: bool,
    /// How cage combinations search (always [`Engine::Fast`], but in the tests that
    /// check it against the reference).
    pub(crate) engine: Engine,
}

/// Sets the walk of the deepest level tried checks before the search from the
/// combinations' side takes over (see [`Engine::Fast`]): that walk goes on from the
/// level's last success, where the next removing set is often near (at level 6 of
/// 26 slow hidden-operation 8×8s and 9×9s, it met one in 46 % of its searches,
/// after 3–4 ms), while checking 5 000 sets costs 15–40 ms.
const WALK_BEFORE_CORES: u64 = 5_000;

/// The same for a shallower level, which walks only the sets holding a cage changed
/// since it last found nothing: such a walk seldom meets a removing set (in 8 %
/// of those searches at level 6 on the same puzzles), and checking 5 000 sets
/// there cost as much as the search it then handed over to.
const DIRTY_WALK_BEFORE_CORES: u64 = 1_000;

/// The same as [`WALK_BEFORE_CORES`] once the level keeps what an earlier search
/// from the combinations' side found: that search then repairs it (it searches
/// only the cores a step may have made), which costs less than a first search, so
/// a shorter walk pays. (Measured against 5 000 and 1 000 for both: 26 slow
/// hidden-operation 8×8s and 9×9s, 0.87–0.90 of the time; the three seven-cage 9×9s,
/// 0.88; 17 middling hidden ones, 0.99–1.06, noise; shorter walks before a first
/// search made those 1.14 times slower.)
const WALK_BEFORE_REPAIR: u64 = 300;

/// The same as [`DIRTY_WALK_BEFORE_CORES`] before a repair.
const DIRTY_WALK_BEFORE_REPAIR: u64 = 200;

/// How cage combinations find the sets that remove something. Every engine finds
/// the same steps: they differ in time only, and the tests check that they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Set by set up to level 4, and up to level 5 when an operation is hidden,
    /// where that is quicker: a removing set is usually met early, and the search
    /// from the combinations' side costs more to set up than the walk (a hidden
    /// cage's table is the union of its operations' tables: handing level 5 over
    /// too made middling hidden 9×9s 1.2–2.3 times slower). From level 5 on (6
    /// with hidden operations), whenever the smaller levels found nothing, the
    /// walk checks its first [`WALK_BEFORE_CORES`] sets at the deepest level
    /// tried, or its first [`DIRTY_WALK_BEFORE_CORES`] at a shallower one (fewer
    /// once that search has results to repair), and then hands the level over to
    /// the search from the combinations' side.
    Fast,
    /// From the combinations' side from this level on (at least 3), whenever the
    /// smaller levels found nothing: for the tests, which so cover that search on
    /// every puzzle.
    CoresFrom(usize),
    /// Every set checked on its own, from scratch.
    Reference,
}

impl Engine {
    /// How many sets the walk checks before a level searched from the combinations'
    /// side (see [`Engine::by_cores`]) hands over to that search (`None`: that search
    /// answers the level from the start), at the deepest level tried so far or at a
    /// shallower one, before that search's first answer for the level or before it
    /// repairs what it kept (`repair`).
    pub(crate) fn walk_before_cores(self, deepest: bool, repair: bool) -> Option<u64> {
        match self {
            Engine::Fast => Some(match (deepest, repair) {
                (true, false) => WALK_BEFORE_CORES,
                (false, false) => DIRTY_WALK_BEFORE_CORES,
                (true, true) => WALK_BEFORE_REPAIR,
                (false, true) => DIRTY_WALK_BEFORE_REPAIR,
            }),
            Engine::CoresFrom(_) | Engine::Reference => None,
        }
    }

    /// Whether level `n` is searched from the combinations' side (when every smaller
    /// level found nothing), in a puzzle with or without hidden operations.
    pub(crate) fn by_cores(self, n: usize, hidden_ops: bool) -> bool {
        match self {
            Engine::Fast => n >= if hidden_ops { 6 } else { 5 },
            Engine::CoresFrom(from) => n >= from.max(3),
            Engine::Reference => false,
        }
    }
}

impl Context {
    /// A context for a run over a puzzle of this layout (a [`Ladder`](crate::Ladder)
    /// makes its own; this is for trying one technique on its own).
    pub fn new(options: Options, layout: &Layout, budget: Budget) -> Context {
        Context {
            options,
            budget,
            changes: Changes::new(layout),
            deepest: 1,
            explain: true,
            memos: true,
            engine: Engine::Fast,
        }
    }

    /// The deepest cage-combination level tried so far (1 before any).
    pub fn deepest_level(&self) -> usize {
        self.deepest
    }

    /// Why the run's budget is exhausted, if it is.
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.budget.exhausted()
    }
}

/// When each cage and each region last changed, as ticks of a clock that moves
/// once per step that changed a cage. What a technique found barren at a tick is
/// barren still while what it read has not changed since (see [`still_barren`]).
///
/// A region's cells change only with the combinations of their cages: after
/// propagation a cell's candidates are exactly what its cage's live combinations
/// put there, so a candidate lost is a combination lost, and a cell placed is a
/// cell whose candidates shrank to one.
#[derive(Clone, Debug)]
pub(crate) struct Changes {
    clock: u32,
    cage: Vec<u32>,
    region: Vec<u32>,
    /// Per cage, the regions holding its cells, as a bit set.
    cage_regions: Vec<u64>,
}

impl Changes {
    fn new(layout: &Layout) -> Changes {
        Changes {
            clock: 0,
            cage: vec![0; layout.cage_count()],
            region: vec![0; layout.regions().len()],
            cage_regions: layout.cage_regions().to_vec(),
        }
    }

    /// Records that these cages' combinations changed (after a step).
    pub(crate) fn cages_changed(&mut self, cages: &[CageId]) {
        if cages.is_empty() {
            return;
        }
        self.clock += 1;
        for c in cages {
            self.cage[c.index()] = self.clock;
            for r in bits::ones(self.cage_regions[c.index()]) {
                self.region[r] = self.clock;
            }
        }
    }

    /// The current tick.
    pub(crate) fn clock(&self) -> u32 {
        self.clock
    }

    /// Per cage, the tick of its last change.
    pub(crate) fn cages(&self) -> &[u32] {
        &self.cage
    }

    /// The tick of the last change of a cage holding a cell of region `r`.
    pub(crate) fn region(&self, r: usize) -> u32 {
        self.region[r]
    }

    /// A stamp for what is found barren now (see [`still_barren`]).
    pub(crate) fn stamp(&self) -> u32 {
        self.clock + 1
    }
}

/// Whether what a search found barren at `stamp` ([`Changes::stamp`] then, 0 for
/// never) is barren still, when what it read last changed at tick `changed_at`:
/// the form of every "found nothing, skip while unchanged" memo of the ladder.
pub(crate) fn still_barren(stamp: u32, changed_at: u32) -> bool {
    stamp.checked_sub(1).is_some_and(|tick| changed_at <= tick)
}

/// When a region-scanning technique last found nothing in each region, so that a
/// region whose cells did not change since is skipped (this changes no result,
/// only the time spent). One per technique (and per size, for hidden subsets).
#[derive(Clone, Debug, Default)]
pub(crate) struct RegionMemo {
    /// Per region, its [`Changes::stamp`] when found barren (0: never).
    barren: Vec<u32>,
}

impl RegionMemo {
    /// Whether the technique found nothing in region `r` and it has not changed
    /// since.
    pub(crate) fn is_barren(&mut self, ctx: &Context, r: usize) -> bool {
        if !ctx.memos {
            return false;
        }
        if self.barren.is_empty() {
            self.barren = vec![0; ctx.changes.region.len()];
        }
        still_barren(self.barren[r], ctx.changes.region(r))
    }

    /// Records that the technique found nothing in region `r` now (after
    /// [`RegionMemo::is_barren`] for it).
    pub(crate) fn mark_barren(&mut self, ctx: &Context, r: usize) {
        if ctx.memos {
            self.barren[r] = ctx.changes.stamp();
        }
    }
}

/// The kinds a technique was made with (see
/// [`Finder::New`](crate::registry::Finder::New)), as many as it finds.
pub(crate) fn kinds<const N: usize>(kinds: &[TechniqueKind]) -> [TechniqueKind; N] {
    kinds
        .try_into()
        .unwrap_or_else(|_| panic!("a technique of {N} kinds, made with {kinds:?}"))
}
