//! `grader print FILE -o booklet.pdf|.svg`: a print-ready booklet of the puzzles of a
//! batch input, laid out by [`kenken_booklet`]: 1, 2, 4 or 6 puzzles a page, each
//! with its number (its place in the input), size and rating, and answer keys at
//! the end with `--answers`.
//!
//! A puzzle that cannot be read, or that does not have exactly one solution, is
//! left out with a line on stderr; the others are printed under their own numbers.

use crate::exit::{BAD_INPUT, NOT_UNIQUE};
use crate::input::{open_batch, HideOps};
use crate::report::label;
use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use kenken_batch::text::clip_message;
use kenken_booklet::{prepare_puzzle, Booklet, Item, ItemError, Options, Paper, PerPage};
use kenken_formats::read_any;
use kenken_model::Limits;
use rayon::prelude::*;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct PrintArgs {
    /// A file of puzzles (what `grader batch` reads: a JSON array, NDJSON, a JSON
    /// object of puzzle arrays, or one puzzle per line), or `-` for standard input.
    #[arg(value_name = "FILE")]
    pub input: String,
    /// Where to write the booklet: a .pdf file, or .svg for one SVG file per page
    /// (NAME-1.svg, NAME-2.svg, …, numbered with as many digits as the last page).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub hide: HideOps,
    /// Puzzles on each page: 1, 2, 4 or 6.
    #[arg(long, default_value = "4", value_parser = parse_per_page)]
    pub per_page: PerPage,
    /// Add answer-key pages (12 solutions a page) at the end.
    #[arg(long)]
    pub answers: bool,
    /// The paper size.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: PaperArg,
    /// Give up on a puzzle's rating and solution after this many seconds (it is
    /// then left out, like a puzzle without exactly one solution).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::options::seconds)]
    pub timeout: Option<Duration>,
    /// No progress bar (it is only shown when stderr is a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PaperArg {
    /// 210 × 297 mm.
    A4,
    /// 8.5 × 11 in.
    Letter,
}

fn parse_per_page(s: &str) -> Result<PerPage, String> {
    s.parse()
        .ok()
        .and_then(PerPage::new)
        .ok_or_else(|| format!("puzzles per page must be 1, 2, 4 or 6, not {s}"))
}

/// The booklet's file format, by the output's extension.
enum Kind {
    Pdf,
    Svg,
}

/// Why an entry of the input is left out.
enum Problem {
    /// Not a puzzle string (bad JSON, a number, …).
    Entry(String),
    Item(ItemError),
}

/// Puzzles read and prepared at a time.
const CHUNK: usize = 4096;

pub fn run(args: PrintArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let kind = match args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("pdf") => Kind::Pdf,
        Some("svg") => Kind::Svg,
        _ => {
            eprintln!(
                "grader print: error: cannot tell the booklet's format from {}: name it .pdf or .svg",
                args.output.display()
            );
            return Ok(ExitCode::from(BAD_INPUT));
        }
    };
    let mut entries = match open_batch("print", &args.input) {
        Ok(entries) => entries,
        Err(code) => return Ok(code),
    };
    let bar = progress_bar(entries.total(), "rated", args.quiet);
    let mut items: Vec<Item> = Vec::new();
    let (mut unreadable, mut not_unique) = (0usize, 0usize);
    loop {
        let mut chunk = Vec::with_capacity(CHUNK);
        for entry in entries.by_ref().take(CHUNK) {
            match entry {
                Ok(entry) => chunk.push(entry),
                Err(e) => {
                    eprintln!("grader print: error: {e}");
                    return Ok(ExitCode::from(BAD_INPUT));
                }
            }
        }
        if chunk.is_empty() {
            break;
        }
        let prepared: Vec<Result<Item, Problem>> = chunk
            .par_iter()
            .map(|entry| {
                let text = entry.puzzle().ok_or_else(|| {
                    Problem::Entry(
                        entry
                            .problem
                            .as_ref()
                            .map(|p| p.to_string())
                            .unwrap_or_default(),
                    )
                })?;
                let limits = Limits::new().until(args.timeout.map(|t| Instant::now() + t));
                let imported = read_any(text, None).map_err(|e| Problem::Item(e.into()))?;
                let puzzle = imported
                    .hiding_ops(entry.hide_ops || args.hide.hide_ops)
                    .puzzle;
                prepare_puzzle(entry.index, puzzle, limits).map_err(Problem::Item)
            })
            .collect();
        bar.inc(chunk.len() as u64);
        for (entry, result) in chunk.iter().zip(prepared) {
            let problem = match result {
                Ok(item) => {
                    items.push(item);
                    continue;
                }
                Err(problem) => problem,
            };
            // Entries that are not puzzles, and unreadable puzzles, are bad input;
            // a valid puzzle without one solution is a finding.
            let message = match problem {
                Problem::Entry(message) => {
                    unreadable += 1;
                    message
                }
                Problem::Item(e) => {
                    if e.is_unreadable() {
                        unreadable += 1;
                    } else {
                        not_unique += 1;
                    }
                    e.to_string()
                }
            };
            bar.suspend(|| {
                eprintln!(
                    "grader print: {}: {}; left out",
                    label(entry.index, &entry.text),
                    clip_message(message)
                )
            });
        }
    }
    bar.finish_and_clear();
    if items.is_empty() {
        eprintln!(
            "grader print: error: no puzzle to print in {}",
            entries.name()
        );
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let options = Options {
        paper: match args.paper {
            PaperArg::A4 => Paper::A4,
            PaperArg::Letter => Paper::Letter,
        },
        per_page: args.per_page,
        answers: args.answers,
    };
    let booklet = Booklet::new(&items, options);
    let bar = progress_bar(Some(booklet.page_count()), "pages", args.quiet);
    let written = match kind {
        Kind::Pdf => {
            let pdf = booklet.pdf_with_progress(|pages| bar.inc(pages as u64))?;
            std::fs::write(&args.output, pdf)
                .with_context(|| format!("cannot write {}", args.output.display()))?;
            args.output.display().to_string()
        }
        Kind::Svg => {
            let count = booklet.page_count();
            let paths: Vec<PathBuf> = (1..=count)
                .map(|page| page_path(&args.output, page, count))
                .collect();
            for (index, path) in paths.iter().enumerate() {
                std::fs::write(path, booklet.page_svg(index))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                bar.inc(1);
            }
            match paths.as_slice() {
                [one] => one.display().to_string(),
                [first, .., last] => format!("{} to {}", first.display(), last.display()),
                [] => String::new(),
            }
        }
    };
    bar.finish_and_clear();
    let answers = if args.answers {
        format!(", answers on {}", pages(booklet.answer_pages()))
    } else {
        String::new()
    };
    eprintln!(
        "grader print: wrote {written}: {} puzzle(s) on {}{answers}, {:.1} s",
        items.len(),
        pages(booklet.puzzle_pages()),
        started.elapsed().as_secs_f64()
    );
    Ok(if unreadable > 0 {
        ExitCode::from(BAD_INPUT)
    } else if not_unique > 0 {
        ExitCode::from(NOT_UNIQUE)
    } else {
        ExitCode::SUCCESS
    })
}

/// A bar of `what` done out of `total` (a counter when the total is not known),
/// on stderr when it is a terminal and not `--quiet`.
fn progress_bar(total: Option<usize>, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::new(n as u64),
            format!("{{bar:30}} {{pos}}/{{len}} {what}  {{eta}} left"),
        ),
        None => (
            ProgressBar::new_spinner(),
            format!("{{spinner}} {{pos}} {what}"),
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn pages(n: usize) -> String {
    if n == 1 {
        "1 page".to_string()
    } else {
        format!("{n} pages")
    }
}

/// Page `page` of `count` of an SVG booklet named `output`: `NAME-07.svg`.
fn page_path(output: &Path, page: usize, count: usize) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let width = count.to_string().len();
    output.with_file_name(format!("{stem}-{page:0width$}.svg"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_pages_are_numbered_to_sort() {
        let out = Path::new("out/booklet.svg");
        assert_eq!(page_path(out, 3, 12), Path::new("out/booklet-03.svg"));
        assert_eq!(page_path(out, 1, 1), Path::new("out/booklet-1.svg"));
    }
}
