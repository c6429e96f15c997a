//! A graded puzzle's row, as `grader batch` writes it: TSV in the reference's
//! columns, or NDJSON ([`GradeRow`]); [`GradeRows`] writes a batch's rows and
//! keeps its [`Tally`].
//!
//! A row says when its puzzle was graded with its operations hidden (asked by
//! the run, `--hide-ops`, or by its entry, `{"puzzle": …, "hide_ops": true}`):
//! an NDJSON row carries `"hide_ops": true` (left out otherwise, so the rows of
//! a run that hides nothing are as they were), and a run that hides every
//! puzzle's operations adds a last TSV column, `Hide Ops`, after `Status`, so
//! that the columns before it stay where readers expect them.

use crate::grading::{GradeRuns, Graded};
use crate::pipeline::{Job, Rows};
use crate::settings::Mode;
use crate::tally::Tally;
use crate::text::{millis, tsv_field};
use crate::RowFormat;
use serde::Serialize;
use std::borrow::Cow;
use std::io::{self, Write};
use std::time::Duration;

/// A graded puzzle's row, as `grader batch --format ndjson` writes it: the fields of
/// a mode that was not run are left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradeRow<'a> {
    pub index: usize,
    pub puzzle: &'a str,
    /// The puzzle was graded with every operation hidden.
    #[serde(skip_serializing_if = "crate::text::is_false")]
    pub hide_ops: bool,
    pub status: &'a str,
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cc_steps: Option<usize>,
    /// When timed: the grading time in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Cow<'a, str>>,
}

impl<'a> GradeRow<'a> {
    /// The row of the job at `index`, shown as `puzzle`, graded with its
    /// operations hidden when `hide_ops` says so.
    pub fn new(
        index: usize,
        puzzle: &'a str,
        hide_ops: bool,
        outcome: &'a Graded,
        took: Option<Duration>,
    ) -> GradeRow<'a> {
        let (normal, cc) = outcome.runs();
        GradeRow {
            index,
            puzzle,
            hide_ops,
            status: outcome.status(),
            success: outcome.success(),
            max: normal.map(|r| r.max.as_f64()),
            total: normal.map(|r| r.total.as_f64()),
            steps: normal.map(|r| r.ladder_steps),
            depth: cc.map(|r| r.depth),
            cc_steps: cc.map(|r| r.ladder_steps),
            ms: took.map(millis),
            error: outcome.error(),
        }
    }
}

/// Writes one NDJSON row.
pub fn write_ndjson(out: &mut dyn Write, row: &GradeRow<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, row)?;
    out.write_all(b"\n")
}

/// The TSV columns of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TsvColumns {
    pub mode: Mode,
    /// `Ms`, before `Error`.
    pub times: bool,
    /// `Hide Ops`, after `Status` (a run that hides every puzzle's operations).
    pub hide_ops: bool,
}

/// The reference's TSV header for a mode, plus `Ms` (when timed), our `Error`
/// and `Status` columns, and `Hide Ops` (when the run hides operations).
pub fn write_tsv_header(out: &mut dyn Write, columns: TsvColumns) -> io::Result<()> {
    let ratings = match columns.mode {
        Mode::N => "Max\tTotal",
        Mode::C => "Max Depth\tSteps",
        Mode::B => "Max\tTotal\tMax Depth\tSteps",
    };
    let ms = if columns.times { "\tMs" } else { "" };
    let hidden = if columns.hide_ops { "\tHide Ops" } else { "" };
    writeln!(
        out,
        "Puzzle #\tPuzzle String\tSuccess\t{ratings}{ms}\tError\tStatus{hidden}"
    )
}

/// One TSV row: ratings in the reference's style (one decimal at most), empty cells
/// where a puzzle could not be graded, then `Error` and `Status` (and `Hide Ops`,
/// 1 or 0, when `columns` has it).
pub fn write_tsv(
    out: &mut dyn Write,
    columns: TsvColumns,
    row: &GradeRow<'_>,
    outcome: &Graded,
) -> io::Result<()> {
    let (normal, cc) = outcome.runs();
    let mode = columns.mode;
    write!(
        out,
        "{}\t{}\t{}",
        row.index,
        tsv_field(row.puzzle),
        u8::from(row.success)
    )?;
    if mode != Mode::C {
        match normal {
            Some(r) => write!(out, "\t{}\t{}", r.max, r.total)?,
            None => out.write_all(b"\t\t")?,
        }
    }
    if mode != Mode::N {
        match cc {
            Some(r) => write!(out, "\t{}\t{}", r.depth, r.ladder_steps)?,
            None => out.write_all(b"\t\t")?,
        }
    }
    if let Some(ms) = row.ms {
        write!(out, "\t{ms}")?;
    }
    write!(
        out,
        "\t{}\t{}",
        tsv_field(row.error.as_deref().unwrap_or("")),
        row.status
    )?;
    if columns.hide_ops {
        write!(out, "\t{}", u8::from(row.hide_ops))?;
    }
    out.write_all(b"\n")
}

/// The rows of a grading batch, and the tally of what they hold.
#[derive(Debug)]
pub struct GradeRows {
    pub format: RowFormat,
    /// The TSV columns (`mode` and `times` count for NDJSON too).
    pub columns: TsvColumns,
    pub tally: Tally,
}

impl GradeRows {
    pub fn new(format: RowFormat, columns: TsvColumns) -> GradeRows {
        GradeRows {
            format,
            columns,
            tally: Tally::default(),
        }
    }
}

impl Rows<GradeRuns> for GradeRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            RowFormat::Tsv => write_tsv_header(out, self.columns),
            RowFormat::Ndjson => Ok(()),
        }
    }

    fn row(
        &mut self,
        out: &mut dyn Write,
        job: &Job,
        shown: &str,
        outcome: &Graded,
        took: Option<Duration>,
    ) -> io::Result<()> {
        self.tally.add(outcome);
        let row = GradeRow::new(job.index, shown, job.hide_ops, outcome, took);
        match self.format {
            RowFormat::Tsv => write_tsv(out, self.columns, &row, outcome),
            RowFormat::Ndjson => write_ndjson(out, &row),
        }
    }
}
