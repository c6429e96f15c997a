//! Puzzles already read, graded and walked step by step, by their text and
//! whether their operations are hidden: a page sends the same puzzle with every
//! call, and stepping through a long log should not walk it again each time.
//! Small and least-recently-used first out, so its memory stays bounded.

use crate::ApiError;
use kenken_formats::Imported;
use kenken_model::{Exhausted, Limits, Puzzle};
use kenken_search::Verdict;
use kenken_techniques::position::{Frame, Walk, WalkEnd};
use kenken_techniques::{Grader, Options, Summary};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// A puzzle as a request names it: its text, and whether every operation is
/// hidden before anything else is done. A puzzle and the same text with its
/// operations hidden are two puzzles (the second may have more solutions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source<'a> {
    pub text: &'a str,
    pub hide_ops: bool,
}

/// A puzzle read, graded and walked from the start.
pub struct Loaded {
    /// The puzzle read, its operations hidden when its [`Source`] asks.
    pub imported: Imported,
    /// Whether every operation was hidden on reading ([`Source::hide_ops`]).
    pub hide_ops: bool,
    pub grader: Grader,
    /// Mode n's rating, as `grader grade` gives it.
    pub grade: Summary,
    pub verdict: Verdict,
    /// Every step of the log with the grid before it.
    pub frames: Vec<Frame>,
    /// Why the walk ended: `solved`, `stuck`, `contradiction`, `timeout`, `limit`.
    pub walk_end: &'static str,
}

impl Loaded {
    pub fn puzzle(&self) -> &Puzzle {
        &self.imported.puzzle
    }
}

pub struct Cache {
    entries: Mutex<VecDeque<(Key, Arc<Loaded>)>>,
    capacity: usize,
}

impl Cache {
    pub fn new(capacity: usize) -> Cache {
        Cache {
            entries: Mutex::new(VecDeque::new()),
            capacity,
        }
    }

    fn lookup(&self, source: Source<'_>) -> Option<Arc<Loaded>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let at = entries.iter().position(|(key, _)| key.names(source))?;
        let entry = entries.remove(at)?;
        let loaded = Arc::clone(&entry.1);
        entries.push_front(entry);
        Some(loaded)
    }

    /// The puzzle `source` names read, graded and walked, from the cache or now
    /// (within `limits`). A result cut short by the limits is not kept.
    pub fn get(&self, source: Source<'_>, limits: Limits) -> Result<Arc<Loaded>, ApiError> {
        if let Some(loaded) = self.lookup(source) {
            return Ok(loaded);
        }
        let imported = read(source)?;
        let grader = Grader::with_limits(&imported.puzzle, limits).map_err(|why| {
            ApiError::unprocessable(format!(
                "the puzzle cannot be solved within the limits: {why}"
            ))
        })?;
        let grade = grader.rate(Options::default());
        let verdict = grader.verdict();
        let mut walk = Walk::from_start(
            &grader,
            Options::default(),
            kenken_model::Budget::new(limits),
        );
        let frames: Vec<Frame> = walk.by_ref().collect();
        let end = walk.end();
        let walk_end = match end {
            Some(WalkEnd::Solved) | None => "solved",
            Some(WalkEnd::NoStep) => "stuck",
            Some(WalkEnd::Contradiction) => "contradiction",
            Some(WalkEnd::Stopped(Exhausted::Time)) => "timeout",
            Some(WalkEnd::Stopped(_)) => "limit",
        };
        let complete = grade.stopped.is_none()
            && verdict != Verdict::Unknown
            && !matches!(end, Some(WalkEnd::Stopped(_)));
        let loaded = Arc::new(Loaded {
            imported,
            hide_ops: source.hide_ops,
            grader,
            grade,
            verdict,
            frames,
            walk_end,
        });
        if complete {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.push_front((Key::of(source), Arc::clone(&loaded)));
            entries.truncate(self.capacity);
        }
        Ok(loaded)
    }

    /// Only the puzzle `source` names (for a picture or an export, which need no
    /// grading).
    pub fn read(&self, source: Source<'_>) -> Result<Puzzle, ApiError> {
        match self.lookup(source) {
            Some(loaded) => Ok(loaded.puzzle().clone()),
            None => Ok(read(source)?.puzzle),
        }
    }

    /// How many puzzles are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// A cache entry's key: what a [`Source`] names, owned.
#[derive(Debug, PartialEq, Eq)]
struct Key {
    text: String,
    hide_ops: bool,
}

impl Key {
    fn of(source: Source<'_>) -> Key {
        Key {
            text: source.text.to_string(),
            hide_ops: source.hide_ops,
        }
    }

    fn names(&self, source: Source<'_>) -> bool {
        self.text == source.text && self.hide_ops == source.hide_ops
    }
}

/// The puzzle `source` names, read, with its operations hidden when it asks.
fn read(source: Source<'_>) -> Result<Imported, ApiError> {
    kenken_formats::read_any(source.text, None)
        .map(|imported| imported.hiding_ops(source.hide_ops))
        .map_err(|e| ApiError::unprocessable(format!("the puzzle cannot be read: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_model::Op;

    /// Unique with its operations shown, ambiguous with them hidden.
    const FOUR: &str = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";

    #[test]
    fn a_puzzle_and_its_hidden_version_are_kept_apart() {
        let cache = Cache::new(4);
        let shown = Source {
            text: FOUR,
            hide_ops: false,
        };
        let hidden = Source {
            hide_ops: true,
            ..shown
        };
        let first = cache.get(shown, Limits::new()).unwrap();
        assert_eq!(first.verdict, Verdict::Unique);
        assert!(!first.hide_ops);
        // The hidden version is not the shown one found again.
        let second = cache.get(hidden, Limits::new()).unwrap();
        assert_eq!(second.verdict, Verdict::Ambiguous);
        assert!(second.hide_ops);
        assert!(second.puzzle().cages().iter().all(|c| c.op == Op::Hidden));
        assert_eq!(cache.len(), 2);
        // Each is found again as itself, graded once.
        assert!(Arc::ptr_eq(
            &cache.get(shown, Limits::new()).unwrap(),
            &first
        ));
        assert!(Arc::ptr_eq(
            &cache.get(hidden, Limits::new()).unwrap(),
            &second
        ));
        assert!(!cache.read(shown).unwrap().has_hidden_ops());
        assert!(cache.read(hidden).unwrap().has_hidden_ops());
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn a_puzzle_read_without_grading_is_hidden_as_asked() {
        let cache = Cache::new(4);
        let hidden = Source {
            text: FOUR,
            hide_ops: true,
        };
        assert!(cache.read(hidden).unwrap().has_hidden_ops());
        assert_eq!(cache.len(), 0);
    }
}
