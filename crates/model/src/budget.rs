//! Bounds on what one computation over a puzzle may use: a wall-clock deadline, a
//! number of work units and a number of bytes for its large tables.
//!
//! Every loop whose length grows with the input (a cage's enumeration, a propagation
//! pass, a technique's scan, the exhaustive search) spends work units on a
//! [`Budget`], and every table whose size grows with the input reserves its bytes
//! first, so that a pathological puzzle ends with a clear [`Exhausted`] instead of
//! running for hours or exhausting the machine's memory. A work unit is one
//! elementary check (a combination tested, a digit placed, a footprint compared):
//! a few nanoseconds.

use crate::clock::Instant;
use std::fmt;
use thiserror::Error;

/// What a computation may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Give up once this instant has passed.
    pub deadline: Option<Instant>,
    /// The most bytes its large tables may hold at once.
    pub memory: usize,
    /// The most work units it may spend.
    pub work: u64,
}

impl Limits {
    /// The default memory limit: 512 MiB.
    pub const DEFAULT_MEMORY: usize = 512 << 20;
    /// The default work limit: 2^33 units, about half a minute of work on one
    /// core at worst. The hardest puzzle of the corpus (the reference's 9×9
    /// "Hardest" test grid) spends under a hundredth of it.
    pub const DEFAULT_WORK: u64 = 1 << 33;

    /// No deadline and the default memory and work limits.
    pub const fn new() -> Limits {
        Limits {
            deadline: None,
            memory: Limits::DEFAULT_MEMORY,
            work: Limits::DEFAULT_WORK,
        }
    }

    /// These limits with a deadline.
    pub fn until(self, deadline: Option<Instant>) -> Limits {
        Limits { deadline, ..self }
    }

    /// These limits with `memory` bytes instead.
    pub fn with_memory(self, memory: usize) -> Limits {
        Limits { memory, ..self }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new()
    }
}

/// Why a computation stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum Exhausted {
    /// The deadline passed.
    #[error("the deadline passed")]
    Time,
    /// Its tables would have taken more than the memory limit.
    #[error("it needs more memory than the limit of {}", Bytes(*limit))]
    Memory { limit: usize },
    /// It would have spent more than the work limit.
    #[error("it needs more work than the limit of {} checks", Count(*limit))]
    Work { limit: u64 },
}

/// A byte count for messages: `512 MiB`, `1 GiB`, `1.5 GiB`, `700 bytes`.
#[derive(Clone, Copy, Debug)]
pub struct Bytes(pub usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 || value.fract() == 0.0 {
            write!(f, "{value:.0} {}", UNITS[unit])
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

/// A large count for messages: `8.6 billion`, `25 million`, `4096`.
#[derive(Clone, Copy, Debug)]
pub struct Count(pub u64);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0 as f64;
        let (value, word) = match self.0 {
            1_000_000_000.. => (n / 1e9, "billion"),
            1_000_000.. => (n / 1e6, "million"),
            _ => return write!(f, "{}", self.0),
        };
        if value.fract() == 0.0 {
            write!(f, "{value:.0} {word}")
        } else {
            write!(f, "{value:.1} {word}")
        }
    }
}

/// The meter of one computation: the work spent, the bytes held, and the clock.
///
/// Once exhausted it stays exhausted, with the first reason: every later
/// [`Budget::spend`] and [`Budget::reserve`] fails the same way, so a caller deep in
/// a loop can stop at its next check and the outer loops learn why.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    work_limit: u64,
    spent: u64,
    /// The work count at which the clock is looked at next.
    next_look: u64,
    memory_limit: usize,
    /// The limit a memory exhaustion reports: the whole computation's, for a
    /// budget that holds one share of it (see [`Budget::share_of`]).
    reported_memory: usize,
    held: usize,
    exhausted: Option<Exhausted>,
}

/// Work units between two looks at the clock: tens of microseconds of work, so a
/// deadline is noticed within a millisecond, and the look (tens of nanoseconds)
/// costs nothing measurable.
const LOOK_EVERY: u64 = 1 << 14;

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        Budget {
            deadline: limits.deadline,
            work_limit: limits.work,
            spent: 0,
            next_look: 0,
            memory_limit: limits.memory,
            reported_memory: limits.memory,
            held: 0,
            exhausted: None,
        }
    }

    /// A budget for one part of a computation within `limits` that runs on its
    /// own (one run of a puzzle, its solution count): the whole deadline and work
    /// limit, and `share` bytes of the memory limit. Running out of memory
    /// reports the whole limit, which is the user's.
    pub fn share_of(limits: Limits, share: usize) -> Budget {
        Budget {
            memory_limit: share,
            ..Budget::new(limits)
        }
    }

    /// A budget without bounds (for tests and for callers that bound the input
    /// themselves).
    pub fn unlimited() -> Budget {
        Budget::new(Limits {
            deadline: None,
            memory: usize::MAX,
            work: u64::MAX,
        })
    }

    /// The limits this budget started with.
    pub fn limits(&self) -> Limits {
        Limits {
            deadline: self.deadline,
            memory: self.memory_limit,
            work: self.work_limit,
        }
    }

    /// Counts `units` of work; fails once the work limit is passed, or (looked at
    /// every few thousand units) the deadline.
    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), Exhausted> {
        self.spent = self.spent.saturating_add(units);
        if self.spent >= self.next_look {
            self.look()
        } else {
            Ok(())
        }
    }

    /// Whether the budget is exhausted now: looks at the clock.
    pub fn check(&mut self) -> Result<(), Exhausted> {
        self.look()
    }

    #[cold]
    #[inline(never)]
    fn look(&mut self) -> Result<(), Exhausted> {
        if self.exhausted.is_none() {
            if self.spent > self.work_limit {
                self.exhausted = Some(Exhausted::Work {
                    limit: self.work_limit,
                });
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.exhausted = Some(Exhausted::Time);
            }
        }
        // The next look comes after a few thousand units, or just past the work
        // limit, so that the limit holds exactly, whatever the clock says.
        self.next_look = self
            .spent
            .saturating_add(LOOK_EVERY)
            .min(self.work_limit.saturating_add(1));
        match self.exhausted {
            Some(why) => {
                // Every later call looks again at once, and fails the same way.
                self.next_look = 0;
                Err(why)
            }
            None => Ok(()),
        }
    }

    /// Holds `bytes` more, or fails (holding nothing more) when that would pass the
    /// memory limit.
    pub fn reserve(&mut self, bytes: usize) -> Result<(), Exhausted> {
        if let Some(why) = self.exhausted {
            return Err(why);
        }
        match self.held.checked_add(bytes) {
            Some(held) if held <= self.memory_limit => {
                self.held = held;
                Ok(())
            }
            _ => {
                let why = Exhausted::Memory {
                    limit: self.reported_memory,
                };
                self.exhausted = Some(why);
                self.next_look = 0;
                Err(why)
            }
        }
    }

    /// Gives back `bytes` reserved before (a table freed or shrunk).
    pub fn release(&mut self, bytes: usize) {
        self.held = self.held.saturating_sub(bytes);
    }

    /// Adjusts what is held for a table that held `old` bytes and now holds `new`.
    pub fn resize(&mut self, old: usize, new: usize) -> Result<(), Exhausted> {
        if new >= old {
            self.reserve(new - old)
        } else {
            self.release(old - new);
            Ok(())
        }
    }

    /// Why the budget is exhausted, if it is (without looking at the clock).
    pub fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
    }

    /// The work units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// The bytes held now.
    pub fn held(&self) -> usize {
        self.held
    }

    /// The bytes that may still be reserved.
    pub fn memory_left(&self) -> usize {
        self.memory_limit.saturating_sub(self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn work_is_counted_and_the_limit_sticks() {
        let mut b = Budget::new(Limits {
            deadline: None,
            memory: 100,
            work: 1000,
        });
        for _ in 0..10 {
            b.spend(100).unwrap();
        }
        assert_eq!(b.spend(1), Err(Exhausted::Work { limit: 1000 }));
        assert_eq!(b.spend(0), Err(Exhausted::Work { limit: 1000 }));
        assert_eq!(b.exhausted(), Some(Exhausted::Work { limit: 1000 }));
    }

    #[test]
    fn memory_is_held_and_released() {
        let mut b = Budget::new(Limits::new().with_memory(100));
        b.reserve(60).unwrap();
        b.resize(60, 90).unwrap();
        b.release(50);
        assert_eq!(b.held(), 40);
        assert_eq!(b.memory_left(), 60);
        assert_eq!(b.reserve(61), Err(Exhausted::Memory { limit: 100 }));
        assert_eq!(b.held(), 40);
        assert_eq!(b.spend(1), Err(Exhausted::Memory { limit: 100 }));
        assert_eq!(b.reserve(usize::MAX), Err(Exhausted::Memory { limit: 100 }));
    }

    #[test]
    fn a_passed_deadline_is_seen_within_a_look() {
        let mut b = Budget::new(Limits::new().until(Some(Instant::now())));
        assert_eq!(b.check(), Err(Exhausted::Time));
        let mut b =
            Budget::new(Limits::new().until(Some(Instant::now() + Duration::from_millis(5))));
        std::thread::sleep(Duration::from_millis(10));
        let mut failed = false;
        for _ in 0..=LOOK_EVERY {
            if b.spend(1).is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed);
        assert_eq!(b.exhausted(), Some(Exhausted::Time));
    }

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(Bytes(1 << 30).to_string(), "1 GiB");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(700).to_string(), "700 bytes");
        assert_eq!(
            Exhausted::Memory { limit: 1 << 30 }.to_string(),
            "it needs more memory than the limit of 1 GiB"
        );
        assert_eq!(
            Exhausted::Work { limit: 1 << 33 }.to_string(),
            "it needs more work than the limit of 8.6 billion checks"
        );
        assert_eq!(Count(25_000_000).to_string(), "25 million");
        assert_eq!(Count(4096).to_string(), "4096");
    }
}
