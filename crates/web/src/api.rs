//! The JSON API: each call reads a puzzle (and a position), calls the libraries
//! within the request's limits and returns a document; nothing is kept between
//! calls but a small cache of puzzles already solved step by step.
//!
//! A position is sent as `cells`: one entry per cell in reading order, `0` for a
//! blank cell, a digit, or an array of pencil marks (the digits still thought
//! possible).

use crate::cache::{Cache, Loaded};
use crate::ApiError;
use kenken_formats::{CellProgress, Format};
use kenken_model::{Budget, Digit, Digits, Exhausted, Limits, Puzzle};
use kenken_render::{GridFrame, Picture};
use kenken_search::Verdict;
use kenken_techniques::position::{self, Check, ConflictKind, Hint, Position, Shown, Written};
use kenken_techniques::{Options, Status, Step, TechniqueKind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a cell of a position holds, as sent by the page.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum CellJson {
    Digit(u8),
    Marks(Vec<u8>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    pub puzzle: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    pub puzzle: String,
    /// 1-based, as `grader grade` numbers steps.
    pub n: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    pub puzzle: String,
    pub cells: Vec<CellJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    pub puzzle: String,
    pub cells: Vec<CellJson>,
    pub level: Level,
}

/// How much a hint tells; each level tells what the ones before it do, and more.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
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

#[derive(Serialize)]
struct StepLine {
    rating: f64,
    text: String,
}

/// `POST /api/load {"puzzle"}`: the puzzle read, its rating, its step log (texts),
/// the empty board and, for K6C/D6C, the position it carries.
pub fn load(cache: &Cache, limits: Limits, req: PuzzleRequest) -> Result<Value, ApiError> {
    let loaded = cache.get(&req.puzzle, limits)?;
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
pub fn step(cache: &Cache, limits: Limits, req: StepRequest) -> Result<Value, ApiError> {
    let loaded = cache.get(&req.puzzle, limits)?;
    let count = loaded.frames.len();
    let frame = req
        .n
        .checked_sub(1)
        .and_then(|i| loaded.frames.get(i))
        .ok_or_else(|| {
            ApiError::not_found(format!("there is no step {}: the log has {count}", req.n))
        })?;
    let picture = Picture::new(loaded.puzzle())
        .cells(frame.before.clone())
        .map_err(|e| ApiError::internal(e.to_string()))?
        .step(&frame.step);
    Ok(json!({
        "n": req.n,
        "count": count,
        "step": step_json(&loaded, &frame.step),
        "svg": picture.svg(),
    }))
}

fn step_json(loaded: &Loaded, step: &Step) -> Value {
    let puzzle = loaded.puzzle();
    let size = puzzle.size();
    let cells = |list: &[(kenken_model::CellId, Digit)]| -> Vec<Value> {
        list.iter()
            .map(|&(c, d)| json!({"cell": kenken_techniques::labels::cell(size, c), "index": c.index(), "digit": d}))
            .collect()
    };
    json!({
        "technique": step.technique_name(),
        "technique_id": step.technique.id(),
        "rating": step.rating.as_f64(),
        "text": step.labelled_text(puzzle),
        "explanation": step.explanation(loaded.grader.layout()),
        "placements": cells(&step.placements),
        "eliminations": cells(&step.eliminations),
    })
}

/// A position of `puzzle` from the page's cells.
fn position(puzzle: &Puzzle, cells: &[CellJson]) -> Result<Position, ApiError> {
    let n = puzzle.size().get();
    let entries = cells
        .iter()
        .map(|c| match c {
            CellJson::Digit(0) => Ok(Written::Blank),
            CellJson::Digit(d) => Ok(Written::Digit(*d)),
            CellJson::Marks(marks) => {
                let mut digits = Digits::EMPTY;
                for &d in marks {
                    if d == 0 || usize::from(d) > n {
                        return Err(ApiError::unprocessable(format!(
                            "pencil mark {d} is outside 1..={n}"
                        )));
                    }
                    digits.insert(d);
                }
                Ok(if digits.is_empty() {
                    Written::Blank
                } else {
                    Written::Marks(digits)
                })
            }
        })
        .collect::<Result<Vec<Written>, ApiError>>()?;
    Position::new(puzzle.size(), entries)
        .map_err(|e| ApiError::unprocessable(format!("bad position: {e}")))
}

/// `POST /api/board {"puzzle", "cells"}`: the picture of a position.
pub fn board(cache: &Cache, req: PositionRequest) -> Result<Value, ApiError> {
    // The picture needs only the puzzle: read it without grading when it is
    // not cached yet.
    let puzzle = cache.read(&req.puzzle)?;
    let position = position(&puzzle, &req.cells)?;
    let cells = position
        .cells()
        .iter()
        .map(|e| match *e {
            Written::Blank => Shown::Candidates(Digits::EMPTY),
            Written::Digit(d) => Shown::Digit(d),
            Written::Marks(m) => Shown::Candidates(m),
        })
        .collect();
    let picture = Picture::new(&puzzle)
        .cells(cells)
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(json!({ "svg": picture.svg() }))
}

/// `POST /api/check {"puzzle", "cells"}`: which entries contradict the solution.
pub fn check(cache: &Cache, limits: Limits, req: PositionRequest) -> Result<Value, ApiError> {
    let loaded = cache.get(&req.puzzle, limits)?;
    let puzzle = loaded.puzzle();
    let size = puzzle.size();
    let position = position(puzzle, &req.cells)?;
    let found = position::check(&loaded.grader, &position, &mut Budget::new(limits));
    let filled = position
        .cells()
        .iter()
        .filter(|e| matches!(e, Written::Digit(_)))
        .count();
    let (status, message) = match &found {
        Check::Consistent if position.is_complete() => (
            "consistent",
            "Solved: every cell is filled, and right.".to_string(),
        ),
        Check::Consistent => (
            "consistent",
            format!(
                "All consistent so far ({filled} of {} cells filled).",
                size.cell_count()
            ),
        ),
        Check::Conflicts(conflicts) => (
            "conflicts",
            conflicts
                .iter()
                .map(|c| c.describe(size))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Check::ConsistentWithSome => (
            "consistent-with-some",
            "Consistent with at least one solution (the puzzle has several).".to_string(),
        ),
        Check::ContradictsEvery => (
            "contradicts-every",
            "The position agrees with none of the puzzle's solutions.".to_string(),
        ),
        Check::Impossible => ("impossible", "The puzzle has no solution.".to_string()),
        Check::Stopped(why) => stopped(*why),
    };
    let conflicts: Vec<Value> = match &found {
        Check::Conflicts(conflicts) => conflicts
            .iter()
            .map(|c| {
                let (kind, entered) = match c.kind {
                    ConflictKind::WrongDigit(d) => ("wrong-digit", Some(d)),
                    ConflictKind::DigitRemoved => ("digit-removed", None),
                };
                json!({
                    "cell": kenken_techniques::labels::cell(size, c.cell),
                    "index": c.cell.index(),
                    "kind": kind,
                    "entered": entered,
                })
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(json!({
        "status": status,
        "message": message,
        "conflicts": conflicts,
        "filled": filled,
        "cells": size.cell_count(),
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
pub fn hint(cache: &Cache, limits: Limits, req: HintRequest) -> Result<Value, ApiError> {
    let loaded = cache.get(&req.puzzle, limits)?;
    let puzzle = loaded.puzzle();
    let position = position(puzzle, &req.cells)?;
    let found = position::hint(
        &loaded.grader,
        &position,
        Options::default(),
        Budget::new(limits),
    );
    let mut doc = json!({ "level": format!("{:?}", req.level).to_lowercase() });
    match &found {
        Hint::Step { frame, prior } => {
            let step = &frame.step;
            doc["status"] = json!("step");
            doc["nudge"] = json!(step.nudge(puzzle));
            if req.level >= Level::Technique {
                doc["technique"] = json!(step.technique_name());
                doc["rating"] = json!(step.rating.as_f64());
            }
            if req.level >= Level::Cells {
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
            if req.level >= Level::Full {
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
pub fn export(cache: &Cache, req: PositionRequest) -> Result<Value, ApiError> {
    let puzzle = cache.read(&req.puzzle)?;
    let position = position(&puzzle, &req.cells)?;
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
