//! How a KenKen puzzle is solved by a person, and how hard that is.
//!
//! * [`State`]: candidates per cell and live combinations per cage, propagated to a
//!   fixed point (naked singles and the combination filter, rating 0).
//! * [`Technique`]: one file per technique under `techniques/`, each finding the next
//!   [`Step`] in the specified order; [`ladder::LADDER`] orders them.
//! * [`Step`]: plain data (technique, rating, justification, removals) with a
//!   one-line text in the reference solver's style.
//! * [`Grader`]: the stepping loop, giving a [`Grade`] (status, max, total, depth,
//!   the step log) or, for batches, the same ratings without the log ([`Summary`]).
//! * [`search`]: an exhaustive solution counter, the independent check of it all.
//! * For people: [`labels`] (the grid's names, and [`Step::labelled_text`]),
//!   [`Evidence`] and [`Step::explanation`], and [`position`] (checks, hints and
//!   the ladder walked from a solver's position).

mod explain;
mod geometry;
mod grade;
pub mod labels;
pub mod ladder;
mod layout;
pub mod position;
mod rating;
pub mod search;
mod state;
mod step;
mod table_cache;
mod technique;
pub mod techniques;

pub use explain::Evidence;
pub use grade::{Grade, Grader, Status, Summary};
pub use layout::Layout;
pub use rating::Rating;
pub use state::{Contradiction, State, StateError};
pub use step::{fish_name, subset_name, Axis, CageCut, Reason, Slice, Step};
pub use technique::{Context, Options, Technique, TechniqueKind};
