//! The JSON API: each call reads a puzzle (and a position), calls the libraries
//! within the request's limits and returns a document; nothing is kept between
//! calls but a small cache of puzzles already solved step by step.
//!
//! A position is sent as `cells`: one entry per cell in reading order, `0` for a
//! blank cell, a digit, or an array of pencil marks (the digits still thought
//! possible). Every request that carries a puzzle may add `"hide_ops": true`:
//! every cage's operation is hidden before anything else is done (as it is for
//! every request when the server hides them, [`crate::Config::hide_ops`]).

use crate::cache::{Cache, Loaded, Source};
use crate::{ApiError, MAX_PUZZLE};
use kenken_formats::{CellProgress, Format};
use kenken_model::{Budget, CellId, Digit, Digits, Exhausted, Limits, Puzzle};
use kenken_render::{scene, GridFrame, Picture, Subject};
use kenken_search::Verdict;
use kenken_techniques::position::{self, Frame, Hint, Position, Written};
use kenken_techniques::{Options, Status, Step, StepReport, TechniqueKind};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// How much a hint tells; each level tells what the ones before it do, and more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Where to look.
    Nudge,
    /// The technique to use.
    Technique,
    /// The cells the step rests on.
    Cells,
    /// The whole step, explained, with its picture.
    Full,
}

impl Level {
    const ALL: [Level; 4] = [Level::Nudge, Level::Technique, Level::Cells, Level::Full];

    fn name(self) -> &'static str {
        match self {
            Level::Nudge => "nudge",
            Level::Technique => "technique",
            Level::Cells => "cells",
            Level::Full => "full",
        }
    }
}

/// Where the grid lies in the board's picture (for the page's pointer and marks).
#[derive(Serialize)]
struct FrameJson {
    left: f32,
    top: f32,
    cell: f32,
    n: usize,
    width: f32,
    height: f32,
}

impl From<GridFrame> for FrameJson {
    fn from(f: GridFrame) -> FrameJson {
        FrameJson {
            left: f.left,
            top: f.top,
            cell: f.cell,
            n: f.n,
            width: f.width,
            height: f.height,
        }
    }
}

/// What one API call works with.
pub struct Call<'a> {
    /// The server's puzzles already graded.
    pub cache: &'a Cache,
    /// The request's deadline and memory.
    pub limits: Limits,
    /// Whether the server hides every puzzle's operations.
    pub hide_ops: bool,
}

#[derive(Serialize)]
struct StepLine {
    rating: f64,
    text: String,
}

/// A POST route's answer: the API call, or what went wrong.
pub type Answer = fn(Call<'_>, Value) -> Result<Value, ApiError>;

/// The function that answers the POST route `path`, when it is one.
pub fn post_route(path: &str) -> Option<Answer> {
    Some(match path {
        "/api/load" => load,
        "/api/step" => step,
        "/api/proof" => proof,
        "/api/board" => board,
        "/api/check" => check,
        "/api/hint" => hint,
        "/api/export" => export,
        _ => return None,
    })
}

/// `POST /api/load {"puzzle"}`: the puzzle read, its rating, its step log (texts),
/// the empty board, the cells' names (`A1`, in reading order) and, for K6C/D6C,
/// the position it carries; the puzzle as a
/// Tatham ID and in the text format (only the text format shows a hidden
/// operation).
pub fn load(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/load", &["puzzle"])?;
    let loaded = call.cache.get(req.source(&call)?, call.limits)?;
    let puzzle = loaded.puzzle();
    let size = puzzle.size().get();
    let grade = &loaded.grade;
    let hardest = loaded
        .frames
        .iter()
        .find(|f| f.step.rating == grade.max && !f.step.is_propagation())
        .map(|f| f.step.technique_name());
    let steps: Vec<StepLine> = loaded
        .frames
        .iter()
        .map(|f| StepLine {
            rating: f.step.rating.as_f64(),
            text: f.step.labelled_text(puzzle),
        })
        .collect();
    let progress = loaded.imported.progress.as_ref().map(|p| {
        p.iter()
            .map(|c| match *c {
                CellProgress::Unknown => json!(0),
                CellProgress::Solved(d) => json!(d),
                CellProgress::Candidates(m) => json!(m.iter().collect::<Vec<Digit>>()),
            })
            .collect::<Vec<Value>>()
    });
    let warning = (!loaded.imported.relaxed.is_empty()).then(|| {
        format!(
            "read leniently: {}",
            loaded
                .imported
                .strict_error
                .as_ref()
                .map(|e| e.to_string())
                .unwrap_or_default()
        )
    });
    let picture = Picture::new(puzzle);
    Ok(json!({
        "format": loaded.imported.format.name(),
        "format_description": loaded.imported.format.description(),
        "size": size,
        "kendoku": puzzle.is_kendoku(),
        "tatham": kenken_formats::write(puzzle, Format::Tatham, None).ok(),
        "text": kenken_formats::write(puzzle, Format::Text, None).ok(),
        "hide_ops": loaded.hide_ops,
        "warning": warning,
        "verdict": match loaded.verdict {
            Verdict::Unique => "unique",
            Verdict::Ambiguous => "ambiguous",
            Verdict::Impossible => "impossible",
            Verdict::Unknown => "unknown",
        },
        "status": grade.status.as_str(),
        "status_text": status_text(grade.status),
        "max": grade.max.as_f64(),
        "total": grade.total.as_f64(),
        "ladder_steps": grade.ladder_steps,
        "hardest": hardest,
        "steps": steps,
        "walk_end": loaded.walk_end,
        "cell_names": puzzle.size().cells().map(|c| puzzle.size().cell_label(c)).collect::<Vec<String>>(),
        "frame": FrameJson::from(picture.grid_frame()),
        "svg": picture.svg(),
        "progress": progress,
    }))
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Solved => "solved by the ladder",
        Status::Stuck => "stuck: no technique of the ladder applies before the end (the puzzle has one solution, beyond them)",
        Status::Impossible => "impossible: the puzzle has no solution",
        Status::Ambiguous => "ambiguous: the puzzle has more than one solution",
        Status::TimedOut => "cut short: the time allowed for one request passed",
        Status::Limit => "cut short: the memory or work limit was reached",
    }
}

/// `POST /api/step {"puzzle", "n"}`: step `n` of the log, explained, drawn on
/// the grid as it stood before it.
pub fn step(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/step", &["puzzle", "n"])?;
    let n = req.step()?;
    let loaded = call.cache.get(req.source(&call)?, call.limits)?;
    let count = loaded.frames.len();
    let frame = log_frame(&loaded, n)?;
    let picture = Picture::new(loaded.puzzle())
        .cells(frame.before.clone())
        .map_err(|e| ApiError::internal(e.to_string()))?
        .step(&frame.step);
    Ok(json!({
        "n": n,
        "count": count,
        "step": step_json(&loaded, &frame.step),
        "svg": picture.svg(),
    }))
}

/// Step `n` (from 1) of the log, with the grid before it; 422 past the end.
fn log_frame(loaded: &Loaded, n: usize) -> Result<&Frame, ApiError> {
    let count = loaded.frames.len();
    loaded.frames.get(n - 1).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "there is no step {n}: the log has {count} (n is from 1 to {count})"
        ))
    })
}

/// `POST /api/proof {"puzzle", "n", "k"}`: proof `k` of step `n` of the log (why
/// one of the cage combinations it removes cannot be), its text, and its picture
/// on the grid as it stood before the step.
pub fn proof(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/proof", &["puzzle", "n", "k"])?;
    let n = req.step()?;
    let k = req.proof()?;
    let loaded = call.cache.get(req.source(&call)?, call.limits)?;
    let frame = log_frame(&loaded, n)?;
    let step = &frame.step;
    let count = step.proofs.len();
    let proof = step.proofs.get(k - 1).ok_or_else(|| {
        ApiError::unprocessable(match count {
            0 => format!(
                "step {n} ({}) has no proof: only cage comparisons and region totals and parities carry one",
                step.technique_name()
            ),
            _ => format!("step {n} has no proof {k}: it has {count} (k is from 1 to {count})"),
        })
    })?;
    let picture = Picture::new(loaded.puzzle())
        .cells(frame.before.clone())
        .map_err(|e| ApiError::internal(e.to_string()))?
        .proof(proof, loaded.grader.layout());
    Ok(json!({
        "n": n,
        "k": k,
        "count": count,
        "text": proof.text(),
        "svg": picture.svg(),
    }))
}

/// A step as every front end hands it on ([`StepReport`]).
fn step_json(loaded: &Loaded, step: &Step) -> Value {
    serde_json::to_value(StepReport::new(step, loaded.grader.layout()))
        .unwrap_or_else(|e| json!({ "error": e.to_string() }))
}

/// A position of `puzzle` from the page's cells: each `0` (a blank), a digit, or
/// an array of distinct pencil marks (`[]` is a blank too).
fn position(puzzle: &Puzzle, cells: &[Value]) -> Result<Position, ApiError> {
    let size = puzzle.size();
    let n = size.get();
    if cells.len() != size.cell_count() {
        return Err(ApiError::unprocessable(format!(
            "bad position: the position has {} cells, the grid has {}",
            cells.len(),
            size.cell_count()
        )));
    }
    let entries = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            let wrong = |what: String| {
                ApiError::unprocessable(format!(
                    "cells[{i}] ({}): {what}; a cell is 0 for a blank, a digit from 1 to {n}, or an array of distinct pencil marks from 1 to {n}",
                    size.cell_label(CellId::new(i))
                ))
            };
            let digit = |value: &Value| whole(value).filter(|&d| d <= n as u64);
            match cell {
                Value::Array(marks) => {
                    let mut digits = Digits::EMPTY;
                    for mark in marks {
                        let d = digit(mark).filter(|&d| d >= 1).ok_or_else(|| {
                            wrong(format!(
                                "the pencil mark {} is not a digit of a {n}×{n} grid",
                                shown(mark)
                            ))
                        })? as Digit;
                        if digits.contains(d) {
                            return Err(wrong(format!("the pencil mark {d} is given twice")));
                        }
                        digits.insert(d);
                    }
                    Ok(if digits.is_empty() {
                        Written::Blank
                    } else {
                        Written::Marks(digits)
                    })
                }
                Value::Number(_) => match digit(cell) {
                    Some(0) => Ok(Written::Blank),
                    Some(d) => Ok(Written::Digit(d as Digit)),
                    None => Err(wrong(format!(
                        "{} is not a digit of a {n}×{n} grid",
                        shown(cell)
                    ))),
                },
                other => Err(wrong(format!("{} is not a cell", kind(other)))),
            }
        })
        .collect::<Result<Vec<Written>, ApiError>>()?;
    Position::new(size, entries).map_err(|e| ApiError::unprocessable(format!("bad position: {e}")))
}

/// A JSON number that is a whole number from 0 (`3` or `3.0`).
fn whole(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=9.0e15).contains(f))
            .map(|f| f as u64)
    })
}

/// A JSON value as an error message quotes it: a whole number read as a float
/// (`-0`, `1e2`, `3.0`) as the whole number it is (`0`, `100`, `3`), anything
/// else as JSON.
fn shown(value: &Value) -> String {
    match value.as_f64() {
        Some(x) if value.is_f64() && x.fract() == 0.0 && x.abs() < 1e15 => {
            format!("{}", x as i64)
        }
        _ => value.to_string(),
    }
}

/// What kind of JSON value `value` is, in words.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The fields every request that carries a puzzle may add.
const OPTIONAL: &[&str] = &["hide_ops"];

/// A request body: a JSON object with the fields a route takes (all of them, and
/// perhaps [`OPTIONAL`] ones), each read and checked as it is needed (a 422 that
/// names the field otherwise).
struct Request {
    fields: Map<String, Value>,
}

impl Request {
    fn new(body: Value, route: &str, takes: &[&str]) -> Result<Request, ApiError> {
        let quoted = |names: &[&str]| {
            names
                .iter()
                .map(|t| format!("\"{t}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let list = format!("{} (and, optionally, {})", quoted(takes), quoted(OPTIONAL));
        let fields = match body {
            Value::Object(fields) => fields,
            other => {
                return Err(ApiError::unprocessable(format!(
                    "the request body must be a JSON object with the fields {list}, not {}",
                    kind(&other)
                )))
            }
        };
        if let Some(unknown) = fields
            .keys()
            .find(|k| !takes.contains(&k.as_str()) && !OPTIONAL.contains(&k.as_str()))
        {
            return Err(ApiError::unprocessable(format!(
                "unknown field {unknown:?}: {route} takes {list}"
            )));
        }
        if let Some(missing) = takes.iter().find(|t| !fields.contains_key(**t)) {
            return Err(ApiError::unprocessable(format!(
                "the field \"{missing}\" is missing: {route} takes {list}"
            )));
        }
        Ok(Request { fields })
    }

    fn field(&self, name: &str) -> &Value {
        &self.fields[name]
    }

    /// `puzzle`: a string of at most [`MAX_PUZZLE`] characters.
    fn puzzle(&self) -> Result<&str, ApiError> {
        match self.field("puzzle") {
            Value::String(text) if text.chars().count() > MAX_PUZZLE => {
                Err(ApiError::unprocessable(format!(
                    "\"puzzle\" is longer than {MAX_PUZZLE} characters"
                )))
            }
            Value::String(text) => Ok(text),
            other => Err(ApiError::unprocessable(format!(
                "\"puzzle\" must be a string (a puzzle in any format the grader reads), not {}",
                kind(other)
            ))),
        }
    }

    /// The puzzle a request names: `puzzle`, with every operation hidden when
    /// `hide_ops` is true or the server hides them all.
    fn source(&self, call: &Call<'_>) -> Result<Source<'_>, ApiError> {
        let text = self.puzzle()?;
        let hide_ops = match self.fields.get("hide_ops") {
            None => false,
            Some(Value::Bool(hide)) => *hide,
            Some(other) => {
                return Err(ApiError::unprocessable(format!(
                "\"hide_ops\" must be true or false (true hides every cage's operation), not {}",
                shown(other)
            )))
            }
        };
        Ok(Source {
            text,
            hide_ops: hide_ops || call.hide_ops,
        })
    }

    /// `n`: a step number, from 1.
    fn step(&self) -> Result<usize, ApiError> {
        let n = self.field("n");
        whole(n)
            .filter(|&n| n >= 1)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "\"n\" must be a whole number from 1 (the step to show), not {}",
                    shown(n)
                ))
            })
    }

    /// `k`: a proof's number within its step, from 1.
    fn proof(&self) -> Result<usize, ApiError> {
        let k = self.field("k");
        whole(k)
            .filter(|&k| k >= 1)
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "\"k\" must be a whole number from 1 (the proof to show), not {}",
                    shown(k)
                ))
            })
    }

    /// `cells`: an array (each cell is checked against the puzzle's size).
    fn cells(&self) -> Result<&[Value], ApiError> {
        match self.field("cells") {
            Value::Array(cells) => Ok(cells),
            other => Err(ApiError::unprocessable(format!(
                "\"cells\" must be an array with one entry for each cell in reading order, not {}",
                kind(other)
            ))),
        }
    }

    /// `level`: one of [`Level::ALL`]'s names.
    fn level(&self) -> Result<Level, ApiError> {
        let level = self.field("level");
        Level::ALL
            .into_iter()
            .find(|l| level.as_str() == Some(l.name()))
            .ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "\"level\" must be one of \"nudge\", \"technique\", \"cells\", \"full\", not {}",
                    shown(level)
                ))
            })
    }
}

/// `POST /api/board {"puzzle", "cells"}`: the picture of a position.
pub fn board(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/board", &["puzzle", "cells"])?;
    // The picture needs only the puzzle: read it without grading when it is
    // not cached yet.
    let cells = req.cells()?;
    let puzzle = call.cache.read(req.source(&call)?)?;
    let position = position(&puzzle, cells)?;
    let picture = scene(
        &puzzle,
        &position,
        Subject::Position,
        Options::default(),
        Limits::new(),
    )
    .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(json!({ "svg": picture.svg() }))
}

/// `POST /api/check {"puzzle", "cells"}`: which entries contradict the solution.
pub fn check(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/check", &["puzzle", "cells"])?;
    let cells = req.cells()?;
    let source = req.source(&call)?;
    // The position is checked against the puzzle before it is graded.
    position(&call.cache.read(source)?, cells)?;
    let loaded = call.cache.get(source, call.limits)?;
    let puzzle = loaded.puzzle();
    let position = position(puzzle, cells)?;
    let found = position::check(&loaded.grader, &position, &mut Budget::new(call.limits));
    let report = found.report(&position, "the time allowed for one request");
    let conflicts: Vec<Value> = report
        .conflicts
        .iter()
        .map(|c| {
            json!({
                "cell": c.label,
                "index": c.cell.index(),
                "kind": c.kind,
                "entered": c.entered,
            })
        })
        .collect();
    Ok(json!({
        "status": report.status,
        "message": report.message,
        "conflicts": conflicts,
        "filled": report.filled,
        "cells": report.cells,
    }))
}

fn stopped(why: Exhausted) -> (&'static str, String) {
    match why {
        Exhausted::Time => (
            "timeout",
            "No answer: the time allowed for one request passed.".to_string(),
        ),
        other => ("limit", format!("No answer: {other}.")),
    }
}

/// `POST /api/hint {"puzzle", "cells", "level"}`: the next step from the
/// position, told as little as the level asks; or the first wrong entry.
pub fn hint(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/hint", &["puzzle", "cells", "level"])?;
    let cells = req.cells()?;
    let level = req.level()?;
    let source = req.source(&call)?;
    position(&call.cache.read(source)?, cells)?;
    let loaded = call.cache.get(source, call.limits)?;
    let puzzle = loaded.puzzle();
    let position = position(puzzle, cells)?;
    let found = position::hint(
        &loaded.grader,
        &position,
        Options::default(),
        Budget::new(call.limits),
    );
    let mut doc = json!({ "level": level.name() });
    match &found {
        Hint::Step { frame, prior } => {
            let step = &frame.step;
            doc["status"] = json!("step");
            doc["nudge"] = json!(step.nudge(puzzle));
            if level >= Level::Technique {
                doc["technique"] = json!(step.technique_name());
                doc["rating"] = json!(step.rating.as_f64());
            }
            if level >= Level::Cells {
                doc["cells"] = json!(step.cells_to_look_at(puzzle));
                let evidence = step.evidence(puzzle);
                let mut indices: Vec<usize> = evidence.cells.iter().map(|c| c.index()).collect();
                if indices.is_empty() {
                    indices = evidence
                        .cages
                        .iter()
                        .flat_map(|&c| puzzle.cage(c).cells.iter().map(|x| x.index()))
                        .collect();
                }
                doc["cell_indices"] = json!(indices);
            }
            if level >= Level::Full {
                doc["prior"] = json!(prior
                    .iter()
                    .map(|s| step_json(&loaded, s))
                    .collect::<Vec<_>>());
                doc["step"] = step_json(&loaded, step);
                let picture = Picture::new(puzzle)
                    .cells(frame.before.clone())
                    .map_err(|e| ApiError::internal(e.to_string()))?
                    .step(step);
                doc["svg"] = json!(picture.svg());
            }
        }
        Hint::Conflict(conflict) => {
            doc["status"] = json!("conflict");
            doc["message"] = json!(format!(
                "{} Fix it first.",
                conflict.describe(puzzle.size())
            ));
            doc["cell_indices"] = json!([conflict.cell.index()]);
        }
        other => {
            let (status, message) = match other {
                Hint::Solved => ("solved", "Nothing left to do: the grid is solved.".to_string()),
                Hint::Stuck => ("stuck", "No hint: no technique of the ladder applies from here (the puzzle has one solution, beyond them).".to_string()),
                Hint::Ambiguous => ("ambiguous", "No hint: no technique applies, and the puzzle has more than one solution.".to_string()),
                Hint::ContradictsEvery => ("contradicts-every", "The position agrees with none of the puzzle's solutions.".to_string()),
                Hint::Impossible => ("impossible", "No hint: the puzzle has no solution.".to_string()),
                Hint::Stopped(why) => stopped(*why),
                Hint::Step { .. } | Hint::Conflict(_) => unreachable!("handled above"),
            };
            doc["status"] = json!(status);
            doc["message"] = json!(message);
        }
    }
    Ok(doc)
}

/// `POST /api/export {"puzzle", "cells"}`: the position as a K6C (or, for
/// KenDoku, D6C) string; 422 when the format cannot hold the puzzle, with the
/// position as a plain grid instead.
pub fn export(call: Call<'_>, body: Value) -> Result<Value, ApiError> {
    let req = Request::new(body, "/api/export", &["puzzle", "cells"])?;
    let cells = req.cells()?;
    let puzzle = call.cache.read(req.source(&call)?)?;
    let position = position(&puzzle, cells)?;
    let progress: Vec<CellProgress> = position
        .cells()
        .iter()
        .map(|e| match *e {
            Written::Blank => CellProgress::Unknown,
            Written::Digit(d) => CellProgress::Solved(d),
            Written::Marks(m) => CellProgress::Candidates(m),
        })
        .collect();
    let format = if puzzle.is_kendoku() {
        Format::D6c
    } else {
        Format::K6c
    };
    let grid = kenken_formats::state::write_grid(puzzle.size(), &progress);
    match kenken_formats::write(&puzzle, format, Some(&progress)) {
        Ok(text) => Ok(json!({ "format": format.name(), "text": text, "grid": grid })),
        Err(e) => Err(ApiError::unprocessable(format!(
            "{} cannot hold this puzzle: {e}. The position as a grid (what `grader hint --state` reads) is below.",
            format.description()
        ))
        .with("grid", json!(grid))),
    }
}

/// `GET /api/ladder`: the techniques, easiest first, with their ratings.
pub fn ladder() -> Value {
    let rows: Vec<Value> = TechniqueKind::all()
        .map(|k| {
            json!({
                "id": k.id(),
                "name": k.name(),
                "rating": k.row().rating.to_string(),
                "summary": k.row().summary,
                "enabled": k.row().enabled,
            })
        })
        .collect();
    json!({ "techniques": rows })
}
