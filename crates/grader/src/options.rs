//! The command line's side of the option checks: the libraries check every value
//! ([`kenken_model::options`], [`GradeOptions::settings`],
//! [`kenken_generator::GenerateOptions::plan`]); this module words their refusals
//! with the flags' names and the exit code of a bad argument.

use crate::exit::BAD_INPUT;
use kenken_batch::{GradeOptions, GradeSettings};
use kenken_model::options::{self, OptionsError};
use std::process::ExitCode;
use std::time::Duration;

/// Prints `grader COMMAND: error: --flag …` and gives the exit code of a bad
/// argument.
pub fn refuse(command: &str, e: &OptionsError) -> ExitCode {
    eprintln!("grader {command}: error: {}", e.with_flag());
    ExitCode::from(BAD_INPUT)
}

/// The grading options, checked.
pub fn grade_settings(command: &str, options: &GradeOptions) -> Result<GradeSettings, ExitCode> {
    options.settings().map_err(|e| refuse(command, &e))
}

/// The worker threads `--jobs` asks for: 1 to [`options::MAX_JOBS`], every core by
/// default.
pub fn jobs(command: &str, jobs: Option<i64>) -> Result<usize, ExitCode> {
    options::jobs("jobs", jobs).map_err(|e| refuse(command, &e))
}

/// A number of seconds, for clap (which names the flag itself); its range is
/// checked by the library that takes it.
pub fn any_seconds(text: &str) -> Result<f64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("must be a number of seconds, not {text:?}"))
}

/// A `--timeout` in seconds, for clap (which names the flag itself).
pub fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("must be a number of seconds, not {text:?}"))?;
    options::seconds("timeout", secs).map_err(|e| e.problem)
}
