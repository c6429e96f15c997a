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
use kenken_model::clock::Instant;
use kenken_model::{Budget, Combinations, Digit, Limits, Puzzle};
use kenken_search::{count_solutions_within, Verdict};
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

/// The deepest cage combinations the ladder tries when it looks for where an
/// ambiguous candidate's second solution hides (see [`Judge::ambiguity_focus`]).
const AMBIGUITY_FOCUS_DEPTH: usize = 4;

/// The walk's solution count may spend this share of a candidate's work:
/// proving a unique candidate unique takes far less, and the candidates that
/// need more are almost all ambiguous ones with clues that say too little.
const COUNT_SHARE: u64 = 16;

/// How many times a candidate's work the walk's second grading of a unique
/// candidate may spend (2^33 units with the default work per candidate, as
/// `grader grade` by default).
const ESCALATION: u64 = 32;

/// The lowest band min whose runs grade again with more work. A candidate's
/// work grades puzzles up to 4.8 (six-cage combinations) on every grid up to
/// 9×9; a 9×9 rated 5.0 needs about 16 times as much. Below 5.0 the second
/// gradings cost more than they find: a band such as 4.8+ is reached far
/// sooner by candidates graded within the first limit.
const ESCALATE_FROM: Rating = Rating(50);

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
    /// Whether the walk's judgement grades a unique candidate again with more
    /// work (see [`Judge::judge_counting_first`]).
    escalate: bool,
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
            escalate: request.min >= ESCALATE_FROM,
        }
    }

    /// Whether [`Judge::judge`] grades before it counts solutions (see
    /// [`Judge`]'s `grade_first`).
    pub fn grades_first(&self) -> bool {
        self.grade_first
    }

    /// This judge, giving up on a candidate once `deadline` has passed (the
    /// attempt it cuts short is then interrupted: see [`attempt`](crate::search::attempt)).
    pub fn until(&self, deadline: Option<Instant>) -> Judge {
        Judge {
            limits: self.limits.until(deadline),
            ..self.clone()
        }
    }

    /// This judge with another work limit per candidate.
    pub fn with_work(&self, work: u64) -> Judge {
        Judge {
            limits: Limits {
                work,
                ..self.limits
            },
            ..self.clone()
        }
    }

    /// Whether the candidate is unique and, if so, how it rates; with the cells
    /// the cut ladder left open when it ran and did not solve the candidate
    /// (what [`Judge::focus`] would find, without running the ladder again).
    pub fn judge(&self, puzzle: &Puzzle) -> (Judgement, Option<Vec<usize>>) {
        let Ok(grader) = Grader::deferred(puzzle, self.limits) else {
            return (Judgement::OverBudget, None);
        };
        if !self.grade_first {
            match grader.verdict() {
                Verdict::Unique => {}
                Verdict::Ambiguous | Verdict::Impossible => return (Judgement::Ambiguous, None),
                Verdict::Unknown => return (Judgement::OverBudget, None),
            }
        }
        self.rate(&grader)
    }

    /// [`Judge::judge`] for the walk below the band, where most candidates are
    /// ambiguous: solutions are counted first, within a smaller work limit (a
    /// candidate that needs more is passed over), and, for a band from
    /// [`ESCALATE_FROM`] up, a unique candidate whose grading runs out of work is
    /// graded again with [`ESCALATION`] times the work, until `deadline`: the
    /// hardest candidates a walk meets are the ones that need it (a 9×9 rated
    /// 5.0 takes about 2^32 units to grade).
    pub fn judge_counting_first(
        &self,
        puzzle: &Puzzle,
        deadline: Option<Instant>,
    ) -> (Judgement, Option<Vec<usize>>) {
        let Ok(grader) = Grader::deferred(puzzle, self.limits) else {
            return (Judgement::OverBudget, None);
        };
        let tables: Vec<&Combinations> = puzzle
            .cage_ids()
            .map(|g| grader.layout().table(g))
            .collect();
        let count_limits = Limits {
            work: self.limits.work / COUNT_SHARE,
            ..self.limits
        };
        let outcome =
            count_solutions_within(puzzle, &tables, None, 2, &mut Budget::new(count_limits));
        match outcome.verdict {
            Verdict::Unique => {}
            Verdict::Ambiguous | Verdict::Impossible => return (Judgement::Ambiguous, None),
            Verdict::Unknown => return (Judgement::OverBudget, None),
        }
        let judged = self.rate(&grader);
        if judged.0 != Judgement::OverBudget || !self.escalate {
            return judged;
        }
        let escalated = Limits {
            work: self.limits.work.saturating_mul(ESCALATION),
            deadline,
            ..self.limits
        };
        match Grader::deferred(puzzle, escalated) {
            Ok(grader) => self.rate(&grader),
            Err(_) => judged,
        }
    }

    /// The judgement of the cut ladder's run.
    fn rate(&self, grader: &Grader) -> (Judgement, Option<Vec<usize>>) {
        let (summary, grid) = grader.rate_with_grid(self.capped);
        judgement_of(summary.status, summary.max, summary.total, &grid)
    }

    /// Where an ambiguous candidate's second solution hides: the cells left open
    /// by the cut ladder with cage combinations of at most
    /// [`AMBIGUITY_FOCUS_DEPTH`] cages. No ladder places a cell where two
    /// solutions differ, and a shallower ladder leaves open every cell a deeper
    /// one does; on an ambiguous candidate the deep levels only prove that they
    /// find nothing, which costs a second or more on a hidden-operation 9×9.
    pub fn ambiguity_focus(&self, puzzle: &Puzzle) -> Vec<usize> {
        let Ok(grader) = Grader::deferred(puzzle, self.limits) else {
            return Vec::new();
        };
        let mut shallow = self.capped;
        shallow.max_depth = shallow.max_depth.min(AMBIGUITY_FOCUS_DEPTH);
        let (_, grid) = grader.rate_with_grid(shallow);
        open_cells(&grid)
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

/// What a ladder's run says of a candidate: its status and ratings, with the
/// cells it left open (`grid`) when it did not solve the candidate.
fn judgement_of(
    status: Status,
    max: Rating,
    total: Rating,
    grid: &[Digit],
) -> (Judgement, Option<Vec<usize>>) {
    match status {
        Status::Solved => (Judgement::Rated { max, total }, None),
        Status::Stuck => (Judgement::Beyond, Some(open_cells(grid))),
        Status::Ambiguous | Status::Impossible => (Judgement::Ambiguous, Some(open_cells(grid))),
        Status::TimedOut | Status::Limit => (Judgement::OverBudget, None),
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
        if kind.row().rating.range().0 > max {
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
            let (lo, hi) = k.row().rating.range();
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
pub fn mode_c_depth(
    puzzle: &Puzzle,
    request: &Request,
    deadline: Option<Instant>,
) -> Option<usize> {
    let grader = Grader::deferred(puzzle, limits(request).until(deadline)).ok()?;
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

    /// The Tatham IDs of the reference corpus.
    fn corpus_ids() -> Vec<String> {
        serde_json::from_str(include_str!("../../../puzzles/reference-corpus.json")).unwrap()
    }

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
        let ids = corpus_ids();
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

    /// On ambiguous candidates (corpus puzzles of up to 6×6 with their
    /// operations hidden), the shallow ladder of the repairs leaves open every
    /// cell the whole ladder does, so every cell where two solutions differ.
    #[test]
    fn the_ambiguity_focus_holds_every_cell_the_whole_ladder_leaves_open() {
        let ids = corpus_ids();
        let mut ambiguous = 0;
        for id in ids.iter().step_by(7) {
            let puzzle = tatham::read(id).unwrap().with_hidden_ops();
            if puzzle.size().get() > 6 {
                continue;
            }
            let request = Request::new(puzzle.size().get(), Rating(0), None);
            let judge = Judge::new(&request);
            let Ok(grader) = Grader::deferred(&puzzle, judge.limits) else {
                continue;
            };
            if grader.verdict() != Verdict::Ambiguous {
                continue;
            }
            ambiguous += 1;
            let shallow = judge.ambiguity_focus(&puzzle);
            let whole = judge.focus(&puzzle);
            assert!(!whole.is_empty(), "{id}");
            for cell in &whole {
                assert!(shallow.contains(cell), "{id}: cell {cell}");
            }
        }
        assert!(ambiguous > 20, "only {ambiguous} ambiguous");
    }

    /// The walk's judgement grades a unique candidate again with more work when
    /// the first grading runs out of it and the band starts at 5.0; the other
    /// judgement does not.
    #[test]
    fn a_unique_candidate_out_of_work_is_graded_again_with_more() {
        let ids = corpus_ids();
        let options = Options::default();
        for id in &ids {
            let puzzle = tatham::read(id).unwrap();
            let full = Grader::new(&puzzle).unwrap().rate(options);
            if full.status != Status::Solved || full.max < Rating(40) {
                continue;
            }
            // The least power of two of work its grading needs.
            let needs = (8..40)
                .map(|k| 1u64 << k)
                .find(|&work| {
                    let limits = Limits {
                        work,
                        ..Limits::new()
                    };
                    Grader::deferred(&puzzle, limits)
                        .is_ok_and(|g| g.rate(options).status == Status::Solved)
                })
                .unwrap();
            let mut request = Request::new(puzzle.size().get(), Rating(50), None);
            request.work_per_candidate = needs / 2;
            let judge = Judge::new(&request);
            if judge.judge(&puzzle).0 != Judgement::OverBudget {
                continue;
            }
            let (got, _) = judge.judge_counting_first(&puzzle, None);
            if got == Judgement::OverBudget {
                // Its solution count needs more than the walk's share.
                continue;
            }
            let want = Judgement::Rated {
                max: full.max,
                total: full.total,
            };
            assert_eq!(got, want, "{id}");
            // A band below 5.0 does not grade again.
            let mut low = request.clone();
            low.min = Rating(48);
            let (got, _) = Judge::new(&low).judge_counting_first(&puzzle, None);
            assert_eq!(got, Judgement::OverBudget, "{id}");
            return;
        }
        panic!("no corpus puzzle to test with");
    }
}
