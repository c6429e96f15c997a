//! `grader check <PUZZLE> --state STATE`: which entered digits and which pencil
//! marks contradict the puzzle's solution, telling nothing else. Exit code 0 when
//! all is consistent, 3 when something contradicts the solution.

use crate::exit::{BAD_INPUT, CONTRADICTED};
use crate::position_arg::PositionArgs;
use crate::report::print;
use clap::Args;
use kenken_batch::positions::CheckDoc;
use kenken_model::Budget;
use kenken_techniques::position;
use kenken_techniques::Grader;
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
    let report = found.report(&position, "--timeout");
    if args.json {
        print(&serde_json::to_string(&CheckDoc::from(&report))?)?;
    } else {
        print(&report.message)?;
    }
    Ok(if found.contradicted() {
        ExitCode::from(CONTRADICTED)
    } else {
        ExitCode::SUCCESS
    })
}
