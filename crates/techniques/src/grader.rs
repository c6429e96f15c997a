//! The stepping loop: propagate, then repeatedly take the first step of the ladder,
//! apply it and propagate again, until the grid is solved or nothing applies.

use crate::state::Halt;
use crate::{Engine, Ladder, Layout, Options, Rating, State, Step};
use kenken_model::{Budget, CageId, Digit, Exhausted, Limits, Puzzle};
use kenken_search::{self as search, Verdict};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// How a grading run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every cell placed.
    Solved,
    /// Nothing applies any more; the puzzle has one solution, beyond these techniques.
    Stuck,
    /// The puzzle has no solution.
    Impossible,
    /// The puzzle has several solutions (so the ladder, which only removes what no
    /// solution uses, gets stuck).
    Ambiguous,
    /// The deadline passed first; the ratings are those reached so far.
    TimedOut,
    /// The memory or work limit was reached first (see [`Grade::stopped`]); the
    /// ratings are those reached so far.
    Limit,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Stuck => "stuck",
            Status::Impossible => "impossible",
            Status::Ambiguous => "ambiguous",
            Status::TimedOut => "timeout",
            Status::Limit => "limit",
        }
    }

    /// The status of a run its budget stopped.
    pub fn of(why: Exhausted) -> Status {
        match why {
            Exhausted::Time => Status::TimedOut,
            Exhausted::Memory { .. } | Exhausted::Work { .. } => Status::Limit,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The outcome of one ladder run.
#[derive(Clone, Debug)]
pub struct Grade {
    pub status: Status,
    /// The hardest rating used (0 when propagation alone solves it, or so far when
    /// stuck).
    pub max: Rating,
    /// The sum of all step ratings.
    pub total: Rating,
    /// Every step in order, naked singles included.
    pub steps: Vec<Step>,
    /// The number of steps that are not propagation.
    pub ladder_steps: usize,
    /// The largest number of cages combined by a cage-combination step (1 if none):
    /// mode c's "max depth".
    pub depth: usize,
    /// The grid reached, reading order, 0 for unplaced cells.
    pub grid: Vec<Digit>,
    /// The first step that removed the true digit or combination (only when checking
    /// was asked for and the puzzle has a unique solution). Always `None` unless a
    /// technique is unsound.
    pub unsound_step: Option<usize>,
    /// Why the run stopped early ([`Status::TimedOut`], [`Status::Limit`]).
    pub stopped: Option<Exhausted>,
}

impl Grade {
    pub fn solved(&self) -> bool {
        self.status == Status::Solved
    }

    /// The ratings without the steps and the grid (what [`Grader::rate`] gives).
    pub fn summary(&self) -> Summary {
        Summary {
            status: self.status,
            max: self.max,
            total: self.total,
            ladder_steps: self.ladder_steps,
            depth: self.depth,
            stopped: self.stopped,
        }
    }
}

/// A puzzle ready to be graded: its layout (combination tables) and the exhaustive
/// search's verdict, shared by every mode's run.
///
/// The verdict is computed when the grader is built ([`Grader::new`],
/// [`Grader::with_limits`]) or, for [`Grader::deferred`], only when something needs
/// it: a run that gets stuck (to tell stuck, ambiguous and impossible apart), a run
/// that checks its steps, or a call of [`Grader::verdict`] or [`Grader::solution`].
/// A run that solves the puzzle settles it without a search: every step removes only
/// what no solution uses, so a grid solved that way is the only solution.
///
/// Everything is bounded by the grader's [`Limits`]: the layout's tables are
/// reserved on its memory limit when it is built; what is left is shared in three
/// equal parts by the solution count and two runs (modes n and c, which may run
/// side by side), each with the whole deadline and work limit. So a grading holds
/// at most the memory limit (besides a per-thread cache of small tables), however
/// the runs are scheduled, and its results do not depend on the schedule. When the
/// solution count was cut short, the verdict is [`Verdict::Unknown`] and every run
/// then ends with the status of what stopped it.
#[derive(Clone, Debug)]
pub struct Grader {
    layout: Arc<Layout>,
    /// The solution count, once known.
    count: OnceLock<Count>,
    /// The limits of the whole grading.
    limits: Limits,
    /// The memory each run and the solution count may hold.
    share: usize,
    /// The propagated starting state (None when propagation alone finds a
    /// contradiction), shared by every run.
    start: Option<State>,
    /// The naked singles of that propagation, found again when a log first wants
    /// them: a batch's ratings never do, and a step per single is most of an easy
    /// puzzle's allocations.
    start_singles: OnceLock<Vec<Step>>,
}

/// What is known about a puzzle's solutions.
#[derive(Clone, Debug)]
struct Count {
    verdict: Verdict,
    solution: Option<Vec<Digit>>,
    /// Why the count was cut short ([`Verdict::Unknown`]).
    stopped: Option<Exhausted>,
}

impl Grader {
    /// Builds the combination tables and counts solutions (up to 2), within the
    /// default [`Limits`] (no deadline).
    pub fn new(puzzle: &Puzzle) -> Result<Grader, Exhausted> {
        Grader::with_limits(puzzle, Limits::new())
    }

    /// [`Grader::new`] within `limits`: fails when the combination tables alone do
    /// not fit them; a solution count cut short leaves the verdict
    /// [`Verdict::Unknown`], [`Grader::solution`] `None`, and [`Grader::grade`] ends
    /// at once with the status of what stopped it.
    pub fn with_limits(puzzle: &Puzzle, limits: Limits) -> Result<Grader, Exhausted> {
        let grader = Grader::deferred(puzzle, limits)?;
        grader.count();
        Ok(grader)
    }

    /// A grader whose solution count waits until something needs it (see
    /// [`Grader`]). Grading gives the same results as with [`Grader::with_limits`],
    /// but a puzzle the ladder solves is never searched: what a batch of ratings
    /// wants, where most puzzles are solved and the search would be a fifth of a
    /// small puzzle's time.
    ///
    /// One difference with a deadline: a grader built by [`Grader::with_limits`]
    /// after the deadline has passed knows at once that its verdict is unknown and
    /// ends every run before its first step; a deferred one still starts the
    /// ladder, which ends at its first look at the clock.
    pub fn deferred(puzzle: &Puzzle, limits: Limits) -> Result<Grader, Exhausted> {
        Grader::deferred_owned(puzzle.clone(), limits)
    }

    /// [`Grader::deferred`] keeping the puzzle itself instead of a copy (a batch
    /// reads each puzzle to grade it once).
    pub fn deferred_owned(puzzle: Puzzle, limits: Limits) -> Result<Grader, Exhausted> {
        let mut budget = Budget::new(limits);
        let layout = Arc::new(Layout::build(puzzle, &mut budget)?);
        let mut state = State::unfiltered(Arc::clone(&layout));
        let start = match state.propagate_within(&mut budget, None) {
            Ok(()) => {
                state.forget_changed_cages();
                Some(state)
            }
            Err(Halt::Contradiction(_)) => None,
            Err(Halt::Exhausted(why)) => return Err(why),
        };
        Ok(Grader {
            share: budget.memory_left() / 3,
            layout,
            count: OnceLock::new(),
            limits,
            start,
            start_singles: OnceLock::new(),
        })
    }

    /// A budget of the grading's limits with one share of its memory (for a run or
    /// the solution count).
    fn budget(&self) -> Budget {
        Budget::share_of(self.limits, self.share)
    }

    /// The solution count, searched for on first use.
    fn count(&self) -> &Count {
        self.count.get_or_init(|| {
            let tables: Vec<&kenken_model::Combinations> =
                self.layout.tables.iter().map(|t| &t.combos).collect();
            let outcome = search::count_solutions_within(
                self.layout.puzzle(),
                &tables,
                None,
                2,
                &mut self.budget(),
            );
            Count {
                verdict: outcome.verdict,
                solution: outcome.solution,
                stopped: outcome.stopped,
            }
        })
    }

    pub fn puzzle(&self) -> &Puzzle {
        self.layout.puzzle()
    }

    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// How many solutions the puzzle has (searched for now if not yet known).
    pub fn verdict(&self) -> Verdict {
        self.count().verdict
    }

    /// Why the solution count was cut short, if it was (searched for now if not yet
    /// known).
    pub fn stopped(&self) -> Option<Exhausted> {
        self.count().stopped
    }

    /// The solution when it is unique (searched for now if not yet known).
    pub fn solution(&self) -> Option<&[Digit]> {
        let count = self.count();
        match count.verdict {
            Verdict::Unique => count.solution.as_deref(),
            _ => None,
        }
    }

    /// The propagated starting state (for hints and step-by-step use).
    pub fn start(&self) -> (State, Vec<Step>) {
        match &self.start {
            Some(start) => (start.clone(), self.start_singles().to_vec()),
            None => {
                // Propagation fails (within the grader's limits, like a run).
                let mut budget = self.budget();
                let mut state =
                    match State::from_layout_within(Arc::clone(&self.layout), &mut budget) {
                        Ok(mut state) => {
                            let _ = state.propagate_within(&mut budget, None);
                            state
                        }
                        Err(_) => State::unfiltered(Arc::clone(&self.layout)),
                    };
                state.forget_changed_cages();
                (state, Vec::new())
            }
        }
    }

    /// The naked singles of the start's propagation, in the order placed (empty
    /// when it finds a contradiction).
    fn start_singles(&self) -> &[Step] {
        self.start_singles.get_or_init(|| {
            // Within the grader's limits: past its deadline the log keeps the
            // singles found so far (the run then ends with `timeout` at once).
            let mut budget = self.budget();
            let mut singles = Vec::new();
            if let Ok(mut state) = State::from_layout_within(Arc::clone(&self.layout), &mut budget)
            {
                let _ = state.propagate_within(&mut budget, Some(&mut singles));
            }
            singles
        })
    }

    /// Runs the ladder. With `check`, every step is verified against the unique
    /// solution and the first one that removes it is reported in
    /// [`Grade::unsound_step`].
    ///
    /// When the solution count was cut short (the verdict is [`Verdict::Unknown`]),
    /// ends at once with the status of what stopped it: ratings 0, the propagated
    /// start's singles and grid.
    pub fn grade(&self, options: Options, check: bool) -> Grade {
        self.grade_with(options, check, Engine::Fast)
    }

    /// [`Grader::grade`] with this cage-combination engine: for the tests that
    /// check every engine finds the same steps.
    #[doc(hidden)]
    pub fn grade_with(&self, options: Options, check: bool, engine: Engine) -> Grade {
        // Room for every cell's single and some ladder steps: the log rarely grows.
        let mut steps = Vec::with_capacity(2 * self.layout.puzzle().size().cell_count());
        if self.start.is_some() {
            steps.extend(self.start_singles().iter().cloned());
        }
        let (summary, state, unsound_step) = self.run(options, check, Some(&mut steps), engine);
        name_narrowing(&self.layout, &mut steps);
        Grade {
            status: summary.status,
            max: summary.max,
            total: summary.total,
            ladder_steps: summary.ladder_steps,
            depth: summary.depth,
            grid: state.grid(),
            steps,
            unsound_step,
            stopped: summary.stopped,
        }
    }

    /// The ratings of a run, as [`Grader::grade`] gives them, without keeping its
    /// steps: what a batch of ratings needs, for less work (no log of every naked
    /// single).
    pub fn rate(&self, options: Options) -> Summary {
        self.run(options, false, None, Engine::Fast).0
    }

    /// [`Grader::rate`], with the grid the run reached (0 in a cell it left open).
    pub fn rate_with_grid(&self, options: Options) -> (Summary, Vec<Digit>) {
        let (summary, state, _) = self.run(options, false, None, Engine::Fast);
        (summary, state.grid())
    }

    /// The stepping loop: the summary, the state reached and, with `check`, the
    /// first unsound step (its index in `log`, which every step, naked singles
    /// included, is appended to when given; checking wants a log).
    fn run(
        &self,
        options: Options,
        check: bool,
        mut log: Option<&mut Vec<Step>>,
        engine: Engine,
    ) -> (Summary, State, Option<usize>) {
        let mut ladder = Ladder::within(&self.layout, options, self.budget()).with_engine(engine);
        if log.is_none() && !check {
            ladder = ladder.quiet();
        }
        let truth = if check {
            self.solution().map(|s| Truth::new(&self.layout, s))
        } else {
            None
        };
        // No verdict to end a run with: what stopped the count stops the run.
        let count_stopped = self.count.get().and_then(|c| c.stopped);
        let mut summary = Summary {
            status: Status::Stuck,
            max: Rating::ZERO,
            total: Rating::ZERO,
            ladder_steps: 0,
            depth: 1,
            stopped: count_stopped,
        };
        let mut unsound_step = None;
        // Room for every cage: the list of changed cages never reallocates.
        let mut changed = Vec::with_capacity(self.layout.cage_count());
        let (mut state, mut status) = match &self.start {
            Some(state) => (state.clone(), count_stopped.map(Status::of)),
            None => {
                // Propagation fails: report the grid where it stopped (or where
                // the deadline found it).
                let mut budget = self.budget();
                let state = match State::from_layout_within(Arc::clone(&self.layout), &mut budget) {
                    Ok(mut state) => {
                        let _ = state.propagate_within(&mut budget, None);
                        state
                    }
                    Err(_) => State::unfiltered(Arc::clone(&self.layout)),
                };
                let status = match count_stopped {
                    Some(why) => Status::of(why),
                    None => {
                        // A contradiction found by propagation alone proves it.
                        let _ = self.count.set(Count {
                            verdict: Verdict::Impossible,
                            solution: None,
                            stopped: None,
                        });
                        Status::Impossible
                    }
                };
                (state, Some(status))
            }
        };
        while status.is_none() {
            if state.is_solved() {
                // Solved by steps that each remove only what no solution uses: the
                // grid is the one solution (unless an earlier run said so already).
                if self.count.get().is_none() {
                    let _ = self.count.set(Count {
                        verdict: Verdict::Unique,
                        solution: Some(state.grid()),
                        stopped: None,
                    });
                }
                status = Some(Status::Solved);
                break;
            }
            let Some(step) = ladder.next_step(&state) else {
                if let Some(why) = ladder.exhausted() {
                    summary.stopped = Some(why);
                    status = Some(Status::of(why));
                    break;
                }
                let count = self.count();
                status = Some(match count.verdict {
                    Verdict::Impossible => Status::Impossible,
                    Verdict::Ambiguous => Status::Ambiguous,
                    Verdict::Unique => Status::Stuck,
                    Verdict::Unknown => {
                        summary.stopped = count.stopped;
                        count.stopped.map_or(Status::TimedOut, Status::of)
                    }
                });
                break;
            };
            summary.count(&step);
            state.apply(&step);
            let index = log.as_deref().map_or(0, Vec::len);
            let propagated = match log.as_deref_mut() {
                Some(steps) => {
                    if let Err(why) = ladder.budget().reserve(step.bytes()) {
                        summary.stopped = Some(why);
                        status = Some(Status::of(why));
                        break;
                    }
                    steps.push(step);
                    let logged = steps.len();
                    let propagated = state.propagate_within(ladder.budget(), Some(steps));
                    if propagated.is_err() {
                        // The log shows the step that led to the contradiction (or
                        // to the end of the budget), not the singles placed on the
                        // way to it.
                        steps.truncate(logged);
                    }
                    propagated
                }
                None => state.propagate_within(ladder.budget(), None),
            };
            match propagated {
                Ok(()) => {}
                Err(Halt::Contradiction(_)) => status = Some(Status::Impossible),
                Err(Halt::Exhausted(why)) => {
                    summary.stopped = Some(why);
                    status = Some(Status::of(why));
                }
            }
            if unsound_step.is_none() {
                if let Some(t) = &truth {
                    if !t.holds_in(&state) {
                        unsound_step = Some(index);
                    }
                }
            }
            state.take_changed_cages_into(&mut changed);
            ladder.cages_changed(&changed);
        }
        summary.status = status.unwrap_or(Status::Stuck);
        (summary, state, unsound_step)
    }
}

/// What a run of the ladder rated a puzzle, without its steps (see
/// [`Grader::rate`]; [`Grade`] has the same fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: Status,
    /// The hardest rating used (0 when propagation alone solves it).
    pub max: Rating,
    /// The sum of all step ratings.
    pub total: Rating,
    /// The number of steps that are not propagation.
    pub ladder_steps: usize,
    /// The largest number of cages combined by a cage-combination step (1 if none).
    pub depth: usize,
    /// Why the run stopped early ([`Status::TimedOut`], [`Status::Limit`]).
    pub stopped: Option<Exhausted>,
}

impl Summary {
    /// The summary of a run that could not start: the puzzle's tables alone
    /// exhausted the budget.
    pub fn stopped_by(why: Exhausted) -> Summary {
        Summary {
            status: Status::of(why),
            max: Rating::ZERO,
            total: Rating::ZERO,
            ladder_steps: 0,
            depth: 1,
            stopped: Some(why),
        }
    }

    /// Counts a ladder step.
    fn count(&mut self, step: &Step) {
        debug_assert!(!step.is_propagation(), "the ladder finds no naked singles");
        self.max = self.max.max(step.rating);
        self.total = self.total + step.rating;
        self.ladder_steps += 1;
        if let crate::Reason::CageCombination(crate::step::CageCombination { cages }) = &step.reason
        {
            self.depth = self.depth.max(cages.len());
        }
    }
}

/// Each cage comparison proof's listed cages name the earlier steps that cut
/// the combinations the candidates still allowed them (`narrowed_by`), and the
/// proof's text says so ([`name_narrowing_of`], step by step).
fn name_narrowing(layout: &Layout, steps: &mut [Step]) {
    for k in 0..steps.len() {
        if steps[k].proofs.is_empty() {
            continue;
        }
        let (before, rest) = steps.split_at_mut(k);
        if let Some(step) = rest.first_mut() {
            let earlier = before.iter().map(|s| s.cuts.as_slice()).enumerate();
            name_narrowing_of(layout, earlier, step);
        }
    }
}

/// [`name_narrowing`] for one step, given the cuts of the steps before it with
/// their indices in the log. Only proofs (built when a run shows its steps) are
/// touched.
pub(crate) fn name_narrowing_of<'a>(
    layout: &Layout,
    earlier: impl Iterator<Item = (usize, &'a [crate::step::CageCut])> + Clone,
    step: &mut Step,
) {
    for proof in &mut step.proofs {
        let crate::proof::Proof::Combination(p) = proof else {
            continue;
        };
        for listed in &mut p.cages {
            if listed.cut.is_empty() {
                continue;
            }
            listed.narrowed_by = earlier
                .clone()
                .filter(|(_, cuts)| {
                    cuts.iter().any(|cut| {
                        cut.cage == listed.cage
                            && cut.removed.iter().any(|&i| {
                                let row = layout.combination(cut.cage, i as usize);
                                listed.cut.iter().any(|c| c.as_slice() == row)
                            })
                    })
                })
                .map(|(j, _)| j)
                .collect();
        }
        crate::techniques::cage_combination::narrowing_words(layout, p);
    }
}

impl Step {
    /// Renumbers the earlier steps this step's proofs lean on (`narrowed_by`)
    /// for a log that lists only some steps (`grader grade --no-singles`):
    /// `listed(i)` is the place (from 0) in that log of step `i` (from 0) of the
    /// whole one, or `None` when the log leaves it out. The proofs' texts then
    /// say the numbers that log prints. (Only cage comparisons and region steps
    /// cut combinations, so a log without naked singles leaves none out.)
    pub fn renumber_narrowing(&mut self, layout: &Layout, listed: impl Fn(usize) -> Option<usize>) {
        for proof in &mut self.proofs {
            let crate::proof::Proof::Combination(p) = proof else {
                continue;
            };
            for cage in &mut p.cages {
                let mapped: Vec<Option<usize>> =
                    cage.narrowed_by.iter().map(|&i| listed(i)).collect();
                cage.narrowed_by_unlisted |= mapped.iter().any(Option::is_none);
                cage.narrowed_by = mapped.into_iter().flatten().collect();
            }
            crate::techniques::cage_combination::narrowing_words(layout, p);
        }
    }
}

/// The unique solution, as digits per cell and the true combination per cage.
struct Truth {
    digits: Vec<Digit>,
    combos: Vec<Option<usize>>,
}

impl Truth {
    fn new(layout: &Layout, solution: &[Digit]) -> Truth {
        let combos = (0..layout.cage_count())
            .map(|c| {
                let cage = CageId::new(c);
                let want: Vec<Digit> = layout
                    .cage_cells(cage)
                    .iter()
                    .map(|cell| solution[cell.index()])
                    .collect();
                let table = layout.table(cage);
                (0..table.len()).find(|&i| table.row(i) == want.as_slice())
            })
            .collect();
        Truth {
            digits: solution.to_vec(),
            combos,
        }
    }

    /// Whether the state still allows the solution.
    fn holds_in(&self, state: &State) -> bool {
        let size = state.puzzle().size();
        size.cells()
            .all(|c| state.candidates(c).contains(self.digits[c.index()]))
            && self
                .combos
                .iter()
                .enumerate()
                .all(|(c, i)| i.is_some_and(|i| state.live(CageId::new(c))[i]))
    }
}
