//! Reading a batch of puzzle strings: a file or stream holding many puzzles, read
//! lazily as [`Entries`], an iterator of [`Entry`]s in input order.
//!
//! The shape is told apart by the first character that is not white space:
//!
//! * `[`: a JSON array of puzzle strings (the reference solver's batch input), or of
//!   `{"puzzle": …}` objects (which may add `"hide_ops": true`: read the puzzle
//!   with every operation hidden). Read whole and checked as JSON before the first entry
//!   is given out, which also counts the puzzles.
//! * `"`, or `{` with a whole JSON value on the first line: NDJSON, one puzzle string
//!   or `{"puzzle": …}` object per line. A line holding an object whose values are
//!   all arrays, with no `"puzzle"` key, is a category object (what `jq -c` makes of
//!   the reference's test-grid file): its puzzles, in document order.
//! * `{` otherwise: one JSON object whose values are arrays of puzzle strings (the
//!   reference's test-grid file, puzzles by category), in document order. Read whole
//!   and checked like an array.
//! * anything else: one puzzle string per line.
//!
//! NDJSON and plain lines are read a line at a time, so memory does not grow with
//! the input; blank lines are skipped. The text is UTF-8, with or without a
//! byte-order mark; UTF-16 with a byte-order mark is decoded (whole) first.
//!
//! What goes wrong is told apart by its reach:
//!
//! * A whole input that cannot be used ([`BatchError`]): a missing file, a
//!   directory, a read failure, text that is not UTF-8, an array or object that is
//!   not well-formed JSON (a syntax error anywhere refuses the whole array before
//!   its first entry, since the elements after it cannot be told apart).
//! * One entry that is not a puzzle string ([`EntryError`]): a line that is not
//!   JSON or not UTF-8, an element that is a number, an object without `"puzzle"`,
//!   or well-formed JSON that cannot be decoded (a lone UTF-16 surrogate, a number
//!   out of range). It still becomes an [`Entry`], with the problem noted, and the
//!   entries after it are read as usual, so a batch can give it a row and go on.
//!
//! Positions in messages count from the start of the whole input: 1-based lines
//! and 1-based columns in characters (a byte-order mark takes no column).
//!
//! The parts: `decode` (UTF-8 and UTF-16 text, byte-order marks), `position`
//! (places in the whole input, serde_json's error places), `json` (the elements
//! of an array or category object read whole), `lines` (NDJSON and plain lines,
//! read a line at a time).

mod decode;
mod json;
mod lines;
mod position;
#[cfg(test)]
mod tests;

pub use decode::decode_text;

use decode::{decode_utf16, looks_like_utf16_without_bom, read_text, utf16_endian, UTF8_BOM};
use json::Elements;
use lines::Lines;
use position::{skip_white_space, Prefix};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use thiserror::Error;

/// A place in the whole input: 1-based line and 1-based column in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Which part of the input an entry came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A line (NDJSON or one puzzle per line), 1-based.
    Line(usize),
    /// The `number`th element (1-based) of the JSON array, starting at `at`.
    Element { number: usize, at: Location },
    /// The `number`th element (1-based) of a category's array, starting at `at`.
    CategoryElement {
        category: String,
        number: usize,
        at: Location,
    },
    /// The `n`th item (1-based) of a library caller's sequence (see
    /// [`entry_of_value`]).
    Item(usize),
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Line(line) => write!(f, "line {line}"),
            Item::Element { number, at } => write!(f, "array element {number} ({at})"),
            Item::CategoryElement {
                category,
                number,
                at,
            } => write!(f, "element {number} of category {category:?} ({at})"),
            Item::Item(number) => write!(f, "item {number}"),
        }
    }
}

/// Why one entry of a batch is not a puzzle string.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EntryError {
    #[error("{item} is not valid UTF-8")]
    NotUtf8 { item: Item },
    /// Not JSON, or JSON that cannot be decoded (a lone surrogate, a number out of
    /// range); `at` is where the JSON reader stopped.
    #[error("{item} is not valid JSON: {message} ({at})")]
    NotJson {
        item: Item,
        message: String,
        at: Location,
    },
    #[error("{item} is not a puzzle string (nor an object with a \"puzzle\" string)")]
    NotAString { item: Item },
    #[error("{item} is an object without a \"puzzle\" string")]
    NoPuzzleKey { item: Item },
    #[error("{item} has a \"hide_ops\" that is not true or false")]
    BadHideOps { item: Item },
}

/// Why a whole input cannot be read as a batch. `name` says what the input is in
/// messages (`file puzzles.json`, `standard input`).
#[derive(Debug, Error)]
pub enum BatchError {
    #[error("cannot read {name}: no such file")]
    NotFound { name: String },
    #[error("cannot read {name}: it is a directory, not a file of puzzles")]
    IsADirectory { name: String },
    #[error("cannot read {name}: {source}")]
    Io { name: String, source: io::Error },
    #[error("{name} is not valid UTF-8 ({at}, byte offset {offset})")]
    NotUtf8 {
        name: String,
        at: Location,
        offset: u64,
    },
    #[error(
        "{name} is UTF-16 ({endian} byte-order mark) but not valid UTF-16 (byte offset {offset})"
    )]
    BadUtf16 {
        name: String,
        endian: &'static str,
        offset: u64,
    },
    #[error("{name} looks like UTF-16 without a byte-order mark (it has NUL bytes between its first characters); save it as UTF-8")]
    Utf16WithoutBom { name: String },
    #[error("{name} starts with '[' but is not a valid JSON array: {message} ({at}); no puzzle of it was read")]
    BadArray {
        name: String,
        message: String,
        at: Location,
    },
    #[error("{name} starts with '{{' but is neither NDJSON (its first line is not a whole JSON value) nor a JSON object of puzzle arrays: {message} ({at}); no puzzle of it was read")]
    BadObject {
        name: String,
        message: String,
        at: Location,
    },
}

/// The shape an input was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Nothing but white space.
    Empty,
    /// A JSON array.
    JsonArray,
    /// A JSON object of arrays by category, over several lines.
    Categories,
    /// NDJSON (which may hold one-line category objects).
    JsonLines,
    /// One puzzle string per line.
    Lines,
}

impl Shape {
    /// For messages: "a JSON array", "NDJSON", …
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Empty => "no puzzles",
            Shape::JsonArray => "a JSON array",
            Shape::Categories => "a JSON object of puzzle arrays",
            Shape::JsonLines => "NDJSON",
            Shape::Lines => "one puzzle per line",
        }
    }
}

/// One puzzle of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based position among the entries.
    pub index: usize,
    /// The puzzle string; when `problem` is set, the text that is not one (which
    /// may be long, or hold control characters: cut and escape it before showing
    /// it).
    pub text: String,
    /// Why this entry is not a puzzle string.
    pub problem: Option<EntryError>,
    /// The entry asks for its puzzle with every operation hidden
    /// (`{"puzzle": …, "hide_ops": true}`).
    pub hide_ops: bool,
    /// The bytes of input read for this entry since the previous one (for
    /// progress against [`Entries::input_len`]).
    pub bytes: u64,
}

impl Entry {
    /// The puzzle string, unless the entry is not one.
    pub fn puzzle(&self) -> Option<&str> {
        self.problem.is_none().then_some(self.text.as_str())
    }
}

/// The entry of one JSON value, the `index`th (1-based) of a sequence that a
/// library caller holds (a Python list of puzzle strings and dicts): read as an
/// element of a batch array is, a puzzle string or a `{"puzzle": …}` object with
/// an optional `"hide_ops": true` (other keys are ignored), and anything else is
/// an entry that is not a puzzle string, its problem naming `item {index}`.
pub fn entry_of_value(index: usize, value: serde_json::Value) -> Entry {
    let text = json::puzzle_of(value, Item::Item(index));
    Entry {
        index,
        bytes: text.text.len() as u64,
        text: text.text,
        problem: text.problem,
        hide_ops: text.hide_ops,
    }
}

/// The entries of a batch input, in order. An `Err` item ends the input (an I/O
/// failure while reading a stream); nothing follows it.
pub struct Entries<'a> {
    source: Source<'a>,
    name: String,
    next_index: usize,
    total: Option<usize>,
    input_len: Option<u64>,
    shape: Shape,
}

enum Source<'a> {
    /// Array or category elements of a text read whole.
    Elements(Elements),
    Lines(Box<Lines<'a>>),
    Done,
}

/// Opens a batch file. A path that does not exist or is a directory is refused
/// here, before anything is read.
pub fn open(path: impl AsRef<Path>) -> Result<Entries<'static>, BatchError> {
    let path = path.as_ref();
    let name = format!("file {}", path.display());
    let file = File::open(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => BatchError::NotFound { name: name.clone() },
        _ => BatchError::Io {
            name: name.clone(),
            source: e,
        },
    })?;
    let metadata = file.metadata().map_err(|e| BatchError::Io {
        name: name.clone(),
        source: e,
    })?;
    if metadata.is_dir() {
        return Err(BatchError::IsADirectory { name });
    }
    let len = metadata.is_file().then_some(metadata.len());
    from_reader(BufReader::with_capacity(1 << 16, file), name, len)
}

/// The entries of any reader; `name` says what it is in messages, `len` is its
/// length in bytes when known (for progress).
pub fn from_reader<'a>(
    reader: impl BufRead + 'a,
    name: impl Into<String>,
    len: Option<u64>,
) -> Result<Entries<'a>, BatchError> {
    let name = name.into();
    let io_error = |source| BatchError::Io {
        name: name.clone(),
        source,
    };
    let mut reader: Box<dyn BufRead + 'a> = Box::new(reader);
    let mut head = Vec::with_capacity(4);
    reader
        .by_ref()
        .take(4)
        .read_to_end(&mut head)
        .map_err(io_error)?;
    let mut len = len;
    let mut skipped = Prefix::default();
    let mut reader: Box<dyn BufRead + 'a> = match utf16_endian(&head) {
        Some(endian) => {
            let mut bytes = head;
            reader.read_to_end(&mut bytes).map_err(io_error)?;
            let text =
                decode_utf16(&bytes[2..], endian).map_err(|offset| BatchError::BadUtf16 {
                    name: name.clone(),
                    endian: endian.name(),
                    offset: offset + 2,
                })?;
            len = Some(text.len() as u64);
            Box::new(io::Cursor::new(text.into_bytes()))
        }
        None if looks_like_utf16_without_bom(&head) => {
            return Err(BatchError::Utf16WithoutBom { name });
        }
        None => {
            if head.starts_with(UTF8_BOM) {
                skipped.bytes = 3;
                head.drain(..3);
            }
            Box::new(io::Cursor::new(head).chain(reader))
        }
    };
    let first = skip_white_space(&mut *reader, &mut skipped).map_err(io_error)?;
    let mut entries = Entries {
        source: Source::Done,
        name,
        next_index: 1,
        total: None,
        input_len: len,
        shape: Shape::Empty,
    };
    match first {
        None => entries.total = Some(0),
        Some(b'[') => {
            let text = read_text(reader, Vec::new(), &entries.name, skipped)?;
            let elements = Elements::array(text, skipped, &entries.name)?;
            entries.total = Some(elements.spans.len());
            entries.shape = Shape::JsonArray;
            entries.source = Source::Elements(elements);
        }
        Some(b'{') => {
            let mut first_line = Vec::new();
            reader
                .read_until(b'\n', &mut first_line)
                .map_err(|e| BatchError::Io {
                    name: entries.name.clone(),
                    source: e,
                })?;
            if serde_json::from_slice::<serde::de::IgnoredAny>(&first_line).is_ok() {
                let reader = Box::new(io::Cursor::new(first_line).chain(reader));
                entries.shape = Shape::JsonLines;
                entries.source = Source::Lines(Box::new(Lines::new(reader, true, skipped)));
            } else {
                let text = read_text(reader, first_line, &entries.name, skipped)?;
                let elements = Elements::categories(text, skipped, &entries.name)?;
                entries.total = Some(elements.spans.len());
                entries.shape = Shape::Categories;
                entries.source = Source::Elements(elements);
            }
        }
        Some(c) => {
            let json = c == b'"';
            entries.shape = if json { Shape::JsonLines } else { Shape::Lines };
            entries.source = Source::Lines(Box::new(Lines::new(reader, json, skipped)));
        }
    }
    Ok(entries)
}

impl Entries<'_> {
    /// What the input is called in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of entries, when known before they are read (JSON arrays and
    /// category objects, read whole).
    pub fn total(&self) -> Option<usize> {
        self.total
    }

    /// The input's length in bytes, when known (a regular file, or text decoded
    /// whole): with [`Entry::bytes`], how far through it the entries are.
    pub fn input_len(&self) -> Option<u64> {
        self.input_len
    }

    /// The shape the input was read as.
    pub fn shape(&self) -> Shape {
        self.shape
    }
}

impl Iterator for Entries<'_> {
    type Item = Result<Entry, BatchError>;

    fn next(&mut self) -> Option<Result<Entry, BatchError>> {
        let found = match &mut self.source {
            Source::Done => return None,
            Source::Elements(elements) => Ok(elements.next()),
            Source::Lines(lines) => lines.next().map_err(|e| BatchError::Io {
                name: self.name.clone(),
                source: e,
            }),
        };
        match found {
            Ok(Some((found, bytes))) => {
                let index = self.next_index;
                self.next_index += 1;
                Some(Ok(Entry {
                    index,
                    text: found.text,
                    problem: found.problem,
                    hide_ops: found.hide_ops,
                    bytes,
                }))
            }
            Ok(None) => {
                self.source = Source::Done;
                None
            }
            Err(e) => {
                self.source = Source::Done;
                Some(Err(e))
            }
        }
    }
}

/// One entry as read: its puzzle string (or the text that is not one), why it is
/// not one, and whether it asks for its operations hidden.
#[derive(Debug)]
pub(super) struct Text {
    text: String,
    problem: Option<EntryError>,
    hide_ops: bool,
}

impl Text {
    fn puzzle(text: impl Into<String>) -> Text {
        Text {
            text: text.into(),
            problem: None,
            hide_ops: false,
        }
    }

    fn not_a_puzzle(text: impl Into<String>, problem: EntryError) -> Text {
        Text {
            text: text.into(),
            problem: Some(problem),
            hide_ops: false,
        }
    }
}

/// An entry and the input bytes it took.
type Found = (Text, u64);
