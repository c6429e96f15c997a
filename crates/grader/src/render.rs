//! `grader render <PUZZLE>`: a picture of the grid (SVG on standard output, or SVG
//! or PNG with `-o`): empty, with a solver's position (`--state`), with the
//! candidates, with the solution, or with one step of the log drawn on the grid
//! before it (`--step N`, numbered as `grade` numbers them).

use crate::exit::BAD_INPUT;
use crate::position_arg::PositionArgs;
use anyhow::Context as _;
use clap::Args;
use kenken_render::{scene, Picture, SceneError, Subject};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub input: PositionArgs,
    /// Draw step N of the log (naked singles count, as in `grade`'s log; from
    /// `--state` when given) on the grid as it stood before it, with its text and
    /// explanation under the grid.
    #[arg(long, value_name = "N", group = "what", value_parser = clap::value_parser!(u32).range(1..))]
    pub step: Option<u32>,
    /// With --step: draw the step's K-th proof instead (`grade --json` lists them).
    /// A cage comparison's whole chain: the supposed digits, each forced cage's
    /// digits, the cage left with nothing and its clashes, a branch of at most 4
    /// cases as one small panel per case, and the cut combinations it leans on
    /// with the steps that cut them. A region total's lines, known parts, losing
    /// cages and unknown parts with what each can make. Its text is the caption.
    #[arg(long, value_name = "K", requires = "step", value_parser = clap::value_parser!(u32).range(1..))]
    pub proof: Option<u32>,
    /// Show the solution.
    #[arg(long, group = "what")]
    pub solution: bool,
    /// Show every cell's candidates (of the position when `--state` is given).
    #[arg(long, group = "what")]
    pub candidates: bool,
    /// Write the picture to FILE, as SVG or PNG by its extension (default: SVG on
    /// standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// PNG pixels per SVG unit.
    #[arg(long, default_value_t = 2.0, allow_hyphen_values = true, value_parser = parse_scale)]
    pub scale: f32,
    /// Leave out the caption under a step.
    #[arg(long)]
    pub no_caption: bool,
    #[command(flatten)]
    pub grading: kenken_batch::GradeOptions,
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let settings = match crate::options::grade_settings("render", &args.grading) {
        Ok(settings) => settings,
        Err(code) => return Ok(code),
    };
    let (imported, position) = match args.input.load("render") {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let puzzle = &imported.puzzle;
    let fail = |message: String| {
        eprintln!("grader render: error: {message}");
        Ok(ExitCode::from(BAD_INPUT))
    };
    let kind = match args.output.as_deref().map(PictureKind::of).transpose() {
        Ok(kind) => kind,
        Err(message) => return fail(message),
    };
    let runs = settings.runs().starting_now();
    let subject = match (args.step, args.solution, args.candidates) {
        (Some(n), _, _) => match args.proof {
            Some(k) => Subject::Proof {
                number: n as usize,
                proof: k as usize,
                caption: !args.no_caption,
            },
            None => Subject::Step {
                number: n as usize,
                caption: !args.no_caption,
            },
        },
        (None, true, _) => Subject::Solution,
        (None, false, true) => Subject::Candidates,
        (None, false, false) => Subject::Position,
    };
    let picture = match scene(puzzle, &position, subject, runs.shown(), runs.limits) {
        Ok(picture) => picture,
        Err(SceneError::Render(e)) => return Err(e.into()),
        Err(e @ SceneError::DeadPosition) => {
            return fail(format!(
                "{e} (`grader check` names the entries the solution contradicts)"
            ))
        }
        Err(e) => return fail(e.to_string()),
    };
    match (&args.output, kind) {
        (Some(path), Some(kind)) => kind.write(&picture, path, args.scale)?,
        _ => crate::report::print(picture.svg().trim_end())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A picture file's format, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureKind {
    Svg,
    Png,
}

impl PictureKind {
    /// The format `path` names, or why it names none.
    pub fn of(path: &Path) -> Result<PictureKind, String> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("svg") => Ok(PictureKind::Svg),
            Some("png") => Ok(PictureKind::Png),
            _ => Err(format!(
                "cannot tell the picture's format from {}: name it .svg or .png",
                path.display()
            )),
        }
    }

    /// Writes the picture to `path` in this format (`scale` PNG pixels per unit).
    pub fn write(self, picture: &Picture, path: &Path, scale: f32) -> anyhow::Result<()> {
        let bytes = match self {
            PictureKind::Svg => picture.svg().into_bytes(),
            PictureKind::Png => picture.png(scale)?,
        };
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// A PNG scale: a positive number, at most 8.
pub fn parse_scale(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v > 0.0 && v <= 8.0 => Ok(v),
        _ => Err(format!(
            "the scale must be a number above 0 and at most 8, not {s}"
        )),
    }
}
