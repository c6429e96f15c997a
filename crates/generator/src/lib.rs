//! Makes unique KenKen puzzles whose grade lies in a requested band of the
//! rating ladder: the grader is the judge, so the generator can aim at any band
//! of it, including ratings no other generator reaches.
//!
//! * [`GenerateOptions`]: the options as every front end takes them, checked
//!   once into a [`Plan`] (a [`Request`] and the run's bounds).
//! * [`Request`]: the grid, the band `[min, max]` of max ratings, the cage and
//!   clue rules (operations, Tatham's strict rules, cage sizes, givens, KenDoku
//!   boxes), required and forbidden techniques.
//! * [`generate`]: the run. Each attempt (seeded from the run's seed and its
//!   index) draws a Latin square and a Tatham-like layout, repairs it to a unique
//!   puzzle, then searches by mutations (merge, split, move a cell, change an
//!   operation, refill the cages on a new solution): below the band a walk
//!   towards clues that say less while the puzzle stays unique, above it a climb
//!   down guided by the ladder cut off at the band's max (see [`search`]).
//!   Attempts run in parallel on the current rayon pool; puzzles come out in
//!   attempt order, each once (turns and reflections of a puzzle count as it:
//!   [`canonical_key`]).
//! * [`Generated`]: a puzzle with its ratings and the seed that makes it again.
//! * [`ShapeStats`]: the cage-size and operation mix of a set of puzzles.

#![forbid(unsafe_code)]

mod canonical;
mod clues;
mod draft;
pub mod driver;
mod error;
mod freedom;
mod judge;
mod latin;
pub mod mutations;
pub mod options;
mod request;
mod rng;
pub mod search;
pub mod shape;

pub use canonical::canonical_key;
pub use driver::{generate, Event, RunLimits, RunReport, Stopped};
pub use error::GenerateError;
pub use options::{CageSizes, GenerateOptions, Plan};
pub use request::{box_shape, OpSet, Request, Rules, STRICT_MAX_SIZE};
pub use rng::{attempt_seed, clock_seed};
pub use search::Closest;
pub use shape::ShapeStats;

use kenken_model::Puzzle;
use kenken_techniques::{Rating, TechniqueKind};

/// A generated puzzle: unique, rated in the band.
#[derive(Clone, Debug)]
pub struct Generated {
    pub puzzle: Puzzle,
    /// The max rating (mode n).
    pub max: Rating,
    /// The total rating (mode n).
    pub total: Rating,
    /// Mode c's max depth (None when not asked for, see [`Request::mode_c_depth`],
    /// or when mode c ran out of work).
    pub depth: Option<usize>,
    /// The technique of the first step rated `max`.
    pub technique: TechniqueKind,
    /// The attempt's seed: the same request run with this seed makes this
    /// puzzle first.
    pub seed: u64,
    /// The attempt's index in its run.
    pub attempt: u64,
}
