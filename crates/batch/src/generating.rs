//! Generated puzzles as `grader generate` writes them (NDJSON rows or puzzle
//! strings), and runs of attempts cut into ranges, so that a distributed run finds
//! the puzzles a one-machine run with the same seed finds, in the same order.

use kenken_formats::{sudokuwiki, tatham, text, WriteError};
use kenken_generator::search::attempt;
pub use kenken_generator::search::Attempt;
use kenken_generator::{attempt_seed, Closest, Generated, Request};
use kenken_model::clock::Instant;
use kenken_model::Puzzle;
use kenken_techniques::Rating;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::atomic::AtomicBool;

/// How generated puzzles are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum GenerateFormat {
    Ndjson,
    Tatham,
    K6c,
    D6c,
    Text,
}

/// Checks that the output format can hold the puzzles asked for, before searching.
pub fn check_format(format: GenerateFormat, request: &Request) -> Result<(), String> {
    let six = request.size == 6;
    let kendoku = request.kendoku;
    match format {
        GenerateFormat::Tatham | GenerateFormat::K6c | GenerateFormat::D6c
            if request.hide_ops =>
        {
            Err(format!(
                "{} cannot show a cage whose operation is hidden: with --hide-ops, use --format text or ndjson",
                format_name(format)
            ))
        }
        GenerateFormat::K6c if !six || kendoku => {
            Err("k6c holds 6x6 KenKen puzzles only (without --kendoku)".into())
        }
        GenerateFormat::D6c if !six || !kendoku => {
            Err("d6c holds 6x6 KenDoku puzzles only (with --kendoku)".into())
        }
        GenerateFormat::Tatham if kendoku => {
            Err("Tatham IDs have no KenDoku boxes: use --format d6c or text".into())
        }
        _ => Ok(()),
    }
}

/// The format's name, as `--format` spells it.
fn format_name(format: GenerateFormat) -> &'static str {
    match format {
        GenerateFormat::Ndjson => "ndjson",
        GenerateFormat::Tatham => "tatham",
        GenerateFormat::K6c => "k6c",
        GenerateFormat::D6c => "d6c",
        GenerateFormat::Text => "text",
    }
}

/// A puzzle in the output format (in NDJSON rows: a Tatham ID, or D6C for a 6×6
/// KenDoku, or the text format for another KenDoku or for a puzzle whose
/// operations are hidden).
pub fn puzzle_string(puzzle: &Puzzle, format: GenerateFormat) -> Result<String, WriteError> {
    match format {
        GenerateFormat::Tatham => tatham::write(puzzle),
        GenerateFormat::K6c => sudokuwiki::write_k6c(puzzle, None),
        GenerateFormat::D6c => sudokuwiki::write_d6c(puzzle, None),
        GenerateFormat::Text => text::write(puzzle),
        GenerateFormat::Ndjson if puzzle.is_kendoku() && puzzle.size().get() == 6 => {
            sudokuwiki::write_d6c(puzzle, None)
        }
        GenerateFormat::Ndjson if puzzle.is_kendoku() || puzzle.has_hidden_ops() => {
            text::write(puzzle)
        }
        GenerateFormat::Ndjson => tatham::write(puzzle),
    }
}

/// A generated puzzle's NDJSON row (its fields in alphabetical order, as
/// `grader generate` has always written them). It reads back from what it
/// writes, so a row made on one machine can be numbered on another.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneratedRow {
    /// Mode c's max depth (`null` when mode c ran out of work).
    pub depth: Option<usize>,
    /// The puzzle's operations are hidden (`puzzle` is in the text format, with
    /// `?` cages); left out when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hide_ops: bool,
    /// 1-based, in the run's order.
    pub index: usize,
    pub max: f64,
    pub puzzle: String,
    /// The attempt's seed: the same options with this seed make this puzzle first.
    pub seed: u64,
    pub size: usize,
    /// The technique of the first step rated `max`.
    pub technique: String,
    pub total: f64,
}

impl GeneratedRow {
    pub fn new(g: &Generated, index: usize) -> Result<GeneratedRow, WriteError> {
        Ok(GeneratedRow {
            depth: g.depth,
            hide_ops: g.puzzle.has_hidden_ops(),
            index,
            max: g.max.as_f64(),
            puzzle: puzzle_string(&g.puzzle, GenerateFormat::Ndjson)?,
            seed: g.seed,
            size: g.puzzle.size().get(),
            technique: g.technique.id().to_string(),
            total: g.total.as_f64(),
        })
    }
}

fn is_false(b: &bool) -> bool {
    !b
}

/// A generated puzzle as one output line (without its line break): an NDJSON row,
/// or the puzzle string (the text format ends with a blank line).
pub fn generated_line(
    g: &Generated,
    index: usize,
    format: GenerateFormat,
) -> Result<String, WriteError> {
    Ok(match format {
        GenerateFormat::Ndjson => {
            serde_json::to_string(&GeneratedRow::new(g, index)?).expect("a row serialises")
        }
        GenerateFormat::Text => format!("{}\n", puzzle_string(&g.puzzle, format)?.trim_end()),
        _ => puzzle_string(&g.puzzle, format)?,
    })
}

/// A request's band as the messages write it: `4.4`, `3-3.9`, `4.4+`.
pub fn band_text(request: &Request) -> String {
    match request.max {
        Some(m) if m == request.min => format!("{m}"),
        Some(m) => format!("{}-{m}", request.min),
        None => format!("{}+", request.min),
    }
}

/// A run's attempts as the messages write them: `120 attempts`, or `120 attempts
/// (3 repeated an earlier puzzle)` when `repeats` of them found a puzzle the run
/// had already handed on.
pub fn attempts_text(tried: u64, repeats: u64) -> String {
    match repeats {
        0 => format!("{tried} attempts"),
        n => format!("{tried} attempts ({n} repeated an earlier puzzle)"),
    }
}

/// What came closest among a run's missed attempts, in the words of the message
/// that ends a run stopped before its count (`grader generate`, the Python
/// package and its Dask runs say the same).
pub fn closest_text(closest: Option<Closest>, request: &Request) -> String {
    match closest {
        Some(Closest::Rated(r)) => format!("the closest max rating reached was {r}"),
        Some(Closest::AboveMax) => format!(
            "the closest puzzles needed a step rated above {}",
            request.max.unwrap_or(request.min)
        ),
        None => "no attempt reached a unique puzzle".to_string(),
    }
}

/// A missed attempt's [`Closest`] as a shard of a distributed run hands it back:
/// the max rating in tenths, or `-1` for a step above the band's max.
pub fn closest_code(closest: Closest) -> i64 {
    match closest {
        Closest::Rated(r) => i64::from(r.0),
        Closest::AboveMax => -1,
    }
}

/// The [`Closest`] of a [`closest_code`] (`None` for a code no attempt gives).
pub fn closest_of_code(code: i64) -> Option<Closest> {
    match code {
        -1 => Some(Closest::AboveMax),
        t => u32::try_from(t).ok().map(|t| Closest::Rated(Rating(t))),
    }
}

/// Attempts `range` of the run of `request` seeded with `seed`, on the current
/// rayon pool: their outcomes in attempt order, up to and with the first one the
/// deadline interrupted. Attempt i depends only on (seed, i) and the request, so
/// the ranges 0..a, a..b, … run anywhere and read in order find what one run
/// finds, in the same order.
pub fn attempt_range(
    request: &Request,
    seed: u64,
    range: Range<u64>,
    deadline: Option<Instant>,
) -> Vec<Attempt> {
    let indices: Vec<u64> = range.collect();
    let never = AtomicBool::new(false);
    let mut outcomes: Vec<Attempt> = indices
        .into_par_iter()
        .with_max_len(1)
        .map(|i| attempt(request, attempt_seed(seed, i), i, deadline, &never))
        .collect();
    if let Some(cut) = outcomes
        .iter()
        .position(|o| matches!(o, Attempt::Interrupted))
    {
        outcomes.truncate(cut + 1);
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_generator::{generate, Event, RunLimits};

    #[test]
    fn ranges_find_what_one_run_finds() {
        let request = Request::new(4, Rating(10), Some(Rating(20)));
        let mut whole = Vec::new();
        let limits = RunLimits {
            count: usize::MAX,
            max_tries: Some(12),
            deadline: None,
        };
        generate(&request, 7, &limits, |event| {
            if let Event::Found(g) = event {
                whole.push(g.seed);
            }
            true
        })
        .unwrap();
        let mut pieces = Vec::new();
        for start in (0..12).step_by(5) {
            for outcome in attempt_range(&request, 7, start..(start + 5).min(12), None) {
                match outcome {
                    Attempt::Found(g) => pieces.push(g.seed),
                    Attempt::Missed { .. } => {}
                    Attempt::Interrupted => panic!("no deadline was set"),
                }
            }
        }
        assert!(!whole.is_empty());
        assert_eq!(pieces, whole);
    }
}
