//! Grading one puzzle of a batch: the runs a mode asks for ([`Grading`]) and what
//! they found ([`Graded`]). Its rows are [`crate::grade_rows`]'s, the tally of a
//! batch [`crate::tally`]'s, the options [`crate::settings`]'.

use crate::pipeline::{self, Outcome};
use crate::settings::{GradeSettings, Runs};
use kenken_formats::Imported;
use kenken_model::Exhausted;
use kenken_techniques::{Grader, Options, Status, Summary};
use std::borrow::Cow;

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

/// Grading a puzzle: the runs its mode asks for.
#[derive(Clone, Debug)]
pub struct Grading {
    pub runs: Runs,
}

impl Grading {
    pub fn new(settings: &GradeSettings) -> Grading {
        Grading {
            runs: settings.runs(),
        }
    }
}

impl pipeline::Work for Grading {
    type Found = GradeRuns;

    fn work(&self, imported: Imported) -> GradeRuns {
        let runs = self.runs.starting_now();
        // The runs' deadline bounds the solution count too, which only runs when a
        // run does not solve the puzzle (to tell stuck, ambiguous and impossible
        // apart).
        let grader = match Grader::deferred_owned(imported.puzzle, runs.limits) {
            Ok(g) => g,
            // The tables alone exhaust the limits: every run ends there.
            Err(why) => {
                let stopped = |o: Option<Options>| o.map(|_| Summary::stopped_by(why));
                return GradeRuns {
                    normal: stopped(runs.normal),
                    cc: stopped(runs.cc),
                };
            }
        };
        let run = |options: Option<Options>| options.map(|o| grader.rate(o));
        // Mode b's two runs are independent: let an idle worker take one, so a slow
        // puzzle at the end of a batch does not leave the other cores waiting.
        let (normal, cc) = rayon::join(|| run(runs.normal), || run(runs.cc));
        GradeRuns { normal, cc }
    }
}

/// What grading found for one puzzle: the mode-n and mode-c runs the mode asks
/// for.
#[derive(Clone, Copy, Debug)]
pub struct GradeRuns {
    pub normal: Option<Summary>,
    pub cc: Option<Summary>,
}

/// What became of one puzzle of a grading batch.
pub type Graded = Outcome<GradeRuns>;

impl Graded {
    /// The status of the run that gives the row's status: a run that stopped
    /// early (`timeout`) when either did, else the mode-n run (mode c: the mode-c
    /// run).
    pub(crate) fn run_status(&self) -> Option<Status> {
        let (normal, cc) = self.runs();
        let stopped = [normal, cc]
            .into_iter()
            .flatten()
            .map(|r| r.status)
            .find(|&s| !is_finding(s));
        stopped.or(normal.or(cc).map(|r| r.status))
    }

    /// The row's status: its run's ([`Graded::run_status`]), or `invalid` or
    /// `error`.
    pub fn status(&self) -> &'static str {
        self.failure_status()
            .unwrap_or_else(|| self.run_status().map_or("invalid", Status::as_str))
    }

    /// Success: the mode-n run (mode c: the mode-c run) solved it.
    pub fn success(&self) -> bool {
        let (normal, cc) = self.runs();
        normal.or(cc).is_some_and(|r| r.status == Status::Solved)
    }

    /// The `Error` column: why the puzzle was not graded, or why grading stopped
    /// early; empty for a finding (solved, stuck, ambiguous, impossible), which the
    /// status says.
    pub fn error(&self) -> Option<Cow<'_, str>> {
        if let Some(e) = self.failure() {
            return Some(e.into());
        }
        // What stopped a run (the memory or work limit, with its figure).
        let (normal, cc) = self.runs();
        let stopped = [normal, cc]
            .into_iter()
            .flatten()
            .find_map(|r| r.stopped.filter(|_| !is_finding(r.status)));
        match stopped {
            Some(Exhausted::Time) | None => self.run_status().and_then(not_finished),
            Some(why) => Some(format!("stopped: {why}").into()),
        }
    }

    /// The mode-n and mode-c runs' summaries (none when not graded).
    pub fn runs(&self) -> (Option<Summary>, Option<Summary>) {
        self.found().map_or((None, None), |r| (r.normal, r.cc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_have_no_error() {
        for status in [
            Status::Solved,
            Status::Stuck,
            Status::Ambiguous,
            Status::Impossible,
            Status::TimedOut,
        ] {
            assert_eq!(not_finished(status).is_none(), is_finding(status));
        }
        assert_eq!(not_finished(Status::TimedOut).unwrap(), "--timeout passed");
    }
}
