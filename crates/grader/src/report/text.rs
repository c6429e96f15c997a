//! Text output: steps as log lines, grids, statuses and puzzle labels for
//! messages.

use kenken_batch::grading::is_finding;
use kenken_batch::text::clip;
use kenken_model::{Digit, Size};
use kenken_techniques::{Status, Step};
use std::borrow::Cow;
use std::io::{self, Write};

/// Prints a report and a line break on stdout.
pub fn print(text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|_| out.flush())
        .context("cannot write to standard output")
}

/// A step as a log line without its number: `(2.1) Hidden triple: …`.
pub fn step_line(step: &Step, size: Size) -> String {
    format!("({}) {}", step.rating, step.text(size))
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

/// A puzzle named in a message: `puzzle 5 ("6:a_a_…")`, with line breaks, quotes
/// and control characters escaped, and cut at 200 characters.
pub fn label(index: usize, text: &str) -> String {
    format!("puzzle {index} ({:?})", clip(text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
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
