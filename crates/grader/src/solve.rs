//! `grader solve <PUZZLE>`: the exhaustive solver's answer: the solution grid (the
//! first one found when there are several) and `unique`, `ambiguous` or
//! `impossible`. Exit code 0 when unique, 3 otherwise.

use crate::convert::FromFormat;
use crate::exit::NOT_UNIQUE;
use crate::input::load_puzzle;
use crate::report::{grid_rows, grid_text};
use clap::Args;
use kenken_formats::Format;
use kenken_model::Digit;
use kenken_search::{self as search, Verdict};
use serde::Serialize;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The puzzle: a string in any supported format, a file holding one, or `-` to
    /// read standard input.
    pub puzzle: String,
    /// The format to read (detected from the input when omitted).
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    /// Print one JSON document: {"puzzle","size","verdict","solution"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct SolveJson<'a> {
    puzzle: &'a str,
    size: usize,
    verdict: &'static str,
    /// By rows; when ambiguous, the first solution found; `null` when impossible.
    solution: Option<Vec<Vec<Digit>>>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let (input, imported) = match load_puzzle("solve", &args.puzzle, args.from.map(Format::from)) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let outcome = search::solve(&imported.puzzle);
    let size = imported.puzzle.size();
    let verdict = match outcome.verdict {
        Verdict::Unique => "unique",
        Verdict::Ambiguous => "ambiguous",
        Verdict::Impossible => "impossible",
        // The default memory or work limit stopped the search.
        Verdict::Unknown => "limit",
    };
    let text = if args.json {
        serde_json::to_string(&SolveJson {
            puzzle: input.text.trim(),
            size: size.get(),
            verdict,
            solution: outcome.solution.as_deref().map(|s| grid_rows(s, size)),
        })?
    } else {
        match &outcome.solution {
            Some(s) if outcome.verdict == Verdict::Ambiguous => format!(
                "{}\nambiguous (more than one solution; this is one of them)",
                grid_text(s, size)
            ),
            Some(s) if outcome.verdict == Verdict::Unique => {
                format!("{}\n{verdict}", grid_text(s, size))
            }
            _ => match outcome.stopped {
                Some(why) => format!("{verdict} (the search stopped: {why})"),
                None => format!("{verdict} (the puzzle has no solution)"),
            },
        }
    };
    crate::report::print(&text)?;
    Ok(if outcome.verdict == Verdict::Unique {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_UNIQUE)
    })
}
