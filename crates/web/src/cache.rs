//! Puzzles already read, graded and walked step by step, by their text: a page
//! sends the same puzzle with every call, and stepping through a long log should
//! not walk it again each time. Small and least-recently-used first out, so its
//! memory stays bounded.

use crate::ApiError;
use kenken_formats::Imported;
use kenken_model::{Exhausted, Limits, Puzzle};
use kenken_search::Verdict;
use kenken_techniques::position::{Frame, Walk, WalkEnd};
use kenken_techniques::{Grader, Options, Summary};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// A puzzle read, graded and walked from the start.
pub struct Loaded {
    pub imported: Imported,
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
    entries: Mutex<VecDeque<(String, Arc<Loaded>)>>,
    capacity: usize,
}

impl Cache {
    pub fn new(capacity: usize) -> Cache {
        Cache {
            entries: Mutex::new(VecDeque::new()),
            capacity,
        }
    }

    fn lookup(&self, text: &str) -> Option<Arc<Loaded>> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let at = entries.iter().position(|(t, _)| t == text)?;
        let entry = entries.remove(at)?;
        let loaded = Arc::clone(&entry.1);
        entries.push_front(entry);
        Some(loaded)
    }

    /// The puzzle `text` read, graded and walked, from the cache or now (within
    /// `limits`). A result cut short by the limits is not kept.
    pub fn get(&self, text: &str, limits: Limits) -> Result<Arc<Loaded>, ApiError> {
        if let Some(loaded) = self.lookup(text) {
            return Ok(loaded);
        }
        let imported = read(text)?;
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
            grader,
            grade,
            verdict,
            frames,
            walk_end,
        });
        if complete {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.push_front((text.to_string(), Arc::clone(&loaded)));
            entries.truncate(self.capacity);
        }
        Ok(loaded)
    }

    /// Only the puzzle `text` (for a picture or an export, which need no
    /// grading).
    pub fn read(&self, text: &str) -> Result<Puzzle, ApiError> {
        match self.lookup(text) {
            Some(loaded) => Ok(loaded.puzzle().clone()),
            None => Ok(read(text)?.puzzle),
        }
    }
}

fn read(text: &str) -> Result<Imported, ApiError> {
    kenken_formats::read_any(text, None)
        .map_err(|e| ApiError::unprocessable(format!("the puzzle cannot be read: {e}")))
}
