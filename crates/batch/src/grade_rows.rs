//! A graded puzzle's row, as `grader batch` writes it: TSV in the reference's
//! columns, or NDJSON ([`GradeRow`]); [`GradeRows`] writes a batch's rows and
//! keeps its [`Tally`].

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
    /// The row of the job at `index`, shown as `puzzle`.
    pub fn new(
        index: usize,
        puzzle: &'a str,
        outcome: &'a Graded,
        took: Option<Duration>,
    ) -> GradeRow<'a> {
        let (normal, cc) = outcome.runs();
        GradeRow {
            index,
            puzzle,
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

/// The reference's TSV header for a mode, plus `Ms` (when timed) and our `Error`
/// and `Status` columns.
pub fn write_tsv_header(out: &mut dyn Write, mode: Mode, times: bool) -> io::Result<()> {
    let columns = match mode {
        Mode::N => "Max\tTotal",
        Mode::C => "Max Depth\tSteps",
        Mode::B => "Max\tTotal\tMax Depth\tSteps",
    };
    let ms = if times { "\tMs" } else { "" };
    writeln!(
        out,
        "Puzzle #\tPuzzle String\tSuccess\t{columns}{ms}\tError\tStatus"
    )
}

/// One TSV row: ratings in the reference's style (one decimal at most), empty cells
/// where a puzzle could not be graded, then `Error` and `Status`.
pub fn write_tsv(
    out: &mut dyn Write,
    mode: Mode,
    index: usize,
    puzzle: &str,
    outcome: &Graded,
    took: Option<Duration>,
) -> io::Result<()> {
    let (normal, cc) = outcome.runs();
    write!(
        out,
        "{index}\t{}\t{}",
        tsv_field(puzzle),
        u8::from(outcome.success())
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
    if let Some(took) = took {
        write!(out, "\t{}", millis(took))?;
    }
    let error = outcome.error();
    writeln!(
        out,
        "\t{}\t{}",
        tsv_field(error.as_deref().unwrap_or("")),
        outcome.status()
    )
}

/// The rows of a grading batch, and the tally of what they hold.
#[derive(Debug)]
pub struct GradeRows {
    pub mode: Mode,
    pub format: RowFormat,
    pub times: bool,
    pub tally: Tally,
}

impl GradeRows {
    pub fn new(mode: Mode, format: RowFormat, times: bool) -> GradeRows {
        GradeRows {
            mode,
            format,
            times,
            tally: Tally::default(),
        }
    }
}

impl Rows<GradeRuns> for GradeRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            RowFormat::Tsv => write_tsv_header(out, self.mode, self.times),
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
        match self.format {
            RowFormat::Tsv => write_tsv(out, self.mode, job.index, shown, outcome, took),
            RowFormat::Ndjson => write_ndjson(out, &GradeRow::new(job.index, shown, outcome, took)),
        }
    }
}
