//! Solving from where a person stands: a [`Position`] (digits entered, pencil
//! marks kept), checked against the solution ([`check`]), the ladder walked from
//! it step by step with the grid as it stood before each step ([`Walk`]), and the
//! next step as a hint ([`hint`]).

use crate::state::Halt;
use crate::{Grader, Ladder, Options, State, Step};
use kenken_model::{Budget, CellId, Digit, Digits, Exhausted, Size};
use kenken_search::{self as search, Verdict};
use std::collections::VecDeque;
use std::sync::Arc;
use thiserror::Error;

/// What a solver has written in one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Nothing: every digit is still possible.
    Blank,
    /// A digit entered.
    Digit(Digit),
    /// Pencil marks: the digits still thought possible.
    Marks(Digits),
}

/// A solver's position: one [`Written`] per cell, reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    size: Size,
    cells: Vec<Written>,
}

/// Why what is written does not make a position of a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("the position has {got} cells, the grid has {expected}")]
    WrongCellCount { expected: usize, got: usize },
    #[error("{cell}: digit {digit} is outside 1..={size}")]
    DigitOutOfRange {
        cell: String,
        digit: Digit,
        size: usize,
    },
    #[error("{cell}: pencil marks with no digit")]
    NoMarks { cell: String },
}

impl Position {
    /// A position of a grid of `size` from what is written in its cells, reading order.
    pub fn new(size: Size, cells: Vec<Written>) -> Result<Position, PositionError> {
        if cells.len() != size.cell_count() {
            return Err(PositionError::WrongCellCount {
                expected: size.cell_count(),
                got: cells.len(),
            });
        }
        let full = Digits::full(size.get());
        for (cell, entry) in size.cells().zip(&cells) {
            let name = || size.cell_label(cell);
            match *entry {
                Written::Blank => {}
                Written::Digit(d) if d >= 1 && usize::from(d) <= size.get() => {}
                Written::Digit(digit) => {
                    return Err(PositionError::DigitOutOfRange {
                        cell: name(),
                        digit,
                        size: size.get(),
                    })
                }
                Written::Marks(m) if m.is_empty() => {
                    return Err(PositionError::NoMarks { cell: name() })
                }
                Written::Marks(m) => {
                    if let Some(digit) = m.difference(full).min() {
                        return Err(PositionError::DigitOutOfRange {
                            cell: name(),
                            digit,
                            size: size.get(),
                        });
                    }
                }
            }
        }
        Ok(Position { size, cells })
    }

    /// The empty grid.
    pub fn blank(size: Size) -> Position {
        Position {
            size,
            cells: vec![Written::Blank; size.cell_count()],
        }
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn cells(&self) -> &[Written] {
        &self.cells
    }

    /// The digits each cell may still hold, by the position.
    fn allowed(&self, cell: CellId) -> Digits {
        match self.cells[cell.index()] {
            Written::Blank => Digits::full(self.size.get()),
            Written::Digit(d) => Digits::single(d),
            Written::Marks(m) => m,
        }
    }

    /// Whether every cell has a digit entered.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|e| matches!(e, Written::Digit(_)))
    }
}

/// An entry that the solution contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub cell: CellId,
    pub kind: ConflictKind,
}

impl Conflict {
    /// The entry that is wrong, telling nothing about the solution but that:
    /// `C3: the 5 entered there is wrong.`
    pub fn describe(&self, size: Size) -> String {
        let cell = crate::labels::cell(size, self.cell);
        match self.kind {
            ConflictKind::WrongDigit(d) => format!("{cell}: the {d} entered there is wrong."),
            ConflictKind::DigitRemoved => {
                format!("{cell}: its pencil marks leave out the digit it needs.")
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConflictKind {
    /// This digit was entered, and it is not the cell's.
    WrongDigit(Digit),
    /// The pencil marks leave out the cell's digit (which is not told).
    DigitRemoved,
}

/// What [`check`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The unique solution agrees with every entry.
    Consistent,
    /// Entries the unique solution contradicts, reading order.
    Conflicts(Vec<Conflict>),
    /// The puzzle has several solutions, and at least one agrees with every entry.
    ConsistentWithSome,
    /// The puzzle has several solutions, and none agrees with the cells (which
    /// entry is wrong depends on the solution, so none is named).
    ContradictsEvery,
    /// The puzzle has no solution.
    Impossible,
    /// The budget ran out before the solutions were known.
    Stopped(Exhausted),
}

impl Check {
    /// The check as every front end tells it: its status word, its message, the
    /// entries it names. `deadline` names what a timeout passed (`--timeout`, or
    /// `the time allowed for one request`).
    pub fn report(&self, position: &Position, deadline: &str) -> CheckReport {
        let size = position.size();
        let filled = position
            .cells()
            .iter()
            .filter(|e| matches!(e, Written::Digit(_)))
            .count();
        let (status, message) = match self {
            Check::Consistent if position.is_complete() => (
                "consistent",
                "Solved: every cell is filled, and right.".to_string(),
            ),
            Check::Consistent => (
                "consistent",
                format!(
                    "All consistent so far ({filled} of {} cells filled).",
                    size.cell_count()
                ),
            ),
            Check::Conflicts(conflicts) => {
                let lines: Vec<String> = conflicts.iter().map(|c| c.describe(size)).collect();
                ("conflicts", lines.join("\n"))
            }
            Check::ConsistentWithSome => (
                "consistent-with-some",
                "Consistent with at least one solution (the puzzle has several).".to_string(),
            ),
            Check::ContradictsEvery => (
                "contradicts-every",
                "The position agrees with none of the puzzle's solutions.".to_string(),
            ),
            Check::Impossible => ("impossible", "The puzzle has no solution.".to_string()),
            Check::Stopped(Exhausted::Time) => {
                ("timeout", format!("No answer: {deadline} passed."))
            }
            Check::Stopped(why) => ("limit", format!("No answer: {why}.")),
        };
        let conflicts = match self {
            Check::Conflicts(conflicts) => conflicts
                .iter()
                .map(|c| {
                    let (kind, entered) = match c.kind {
                        ConflictKind::WrongDigit(d) => ("wrong-digit", Some(d)),
                        ConflictKind::DigitRemoved => ("digit-removed", None),
                    };
                    ConflictReport {
                        cell: c.cell,
                        label: crate::labels::cell(size, c.cell),
                        kind,
                        entered,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        CheckReport {
            status,
            message,
            conflicts,
            filled,
            cells: size.cell_count(),
        }
    }

    /// Whether the position contradicts the solution (or every solution).
    pub fn contradicted(&self) -> bool {
        matches!(self, Check::Conflicts(_) | Check::ContradictsEvery)
    }
}

/// A [`Check`] as it is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// `consistent`, `conflicts`, `consistent-with-some` (several solutions),
    /// `contradicts-every`, `impossible`, `timeout` or `limit`.
    pub status: &'static str,
    /// What a person reads: one line per conflict, or one sentence.
    pub message: String,
    pub conflicts: Vec<ConflictReport>,
    /// Cells with a digit entered, and all cells.
    pub filled: usize,
    pub cells: usize,
}

/// A conflicting entry as it is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictReport {
    pub cell: CellId,
    /// Its label (`C3`).
    pub label: String,
    /// `wrong-digit` (with the digit `entered`) or `digit-removed`.
    pub kind: &'static str,
    pub entered: Option<Digit>,
}

/// Checks a position against the puzzle's solution: which entered digits and
/// which pencil marks contradict it, telling nothing else.
pub fn check(grader: &Grader, position: &Position, budget: &mut Budget) -> Check {
    match grader.verdict() {
        Verdict::Unique => {
            let Some(solution) = grader.solution() else {
                return Check::Impossible;
            };
            let conflicts: Vec<Conflict> = position
                .size
                .cells()
                .filter_map(|cell| {
                    let truth = solution[cell.index()];
                    let kind = match position.cells[cell.index()] {
                        Written::Digit(d) if d != truth => ConflictKind::WrongDigit(d),
                        Written::Marks(m) if !m.contains(truth) => ConflictKind::DigitRemoved,
                        _ => return None,
                    };
                    Some(Conflict { cell, kind })
                })
                .collect();
            if conflicts.is_empty() {
                Check::Consistent
            } else {
                Check::Conflicts(conflicts)
            }
        }
        Verdict::Impossible => Check::Impossible,
        Verdict::Ambiguous => {
            let layout = grader.layout();
            let tables: Vec<&kenken_model::Combinations> =
                layout.tables.iter().map(|t| &t.combos).collect();
            let allowed: Vec<Digits> = position.size.cells().map(|c| position.allowed(c)).collect();
            let outcome =
                search::count_solutions_within(layout.puzzle(), &tables, Some(&allowed), 1, budget);
            match outcome.verdict {
                Verdict::Impossible => Check::ContradictsEvery,
                Verdict::Unknown => Check::Stopped(outcome.stopped.unwrap_or(Exhausted::Time)),
                Verdict::Unique | Verdict::Ambiguous => Check::ConsistentWithSome,
            }
        }
        Verdict::Unknown => Check::Stopped(grader.stopped().unwrap_or(Exhausted::Time)),
    }
}

/// What a picture shows in a cell: its digit once placed, else its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Digit(Digit),
    Candidates(Digits),
}

impl From<Written> for Shown {
    /// What a solver wrote, as drawn: a blank cell shows no pencil mark.
    fn from(entry: Written) -> Shown {
        match entry {
            Written::Blank => Shown::Candidates(Digits::EMPTY),
            Written::Digit(d) => Shown::Digit(d),
            Written::Marks(m) => Shown::Candidates(m),
        }
    }
}

/// What every cell of a state shows.
pub fn shown(state: &State) -> Vec<Shown> {
    state
        .puzzle()
        .size()
        .cells()
        .map(|c| match state.value(c) {
            Some(d) => Shown::Digit(d),
            None => Shown::Candidates(state.candidates(c)),
        })
        .collect()
}

/// A step and the grid as it stood before it.
#[derive(Clone, Debug)]
pub struct Frame {
    pub before: Vec<Shown>,
    pub step: Step,
}

/// Why a [`Walk`] gave its last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkEnd {
    /// Every cell is placed.
    Solved,
    /// No enabled technique applies.
    NoStep,
    /// The last step left a cell or a cage with nothing possible.
    Contradiction,
    /// The budget ran out.
    Stopped(Exhausted),
}

/// The ladder walked from a position one step at a time, naked singles included,
/// each with the grid as it stood before it: from the puzzle's start it gives the
/// steps of [`Grader::grade`]'s log, in the same order.
///
/// The grid before a ladder step is the propagated state. Naked singles come out of
/// one propagation together; the grid before each is the propagated state with the
/// singles not given yet shown as their cell's one candidate: a person's pencil
/// marks brought up to date, where each single's cell holds only its digit.
pub struct Walk {
    state: State,
    ladder: Ladder,
    /// The naked singles of the last propagation not given yet, and the grid
    /// before the first of them (see [`Walk`]).
    singles: VecDeque<Step>,
    shown: Vec<Shown>,
    end: Option<WalkEnd>,
    /// How many steps the walk has given.
    given: usize,
    /// The steps found so far that cut cage combinations: their number in the
    /// walk (from 0) and their cuts, for the proofs that lean on them.
    cuts: Vec<(usize, Vec<crate::step::CageCut>)>,
}

impl Walk {
    /// From the puzzle's start: the first steps are the naked singles of the start's
    /// propagation, as in [`Grader::grade`]'s log.
    pub fn from_start(grader: &Grader, options: Options, budget: Budget) -> Walk {
        Walk::from_position(
            grader,
            &Position::blank(grader.puzzle().size()),
            options,
            budget,
        )
        .unwrap_or_else(|_| {
            let layout = Arc::clone(grader.layout());
            // An ended walk spends nothing.
            let mut walk = Walk::new(State::from_layout(layout), options, Budget::unlimited());
            walk.end = Some(WalkEnd::Contradiction);
            walk
        })
    }

    /// From a position: its cells are applied (a digit entered is the cell's only
    /// candidate, pencil marks its candidates), then propagation runs; the naked
    /// singles it places in cells without an entered digit are the first steps.
    /// Fails when the position leaves a cell or a cage with nothing possible.
    pub fn from_position(
        grader: &Grader,
        position: &Position,
        options: Options,
        budget: Budget,
    ) -> Result<Walk, crate::Contradiction> {
        let mut state = State::from_layout(Arc::clone(grader.layout()));
        for cell in position.size.cells() {
            for d in state.candidates(cell).difference(position.allowed(cell)) {
                state.eliminate(cell, d);
            }
        }
        let mut walk = Walk::new(state, options, budget);
        let mut singles = Vec::new();
        match walk
            .state
            .propagate_within(walk.ladder.budget(), Some(&mut singles))
        {
            Ok(()) => {}
            Err(Halt::Contradiction(c)) => return Err(c),
            Err(Halt::Exhausted(why)) => walk.end = Some(WalkEnd::Stopped(why)),
        }
        walk.state.forget_changed_cages();
        // Singles in cells with a digit entered are what the solver did already.
        singles.retain(|single| match single.reason {
            crate::Reason::NakedSingle(crate::step::NakedSingle { cell, .. }) => {
                !matches!(position.cells[cell.index()], Written::Digit(_))
            }
            _ => true,
        });
        walk.queue(singles);
        Ok(walk)
    }

    /// A walk from a state not yet propagated.
    fn new(state: State, options: Options, budget: Budget) -> Walk {
        Walk {
            ladder: Ladder::within(state.layout(), options, budget),
            shown: Vec::new(),
            singles: VecDeque::new(),
            state,
            end: None,
            given: 0,
            cuts: Vec::new(),
        }
    }

    /// The state after every step the walk has found so far, propagated (steps
    /// given or still to give).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Why the walk ended, once it has.
    pub fn end(&self) -> Option<WalkEnd> {
        if self.singles.is_empty() {
            self.end
        } else {
            None
        }
    }

    /// Queues the singles of the propagation just run, with the grid before the
    /// first of them.
    fn queue(&mut self, singles: Vec<Step>) {
        self.shown = shown(&self.state);
        for single in &singles {
            if let crate::Reason::NakedSingle(crate::step::NakedSingle { cell, digit }) =
                single.reason
            {
                self.shown[cell.index()] = Shown::Candidates(Digits::single(digit));
            }
        }
        self.singles.extend(singles);
    }

    /// The next ladder step, applied and propagated; its singles wait in
    /// `singles`.
    fn advance(&mut self) -> Option<Frame> {
        if self.end.is_some() {
            return None;
        }
        if self.state.is_solved() {
            self.end = Some(WalkEnd::Solved);
            return None;
        }
        let Some(step) = self.ladder.next_step(&self.state) else {
            self.end = Some(match self.ladder.exhausted() {
                Some(why) => WalkEnd::Stopped(why),
                None => WalkEnd::NoStep,
            });
            return None;
        };
        let mut step = step;
        if !step.proofs.is_empty() {
            let earlier = self.cuts.iter().map(|(j, c)| (*j, c.as_slice()));
            crate::grader::name_narrowing_of(self.state.layout(), earlier, &mut step);
        }
        if !step.cuts.is_empty() {
            self.cuts.push((self.given, step.cuts.clone()));
        }
        let before = shown(&self.state);
        self.state.apply(&step);
        let mut singles = Vec::new();
        match self
            .state
            .propagate_within(self.ladder.budget(), Some(&mut singles))
        {
            Ok(()) => {
                let changed = self.state.take_changed_cages();
                self.ladder.cages_changed(&changed);
            }
            Err(Halt::Contradiction(_)) => {
                self.end = Some(WalkEnd::Contradiction);
                singles.clear();
            }
            Err(Halt::Exhausted(why)) => self.end = Some(WalkEnd::Stopped(why)),
        }
        self.queue(singles);
        Some(Frame { before, step })
    }
}

impl Iterator for Walk {
    type Item = Frame;

    fn next(&mut self) -> Option<Frame> {
        let frame = self.next_frame();
        if frame.is_some() {
            self.given += 1;
        }
        frame
    }
}

impl Walk {
    fn next_frame(&mut self) -> Option<Frame> {
        match self.singles.pop_front() {
            Some(step) => {
                let before = self.shown.clone();
                if let crate::Reason::NakedSingle(crate::step::NakedSingle { cell, digit }) =
                    step.reason
                {
                    self.shown[cell.index()] = Shown::Digit(digit);
                }
                Some(Frame { before, step })
            }
            None => self.advance(),
        }
    }
}

/// What [`hint`] finds.
#[derive(Clone, Debug)]
pub enum Hint {
    /// The next step that changes the grid (places a digit or removes a
    /// candidate), with the grid before it; `prior` are the steps before it that
    /// only struck cage combinations, which a grid cannot show but it may rest on.
    Step { frame: Box<Frame>, prior: Vec<Step> },
    /// The first entry (reading order) the solution contradicts: fix it first.
    Conflict(Conflict),
    /// Every cell is filled, and right.
    Solved,
    /// No enabled technique applies; the puzzle has one solution, beyond them.
    Stuck,
    /// No enabled technique applies, and the puzzle has several solutions.
    Ambiguous,
    /// The puzzle has several solutions and none agrees with the position.
    ContradictsEvery,
    /// The puzzle has no solution.
    Impossible,
    /// The budget ran out first.
    Stopped(Exhausted),
}

/// The next step from a position that changes the grid (see [`Hint::Step`]), or,
/// when an entry contradicts the solution, that entry.
pub fn hint(grader: &Grader, position: &Position, options: Options, mut budget: Budget) -> Hint {
    match check(grader, position, &mut budget) {
        Check::Conflicts(conflicts) => return Hint::Conflict(conflicts[0]),
        Check::ContradictsEvery => return Hint::ContradictsEvery,
        Check::Impossible => return Hint::Impossible,
        Check::Stopped(why) => return Hint::Stopped(why),
        Check::Consistent | Check::ConsistentWithSome => {}
    }
    let mut walk = match Walk::from_position(grader, position, options, budget) {
        Ok(walk) => walk,
        Err(_) => return Hint::ContradictsEvery,
    };
    let mut prior = Vec::new();
    // Each step strikes at least one combination, so this ends; the walk's budget
    // bounds its work.
    for frame in walk.by_ref() {
        if frame.step.placements.is_empty() && frame.step.eliminations.is_empty() {
            prior.push(frame.step);
        } else {
            return Hint::Step {
                frame: Box::new(frame),
                prior,
            };
        }
    }
    match walk.end() {
        Some(WalkEnd::Stopped(why)) => Hint::Stopped(why),
        Some(WalkEnd::Contradiction) => Hint::ContradictsEvery,
        Some(WalkEnd::NoStep) if grader.verdict() == Verdict::Ambiguous => Hint::Ambiguous,
        Some(WalkEnd::NoStep) => Hint::Stuck,
        Some(WalkEnd::Solved) | None => Hint::Solved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TechniqueKind;
    use kenken_model::Puzzle;

    /// The example 6x6 of `docs/formats.md` and its solution.
    const SIX: &str = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";
    const AMBIGUOUS: &str = "4:aa_a3__aa_3a_a,m4s1s1a5m8a5s1";
    const IMPOSSIBLE: &str = "6:aab_12a_6aa_aa_a4_a3b_a_a,a9a5m60s1d3m8d2d2a7m120s4d2a8s2m4s1";

    fn grader(id: &str) -> (Puzzle, Grader) {
        let puzzle = kenken_formats::tatham::read(id).expect("puzzle");
        let grader = Grader::new(&puzzle).expect("grader");
        (puzzle, grader)
    }

    fn position(puzzle: &Puzzle, cells: impl Fn(CellId) -> Written) -> Position {
        let size = puzzle.size();
        Position::new(size, size.cells().map(cells).collect()).expect("a position")
    }

    fn hint_of(grader: &Grader, position: &Position) -> Hint {
        hint(grader, position, Options::default(), Budget::unlimited())
    }

    /// From the start, the walk gives the grader's log step for step, each with a
    /// grid before it that still holds every digit the step places or removes.
    #[test]
    fn walk_from_the_start_is_the_grade_log() {
        let corpus: Vec<String> =
            serde_json::from_str(include_str!("../../../puzzles/reference-corpus.json"))
                .expect("a JSON array of game IDs");
        let mut steps = 0;
        for id in &corpus {
            let (_, grader) = grader(id);
            let log = grader.grade(Options::default(), false).steps;
            let walk = Walk::from_start(&grader, Options::default(), Budget::unlimited());
            let frames: Vec<Frame> = walk.collect();
            assert_eq!(frames.len(), log.len(), "{id}");
            for (frame, step) in frames.iter().zip(&log) {
                assert_eq!(&frame.step, step, "{id}");
                for &(cell, d) in step.placements.iter().chain(&step.eliminations) {
                    match frame.before[cell.index()] {
                        Shown::Candidates(c) => assert!(c.contains(d), "{id}: {step:?}"),
                        Shown::Digit(_) => panic!("{id}: {step:?} acts on a placed cell"),
                    }
                }
                if let crate::Reason::NakedSingle(crate::step::NakedSingle { cell, digit }) =
                    step.reason
                {
                    assert_eq!(
                        frame.before[cell.index()],
                        Shown::Candidates(Digits::single(digit)),
                        "{id}"
                    );
                }
            }
            steps += log.len();
        }
        assert!(steps > 30_000, "only {steps} steps compared");
    }

    #[test]
    fn check_names_wrong_digits_and_marks_and_nothing_else() {
        let (puzzle, grader) = grader(SIX);
        let solution = grader.solution().expect("unique").to_vec();
        let mut budget = Budget::unlimited();
        let blank = Position::blank(puzzle.size());
        assert_eq!(check(&grader, &blank, &mut budget), Check::Consistent);
        let solved = position(&puzzle, |c| Written::Digit(solution[c.index()]));
        assert_eq!(check(&grader, &solved, &mut budget), Check::Consistent);
        // A1 holds 4: enter 5 there, and leave 6 out of B1's marks (B1 is 6); B3's
        // marks hold its 3.
        let wrong = position(&puzzle, |c| match c.index() {
            0 => Written::Digit(5),
            6 => Written::Marks([1, 3].into_iter().collect()),
            8 => Written::Marks([3, 6].into_iter().collect()),
            _ => Written::Blank,
        });
        assert_eq!(
            check(&grader, &wrong, &mut budget),
            Check::Conflicts(vec![
                Conflict {
                    cell: CellId::new(0),
                    kind: ConflictKind::WrongDigit(5)
                },
                Conflict {
                    cell: CellId::new(6),
                    kind: ConflictKind::DigitRemoved
                },
            ])
        );
        // The first conflict is the hint.
        assert!(matches!(
            hint_of(&grader, &wrong),
            Hint::Conflict(Conflict { cell, .. }) if cell == CellId::new(0)
        ));
    }

    #[test]
    fn puzzles_without_one_solution() {
        let (puzzle, grader) = self::grader(AMBIGUOUS);
        let mut budget = Budget::unlimited();
        let blank = Position::blank(puzzle.size());
        assert_eq!(
            check(&grader, &blank, &mut budget),
            Check::ConsistentWithSome
        );
        // Two 1s in row A agree with no solution.
        let twice = position(&puzzle, |c| match c.index() {
            0 | 1 => Written::Digit(1),
            _ => Written::Blank,
        });
        assert_eq!(check(&grader, &twice, &mut budget), Check::ContradictsEvery);
        assert!(matches!(hint_of(&grader, &twice), Hint::ContradictsEvery));
        let (puzzle, grader) = self::grader(IMPOSSIBLE);
        let blank = Position::blank(puzzle.size());
        assert_eq!(check(&grader, &blank, &mut budget), Check::Impossible);
        assert!(matches!(hint_of(&grader, &blank), Hint::Impossible));
    }

    /// A solver who writes down each hint (the digit placed, the candidates
    /// removed) solves the puzzle, every position on the way consistent.
    #[test]
    fn following_the_hints_solves_the_puzzle() {
        for id in [
            SIX,
            "6:ca__a_3a_a_3a__adca_3a_5a_3aca,a18a13s5s3a7a17s1s3s1a8a3a17",
            "5:_abaa_a_5aa_a__a_a_3b_a,m16a7m15a6s2s1d2s2a6m12s3",
        ] {
            let (puzzle, grader) = grader(id);
            let n = puzzle.size().get();
            let mut cells = vec![Written::Blank; puzzle.size().cell_count()];
            let mut kinds = Vec::new();
            for _ in 0..10 * cells.len() {
                let position = Position::new(puzzle.size(), cells.clone()).unwrap();
                let (frame, prior) = match hint_of(&grader, &position) {
                    Hint::Step { frame, prior } => (frame, prior),
                    Hint::Solved => break,
                    other => panic!("{id}: {other:?}"),
                };
                kinds.extend(prior.iter().map(|s| s.technique));
                let step = frame.step;
                kinds.push(step.technique);
                for &(cell, d) in &step.placements {
                    cells[cell.index()] = Written::Digit(d);
                }
                for &(cell, d) in &step.eliminations {
                    let mut marks = match cells[cell.index()] {
                        Written::Blank => Digits::full(n),
                        Written::Marks(m) => m,
                        Written::Digit(d) => Digits::single(d),
                    };
                    marks.remove(d);
                    cells[cell.index()] = Written::Marks(marks);
                }
                let mut budget = Budget::unlimited();
                assert_eq!(check(&grader, &position, &mut budget), Check::Consistent);
            }
            let position = Position::new(puzzle.size(), cells).unwrap();
            assert!(matches!(hint_of(&grader, &position), Hint::Solved), "{id}");
            assert!(kinds.contains(&TechniqueKind::PROPAGATION), "{id}");
            assert!(kinds.len() > 10, "{id}");
        }
    }

    #[test]
    fn positions_are_checked_against_the_grid() {
        let size = Size::new(4).unwrap();
        assert_eq!(
            Position::new(size, vec![Written::Blank; 3]),
            Err(PositionError::WrongCellCount {
                expected: 16,
                got: 3
            })
        );
        let mut cells = vec![Written::Blank; 16];
        cells[5] = Written::Digit(5);
        assert_eq!(
            Position::new(size, cells.clone()).unwrap_err().to_string(),
            "B2: digit 5 is outside 1..=4"
        );
        cells[5] = Written::Marks(Digits::EMPTY);
        assert_eq!(
            Position::new(size, cells).unwrap_err().to_string(),
            "B2: pencil marks with no digit"
        );
    }
}
