//! Reading and writing KenKen puzzle strings, byte-exact to `docs/formats.md`.
//!
//! One module per format, each with a `read` and (where the format can be written) a
//! `write`:
//!
//! * [`tatham`] — Simon Tatham's Keen game IDs (`6:a_a_…,s2a9m6…`), strict (Tatham's
//!   own validation rules and messages) or lenient (the reference solver's reading).
//! * [`sudokuwiki`] — SudokuWiki's packed K6C / D6C strings with per-cell progress,
//!   and its unpacked `KenKen6x6.aspx?bd=` URL (write only).
//! * [`text`] — the line-per-cage text format (`# 3` / `+ 3 A1 B1` / `! 1 A3`).
//! * [`letter_grid`] — the letter-grid format of other solvers (read only).
//! * [`state`] — a solver's position on a puzzle: K6C / D6C progress or a plain
//!   grid of digits and pencil marks.
//!
//! [`detect`] guesses the format of a string and [`read_any`] reads it;
//! [`batch_input`] reads files of many puzzle strings (JSON arrays, NDJSON, lines);
//! [`write`](fn@write) writes a puzzle in a chosen format. Every choice the format description
//! leaves open ("our reading") is in [`our_reading`]. No reader panics on any
//! input: each returns a [`FormatError`] naming the rule broken and where.

#![forbid(unsafe_code)]

pub mod batch_input;
mod cages;
pub mod error;
pub mod letter_grid;
pub mod our_reading;
pub mod state;
pub mod sudokuwiki;
pub mod tatham;
pub mod text;

pub use error::{FormatError, Location, Rule, WriteError};
pub use sudokuwiki::CellProgress;
pub use tatham::{RelaxedRule, Strictness};

use kenken_model::Puzzle;
use std::fmt;
use std::str::FromStr;

/// A puzzle string format. Its [`name`](Format::name) is what the command line uses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// Simon Tatham's Keen game ID (read and write).
    Tatham,
    /// SudokuWiki packed KenKen 6x6, version C (read and write).
    K6c,
    /// SudokuWiki packed KenDoku 6x6, version C (read and write).
    D6c,
    /// SudokuWiki's unpacked `KenKen6x6.aspx?bd=` URL (read and write).
    SudokuWiki,
    /// The line-per-cage text format (read and write).
    Text,
    /// The letter-grid format (read only).
    LetterGrid,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 6] = [
        Format::Tatham,
        Format::K6c,
        Format::D6c,
        Format::SudokuWiki,
        Format::Text,
        Format::LetterGrid,
    ];

    /// The command-line name: `tatham`, `k6c`, `d6c`, `sudokuwiki`, `text`,
    /// `letter-grid`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Tatham => "tatham",
            Format::K6c => "k6c",
            Format::D6c => "d6c",
            Format::SudokuWiki => "sudokuwiki",
            Format::Text => "text",
            Format::LetterGrid => "letter-grid",
        }
    }

    /// A phrase for messages ("Tatham Keen game ID").
    pub fn description(self) -> &'static str {
        match self {
            Format::Tatham => "Tatham Keen game ID",
            Format::K6c => "SudokuWiki K6C",
            Format::D6c => "SudokuWiki D6C",
            Format::SudokuWiki => "SudokuWiki URL",
            Format::Text => "text format",
            Format::LetterGrid => "letter grid",
        }
    }

    /// Whether this crate can write the format.
    pub fn can_write(self) -> bool {
        self != Format::LetterGrid
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not one of [`Format::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?} (known: tatham, k6c, d6c, sudokuwiki, text, letter-grid)")]
pub struct UnknownFormatName(pub String);

impl FromStr for Format {
    type Err = UnknownFormatName;
    fn from_str(s: &str) -> Result<Format, UnknownFormatName> {
        let lower = s.trim().to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| UnknownFormatName(s.to_string()))
    }
}

/// A puzzle read by [`read_any`], with what its format carried besides the puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Imported {
    /// The format it was read as.
    pub format: Format,
    pub puzzle: Puzzle,
    /// Per-cell progress (K6C / D6C only), in reading order.
    pub progress: Option<Vec<CellProgress>>,
    /// For a Tatham ID that strict validation rejects but the lenient reading
    /// accepts: the rules relaxed (empty otherwise).
    pub relaxed: Vec<RelaxedRule>,
    /// The strict error when `relaxed` is not empty, so callers can show it.
    pub strict_error: Option<FormatError>,
}

impl Imported {
    /// The same, with every cage's operation hidden when `hide` is set
    /// ([`Puzzle::with_hidden_ops`]).
    pub fn hiding_ops(self, hide: bool) -> Imported {
        if !hide {
            return self;
        }
        Imported {
            puzzle: self.puzzle.with_hidden_ops(),
            ..self
        }
    }
}

/// Guesses the format of a puzzle string, from its shape alone (it may still fail to
/// read). `None` when it looks like none of them.
pub fn detect(input: &str) -> Option<Format> {
    let s = input.trim();
    if s.is_empty() {
        return None;
    }
    // The common case first, a plain game ID (`4:…`, `6dh:…`): one line starting
    // with its size, a colon, and no `=` (which the SudokuWiki forms need). Every
    // check below gives it Tatham too; this only skips them, as a batch detects the
    // format of every line.
    if looks_like_plain_game_id(s) {
        return Some(Format::Tatham);
    }
    detect_by_shape(s)
}

/// One line that starts like a game ID ([`tatham::size_hint`]), with a colon and
/// no `=`: what [`detect_by_shape`] finds to be a Tatham game ID without going
/// through the other formats first.
fn looks_like_plain_game_id(s: &str) -> bool {
    tatham::size_hint(s).is_some() && s.contains(':') && !s.contains(['\n', '='])
}

/// [`detect`] on trimmed, non-empty input, format by format.
fn detect_by_shape(s: &str) -> Option<Format> {
    if sudokuwiki::packed_start(s).is_some() {
        return Some(if sudokuwiki::packed_is_kendoku(s) {
            Format::D6c
        } else {
            Format::K6c
        });
    }
    if sudokuwiki::looks_like_unpacked_url(s) {
        return Some(Format::SudokuWiki);
    }
    let first = s.lines().next().unwrap_or("").trim();
    if first.starts_with('#') {
        return Some(Format::Text);
    }
    if s.lines().count() > 1 && letter_grid::is_size_line(first) {
        return Some(Format::LetterGrid);
    }
    if !s.contains('\n') && (s.contains(':') || s.contains('#')) {
        return Some(Format::Tatham);
    }
    None
}

/// Reads a puzzle in `format`, or in the format [`detect`] finds.
///
/// A Tatham ID is read strictly first; if that fails but the lenient reading
/// succeeds, the result says which rules were relaxed (and keeps the strict error).
/// If both fail, the strict error is returned (it is Tatham's own rule), except when
/// the strict reading stopped at the grid size: the lenient one then says what is
/// wrong, whether the size (out of 3 to 16 too) or, for a 10×10 to 16×16, the rest
/// of the ID.
pub fn read_any(input: &str, format: Option<Format>) -> Result<Imported, FormatError> {
    read_one(input, format).map_err(|e| match many_puzzles(input) {
        Some((count, shape)) => FormatError {
            format: None,
            location: Location::Input,
            rule: Rule::ManyPuzzles { count, shape },
        },
        None => e,
    })
}

/// When a text that is not one puzzle holds a batch of them: how many, and in
/// which shape. A JSON text (array, NDJSON, category object) counts whatever its
/// entries are; plain lines count when there are at least two and each is a
/// one-line puzzle string (a game ID, a K6C/D6C string), so that a broken puzzle
/// in a many-line format is not taken for a batch.
fn many_puzzles(text: &str) -> Option<(usize, batch_input::Shape)> {
    use batch_input::Shape;
    let entries = batch_input::from_reader(text.as_bytes(), "the input", None).ok()?;
    let shape = entries.shape();
    let mut count = 0;
    for entry in entries {
        let entry = entry.ok()?;
        if shape == Shape::Lines
            && !matches!(
                detect(&entry.text),
                Some(Format::Tatham | Format::K6c | Format::D6c)
            )
        {
            return None;
        }
        count += 1;
    }
    match shape {
        Shape::Empty => None,
        Shape::Lines if count < 2 => None,
        _ => Some((count, shape)),
    }
}

/// [`read_any`] of a text taken to be one puzzle.
fn read_one(input: &str, format: Option<Format>) -> Result<Imported, FormatError> {
    let format = match format {
        Some(f) => f,
        None => detect(input).ok_or_else(|| FormatError {
            format: None,
            location: Location::Input,
            rule: if input.trim().is_empty() {
                Rule::Empty
            } else {
                Rule::UnknownFormat
            },
        })?,
    };
    let plain = |puzzle| Imported {
        format,
        puzzle,
        progress: None,
        relaxed: Vec::new(),
        strict_error: None,
    };
    match format {
        Format::Tatham => match tatham::read(input) {
            Ok(p) => Ok(plain(p)),
            Err(strict) => match tatham::read_with(input, Strictness::Lenient) {
                Ok((puzzle, relaxed)) => Ok(Imported {
                    relaxed,
                    strict_error: Some(strict),
                    ..plain(puzzle)
                }),
                Err(lenient) if matches!(strict.rule, Rule::GridSize(_)) => Err(lenient),
                Err(_) => Err(strict),
            },
        },
        Format::K6c | Format::D6c => {
            let (puzzle, progress) = sudokuwiki::read_packed(input)?;
            let read_as = if puzzle.is_kendoku() {
                Format::D6c
            } else {
                Format::K6c
            };
            Ok(Imported {
                format: read_as,
                progress: Some(progress),
                ..plain(puzzle)
            })
        }
        Format::SudokuWiki => sudokuwiki::read_url(input).map(plain),
        Format::Text => text::read(input).map(plain),
        Format::LetterGrid => letter_grid::read(input).map(plain),
    }
}

/// Writes a puzzle in `format`. `progress` (per cell, reading order) is stored by
/// K6C / D6C only and ignored by the others.
pub fn write(
    puzzle: &Puzzle,
    format: Format,
    progress: Option<&[CellProgress]>,
) -> Result<String, WriteError> {
    match format {
        Format::Tatham => tatham::write(puzzle),
        Format::K6c => sudokuwiki::write_k6c(puzzle, progress),
        Format::D6c => sudokuwiki::write_d6c(puzzle, progress),
        Format::SudokuWiki => sudokuwiki::write_url(puzzle),
        Format::Text => text::write(puzzle),
        Format::LetterGrid => Err(WriteError::WriteNotSupported(format)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for plain game IDs only ever says what the format-by-format
    /// detection says.
    #[test]
    fn plain_game_id_shortcut_agrees_with_the_full_detection() {
        let inputs = [
            "4:aa_6a_ba_a3,s1a8m12d2d2m2s1",
            "12:_a,a1",
            "4:",
            "4:abc=1",
            "4:a_\nb",
            "4:#x",
            "4d:a",
            "9dx:_a_,a3",
            "123:a",
            ":4",
            "4x4",
            "K6C4:",
            "6:http://www.sudokuwiki.org/kenken6x6.aspx?bd=1",
            "6:K6C0",
            "3\n4:a",
            "#4:a",
        ];
        for input in inputs {
            let s = input.trim();
            if looks_like_plain_game_id(s) {
                assert_eq!(detect_by_shape(s), Some(Format::Tatham), "{input:?}");
            }
        }
        assert!(looks_like_plain_game_id(inputs[0]));
        assert!(looks_like_plain_game_id("9dx:_a_,a3"));
        assert!(!looks_like_plain_game_id("4:abc=1"));
    }

    /// A size error says what is accepted, and a 10×10 to 16×16 ID is judged on the
    /// rest of it, not on Tatham's size limit.
    #[test]
    fn size_errors_tell_what_is_accepted() {
        for (id, size) in [("17:_,a1", "17"), ("2:_,a1", "2"), ("0:_,a1", "0")] {
            let e = read_any(id, None).unwrap_err();
            assert_eq!(e.rule, Rule::LenientGridSize(size.into()), "{id}");
            let text = e.to_string();
            assert!(text.contains("between 3 and 9"), "{text}");
            assert!(text.contains("10 to 16 read leniently"), "{text}");
        }
        let e = read_any("99999999999999999999:_,a1", None).unwrap_err();
        assert!(
            e.to_string().contains("(it is 99999999999999999999)"),
            "{e}"
        );
        let e = read_any("10:_,a1", None).unwrap_err();
        assert_eq!(e.rule, Rule::NotEnoughBlockData, "{e}");
        // Strict reading alone keeps Tatham's rule.
        assert_eq!(
            tatham::read("10:_,a1").unwrap_err().rule,
            Rule::GridSize("10".into())
        );
        let e = read_any("# 17\n+ 3 A1", None).unwrap_err();
        assert!(e.to_string().contains("from 3 to 16"), "{e}");
        // What a rule quotes of the input is cut short.
        let long = "7".repeat(10_000);
        for input in [
            format!("# {long}"),
            format!("{long}:_,a1"),
            format!("4:_a_5a_bac_a__,d2m{long}a5m8s2d2s1"),
        ] {
            let e = read_any(&input, None).unwrap_err().to_string();
            assert!(e.len() < 250 && e.contains("777…"), "{e}");
        }
    }

    #[test]
    fn a_batch_read_as_one_puzzle_says_what_it_holds() {
        let four = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";
        let say = |text: &str| read_any(text, None).unwrap_err().to_string();
        assert_eq!(
            say(&format!("[\"{four}\", \"{four}\"]")),
            "the input holds 2 puzzles (a JSON array), not one puzzle string"
        );
        assert_eq!(
            say(&format!("{four}\n{four}\n{four}\n")),
            "the input holds 3 puzzles (one puzzle per line), not one puzzle string"
        );
        assert_eq!(
            say(&format!("{{\n  \"Easy\": [\"{four}\"]\n}}")),
            "the input holds 1 puzzle (a JSON object of puzzle arrays), not one puzzle string"
        );
        // A broken puzzle of a many-line format stays a broken puzzle.
        assert!(!say("# 4\n+ 3 A1 A2\n").contains("holds"));
    }
}
