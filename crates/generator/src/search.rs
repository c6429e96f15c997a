//! One attempt: a random solution and layout, made unique, then a climb of
//! mutations towards the rating band, guided by the ladder.
//!
//! * **Judge** (the `judge` module): the ladder, cut off at the band's max,
//!   rates each candidate; a candidate beyond the cut counts as one notch above
//!   the band. Each candidate of an attempt is judged once (a climb comes back to
//!   the same ones often).
//! * **Repair**: while the candidate is ambiguous, the ladder's stuck grid shows
//!   where the second solution hides; a cage there is split, given another
//!   operation or loses a cell (moves that add information).
//! * **Climb**: each step proposes one mutation, chosen by the direction the band
//!   lies in: below it, mostly merges, moved cells and new operations (moves that
//!   take information away); above it, mostly splits and new operations on the
//!   cages of the hardest step, or on the cells the cut ladder could not place. A
//!   proposal is kept when its max rating is closer to the band, or as close with
//!   a total rating at least as high (or else a quarter of the time: a walk across
//!   the plateau, where most moves land), and now and then when it is one notch
//!   further (to leave a dead end).
//! * The first candidate in the band that also meets `--require` / `--forbid` is
//!   the attempt's puzzle.

use crate::draft::{random_draft, Draft};
use crate::judge::{self, meets_technique_rules, Judge, Judgement};
use crate::latin::random_square;
use crate::mutations::{mutate, Mutation};
use crate::request::Request;
use crate::rng::{attempt_rng, AttemptRng};
use crate::Generated;
use kenken_techniques::Rating;
use rand::Rng;
use std::collections::HashMap;
use std::time::Instant;

/// What the unique candidate of a missed attempt closest to the band reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Closest {
    /// This max rating.
    Rated(Rating),
    /// A step rated above the band's max (the judge stops there, so its own
    /// rating is not known).
    AboveMax,
}

/// How an attempt ended.
#[derive(Clone, Debug)]
pub enum Attempt {
    Found(Box<Generated>),
    /// No puzzle in the band; `closest` is what the unique candidate closest to
    /// it reached (None if none was unique).
    Missed {
        closest: Option<Closest>,
    },
    /// The run's deadline passed during the attempt.
    Interrupted,
}

/// The repairs an attempt makes before it gives up on a layout.
fn repair_steps(size: usize) -> usize {
    3 * size * size
}

/// Mutation weights (merge, split, move a cell, change an operation, refill) by
/// the direction of the band.
fn weights(below: bool, size: usize) -> [u32; 5] {
    // On a 4×4 or 5×5 the few cage shapes matter more than the digits: a layout
    // that made one solution hard is worth trying with another.
    let refill = if size <= 5 { 5 } else { 0 };
    if below {
        [30, 10, 30, 30, refill]
    } else {
        [5, 40, 25, 30, 0]
    }
}

fn pick(weights: [u32; 5], rng: &mut AttemptRng) -> Mutation {
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

/// How far a judged candidate lies from the band, in tenths: a candidate
/// beyond the band's max counts as one notch above it (its own rating is not
/// known: the cut ladder stopped).
fn distance(request: &Request, judgement: Judgement) -> Option<u32> {
    match judgement {
        Judgement::Rated { max, .. } => Some(request.distance(max)),
        Judgement::Beyond if request.max.is_some() => Some(BEYOND),
        _ => None,
    }
}

/// The distance of a candidate beyond the band's max.
const BEYOND: u32 = 2;

/// The current candidate of a climb and what the judge said of it.
struct Current {
    draft: Draft,
    judgement: Judgement,
    /// Where to change it to make it easier: the cells the cut ladder could not
    /// place (from the judge), or those of its hardest steps (looked up when a
    /// climb down first needs them).
    focus: Option<Vec<usize>>,
}

impl Current {
    /// `open`: the cells the judge's cut ladder left open, when it ran and did
    /// not solve the candidate (its focus).
    fn new(draft: Draft, judgement: Judgement, open: Option<Vec<usize>>) -> Current {
        Current {
            draft,
            judgement,
            focus: open,
        }
    }

    fn max(&self) -> Option<Rating> {
        match self.judgement {
            Judgement::Rated { max, .. } => Some(max),
            _ => None,
        }
    }

    fn total(&self) -> Rating {
        match self.judgement {
            Judgement::Rated { total, .. } => total,
            _ => Rating::ZERO,
        }
    }
}

/// The judgements of the candidates an attempt has met: a climb comes back to
/// the same candidates (rejected moves undone, walks on a plateau), and a
/// candidate is judged once. Each is kept with the cells the judge's cut ladder
/// left open, when it ran and did not solve the candidate (see [`Judge::judge`]).
struct Memo {
    seen: HashMap<u64, (Judgement, Option<Vec<usize>>)>,
}

impl Memo {
    fn judge(&mut self, judge: &Judge, draft: &Draft) -> (Judgement, Option<Vec<usize>>) {
        self.seen
            .entry(draft.fingerprint())
            .or_insert_with(|| judge.judge(&draft.puzzle()))
            .clone()
    }
}

/// Runs attempt `seed` of `request` (checked by the caller).
pub fn attempt(request: &Request, seed: u64, index: u64, deadline: Option<Instant>) -> Attempt {
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut rng = attempt_rng(seed);
    let judge = Judge::new(request);
    let mut memo = Memo {
        seen: HashMap::new(),
    };
    let solution = random_square(request.size, request.boxes(), &mut rng);
    let Some(mut draft) = random_draft(request, solution, &mut rng) else {
        return Attempt::Missed { closest: None };
    };

    // Repair until unique and solved by the ladder (or beyond the band's max).
    let mut current = None;
    for _ in 0..repair_steps(request.size) {
        if late() {
            return Attempt::Interrupted;
        }
        let (judgement, open) = memo.judge(&judge, &draft);
        if distance(request, judgement).is_some() {
            current = Some(Current::new(draft, judgement, open));
            break;
        }
        if judgement == Judgement::OverBudget {
            return Attempt::Missed { closest: None };
        }
        let focus = open.unwrap_or_else(|| judge.focus(&draft.puzzle()));
        let kind = pick([0, 45, 25, 30, 0], &mut rng);
        if let Some(next) = (0..8).find_map(|_| mutate(kind, &draft, request, &focus, &mut rng)) {
            draft = next;
        }
    }
    let Some(mut cur) = current else {
        return Attempt::Missed { closest: None };
    };

    let mut closest = cur.judgement;
    let mut closest_distance = u32::MAX;
    for _ in 0..request.climb_steps {
        if late() {
            return Attempt::Interrupted;
        }
        let distance_now = distance(request, cur.judgement).unwrap_or(BEYOND);
        if distance_now < closest_distance {
            closest = cur.judgement;
            closest_distance = distance_now;
        }
        if let (0, Judgement::Rated { max, total }) = (distance_now, cur.judgement) {
            let puzzle = cur.draft.puzzle();
            if let Some(kept) = judge.keep(&puzzle, max, request) {
                if meets_technique_rules(&kept, request) {
                    let depth = if request.mode_c_depth {
                        judge::mode_c_depth(&puzzle, request)
                    } else {
                        None
                    };
                    return Attempt::Found(Box::new(Generated {
                        puzzle,
                        max,
                        total,
                        depth,
                        technique: kept.technique,
                        seed,
                        attempt: index,
                    }));
                }
            }
        }
        let below = cur.max().is_some_and(|m| m < request.min);
        let focus: &[usize] = if below {
            &[]
        } else {
            if cur.focus.is_none() {
                cur.focus = Some(judge.focus(&cur.draft.puzzle()));
            }
            cur.focus.as_deref().unwrap_or(&[])
        };
        let kind = pick(weights(below || distance_now == 0, request.size), &mut rng);
        let Some(next) = mutate(kind, &cur.draft, request, focus, &mut rng) else {
            continue;
        };
        let (judgement, open) = memo.judge(&judge, &next);
        let Some(new) = distance(request, judgement) else {
            continue;
        };
        let keep = if new != distance_now {
            new < distance_now || (new <= distance_now + 2 && rng.random_bool(0.03))
        } else if distance_now == 0 {
            // In the band but short of --require / --forbid: wander within it.
            true
        } else {
            let max = match judgement {
                Judgement::Rated { max, .. } => Some(max),
                _ => None,
            };
            let total = match judgement {
                Judgement::Rated { total, .. } => total,
                _ => Rating::ZERO,
            };
            max != cur.max() || total >= cur.total() || rng.random_bool(0.25)
        };
        if keep {
            cur = Current::new(next, judgement, open);
        }
    }
    let distance_now = distance(request, cur.judgement).unwrap_or(BEYOND);
    if distance_now < closest_distance {
        closest = cur.judgement;
    }
    Attempt::Missed {
        closest: Some(match closest {
            Judgement::Rated { max, .. } => Closest::Rated(max),
            _ => Closest::AboveMax,
        }),
    }
}
