//! Region product: every row and column multiplies to N!, so a slice of adjacent
//! lines multiplies to a known product. The cage parts of a slice whose inside
//! product is known (a multiplication cage wholly inside, a part whose
//! combinations all multiply alike) leave the product of the others known: the
//! unknown parts must make it up, and each keeps only the products some choice
//! for the others completes — the region sum, with products. Off by default: it
//! is not on the reference solver's ladder.
//!
//! Order: for u_max = 1 ..= deepest cage-combination level tried + 1; the slices in
//! the region sum's order; the first slice whose at most u_max unknown parts lose
//! something is the step.

use super::slices::slices;
use super::RegionTotal;
use crate::step::{Axis, CageCut, Reason, Slice, Total};
use crate::technique::{kinds, still_barren};
use crate::{Context, Layout, State, Step, Technique, TechniqueKind};
use kenken_model::{Budget, CageId, Digit, Exhausted, Product, RegionKind};
use std::collections::BTreeSet;

struct RegionProduct {
    kind: TechniqueKind,
    /// The slices in search order (listed at the first search).
    slices: Vec<Slice>,
    /// Per slice and unknown-count limit, the stamp of when it found nothing
    /// there: it still does while none of the slice's cages changes.
    barren: Vec<Vec<u32>>,
}

pub(crate) fn finder(_layout: &Layout, kinds_: &[TechniqueKind]) -> Box<dyn Technique> {
    let [kind] = kinds(kinds_);
    Box::new(RegionProduct {
        kind,
        slices: Vec::new(),
        barren: Vec::new(),
    })
}

/// One cage's part of a slice: its positions inside, and the distinct products of
/// its digits there over its live combinations, ascending.
struct Part {
    cage: CageId,
    positions: Vec<usize>,
    whole: bool,
    products: Vec<Product>,
}

impl Technique for RegionProduct {
    fn find(&mut self, state: &State, ctx: &mut Context, _size: usize) -> Option<Step> {
        if self.slices.is_empty() {
            self.slices = slices(state);
            self.barren = vec![Vec::new(); self.slices.len()];
        }
        let stamp = ctx.changes.stamp();
        for u_max in 1..=ctx.deepest_level() + 1 {
            for (i, &slice) in self.slices.iter().enumerate() {
                let cages = cages_of(state, slice);
                let changed = cages
                    .iter()
                    .map(|c| ctx.changes.cages()[c.index()])
                    .max()
                    .unwrap_or(0);
                let barren = &mut self.barren[i];
                if barren.len() <= u_max {
                    barren.resize(u_max + 1, 0);
                }
                if ctx.memos && still_barren(barren[u_max], changed) {
                    continue;
                }
                let parts = parts(state, slice, &cages, &mut ctx.budget).ok()?;
                if let Some(step) = deduce(state, slice, &parts, u_max, self.kind, &mut ctx.budget)
                {
                    return Some(super::with_proof(state, ctx, step));
                }
                if ctx.budget.exhausted().is_some() {
                    return None;
                }
                barren[u_max] = stamp;
            }
        }
        None
    }
}

/// The regions (indices into the layout's) of a slice's lines.
fn lines(state: &State, slice: Slice) -> impl Iterator<Item = usize> + '_ {
    (slice.first..slice.first + slice.count).map(move |line| {
        state.layout().region_index(match slice.axis {
            Axis::Rows => RegionKind::Row(line),
            Axis::Cols => RegionKind::Col(line),
            Axis::Boxes => RegionKind::Box(line),
        })
    })
}

/// The cages with cells in a slice, in the order met line by line.
fn cages_of(state: &State, slice: Slice) -> Vec<CageId> {
    let layout = state.layout();
    let mut cages = Vec::new();
    for r in lines(state, slice) {
        for cell in &layout.regions()[r].cells {
            let cage = layout.cell_cage[cell.index()].0;
            if !cages.contains(&cage) {
                cages.push(cage);
            }
        }
    }
    cages
}

/// Each cage's part of the slice, with its distinct inside products.
fn parts(
    state: &State,
    slice: Slice,
    cages: &[CageId],
    budget: &mut Budget,
) -> Result<Vec<Part>, Exhausted> {
    let layout = state.layout();
    let mut parts: Vec<Part> = cages
        .iter()
        .map(|&cage| Part {
            cage,
            positions: Vec::new(),
            whole: false,
            products: Vec::new(),
        })
        .collect();
    for r in lines(state, slice) {
        for cell in &layout.regions()[r].cells {
            let (cage, pos) = layout.cell_cage[cell.index()];
            let k = cages.iter().position(|&c| c == cage).expect("listed");
            parts[k].positions.push(pos);
        }
    }
    for part in &mut parts {
        part.positions.sort_unstable();
        part.whole = part.positions.len() == layout.cage_cells(part.cage).len();
        budget.spend((state.live_count(part.cage) * part.positions.len()) as u64)?;
        let mut seen = BTreeSet::new();
        for i in state.live_combinations(part.cage) {
            seen.insert(inside_product(state, part, i));
        }
        part.products = seen.into_iter().collect();
    }
    Ok(parts)
}

/// The product of combination `i`'s digits inside the slice.
fn inside_product(state: &State, part: &Part, i: usize) -> Product {
    let row = state.layout().combination(part.cage, i);
    Product::of_digits(part.positions.iter().map(|&p| row[p] as Digit))
}

/// The region-product step on this slice, when it has 1..=u_max unknown parts and
/// removes something.
fn deduce(
    state: &State,
    slice: Slice,
    parts: &[Part],
    u_max: usize,
    kind: TechniqueKind,
    budget: &mut Budget,
) -> Option<Step> {
    let unknown: Vec<&Part> = parts.iter().filter(|p| p.products.len() > 1).collect();
    if unknown.is_empty() || unknown.len() > u_max {
        return None;
    }
    let n = state.n();
    let target = Product::factorial_power(n, slice.count);
    let known = parts
        .iter()
        .filter(|p| p.products.len() == 1)
        .fold(Product::ONE, |acc, p| acc.times(p.products[0]));
    let required = target.divided_by(known)?;
    let kept = feasible_products(&unknown, required, budget)?;
    let mut cuts: Vec<CageCut> = Vec::new();
    for (part, kept) in unknown.iter().zip(&kept) {
        if kept.len() == part.products.len() {
            continue;
        }
        let removed: Vec<u32> = state
            .live_combinations(part.cage)
            .filter(|&i| !kept.contains(&inside_product(state, part, i)))
            .map(|i| i as u32)
            .collect();
        let before = state.live_count(part.cage);
        cuts.push(CageCut {
            cage: part.cage,
            after: before - removed.len(),
            before,
            removed,
        });
    }
    if cuts.is_empty() {
        return None;
    }
    // Named as the region sum names them: the cages wholly inside the slice, then
    // those partly inside, each group in clue order; their cuts in the same order.
    let mut named: Vec<(bool, CageId)> = unknown.iter().map(|p| (!p.whole, p.cage)).collect();
    named.sort_unstable();
    let unknown: Vec<CageId> = named.into_iter().map(|(_, cage)| cage).collect();
    cuts.sort_by_key(|cut| unknown.iter().position(|&cage| cage == cut.cage));
    Some(state.step_from_cuts(
        kind,
        kind.rate(unknown.len(), slice.count),
        Reason::RegionTotal(RegionTotal {
            slice,
            target: Total::Product(target),
            required: Total::Product(required),
            unknown,
        }),
        cuts,
    ))
}

/// For each unknown part, its products that belong to some choice of one product
/// per part multiplying to `required` (`None` when the budget runs out first).
fn feasible_products(
    parts: &[&Part],
    required: Product,
    budget: &mut Budget,
) -> Option<Vec<BTreeSet<Product>>> {
    // reach[i]: the products (dividing `required`) of some choice for parts[..i];
    // back[i]: for parts[i..].
    let step = |from: &BTreeSet<Product>, part: &Part, budget: &mut Budget| {
        budget
            .spend((from.len() * part.products.len()) as u64)
            .ok()?;
        Some(
            from.iter()
                .flat_map(|a| part.products.iter().map(move |&p| a.times(p)))
                .filter(|p| p.divides(required))
                .collect::<BTreeSet<Product>>(),
        )
    };
    let one: BTreeSet<Product> = [Product::ONE].into();
    let mut reach = vec![one.clone()];
    for part in parts {
        let next = step(reach.last().expect("seeded"), part, budget)?;
        reach.push(next);
    }
    let mut back = vec![one];
    for part in parts.iter().rev() {
        let next = step(back.last().expect("seeded"), part, budget)?;
        back.push(next);
    }
    back.reverse();
    let mut kept = Vec::with_capacity(parts.len());
    for (k, part) in parts.iter().enumerate() {
        budget
            .spend((reach[k].len() * back[k + 1].len()) as u64)
            .ok()?;
        let others: BTreeSet<Product> = reach[k]
            .iter()
            .flat_map(|a| back[k + 1].iter().map(move |&b| a.times(b)))
            .filter(|p| p.divides(required))
            .collect();
        kept.push(
            part.products
                .iter()
                .copied()
                .filter(|&p| {
                    required
                        .divided_by(p)
                        .is_some_and(|rest| others.contains(&rest))
                })
                .collect(),
        );
    }
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grader, Options};
    use kenken_model::Digits;

    fn product_kind() -> TechniqueKind {
        TechniqueKind::from_id("region-product").expect("a registry row")
    }

    /// A Tatham 6×6 of multiplication cages (puzzles/tatham-6x6-extreme-mult.json
    /// #19), whose row 1 is r1c1 (in a 72× cage), r1c2 (in a 12× pair), a whole
    /// 60× cage and r1c6, placed 1.
    const MULTIPLICATION_6: &str =
        "6:__b_6a__a_aa_a_aab_b_4aa_a_3a__a3,m72m12m60m5m4m15m12m12m4m6m10m30m6m12m30m4";

    #[test]
    fn the_rest_of_a_line_of_products_is_known() {
        let p = kenken_formats::tatham::read(MULTIPLICATION_6).expect("puzzle");
        let solution = kenken_search::solve(&p).solution.expect("unique");
        // Every candidate open but r1c6's 1.
        let mut marks = vec![Digits::full(6); 36];
        marks[5] = Digits::single(1);
        let mut state = State::with_candidates(&p, &marks).expect("consistent");
        let layout = state.layout();
        let mut technique = product_kind().technique(layout).unwrap();
        let mut ctx = Context::new(Options::default(), layout, Budget::unlimited());
        let step = technique.find(&state, &mut ctx, 1).expect("region product");
        // 720 / (60 × 1) = 12 is left for r1c1 × r1c2.
        assert_eq!(
            step.text(p.size()),
            "Region product: Row 1 must multiply to 720; cages 0, 1's cells within this region must multiply to 12; cages 0, 1 reduced from 3, 2 combinations to 1, 1"
        );
        assert_eq!(step.rating, product_kind().rate(2, 1));
        state.apply(&step);
        state.propagate().expect("a sound step");
        for cell in p.size().cells() {
            assert!(state.candidates(cell).contains(solution[cell.index()]));
        }
        // Once applied, row 1 holds no unknown product left to narrow.
        let again = technique.find(&state, &mut ctx, 1);
        assert!(again.is_none_or(|s| !matches!(
            s.reason,
            Reason::RegionTotal(RegionTotal { slice, .. }) if slice.axis == Axis::Rows && slice.first == 0
        )));
    }

    /// Every step of whole gradings with the technique on is checked against the
    /// unique solution, and the technique takes part; off, the grading is the
    /// default ladder's.
    #[test]
    fn steps_with_region_products_keep_the_solution() {
        let p = kenken_formats::tatham::read(
            "6:aa_a_4aa_3a__a_a3_b_3a_b__a__a__ca_,m5m12m12m72m4m300m6m24m12m15m5m6m40m18m4",
        )
        .expect("puzzle");
        let grader = Grader::new(&p).expect("grader");
        let mut options = Options::default();
        options.enable(product_kind());
        let grade = grader.grade(options, true);
        assert_eq!(grade.unsound_step, None);
        assert!(grade.solved(), "{:?}", grade.status);
        assert!(grade.steps.iter().any(|s| s.technique == product_kind()));
        let default = grader.grade(Options::default(), true);
        assert!(default.steps.iter().all(|s| s.technique != product_kind()));
    }
}
