//! The ladder: one ordered table that drives stepping, listings and docs.

use crate::techniques::{
    cage_combination::CageCombination, claiming::Claiming, fish::Fish, hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset, pointing::Pointing, region_totals::RegionTotals,
};
use crate::{Context, State, Step, Technique, TechniqueKind};
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// One rung: techniques tried together, interleaved size by size (for k = 2, 3, …:
/// hidden subsets of size k, then fish of size k).
pub struct Rung {
    pub techniques: &'static [&'static dyn Technique],
}

/// The ladder, easiest first. Each step tries the rungs from the top and applies the
/// first step found.
pub static LADDER: &[Rung] = &[
    Rung {
        techniques: &[&HiddenSingle],
    },
    Rung {
        techniques: &[&Claiming],
    },
    Rung {
        techniques: &[&Pointing],
    },
    Rung {
        techniques: &[&HiddenSubset, &Fish],
    },
    Rung {
        techniques: &[&RegionTotals],
    },
    Rung {
        techniques: &[&CageCombination],
    },
];

/// Finds the next step of the ladder on a propagated state.
///
/// Finds nothing once the run's budget is exhausted ([`Context::exhausted`] then
/// says why).
pub fn next_step(state: &State, ctx: &mut Context) -> Option<Step> {
    if ctx.budget.check().is_err() {
        return None;
    }
    for (rung, kinds) in LADDER.iter().zip(rung_kinds()) {
        // The rung's enabled techniques with the sizes each tries on this state
        // (asked once: some count the unsolved cages to answer).
        let mut live: [Option<(&dyn Technique, RangeInclusive<usize>)>; MAX_PER_RUNG] =
            Default::default();
        for ((slot, &t), &kinds) in live.iter_mut().zip(rung.techniques).zip(kinds) {
            if ctx.options.any_enabled(kinds) {
                *slot = Some((t, t.sizes(state, ctx)));
            }
        }
        let live = live.iter().flatten();
        let lo = live.clone().map(|(_, s)| *s.start()).min().unwrap_or(1);
        let hi = live.clone().map(|(_, s)| *s.end()).max().unwrap_or(0);
        for size in lo..=hi {
            for (t, sizes) in live.clone() {
                if sizes.contains(&size) {
                    if let Some(step) = t.find(state, ctx, size) {
                        return Some(step);
                    }
                    if ctx.budget.exhausted().is_some() {
                        return None;
                    }
                }
            }
        }
    }
    None
}

/// The most techniques one rung holds.
const MAX_PER_RUNG: usize = 2;

/// Per rung, each technique's kinds as a set of bits: asked of every technique at
/// every step otherwise, through its vtable, only to learn what never changes.
fn rung_kinds() -> &'static [[u16; MAX_PER_RUNG]] {
    static KINDS: OnceLock<Vec<[u16; MAX_PER_RUNG]>> = OnceLock::new();
    KINDS.get_or_init(|| {
        LADDER
            .iter()
            .map(|rung| {
                let mut kinds = [0; MAX_PER_RUNG];
                for (k, t) in kinds.iter_mut().zip(rung.techniques) {
                    *k = t.kinds().iter().fold(0, |m, &kind| m | kind.bit());
                }
                kinds
            })
            .collect()
    })
}

/// Every technique kind with its name and rating rule, in ladder order (for
/// `grader techniques` and the docs).
pub fn listing() -> Vec<(TechniqueKind, &'static str, &'static str)> {
    TechniqueKind::ALL
        .iter()
        .map(|&k| (k, k.name(), k.rating_rule()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rungs_fit_the_stepping_buffer() {
        assert!(LADDER.iter().all(|r| r.techniques.len() <= MAX_PER_RUNG));
    }
}
