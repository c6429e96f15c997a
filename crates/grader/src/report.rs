//! Output shapes shared by the subcommands: steps as log lines and JSON, grids,
//! puzzle labels for messages, and a batch's rows (TSV and NDJSON) and tally.

use crate::ladder_args::Mode;
use kenken_model::{Digit, Exhausted, Size};
use kenken_techniques::{Rating, Status, Step, Summary};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

/// Prints a report and a line break on stdout.
pub fn print(text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|_| out.flush())
        .context("cannot write to standard output")
}

// ---- steps and grids ----

/// A step as a log line without its number: `(2.1) Hidden triple: …`.
pub fn step_line(step: &Step, size: Size) -> String {
    format!("({}) {}", step.rating, step.text(size))
}

/// A cell and a digit: `{"cell":"r1c2","digit":3}`.
#[derive(Serialize)]
pub struct CellDigit {
    pub cell: String,
    pub digit: Digit,
}

/// A step in `grade --json`.
#[derive(Serialize)]
pub struct StepJson {
    /// The technique's command-line id (`hidden-subset`).
    pub technique: &'static str,
    pub rating: f64,
    pub text: String,
    pub placements: Vec<CellDigit>,
    pub eliminations: Vec<CellDigit>,
    /// In plain English (left out in the reference's wording).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

impl StepJson {
    pub fn new(step: &Step, size: Size) -> StepJson {
        let cells = |list: &[(kenken_model::CellId, Digit)]| {
            list.iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: size.cell_name(cell),
                    digit,
                })
                .collect()
        };
        StepJson {
            technique: step.technique.id(),
            rating: step.rating.as_f64(),
            text: step.text(size),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
            explanation: None,
        }
    }
}

/// A grid in reading order as rows.
pub fn grid_rows(grid: &[Digit], size: Size) -> Vec<Vec<Digit>> {
    grid.chunks(size.get()).map(<[Digit]>::to_vec).collect()
}

/// A grid as lines of space-separated digits (`.` for an empty cell).
pub fn grid_text(grid: &[Digit], size: Size) -> String {
    grid.chunks(size.get())
        .map(|row| {
            row.iter()
                .map(|&d| {
                    if d == 0 {
                        ".".to_string()
                    } else {
                        d.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How a status reads in a report.
pub fn status_explained(status: Status) -> Cow<'static, str> {
    match status {
        Status::Stuck => {
            "stuck (no enabled technique applies; the puzzle has one solution, beyond them)".into()
        }
        Status::Ambiguous => "ambiguous (the puzzle has more than one solution)".into(),
        Status::Impossible => "impossible (the puzzle has no solution)".into(),
        Status::TimedOut => {
            "timeout (--timeout passed first; the ratings are those reached so far)".into()
        }
        other if is_finding(other) => other.as_str().into(),
        other => {
            format!("{other} (stopped before the end; the ratings are those reached so far)").into()
        }
    }
}

/// Whether a status is a finding about the puzzle (solved, or stuck, ambiguous or
/// impossible for the techniques enabled), rather than a run that stopped early.
pub fn is_finding(status: Status) -> bool {
    matches!(
        status,
        Status::Solved | Status::Stuck | Status::Ambiguous | Status::Impossible
    )
}

/// Why a run stopped before its finding (`None` for a finding): the text of a
/// row's `Error` column.
pub fn not_finished(status: Status) -> Option<Cow<'static, str>> {
    if is_finding(status) {
        None
    } else if status == Status::TimedOut {
        Some("--timeout passed".into())
    } else {
        Some(format!("stopped before the end ({status})").into())
    }
}

/// The most characters of an entry that is not a valid puzzle shown in a row or
/// a message (a 9×9 game ID is shown whole; a 16×16 one has about 650).
const SHOWN_CHARS: usize = 200;

/// Text cut at [`SHOWN_CHARS`] characters, with `…` where it was cut.
pub fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

/// The most characters of an error message shown: a rule broken may quote a
/// word of the input (a size, a clue, a cell name), which may be any length.
const MESSAGE_CHARS: usize = 500;

/// An error message cut at [`MESSAGE_CHARS`] characters, with `…` where it was
/// cut.
pub fn clip_message(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// A puzzle named in a message: `puzzle 5 ("6:a_a_…")`, with line breaks, quotes
/// and control characters escaped, and cut at 200 characters.
pub fn label(index: usize, text: &str) -> String {
    format!("puzzle {index} ({:?})", clip(text.trim()))
}

// ---- batch rows ----

/// What a batch found for one puzzle.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Graded: the mode-n and mode-c runs the mode asks for, and a warning when the
    /// puzzle was read leniently.
    Graded {
        normal: Option<Summary>,
        cc: Option<Summary>,
        warning: Option<String>,
    },
    /// The puzzle cannot be read, or is not a valid puzzle: why.
    Invalid(String),
    /// The grader failed on it (a bug): the message.
    Internal(String),
}

impl Outcome {
    /// The status of the run that gives the row's status: a run that stopped
    /// early (`timeout`) when either did, else the mode-n run (mode c: the mode-c
    /// run).
    fn run_status(&self) -> Option<Status> {
        let (normal, cc) = self.runs();
        let stopped = [normal, cc]
            .into_iter()
            .flatten()
            .map(|r| r.status)
            .find(|&s| !is_finding(s));
        stopped.or(normal.or(cc).map(|r| r.status))
    }

    /// The row's status: its run's ([`Outcome::run_status`]), or `invalid` or
    /// `error`.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Graded { .. } => self.run_status().map_or("invalid", Status::as_str),
            Outcome::Invalid(_) => "invalid",
            Outcome::Internal(_) => "error",
        }
    }

    /// Success: the mode-n run (mode c: the mode-c run) solved it.
    pub fn success(&self) -> bool {
        match self {
            Outcome::Graded { normal, cc, .. } => {
                normal.or(*cc).is_some_and(|r| r.status == Status::Solved)
            }
            _ => false,
        }
    }

    /// The `Error` column: why the puzzle was not graded, or why grading stopped
    /// early; empty for a finding (solved, stuck, ambiguous, impossible), which the
    /// status says.
    pub fn error(&self) -> Option<Cow<'_, str>> {
        match self {
            Outcome::Invalid(e) | Outcome::Internal(e) => Some(e.as_str().into()),
            Outcome::Graded { normal, cc, .. } => {
                // What stopped a run (the memory or work limit, with its figure).
                let stopped = [normal, cc]
                    .into_iter()
                    .flatten()
                    .find_map(|r| r.stopped.filter(|_| !is_finding(r.status)));
                match stopped {
                    Some(Exhausted::Time) | None => self.run_status().and_then(not_finished),
                    Some(why) => Some(format!("stopped: {why}").into()),
                }
            }
        }
    }

    fn runs(&self) -> (Option<Summary>, Option<Summary>) {
        match self {
            Outcome::Graded { normal, cc, .. } => (*normal, *cc),
            _ => (None, None),
        }
    }
}

/// An NDJSON row; the fields of a mode that was not run are left out.
#[derive(Serialize)]
struct NdjsonRow<'a> {
    index: usize,
    puzzle: &'a str,
    status: &'a str,
    success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cc_steps: Option<usize>,
    /// `--times`: the grading time in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Cow<'a, str>>,
}

/// A duration in milliseconds, to the microsecond.
pub fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// Writes one NDJSON row.
pub fn write_ndjson(
    out: &mut dyn Write,
    index: usize,
    puzzle: &str,
    outcome: &Outcome,
    took: Option<Duration>,
) -> io::Result<()> {
    let (normal, cc) = outcome.runs();
    let row = NdjsonRow {
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
    };
    serde_json::to_writer(&mut *out, &row)?;
    out.write_all(b"\n")
}

/// The reference's TSV header for a mode, plus `Ms` (with `--times`) and our
/// `Error` and `Status` columns.
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
    outcome: &Outcome,
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

/// A TSV cell: tabs, line breaks and backslashes escaped as `\t`, `\n`, `\r`, `\\`
/// (puzzles in the text formats span lines), and any other control or
/// non-printing character as `\u{…}`, so that a row is one line of plain text.
pub fn tsv_field(s: &str) -> Cow<'_, str> {
    let plain = |c: char| {
        !matches!(c, '\t' | '\n' | '\r' | '\\')
            && (c.is_ascii_graphic() || c == ' ' || {
                // Beyond ASCII: what Rust's debug formatting would escape.
                !c.is_ascii() && c.escape_debug().nth(1).is_none()
            })
    };
    if s.chars().all(plain) {
        return s.into();
    }
    let mut escaped = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\\' => escaped.push_str("\\\\"),
            c if plain(c) => escaped.push(c),
            c => escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    escaped.into()
}

// ---- the tally ----

/// How many puzzles got each max rating (mode n) and each max depth (mode c); the
/// puzzles a run did not solve are counted by status instead.
#[derive(Default, Debug)]
pub struct Tally {
    puzzles: usize,
    by_max: BTreeMap<Rating, usize>,
    by_depth: BTreeMap<usize, usize>,
    unsolved_n: BTreeMap<&'static str, usize>,
    unsolved_c: BTreeMap<&'static str, usize>,
    not_graded: BTreeMap<&'static str, usize>,
    /// Puzzles whose grading stopped early, by status (`timeout`).
    stopped: BTreeMap<&'static str, usize>,
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        self.puzzles += 1;
        let (normal, cc) = outcome.runs();
        if normal.is_none() && cc.is_none() {
            *self.not_graded.entry(outcome.status()).or_default() += 1;
        }
        if let Some(status) = outcome.run_status().filter(|&s| !is_finding(s)) {
            *self.stopped.entry(status.as_str()).or_default() += 1;
        }
        if let Some(r) = normal {
            match r.status {
                Status::Solved => *self.by_max.entry(r.max).or_default() += 1,
                s => *self.unsolved_n.entry(s.as_str()).or_default() += 1,
            }
        }
        if let Some(r) = cc {
            match r.status {
                Status::Solved => *self.by_depth.entry(r.depth).or_default() += 1,
                s => *self.unsolved_c.entry(s.as_str()).or_default() += 1,
            }
        }
    }

    /// How many puzzles' grading stopped early (in either run), by status.
    pub fn stopped(&self) -> &BTreeMap<&'static str, usize> {
        &self.stopped
    }

    /// How many rows have this status without a grade (`invalid`, `error`).
    pub fn not_graded(&self, status: &str) -> usize {
        self.not_graded.get(status).copied().unwrap_or(0)
    }

    /// Tab-separated tables: `Max` → count (modes n, b), then `Max Depth` → count
    /// (modes c, b); then unsolved puzzles by status, rows in error and the total.
    pub fn write(&self, out: &mut impl Write, mode: Mode) -> io::Result<()> {
        if mode != Mode::C {
            writeln!(out, "Max\tCount")?;
            for (max, n) in &self.by_max {
                writeln!(out, "{max}\t{n}")?;
            }
            for (status, n) in &self.unsolved_n {
                writeln!(out, "{status}\t{n}")?;
            }
        }
        if mode == Mode::B {
            writeln!(out)?;
        }
        if mode != Mode::N {
            writeln!(out, "Max Depth\tCount")?;
            for (depth, n) in &self.by_depth {
                writeln!(out, "{depth}\t{n}")?;
            }
            for (status, n) in &self.unsolved_c {
                writeln!(out, "{status}\t{n}")?;
            }
        }
        for (status, n) in &self.not_graded {
            writeln!(out, "{status}\t{n}")?;
        }
        writeln!(out, "Puzzles\t{}", self.puzzles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_fields_are_escaped() {
        assert_eq!(tsv_field("4:_a_7a4_a3,m2"), "4:_a_7a4_a3,m2");
        assert_eq!(tsv_field("# 3\n+ 3\tA1\\"), "# 3\\n+ 3\\tA1\\\\");
        assert_eq!(
            tsv_field("a\u{0}b\u{1b}[0m\u{7f}"),
            "a\\u{0}b\\u{1b}[0m\\u{7f}"
        );
        assert_eq!(tsv_field("× ÷ – \u{202e}"), "× ÷ – \\u{202e}");
    }

    #[test]
    fn long_messages_are_cut() {
        assert_eq!(clip_message("short".into()), "short");
        let long = clip_message("y".repeat(10 * MESSAGE_CHARS));
        assert_eq!(long.chars().count(), MESSAGE_CHARS + 1);
    }

    #[test]
    fn long_texts_are_cut() {
        assert_eq!(clip("abc"), "abc");
        let long = "é".repeat(SHOWN_CHARS + 1);
        assert_eq!(clip(&long), format!("{}…", "é".repeat(SHOWN_CHARS)));
        assert_eq!(clip(&long[..2 * SHOWN_CHARS]), long[..2 * SHOWN_CHARS]);
    }

    #[test]
    fn every_status_reads() {
        for status in [
            Status::Solved,
            Status::Stuck,
            Status::Ambiguous,
            Status::Impossible,
            Status::TimedOut,
        ] {
            assert!(status_explained(status).starts_with(status.as_str()));
            assert_eq!(not_finished(status).is_none(), is_finding(status));
        }
        assert_eq!(not_finished(Status::TimedOut).unwrap(), "--timeout passed");
    }

    #[test]
    fn labels_are_short_and_quoted() {
        assert_eq!(label(3, " 4:ab \n"), "puzzle 3 (\"4:ab\")");
        let long = "x".repeat(300);
        assert_eq!(
            label(1, &long),
            format!("puzzle 1 (\"{}…\")", "x".repeat(200))
        );
        assert_eq!(label(2, "# 3\n+ 3"), "puzzle 2 (\"# 3\\n+ 3\")");
    }
}
