//! The run: attempts on the current rayon pool, a few per thread ahead of the
//! first one not yet handed on, results in attempt order, until enough puzzles
//! are found or the budget runs out. A puzzle met before in the run (or a turn
//! or reflection of one) is not handed on again.
//!
//! Attempt i depends only on (seed, i) and the request, and found puzzles are
//! handed on in attempt order, so the same seed and options give the same
//! puzzles in the same order whatever the number of threads; only how many
//! attempts were started (and stopped) beyond the last one needed varies.

use crate::canonical::canonical_key;
use crate::request::Request;
use crate::rng::attempt_seed;
use crate::search::{attempt, Attempt, Closest};
use crate::{GenerateError, Generated};
use kenken_model::clock::Instant;
use kenken_techniques::Rating;
use rayon::Yield;
use std::collections::{BTreeMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

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
    /// Attempts whose puzzle was one handed on before, or a turn or reflection
    /// of one (see [`canonical_key`]): counted in `tried`, not handed on.
    pub repeats: u64,
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
    /// Attempts are done, or a while has passed without one (a chance to update
    /// a display or stop).
    Progress { found: usize, tried: u64 },
}

/// Attempts per thread started ahead of the first one not yet handed on, so
/// that a slow attempt holds no other thread back (9×9s rated 4.4 or more: two
/// threads run 2.0 times as fast as one with 16, 1.24 times with 2). Those past
/// the last attempt a run needs are stopped, so a long window wastes little.
const AHEAD_PER_THREAD: u64 = 16;

/// How often a caller waiting on long attempts hears [`Event::Progress`] (so
/// that it can update a display or ask to stop).
const TICK: Duration = Duration::from_millis(250);

/// Runs attempts 0, 1, 2, … of `request` with `seed` on the current rayon pool,
/// handing each puzzle found to `sink` in attempt order as soon as the attempts
/// before it are done; `sink` returns false to stop the run. Attempts past the
/// last one the run needs are stopped.
///
/// Called on a thread of the pool, this thread hands results on and runs
/// attempts between them, so every thread of the pool searches.
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
        repeats: 0,
        missed: BTreeMap::new(),
    };
    if limits.count == 0 {
        return Ok(report);
    }
    let ahead = AHEAD_PER_THREAD * rayon::current_num_threads().max(1) as u64;
    let stop = AtomicBool::new(false);
    let (results, outcomes) = mpsc::channel::<(u64, thread::Result<Attempt>)>();
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    // Outcomes that arrived before an earlier attempt's.
    let mut waiting: BTreeMap<u64, thread::Result<Attempt>> = BTreeMap::new();
    let mut started = 0u64;
    let mut next = 0u64;
    // Whether the last wait for an outcome ended without one.
    let mut ticked = false;
    let ended = rayon::in_place_scope_fifo(|scope| {
        let stopped = loop {
            let end = limits
                .max_tries
                .map_or(next + ahead, |m| m.min(next + ahead));
            while started < end {
                let (i, results, stop) = (started, results.clone(), &stop);
                scope.spawn_fifo(move |_| {
                    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                        attempt(request, attempt_seed(seed, i), i, limits.deadline, stop)
                    }));
                    // The run may have stopped and gone: nobody to tell.
                    let _ = results.send((i, outcome));
                });
                started += 1;
            }
            if limits.max_tries.is_some_and(|m| next >= m) {
                break Ok(Stopped::Tries);
            }
            let before = (report.found, report.tried);
            let handed = loop {
                let Some(outcome) = waiting.remove(&next) else {
                    break None;
                };
                next += 1;
                let outcome = match outcome {
                    Ok(outcome) => outcome,
                    Err(payload) => break Some(Err(payload)),
                };
                match outcome {
                    // Only the deadline stops an attempt before the run ends.
                    Attempt::Interrupted => break Some(Ok(Stopped::Timeout)),
                    Attempt::Missed { closest } => {
                        report.tried += 1;
                        *report.missed.entry(closest).or_default() += 1;
                    }
                    Attempt::Found(generated) => {
                        report.tried += 1;
                        if !seen.insert(canonical_key(&generated.puzzle)) {
                            report.repeats += 1;
                            continue;
                        }
                        report.found += 1;
                        if !sink(Event::Found(&generated)) {
                            break Some(Ok(Stopped::Cancelled));
                        }
                        if report.found == limits.count {
                            break Some(Ok(Stopped::Done));
                        }
                    }
                }
            };
            if let Some(stopped) = handed {
                break stopped;
            }
            if ((report.found, report.tried) != before || ticked)
                && !sink(Event::Progress {
                    found: report.found,
                    tried: report.tried,
                })
            {
                break Ok(Stopped::Cancelled);
            }
            ticked = false;
            if next < started {
                match receive(&outcomes) {
                    Some((i, outcome)) => {
                        waiting.insert(i, outcome);
                    }
                    None => ticked = true,
                }
            }
        };
        // Stop the attempts still running or not yet started; the scope waits
        // for them.
        stop.store(true, Ordering::Relaxed);
        stopped
    });
    match ended {
        Ok(stopped) => {
            report.stopped = stopped;
            Ok(report)
        }
        Err(payload) => panic::resume_unwind(payload),
    }
}

/// The next outcome of an attempt, or None after [`TICK`] without one. On a
/// thread of the pool, attempts waiting to start run here meanwhile (the
/// thread would otherwise sit idle).
fn receive<T>(outcomes: &mpsc::Receiver<T>) -> Option<T> {
    loop {
        if let Ok(outcome) = outcomes.try_recv() {
            return Some(outcome);
        }
        match rayon::yield_now() {
            Some(Yield::Executed) => continue,
            // Not a thread of the pool, or nothing left to start.
            Some(Yield::Idle) | None => return outcomes.recv_timeout(TICK).ok(),
        }
    }
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
            repeats: 0,
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
