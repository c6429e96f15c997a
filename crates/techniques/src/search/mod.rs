//! Exhaustive solution counter.
//!
//! The grader needs a ground truth that does not depend on the technique ladder: is
//! the puzzle solvable at all, is the solution unique, and what is it (so a step can
//! be checked against it). This module answers that by a complete backtracking
//! search, so it must be fast enough to run on every puzzle of a batch without being
//! noticed — a 9×9 Tatham puzzle takes tens of microseconds.
//!
//! How it searches (see `engine.rs`):
//!
//! * state = a candidate bitmask per cell and, per cage, a bitset of its live
//!   combinations (plus their count); one copy of the state per search level, so
//!   backtracking is just dropping back to the parent's copy;
//! * at every node, propagate to a fixed point: combination filtering (a combination
//!   survives only while each of its digits is a candidate of its cell, and cell
//!   candidates shrink to what the survivors allow), naked singles, hidden singles,
//!   "every digit still has a place in every house", and the two cage–house
//!   intersections (*pointing*: a digit every live combination puts in the cage's
//!   part of a house leaves the rest of the house; *claiming*: a digit whose places
//!   in a house all lie in one cage makes that cage put it there). Most Tatham
//!   puzzles, up to Unreasonable, are solved at the root by this alone;
//! * branch on the cage with the fewest live combinations.
//!
//! The combination tables are the model's ([`kenken_model::Combinations::enumerate`]),
//! copied into the search's flat layout (live combinations only, as digit bits).
//!
//! Nothing in the search loop allocates: every buffer is sized when the search
//! starts (state levels are added only when the search first gets deeper).
//!
//! Cost: tens of microseconds for a 9×9 Tatham puzzle, tables included (the timing
//! test in `tests/search.rs` prints the distribution). The search is exponential in
//! the worst case: random 16×16 puzzles with cages of up to four cells mostly take
//! milliseconds, but an occasional one takes seconds, and a 9×9 made of six-cell
//! cages can take many minutes. [`count_solutions_with_deadline`] bounds that: the
//! search looks at the clock every few hundred nodes and gives up at the deadline
//! with [`Verdict::Unknown`].

mod engine;
#[cfg(test)]
mod tests;

use kenken_model::{Combinations, Digit, Digits, ModelError, Puzzle};
use std::borrow::Borrow;
use std::time::Instant;

/// What the search proved about the number of solutions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// No assignment satisfies every constraint.
    Impossible,
    /// Exactly one solution (the search space was exhausted after finding it).
    Unique,
    /// At least two solutions.
    Ambiguous,
    /// The deadline passed before the search was done, so it proved nothing about
    /// the count: only [`SearchOutcome::solutions_found`] (and
    /// [`SearchOutcome::solution`]) say what it had found by then, a lower bound.
    /// Only a search given a deadline ends this way.
    Unknown,
}

/// The result of a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchOutcome {
    pub verdict: Verdict,
    /// Solutions found before the search ended (at most the effective limit; a
    /// lower bound when the verdict is [`Verdict::Unknown`]).
    pub solutions_found: usize,
    /// First solution found, digits in reading order.
    pub solution: Option<Vec<Digit>>,
    /// Search nodes: the root plus every branch tried (each one is a propagation to
    /// a fixed point). A machine-independent measure of how hard the search was.
    /// 0 when the deadline had passed before the search started.
    pub nodes: u64,
}

impl SearchOutcome {
    /// Whether the puzzle has exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.verdict == Verdict::Unique
    }
}

/// Counts the solutions of `puzzle`, stopping after `limit` of them.
///
/// `limit` 2 is enough to tell unique from ambiguous (see [`solve`]); a larger limit
/// counts further. Limits below 2 are raised to 2, because a [`Verdict`] of
/// [`Verdict::Unique`] is a claim that no second solution exists.
///
/// Builds every cage's combination table first; that is the only thing that can fail
/// (a cage too large to enumerate, [`ModelError::TooManyCombinations`]). An
/// unreachable clue is not an error: the puzzle is then [`Verdict::Impossible`].
pub fn count_solutions(puzzle: &Puzzle, limit: usize) -> Result<SearchOutcome, ModelError> {
    let mut tables = Vec::with_capacity(puzzle.cages().len());
    for g in puzzle.cage_ids() {
        tables.push(puzzle.combinations(g)?);
    }
    Ok(count_solutions_with(puzzle, &tables, None, limit))
}

/// Solves `puzzle`: the first solution and whether it is unique.
pub fn solve(puzzle: &Puzzle) -> Result<SearchOutcome, ModelError> {
    count_solutions(puzzle, 2)
}

/// [`count_solutions`] on combination tables the caller already has, e.g. a
/// solver state's tables with some combinations struck off.
///
/// * `tables`: one per cage in [`kenken_model::CageId`] order, each in the cage's cell
///   order; only the live combinations are used. Combinations with a digit outside
///   1..=N can never be placed and are ignored.
/// * `candidates`: optional starting candidates per cell (reading order); a solution
///   must put each cell's digit among them.
///
/// Both only *restrict* the puzzle, so the outcome answers "how many solutions of the
/// puzzle agree with this state" — a state that lost the true solution comes out
/// [`Verdict::Impossible`].
///
/// # Panics
///
/// When the arguments do not belong to `puzzle`: `tables.len()` is not the number of
/// cages, a table's width is not its cage's cell count, or `candidates` does not have
/// one entry per cell. These are caller bugs, not properties of a puzzle.
pub fn count_solutions_with(
    puzzle: &Puzzle,
    tables: &[Combinations],
    candidates: Option<&[Digits]>,
    limit: usize,
) -> SearchOutcome {
    count_solutions_with_deadline(puzzle, tables, candidates, limit, None)
}

/// [`count_solutions_with`] that gives up once `deadline` has passed (`None`: never,
/// the same as [`count_solutions_with`]).
///
/// The clock is read when the search starts and then every few hundred nodes, so
/// the search ends within milliseconds of the deadline; a deadline already passed
/// gives up before the root. A search cut short has the verdict
/// [`Verdict::Unknown`] — whatever it had found by then: the count and the
/// solution it reached are only a lower bound and a witness, never a claim of
/// impossibility, uniqueness or ambiguity. A search that reaches `limit` or
/// exhausts the space before the deadline is an ordinary one.
///
/// # Panics
///
/// As [`count_solutions_with`].
pub fn count_solutions_with_deadline(
    puzzle: &Puzzle,
    tables: &[Combinations],
    candidates: Option<&[Digits]>,
    limit: usize,
    deadline: Option<Instant>,
) -> SearchOutcome {
    count_in_tables(puzzle, tables, candidates, limit, deadline)
}

/// [`count_solutions_with_deadline`] over tables held any way (a layout shares its
/// tables through [`std::sync::Arc`]s).
pub(crate) fn count_in_tables(
    puzzle: &Puzzle,
    tables: &[impl Borrow<Combinations>],
    candidates: Option<&[Digits]>,
    limit: usize,
    deadline: Option<Instant>,
) -> SearchOutcome {
    let layout = engine::Layout::from_tables(puzzle, tables);
    let mut search = engine::Search::new(&layout, limit.max(2), deadline);
    search.run(candidates);
    let results = search.into_results();
    let verdict = match results.solutions {
        _ if results.interrupted => Verdict::Unknown,
        0 => Verdict::Impossible,
        1 => Verdict::Unique,
        _ => Verdict::Ambiguous,
    };
    SearchOutcome {
        verdict,
        solutions_found: results.solutions,
        solution: results.first,
        nodes: results.nodes,
    }
}
