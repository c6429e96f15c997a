//! `grader grade <PUZZLE>`: the step log of one puzzle, each step with its rating
//! in the grid's names (`--reference-text`: the reference solver's wording), then
//! the max and total difficulty and the status; with `--explain` each step
//! explained; or one JSON document (`--json`); or only the next step (`--hint`).

use crate::convert::FromFormat;
use crate::input::{load_puzzle, HideOps};
use crate::report::{grid_rows, grid_text, print, status_explained, StepJson};
use crate::wording::Wording;
use clap::Args;
use kenken_batch::text::is_false;
use kenken_batch::{GradeOptions, Mode, Runs};
use kenken_formats::Format;
use kenken_model::Digit;
use kenken_model::{Budget, Exhausted};
use kenken_search::Verdict;
use kenken_techniques::{Grade, Grader, Ladder, Status, Step};
use serde::Serialize;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct GradeArgs {
    /// The puzzle: a string in any supported format, a file holding one, or `-` to
    /// read standard input.
    pub puzzle: String,
    /// The format to read (detected from the input when omitted).
    #[arg(long, value_enum)]
    pub from: Option<FromFormat>,
    #[command(flatten)]
    pub hide: HideOps,
    #[command(flatten)]
    pub grading: GradeOptions,
    /// Leave naked singles (rating 0) out of the log (the steps a proof names as
    /// having cut combinations are then numbered as this log numbers them).
    #[arg(long)]
    pub no_singles: bool,
    /// Print one JSON document instead of the log.
    #[arg(long)]
    pub json: bool,
    /// Print only the next step (after propagation) from the puzzle's start.
    #[arg(long)]
    pub hint: bool,
    /// Explain each step in plain English under its line (a naked single that
    /// only repeats the step before it is left out; step numbers stay those of the
    /// whole log).
    #[arg(long, conflicts_with = "json")]
    pub explain: bool,
    /// With `--explain`: print every proof of a step, not the first three and a
    /// count of the rest.
    #[arg(long, requires = "explain")]
    pub all_proofs: bool,
    /// Word steps as the reference solver does (`r2c3` cells, cages by 0-based
    /// number), with no explanations.
    #[arg(long, conflicts_with = "explain")]
    pub reference_text: bool,
}

pub fn run(args: GradeArgs) -> anyhow::Result<ExitCode> {
    let settings = match crate::options::grade_settings("grade", &args.grading) {
        Ok(settings) => settings,
        Err(code) => return Ok(code),
    };
    let (input, imported) = match load_puzzle(
        "grade",
        &args.puzzle,
        args.from.map(Format::from),
        args.hide,
    ) {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    // One clock for the whole puzzle: the solution count and the runs.
    let runs = settings.runs().starting_now();
    let puzzle = input.text.trim();
    let grader = match Grader::with_limits(&imported.puzzle, runs.limits) {
        Ok(g) => g,
        Err(why) => {
            let size = imported.puzzle.size().get();
            print(&stopped_before_grading(
                puzzle,
                args.hide.hide_ops,
                size,
                why,
                args.json,
            )?)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let text = if args.hint {
        hint(&grader, puzzle, &args, &runs)?
    } else {
        log(&grader, puzzle, &args, &runs)?
    };
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct GradeJson<'a> {
    puzzle: &'a str,
    /// `--hide-ops`: graded with every operation hidden (left out otherwise).
    #[serde(skip_serializing_if = "is_false")]
    hide_ops: bool,
    size: usize,
    status: &'static str,
    max: f64,
    total: f64,
    /// The most cages one cage-combination step of this run combined (1 if none).
    depth: usize,
    /// Mode c's max depth and step count (modes c and b).
    #[serde(skip_serializing_if = "Option::is_none")]
    cc_depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cc_steps: Option<usize>,
    steps: Vec<StepJson>,
    /// The unique solution, by rows (`null` when there is none or several).
    solution: Option<Vec<Vec<Digit>>>,
    /// With status `timeout` or `limit`: what stopped the grading.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

/// The report of a puzzle whose combination tables alone exhaust the limits.
fn stopped_before_grading(
    puzzle: &str,
    hide_ops: bool,
    size: usize,
    why: Exhausted,
    json: bool,
) -> anyhow::Result<String> {
    let status = Status::of(why);
    if json {
        return Ok(serde_json::to_string(&GradeJson {
            puzzle,
            hide_ops,
            size,
            status: status.as_str(),
            max: 0.0,
            total: 0.0,
            depth: 1,
            cc_depth: None,
            cc_steps: None,
            steps: Vec::new(),
            solution: None,
            stopped: Some(stopped_text(why)),
        })?);
    }
    Ok(format!(
        "Max difficulty: 0; total difficulty: 0\nStatus: {} (its combination tables: {})",
        status.as_str(),
        why
    ))
}

/// What stopped a grading, for reports: the reason and the limit.
fn stopped_text(why: Exhausted) -> String {
    match why {
        Exhausted::Time => "--timeout passed".to_string(),
        other => other.to_string(),
    }
}

/// The proofs `--explain` prints under a step; the rest are counted.
const PROOFS_LISTED: usize = 3;

/// The whole log (or its JSON document): the steps of mode n's run (mode c's in
/// mode c), and in modes c and b mode c's max depth and step count.
fn log(grader: &Grader, puzzle: &str, args: &GradeArgs, runs: &Runs) -> anyhow::Result<String> {
    let size = grader.puzzle().size();
    let wording = Wording::new(grader.layout(), args.reference_text);
    let grade = grader.grade(runs.shown(), true);
    if let Some(i) = grade.unsound_step {
        eprintln!(
            "grader grade: warning: step {} removed the solution (a bug in {}; please report it)",
            i + 1,
            grade.steps[i].technique.name()
        );
    }
    let cc_grade = match (args.grading.mode, runs.cc) {
        (Mode::B, Some(options)) => Some(grader.grade(options, false)),
        _ => None,
    };
    let cc: Option<&Grade> = match args.grading.mode {
        Mode::N => None,
        Mode::C => Some(&grade),
        Mode::B => cc_grade.as_ref(),
    };
    let without_singles: Vec<Step>;
    let shown: Vec<&Step> = if args.no_singles {
        without_singles = renumbered_without_singles(grader, &grade.steps);
        without_singles.iter().collect()
    } else {
        grade.steps.iter().collect()
    };
    if args.json {
        let doc = GradeJson {
            puzzle,
            hide_ops: args.hide.hide_ops,
            size: size.get(),
            status: grade.status.as_str(),
            max: grade.max.as_f64(),
            total: grade.total.as_f64(),
            depth: grade.depth,
            cc_depth: cc.map(|g| g.depth),
            cc_steps: cc.map(|g| g.ladder_steps),
            steps: shown.iter().map(|s| wording.json(s)).collect(),
            solution: grader.solution().map(|s| grid_rows(s, size)),
            stopped: grade.stopped.map(stopped_text),
        };
        return Ok(serde_json::to_string(&doc)?);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut ladder_step: Option<&Step> = None;
    for (i, s) in shown.iter().enumerate() {
        if !s.is_propagation() {
            ladder_step = Some(s);
        }
        if !args.explain {
            lines.push(format!("{}: {}", i + 1, wording.line(s)));
        } else if !ladder_step.is_some_and(|l| s.echoes(l)) {
            lines.push(format!("{}: {}", i + 1, wording.line(s)));
            lines.push(format!("   {}", s.explanation(grader.layout())));
            let (listed, more) = s.proofs_shown(if args.all_proofs {
                usize::MAX
            } else {
                PROOFS_LISTED
            });
            lines.extend(listed.iter().map(|p| format!("   Why: {}", p.text())));
            if more > 0 {
                lines.push(format!("   … and {more} more like them."));
            }
        }
    }
    lines.push(format!(
        "Max difficulty: {}; total difficulty: {}",
        grade.max, grade.total
    ));
    if let Some(cc) = cc {
        lines.push(format!(
            "Max depth: {}; steps: {}",
            cc.depth, cc.ladder_steps
        ));
    }
    lines.push(match grade.stopped {
        Some(why @ (Exhausted::Memory { .. } | Exhausted::Work { .. })) => {
            format!("Status: limit ({why}; the ratings are those reached so far)")
        }
        _ => format!("Status: {}", status_explained(grade.status)),
    });
    if !grade.solved() {
        lines.push(format!("Grid reached:\n{}", grid_text(&grade.grid, size)));
    }
    Ok(lines.join("\n"))
}

/// The steps without naked singles, the earlier steps their proofs name
/// renumbered as that log numbers them.
fn renumbered_without_singles(grader: &Grader, steps: &[Step]) -> Vec<Step> {
    let mut listed = 0;
    let place: Vec<Option<usize>> = steps
        .iter()
        .map(|s| {
            (!s.is_propagation()).then(|| {
                listed += 1;
                listed - 1
            })
        })
        .collect();
    steps
        .iter()
        .filter(|s| !s.is_propagation())
        .map(|s| {
            let mut s = s.clone();
            if !s.proofs.is_empty() {
                s.renumber_narrowing(grader.layout(), |i| place.get(i).copied().flatten());
            }
            s
        })
        .collect()
}

#[derive(Serialize)]
struct HintJson<'a> {
    puzzle: &'a str,
    /// As [`GradeJson`]'s.
    #[serde(skip_serializing_if = "is_false")]
    hide_ops: bool,
    size: usize,
    /// `unsolved` with the next step; otherwise why there is none: `solved` (by
    /// propagation alone), `stuck`, `ambiguous`, `impossible`, `timeout`.
    status: &'static str,
    step: Option<StepJson>,
}

/// What `--hint` finds.
enum Hint {
    Next(Step),
    /// Propagation alone solves the puzzle.
    Solved,
    Stuck,
    Ambiguous,
    Impossible,
    /// `--timeout`, the memory or the work limit stopped the search for a step (or
    /// the solution count).
    Stopped(Exhausted),
}

/// The next step from the start (after propagation), or why there is none.
fn hint(grader: &Grader, puzzle: &str, args: &GradeArgs, runs: &Runs) -> anyhow::Result<String> {
    let size = grader.puzzle().size();
    let wording = Wording::new(grader.layout(), args.reference_text);
    let (state, _singles) = grader.start();
    let found = if let Some(why) = grader.stopped() {
        Hint::Stopped(why)
    } else if grader.verdict() == Verdict::Impossible {
        Hint::Impossible
    } else if state.is_solved() {
        Hint::Solved
    } else {
        let budget = Budget::new(runs.limits);
        let mut ladder = Ladder::within(grader.layout(), runs.shown(), budget);
        match ladder.next_step(&state) {
            Some(step) => Hint::Next(step),
            None if ladder.exhausted().is_some() => {
                Hint::Stopped(ladder.exhausted().expect("checked"))
            }
            None if grader.verdict() == Verdict::Ambiguous => Hint::Ambiguous,
            None => Hint::Stuck,
        }
    };
    let (status, message) = match &found {
        Hint::Next(step) if args.explain => (
            "unsolved",
            format!(
                "{}\n   {}",
                wording.line(step),
                step.explanation(grader.layout())
            ),
        ),
        Hint::Next(step) => ("unsolved", wording.line(step)),
        Hint::Solved => (
            "solved",
            "No hint needed: naked singles alone solve the puzzle.".to_string(),
        ),
        Hint::Stuck => (
            "stuck",
            "No hint: no enabled technique applies (stuck).".to_string(),
        ),
        Hint::Ambiguous => (
            "ambiguous",
            "No hint: no enabled technique applies, and the puzzle has more than one solution."
                .to_string(),
        ),
        Hint::Impossible => (
            "impossible",
            "No hint: the puzzle has no solution.".to_string(),
        ),
        Hint::Stopped(why) => (
            Status::of(*why).as_str(),
            format!("No hint found: {}.", stopped_text(*why)),
        ),
    };
    if !args.json {
        return Ok(message);
    }
    let step = match &found {
        Hint::Next(step) => Some(wording.json(step)),
        _ => None,
    };
    let doc = HintJson {
        puzzle,
        hide_ops: args.hide.hide_ops,
        size: size.get(),
        status,
        step,
    };
    Ok(serde_json::to_string(&doc)?)
}
