//! Region totals: every row and column adds up to N(N+1)/2, so a slice of adjacent
//! lines adds up to a known total. The technique scans the slices ([`slices`]) and
//! asks each for the region-sum deduction ([`sum`]), then the region-parity
//! deduction ([`parity`]).
//!
//! Order: for u_max = 1 ..= deepest cage-combination level tried + 1; the slices in
//! their order; in each slice the sum deduction (with at most u_max unknowns)
//! before the parity deduction. A slice's totals are computed once and reused by
//! every u_max pass and by later searches, until a cage of the slice changes.

mod parity;
pub(crate) mod product;
pub(crate) mod slices;
mod sum;
mod total;

pub use parity::RegionParity;
pub use total::RegionTotal;

use crate::technique::{kinds, still_barren};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use slices::{SliceCache, Ticks};

/// Region totals, and what they keep for a run: the slices' totals, and per slice
/// when each deduction last found nothing there.
struct RegionTotals {
    sum: TechniqueKind,
    parity: TechniqueKind,
    /// Made at the first search (most runs never get this far).
    cache: Option<SliceCache>,
    barren: Vec<Barren>,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [sum, parity] = kinds(kinds_);
    Box::new(RegionTotals {
        sum,
        parity,
        cache: None,
        barren: Vec::new(),
    })
}

/// The step with its proof when the run shows its steps ([`total::prove`]).
pub(super) fn with_proof(state: &State, ctx: &Context, mut step: Step) -> Step {
    if ctx.explain {
        step.proofs = total::prove(state, &step);
    }
    step
}

/// When the deductions last found nothing in a slice ([`still_barren`] stamps).
/// Both read nothing but the slice's totals (and, to cut, its cages' combinations,
/// from which the totals come), so while the totals are those of that tick they
/// still find nothing, and are skipped. This changes no result, only the time.
#[derive(Clone, Debug, Default)]
struct Barren {
    /// The region sum, per unknown-count limit `u_max` (at most the deepest
    /// cage-combination level + 1).
    sum: Vec<u32>,
    parity: u32,
}

impl Technique for RegionTotals {
    /// One size: the u_max passes run inside [`Technique::find`], so that each
    /// slice's totals are computed once for all of them.
    fn find(&mut self, state: &State, ctx: &mut Context, _size: usize) -> Option<Step> {
        let sums = ctx.options.is_enabled(self.sum);
        let parity = ctx.options.is_enabled(self.parity);
        let deepest = ctx.deepest_level();
        let memos = ctx.memos;
        let ticks = Ticks {
            clock: ctx.changes.clock(),
            changed_at: ctx.changes.cages(),
        };
        let stamp = ctx.changes.stamp();
        let budget = &mut ctx.budget;
        let cache = self.cache.get_or_insert_with(|| SliceCache::new(state));
        if self.barren.is_empty() {
            self.barren = vec![Barren::default(); cache.slices.len()];
        }
        // A deduction that found nothing still does on totals computed no later.
        let skip = |barren: u32, tick: u32| memos && still_barren(barren, tick);
        // More unknowns than the last pass allows, and two unknown parities: nothing.
        let stop = Some(deepest + 2);
        for u_max in 1..=deepest + 1 {
            for i in 0..cache.slices.len() {
                // The first pass brings each slice it reaches up to date.
                if u_max == 1
                    && cache
                        .bring_up_to_date(i, state, ticks, stop, budget)
                        .is_err()
                {
                    return None;
                }
                let (tick, t) = cache.totals[i]
                    .as_ref()
                    .expect("computed in the first pass");
                if t.stopped_at.is_some() {
                    continue;
                }
                let barren = &mut self.barren[i];
                if barren.sum.len() <= u_max {
                    barren.sum.resize(u_max + 1, 0);
                }
                if sums && !skip(barren.sum[u_max], *tick) {
                    budget.spend(t.parts.len() as u64).ok()?;
                    if let Some(step) = sum::deduce(state, t, u_max, self.sum) {
                        return Some(with_proof(state, ctx, step));
                    }
                    barren.sum[u_max] = stamp;
                }
                if parity && !skip(barren.parity, *tick) {
                    if let Some(step) = parity::deduce(state, t, self.parity) {
                        return Some(with_proof(state, ctx, step));
                    }
                    barren.parity = stamp;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::slices::SliceTotals;
    use super::*;
    use crate::{Grader, Ladder, Options};
    use kenken_model::Budget;

    fn row_one(text: &str) -> (State, SliceTotals) {
        let p = kenken_formats::text::read(text).expect("puzzle");
        let s = State::new(&p).expect("state");
        let mut s = s;
        s.propagate().expect("consistent");
        let slice = crate::Slice {
            axis: crate::Axis::Rows,
            first: 0,
            count: 1,
        };
        let totals = SliceTotals::new(&s, slice);
        (s, totals)
    }

    #[test]
    fn two_unknowns_need_a_second_pass() {
        // Row 1: cage 0 (sum 3) known, r1c3 in cage 1 and r1c4 in cage 2 unknown.
        let (s, row1) = row_one(
            "# 4\n+ 3 A1 A2\n+ 7 A3 B3\n+ 5 A4 B4\n+ 7 B1 B2\n+ 20 C1 C2 C3 C4 D1 D2 D3 D4\n",
        );
        let kind = TechniqueKind::from_id("region-sum").unwrap();
        assert_eq!(sum::deduce(&s, &row1, 1, kind), None);
        let step = sum::deduce(&s, &row1, 2, kind).expect("two unknowns");
        assert_eq!(
            step.text(s.puzzle().size()),
            "Region sum: Row 1 must sum to 10; cages 1, 2's cells within this region must sum to 7; cages 2 reduced from 4 combinations to 2"
        );
        assert_eq!(step.rating, crate::Rating::tenths(32));
        // Both parities still open: parity forces nothing.
        let kind = TechniqueKind::from_id("region-parity").unwrap();
        assert_eq!(parity::deduce(&s, &row1, kind), None);
    }

    /// The totals kept between steps (refreshed part by part) are the ones computed
    /// from scratch, at every state of whole gradings that use region sums; and
    /// where they stopped early, the deductions find nothing on the whole slice.
    #[test]
    fn kept_totals_match_fresh_ones() {
        let ids = [
            "7:b_aa__aa_14a__aa_aa_a_ab_a4_ab_3a_4a_caa,m756d2a6m210d3a10a5m105s1d2a9d2s1m6a11s5m150s2m63s3s1",
            "6:c_10a_a_6a__a7_aa_b_aa_a_,a21d2s1s3d3a9d2a7a6d2s3m12m30m8m6s1",
            "6:aabab__a_3a_4a3__a_3a__aa_b_4a__a_,d2s2a8d2s2m6s1m6a10d3s2a7a9m12m20s1",
        ];
        let sum_kind = TechniqueKind::from_id("region-sum").unwrap();
        let parity_kind = TechniqueKind::from_id("region-parity").unwrap();
        let (mut compared, mut stopped) = (0, 0);
        for id in ids {
            let puzzle = kenken_formats::tatham::read(id).expect("puzzle");
            let grader = Grader::new(&puzzle).expect("grader");
            let (mut state, _) = grader.start();
            let mut ladder = Ladder::new(grader.layout(), Options::default());
            // A cache kept from state to state, as the run's is, with its own ticks.
            let mut cache = SliceCache::new(&state);
            let (mut clock, mut changed_at) = (0, vec![0; puzzle.cages().len()]);
            while let Some(step) = ladder.next_step(&state) {
                let ticks = Ticks {
                    clock,
                    changed_at: &changed_at,
                };
                let deepest = ladder.deepest_level();
                for i in 0..cache.slices.len() {
                    cache
                        .bring_up_to_date(
                            i,
                            &state,
                            ticks,
                            Some(deepest + 2),
                            &mut Budget::unlimited(),
                        )
                        .expect("an unlimited budget");
                    let kept = &cache.totals[i].as_ref().expect("kept").1;
                    let fresh = SliceTotals::new(&state, cache.slices[i]);
                    assert!(kept.parts.len() <= fresh.parts.len());
                    for (a, b) in kept.parts.iter().zip(&fresh.parts) {
                        assert_eq!(a.cage, b.cage);
                        assert_eq!(kept.positions(a), fresh.positions(b));
                        assert_eq!(
                            kept.values(a),
                            fresh.values(b),
                            "{id} {:?}",
                            cache.slices[i]
                        );
                    }
                    if kept.stopped_at.is_some() {
                        for u_max in 1..=deepest + 1 {
                            assert_eq!(sum::deduce(&state, &fresh, u_max, sum_kind), None);
                        }
                        assert_eq!(parity::deduce(&state, &fresh, parity_kind), None);
                        stopped += 1;
                    } else {
                        assert_eq!(kept.parts.len(), fresh.parts.len());
                    }
                    compared += 1;
                }
                state.apply(&step);
                if state.propagate().is_err() {
                    break;
                }
                let changed = state.take_changed_cages();
                if !changed.is_empty() {
                    clock += 1;
                    for c in &changed {
                        changed_at[c.index()] = clock;
                    }
                }
                ladder.cages_changed(&changed);
            }
        }
        assert!(compared > 100, "only {compared} slices compared");
        assert!(stopped > 10, "only {stopped} slices stopped early");
    }
}
