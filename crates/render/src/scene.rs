//! The pictures every front end draws of a puzzle (`grader render`, the Python
//! package's `render_svg`, the page's board): a solver's position as written,
//! the solution, the candidates left by the ladder, or one step of the log drawn
//! on the grid as it stood before it, with its caption.

use crate::{Picture, RenderError};
use kenken_model::{Budget, Exhausted, Limits, Puzzle};
use kenken_techniques::position::{shown, Position, Shown, Walk};
use kenken_techniques::{Grader, Options, Step};
use thiserror::Error;

/// What a picture of a puzzle shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The position as written (blank cells, digits, pencil marks).
    Position,
    /// The unique solution.
    Solution,
    /// The candidates of the position: every cell's digits still possible once
    /// the entries are propagated (no step of the ladder taken).
    Candidates,
    /// Step `number` of the log from the position (numbered from 1, naked singles
    /// included, as `grader grade` numbers its lines), drawn on the grid before it,
    /// with its caption when `caption`.
    Step { number: usize, caption: bool },
    /// Proof `proof` (from 1) of step `number`, drawn on the grid before the step
    /// ([`Picture::proof`]), with the proof's text as its caption when `caption`.
    Proof {
        number: usize,
        proof: usize,
        caption: bool,
    },
}

/// Why a picture cannot be drawn.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SceneError {
    #[error("the puzzle cannot be graded: {0}")]
    Ungradable(Exhausted),
    #[error("the puzzle does not have exactly one solution")]
    NoUniqueSolution,
    #[error("the position leaves a cell or a cage with nothing possible")]
    DeadPosition,
    #[error("steps are numbered from 1")]
    StepZero,
    #[error("there is no step {0}: the log ends before it")]
    NoSuchStep(usize),
    #[error("proofs are numbered from 1")]
    ProofZero,
    #[error("step {step} has {count} proof(s), not {proof}")]
    NoSuchProof {
        step: usize,
        proof: usize,
        count: usize,
    },
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// A step's caption: `Step 7 (3): Region sum: …`.
pub fn caption(number: usize, step: &Step, puzzle: &Puzzle) -> String {
    format!(
        "Step {number} ({}): {}",
        step.rating,
        step.labelled_text(puzzle)
    )
}

/// The picture of `subject` from `position`, the ladder run with `options` within
/// `limits`.
pub fn scene<'a>(
    puzzle: &'a Puzzle,
    position: &Position,
    subject: Subject,
    options: Options,
    limits: Limits,
) -> Result<Picture<'a>, SceneError> {
    if subject == Subject::Position {
        let cells = position.cells().iter().map(|&e| Shown::from(e)).collect();
        return Ok(Picture::new(puzzle).cells(cells)?);
    }
    match subject {
        Subject::Step { number: 0, .. } | Subject::Proof { number: 0, .. } => {
            return Err(SceneError::StepZero)
        }
        Subject::Proof { proof: 0, .. } => return Err(SceneError::ProofZero),
        _ => {}
    }
    let grader = Grader::with_limits(puzzle, limits).map_err(SceneError::Ungradable)?;
    if subject == Subject::Solution {
        let solution = grader.solution().ok_or(SceneError::NoUniqueSolution)?;
        let cells = solution.iter().map(|&d| Shown::Digit(d)).collect();
        return Ok(Picture::new(puzzle).cells(cells)?);
    }
    let mut walk = Walk::from_position(&grader, position, options, Budget::new(limits))
        .map_err(|_| SceneError::DeadPosition)?;
    let (number, proof, with_caption) = match subject {
        Subject::Step { number, caption } => (number, None, caption),
        Subject::Proof {
            number,
            proof,
            caption,
        } => (number, Some(proof), caption),
        _ => return Ok(Picture::new(puzzle).cells(shown(walk.state()))?),
    };
    let frame = walk
        .by_ref()
        .nth(number - 1)
        .ok_or(SceneError::NoSuchStep(number))?;
    let picture = Picture::new(puzzle).cells(frame.before)?;
    let step = &frame.step;
    let Some(k) = proof else {
        let picture = picture.step(step);
        return Ok(if with_caption {
            picture
                .title(caption(number, step, puzzle))
                .note(step.explanation(grader.layout()))
        } else {
            picture
        });
    };
    let count = step.proofs.len();
    let shown_proof = step.proofs.get(k - 1).ok_or(SceneError::NoSuchProof {
        step: number,
        proof: k,
        count,
    })?;
    let picture = picture.proof(shown_proof, grader.layout());
    Ok(if with_caption {
        picture
            .title(format!(
                "{}: why {k} of {count}",
                caption(number, step, puzzle)
            ))
            .note(shown_proof.text())
    } else {
        picture
    })
}
