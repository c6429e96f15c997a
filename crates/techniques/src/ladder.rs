//! The ladder: one ordered table that drives stepping, listings and docs.

use crate::techniques::{
    cage_combination::CageCombination, claiming::Claiming, fish::Fish, hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset, pointing::Pointing, region_totals::RegionTotals,
};
use crate::{Context, State, Step, Technique, TechniqueKind};
use std::ops::RangeInclusive;

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
/// Finds nothing once the options' deadline has passed ([`Context::timed_out`] then
/// says so).
pub fn next_step(state: &State, ctx: &mut Context) -> Option<Step> {
    if ctx.out_of_time() {
        return None;
    }
    for rung in LADDER {
        // The rung's enabled techniques with the sizes each tries on this state
        // (asked once: some count the unsolved cages to answer).
        let mut live: [Option<(&dyn Technique, RangeInclusive<usize>)>; MAX_PER_RUNG] =
            Default::default();
        for (slot, &t) in live.iter_mut().zip(rung.techniques) {
            if t.kinds().iter().any(|&k| ctx.options.is_enabled(k)) {
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
                    if ctx.timed_out {
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
