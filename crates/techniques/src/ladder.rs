//! The ladder: one ordered table that drives stepping, listings and docs.

use crate::techniques::{
    cage_combination::CageCombination, claiming::Claiming, fish::Fish, hidden_single::HiddenSingle,
    hidden_subset::HiddenSubset, pointing::Pointing, region_totals::RegionTotals,
};
use crate::{Context, State, Step, Technique, TechniqueKind};

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
        let live: Vec<&dyn Technique> = rung
            .techniques
            .iter()
            .copied()
            .filter(|t| t.kinds().iter().any(|&k| ctx.options.is_enabled(k)))
            .collect();
        if live.is_empty() {
            continue;
        }
        let lo = live
            .iter()
            .map(|t| *t.sizes(state, ctx).start())
            .min()
            .unwrap_or(1);
        let hi = live
            .iter()
            .map(|t| *t.sizes(state, ctx).end())
            .max()
            .unwrap_or(0);
        for size in lo..=hi {
            for t in &live {
                if t.sizes(state, ctx).contains(&size) {
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

/// Every technique kind with its name and rating rule, in ladder order (for
/// `grader techniques` and the docs).
pub fn listing() -> Vec<(TechniqueKind, &'static str, &'static str)> {
    TechniqueKind::ALL
        .iter()
        .map(|&k| (k, k.name(), k.rating_rule()))
        .collect()
}
