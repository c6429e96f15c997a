//! Print-ready booklets of KenKen puzzles.
//!
//! A [`Booklet`] lays out [`Item`]s (a puzzle with its number in the input, its
//! rating and its solution) on pages of A4 or US Letter paper, 1, 2, 4 or 6 puzzles
//! a page, each headed by its number, size and rating, then (when asked) answer-key
//! pages of 12 solutions each. Each page is a [`kenken_render::Sheet`], so it is
//! drawn exactly as `grader render` draws a grid; [`Booklet::write_pdf`] writes
//! the pages as one PDF (through krilla), [`Booklet::page_svg`] gives one page as
//! SVG.
//!
//! ```
//! use kenken_booklet::{prepare, Booklet, Options};
//! use kenken_model::Limits;
//! let item = prepare(1, "4:_a_5a_bac_a__,d2m12a5m8s2d2s1", Limits::new()).unwrap();
//! let items = [item];
//! let options = Options { answers: true, ..Options::default() };
//! let booklet = Booklet::new(&items, options);
//! assert_eq!(booklet.page_count(), 2); // one page of puzzles, one of answers
//! let pdf = booklet.pdf().unwrap();
//! assert!(pdf.starts_with(b"%PDF-"));
//! ```

#![forbid(unsafe_code)]

mod layout;
mod pdf;

use kenken_formats::FormatError;
use kenken_model::{Digit, Exhausted, Limits, Puzzle};
use kenken_search::Verdict;
use kenken_techniques::{Grader, Options as LadderOptions, Rating, Status};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

pub use layout::ANSWERS_PER_PAGE;

/// A paper size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Paper {
    /// 210 × 297 mm.
    #[default]
    A4,
    /// 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in PDF points (1/72 in).
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

impl FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(format!("unknown paper {s:?} (a4 or letter)")),
        }
    }
}

/// How many puzzles a page holds: 1, 2, 4 or 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerPage(usize);

impl PerPage {
    pub const ONE: PerPage = PerPage(1);
    pub const TWO: PerPage = PerPage(2);
    pub const FOUR: PerPage = PerPage(4);
    pub const SIX: PerPage = PerPage(6);

    /// `n` puzzles a page, when `n` is 1, 2, 4 or 6.
    pub fn new(n: usize) -> Option<PerPage> {
        matches!(n, 1 | 2 | 4 | 6).then_some(PerPage(n))
    }

    pub fn get(self) -> usize {
        self.0
    }

    /// Columns and rows of puzzles on a page.
    fn grid(self) -> (usize, usize) {
        match self.0 {
            1 => (1, 1),
            2 => (1, 2),
            4 => (2, 2),
            _ => (2, 3),
        }
    }
}

impl Default for PerPage {
    fn default() -> PerPage {
        PerPage::FOUR
    }
}

/// How a booklet is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub paper: Paper,
    pub per_page: PerPage,
    /// Answer-key pages at the end.
    pub answers: bool,
}

/// A puzzle ready to print: its number (its place in the input, 1-based), its
/// rating and its solution.
#[derive(Clone, Debug)]
pub struct Item {
    pub number: usize,
    pub puzzle: Puzzle,
    /// The ladder's verdict: solved (with `max` the hardest step), or stuck.
    pub status: Status,
    pub max: Rating,
    /// The unique solution, reading order.
    pub solution: Vec<Digit>,
}

impl Item {
    /// The header's size and rating: `6×6 – rating 3.2` (`rating 4.4+` for a
    /// puzzle the ladder does not finish).
    pub fn caption(&self) -> String {
        let n = self.puzzle.size().get();
        let kind = if self.puzzle.is_kendoku() {
            " KenDoku"
        } else {
            ""
        };
        let plus = if self.status == Status::Solved {
            ""
        } else {
            "+"
        };
        format!("{n}×{n}{kind} – rating {}{plus}", self.max)
    }
}

/// Why a puzzle of the input is left out of a booklet.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ItemError {
    #[error("{0}")]
    Unreadable(#[from] FormatError),
    #[error("it has no solution")]
    Impossible,
    #[error("it has more than one solution")]
    Ambiguous,
    #[error("its solutions could not be counted: {0}")]
    Stopped(Exhausted),
}

impl ItemError {
    /// Whether the text is not a valid puzzle (rather than a valid puzzle without
    /// exactly one solution).
    pub fn is_unreadable(&self) -> bool {
        matches!(self, ItemError::Unreadable(_))
    }
}

/// Reads, rates and solves the puzzle `text` (any format), numbered `number`, all
/// within `limits`.
pub fn prepare(number: usize, text: &str, limits: Limits) -> Result<Item, ItemError> {
    let imported = kenken_formats::read_any(text, None)?;
    prepare_puzzle(number, imported.puzzle, limits)
}

/// Rates and solves a puzzle already read, numbered `number`, within `limits`.
pub fn prepare_puzzle(number: usize, puzzle: Puzzle, limits: Limits) -> Result<Item, ItemError> {
    let grader = Grader::with_limits(&puzzle, limits).map_err(ItemError::Stopped)?;
    match grader.verdict() {
        Verdict::Unique => {}
        Verdict::Impossible => return Err(ItemError::Impossible),
        Verdict::Ambiguous => return Err(ItemError::Ambiguous),
        Verdict::Unknown => {
            return Err(ItemError::Stopped(
                grader.stopped().unwrap_or(Exhausted::Time),
            ))
        }
    }
    let solution = grader.solution().ok_or(ItemError::Impossible)?.to_vec();
    let summary = grader.rate(LadderOptions::default());
    Ok(Item {
        number,
        status: summary.status,
        max: summary.max,
        solution,
        puzzle,
    })
}

/// A booklet's pages: the puzzles, then the answer keys.
pub struct Booklet<'a> {
    items: &'a [Item],
    options: Options,
}

/// What a page of a booklet shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    Puzzles,
    Answers,
}

impl fmt::Display for PageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PageKind::Puzzles => "puzzles",
            PageKind::Answers => "answers",
        })
    }
}

/// Why a booklet could not be written.
#[derive(Debug, Error)]
pub enum BookletError {
    #[error("page {page} cannot be drawn: {message}")]
    Page { page: usize, message: String },
    #[error("the PDF cannot be written: {0}")]
    Pdf(String),
}

impl<'a> Booklet<'a> {
    pub fn new(items: &'a [Item], options: Options) -> Booklet<'a> {
        Booklet { items, options }
    }

    /// Pages of puzzles.
    pub fn puzzle_pages(&self) -> usize {
        self.items.len().div_ceil(self.options.per_page.get())
    }

    /// Pages of answers (none unless asked for).
    pub fn answer_pages(&self) -> usize {
        if self.options.answers {
            self.items.len().div_ceil(ANSWERS_PER_PAGE)
        } else {
            0
        }
    }

    pub fn page_count(&self) -> usize {
        self.puzzle_pages() + self.answer_pages()
    }

    /// What page `index` (0-based) holds, and which items.
    fn page_items(&self, index: usize) -> (PageKind, &'a [Item]) {
        let puzzles = self.puzzle_pages();
        let (kind, per, at) = if index < puzzles {
            (PageKind::Puzzles, self.options.per_page.get(), index)
        } else {
            (PageKind::Answers, ANSWERS_PER_PAGE, index - puzzles)
        };
        let start = (at * per).min(self.items.len());
        let end = (start + per).min(self.items.len());
        (kind, &self.items[start..end])
    }

    /// Page `index` (0-based) as an SVG document, its size in points.
    pub fn page_svg(&self, index: usize) -> String {
        self.sheet(index).svg("pt")
    }

    /// Page `index` (0-based), in points.
    pub(crate) fn sheet(&self, index: usize) -> kenken_render::Sheet {
        let (kind, items) = self.page_items(index);
        layout::page(self.options, kind, items, index + 1, self.page_count())
    }

    /// The whole booklet as one PDF document.
    pub fn pdf(&self) -> Result<Vec<u8>, BookletError> {
        self.pdf_with_progress(|_| {})
    }

    /// The PDF, calling `drawn(pages)` each time pages have been drawn (for a
    /// progress bar).
    pub fn pdf_with_progress(&self, mut drawn: impl FnMut(usize)) -> Result<Vec<u8>, BookletError> {
        pdf::write(self, &mut drawn)
    }
}
