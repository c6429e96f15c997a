//! Grading one puzzle of a batch: the runs a mode asks for ([`Grading`]) and what
//! they found ([`Graded`]). Its rows are [`crate::grade_rows`]'s, the tally of a
//! batch [`crate::tally`]'s, the options [`crate::settings`]'.

use crate::pipeline;
use crate::settings::{GradeSettings, Runs};
use crate::text::relaxed_warning;
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
    type Outcome = Graded;

    fn work(&self, imported: Imported) -> Graded {
        let runs = self.runs.starting_now();
        let warning = relaxed_warning(&imported);
        // The runs' deadline bounds the solution count too, which only runs when a
        // run does not solve the puzzle (to tell stuck, ambiguous and impossible
        // apart).
        let grader = match Grader::deferred_owned(imported.puzzle, runs.limits) {
            Ok(g) => g,
            // The tables alone exhaust the limits: every run ends there.
            Err(why) => {
                let stopped = |o: Option<Options>| o.map(|_| Summary::stopped_by(why));
                return Graded::Graded {
                    normal: stopped(runs.normal),
                    cc: stopped(runs.cc),
                    warning,
                };
            }
        };
        let run = |options: Option<Options>| options.map(|o| grader.rate(o));
        // Mode b's two runs are independent: let an idle worker take one, so a slow
        // puzzle at the end of a batch does not leave the other cores waiting.
        let (normal, cc) = rayon::join(|| run(runs.normal), || run(runs.cc));
        Graded::Graded {
            normal,
            cc,
            warning,
        }
    }
}

/// What grading found for one puzzle of a batch.
#[derive(Clone, Debug)]
pub enum Graded {
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

impl pipeline::Outcome for Graded {
    fn invalid(reason: String) -> Graded {
        Graded::Invalid(reason)
    }

    fn internal(message: String) -> Graded {
        Graded::Internal(message)
    }

    fn failure(&self) -> Option<&str> {
        match self {
            Graded::Invalid(e) | Graded::Internal(e) => Some(e),
            Graded::Graded { .. } => None,
        }
    }

    fn warning(&self) -> Option<&str> {
        match self {
            Graded::Graded { warning, .. } => warning.as_deref(),
            _ => None,
        }
    }
}

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
        match self {
            Graded::Graded { .. } => self.run_status().map_or("invalid", Status::as_str),
            Graded::Invalid(_) => "invalid",
            Graded::Internal(_) => "error",
        }
    }

    /// Success: the mode-n run (mode c: the mode-c run) solved it.
    pub fn success(&self) -> bool {
        match self {
            Graded::Graded { normal, cc, .. } => {
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
            Graded::Invalid(e) | Graded::Internal(e) => Some(e.as_str().into()),
            Graded::Graded { normal, cc, .. } => {
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

    /// The mode-n and mode-c runs' summaries (none when not graded).
    pub fn runs(&self) -> (Option<Summary>, Option<Summary>) {
        match self {
            Graded::Graded { normal, cc, .. } => (*normal, *cc),
            _ => (None, None),
        }
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
