//! Many KenKen puzzles at once: the machinery behind `grader batch`, `grader solve
//! --many` and the Python package's `grade_many` and Dask shards, so that each of
//! them writes the same rows for the same input by construction.
//!
//! * [`pipeline`]: jobs (the entries of a batch) worked on a chunk at a time on a
//!   rayon pool, grouped by size, handed back in input order; a panic or an
//!   unreadable entry becomes that job's outcome and the batch goes on.
//! * [`settings`]: the grading options every front end takes, checked once.
//! * [`grading`]: the grading of one puzzle; [`grade_rows`]: its row (TSV,
//!   NDJSON); [`tally`]: the tally of a batch.
//! * [`solving`]: the exhaustive search of one puzzle and its row.
//! * [`positions`]: a hint and a check from a solver's position, as documents.
//! * [`generating`]: generated puzzles as rows, and a run's attempts cut into
//!   ranges that can run anywhere.
//! * [`text`]: how text is cut and escaped in rows and messages.
//!
//! Progress is told through [`pipeline::Progress`], so a command line can draw a
//! bar and a library caller can count; nothing here writes to the terminal.

#![forbid(unsafe_code)]

pub mod generating;
pub mod grade_rows;
pub mod grading;
pub mod pipeline;
pub mod positions;
pub mod settings;
pub mod solving;
pub mod tally;
pub mod text;

pub use grade_rows::{GradeRow, GradeRows, TsvColumns};
pub use grading::{GradeRuns, Graded, Grading};
pub use pipeline::{Done, Finished, Job, Outcome, Progress, Rows, Work};
pub use settings::{GradeOptions, GradeSettings, HideOps, MemoryLimit, Mode, Runs};
pub use solving::{Searched, SolveRow, SolveRows, Solved, Solving};
pub use tally::Tally;

/// The rows' format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum RowFormat {
    /// Tab-separated, with a header line.
    Tsv,
    /// One JSON object per line.
    Ndjson,
}
