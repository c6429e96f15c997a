//! A run of the ladder: the registry's techniques, made for one puzzle, grouped by
//! rung, with the [`Context`] they share.

use crate::technique::{Context, Engine, Technique};
use crate::Options;
use crate::TechniqueKind;
use crate::{Layout, State, Step};
use kenken_model::{Budget, CageId, Exhausted};
use std::ops::RangeInclusive;

/// One rung: techniques tried together, interleaved size by size (for k = 2, 3,
/// …: hidden subsets of size k, then fish of size k).
struct Rung {
    techniques: Vec<Made>,
}

/// The most techniques one rung holds.
const MAX_PER_RUNG: usize = 4;

/// A technique made for a run, and its kinds.
struct Made {
    technique: Box<dyn Technique>,
    kinds: Vec<TechniqueKind>,
}

/// The ladder of one run: finds the next step on a state, again and again, and
/// remembers between steps what its techniques learned.
///
/// A run that takes more than one step must report, after applying each step and
/// propagating, which cages' combinations changed ([`Ladder::cages_changed`], from
/// [`State::take_changed_cages`]), as [`Grader`](crate::Grader) runs do: what the
/// techniques found barren is skipped while what it read stays the same.
pub struct Ladder {
    rungs: Vec<Rung>,
    ctx: Context,
}

impl Ladder {
    /// A run of the enabled techniques over a puzzle of this layout, without bounds
    /// (see [`Ladder::within`]).
    pub fn new(layout: &Layout, options: Options) -> Ladder {
        Ladder::within(layout, options, Budget::unlimited())
    }

    /// A run that spends its work and holds its tables on `budget`.
    pub fn within(layout: &Layout, options: Options, budget: Budget) -> Ladder {
        let mut rungs: Vec<Rung> = Vec::new();
        let mut last_rung = None;
        for kind in TechniqueKind::all() {
            if kind.shares_technique() {
                continue;
            }
            // This row's kind and those of the rows below it that it finds too.
            let kinds: Vec<TechniqueKind> = TechniqueKind::all()
                .skip(kind.index())
                .take_while(|&k| k == kind || k.shares_technique())
                .collect();
            if !kinds.iter().any(|&k| options.is_enabled(k)) {
                continue;
            }
            let Some(technique) = kind.technique(layout) else {
                continue;
            };
            let rung_of = kind.row().rung;
            if last_rung != Some(rung_of) {
                rungs.push(Rung {
                    techniques: Vec::new(),
                });
                last_rung = Some(rung_of);
            }
            let rung = &mut rungs.last_mut().expect("pushed above").techniques;
            assert!(
                rung.len() < MAX_PER_RUNG,
                "at most {MAX_PER_RUNG} techniques a rung"
            );
            rung.push(Made { technique, kinds });
        }
        Ladder {
            rungs,
            ctx: Context::new(options, layout, budget),
        }
    }

    /// For a run whose steps nobody sees (ratings only): steps that remove cage
    /// combinations then leave out the candidates their cuts remove, which applying
    /// the cuts and propagating removes all the same.
    pub fn quiet(mut self) -> Ladder {
        self.ctx.explain = false;
        self
    }

    /// With this cage-combination engine (for the tests that check the fast one
    /// against the reference: both find the same steps).
    #[doc(hidden)]
    pub fn with_engine(mut self, engine: Engine) -> Ladder {
        self.ctx.engine = engine;
        self
    }

    /// Without the skips of what was found barren (for the test that checks they
    /// change no step).
    #[doc(hidden)]
    pub fn without_memos(mut self) -> Ladder {
        self.ctx.memos = false;
        self
    }

    /// The next step on a propagated state: the first one of the easiest rung that
    /// has one. Finds nothing once the run's budget is exhausted
    /// ([`Ladder::exhausted`] then says why).
    pub fn next_step(&mut self, state: &State) -> Option<Step> {
        let ctx = &mut self.ctx;
        if ctx.budget.check().is_err() {
            return None;
        }
        for rung in &mut self.rungs {
            // Each technique's sizes on this state (asked once: some count the
            // unsolved cages to answer), on the stack: this runs at every step.
            let mut sizes: [RangeInclusive<usize>; MAX_PER_RUNG] =
                std::array::from_fn(|_| RangeInclusive::new(1, 0));
            for (s, made) in sizes.iter_mut().zip(&rung.techniques) {
                *s = made.technique.sizes(state, ctx);
            }
            let sizes = &sizes[..rung.techniques.len()];
            let lo = sizes.iter().map(|s| *s.start()).min().unwrap_or(1);
            let hi = sizes.iter().map(|s| *s.end()).max().unwrap_or(0);
            for size in lo..=hi {
                for (made, sizes) in rung.techniques.iter_mut().zip(sizes) {
                    if !sizes.contains(&size) {
                        continue;
                    }
                    if let Some(step) = made.technique.find(state, ctx, size) {
                        debug_assert!(made.kinds.contains(&step.technique));
                        return Some(step);
                    }
                    if ctx.budget.exhausted().is_some() {
                        return None;
                    }
                }
            }
        }
        None
    }

    /// Records that these cages' combinations changed (after a step and its
    /// propagation; see [`Ladder`]).
    pub fn cages_changed(&mut self, cages: &[CageId]) {
        self.ctx.changes.cages_changed(cages);
    }

    /// Why the run's budget is exhausted, if it is (then the ladder finds nothing
    /// more).
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.ctx.exhausted()
    }

    /// The run's budget.
    pub fn budget(&mut self) -> &mut Budget {
        &mut self.ctx.budget
    }

    /// The deepest cage-combination level tried so far (1 before any).
    pub fn deepest_level(&self) -> usize {
        self.ctx.deepest
    }

    /// What the run's techniques share.
    pub fn context(&self) -> &Context {
        &self.ctx
    }
}

/// Every kind with its id, name and rating rule, in ladder order (for `grader
/// techniques` and the docs).
pub fn listing() -> Vec<(TechniqueKind, &'static str, String)> {
    TechniqueKind::all()
        .map(|k| (k, k.name(), k.row().rating.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grader;

    /// Every step of a run (naked singles aside), with or without the skips of what
    /// was found barren.
    fn steps(grader: &Grader, options: Options, memos: bool) -> Vec<Step> {
        let (mut state, _) = grader.start();
        let mut ladder = Ladder::new(grader.layout(), options);
        if !memos {
            ladder = ladder.without_memos();
        }
        let (mut steps, mut changed) = (Vec::new(), Vec::new());
        while !state.is_solved() {
            let Some(step) = ladder.next_step(&state) else {
                break;
            };
            state.apply(&step);
            steps.push(step);
            if state.propagate().is_err() {
                break;
            }
            state.take_changed_cages_into(&mut changed);
            ladder.cages_changed(&changed);
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

    #[test]
    fn every_technique_is_made_with_its_kinds() {
        let puzzle = kenken_formats::tatham::read("4:_a_5a_bac_a__,d2m12a5m8s2d2s1").unwrap();
        let grader = Grader::new(&puzzle).unwrap();
        for kind in TechniqueKind::all().skip(1) {
            assert!(kind.technique(grader.layout()).is_some(), "{kind:?}");
        }
        let mut all = Options::default();
        for kind in TechniqueKind::all() {
            all.enable(kind);
        }
        let ladder = Ladder::new(grader.layout(), all);
        let made: usize = ladder.rungs.iter().map(|r| r.techniques.len()).sum();
        let shared = TechniqueKind::all()
            .filter(|k| k.shares_technique())
            .count();
        assert_eq!(made, TechniqueKind::all().count() - 1 - shared);
    }
}
