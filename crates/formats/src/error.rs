//! The typed errors of every reader and writer.
//!
//! A reader's error is a [`FormatError`]: which format was being read, where in the
//! input the problem is ([`Location`]), and which rule was broken ([`Rule`]). The
//! rule's message is the one users see; for Tatham's format it is Tatham's own
//! wording, so that a user comparing with his program recognises it.
//!
//! A writer's error is a [`WriteError`]: the puzzle cannot be expressed in the
//! target format (wrong size, clue too large, KenDoku boxes, ...).

use crate::Format;
use kenken_model::ModelError;
use std::fmt;
use thiserror::Error;

/// Where in the input a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The input as a whole (e.g. it is empty, or of no known format).
    Input,
    /// A 0-based character offset into the input as given (before any trimming).
    Offset(usize),
    /// A 1-based line and, when known, a 1-based character column.
    Line { line: usize, column: Option<usize> },
    /// A grid cell, 0-based row and column (shown as `r1c1`, 1-based).
    Cell { row: usize, col: usize },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Input => write!(f, "in the input"),
            Location::Offset(o) => write!(f, "at character {} (offset {o})", o + 1),
            Location::Line { line, column: None } => write!(f, "on line {line}"),
            Location::Line {
                line,
                column: Some(c),
            } => write!(f, "on line {line}, column {c}"),
            Location::Cell { row, col } => write!(f, "at cell r{}c{}", row + 1, col + 1),
        }
    }
}

/// The rule an input breaks. Tatham's rules keep his program's wording.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Rule {
    // ---- any format ----
    #[error("the input is empty")]
    Empty,
    #[error("the input is not in any known puzzle format (expected a Tatham Keen game ID, a SudokuWiki K6C/D6C string or KenKen URL, the '# <size>' text format or a letter grid)")]
    UnknownFormat,
    #[error("{0}")]
    Model(ModelError),
    /// The text is a batch of puzzles (what `grader batch` reads), not one.
    #[error("the input holds {} ({}), not one puzzle string", puzzles(*.count), .shape.describe())]
    ManyPuzzles {
        count: usize,
        shape: crate::batch_input::Shape,
    },

    // ---- Tatham Keen game IDs ----
    #[error("this game ID has no puzzle description (it is bare parameters or a random seed such as '6dh#12345', from which Tatham's program generates a new puzzle); paste the full game ID '<size>:<description>' instead")]
    NoDescription,
    /// Tatham's rule, in strict reading; the size as written (digits, with a sign
    /// if any), or what stands where it should be.
    #[error("Grid size must be between 3 and 9 (it is {0})")]
    GridSize(String),
    /// Outside even what the lenient reading accepts.
    #[error("Grid size must be between 3 and 9 (Tatham's limit), or 10 to 16 read leniently with a warning (it is {0})")]
    LenientGridSize(String),
    #[error("Unknown difficulty rating")]
    UnknownDifficulty,
    #[error("Invalid character in game description ({0:?})")]
    InvalidCharacter(char),
    #[error("Too much data in block structure specification")]
    TooMuchBlockData,
    #[error("Not enough data in block structure specification")]
    NotEnoughBlockData,
    #[error("Expected ',' after block structure description")]
    ExpectedComma,
    #[error("Too few clues for block structure")]
    TooFewClues,
    #[error("Too many clues for block structure")]
    TooManyClues,
    #[error("Unrecognised clue type ({0:?})")]
    UnrecognisedClueType(char),
    #[error("Subtraction and division blocks must have area 2 (this one has {area} cells)")]
    SubDivArea { area: usize },
    #[error("clue value {0} does not fit in 64 bits")]
    ClueTooLarge(String),

    // ---- SudokuWiki packed strings ----
    #[error("a packed SudokuWiki string starts with K6C or D6C")]
    PackedPrefix,
    #[error("a packed 6x6 string has 144 characters after its prefix (4 per cell), not {0}")]
    PackedLength(usize),
    #[error("{0:?} is not a base-36 digit")]
    Base36(char),
    #[error("cage colour {0} is out of range (colours are 0 to 4)")]
    Colour(u32),
    #[error("progress value {0} is invalid (0 = unknown, 7-12 = solved digit + 6, 13-75 = candidate bits + 12)")]
    Progress(u32),
    #[error("operator number {0} is invalid (1 = +, 2 = -, 3 = x, 4 = /)")]
    OperatorCode(u32),
    #[error("the cage has {cells} cells but no operator in its operator cell")]
    MissingOperator { cells: usize },
    #[error(
        "field value {0} is in a cell that is neither its cage's clue cell nor its operator cell"
    )]
    StrayField(u32),

    // ---- SudokuWiki unpacked URL ----
    #[error("a SudokuWiki KenKen URL holds `KenKen6x6.aspx?bd=`")]
    UrlPrefix,
    #[error("the URL's bd= value starts with 36 cage colours (digits 1 to 5) and a comma, not {0} digits")]
    UrlColours(usize),
    #[error("the URL has 36 cell entries after its colours, each followed by a comma, not {0}")]
    UrlEntries(usize),
    #[error("{0:?} is not a cage's clue and operator (12x, 3-, 2/, 7+, or a bare value for a single cell)")]
    UrlEntry(String),
    #[error("{0:?} stands in a cell that is not its cage's first cell")]
    UrlStrayEntry(String),

    // ---- text and letter-grid formats ----
    #[error("the first line must be '# <size>'")]
    MissingHeader,
    #[error("{0:?} is not a grid size from 3 to 16 (the sizes this format holds)")]
    BadSize(String),
    #[error("{0:?} is not an operator (+ - * / ! or – x × ÷)")]
    BadOperator(String),
    #[error("{0:?} is not a clue value (a whole number)")]
    BadValue(String),
    #[error("{0:?} is not a cell name (row letter and column number, like B3)")]
    BadCellName(String),
    #[error("cell {name} is outside the {size}x{size} grid")]
    CellOutside { name: String, size: usize },
    #[error("the cage lists no cells")]
    NoCells,
    #[error("cell {0} is listed twice in the same cage")]
    DuplicateCell(String),
    #[error("cell {cell} is already in the cage {first}")]
    CellInTwoCages { cell: String, first: String },
    #[error("cell {0} is in no cage")]
    CellUncovered(String),
    #[error("the cage is not connected: cell {0} touches no other cell of it")]
    CageNotConnected(String),
    #[error("a given (!) is a single cell, but this one lists {0} cells")]
    GivenWithSeveralCells(usize),
    #[error("grid row has {found} cells, expected {expected}")]
    GridRowLength { expected: usize, found: usize },
    #[error("the grid has {found} rows, expected {expected}")]
    GridRows { expected: usize, found: usize },
    #[error("{0:?} is neither a cage letter nor a given digit")]
    GridCharacter(char),
    #[error("letter {0:?} marks two separate areas of the grid")]
    LetterNotConnected(char),
    #[error("{0:?} is not a clue (expected e.g. 'A 8+', '5x' or '1')")]
    BadClue(String),
    #[error("cage {0:?} has no clue")]
    MissingClue(char),
    #[error("cage {0:?} has two clues")]
    DuplicateClue(char),
    #[error("there is no cage {0:?} in the grid")]
    UnknownCageLetter(char),
    #[error("there are {found} clues for {expected} cages")]
    ClueCount { expected: usize, found: usize },
    #[error("clues must be either all labelled ('A 8+') or all unlabelled ('8+')")]
    MixedClueStyle,
}

/// The most characters of the input a [`Rule`] quotes (a size, a clue, a word).
pub const QUOTED_CHARS: usize = 40;

/// A piece of the input as a [`Rule`] quotes it: cut at [`QUOTED_CHARS`]
/// characters, with `…` where it was cut, so that a message stays short whatever
/// the input.
pub(crate) fn quoted(word: &str) -> String {
    match word.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &word[..cut]),
        None => word.to_string(),
    }
}

/// Why an input could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct FormatError {
    /// The format being read, when known.
    pub format: Option<Format>,
    pub location: Location,
    pub rule: Rule,
}

impl FormatError {
    pub fn new(format: Format, location: Location, rule: Rule) -> FormatError {
        FormatError {
            format: Some(format),
            location,
            rule,
        }
    }

    pub(crate) fn at(format: Format, offset: usize, rule: Rule) -> FormatError {
        FormatError::new(format, Location::Offset(offset), rule)
    }
}

/// `1 puzzle`, `20 puzzles`.
fn puzzles(count: usize) -> String {
    if count == 1 {
        "1 puzzle".to_string()
    } else {
        format!("{count} puzzles")
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(format) = self.format {
            write!(f, "{}: ", format.description())?;
        }
        if self.location != Location::Input {
            write!(f, "{}: ", self.location)?;
        }
        write!(f, "{}", self.rule)
    }
}

/// Why a puzzle cannot be written in a format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WriteError {
    #[error("the {format} format holds only {supported} puzzles, not {size}x{size}")]
    UnsupportedSize {
        format: Format,
        size: usize,
        supported: &'static str,
    },
    #[error("the {format} format stores clues up to {max}; the cage at {cell} has clue {clue}")]
    ClueTooLarge {
        format: Format,
        cell: String,
        clue: u64,
        max: u64,
    },
    #[error("the {0} format has no KenDoku boxes; write this puzzle as d6c")]
    KenDokuNotSupported(Format),
    #[error("the d6c format is for KenDoku puzzles (6x6 with 2x3 boxes); this puzzle has no boxes (write it as k6c)")]
    NotKenDoku,
    #[error("the {0} format can be read but not written")]
    WriteNotSupported(Format),
    #[error("the {0} format cannot show a cage whose operation is hidden; of the formats written, only text can (`? 12 A1 A2`)")]
    HiddenOperations(Format),
    #[error("the progress has {found} cells, the puzzle {expected}")]
    ProgressLength { expected: usize, found: usize },
    #[error("cell {0} has no candidates left, which the format cannot store")]
    EmptyCandidates(String),
    #[error("cell {cell} holds digit {digit}, outside 1..={size}")]
    DigitOutOfRange {
        cell: String,
        digit: u8,
        size: usize,
    },
    #[error("no 5-colouring of the cages was found")]
    Colouring,
}

impl From<(Format, ModelError)> for FormatError {
    fn from((format, e): (Format, ModelError)) -> FormatError {
        FormatError::new(format, Location::Input, Rule::Model(e))
    }
}
