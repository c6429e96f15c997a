//! `grader hint <PUZZLE> [--state STATE]`: the next step from a solver's position,
//! told as little as asked: a nudge (where to look), the technique, the cells, or
//! the whole step with its explanation (and its picture with `-o`). When an entry
//! contradicts the solution, that entry instead.

use crate::exit::BAD_INPUT;
use crate::position_arg::PositionArgs;
use crate::render::PictureKind;
use crate::report::{print, StepJson};
use crate::wording::Wording;
use clap::{Args, ValueEnum};
use kenken_model::Budget;
use kenken_render::Picture;
use kenken_techniques::labels::and_list;
use kenken_techniques::position::{self, Hint};
use kenken_techniques::Grader;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

/// How much a hint tells; each level tells what the ones before it do, and more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum Level {
    /// Where to look.
    Nudge,
    /// The technique to use.
    Technique,
    /// The cells the step rests on.
    Cells,
    /// The whole step, explained.
    Full,
}

#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: PositionArgs,
    /// How much to tell.
    #[arg(long, value_enum, default_value = "nudge")]
    pub level: Level,
    /// Also draw the step (all of it, whatever the level) to FILE, SVG or PNG by
    /// its extension.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// PNG pixels per SVG unit.
    #[arg(long, default_value_t = 2.0, allow_hyphen_values = true,
          value_parser = crate::render::parse_scale)]
    pub scale: f32,
    /// Print one JSON document: {"status", and up to the level: "nudge",
    /// "technique", "cells", "step"} (or "conflict").
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub grading: kenken_batch::GradeOptions,
}

#[derive(Serialize, Default)]
struct HintJson {
    /// `step`, `conflict`, `solved`, `stuck`, `ambiguous`, `contradicts-every`,
    /// `impossible`, `timeout` or `limit`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nudge: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    technique: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<String>>,
    /// Steps before `step` that only strike cage combinations (nothing to write
    /// in the grid), which it may rest on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    prior: Vec<StepJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<StepJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflict: Option<String>,
}

pub fn run(args: HintArgs) -> anyhow::Result<ExitCode> {
    let settings = match crate::options::grade_settings("hint", &args.grading) {
        Ok(settings) => settings,
        Err(code) => return Ok(code),
    };
    let (imported, position) = match args.input.load("hint") {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let fail = |message: String| {
        eprintln!("grader hint: error: {message}");
        Ok(ExitCode::from(BAD_INPUT))
    };
    let kind = match args.output.as_deref().map(PictureKind::of).transpose() {
        Ok(kind) => kind,
        Err(message) => return fail(message),
    };
    let puzzle = &imported.puzzle;
    let runs = settings.runs().starting_now();
    let grader = match Grader::with_limits(puzzle, runs.limits) {
        Ok(g) => g,
        Err(why) => return fail(format!("the puzzle cannot be graded: {why}")),
    };
    let found = position::hint(&grader, &position, runs.shown(), Budget::new(runs.limits));
    let mut doc = HintJson::default();
    match &found {
        Hint::Step { frame, prior } => {
            let step = &frame.step;
            doc.status = "step";
            doc.nudge = Some(step.nudge(puzzle));
            if args.level >= Level::Technique {
                doc.technique = Some(format!(
                    "{} (rating {})",
                    step.technique_name(),
                    step.rating
                ));
            }
            if args.level >= Level::Cells {
                doc.cells = Some(step.cells_to_look_at(puzzle));
            }
            if args.level >= Level::Full {
                let wording = Wording::new(grader.layout(), false);
                doc.prior = prior.iter().map(|s| wording.json(s)).collect();
                doc.step = Some(wording.json(step));
            }
            if let (Some(path), Some(kind)) = (&args.output, kind) {
                let picture = Picture::new(puzzle)
                    .cells(frame.before.clone())?
                    .step(step)
                    .title(format!("({}) {}", step.rating, step.labelled_text(puzzle)))
                    .note(step.explanation(grader.layout()));
                kind.write(&picture, path, args.scale)?;
            }
        }
        Hint::Conflict(conflict) => {
            doc.status = "conflict";
            doc.conflict = Some(conflict.describe(puzzle.size()));
        }
        other => {
            let (status, message) = ending(other);
            doc.status = status;
            doc.message = Some(message.to_string());
        }
    }
    if args.json {
        print(&serde_json::to_string(&doc)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut lines = Vec::new();
    lines.extend(doc.conflict.map(|c| format!("{c} Fix it first.")));
    lines.extend(doc.message);
    lines.extend(doc.nudge);
    lines.extend(doc.technique.map(|t| format!("Technique: {t}")));
    lines.extend(doc.cells.map(|c| format!("Cells: {}", and_list(c))));
    if let (Hint::Step { frame, prior }, Some(_)) = (&found, &doc.step) {
        let wording = Wording::new(grader.layout(), false);
        for step in prior {
            lines.push(format!(
                "First (nothing to write down yet): {}",
                wording.line(step)
            ));
            lines.push(step.explanation(grader.layout()));
        }
        lines.push(format!("Step: {}", wording.line(&frame.step)));
        lines.push(frame.step.explanation(grader.layout()));
        if let Some(proof) = frame.step.proofs.first() {
            lines.push(format!("Why: {}", proof.text()));
        }
    }
    print(&lines.join("\n"))?;
    Ok(ExitCode::SUCCESS)
}

/// The status and message of a hint that is not a step or a conflict.
fn ending(hint: &Hint) -> (&'static str, &'static str) {
    match hint {
        Hint::Solved => ("solved", "Nothing left to do: the grid is solved."),
        Hint::Stuck => (
            "stuck",
            "No hint: no enabled technique applies from here (the puzzle has one solution, beyond them).",
        ),
        Hint::Ambiguous => (
            "ambiguous",
            "No hint: no enabled technique applies, and the puzzle has more than one solution.",
        ),
        Hint::ContradictsEvery => (
            "contradicts-every",
            "The position agrees with none of the puzzle's solutions.",
        ),
        Hint::Impossible => ("impossible", "No hint: the puzzle has no solution."),
        Hint::Stopped(why) => match why {
            kenken_model::Exhausted::Time => ("timeout", "No hint found: --timeout passed."),
            _ => ("limit", "No hint found: the memory or work limit was reached."),
        },
        Hint::Step { .. } | Hint::Conflict(_) => ("step", ""),
    }
}
