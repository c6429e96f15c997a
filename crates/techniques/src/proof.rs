//! Proofs: why each removal of a step holds, in data a program can check and in
//! words a person can follow. A step that removes cage combinations carries one
//! proof per removed combination (cage comparisons) or one per slice (region
//! totals and parities); each technique builds its proofs, and their words, in
//! its own file, when the run shows its steps.
//!
//! * [`CombinationProof`]: with a cage's cells set to the removed combination's
//!   digits, the listed cages have no choice of one live combination each (those
//!   possible before the step) that avoids repeating a digit in a row, a column
//!   (or a KenDoku box), among themselves and with the assumed digits. The cages
//!   listed are the fewest that suffice.
//! * [`RegionProof`]: a slice of lines adds up (or multiplies, or has a parity)
//!   to a known total; the known parts of its cages make some of it; what is left
//!   is what the unknown parts must make, each unknown part with the totals it can
//!   make, and each unknown cage loses the totals inside the slice that no choice
//!   for the others completes.

use crate::step::{Slice, Total};
use kenken_model::{CageId, CellId, Digit};

/// Why a step's removal holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Combination(CombinationProof),
    Region(RegionProof),
}

impl Proof {
    /// The proof's sentence or two for a person, in the grid's names.
    pub fn text(&self) -> &str {
        match self {
            Proof::Combination(p) => &p.text,
            Proof::Region(p) => &p.text,
        }
    }
}

/// A removed cage combination and why no choice for its neighbours fits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombinationProof {
    /// The cage that loses the combination.
    pub cage: CageId,
    /// The combination: the digits of the cage's cells, in the cage's cell order.
    pub digits: Vec<Digit>,
    /// The cages that leave it no room, each with the combinations it had before
    /// the step, in the order the text takes them.
    pub cages: Vec<LiveCage>,
    /// How the listed cages run out of room, claim by claim; the text is written
    /// from it, one clause per entry.
    pub chain: Vec<ChainEntry>,
    pub text: String,
    /// The length of `text` before the sentences on narrowed cages (those are
    /// rewritten when a log numbers its steps otherwise).
    pub chain_text_len: usize,
}

/// One checkable claim of a cage comparison's chain. "Fixed" digits are the
/// assumed ones, then those of every `Forced` entry above this one in its chain
/// and in the chains around it, then the digits of the enclosing cases; a
/// cage's options are its live combinations that repeat no fixed digit in a
/// line (or a KenDoku box).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainEntry {
    /// The cage has exactly this one option left.
    Forced { cage: CageId, digits: Vec<Digit> },
    /// The cage has no option left.
    Empty { cage: CageId },
    /// One case per option of the cage, each case's chain ending in `Empty`.
    Branch { cage: CageId, cases: Vec<Case> },
}

/// One option of a branched cage, and how the cages run out of room with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub digits: Vec<Digit>,
    pub chain: Vec<ChainEntry>,
}

impl ChainEntry {
    /// The cage the entry is about.
    pub fn cage(&self) -> CageId {
        match self {
            ChainEntry::Forced { cage, .. }
            | ChainEntry::Empty { cage }
            | ChainEntry::Branch { cage, .. } => *cage,
        }
    }

    /// How many entries this one holds, itself included.
    pub fn size(&self) -> usize {
        match self {
            ChainEntry::Branch { cases, .. } => {
                1 + cases
                    .iter()
                    .map(|c| c.chain.iter().map(ChainEntry::size).sum::<usize>())
                    .sum::<usize>()
            }
            _ => 1,
        }
    }

    /// How many cases end in this entry: 1 for a claim, the leaves for a branch.
    pub fn leaves(&self) -> usize {
        match self {
            ChainEntry::Branch { cases, .. } => cases
                .iter()
                .map(|c| c.chain.last().map_or(0, ChainEntry::leaves))
                .sum(),
            _ => 1,
        }
    }
}

/// A cage and the combinations it had before the step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveCage {
    pub cage: CageId,
    /// Each combination as the digits of the cage's cells, in cell order.
    pub live: Vec<Vec<Digit>>,
    /// The combinations the clue and the candidates before the step still allow
    /// but earlier steps cut (so not in `live`).
    pub cut: Vec<Vec<Digit>>,
    /// The earlier steps that cut them: indices into the grade's steps (the
    /// step log numbers them from 1), ascending; into the steps a log lists
    /// once [`Step::renumber_narrowing`](crate::Step::renumber_narrowing) has
    /// run.
    pub narrowed_by: Vec<usize>,
    /// Whether some of them are steps the log leaves out (so not in
    /// `narrowed_by`); only a renumbering for a log that lists some steps sets it.
    pub narrowed_by_unlisted: bool,
}

/// A slice whose total is known, and what its parts leave to its unknown cages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionProof {
    pub slice: Slice,
    /// What the slice adds up (or multiplies) to; for a parity, its sum.
    pub total: Total,
    /// The cage parts inside the slice whose total (or parity) is known.
    pub known: Vec<KnownPart>,
    /// What the unknown parts must make together.
    pub left: Known,
    /// Each unknown cage's part, with the totals (or parities) its live
    /// combinations before the step make there.
    pub parts: Vec<Loss>,
    /// Each unknown cage and the totals inside the slice it loses.
    pub losses: Vec<Loss>,
    pub text: String,
}

/// A cage's part of a slice whose total is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPart {
    pub cage: CageId,
    /// Its cells inside the slice, reading order.
    pub cells: Vec<CellId>,
    pub value: Known,
}

/// A known total, or only its parity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Total(Total),
    /// Odd when true.
    Parity(bool),
}

/// An unknown cage's part of a slice and some of its totals there: those it
/// could make (a region proof's `parts`) or those it loses (`losses`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    pub cage: CageId,
    /// Its cells inside the slice, reading order.
    pub cells: Vec<CellId>,
    pub totals: Vec<Known>,
}
