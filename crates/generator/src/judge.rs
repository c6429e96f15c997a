//! The judge: the exhaustive solver says whether a candidate is unique, the
//! grader (the same ladder as `grader grade`, mode n) rates it; both within a
//! work limit, so no candidate can hold up an attempt.

use crate::request::Request;
use kenken_model::{Budget, Limits, Puzzle};
use kenken_search::{count_solutions_in, Verdict};
use kenken_techniques::{Grader, Options, Rating, Status, Step, TechniqueKind};

/// What the judge says of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Unique and solved by the ladder, with these ratings.
    Rated { max: Rating, total: Rating },
    /// Unique, but the ladder gets stuck (beyond every technique).
    Stuck,
    /// More than one solution.
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

/// Counts the solutions, then (when unique) grades.
pub fn judge(puzzle: &Puzzle, request: &Request) -> Judgement {
    let outcome = count_solutions_in(puzzle, 2, &mut Budget::new(limits(request)));
    match outcome.verdict {
        Verdict::Unique => {}
        Verdict::Ambiguous | Verdict::Impossible => return Judgement::Ambiguous,
        Verdict::Unknown => return Judgement::OverBudget,
    }
    let Ok(grader) = Grader::deferred(puzzle, limits(request)) else {
        return Judgement::OverBudget;
    };
    let summary = grader.rate(request.options);
    match summary.status {
        Status::Solved => Judgement::Rated {
            max: summary.max,
            total: summary.total,
        },
        Status::Stuck => Judgement::Stuck,
        Status::Ambiguous | Status::Impossible => Judgement::Ambiguous,
        Status::TimedOut | Status::Limit => Judgement::OverBudget,
    }
}

/// A candidate's full grade: the step log (for the technique that set the max and
/// `--require` / `--forbid`) and mode c's depth.
#[derive(Clone, Debug)]
pub struct FullGrade {
    pub max: Rating,
    pub total: Rating,
    /// The technique of the first step rated `max` (naked single when propagation
    /// alone solves the puzzle).
    pub technique: TechniqueKind,
    /// Every technique the solve path uses.
    pub used: Vec<TechniqueKind>,
    /// The cells a step rated `max` touched: its cages' cells, placements and
    /// eliminations (where an easier puzzle could be made by a mutation).
    pub hardest_cells: Vec<usize>,
}

/// Grades with the log (None unless the ladder solves the puzzle).
pub fn grade_fully(puzzle: &Puzzle, request: &Request) -> Option<FullGrade> {
    let grader = Grader::deferred(puzzle, limits(request)).ok()?;
    let grade = grader.grade(request.options, false);
    if grade.status != Status::Solved {
        return None;
    }
    let mut used: Vec<TechniqueKind> = grade.steps.iter().map(|s| s.technique).collect();
    used.sort_unstable();
    used.dedup();
    let hardest: Vec<&Step> = grade
        .steps
        .iter()
        .filter(|s| s.rating == grade.max)
        .collect();
    let technique = hardest
        .first()
        .map_or(TechniqueKind::PROPAGATION, |s| s.technique);
    let mut hardest_cells: Vec<usize> = Vec::new();
    for step in &hardest {
        for cut in &step.cuts {
            hardest_cells.extend(puzzle.cage(cut.cage).cells.iter().map(|c| c.index()));
        }
        hardest_cells.extend(step.placements.iter().map(|(c, _)| c.index()));
        hardest_cells.extend(step.eliminations.iter().map(|(c, _)| c.index()));
    }
    hardest_cells.sort_unstable();
    hardest_cells.dedup();
    Some(FullGrade {
        max: grade.max,
        total: grade.total,
        technique,
        used,
        hardest_cells,
    })
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

/// The cells the ladder could not place (where a second solution hides, for an
/// ambiguous candidate).
pub fn unplaced_cells(puzzle: &Puzzle, request: &Request) -> Vec<usize> {
    let Ok(grader) = Grader::deferred(puzzle, limits(request)) else {
        return Vec::new();
    };
    let grade = grader.grade(request.options, false);
    grade
        .grid
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d == 0)
        .map(|(i, _)| i)
        .collect()
}

/// Whether the solve path meets `--require` and `--forbid`.
pub fn meets_technique_rules(grade: &FullGrade, request: &Request) -> bool {
    request.require.iter().all(|t| grade.used.contains(t))
        && !request.forbid.iter().any(|t| grade.used.contains(t))
}
