//! `kenken.render_svg`: a picture of the grid, as `grader render` draws it.

use crate::errors::RenderError;
use crate::pools;
use crate::puzzle::PuzzleArg;
use kenken_batch::GradeSettings;
use kenken_model::{Budget, Digits};
use kenken_render::Picture;
use kenken_techniques::position::{shown, Position, Shown, Walk};
use kenken_techniques::Grader;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// The grid as a self-contained SVG (text drawn as outlines; the same bytes for
/// the same input), as `grader render` draws it: empty; with the `solution`; with
/// the `candidates` left after the whole log; or with `step` N of the log (numbered
/// as `grader grade` numbers its lines, naked singles included) drawn on the grid
/// before it, with its text and explanation as a caption unless `caption` is
/// False.
///
/// Raises RenderError when the step does not exist or the puzzle has no unique
/// solution to show.
#[pyfunction]
#[pyo3(signature = (puzzle, step = None, *, solution = false, candidates = false, caption = true))]
pub fn render_svg(
    py: Python<'_>,
    puzzle: PuzzleArg<'_>,
    step: Option<&Bound<'_, PyAny>>,
    solution: bool,
    candidates: bool,
    caption: bool,
) -> PyResult<String> {
    let (_, imported) = puzzle.read(py)?;
    if usize::from(step.is_some()) + usize::from(solution) + usize::from(candidates) > 1 {
        return Err(RenderError::new_err(
            "draw one of step, solution and candidates",
        ));
    }
    let step = step.map(step_number).transpose()?;
    if step == Some(0) {
        return Err(RenderError::new_err("steps are numbered from 1"));
    }
    let pool = pools::pool(1)?;
    py.detach(|| pool.install(|| picture(&imported.puzzle, step, solution, candidates, caption)))
        .map_err(RenderError::new_err)
}

/// A step's number: a whole number (a TypeError for anything else); one below 1
/// or past any log (beyond 64 bits) is a RenderError.
fn step_number(step: &Bound<'_, PyAny>) -> PyResult<usize> {
    match step.extract::<usize>() {
        Ok(n) => Ok(n),
        Err(e) if e.is_instance_of::<PyOverflowError>(step.py()) => {
            if step.lt(0)? {
                Err(RenderError::new_err("steps are numbered from 1"))
            } else {
                Err(RenderError::new_err(format!(
                    "there is no step {step}: the log ends before it"
                )))
            }
        }
        Err(e) => Err(e),
    }
}

fn picture(
    puzzle: &kenken_model::Puzzle,
    step: Option<usize>,
    solution: bool,
    candidates: bool,
    caption: bool,
) -> Result<String, String> {
    let runs = GradeSettings::default().runs().starting_now();
    let blank = || vec![Shown::Candidates(Digits::EMPTY); puzzle.size().cell_count()];
    if step.is_none() && !solution && !candidates {
        return Ok(Picture::new(puzzle)
            .cells(blank())
            .map_err(|e| e.to_string())?
            .svg());
    }
    let grader = Grader::with_limits(puzzle, runs.limits)
        .map_err(|why| format!("the puzzle cannot be graded: {why}"))?;
    // From the empty position, as `grader render` walks without `--state`.
    let walk = || {
        Walk::from_position(
            &grader,
            &Position::blank(puzzle.size()),
            runs.shown(),
            Budget::new(runs.limits),
        )
        .map_err(|_| "the puzzle leaves a cell or a cage with nothing possible".to_string())
    };
    let mut drawn = None;
    let cells = if solution {
        match grader.solution() {
            Some(s) => s.iter().map(|&d| Shown::Digit(d)).collect(),
            None => return Err("the puzzle does not have exactly one solution".to_string()),
        }
    } else if let Some(n) = step {
        let mut walk = walk()?;
        let Some(frame) = walk.by_ref().nth(n - 1) else {
            return Err(format!("there is no step {n}: the log ends before it"));
        };
        drawn = Some((n, frame.step));
        frame.before
    } else {
        let mut walk = walk()?;
        walk.by_ref().for_each(drop);
        shown(walk.state())
    };
    let mut picture = Picture::new(puzzle)
        .cells(cells)
        .map_err(|e| e.to_string())?;
    if let Some((n, s)) = &drawn {
        picture = picture.step(s);
        if caption {
            picture = picture
                .title(format!(
                    "Step {n} ({}): {}",
                    s.rating,
                    s.labelled_text(puzzle)
                ))
                .note(s.explanation(grader.layout()));
        }
    }
    Ok(picture.svg())
}
