//! One attempt: a random solution and layout, made unique, then a search of
//! mutations towards the rating band.
//!
//! * **Judge** (the `judge` module): the exhaustive solver and the ladder, cut
//!   off at the band's max; a candidate beyond the cut counts as one notch above
//!   the band. Each candidate of an attempt is judged once (a search comes back
//!   to the same ones often).
//! * **Repair**: while the candidate is ambiguous, the stuck grid of the ladder
//!   with cage combinations of at most four cages shows where the second
//!   solution hides (see [`Judge::ambiguity_focus`]); a cage there is split,
//!   given another operation or loses a cell (moves that add information).
//! * **Walk** (below the band): each step proposes a mutation (merge, split,
//!   move a cell, change an operation, and on a 4×4 or 5×5 refill the cages on
//!   a new solution) and keeps it when the candidate stays unique, by the
//!   Metropolis rule on its clues' freedom (see [`crate::freedom`]): always when
//!   the clues say no more than before, with probability `exp(-loss /
//!   TEMPERATURE)` when they say more. Up to 7×7 the walk does not look at
//!   ratings on its way: the hard puzzles of a size lie where unique candidates
//!   have the most freedom, far from where a climb of the max rating leads (a
//!   4×4 rated 4.4 is one op change away from candidates rated 1 and 3.1 more
//!   often than from ones rated 4.2). From 8×8 up it climbs the rating and walks
//!   on freedom across the rating's plateaus (see [`climbs_below`]). Solutions
//!   are counted before the ladder runs, and for a band from 5.0 up a unique
//!   candidate whose grading runs out of work is graded again with more: the
//!   hardest candidates are the ones that need it.
//! * **Climb down** (above the band): mostly splits and new operations on the
//!   cages of the hardest step, or on the cells the cut ladder could not place;
//!   a proposal is kept when its max rating is closer to the band, or as close
//!   with a total rating at least as high (or else a quarter of the time: a walk
//!   across the plateau), and now and then when it is one notch further (to leave
//!   a dead end).
//! * **In the band**: the operations are brought near the mix of random clues
//!   where the rating allows (see [`rebalance`]); the first candidate in the
//!   band that also meets `--require` / `--forbid` is the attempt's puzzle (short
//!   of them, the search wanders within the band).

use crate::clues::{allowed, op_surplus, MIX_OPS};
use crate::draft::{random_draft, Draft};
use crate::freedom::{cage_freedom, draft_freedom};
use crate::judge::{self, meets_technique_rules, Judge, Judgement};
use crate::latin::random_square;
use crate::mutations::{mutate, Mutation};
use crate::request::Request;
use crate::rng::{attempt_rng, AttemptRng};
use crate::Generated;
use kenken_model::clock::Instant;
use kenken_model::{Digit, Op, Puzzle};
use kenken_techniques::Rating;
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The run's deadline passed, or the run stopped, during the attempt.
    Interrupted,
}

/// The repairs an attempt makes before it gives up on a layout.
fn repair_steps(size: usize) -> usize {
    3 * size * size
}

/// Mutation weights (merge, split, move a cell, change an operation, refill):
/// for the walk below the band (and within it), or for the climb down.
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

/// The temperature of the walk below the band, in units of freedom (natural
/// log of fillings): a step that loses `x` of freedom is taken with probability
/// `exp(-x / TEMPERATURE)`. Measured on 4×4 puzzles rated 4.4: 0.1 and 0.3 find
/// about 15 % and 40 % fewer a second than 0.2, and 0.15 about as many.
const TEMPERATURE: f64 = 0.2;

/// Whether the search below the band climbs the max rating (keeping a step
/// that brings it nearer the band, and across a plateau of the rating a step by
/// the Metropolis rule on freedom) rather than walking on freedom alone. On a
/// small grid a candidate is cheap to grade and the rare bands sit among easy
/// candidates, not above a slope of the rating: from 4×4 to 7×7 the walk finds
/// the rare bands 1.5–2.5 times as fast a second. On a large grid the max
/// rating comes from one hard spot among many cages, which steps chosen by the
/// rating reach sooner: on 8×8s and 9×9s rated 4.8 or more the climb is 2–3
/// times as fast, on 9×9s rated 5.0 about twice, and as fast elsewhere.
fn climbs_below(size: usize) -> bool {
    size >= 8
}

/// The distance of a candidate beyond the band's max.
const BEYOND: u32 = 2;

/// The current candidate of a climb and what the judge said of it.
struct Current {
    draft: Draft,
    judgement: Judgement,
    /// Its clues' freedom (see [`crate::freedom`]).
    freedom: f64,
    /// Where to change it to make it easier: the cells the cut ladder could not
    /// place (from the judge), or those of its hardest steps (looked up when a
    /// climb down first needs them).
    focus: Option<Vec<usize>>,
}

impl Current {
    /// `open`: the cells the judge's cut ladder left open, when it ran and did
    /// not solve the candidate (its focus).
    fn new(draft: Draft, judgement: Judgement, freedom: f64, open: Option<Vec<usize>>) -> Current {
        Current {
            draft,
            judgement,
            freedom,
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
    /// The judgement of `draft`: the one kept, or else `judge`'s (then kept).
    fn judged(
        &mut self,
        draft: &Draft,
        judge: impl FnOnce(&Puzzle) -> (Judgement, Option<Vec<usize>>),
    ) -> (Judgement, Option<Vec<usize>>) {
        self.seen
            .entry(draft.fingerprint())
            .or_insert_with(|| judge(&draft.puzzle()))
            .clone()
    }
}

/// Gives cages of a candidate in the band other operations, one at a time,
/// while it stays in the band, until no operation is used on a cage more
/// often than random clues would use it where another is used less (see
/// [`op_surplus`]), or [`rebalance_tries`] changes have been judged. The walk
/// towards clues that say little favours − and + (a 1− domino has more fillings
/// than any × domino), and a candidate's rating rarely hangs on every one of
/// them. The changes that lose the least freedom are tried first: they are the
/// likeliest to keep the rating. `judge` is the attempt's judge with
/// [`REBALANCE_SHARE`] of its work: a change is worth a cheap grading only, and
/// its judgement is not kept (it would not be the candidate's within the
/// attempt's own limit). Stops early, as it is, once `late` says so.
fn rebalance(
    mut cur: Current,
    request: &Request,
    judge: &Judge,
    late: &dyn Fn() -> bool,
) -> Current {
    let rules = &request.rules;
    let mut tries = rebalance_tries(request.size);
    loop {
        let draft = &cur.draft;
        let digits: Vec<Vec<Digit>> = draft.cages.iter().map(|c| draft.digits(&c.cells)).collect();
        let surplus = op_surplus(
            draft
                .cages
                .iter()
                .zip(&digits)
                .map(|(c, d)| (c.op, d.as_slice())),
            rules,
        );
        // (freedom lost, cage, operation) for every change from an operation
        // used too often to one used too little.
        let mut changes: Vec<(f64, usize, Op)> = Vec::new();
        for (id, (cage, digits)) in draft.cages.iter().zip(&digits).enumerate() {
            let Some(from) = MIX_OPS.iter().position(|&o| o == cage.op) else {
                continue;
            };
            if surplus[from] <= 0.5 {
                continue;
            }
            let now = cage_freedom(draft.size, &cage.cells, cage.op, digits, rules);
            for (to, &op) in MIX_OPS.iter().enumerate() {
                if surplus[to] <= -0.5 && allowed(op, digits, rules) {
                    let after = cage_freedom(draft.size, &cage.cells, op, digits, rules);
                    changes.push((now - after, id, op));
                }
            }
        }
        changes.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut better = None;
        for (_, id, op) in changes {
            if tries == 0 || late() {
                break;
            }
            tries -= 1;
            let mut next = cur.draft.clone();
            next.cages[id].op = op;
            let (judgement, open) = judge.judge(&next.puzzle());
            if matches!(judgement, Judgement::Rated { max, .. } if request.in_band(max)) {
                let f = draft_freedom(&next, rules);
                better = Some(Current::new(next, judgement, f, open));
                break;
            }
        }
        match better {
            Some(b) => cur = b,
            None => return cur,
        }
    }
}

/// The most changes [`rebalance`] judges for one candidate: on the grids the
/// walk searches (see [`climbs_below`]), a few hundred cells' worth; none where
/// the search climbs. The walk skews the mix most on small grids, where a
/// change's grading is cheap: over a run of every band 4.0–4.8+, the total
/// variation distance of a 5×5's operation mix from Tatham's is 0.28 with four
/// changes, 0.24 with twelve, 0.23 with 24. The climb's steps are chosen by the
/// rating and skew it less (about 0.2 on 8×8s and 9×9s without changes, 0.1
/// with six), where six changes would cost a third of the rate.
fn rebalance_tries(size: usize) -> usize {
    if climbs_below(size) {
        0
    } else {
        (400 / (size * size)).max(4)
    }
}

/// The share of a candidate's work a change of [`rebalance`] may spend: a
/// grading in the band can cost as much as the walk that found the candidate,
/// and where it would, the mix is left as the walk made it.
const REBALANCE_SHARE: u64 = 64;

/// Runs attempt `seed` of `request` (checked by the caller); gives up, as
/// [`Attempt::Interrupted`], once `deadline` has passed or `stop` is set.
///
/// Every judgement stops at the deadline too, so an attempt ends within moments
/// of it. A judgement cut short is not what the same attempt judges without a
/// deadline, so an attempt that ends after the deadline is interrupted whatever
/// it found: an outcome given out is always the one the seed makes.
pub fn attempt(
    request: &Request,
    seed: u64,
    index: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Attempt {
    let outcome = attempt_until(request, seed, index, deadline, stop);
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Attempt::Interrupted;
    }
    outcome
}

fn attempt_until(
    request: &Request,
    seed: u64,
    index: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Attempt {
    let late = || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut rng = attempt_rng(seed);
    let judge = Judge::new(request).until(deadline);
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
        let (judgement, open) = memo.judged(&draft, |p| judge.judge(p));
        if distance(request, judgement).is_some() {
            let f = draft_freedom(&draft, &request.rules);
            current = Some(Current::new(draft, judgement, f, open));
            break;
        }
        if judgement == Judgement::OverBudget {
            return Attempt::Missed { closest: None };
        }
        let focus = open.unwrap_or_else(|| judge.ambiguity_focus(&draft.puzzle()));
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
    let mut rebalanced = false;
    for _ in 0..request.steps {
        if late() {
            return Attempt::Interrupted;
        }
        let distance_now = distance(request, cur.judgement).unwrap_or(BEYOND);
        if distance_now < closest_distance {
            closest = cur.judgement;
            closest_distance = distance_now;
        }
        if let (0, Judgement::Rated { .. }, false) = (distance_now, cur.judgement, rebalanced) {
            rebalanced = true;
            if rebalance_tries(request.size) > 0 {
                let quick = judge.with_work(request.work_per_candidate / REBALANCE_SHARE);
                cur = rebalance(cur, request, &quick, &late);
                // A rebalance cut short would hand on another puzzle than the
                // attempt's seed makes again.
                if late() {
                    return Attempt::Interrupted;
                }
            }
        }
        if let (0, Judgement::Rated { max, total }) = (distance_now, cur.judgement) {
            let puzzle = cur.draft.puzzle();
            if let Some(kept) = judge.keep(&puzzle, max, request) {
                if meets_technique_rules(&kept, request) {
                    let depth = if request.mode_c_depth {
                        judge::mode_c_depth(&puzzle, request, deadline)
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
        if below {
            let kind = pick(weights(true, request.size), &mut rng);
            let Some(next) = mutate(kind, &cur.draft, request, &[], &mut rng) else {
                continue;
            };
            let f = draft_freedom(&next, &request.rules);
            let freer =
                f >= cur.freedom || rng.random_bool(((f - cur.freedom) / TEMPERATURE).exp());
            let climbs = climbs_below(request.size);
            if !freer && !climbs {
                continue;
            }
            // A climb judges every step it proposes, most of them unique: in the
            // judge's own order. The walk judges only steps that keep freedom,
            // most of them ambiguous: counting first.
            let (judgement, open) = if climbs && judge.grades_first() {
                memo.judged(&next, |p| judge.judge(p))
            } else {
                memo.judged(&next, |p| judge.judge_counting_first(p, deadline))
            };
            let Some(new) = distance(request, judgement) else {
                continue;
            };
            if !climbs || new < distance_now || (new == distance_now && freer) {
                cur = Current::new(next, judgement, f, open);
            }
            continue;
        }
        let focus: &[usize] = {
            if cur.focus.is_none() {
                cur.focus = Some(judge.focus(&cur.draft.puzzle()));
            }
            cur.focus.as_deref().unwrap_or(&[])
        };
        let kind = pick(weights(distance_now == 0, request.size), &mut rng);
        let Some(next) = mutate(kind, &cur.draft, request, focus, &mut rng) else {
            continue;
        };
        let (judgement, open) = memo.judged(&next, |p| judge.judge(p));
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
            let f = draft_freedom(&next, &request.rules);
            cur = Current::new(next, judgement, f, open);
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
