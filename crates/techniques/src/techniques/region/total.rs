//! The words of a region total, a region sum's ([`super::sum`]) or a region
//! product's ([`super::product`]), and what a region parity shares with them.

use crate::explain::{capitalised, in_region, or_numbers, plural, Evidence, Words};
use crate::labels::{self, and_list, cage_with_clue};
use crate::proof::{Known, KnownPart, Loss, Proof, RegionProof};
use crate::step::{join, Axis, CageCut, Reason, Slice, Total};
use crate::{Layout, State, Step};
use kenken_model::{CageId, CellId, Product, Puzzle, Size};

/// The slice adds up (or multiplies) to `target`; the unknown cages' cells
/// inside it must make `required`. The cages wholly inside the slice come first,
/// then those partly inside, each group in clue order (the cuts follow the same
/// order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionTotal {
    pub slice: Slice,
    pub target: Total,
    pub required: Total,
    pub unknown: Vec<CageId>,
}

impl Words for RegionTotal {
    fn reference_text(&self, step: &Step, _size: Size) -> String {
        let which = if self.unknown.len() == 1 {
            format!("cage {}", self.unknown[0])
        } else {
            format!("cages {}", join(&self.unknown))
        };
        let (kind, verb) = match self.target {
            Total::Sum(_) => ("sum", "sum"),
            Total::Product(_) => ("product", "multiply"),
        };
        let mut s = format!(
            "Region {kind}: {} must {verb} to {}; {which}'s cells within this region must {verb} to {}; ",
            self.slice.describe(),
            self.target,
            self.required
        );
        s.push_str(&step.reduction_text(self.unknown.len() == 1));
        s
    }

    fn labelled_text(&self, step: &Step, puzzle: &Puzzle) -> String {
        let (kind, verb) = match self.target {
            Total::Sum(_) => ("sum", "sum"),
            Total::Product(_) => ("product", "multiply"),
        };
        format!(
            "Region {kind}: {} must {verb} to {}; {}'s cells within {} must {verb} to {}; {}",
            labels::slice(&self.slice),
            self.target,
            labels::cages(puzzle, &self.unknown),
            it_or_them(&self.slice),
            self.required,
            step.labelled_reduction(puzzle, self.unknown.len() == 1),
        )
    }

    fn explanation(&self, step: &Step, layout: &Layout) -> String {
        let puzzle = layout.puzzle();
        let slice = &self.slice;
        let unknown = &self.unknown;
        let parts = if unknown.len() == 1 {
            format!(
                "for the cells of {} in {}",
                cage_with_clue(puzzle, unknown[0]),
                it_or_them(slice)
            )
        } else {
            let named: Vec<String> = unknown.iter().map(|&c| cage_with_clue(puzzle, c)).collect();
            format!(
                "for the cells of {} in {}, together",
                and_list(named),
                it_or_them(slice)
            )
        };
        let cuts: Vec<String> = step
            .cuts
            .iter()
            .map(|cut| {
                let sums = removed_totals(layout, slice, cut, &self.target);
                format!(
                    "{} loses the {} that {} {} there, from {} to {}",
                    labels::cage(puzzle, cut.cage),
                    plural(cut.removed.len(), "combination", "combinations"),
                    if cut.removed.len() == 1 {
                        "gives"
                    } else {
                        "give"
                    },
                    or_numbers(&sums),
                    cut.before,
                    cut.after
                )
            })
            .collect();
        let fits = if unknown.len() == 1 {
            "Any other total there is impossible".to_string()
        } else {
            "Only some of their possible totals can make that up together".to_string()
        };
        let (known, verb) = match (self.target, self.required) {
            (Total::Sum(t), Total::Sum(r)) => ((t - r).to_string(), "add up to"),
            (Total::Product(t), Total::Product(r)) => (
                t.divided_by(r).map_or_else(String::new, |k| k.to_string()),
                "multiply to",
            ),
            _ => unreachable!("a slice's target and requirement are alike"),
        };
        format!(
            "{}. The parts of the other cages in {} are known and {verb} {known}, \
             which leaves {} {parts}. {fits}: {}. {}",
            slice_total(puzzle.size(), slice, self.target),
            it_or_them(slice),
            self.required,
            and_list(cuts),
            step.removals(puzzle.size())
        )
    }

    fn nudge(&self, _puzzle: &Puzzle) -> String {
        let slice = &self.slice;
        match self.target {
            Total::Sum(_) => format!(
                "Look at what {} {} up to.",
                sentence_slice(slice),
                add(slice)
            ),
            Total::Product(_) => format!(
                "Look at what {} {} to.",
                sentence_slice(slice),
                multiply(slice)
            ),
        }
    }

    fn evidence(&self, _step: &Step, puzzle: &Puzzle, e: &mut Evidence) {
        e.regions = labels::slice_regions(&self.slice);
        e.cages.extend(&self.unknown);
        e.cells = cells_in_slice(puzzle, &self.slice, &self.unknown);
    }
}

/// The cells of `cages` inside the slice, reading order.
pub(super) fn cells_in_slice(puzzle: &Puzzle, slice: &Slice, cages: &[CageId]) -> Vec<CellId> {
    let regions = labels::slice_regions(slice);
    cages
        .iter()
        .flat_map(|&c| puzzle.cage(c).cells.iter().copied())
        .filter(|&c| regions.iter().any(|&r| in_region(puzzle, r, c)))
        .collect()
}

/// The distinct sums, inside the slice, of the combinations a cut removes.
fn removed_totals(layout: &Layout, slice: &Slice, cut: &CageCut, like: &Total) -> Vec<Total> {
    let puzzle = layout.puzzle();
    let regions = labels::slice_regions(slice);
    let inside: Vec<bool> = layout
        .cage_cells(cut.cage)
        .iter()
        .map(|&c| regions.iter().any(|&r| in_region(puzzle, r, c)))
        .collect();
    let mut totals: Vec<Total> = cut
        .removed
        .iter()
        .map(|&i| {
            let digits = layout
                .combination(cut.cage, i as usize)
                .iter()
                .zip(&inside)
                .filter(|(_, &inside)| inside)
                .map(|(&d, _)| d);
            match like {
                Total::Sum(_) => Total::Sum(digits.map(u32::from).sum()),
                Total::Product(_) => Total::Product(Product::of_digits(digits)),
            }
        })
        .collect();
    totals.sort_unstable_by_key(|t| match t {
        Total::Sum(s) => u128::from(*s),
        Total::Product(p) => p.value().unwrap_or(u128::MAX),
    });
    totals.dedup();
    totals
}

/// `Column 4 holds 1 to 4 once, so it adds up to 10`, or for several lines `Every
/// row holds 1 to 4 once and adds up to 10, so rows C and D add up to 20`.
pub(super) fn slice_total(size: Size, slice: &Slice, target: Total) -> String {
    let n = size.get();
    let (one, several) = match target {
        Total::Sum(_) => ("adds up to", "add up to"),
        Total::Product(_) => ("multiplies to", "multiply to"),
    };
    if slice.count == 1 {
        return format!(
            "{} holds 1 to {n} once, so it {one} {target}",
            capitalised(&sentence_slice(slice))
        );
    }
    let word = match slice.axis {
        Axis::Rows => "row",
        Axis::Cols => "column",
        Axis::Boxes => "box",
    };
    let line = match target {
        Total::Sum(_) => size.line_total().to_string(),
        Total::Product(_) => Product::factorial_power(n, 1).to_string(),
    };
    format!(
        "Every {word} holds 1 to {n} once and {one} {line}, so {} {several} {target}",
        sentence_slice(slice),
    )
}

/// The verb for a slice's product: `multiplies` for one line, `multiply` for
/// several.
fn multiply(slice: &Slice) -> &'static str {
    if slice.count == 1 {
        "multiplies"
    } else {
        "multiply"
    }
}

/// The verb for a slice: `adds` for one line, `add` for several.
pub(super) fn add(slice: &Slice) -> &'static str {
    if slice.count == 1 {
        "adds"
    } else {
        "add"
    }
}

/// A slice as a sentence's subject: `row C`, `rows C and D`.
pub(super) fn sentence_slice(slice: &Slice) -> String {
    crate::explain::sentence_lines(&labels::slice_regions(slice))
}

/// `it` for one line, `them` for several.
pub(super) fn it_or_them(slice: &Slice) -> &'static str {
    if slice.count == 1 {
        "it"
    } else {
        "them"
    }
}

/// The proof of a region total's or a region parity's step, from the state
/// before it: the slice's total, its cage parts whose total (or parity) is
/// known, what they leave the unknown parts, and the totals each cut cage loses.
pub(super) fn prove(state: &State, step: &Step) -> Vec<Proof> {
    let layout = state.layout();
    let puzzle = layout.puzzle();
    let (slice, total, left, unknown, by_parity) = match &step.reason {
        Reason::RegionTotal(r) => (
            r.slice,
            r.target,
            Known::Total(r.required),
            r.unknown.clone(),
            false,
        ),
        Reason::RegionParity(r) => (
            r.slice,
            Total::Sum(r.target),
            Known::Parity(r.odd),
            vec![r.cage],
            true,
        ),
        _ => return Vec::new(),
    };
    let regions = labels::slice_regions(&slice);
    let inside = |cell: CellId| regions.iter().any(|&r| in_region(puzzle, r, cell));
    // The cages met in the slice, in the order their first cell is met there.
    let mut cages: Vec<CageId> = Vec::new();
    for cell in puzzle.size().cells().filter(|&c| inside(c)) {
        let cage = puzzle.cage_of(cell);
        if !cages.contains(&cage) {
            cages.push(cage);
        }
    }
    let part_cells = |cage: CageId| -> Vec<CellId> {
        let mut cells: Vec<CellId> = layout
            .cage_cells(cage)
            .iter()
            .copied()
            .filter(|&c| inside(c))
            .collect();
        cells.sort_unstable();
        cells
    };
    let value_of = |cage: CageId, i: usize| -> Total {
        let digits = layout
            .combination(cage, i)
            .iter()
            .zip(layout.cage_cells(cage))
            .filter(|(_, &c)| inside(c))
            .map(|(&d, _)| d);
        match total {
            Total::Sum(_) => Total::Sum(digits.map(u32::from).sum()),
            Total::Product(_) => Total::Product(Product::of_digits(digits)),
        }
    };
    let known: Vec<KnownPart> = cages
        .iter()
        .filter(|c| !unknown.contains(c))
        .filter_map(|&cage| {
            let mut values = state.live_combinations(cage).map(|i| value_of(cage, i));
            let first = values.next()?;
            let value = if by_parity {
                let odd = |t: Total| matches!(t, Total::Sum(s) if s % 2 == 1);
                let parity = odd(first);
                values
                    .all(|v| odd(v) == parity)
                    .then_some(Known::Parity(parity))?
            } else {
                values.all(|v| v == first).then_some(Known::Total(first))?
            };
            Some(KnownPart {
                cage,
                cells: part_cells(cage),
                value,
            })
        })
        .collect();
    let losses: Vec<Loss> = step
        .cuts
        .iter()
        .map(|cut| {
            let mut totals: Vec<Total> = cut
                .removed
                .iter()
                .map(|&i| value_of(cut.cage, i as usize))
                .collect();
            totals.sort_unstable_by_key(|t| match t {
                Total::Sum(s) => u128::from(*s),
                Total::Product(p) => p.value().unwrap_or(u128::MAX),
            });
            totals.dedup();
            Loss {
                cage: cut.cage,
                cells: part_cells(cut.cage),
                totals: totals.into_iter().map(Known::Total).collect(),
            }
        })
        .collect();
    let parts: Vec<Loss> = unknown
        .iter()
        .map(|&cage| {
            let mut totals: Vec<Known> = Vec::new();
            for i in state.live_combinations(cage) {
                let value = match value_of(cage, i) {
                    Total::Sum(s) if by_parity => Known::Parity(s % 2 == 1),
                    t => Known::Total(t),
                };
                if !totals.contains(&value) {
                    totals.push(value);
                }
            }
            totals.sort_unstable_by_key(|t| match t {
                Known::Total(Total::Sum(s)) => u128::from(*s),
                Known::Total(Total::Product(p)) => p.value().unwrap_or(u128::MAX),
                Known::Parity(odd) => u128::from(*odd),
            });
            Loss {
                cage,
                cells: part_cells(cage),
                totals,
            }
        })
        .collect();
    let text = proof_text(layout, &slice, total, &known, left, &parts, &losses);
    vec![Proof::Region(RegionProof {
        slice,
        total,
        known,
        left,
        parts,
        losses,
        text,
    })]
}

/// A region proof in words: the slice's total, each known part, what is left
/// for the unknown cages, and what each loses.
fn proof_text(
    layout: &Layout,
    slice: &Slice,
    total: Total,
    known: &[KnownPart],
    left: Known,
    parts: &[Loss],
    losses: &[Loss],
) -> String {
    let puzzle = layout.puzzle();
    let size = puzzle.size();
    let amount = |k: Known| match k {
        Known::Total(t) => t.to_string(),
        Known::Parity(odd) => format!("an {} total", labels::parity(odd)),
    };
    // Each known part by its cells (they name it): `14 in A1, B1, C1, C2`.
    let place = |k: &KnownPart| labels::cells(size, &k.cells);
    let known_text = match left {
        _ if known.is_empty() => format!("No part of {} is known", it_or_them(slice)),
        Known::Total(_) => {
            let parts: Vec<String> = known
                .iter()
                .map(|k| format!("{} in {}", amount(k.value), place(k)))
                .collect();
            let made = match total {
                Total::Sum(_) => known
                    .iter()
                    .map(|k| match k.value {
                        Known::Total(Total::Sum(v)) => v,
                        _ => 0,
                    })
                    .sum::<u32>()
                    .to_string(),
                Total::Product(_) => known
                    .iter()
                    .fold(Product::ONE, |all, k| match k.value {
                        Known::Total(Total::Product(v)) => all.times(v),
                        _ => all,
                    })
                    .to_string(),
            };
            format!(
                "The parts of {} already known make {made} ({})",
                it_or_them(slice),
                parts.join("; ")
            )
        }
        Known::Parity(_) => {
            let of = |odd: bool| -> Vec<String> {
                known
                    .iter()
                    .filter(|k| k.value == Known::Parity(odd))
                    .map(place)
                    .collect()
            };
            let (odd, even) = (of(true), of(false));
            let group = |cells: &[String], word: &str| match cells.len() {
                0 => None,
                1 => Some(format!("{word} in {}", cells[0])),
                _ => Some(format!("{word} in {}", cells.join("; "))),
            };
            let parts: Vec<String> = [group(&odd, "odd"), group(&even, "even")]
                .into_iter()
                .flatten()
                .collect();
            format!(
                "The parts of {} already known are {}: {}, so together an {} total",
                it_or_them(slice),
                and_list(parts),
                crate::explain::plural(odd.len(), "odd part", "odd parts"),
                labels::parity(odd.len() % 2 == 1)
            )
        }
    };
    let named: Vec<String> = parts
        .iter()
        .map(|p| cage_with_clue(puzzle, p.cage))
        .collect();
    let could: Vec<String> = parts
        .iter()
        .map(|p| {
            let totals: Vec<String> = p.totals.iter().map(|&t| amount(t)).collect();
            format!(
                "{} can make {} in {}",
                labels::cage(puzzle, p.cage),
                crate::explain::or_words(totals),
                labels::cells(size, &p.cells)
            )
        })
        .collect();
    let lost: Vec<String> = losses
        .iter()
        .map(|l| {
            let totals: Vec<String> = l.totals.iter().map(|&t| amount(t)).collect();
            format!(
                "{} cannot make {} in {}",
                labels::cage(puzzle, l.cage),
                crate::explain::or_words(totals),
                labels::cells(size, &l.cells)
            )
        })
        .collect();
    format!(
        "{}. {known_text}, which leaves {} for the cells of {} in {}: {}. So {}.",
        slice_total(size, slice, total),
        amount(left),
        and_list(named),
        it_or_them(slice),
        and_list(could),
        and_list(lost)
    )
}
