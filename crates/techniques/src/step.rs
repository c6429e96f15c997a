//! A step is plain data: which technique, its rating, what justifies it, and what it
//! removes. Finding a step and applying it are separate, so hints, logs and grading
//! share the same code, and every step can be checked against the solution.

use crate::{Rating, TechniqueKind};
use kenken_model::{CageId, CellId, Digit, Digits, Product, RegionKind, Size};
use std::fmt::{self, Write};

/// Combinations struck off one cage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageCut {
    pub cage: CageId,
    /// Indices (into the cage's combination table) removed, ascending.
    pub removed: Vec<u32>,
    /// Live combinations before and after.
    pub before: usize,
    pub after: usize,
}

/// What a region slice's cells amount to: their sum, or their product.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Total {
    Sum(u32),
    Product(Product),
}

impl fmt::Display for Total {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Total::Sum(s) => write!(f, "{s}"),
            Total::Product(p) => write!(f, "{p}"),
        }
    }
}

/// Rows, columns, or (KenDoku) boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    Rows,
    Cols,
    /// KenDoku boxes, in reading order; a box slice is always one box.
    Boxes,
}

/// `count` adjacent rows (or columns) starting at 0-based `first`; or one KenDoku
/// box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slice {
    pub axis: Axis,
    pub first: usize,
    pub count: usize,
}

impl Slice {
    /// `Row 3`, `Cols 5, 6`.
    pub fn describe(&self) -> String {
        let word = match (self.axis, self.count) {
            (Axis::Rows, 1) => "Row",
            (Axis::Rows, _) => "Rows",
            (Axis::Cols, 1) => "Col",
            (Axis::Cols, _) => "Cols",
            (Axis::Boxes, 1) => "Box",
            (Axis::Boxes, _) => "Boxes",
        };
        let nums: Vec<String> = (self.first..self.first + self.count)
            .map(|i| (i + 1).to_string())
            .collect();
        format!("{word} {}", nums.join(", "))
    }
}

/// Why a step is valid: the cells, cages, digits and lines that justify it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A cell with one candidate left.
    NakedSingle { cell: CellId, digit: Digit },
    /// `digit` has one place left in `region`.
    HiddenSingle {
        region: RegionKind,
        cell: CellId,
        digit: Digit,
    },
    /// In `region`, every cell that can hold `digit` belongs to `cage`, so the cage
    /// must put it in one of `cells`: all the cage's cells in `region`, placed or
    /// not, in the region's order.
    Claiming {
        region: RegionKind,
        digit: Digit,
        cage: CageId,
        cells: Vec<CellId>,
    },
    /// Every live combination of `cage` puts each (digit, line) of `forced` inside
    /// the cage, so other cells of that line lose the digit; `cells` are those
    /// cells. Both in the reference's order (see the pointing technique).
    Pointing {
        cage: CageId,
        forced: Vec<(Digit, RegionKind)>,
        cells: Vec<CellId>,
    },
    /// The k `digits` are confined to the k `cells` of `region`, so those cells
    /// lose every other digit.
    HiddenSubset {
        region: RegionKind,
        digits: Digits,
        cells: Vec<CellId>,
    },
    /// `digit` in the `base` lines lies only in the `cover` lines.
    Fish {
        digit: Digit,
        base: Vec<RegionKind>,
        cover: Vec<RegionKind>,
    },
    /// The slice adds up (or multiplies) to `target`; the unknown cages' cells
    /// inside it must make `required`. The cages wholly inside the slice come
    /// first, then those partly inside, each group in clue order (the cuts follow
    /// the same order).
    RegionTotal {
        slice: Slice,
        target: Total,
        required: Total,
        unknown: Vec<CageId>,
    },
    /// Only `cage`'s part of the slice has an unknown parity, so it is forced.
    RegionParity {
        slice: Slice,
        target: u32,
        cage: CageId,
        odd: bool,
    },
    /// Combinations of one of these cages that no choice for the others supports.
    CageCombination { cages: Vec<CageId> },
}

/// One deduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub technique: TechniqueKind,
    pub rating: Rating,
    pub reason: Reason,
    /// Cells whose digit the step fixes (the other candidates are in
    /// `eliminations`).
    pub placements: Vec<(CellId, Digit)>,
    /// Candidates the step removes directly.
    pub eliminations: Vec<(CellId, Digit)>,
    /// Cage combinations the step removes.
    pub cuts: Vec<CageCut>,
}

impl Step {
    pub(crate) fn naked_single(cell: CellId, digit: Digit) -> Step {
        Step {
            technique: TechniqueKind::PROPAGATION,
            rating: Rating::ZERO,
            reason: Reason::NakedSingle { cell, digit },
            placements: vec![(cell, digit)],
            eliminations: Vec::new(),
            cuts: Vec::new(),
        }
    }

    /// A step that removes cage combinations, without its direct eliminations: what
    /// a rating-only run ([`Ladder::quiet`](crate::Ladder::quiet)) applies, since
    /// applying the cuts and propagating removes the same candidates
    /// ([`State::step_from_cuts`](crate::State::step_from_cuts) fills them in).
    pub(crate) fn from_cuts(
        technique: TechniqueKind,
        rating: Rating,
        reason: Reason,
        cuts: Vec<CageCut>,
    ) -> Step {
        Step {
            technique,
            rating,
            reason,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cuts,
        }
    }

    /// About the bytes the step holds, its lists included (what a step log
    /// reserves on its run's budget for it).
    pub fn bytes(&self) -> usize {
        let cells = match &self.reason {
            Reason::Claiming { cells, .. }
            | Reason::Pointing { cells, .. }
            | Reason::HiddenSubset { cells, .. } => cells.len(),
            Reason::Fish { base, cover, .. } => base.len() + cover.len(),
            Reason::RegionTotal { unknown, .. } => unknown.len(),
            Reason::CageCombination { cages } => cages.len(),
            _ => 0,
        };
        let removed: usize = self.cuts.iter().map(|c| c.removed.len()).sum();
        size_of::<Step>()
            + 8 * (cells + self.placements.len() + self.eliminations.len())
            + 4 * removed
            + size_of::<CageCut>() * self.cuts.len()
    }

    /// Whether this is propagation (a naked single, rating 0) rather than a step of
    /// the ladder.
    pub fn is_propagation(&self) -> bool {
        self.technique == TechniqueKind::PROPAGATION
    }

    /// The one-line description in the reference solver's style, with `r2c3` names.
    pub fn text(&self, size: Size) -> String {
        let cell = |c: CellId| size.cell_name(c);
        let cells = |cs: &[CellId]| cs.iter().map(|&c| cell(c)).collect::<Vec<_>>().join(", ");
        let name = self.technique.name();
        match &self.reason {
            Reason::NakedSingle { cell: c, digit } => {
                format!("Naked single: {digit} in {}", cell(*c))
            }
            Reason::HiddenSingle { cell: c, digit, .. } => {
                format!("Hidden single: {digit} in {}", cell(*c))
            }
            Reason::Claiming {
                digit,
                cage,
                cells: cs,
                ..
            } => {
                let (before, after) = self.counts(*cage);
                format!(
                    "Claiming candidates: cage {cage} must contain {digit} in {}: from {before} combinations to {after}",
                    cells(cs)
                )
            }
            Reason::Pointing {
                cage,
                forced,
                cells: cs,
            } => {
                let forced: Vec<String> = forced.iter().map(|(d, r)| format!("{d}{r}")).collect();
                format!(
                    "Pointing candidates: all combinations for cage {cage} contain {}; eliminations in {}",
                    forced.join(","),
                    cells(cs)
                )
            }
            Reason::HiddenSubset { digits, .. } => {
                let ds: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
                // The reference names only the cells that lose a digit.
                let mut losing: Vec<CellId> = Vec::new();
                for &(c, _) in &self.eliminations {
                    if !losing.contains(&c) {
                        losing.push(c);
                    }
                }
                format!(
                    "{}: {} in {}",
                    subset_name(digits.len()),
                    ds.join(", "),
                    cells(&losing)
                )
            }
            Reason::Fish { digit, base, .. } => {
                let mut s = format!("{}: {digit} in ", fish_name(base.len()));
                for (i, r) in base.iter().enumerate() {
                    let label = r.to_string();
                    if i == 0 {
                        s.push_str(&label);
                    } else {
                        let _ = write!(s, ", {}", &label[1..]);
                    }
                }
                s
            }
            Reason::RegionTotal {
                slice,
                target,
                required,
                unknown,
            } => {
                let which = if unknown.len() == 1 {
                    format!("cage {}", unknown[0])
                } else {
                    format!("cages {}", join(unknown))
                };
                let (kind, verb) = match target {
                    Total::Sum(_) => ("sum", "sum"),
                    Total::Product(_) => ("product", "multiply"),
                };
                let mut s = format!(
                    "Region {kind}: {} must {verb} to {target}; {which}'s cells within this region must {verb} to {required}; ",
                    slice.describe()
                );
                s.push_str(&self.reduction_text(unknown.len() == 1));
                s
            }
            Reason::RegionParity {
                slice,
                target,
                cage,
                odd,
            } => {
                let parity = |odd: bool| if odd { "Odd" } else { "Even" };
                let mut s = format!(
                    "Region parity: {} must sum to {} number; cage {cage}'s cells within this region must sum to {} number; ",
                    slice.describe(),
                    parity(target % 2 == 1),
                    parity(*odd)
                );
                s.push_str(&self.reduction_text(true));
                s
            }
            Reason::CageCombination { cages } => {
                let cut: Vec<CageId> = self.cuts.iter().map(|c| c.cage).collect();
                let befores: Vec<String> = self.cuts.iter().map(|c| c.before.to_string()).collect();
                let afters: Vec<String> = self.cuts.iter().map(|c| c.after.to_string()).collect();
                if cut.len() == 1 {
                    format!(
                        "{name}: cages {} interact such that cage {} has incongruous combinations; reduced from {} to {} combinations",
                        join(cages),
                        cut[0],
                        befores[0],
                        afters[0]
                    )
                } else {
                    format!(
                        "{name}: cages {} interact such that cages {} have incongruous combinations; reduced from {} to {} combinations respectively",
                        join(cages),
                        join(&cut),
                        befores.join(", "),
                        afters.join(", ")
                    )
                }
            }
        }
    }

    /// Live combinations of `cage` before and after the step (0, 0 when it cuts
    /// none).
    pub(crate) fn counts(&self, cage: CageId) -> (usize, usize) {
        self.cuts
            .iter()
            .find(|c| c.cage == cage)
            .map(|c| (c.before, c.after))
            .unwrap_or((0, 0))
    }

    /// `reduced from 6 combinations to 2`, or for several cages
    /// `cages 21, 7 reduced from 6, 14 combinations to 4, 6`.
    fn reduction_text(&self, single: bool) -> String {
        if single && self.cuts.len() == 1 {
            let c = &self.cuts[0];
            return format!("reduced from {} combinations to {}", c.before, c.after);
        }
        let cages: Vec<CageId> = self.cuts.iter().map(|c| c.cage).collect();
        let b: Vec<String> = self.cuts.iter().map(|c| c.before.to_string()).collect();
        let a: Vec<String> = self.cuts.iter().map(|c| c.after.to_string()).collect();
        format!(
            "cages {} reduced from {} combinations to {}",
            join(&cages),
            b.join(", "),
            a.join(", ")
        )
    }
}

fn join(cages: &[CageId]) -> String {
    cages
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Hidden pair, triple, quad, …
pub fn subset_name(k: usize) -> String {
    const NAMES: [&str; 15] = [
        "single",
        "pair",
        "triple",
        "quad",
        "quintuple",
        "sextuple",
        "septuple",
        "octuple",
        "nonuple",
        "decuple",
        "11-tuple",
        "12-tuple",
        "13-tuple",
        "14-tuple",
        "15-tuple",
    ];
    format!("Hidden {}", NAMES.get(k - 1).copied().unwrap_or("subset"))
}

/// X-Wing, Swordfish, Jellyfish, …
pub fn fish_name(k: usize) -> String {
    match k {
        2 => "X-Wing".into(),
        3 => "Swordfish".into(),
        4 => "Jellyfish".into(),
        5 => "Squirmbag".into(),
        6 => "Whale".into(),
        7 => "Leviathan".into(),
        _ => format!("Fish of size {k}"),
    }
}
