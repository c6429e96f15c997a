//! Output shapes shared by the subcommands: [`text`] (log lines, grids, statuses,
//! labels for messages) and [`json`] (steps and grids as JSON). A batch's TSV and
//! NDJSON rows and its tally are [`kenken_batch`]'s.

pub mod json;
pub mod text;

pub use json::*;
pub use text::*;
