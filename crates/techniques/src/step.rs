//! A step is plain data: which technique, its rating, what justifies it, and what it
//! removes. Finding a step and applying it are separate, so hints, logs and grading
//! share the same code, and every step can be checked against the solution.

use crate::explain::Words;
use crate::proof::Proof;
pub use crate::techniques::cage_combination::CageCombination;
pub use crate::techniques::claiming::Claiming;
pub use crate::techniques::fish::Fish;
pub use crate::techniques::hidden_single::HiddenSingle;
pub use crate::techniques::hidden_subset::HiddenSubset;
pub use crate::techniques::naked_single::NakedSingle;
pub use crate::techniques::pointing::Pointing;
pub use crate::techniques::region::{RegionParity, RegionTotal};
use crate::{Rating, TechniqueKind};
use kenken_model::{CageId, CellId, Digit, Product, Size};
use std::fmt;

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

/// Why a step is valid: the cells, cages, digits and lines that justify it. Each
/// technique's reason is its own type, defined in the technique's file with its
/// words ([`Words`](crate::explain::Words)): the one-line texts, the
/// explanation, the nudge and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    NakedSingle(NakedSingle),
    HiddenSingle(HiddenSingle),
    Claiming(Claiming),
    Pointing(Pointing),
    HiddenSubset(HiddenSubset),
    Fish(Fish),
    RegionTotal(RegionTotal),
    RegionParity(RegionParity),
    CageCombination(CageCombination),
}

impl Reason {
    /// The words of this reason's technique.
    pub(crate) fn words(&self) -> &dyn Words {
        match self {
            Reason::NakedSingle(r) => r,
            Reason::HiddenSingle(r) => r,
            Reason::Claiming(r) => r,
            Reason::Pointing(r) => r,
            Reason::HiddenSubset(r) => r,
            Reason::Fish(r) => r,
            Reason::RegionTotal(r) => r,
            Reason::RegionParity(r) => r,
            Reason::CageCombination(r) => r,
        }
    }
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
    /// Why each removal holds ([`Proof`]): built by the techniques whose steps
    /// remove cage combinations (cage comparisons, region totals and parities),
    /// when the run shows its steps; empty otherwise.
    pub proofs: Vec<Proof>,
}

impl Step {
    pub(crate) fn naked_single(cell: CellId, digit: Digit) -> Step {
        Step {
            technique: TechniqueKind::PROPAGATION,
            rating: Rating::ZERO,
            reason: Reason::NakedSingle(NakedSingle { cell, digit }),
            placements: vec![(cell, digit)],
            eliminations: Vec::new(),
            cuts: Vec::new(),
            proofs: Vec::new(),
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
            proofs: Vec::new(),
        }
    }

    /// About the bytes the step holds, its lists included (what a step log
    /// reserves on its run's budget for it).
    pub fn bytes(&self) -> usize {
        let cells = match &self.reason {
            Reason::Claiming(Claiming { cells, .. })
            | Reason::Pointing(Pointing { cells, .. })
            | Reason::HiddenSubset(HiddenSubset { cells, .. }) => cells.len(),
            Reason::Fish(Fish { base, cover, .. }) => base.len() + cover.len(),
            Reason::RegionTotal(RegionTotal { unknown, .. }) => unknown.len(),
            Reason::CageCombination(CageCombination { cages }) => cages.len(),
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
        self.reason.words().reference_text(self, size)
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
    pub(crate) fn reduction_text(&self, single: bool) -> String {
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

pub(crate) fn join(cages: &[CageId]) -> String {
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
