//! `grader hint <PUZZLE> [--state STATE]`: the next step from a solver's position,
//! told as little as asked: a nudge (where to look), the technique, the cells, or
//! the whole step with its explanation (and its picture with `-o`). When an entry
//! contradicts the solution, that entry instead.

use crate::exit::BAD_INPUT;
use crate::position_arg::PositionArgs;
use crate::render::PictureKind;
use crate::report::print;
use crate::wording::Wording;
use clap::Args;
use kenken_batch::positions::{HintDoc, HintLevel};
use kenken_model::Budget;
use kenken_render::Picture;
use kenken_techniques::labels::and_list;
use kenken_techniques::position::{self, Hint};
use kenken_techniques::Grader;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: PositionArgs,
    /// How much to tell.
    #[arg(long, value_enum, default_value = "nudge")]
    pub level: HintLevel,
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
    let doc = HintDoc::new(&found, grader.layout(), args.level, "--timeout");
    if let (Hint::Step { frame, .. }, Some(path), Some(kind)) = (&found, &args.output, kind) {
        let step = &frame.step;
        let picture = Picture::new(puzzle)
            .cells(frame.before.clone())?
            .step(step)
            .title(format!("({}) {}", step.rating, step.labelled_text(puzzle)))
            .note(step.explanation(grader.layout()));
        kind.write(&picture, path, args.scale)?;
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
