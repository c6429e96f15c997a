//! Exhaustive solution counter.
//!
//! The grader needs a ground truth that does not depend on the technique ladder: is
//! the puzzle solvable at all, is the solution unique, and what is it (so a step can
//! be checked against it). This module answers that by a complete backtracking
//! search, so it must be fast enough to run on every puzzle of a batch without being
//! noticed — a 9×9 Tatham puzzle takes tens of microseconds.
//!
//! How it searches (see `engine/`):
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
//! copied into the search's flat puzzle (live combinations only, as digit bits,
//! with per-digit masks and, for cages of up to four cells, each combination packed
//! in one word). A caller that meets the same kinds of cages again and again (a
//! batch) can keep them in that form ([`SearchTable`], [`count_solutions_prepared`]).
//!
//! Nothing in the search loop allocates: every buffer is sized when the search
//! starts (state levels are added only when the search first gets deeper), and a
//! thread keeps its buffers for its next search.
//!
//! Cost: tens of microseconds for a 9×9 Tatham puzzle, tables included (the timing
//! test in `tests/search.rs` prints the distribution). The search is exponential in
//! the worst case: random 16×16 puzzles with cages of up to four cells mostly take
//! milliseconds, but an occasional one takes seconds, and a 9×9 made of six-cell
//! cages can take many minutes. [`count_solutions_within`] bounds that: every node
//! spends its work on a [`Budget`] (which looks at the clock every few thousand
//! units), the tables and per-level copies are reserved on it, and the search gives
//! up with [`Verdict::Unknown`] once it is exhausted.

#![forbid(unsafe_code)]

mod engine;
mod table;
#[cfg(test)]
mod tests;

pub use table::SearchTable;

use kenken_model::clock::Instant;
use kenken_model::{Budget, Combinations, Digit, Digits, Exhausted, Limits, Puzzle};
use std::borrow::Borrow;
use std::cell::Cell;

/// What the search proved about the number of solutions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// No assignment satisfies every constraint.
    Impossible,
    /// Exactly one solution (the search space was exhausted after finding it).
    Unique,
    /// At least two solutions.
    Ambiguous,
    /// The budget ran out before the search was done (see
    /// [`SearchOutcome::stopped`]), so it proved nothing about the count: only
    /// [`SearchOutcome::solutions_found`] (and [`SearchOutcome::solution`]) say what
    /// it had found by then, a lower bound.
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
    /// Why the search stopped before it was done (with [`Verdict::Unknown`]).
    pub stopped: Option<Exhausted>,
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
/// Within the default [`Limits`] (no deadline), tables included: a puzzle whose
/// tables or search need more comes out [`Verdict::Unknown`], with
/// [`SearchOutcome::stopped`] saying why. An unreachable clue is not an error: the
/// puzzle is then [`Verdict::Impossible`].
pub fn count_solutions(puzzle: &Puzzle, limit: usize) -> SearchOutcome {
    count_solutions_in(puzzle, limit, &mut Budget::new(Limits::new()))
}

/// [`count_solutions`] within `budget`, the combination tables included.
pub fn count_solutions_in(puzzle: &Puzzle, limit: usize, budget: &mut Budget) -> SearchOutcome {
    let mut tables = Vec::with_capacity(puzzle.cages().len());
    for g in puzzle.cage_ids() {
        match Combinations::enumerate_within(puzzle, g, budget) {
            Ok(table) => tables.push(table),
            Err(why) => return SearchOutcome::stopped_by(why),
        }
    }
    count_solutions_within(puzzle, &tables, None, limit, budget)
}

/// Solves `puzzle`: the first solution and whether it is unique.
pub fn solve(puzzle: &Puzzle) -> SearchOutcome {
    count_solutions(puzzle, 2)
}

impl SearchOutcome {
    /// A search that could not start: its budget ran out first (building its
    /// tables, say).
    pub fn stopped_by(why: Exhausted) -> SearchOutcome {
        SearchOutcome {
            verdict: Verdict::Unknown,
            solutions_found: 0,
            solution: None,
            nodes: 0,
            stopped: Some(why),
        }
    }
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
    count_solutions_within(
        puzzle,
        tables,
        candidates,
        limit,
        &mut Budget::new(Limits::new()),
    )
}

/// [`count_solutions_with`] that gives up once `deadline` has passed (`None`: never,
/// the same as [`count_solutions_with`]), within the default memory and work
/// limits (see [`count_solutions_within`]).
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
    let mut budget = Budget::new(Limits::new().until(deadline));
    count_solutions_within(puzzle, tables, candidates, limit, &mut budget)
}

/// [`count_solutions_with`] within `budget`: every node spends its work there
/// (the clock is looked at every few thousand units, so the search ends within a
/// millisecond or so of a deadline; a deadline already passed gives up before the
/// root), and the search's own tables are reserved there. A search cut short has
/// the verdict [`Verdict::Unknown`], with [`SearchOutcome::stopped`] saying why —
/// whatever it had found by then: the count and the solution it reached are only a
/// lower bound and a witness, never a claim of impossibility, uniqueness or
/// ambiguity. A search that reaches `limit` or exhausts the space first is an
/// ordinary one.
///
/// Tables may be held any way (the grader shares its tables through
/// [`std::sync::Arc`]s).
///
/// # Panics
///
/// As [`count_solutions_with`].
pub fn count_solutions_within(
    puzzle: &Puzzle,
    tables: &[impl Borrow<Combinations>],
    candidates: Option<&[Digits]>,
    limit: usize,
    budget: &mut Budget,
) -> SearchOutcome {
    with_buffers(|buffers| {
        let engine::Buffers { flat, search } = buffers;
        match flat.fill(puzzle, tables, budget) {
            Ok(()) => run(flat, search, candidates, limit, budget),
            Err(why) => SearchOutcome::stopped_by(why),
        }
    })
}

/// [`count_solutions_within`] on tables already in the search's form (see
/// [`SearchTable`]): the same outcome, without working the tables' masks out again
/// for every puzzle.
///
/// # Panics
///
/// When `tables` does not have one table per cage, in cage order, each made for
/// its cage's width on this grid's size.
pub fn count_solutions_prepared(
    puzzle: &Puzzle,
    tables: &[impl Borrow<SearchTable>],
    candidates: Option<&[Digits]>,
    limit: usize,
    budget: &mut Budget,
) -> SearchOutcome {
    let tables: Vec<&SearchTable> = tables.iter().map(Borrow::borrow).collect();
    with_buffers(|buffers| {
        let engine::Buffers { flat, search } = buffers;
        match flat.fill_prepared(puzzle, &tables, budget) {
            Ok(()) => run(flat, search, candidates, limit, budget),
            Err(why) => SearchOutcome::stopped_by(why),
        }
    })
}

/// Runs `f` in the thread's buffers from its last search, if it kept them (a
/// search within a search, which nothing does today, would simply start with
/// fresh ones), and keeps them for the next unless they grew too large.
fn with_buffers(f: impl FnOnce(&mut engine::Buffers) -> SearchOutcome) -> SearchOutcome {
    let mut buffers = SPARE.with(Cell::take).unwrap_or_default();
    let outcome = f(&mut buffers);
    if buffers.capacity_bytes() <= engine::Buffers::KEEP {
        SPARE.with(|spare| spare.set(Some(buffers)));
    }
    outcome
}

thread_local! {
    /// Each thread's search buffers, kept from one search to the next: a batch of
    /// small puzzles then allocates almost nothing per puzzle.
    static SPARE: Cell<Option<Box<engine::Buffers>>> = const { Cell::new(None) };
}

/// Searches a filled flat puzzle.
fn run(
    flat: &engine::FlatPuzzle,
    buffers: &mut engine::SearchBuffers,
    candidates: Option<&[Digits]>,
    limit: usize,
    budget: &mut Budget,
) -> SearchOutcome {
    let mut search = match engine::Search::new(flat, limit.max(2), budget, buffers) {
        Ok(search) => search,
        Err(why) => return SearchOutcome::stopped_by(why),
    };
    search.run(candidates);
    let results = search.finish(buffers);
    let verdict = match results.solutions {
        _ if results.stopped.is_some() => Verdict::Unknown,
        0 => Verdict::Impossible,
        1 => Verdict::Unique,
        _ => Verdict::Ambiguous,
    };
    SearchOutcome {
        verdict,
        solutions_found: results.solutions,
        solution: results.first,
        nodes: results.nodes,
        stopped: results.stopped,
    }
}
