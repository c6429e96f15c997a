//! The package's calls over one puzzle or a batch, each the library code behind
//! the `grader` subcommand or Python function of the same name; each returns
//! JSON text (`renderSvg` the SVG itself).
//!
//! A puzzle argument is its text, the format it was read as (when the caller
//! holds a puzzle `read` made; detected from the text otherwise) and whether it
//! was read with its operations hidden; a call's `hide_ops` option hides them as
//! well, as in Python.

use crate::given::Given;
use crate::{json, Failure};
use kenken_batch::pipeline::{self, Job, CHUNK_PER_JOB};
use kenken_batch::positions::{position_from_progress, CheckDoc, HintDoc, HintLevel};
use kenken_batch::solving::{is_finding, search_puzzle, verdict_name};
use kenken_batch::text::{clip_message, relaxed_warning};
use kenken_batch::{GradeOptions, GradeRow, GradeSettings, Grading, HideOps, Mode};
use kenken_formats::batch_input::{self, BatchError};
use kenken_formats::{read_any, state, text, write, Format, Imported};
use kenken_model::clock::Instant;
use kenken_model::{options, Budget};
use kenken_render::{scene, Subject};
use kenken_techniques::position::{self, Position};
use kenken_techniques::{Grader, StepReport};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A puzzle as a call names it.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleArg<'a> {
    pub text: &'a str,
    /// The format to read it as (detected when None).
    pub format: Option<&'a str>,
    /// Read with every operation hidden.
    pub hidden: bool,
}

impl PuzzleArg<'_> {
    /// The puzzle read, its operations hidden when it or `hide` says so.
    pub fn read(&self, hide: HideOps) -> Result<Imported, Failure> {
        let format = self
            .format
            .map(|name| name.parse::<Format>())
            .transpose()
            .map_err(|e| Failure::options(e.to_string()))?;
        let imported = read_any(self.text, format)
            .map_err(|e| Failure::format(clip_message(e.to_string())))?;
        Ok(imported.hiding_ops(hide.hide_ops || self.hidden))
    }
}

/// A puzzle as `read` describes it.
#[derive(Serialize)]
pub struct PuzzleDoc {
    pub source: String,
    /// The format it was read as: `tatham`, `k6c`, `d6c`, `text`, `letter-grid`.
    pub format: &'static str,
    /// Whether it was read with every operation hidden.
    pub hide_ops: bool,
    pub size: usize,
    pub cages: Vec<CageDoc>,
    /// KenDoku boxes as (rows, columns), or null.
    pub boxes: Option<(usize, usize)>,
    /// Whether any cage's operation is hidden.
    pub has_hidden_ops: bool,
    /// The rules relaxed to read it (a game ID read leniently), or null.
    pub warning: Option<String>,
}

/// One cage as `read` describes it.
#[derive(Serialize)]
pub struct CageDoc {
    /// `+`, `-`, `*`, `/`, or `!` for a given, as the text format writes them;
    /// null when the operation is hidden.
    pub op: Option<&'static str>,
    pub clue: u64,
    /// The cells by name (`B3`), in reading order.
    pub cells: Vec<String>,
    /// The cells as 0-based (row, column), in reading order.
    pub positions: Vec<(usize, usize)>,
}

/// `read(text, {format, hideOps})`: the puzzle described (see [`PuzzleDoc`]).
pub fn read_doc(text: &str, format: Option<&str>, hide: HideOps) -> Result<PuzzleDoc, Failure> {
    let arg = PuzzleArg {
        text,
        format,
        hidden: false,
    };
    let imported = arg.read(hide)?;
    let grid = &imported.puzzle;
    let size = grid.size();
    Ok(PuzzleDoc {
        source: text.to_string(),
        format: imported.format.name(),
        hide_ops: hide.hide_ops,
        size: size.get(),
        cages: grid
            .cages()
            .iter()
            .map(|cage| CageDoc {
                op: text::op_symbol(cage.op),
                clue: cage.clue,
                cells: cage.cells.iter().map(|&c| size.cell_label(c)).collect(),
                positions: cage
                    .cells
                    .iter()
                    .map(|&c| (size.row(c), size.col(c)))
                    .collect(),
            })
            .collect(),
        boxes: grid.boxes(),
        has_hidden_ops: grid.has_hidden_ops(),
        warning: relaxed_warning(&imported),
    })
}

#[wasm_bindgen]
pub fn read(text: &str, options: JsValue) -> Result<String, JsValue> {
    let mut given = Given::new("read", options)?;
    let hide: HideOps = given.take()?;
    let format: Option<String> = given.take_one("format")?;
    given.finish()?;
    Ok(json(&read_doc(text, format.as_deref(), hide)?)?)
}

/// A puzzle written in another format (`tatham`, `k6c`, `d6c`, `text`,
/// `sudokuwiki`), its progress included when it carries some.
#[wasm_bindgen]
pub fn write_as(
    text: &str,
    format: Option<String>,
    hidden: bool,
    target: &str,
) -> Result<String, JsValue> {
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(HideOps::default())?;
    let target = target
        .parse::<Format>()
        .map_err(|e| Failure::options(e.to_string()))?;
    Ok(
        write(&imported.puzzle, target, imported.progress.as_deref())
            .map_err(|e| Failure::format(e.to_string()))?,
    )
}

/// The grading options of a call, checked; `mode` when none is given.
fn grade_settings(given: &mut Given, mode: Mode) -> Result<GradeSettings, Failure> {
    let named = given.has("mode");
    let mut options: GradeOptions = given.take()?;
    if !named {
        options.mode = mode;
    }
    Ok(options.settings()?)
}

/// `grade(puzzle, options)`: the row `grader batch --format ndjson` writes for
/// the puzzle (index 1). Mode b unless the options name one.
pub fn grade_row(arg: PuzzleArg<'_>, mut given: Given) -> Result<String, Failure> {
    let hide: HideOps = given.take()?;
    let times = given.take_one::<bool>("times")?.unwrap_or(false);
    let settings = grade_settings(&mut given, Mode::B)?;
    given.finish()?;
    let work = Grading::new(&settings);
    let started = Instant::now();
    let hidden = hide.hide_ops || arg.hidden;
    let imported = arg.read(hide)?;
    let outcome = pipeline::work_one(&work, imported);
    let took = times.then(|| started.elapsed());
    json(&GradeRow::new(1, arg.text, hidden, &outcome, took))
}

#[wasm_bindgen]
pub fn grade(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let given = Given::new("grade", options)?;
    Ok(grade_row(arg, given)?)
}

/// Rows of jobs, in input order, as `grader batch --format ndjson` writes them:
/// a JSON array of the row objects.
fn rows_of(jobs: Vec<Job>, work: &Grading, times: bool) -> Result<Vec<String>, Failure> {
    let mut rows = Vec::with_capacity(jobs.len());
    for chunk in jobs.chunks(CHUNK_PER_JOB) {
        let done = pipeline::work_chunk_here(chunk, work, times, &());
        for (job, d) in chunk.iter().zip(&done) {
            rows.push(json(&GradeRow::new(
                job.index,
                &d.shown(job),
                job.hide_ops,
                &d.outcome,
                d.took,
            ))?);
        }
    }
    Ok(rows)
}

/// `gradeMany(puzzles, options)`: `jobs` is a JSON array of batch jobs (`{"index",
/// "text", "problem", "hide_ops", "bytes"}`, made by the JavaScript side from
/// the items given); the rows, in input order, as a JSON array.
#[wasm_bindgen]
pub fn grade_many(jobs: &str, options: JsValue) -> Result<String, JsValue> {
    let mut given = Given::new("gradeMany", options)?;
    let hide: HideOps = given.take()?;
    let times = given.take_one::<bool>("times")?.unwrap_or(false);
    let settings = grade_settings(&mut given, Mode::B)?;
    given.finish()?;
    let mut jobs: Vec<Job> = serde_json::from_str(jobs)
        .map_err(|e| Failure::new("TypeError", format!("gradeMany(): the jobs: {e}")))?;
    for job in &mut jobs {
        job.hide_ops |= hide.hide_ops;
    }
    let rows = rows_of(jobs, &Grading::new(&settings), times)?;
    Ok(format!("[{}]", rows.join(",")))
}

/// `batch(input, options)`: the rows `grader batch --format ndjson` writes for a
/// batch file's text (a JSON array, NDJSON, a category object or one puzzle a
/// line), as a JSON array. An input that cannot be read as a batch is a
/// `BatchInputError` (with the `rows` before the place, when it stops midway).
#[wasm_bindgen]
pub fn batch(input: &str, options: JsValue) -> Result<String, JsValue> {
    let mut given = Given::new("batch", options)?;
    let hide: HideOps = given.take()?;
    let times = given.take_one::<bool>("times")?.unwrap_or(false);
    let settings = grade_settings(&mut given, Mode::N)?;
    given.finish()?;
    let refused = |e: BatchError| Failure::new("BatchInputError", e.to_string());
    let entries = batch_input::from_reader(input.as_bytes(), "the input", Some(input.len() as u64))
        .map_err(refused)?;
    let mut jobs = Vec::new();
    let mut stopped = None;
    for entry in entries {
        match entry {
            Ok(entry) => {
                let mut job = Job::from(entry);
                job.hide_ops |= hide.hide_ops;
                jobs.push(job);
            }
            Err(e) => {
                stopped = Some(refused(e));
                break;
            }
        }
    }
    let rows = format!(
        "[{}]",
        rows_of(jobs, &Grading::new(&settings), times)?.join(",")
    );
    match stopped {
        None => Ok(rows),
        Some(mut failure) => {
            failure.details = Some(format!("{{\"rows\":{rows}}}"));
            Err(failure.into())
        }
    }
}

/// `solve(puzzle, {timeout, hideOps})`: `grader solve --json`'s document,
/// `{"puzzle", "size", "verdict", "solution"}`.
#[wasm_bindgen]
pub fn solve(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    #[derive(Serialize)]
    struct SolveDoc<'a> {
        puzzle: &'a str,
        size: usize,
        verdict: String,
        solution: Option<Vec<Vec<u8>>>,
    }
    let mut given = Given::new("solve", options)?;
    let hide: HideOps = given.take()?;
    let timeout = given
        .take_one::<f64>("timeout")?
        .map(|t| options::seconds("timeout", t))
        .transpose()
        .map_err(Failure::from)?;
    given.finish()?;
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(hide)?;
    let grid = &imported.puzzle;
    let outcome = search_puzzle(grid, timeout.map(|t| Instant::now() + t));
    let size = grid.size().get();
    let solution = outcome
        .solution
        .as_deref()
        .filter(|_| is_finding(outcome.verdict))
        .map(|s| s.chunks(size).map(<[u8]>::to_vec).collect());
    Ok(json(&SolveDoc {
        puzzle: text.trim(),
        size,
        verdict: verdict_name(outcome.verdict, outcome.stopped).into_owned(),
        solution,
    })?)
}

/// `steps(puzzle, options)`: the step log as `grader grade --json` gives it (mode
/// n's unless the options name another mode).
#[wasm_bindgen]
pub fn steps(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    let mut given = Given::new("steps", options)?;
    let hide: HideOps = given.take()?;
    let settings = grade_settings(&mut given, Mode::N)?;
    given.finish()?;
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(hide)?;
    let runs = settings.runs().starting_now();
    let grader = Grader::with_limits(&imported.puzzle, runs.limits)
        .map_err(|why| Failure::options(format!("the puzzle cannot be graded: {why}")))?;
    let grade = grader.grade(runs.shown(), false);
    let reports: Vec<StepReport> = grade
        .steps
        .iter()
        .map(|s| StepReport::new(s, grader.layout()))
        .collect();
    Ok(json(&reports)?)
}

/// The position `state` names (what `grader hint --state` reads: a grid of
/// digits, `.` and `[…]` pencil marks, or a K6C/D6C with progress), else the
/// progress the puzzle carries, else the empty grid.
fn position_of(imported: &Imported, state: Option<&str>) -> Result<Position, Failure> {
    let puzzle = &imported.puzzle;
    let progress = match state {
        Some(text) => state::read(puzzle, text)
            .map_err(|e| Failure::format(format!("cannot read the position: {e}")))?,
        None => match &imported.progress {
            Some(progress) => progress.clone(),
            None => return Ok(Position::blank(puzzle.size())),
        },
    };
    position_from_progress(puzzle.size(), progress)
        .map_err(|e| Failure::format(format!("bad position: {e}")))
}

/// `hint(puzzle, {state, level, …})`: `grader hint --json`'s document.
#[wasm_bindgen]
pub fn hint(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    let mut given = Given::new("hint", options)?;
    let hide: HideOps = given.take()?;
    let state: Option<String> = given.take_one("state")?;
    let level: HintLevel = given.take_one("level")?.unwrap_or_default();
    let settings = grade_settings(&mut given, Mode::N)?;
    given.finish()?;
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(hide)?;
    let position = position_of(&imported, state.as_deref())?;
    let runs = settings.runs().starting_now();
    let grader = Grader::with_limits(&imported.puzzle, runs.limits)
        .map_err(|why| Failure::options(format!("the puzzle cannot be graded: {why}")))?;
    let found = position::hint(&grader, &position, runs.shown(), Budget::new(runs.limits));
    Ok(json(&HintDoc::new(
        &found,
        grader.layout(),
        level,
        "the timeout",
    ))?)
}

/// `check(puzzle, {state, …})`: `grader check --json`'s document.
#[wasm_bindgen]
pub fn check(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    let mut given = Given::new("check", options)?;
    let hide: HideOps = given.take()?;
    let state: Option<String> = given.take_one("state")?;
    let settings = grade_settings(&mut given, Mode::N)?;
    given.finish()?;
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(hide)?;
    if state.is_none() && imported.progress.is_none() {
        return Err(
            Failure::options("nothing to check: give the position as the option state").into(),
        );
    }
    let position = position_of(&imported, state.as_deref())?;
    let runs = settings.runs().starting_now();
    let grader = Grader::with_limits(&imported.puzzle, runs.limits)
        .map_err(|why| Failure::options(format!("the puzzle cannot be solved: {why}")))?;
    let found = position::check(&grader, &position, &mut Budget::new(runs.limits));
    Ok(json(&CheckDoc::from(
        &found.report(&position, "the timeout"),
    ))?)
}

/// `renderSvg(puzzle, {step, proof, solution, candidates, caption, state,
/// hideOps})`: `grader render`'s SVG.
#[wasm_bindgen]
pub fn render_svg(
    text: &str,
    format: Option<String>,
    hidden: bool,
    options: JsValue,
) -> Result<String, JsValue> {
    let mut given = Given::new("renderSvg", options)?;
    let hide: HideOps = given.take()?;
    let step: Option<usize> = given.take_one("step")?;
    let proof: Option<usize> = given.take_one("proof")?;
    let solution = given.take_one::<bool>("solution")?.unwrap_or(false);
    let candidates = given.take_one::<bool>("candidates")?.unwrap_or(false);
    let caption = given.take_one::<bool>("caption")?.unwrap_or(true);
    let state: Option<String> = given.take_one("state")?;
    given.finish()?;
    let refused = |message: &str| -> JsValue { Failure::new("RenderError", message).into() };
    if usize::from(step.is_some()) + usize::from(solution) + usize::from(candidates) > 1 {
        return Err(refused("draw one of step, solution and candidates"));
    }
    let subject = match (step, proof, solution, candidates) {
        (Some(number), Some(proof), _, _) => Subject::Proof {
            number,
            proof,
            caption,
        },
        (None, Some(_), _, _) => return Err(refused("a proof is drawn with its step")),
        (Some(number), None, _, _) => Subject::Step { number, caption },
        (None, None, true, _) => Subject::Solution,
        (None, None, false, true) => Subject::Candidates,
        (None, None, false, false) => Subject::Position,
    };
    let arg = PuzzleArg {
        text,
        format: format.as_deref(),
        hidden,
    };
    let imported = arg.read(hide)?;
    let position = position_of(&imported, state.as_deref())?;
    let runs = GradeSettings::default().runs().starting_now();
    scene(
        &imported.puzzle,
        &position,
        subject,
        runs.shown(),
        runs.limits,
    )
    .map(|picture| picture.svg())
    .map_err(|e| Failure::new("RenderError", e.to_string()).into())
}

/// `techniques()`: the ladder, easiest first, as `grader techniques` lists it.
#[wasm_bindgen]
pub fn techniques() -> Result<String, JsValue> {
    #[derive(Serialize)]
    struct Row {
        id: &'static str,
        name: &'static str,
        rating: String,
        enabled: bool,
        summary: &'static str,
    }
    let rows: Vec<Row> = kenken_techniques::listing()
        .into_iter()
        .map(|(kind, name, rating)| Row {
            id: kind.id(),
            name,
            rating,
            enabled: kind.row().enabled,
            summary: kind.row().summary,
        })
        .collect();
    Ok(json(&rows)?)
}
