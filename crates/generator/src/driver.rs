//! The run: attempts in ordered batches on the current rayon pool, results in
//! attempt order, until enough puzzles are found or the budget runs out.
//!
//! Attempt i depends only on (seed, i) and the request, and found puzzles are
//! handed on in attempt order, so the same seed and options give the same
//! puzzles in the same order whatever the number of threads; only how many
//! attempts were started beyond the last one needed varies.

use crate::request::Request;
use crate::rng::attempt_seed;
use crate::search::{attempt, Attempt, Closest};
use crate::{GenerateError, Generated};
use kenken_techniques::Rating;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// When a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// Puzzles wanted.
    pub count: usize,
    /// The most attempts (None: no limit).
    pub max_tries: Option<u64>,
    /// Stop once this instant has passed (None: never).
    pub deadline: Option<Instant>,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Every puzzle wanted was found.
    Done,
    /// `max_tries` attempts were made.
    Tries,
    /// The deadline passed.
    Timeout,
    /// The caller asked to stop.
    Cancelled,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunReport {
    pub found: usize,
    /// Attempts whose outcome counted (a run stopped by its deadline leaves out
    /// the attempts it interrupted).
    pub tried: u64,
    pub stopped: Stopped,
    /// For the attempts that found nothing: how many came closest to the band
    /// with each result (the unique candidate nearest the band), and how many had
    /// no unique candidate at all (under `None`).
    pub missed: BTreeMap<Option<Closest>, u64>,
}

impl RunReport {
    /// What came closest to the band among the missed attempts: the max rating
    /// nearest to it (the higher of two as near), or a candidate above its max
    /// when that is nearer (it counts as one notch, 0.2, above the max).
    pub fn closest(&self, request: &Request) -> Option<Closest> {
        let distance = |c: Closest| match c {
            Closest::Rated(r) => (request.distance(r), std::cmp::Reverse(r)),
            Closest::AboveMax => (2, std::cmp::Reverse(Rating::ZERO)),
        };
        self.missed
            .keys()
            .flatten()
            .copied()
            .min_by_key(|&c| distance(c))
    }
}

/// What the run tells its caller as it goes.
pub enum Event<'a> {
    /// A puzzle, in attempt order.
    Found(&'a Generated),
    /// A batch of attempts is done.
    Progress { found: usize, tried: u64 },
}

/// Attempts per thread in a batch: enough that a slow attempt rarely leaves the
/// other threads idle for long.
const BATCH_PER_THREAD: u64 = 4;

/// Runs attempts 0, 1, 2, … of `request` with `seed` on the current rayon pool,
/// handing each puzzle found to `sink` in attempt order; `sink` returns false to
/// stop the run.
pub fn generate(
    request: &Request,
    seed: u64,
    limits: &RunLimits,
    mut sink: impl FnMut(Event<'_>) -> bool,
) -> Result<RunReport, GenerateError> {
    request.check()?;
    let mut report = RunReport {
        found: 0,
        tried: 0,
        stopped: Stopped::Done,
        missed: BTreeMap::new(),
    };
    let batch = BATCH_PER_THREAD * rayon::current_num_threads().max(1) as u64;
    let mut next = 0u64;
    while report.found < limits.count {
        if limits.max_tries.is_some_and(|m| next >= m) {
            report.stopped = Stopped::Tries;
            return Ok(report);
        }
        if limits.deadline.is_some_and(|d| Instant::now() >= d) {
            report.stopped = Stopped::Timeout;
            return Ok(report);
        }
        let end = limits
            .max_tries
            .map_or(next + batch, |m| m.min(next + batch));
        let outcomes: Vec<Attempt> = (next..end)
            .into_par_iter()
            .map(|i| attempt(request, attempt_seed(seed, i), i, limits.deadline))
            .collect();
        next = end;
        for outcome in outcomes {
            match outcome {
                Attempt::Interrupted => {
                    report.stopped = Stopped::Timeout;
                    return Ok(report);
                }
                Attempt::Missed { closest } => {
                    report.tried += 1;
                    *report.missed.entry(closest).or_default() += 1;
                }
                Attempt::Found(generated) => {
                    report.tried += 1;
                    report.found += 1;
                    if !sink(Event::Found(&generated)) {
                        report.stopped = Stopped::Cancelled;
                        return Ok(report);
                    }
                    if report.found == limits.count {
                        return Ok(report);
                    }
                }
            }
        }
        if !sink(Event::Progress {
            found: report.found,
            tried: report.tried,
        }) {
            report.stopped = Stopped::Cancelled;
            return Ok(report);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_of_the_missed_attempts() {
        let request = Request::new(6, Rating(44), Some(Rating(44)));
        let mut report = RunReport {
            found: 0,
            tried: 4,
            stopped: Stopped::Tries,
            missed: BTreeMap::new(),
        };
        assert_eq!(report.closest(&request), None);
        report.missed.insert(None, 1);
        report.missed.insert(Some(Closest::Rated(Rating(40))), 1);
        assert_eq!(report.closest(&request), Some(Closest::Rated(Rating(40))));
        report.missed.insert(Some(Closest::AboveMax), 1);
        assert_eq!(report.closest(&request), Some(Closest::AboveMax));
        report.missed.insert(Some(Closest::Rated(Rating(42))), 1);
        assert_eq!(report.closest(&request), Some(Closest::Rated(Rating(42))));
    }
}
