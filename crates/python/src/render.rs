//! `kenken.render_svg`: a picture of the grid, as `grader render` draws it.

use crate::errors::RenderError;
use crate::options;
use crate::pools;
use crate::puzzle::PuzzleArg;
use kenken_batch::GradeSettings;
use kenken_render::{scene, Subject};
use kenken_techniques::position::Position;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

/// The grid as a self-contained SVG (text drawn as outlines; the same bytes for
/// the same input), as `grader render` draws it: empty; with the `solution`; with
/// the `candidates` (each cell's digits still possible once the clues are
/// propagated, as `grader render --candidates`); or with `step` N of the log (numbered
/// as `grader grade` numbers its lines, naked singles included) drawn on the grid
/// before it, with its text and explanation as a caption unless `caption` is
/// False. With `hide_ops=True` every operation is hidden (`grader render
/// --hide-ops`): the cages show their numbers alone, and the steps and the
/// solution are those of the puzzle without its operations.
///
/// Raises RenderError when the step does not exist or the puzzle has no unique
/// solution to show.
#[pyfunction]
#[pyo3(signature = (puzzle, step = None, *, solution = false, candidates = false, caption = true,
                    **options))]
pub fn render_svg(
    py: Python<'_>,
    puzzle: PuzzleArg<'_>,
    step: Option<&Bound<'_, PyAny>>,
    solution: bool,
    candidates: bool,
    caption: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let hide = options::only_hide_ops("render_svg", options)?;
    let imported = puzzle.read(py, hide)?.imported;
    if usize::from(step.is_some()) + usize::from(solution) + usize::from(candidates) > 1 {
        return Err(RenderError::new_err(
            "draw one of step, solution and candidates",
        ));
    }
    let step = step.map(step_number).transpose()?;
    let subject = match (step, solution, candidates) {
        (Some(number), _, _) => Subject::Step { number, caption },
        (None, true, _) => Subject::Solution,
        (None, false, true) => Subject::Candidates,
        (None, false, false) => Subject::Position,
    };
    let pool = pools::pool(1)?;
    py.detach(|| {
        pool.install(|| {
            let puzzle = &imported.puzzle;
            let runs = GradeSettings::default().runs().starting_now();
            // From the empty position, as `grader render` draws without `--state`.
            let blank = Position::blank(puzzle.size());
            scene(puzzle, &blank, subject, runs.shown(), runs.limits).map(|p| p.svg())
        })
    })
    .map_err(|e| RenderError::new_err(e.to_string()))
}

/// A step's number: a whole number (a TypeError for anything else, a bool
/// included); one below 1 or past any log (beyond 64 bits) is a RenderError.
fn step_number(step: &Bound<'_, PyAny>) -> PyResult<usize> {
    if step.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "step must be a whole number (a step of the log, from 1), not a bool ({step})"
        )));
    }
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
