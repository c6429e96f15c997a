//! The judge: the exhaustive solver says whether a candidate is unique, the
//! grader (the same ladder as `grader grade`, mode n) rates it; both within a
//! work limit, so no candidate can hold up an attempt.
//!
//! When the band has a max, candidates are rated by the ladder cut off at it:
//! every technique whose easiest step is rated above the max is switched off, and
//! cage combinations combine no more cages than the max allows. The ladder tries
//! the easiest step first, so the cut ladder takes the same steps as the full one
//! up to the first step rated above the max, where it gets stuck instead of paying
//! for the harder searches; a candidate it solves gets the full ladder's ratings
//! (and its steps: a kept puzzle's log, when one is needed, comes from it too).

use crate::request::Request;
use kenken_model::{Budget, Digit, Limits, Puzzle};
use kenken_search::{count_solutions_in, Verdict};
use kenken_techniques::{Grader, Options, Rating, Status, Step, TechniqueKind};

/// What the judge says of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Unique and solved by the ladder, with these ratings.
    Rated { max: Rating, total: Rating },
    /// Unique, but it needs a step rated above the band's max (or, without a max,
    /// more than every technique).
    Beyond,
    /// More than one solution (or none).
    Ambiguous,
    /// The solution count or the grading ran out of work.
    OverBudget,
}

/// The limits of one candidate's count or grading.
pub fn limits(request: &Request) -> Limits {
    Limits {
        work: request.work_per_candidate,
        ..Limits::new()
    }
}

/// The cage-combination depth above which the cut ladder is not worth running
/// before the solution count: an ambiguous candidate keeps the ladder busy until
/// it is stuck, and deep cage-combination searches cost far more than a count.
const GRADE_FIRST_DEPTH: usize = 4;

/// The judge of one request.
#[derive(Clone, Debug)]
pub struct Judge {
    limits: Limits,
    /// The request's ladder cut off at the band's max (the full ladder without a
    /// max).
    capped: Options,
    /// Grade before counting solutions: a candidate the ladder solves is unique,
    /// and only one it gets stuck on needs the count. Worth it when the cut ladder
    /// is cheap on ambiguous candidates.
    grade_first: bool,
}

impl Judge {
    pub fn new(request: &Request) -> Judge {
        let capped = capped_options(request.options, request.max);
        let cage_combination = TechniqueKind::from_id("cage-combination");
        let cheap = cage_combination
            .is_none_or(|cc| !capped.is_enabled(cc) || capped.max_depth <= GRADE_FIRST_DEPTH);
        Judge {
            limits: limits(request),
            capped,
            grade_first: request.max.is_some() && cheap,
        }
    }

    /// Whether the candidate is unique and, if so, how it rates; with the cells
    /// the cut ladder left open when it ran and did not solve the candidate
    /// (what [`Judge::focus`] would find, without running the ladder again).
    pub fn judge(&self, puzzle: &Puzzle) -> (Judgement, Option<Vec<usize>>) {
        if !self.grade_first {
            let outcome = count_solutions_in(puzzle, 2, &mut Budget::new(self.limits));
            match outcome.verdict {
                Verdict::Unique => {}
                Verdict::Ambiguous | Verdict::Impossible => return (Judgement::Ambiguous, None),
                Verdict::Unknown => return (Judgement::OverBudget, None),
            }
        }
        // A deferred grader counts solutions only when the ladder gets stuck.
        let Ok(grader) = Grader::deferred(puzzle, self.limits) else {
            return (Judgement::OverBudget, None);
        };
        let (summary, grid) = grader.rate_with_grid(self.capped);
        let open = || Some(open_cells(&grid));
        match summary.status {
            Status::Solved => (
                Judgement::Rated {
                    max: summary.max,
                    total: summary.total,
                },
                None,
            ),
            Status::Stuck => (Judgement::Beyond, open()),
            Status::Ambiguous | Status::Impossible => (Judgement::Ambiguous, open()),
            Status::TimedOut | Status::Limit => (Judgement::OverBudget, None),
        }
    }

    /// Where the candidate's difficulty lies, by the cut ladder: the cells of
    /// its hardest steps when it solves the puzzle (see [`hardest_cells`]),
    /// otherwise the cells it could not place (where a second solution hides in
    /// an ambiguous candidate, or where a step harder than the band's max is
    /// needed).
    pub fn focus(&self, puzzle: &Puzzle) -> Vec<usize> {
        let Ok(grader) = Grader::deferred(puzzle, self.limits) else {
            return Vec::new();
        };
        let grade = grader.grade(self.capped, false);
        if grade.status == Status::Solved {
            return hardest_cells(puzzle, &grade.steps, grade.max);
        }
        open_cells(&grade.grid)
    }
}

/// The cells of a grid the ladder left open.
fn open_cells(grid: &[Digit]) -> Vec<usize> {
    grid.iter()
        .enumerate()
        .filter(|&(_, &d)| d == 0)
        .map(|(i, _)| i)
        .collect()
}

/// The cells the steps rated `max` touched: their cages' cells, placements and
/// eliminations.
fn hardest_cells(puzzle: &Puzzle, steps: &[Step], max: Rating) -> Vec<usize> {
    let mut cells: Vec<usize> = Vec::new();
    for step in steps.iter().filter(|s| s.rating == max) {
        for cut in &step.cuts {
            cells.extend(puzzle.cage(cut.cage).cells.iter().map(|c| c.index()));
        }
        cells.extend(step.placements.iter().map(|(c, _)| c.index()));
        cells.extend(step.eliminations.iter().map(|(c, _)| c.index()));
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// `options` without the steps rated above `max`: techniques whose easiest step
/// is rated above it switched off, cage combinations no deeper than it allows.
pub fn capped_options(options: Options, max: Option<Rating>) -> Options {
    let Some(max) = max else {
        return options;
    };
    let mut capped = options;
    for kind in TechniqueKind::all().skip(1) {
        if kind.entry().rating.range().0 > max {
            capped.disable(kind);
        }
    }
    if let Some(cc) = TechniqueKind::from_id("cage-combination") {
        while capped.max_depth > 2 && cc.rate(capped.max_depth, 1) > max {
            capped.max_depth -= 1;
        }
    }
    capped
}

/// A kept candidate's grade: the technique that set the max and every technique
/// the solve path uses.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The technique of the first step rated `max` (naked single when propagation
    /// alone solves the puzzle).
    pub technique: TechniqueKind,
    /// Every technique the solve path uses (empty when not needed: no
    /// `--require` or `--forbid`).
    pub used: Vec<TechniqueKind>,
}

impl Judge {
    /// What a candidate in the band needs before it is kept, given the max
    /// rating the judge found. A max that only one technique can give names the
    /// technique at once (every max from 4.0 up is a cage combination's); then,
    /// unless `--require` or `--forbid` asks for the whole solve path, nothing is
    /// graded again. Otherwise the ladder runs again with its log (None if it
    /// does not solve the puzzle, which a candidate rated by the judge always is).
    pub fn keep(&self, puzzle: &Puzzle, max: Rating, request: &Request) -> Option<Kept> {
        let mut givers = TechniqueKind::all().filter(|k| {
            let (lo, hi) = k.entry().rating.range();
            lo <= max && hi.is_none_or(|h| max <= h) && self.capped.is_enabled(*k)
        });
        let only = match (givers.next(), givers.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        };
        if let Some(technique) = only {
            if request.require.is_empty() && request.forbid.is_empty() {
                return Some(Kept {
                    technique,
                    used: Vec::new(),
                });
            }
        }
        let grader = Grader::deferred(puzzle, self.limits).ok()?;
        let grade = grader.grade(self.capped, false);
        if grade.status != Status::Solved {
            return None;
        }
        let mut used: Vec<TechniqueKind> = grade.steps.iter().map(|s| s.technique).collect();
        used.sort_unstable();
        used.dedup();
        let technique = grade
            .steps
            .iter()
            .find(|s| s.rating == grade.max)
            .map_or(TechniqueKind::PROPAGATION, |s| s.technique);
        Some(Kept { technique, used })
    }
}

/// Mode c's max depth: the most cages one cage-combination step combines when
/// cage combinations are the only technique (None when mode c runs out of work).
/// Mode c can cost many times the normal ladder, so it runs only for a puzzle
/// about to be kept.
pub fn mode_c_depth(puzzle: &Puzzle, request: &Request) -> Option<usize> {
    let grader = Grader::deferred(puzzle, limits(request)).ok()?;
    let mut cc = Options::cage_combinations_only();
    cc.max_depth = request.options.max_depth;
    let summary = grader.rate(cc);
    (summary.status == Status::Solved).then_some(summary.depth)
}

/// Whether the solve path meets `--require` and `--forbid`.
pub fn meets_technique_rules(grade: &Kept, request: &Request) -> bool {
    request.require.iter().all(|t| grade.used.contains(t))
        && !request.forbid.iter().any(|t| grade.used.contains(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_formats::tatham;

    fn cc() -> TechniqueKind {
        TechniqueKind::from_id("cage-combination").unwrap()
    }

    #[test]
    fn the_cap_follows_the_band_max() {
        let full = Options::default();
        assert_eq!(capped_options(full, None), full);
        let at = |tenths| capped_options(full, Some(Rating(tenths)));
        assert_eq!(at(40).max_depth, 2);
        assert_eq!(at(42).max_depth, 3);
        assert_eq!(at(47).max_depth, 5);
        assert_eq!(at(80).max_depth, full.max_depth);
        assert!(at(40).is_enabled(cc()));
        assert!(!at(39).is_enabled(cc()));
        assert!(at(39).is_enabled(TechniqueKind::from_id("region-sum").unwrap()));
        assert!(!at(29).is_enabled(TechniqueKind::from_id("region-sum").unwrap()));
        assert!(at(29).is_enabled(TechniqueKind::from_id("fish").unwrap()));
    }

    /// The cut ladder rates every puzzle the full ladder rates within the band
    /// alike, and gets stuck on every one it rates above (the reference corpus,
    /// at every cut).
    #[test]
    fn the_cut_ladder_agrees_with_the_full_one() {
        let ids: Vec<String> =
            serde_json::from_str(include_str!("../../../puzzles/reference-corpus.json")).unwrap();
        let mut above = 0;
        for id in ids.iter().step_by(5) {
            let puzzle = tatham::read(id).unwrap();
            let full = Grader::new(&puzzle).unwrap().rate(Options::default());
            if full.status != Status::Solved {
                continue;
            }
            for max in [29, 39, 40, 42, 44, 46] {
                let mut request = Request::new(puzzle.size().get(), Rating(0), Some(Rating(max)));
                request.work_per_candidate = Limits::DEFAULT_WORK;
                let (got, _) = Judge::new(&request).judge(&puzzle);
                if full.max <= Rating(max) {
                    let want = Judgement::Rated {
                        max: full.max,
                        total: full.total,
                    };
                    assert_eq!(got, want, "{id} cut at {max}");
                } else if got == Judgement::Beyond {
                    above += 1;
                } else {
                    // Steps the cut cannot switch off (a larger hidden subset,
                    // say) still rate the puzzle above the band.
                    assert!(
                        matches!(got, Judgement::Rated { max: m, .. } if m == full.max),
                        "{id} cut at {max}: {got:?}, full {:?}",
                        full.max
                    );
                }
            }
        }
        assert!(above > 40, "only {above} cut short");
    }
}
