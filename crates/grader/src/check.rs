//! `grader check <PUZZLE> --state STATE`: which entered digits and which pencil
//! marks contradict the puzzle's solution, telling nothing else. Exit code 0 when
//! all is consistent, 3 when something contradicts the solution.

use crate::exit::{BAD_INPUT, CONTRADICTED};
use crate::position_arg::PositionArgs;
use crate::report::print;
use clap::Args;
use kenken_model::{Budget, Exhausted};
use kenken_techniques::labels;
use kenken_techniques::position::{self, Check, Written};
use kenken_techniques::Grader;
use serde::Serialize;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: PositionArgs,
    /// Print one JSON document: {"status", "conflicts": [{"cell", "kind"}],
    /// "filled", "cells"}.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub grading: kenken_batch::GradeOptions,
}

#[derive(Serialize)]
struct ConflictJson {
    cell: String,
    /// `wrong-digit` (with the digit entered) or `digit-removed`.
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    entered: Option<u8>,
}

#[derive(Serialize)]
struct CheckJson {
    /// `consistent`, `conflicts`, `consistent-with-some` (several solutions),
    /// `contradicts-every`, `impossible`, `timeout` or `limit`.
    status: &'static str,
    conflicts: Vec<ConflictJson>,
    /// Cells with a digit entered, and all cells.
    filled: usize,
    cells: usize,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let settings = match crate::options::grade_settings("check", &args.grading) {
        Ok(settings) => settings,
        Err(code) => return Ok(code),
    };
    let (imported, position) = match args.input.load("check") {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    if args.input.state.is_none() && imported.progress.is_none() {
        eprintln!("grader check: error: nothing to check: give the position with --state");
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let puzzle = &imported.puzzle;
    let runs = settings.runs().starting_now();
    let grader = match Grader::with_limits(puzzle, runs.limits) {
        Ok(g) => g,
        Err(why) => {
            eprintln!("grader check: error: the puzzle cannot be solved: {why}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    let found = position::check(&grader, &position, &mut Budget::new(runs.limits));
    let size = puzzle.size();
    let filled = position
        .cells()
        .iter()
        .filter(|e| matches!(e, Written::Digit(_)))
        .count();
    let (status, message) = match &found {
        Check::Consistent => (
            "consistent",
            format!(
                "All consistent so far ({filled} of {} cells filled).",
                size.cell_count()
            ),
        ),
        Check::Conflicts(conflicts) => {
            let lines: Vec<String> = conflicts.iter().map(|c| c.describe(size)).collect();
            ("conflicts", lines.join("\n"))
        }
        Check::ConsistentWithSome => (
            "consistent-with-some",
            "Consistent with at least one solution (the puzzle has several).".to_string(),
        ),
        Check::ContradictsEvery => (
            "contradicts-every",
            "The position agrees with none of the puzzle's solutions.".to_string(),
        ),
        Check::Impossible => ("impossible", "The puzzle has no solution.".to_string()),
        Check::Stopped(Exhausted::Time) => ("timeout", "No answer: --timeout passed.".to_string()),
        Check::Stopped(why) => ("limit", format!("No answer: {why}.")),
    };
    if args.json {
        let conflicts = match &found {
            Check::Conflicts(conflicts) => conflicts
                .iter()
                .map(|c| {
                    let (kind, entered) = match c.kind {
                        position::ConflictKind::WrongDigit(d) => ("wrong-digit", Some(d)),
                        position::ConflictKind::DigitRemoved => ("digit-removed", None),
                    };
                    ConflictJson {
                        cell: labels::cell(size, c.cell),
                        kind,
                        entered,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        print(&serde_json::to_string(&CheckJson {
            status,
            conflicts,
            filled,
            cells: size.cell_count(),
        })?)?;
    } else {
        print(&message)?;
    }
    Ok(match found {
        Check::Conflicts(_) | Check::ContradictsEvery => ExitCode::from(CONTRADICTED),
        _ => ExitCode::SUCCESS,
    })
}
