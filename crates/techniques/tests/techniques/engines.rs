//! The cage-combination engines find the same steps: the search from the
//! combinations' side, used at every level it can be (from 3), and the default
//! engine (which hands level 8, and levels 6 and 7 of hidden-operation puzzles,
//! over to it after a walk of their first sets), against the reference that
//! checks every set on its own, on every corpus puzzle. Both keep the results of
//! that search between steps, so the comparison covers bringing them up to date.
//!
//! Mode c (cage combinations alone) goes deepest, so it is the one compared: the
//! same steps in the same order, each with the same cuts, and the same end. The
//! puzzles with hidden operations are compared within a work limit: the steps both
//! engines reach must be the same, and a run one engine finishes the other must
//! finish alike. The regular run compares every eighth puzzle; `--ignored` (the
//! slow sweeps of `.ci/run`) compares them all. Random puzzles (cages grown over
//! a Latin square, as the fuzzing grows them), shown and hidden, are compared the
//! same way, so the engines meet cage sets no corpus file holds.

use super::corpus::{for_each_parallel, hidden_ops_corpus, report, tatham_corpus, Entry};
use super::fuzz::puzzle_of_size;
use kenken_model::Limits;
use kenken_techniques::{Engine, Grader, Options};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::cell::Cell;
use std::time::Instant;

/// What an entry's two runs differ in, if anything.
fn disagreement(e: &Entry, limits: Limits) -> Option<String> {
    compared(e, limits).map_or_else(Some, |(problem, _)| problem)
}

/// What an entry's two runs differ in from the reference, if anything, and the
/// reference's mode c depth; an error when the grader cannot be built.
fn compared(e: &Entry, limits: Limits) -> Result<(Option<String>, usize), String> {
    let grader = Grader::with_limits(&e.puzzle, limits)
        .map_err(|stopped| format!("{}: {stopped:?}", e.label))?;
    let options = Options::cage_combinations_only();
    let reference = grader.grade_with(options, false, Engine::Reference);
    let problem = [
        (
            Engine::CoresFrom(3),
            "the search from the combinations' side",
        ),
        (Engine::Fast, "the default engine"),
    ]
    .into_iter()
    .find_map(|(engine, name)| {
        let graded = grader.grade_with(options, false, engine);
        differences(e, &graded, &reference, name)
    });
    Ok((problem, reference.depth))
}

/// Where an engine's grade (`name`) and the reference's part, if they do.
fn differences(
    e: &Entry,
    graded: &kenken_techniques::Grade,
    reference: &kenken_techniques::Grade,
    name: &str,
) -> Option<String> {
    let both = graded.steps.len().min(reference.steps.len());
    if let Some(i) = (0..both).find(|&i| graded.steps[i] != reference.steps[i]) {
        let size = e.puzzle.size();
        return Some(format!(
            "{}: step {} is {} by {name}, {} by the reference",
            e.label,
            i + 1,
            graded.steps[i].text(size),
            reference.steps[i].text(size)
        ));
    }
    let finished = |g: &kenken_techniques::Grade| g.stopped.is_none();
    if finished(graded) && finished(reference) && graded.steps.len() != reference.steps.len() {
        return Some(format!(
            "{}: {} steps by {name} against the reference's {}",
            e.label,
            graded.steps.len(),
            reference.steps.len()
        ));
    }
    None
}

/// Every `step`-th entry.
fn every(entries: Vec<Entry>, step: usize) -> Vec<Entry> {
    entries.into_iter().step_by(step).collect()
}

fn tatham_puzzles(step: usize) {
    let started = Instant::now();
    let entries = every(tatham_corpus(), step);
    let problems = for_each_parallel(&entries, |e| disagreement(e, e.limits));
    report("engines agree", &problems, entries.len(), started);
}

fn hidden_operations(step: usize) {
    let started = Instant::now();
    let entries = every(hidden_ops_corpus(), step);
    let limits = Limits {
        work: 1 << 25,
        ..Limits::new()
    };
    let problems = for_each_parallel(&entries, |e| disagreement(e, limits));
    report(
        "engines agree, operations hidden",
        &problems,
        entries.len(),
        started,
    );
}

#[test]
fn engines_agree_on_a_sample_of_the_corpus() {
    tatham_puzzles(8);
    hidden_operations(8);
}

#[test]
#[ignore = "minutes: the slow sweeps of .ci/run"]
fn engines_agree_on_every_tatham_and_reference_puzzle() {
    tatham_puzzles(1);
}

#[test]
#[ignore = "minutes: the slow sweeps of .ci/run"]
fn engines_agree_on_every_puzzle_with_hidden_operations() {
    hidden_operations(1);
}

/// Random 5×5 to 7×7 puzzles whose clues hold on their square, each with its
/// operations shown and hidden: the engines against the reference, within a
/// work limit. Many are ambiguous or easy; the check asks that enough of the runs
/// combine three cages or more (where the search from the combinations' side
/// answers) for the comparison to say something.
#[test]
fn engines_agree_on_random_puzzles() {
    let config = Config {
        cases: 300,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[23; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let limits = Limits {
        work: 1 << 22,
        ..Limits::new()
    };
    let (runs, deep) = (Cell::new(0u32), Cell::new(0u32));
    let started = Instant::now();
    let result = runner.run(&(5..=7usize).prop_flat_map(puzzle_of_size), |case| {
        if case.square.is_none() {
            return Ok(());
        }
        for puzzle in [case.puzzle.clone(), case.puzzle.with_hidden_ops()] {
            let label = kenken_formats::text::write(&puzzle).unwrap_or_default();
            let entry = Entry {
                label,
                puzzle,
                limits,
            };
            let (problem, depth) = match compared(&entry, limits) {
                Ok(compared) => compared,
                Err(problem) => (Some(problem), 0),
            };
            if let Some(problem) = problem {
                prop_assert!(false, "{}", problem);
            }
            runs.set(runs.get() + 1);
            if depth >= 3 {
                deep.set(deep.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("engines on random puzzles: {e}");
    }
    eprintln!(
        "engines agree on {} random runs, {} of them combining three cages or more, {:.1} s",
        runs.get(),
        deep.get(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        deep.get() * 4 >= runs.get(),
        "only {} of {} runs combined three cages or more",
        deep.get(),
        runs.get()
    );
}
