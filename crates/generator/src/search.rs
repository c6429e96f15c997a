//! One attempt: a random solution and layout, made unique, then a climb of
//! mutations towards the rating band, guided by the ladder.
//!
//! * **Repair**: while the candidate is ambiguous, the ladder's stuck grid shows
//!   where the second solution hides; a cage there is split, given another
//!   operation or loses a cell (moves that add information).
//! * **Climb**: each step proposes one mutation, chosen by the direction the band
//!   lies in: below it, mostly merges, moved cells and new operations (moves that
//!   take information away); above it, mostly splits and new operations on the
//!   cages of the hardest step, which the full grade names. The exhaustive
//!   solver rejects ambiguous proposals cheaply; only unique ones are graded. A
//!   proposal is kept when its max rating is closer to the band, or as close
//!   (half the time: a random walk across the plateau, where most moves land),
//!   and now and then when it is one notch further (to leave a dead end).
//! * The first candidate in the band that also meets `--require` / `--forbid` is
//!   the attempt's puzzle.

use crate::draft::{random_draft, Draft};
use crate::judge::{self, grade_fully, meets_technique_rules, Judgement};
use crate::latin::random_square;
use crate::mutations::{mutate, Mutation};
use crate::request::Request;
use crate::rng::{attempt_rng, AttemptRng};
use crate::Generated;
use kenken_techniques::Rating;
use rand::Rng;
use std::time::Instant;

/// How an attempt ended.
#[derive(Clone, Debug)]
pub enum Attempt {
    Found(Box<Generated>),
    /// No puzzle in the band; `closest` is the rating of the unique candidate
    /// closest to it (None if none was unique).
    Missed {
        closest: Option<Rating>,
    },
    /// The run's deadline passed during the attempt.
    Interrupted,
}

/// The repairs an attempt makes before it gives up on a layout.
fn repair_steps(size: usize) -> usize {
    3 * size * size
}

/// Mutation weights (merge, split, move a cell, change an operation) by the
/// direction of the band.
fn weights(below: bool) -> [u32; 4] {
    if below {
        [30, 10, 30, 30]
    } else {
        [5, 40, 25, 30]
    }
}

fn pick(weights: [u32; 4], rng: &mut AttemptRng) -> Mutation {
    let total: u32 = weights.iter().sum();
    let mut x = rng.random_range(0..total);
    for (w, m) in weights.into_iter().zip(Mutation::ALL) {
        if x < w {
            return m;
        }
        x -= w;
    }
    Mutation::ChangeOp
}

/// The current candidate of a climb and what the judge said of it.
struct Current {
    draft: Draft,
    max: Rating,
    total: Rating,
    /// Cells of its hardest step, looked up when a climb down first needs them.
    hardest: Option<Vec<usize>>,
}

/// Runs attempt `seed` of `request` (checked by the caller).
pub fn attempt(request: &Request, seed: u64, index: u64, deadline: Option<Instant>) -> Attempt {
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut rng = attempt_rng(seed);
    let solution = random_square(request.size, request.boxes(), &mut rng);
    let Some(mut draft) = random_draft(request, solution, &mut rng) else {
        return Attempt::Missed { closest: None };
    };

    // Repair until unique and solved by the ladder.
    let mut current = None;
    for _ in 0..repair_steps(request.size) {
        if late() {
            return Attempt::Interrupted;
        }
        let puzzle = draft.puzzle();
        match judge::judge(&puzzle, request) {
            Judgement::Rated { max, total } => {
                current = Some(Current {
                    draft,
                    max,
                    total,
                    hardest: None,
                });
                break;
            }
            Judgement::OverBudget => return Attempt::Missed { closest: None },
            Judgement::Ambiguous | Judgement::Stuck => {
                let focus = judge::unplaced_cells(&puzzle, request);
                let kind = pick([0, 45, 25, 30], &mut rng);
                if let Some(next) =
                    (0..8).find_map(|_| mutate(kind, &draft, request, &focus, &mut rng))
                {
                    draft = next;
                }
            }
        }
    }
    let Some(mut cur) = current else {
        return Attempt::Missed { closest: None };
    };

    let mut closest = cur.max;
    for _ in 0..request.climb_steps {
        if late() {
            return Attempt::Interrupted;
        }
        let distance = request.distance(cur.max);
        if request.distance(cur.max) < request.distance(closest) {
            closest = cur.max;
        }
        if distance == 0 {
            let puzzle = cur.draft.puzzle();
            if let Some(grade) = grade_fully(&puzzle, request) {
                if meets_technique_rules(&grade, request) {
                    let depth = judge::mode_c_depth(&puzzle, request);
                    return Attempt::Found(Box::new(Generated {
                        puzzle,
                        max: grade.max,
                        total: grade.total,
                        depth,
                        technique: grade.technique,
                        seed,
                        attempt: index,
                    }));
                }
            }
        }
        let below = cur.max < request.min;
        let focus: &[usize] = if below {
            &[]
        } else {
            if cur.hardest.is_none() {
                cur.hardest = Some(
                    grade_fully(&cur.draft.puzzle(), request)
                        .map(|g| g.hardest_cells)
                        .unwrap_or_default(),
                );
            }
            cur.hardest.as_deref().unwrap_or(&[])
        };
        let kind = pick(weights(below || distance == 0), &mut rng);
        let Some(next) = mutate(kind, &cur.draft, request, focus, &mut rng) else {
            continue;
        };
        let Judgement::Rated { max, total } = judge::judge(&next.puzzle(), request) else {
            continue;
        };
        let new = request.distance(max);
        let keep = if new != distance {
            new < distance || (new <= distance + 2 && rng.random_bool(0.03))
        } else if distance == 0 {
            // In the band but short of --require / --forbid: wander within it.
            true
        } else {
            max != cur.max || total >= cur.total || rng.random_bool(0.5)
        };
        if keep {
            cur = Current {
                draft: next,
                max,
                total,
                hardest: None,
            };
        }
    }
    if request.distance(cur.max) < request.distance(closest) {
        closest = cur.max;
    }
    Attempt::Missed {
        closest: Some(closest),
    }
}
