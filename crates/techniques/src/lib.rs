//! How a KenKen puzzle is solved by a person, and how hard that is.
//!
//! * [`State`]: candidates per cell and live combinations per cage, propagated to a
//!   fixed point (naked singles and the combination filter, rating 0).
//! * [`registry::REGISTRY`]: the ladder's one table of techniques (id, name, rating
//!   rule, rung, default, description), easiest first.
//! * [`Technique`]: one file per technique under `techniques/`, each made for a run,
//!   finding its next [`Step`] in the specified order and keeping what it learns;
//!   a [`Ladder`] runs them rung by rung.
//! * [`Step`]: plain data (technique, rating, justification, removals) with a
//!   one-line text in the reference solver's style.
//! * [`Grader`]: the stepping loop, giving a [`Grade`] (status, max, total, depth,
//!   the step log) or, for batches, the same ratings without the log ([`Summary`]).
//! * For people: [`labels`] (the grid's names, and [`Step::labelled_text`]),
//!   [`Evidence`] and [`Step::explanation`], and [`position`] (checks, hints and
//!   the ladder walked from a solver's position).
//!
//! The exhaustive solution counter, the independent check of it all, is the
//! `kenken-search` crate.

#![forbid(unsafe_code)]

mod explain;
mod geometry;
mod grader;
mod kind;
pub mod labels;
mod ladder;
mod layout;
mod options;
pub mod position;
pub mod proof;
mod rating;
pub mod registry;
mod report;
mod state;
mod step;
mod table_cache;
mod technique;
mod techniques;

pub use explain::Evidence;
pub use grader::{Grade, Grader, Status, Summary};
pub use kind::TechniqueKind;
pub use ladder::{listing, Ladder};
pub use layout::Layout;
pub use options::{Options, MIN_CAGE_SET};
pub use rating::Rating;
pub use report::{
    Amount, CellDigit, CombinationsRemoved, LiveCageReport, LossReport, PartReport, ProofReport,
    StepReport,
};
pub use state::{Contradiction, Halt, State, StateError};
pub use step::{
    fish_name, subset_name, Axis, CageCombination, CageCut, Claiming, Fish, HiddenSingle,
    HiddenSubset, NakedSingle, Pointing, Reason, RegionParity, RegionTotal, Slice, Step, Total,
};
pub use technique::{Context, Engine, Technique, MAX_CAGE_SET};
