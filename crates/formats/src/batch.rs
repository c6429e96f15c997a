//! Reading a batch of puzzle strings: a file or stream holding many puzzles, read
//! lazily as [`Entries`], an iterator of [`Entry`]s in input order.
//!
//! The shape is told apart by the first character that is not white space:
//!
//! * `[`: a JSON array of puzzle strings (the reference solver's batch input), or of
//!   `{"puzzle": …}` objects. Read whole and checked as JSON before the first entry
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

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::VecDeque;
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

/// Decodes the bytes of a text file holding one puzzle: UTF-8 (a byte-order mark
/// is dropped) or UTF-16 with a byte-order mark. `name` says what it is in
/// messages.
pub fn decode_text(bytes: Vec<u8>, name: &str) -> Result<String, BatchError> {
    if let Some(endian) = utf16_endian(&bytes) {
        return decode_utf16(&bytes[2..], endian).map_err(|offset| BatchError::BadUtf16 {
            name: name.to_string(),
            endian: endian.name(),
            offset: offset + 2,
        });
    }
    if looks_like_utf16_without_bom(&bytes) {
        return Err(BatchError::Utf16WithoutBom {
            name: name.to_string(),
        });
    }
    let skip = if bytes.starts_with(UTF8_BOM) { 3 } else { 0 };
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            text.drain(..skip);
            Ok(text)
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            // The bytes before `valid` are UTF-8: nothing is replaced.
            let text = String::from_utf8_lossy(&e.as_bytes()[skip..valid]);
            Err(BatchError::NotUtf8 {
                name: name.to_string(),
                at: Tracker::new(Prefix::default()).locate(&text, text.len()),
                offset: valid as u64,
            })
        }
    }
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
            Ok(Some((text, problem, bytes))) => {
                let index = self.next_index;
                self.next_index += 1;
                Some(Ok(Entry {
                    index,
                    text,
                    problem,
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

/// An entry's text, its problem and the input bytes it took.
type Found = (String, Option<EntryError>, u64);

// ---- encodings ----

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Clone, Copy)]
enum Endian {
    Little,
    Big,
}

impl Endian {
    fn name(self) -> &'static str {
        match self {
            Endian::Little => "little-endian",
            Endian::Big => "big-endian",
        }
    }
}

fn utf16_endian(head: &[u8]) -> Option<Endian> {
    match head {
        [0xFF, 0xFE, ..] => Some(Endian::Little),
        [0xFE, 0xFF, ..] => Some(Endian::Big),
        _ => None,
    }
}

/// Two ASCII characters with NUL bytes between them, `x\0y\0` or `\0x\0y`: no
/// UTF-8 puzzle text starts like that.
fn looks_like_utf16_without_bom(head: &[u8]) -> bool {
    let ascii = |b: u8| b != 0 && b.is_ascii();
    match head {
        [a, 0, b, 0, ..] | [0, a, 0, b, ..] => ascii(*a) && ascii(*b),
        _ => false,
    }
}

/// UTF-16 bytes (after the byte-order mark) as text; `Err` gives the offset of the
/// first bad code unit.
fn decode_utf16(bytes: &[u8], endian: Endian) -> Result<String, u64> {
    let units = bytes.chunks(2).map(|pair| match (endian, pair) {
        (Endian::Little, [lo, hi]) => u16::from_le_bytes([*lo, *hi]),
        (Endian::Big, [hi, lo]) => u16::from_be_bytes([*hi, *lo]),
        // An odd last byte: never valid.
        _ => 0xDC00,
    });
    let mut text = String::with_capacity(bytes.len() / 2);
    let mut units_read = 0u64;
    for c in char::decode_utf16(units) {
        let c = c.map_err(|_| 2 * units_read)?;
        units_read += c.len_utf16() as u64;
        text.push(c);
    }
    Ok(text)
}

// ---- positions ----

/// What was skipped before the text a position is counted in: bytes (for progress)
/// and where in the whole input the text starts.
#[derive(Clone, Copy, Debug)]
struct Prefix {
    bytes: u64,
    line: usize,
    column: usize,
}

impl Default for Prefix {
    fn default() -> Prefix {
        Prefix {
            bytes: 0,
            line: 1,
            column: 1,
        }
    }
}

/// Turns byte offsets into a text (increasing, as elements come in order) into
/// locations in the whole input.
struct Tracker {
    start: Prefix,
    offset: usize,
    at: Location,
}

impl Tracker {
    fn new(start: Prefix) -> Tracker {
        Tracker {
            start,
            offset: 0,
            at: Location {
                line: start.line,
                column: start.column,
            },
        }
    }

    fn locate(&mut self, text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            *self = Tracker::new(self.start);
        }
        for c in text[self.offset..offset].chars() {
            if c == '\n' {
                self.at.line += 1;
                self.at.column = 1;
            } else {
                self.at.column += 1;
            }
        }
        self.offset = offset;
        self.at
    }
}

/// The byte offset in `text` of a serde_json error's line and column (1-based; its
/// column counts bytes).
fn serde_offset(text: &str, e: &serde_json::Error) -> usize {
    let mut start = 0;
    for _ in 1..e.line() {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut offset = (start + e.column().saturating_sub(1)).min(text.len());
    // The column may point inside a character (at the end of an unterminated
    // string, say): its first byte then.
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A serde_json error's message without its " at line L column C".
fn serde_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}

/// Skips white space (counting it into `prefix`); the first other byte, unread.
fn skip_white_space(reader: &mut dyn BufRead, prefix: &mut Prefix) -> io::Result<Option<u8>> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let n = buf
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(buf.len());
        for &b in &buf[..n] {
            if b == b'\n' {
                prefix.line += 1;
                prefix.column = 1;
            } else {
                prefix.column += 1;
            }
        }
        let first = buf.get(n).copied();
        reader.consume(n);
        prefix.bytes += n as u64;
        if first.is_some() {
            return Ok(first);
        }
    }
}

/// The rest of a reader after `start`, as UTF-8 text.
fn read_text(
    mut reader: Box<dyn BufRead + '_>,
    start: Vec<u8>,
    name: &str,
    prefix: Prefix,
) -> Result<String, BatchError> {
    let mut bytes = start;
    reader
        .read_to_end(&mut bytes)
        .map_err(|source| BatchError::Io {
            name: name.to_string(),
            source,
        })?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        // The bytes before `valid` are UTF-8: nothing is replaced.
        let text = String::from_utf8_lossy(&e.as_bytes()[..valid]);
        BatchError::NotUtf8 {
            name: name.to_string(),
            at: Tracker::new(prefix).locate(&text, valid),
            offset: prefix.bytes + valid as u64,
        }
    })
}

// ---- arrays and category objects, read whole ----

/// Where an element lies in the text, and which array it belongs to.
struct Span {
    start: usize,
    end: usize,
    /// Index into `Elements::categories`, for a category object's element.
    category: Option<usize>,
    /// 1-based within its array.
    number: usize,
}

struct Elements {
    text: String,
    spans: std::vec::IntoIter<Span>,
    categories: Vec<String>,
    tracker: Tracker,
    /// Where the previous element ended (for [`Entry::bytes`]).
    done: usize,
    prefix_bytes: u64,
}

/// The byte range of a borrowed raw value within the text it was parsed from.
fn span_of(text: &str, raw: &RawValue) -> (usize, usize) {
    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
    (start, start + raw.get().len())
}

impl Elements {
    fn array(text: String, prefix: Prefix, name: &str) -> Result<Elements, BatchError> {
        let mut tracker = Tracker::new(prefix);
        let spans = match serde_json::from_str::<Vec<&RawValue>>(&text) {
            Ok(raws) => raws
                .iter()
                .enumerate()
                .map(|(i, raw)| {
                    let (start, end) = span_of(&text, raw);
                    Span {
                        start,
                        end,
                        category: None,
                        number: i + 1,
                    }
                })
                .collect::<Vec<_>>(),
            Err(e) => {
                return Err(BatchError::BadArray {
                    name: name.to_string(),
                    message: serde_message(&e),
                    at: tracker.locate(&text, serde_offset(&text, &e)),
                })
            }
        };
        Ok(Elements {
            text,
            spans: spans.into_iter(),
            categories: Vec::new(),
            tracker,
            done: 0,
            prefix_bytes: prefix.bytes,
        })
    }

    fn categories(text: String, prefix: Prefix, name: &str) -> Result<Elements, BatchError> {
        let mut tracker = Tracker::new(prefix);
        let (categories, spans) = match serde_json::from_str::<RawCategories>(&text) {
            Ok(RawCategories(lists)) => {
                let mut names = Vec::with_capacity(lists.len());
                let mut spans = Vec::new();
                for (c, (category, raws)) in lists.into_iter().enumerate() {
                    names.push(category);
                    spans.extend(raws.iter().enumerate().map(|(i, raw)| {
                        let (start, end) = span_of(&text, raw);
                        Span {
                            start,
                            end,
                            category: Some(c),
                            number: i + 1,
                        }
                    }));
                }
                (names, spans)
            }
            Err(e) => {
                return Err(BatchError::BadObject {
                    name: name.to_string(),
                    message: serde_message(&e),
                    at: tracker.locate(&text, serde_offset(&text, &e)),
                })
            }
        };
        Ok(Elements {
            text,
            spans: spans.into_iter(),
            categories,
            tracker,
            done: 0,
            prefix_bytes: prefix.bytes,
        })
    }

    fn next(&mut self) -> Option<Found> {
        let span = self.spans.next()?;
        let raw = &self.text[span.start..span.end];
        let bytes = (span.end - self.done) as u64 + std::mem::take(&mut self.prefix_bytes);
        self.done = span.end;
        if let Some(s) = plain_json_string(raw) {
            return Some((s.to_string(), None, bytes));
        }
        let at = self.tracker.locate(&self.text, span.start);
        let item = match span.category {
            None => Item::Element {
                number: span.number,
                at,
            },
            Some(c) => Item::CategoryElement {
                category: self.categories[c].clone(),
                number: span.number,
                at,
            },
        };
        let (text, problem) = match serde_json::from_str::<Value>(raw) {
            Ok(value) => puzzle_of(value, item),
            Err(e) => {
                let at = self
                    .tracker
                    .locate(&self.text, span.start + serde_offset(raw, &e));
                (
                    raw.to_string(),
                    Some(EntryError::NotJson {
                        item,
                        message: serde_message(&e),
                        at,
                    }),
                )
            }
        };
        Some((text, problem, bytes))
    }
}

/// The arrays of a JSON object, by key, in document order (a map would sort the
/// keys), each element left as raw JSON.
struct RawCategories<'a>(Vec<(String, Vec<&'a RawValue>)>);

impl<'de> serde::Deserialize<'de> for RawCategories<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawCategories<'de>, D::Error> {
        struct Lists;
        impl<'de> Visitor<'de> for Lists {
            type Value = RawCategories<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object whose values are arrays of puzzle strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut lists = Vec::new();
                while let Some(entry) = map.next_entry::<String, Vec<&'de RawValue>>()? {
                    lists.push(entry);
                }
                Ok(RawCategories(lists))
            }
        }
        d.deserialize_map(Lists)
    }
}

/// The content of a JSON string literal that has no escapes (the common case,
/// read without a JSON parser).
fn plain_json_string(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)).then_some(inner)
}

/// The puzzle string of a JSON value: a string, or an object's `puzzle` string.
fn puzzle_of(value: Value, item: Item) -> (String, Option<EntryError>) {
    match value {
        Value::String(s) => (s, None),
        Value::Object(mut map) => match map.remove("puzzle") {
            Some(Value::String(s)) => (s, None),
            other => {
                if let Some(v) = other {
                    map.insert("puzzle".to_string(), v);
                }
                (
                    Value::Object(map).to_string(),
                    Some(EntryError::NoPuzzleKey { item }),
                )
            }
        },
        other => (other.to_string(), Some(EntryError::NotAString { item })),
    }
}

// ---- lines ----

struct Lines<'a> {
    reader: Box<dyn BufRead + 'a>,
    json: bool,
    /// The line last read (1-based in the whole input).
    line: usize,
    /// The column (1-based, in the whole input) where the next line read starts:
    /// past the white space skipped before the first one, 1 afterwards.
    first_column: usize,
    /// Input bytes read since the last entry was given out.
    bytes: u64,
    /// The puzzles of a one-line category object not yet given out.
    pending: VecDeque<(String, Option<EntryError>)>,
    buf: Vec<u8>,
}

impl<'a> Lines<'a> {
    fn new(reader: Box<dyn BufRead + 'a>, json: bool, skipped: Prefix) -> Lines<'a> {
        Lines {
            reader,
            json,
            line: skipped.line - 1,
            first_column: skipped.column,
            bytes: skipped.bytes,
            pending: VecDeque::new(),
            buf: Vec::new(),
        }
    }

    /// The next non-blank line's entry (or the next puzzle of a category line).
    fn next(&mut self) -> io::Result<Option<Found>> {
        if let Some((text, problem)) = self.pending.pop_front() {
            return Ok(Some((text, problem, std::mem::take(&mut self.bytes))));
        }
        loop {
            self.buf.clear();
            let n = self.reader.read_until(b'\n', &mut self.buf)?;
            if n == 0 {
                return Ok(None);
            }
            self.bytes += n as u64;
            self.line += 1;
            let column = std::mem::replace(&mut self.first_column, 1);
            let item = Item::Line(self.line);
            let raw = match std::str::from_utf8(&self.buf) {
                Ok(t) => t,
                Err(_) => {
                    let lossy = String::from_utf8_lossy(&self.buf).trim().to_string();
                    let problem = EntryError::NotUtf8 { item };
                    return Ok(Some((
                        lossy,
                        Some(problem),
                        std::mem::take(&mut self.bytes),
                    )));
                }
            };
            let text = raw.trim();
            if text.is_empty() {
                continue;
            }
            let found = if !self.json {
                (text.to_string(), None)
            } else if let Some(s) = plain_json_string(text) {
                (s.to_string(), None)
            } else if let Some(puzzles) = category_line(raw, self.line, column) {
                self.pending = puzzles;
                match self.pending.pop_front() {
                    Some(first) => first,
                    // Only empty arrays: no puzzle on this line.
                    None => continue,
                }
            } else {
                match serde_json::from_str::<Value>(text) {
                    Ok(value) => puzzle_of(value, item),
                    Err(e) => {
                        let lead = raw.len() - raw.trim_start().len();
                        let offset = lead + serde_offset(text, &e);
                        let at = Location {
                            line: self.line,
                            column: column + raw[..offset.min(raw.len())].chars().count(),
                        };
                        let message = serde_message(&e);
                        let problem = EntryError::NotJson { item, message, at };
                        (text.to_string(), Some(problem))
                    }
                }
            };
            return Ok(Some((found.0, found.1, std::mem::take(&mut self.bytes))));
        }
    }
}

/// When a line (the `line`th, starting at `column`) holds a category object: its
/// puzzles, in document order. Each element is decoded on its own, so one that
/// cannot be is one entry in error, not the whole line.
fn category_line(
    text: &str,
    line: usize,
    column: usize,
) -> Option<VecDeque<(String, Option<EntryError>)>> {
    let trimmed = text.trim();
    if !trimmed.starts_with('{') {
        return None;
    }
    let lists = match serde_json::from_str::<RawCategories>(trimmed) {
        Ok(RawCategories(lists))
            if !lists.is_empty() && lists.iter().all(|(key, _)| key != "puzzle") =>
        {
            lists
        }
        _ => return None,
    };
    let lead = text.len() - text.trim_start().len();
    let mut puzzles = VecDeque::new();
    for (category, raws) in lists {
        for (i, raw) in raws.iter().enumerate() {
            let (start, _) = span_of(trimmed, raw);
            let column = column + text[..lead + start].chars().count();
            let item = Item::CategoryElement {
                category: category.clone(),
                number: i + 1,
                at: Location { line, column },
            };
            let found = match plain_json_string(raw.get()) {
                Some(s) => (s.to_string(), None),
                None => match serde_json::from_str::<Value>(raw.get()) {
                    Ok(v) => puzzle_of(v, item),
                    Err(e) => {
                        let at = Location {
                            line,
                            column: column
                                + raw.get()[..serde_offset(raw.get(), &e)].chars().count(),
                        };
                        let message = serde_message(&e);
                        (
                            raw.get().to_string(),
                            Some(EntryError::NotJson { item, message, at }),
                        )
                    }
                },
            };
            puzzles.push_back(found);
        }
    }
    Some(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8]) -> Result<Vec<Entry>, BatchError> {
        from_reader(input, "the test input", Some(input.len() as u64))?.collect()
    }

    fn entries(input: &str) -> Vec<(usize, String, Option<String>)> {
        read(input.as_bytes())
            .unwrap()
            .into_iter()
            .map(|e| (e.index, e.text, e.problem.map(|p| p.to_string())))
            .collect()
    }

    fn texts(input: &str) -> Vec<String> {
        entries(input).into_iter().map(|e| e.1).collect()
    }

    #[test]
    fn an_unterminated_string_ending_in_a_wide_character() {
        // Found by the fuzz test: serde_json's error column pointed inside `ö`.
        for input in ["\"a\"\n\"ünïcö\n\"b\"\n", "[\"a\", \"ünïcö", "{\"x\": [\"ö"] {
            let got = read(input.as_bytes());
            if input.starts_with('"') {
                let got = got.unwrap();
                assert_eq!(got.len(), 3, "{input:?}");
                assert_eq!(got[1].text, "\"ünïcö");
                let problem = got[1].problem.as_ref().unwrap().to_string();
                assert!(problem.contains("line 2, column 6"), "{problem}");
            } else {
                assert!(got.is_err(), "{input:?}");
            }
        }
    }

    #[test]
    fn json_arrays() {
        let got = entries(" \n[\"a\" , \"b\\\"c\",\n{\"puzzle\":\"d\"}, 42 ]\n");
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], (1, "a".into(), None));
        assert_eq!(got[1], (2, "b\"c".into(), None));
        assert_eq!(got[2], (3, "d".into(), None));
        assert_eq!(got[3].1, "42");
        assert_eq!(
            got[3].2.as_deref(),
            Some("array element 4 (line 3, column 17) is not a puzzle string (nor an object with a \"puzzle\" string)")
        );
        assert!(entries("[]").is_empty());
        assert!(entries("[ ]").is_empty());
        let reader = from_reader(&b"[\"a\", \"b\"]"[..], "x", None).unwrap();
        assert_eq!(reader.total(), Some(2));
        assert_eq!(reader.shape(), Shape::JsonArray);
    }

    #[test]
    fn malformed_arrays_are_refused_whole_with_the_place() {
        let e = read(b"\n\n  [\"a\",\n \"b\"").unwrap_err();
        let message = e.to_string();
        assert!(matches!(e, BatchError::BadArray { .. }), "{message}");
        assert!(message.contains("not a valid JSON array"), "{message}");
        assert!(message.contains("(line 4, column 4)"), "{message}");
    }

    #[test]
    fn undecodable_elements_get_an_entry_and_the_rest_are_read() {
        // A lone surrogate and a number out of range are well-formed JSON that
        // cannot be decoded: an entry each, with the place in the whole input.
        let good = "3:_a_aa_aa,s1m3a6m6";
        let input =
            format!("[\"{good}\",\"\\udc00\",\n  1e400, {{\"puzzle\": \"\\ud800\"}}, \"{good}\"]");
        let got = entries(&input);
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], (1, good.to_string(), None));
        assert_eq!(got[1].1, "\"\\udc00\"");
        let problem = got[1].2.as_deref().unwrap();
        assert!(
            problem.starts_with(
                "array element 2 (line 1, column 24) is not valid JSON: lone leading surrogate"
            ),
            "{problem}"
        );
        assert!(problem.ends_with("(line 1, column 30)"), "{problem}");
        let problem = got[2].2.as_deref().unwrap();
        assert!(
            problem.starts_with(
                "array element 3 (line 2, column 3) is not valid JSON: number out of range"
            ),
            "{problem}"
        );
        assert!(got[3].2.as_deref().unwrap().contains("element 4"));
        assert_eq!(got[4], (5, good.to_string(), None));
    }

    #[test]
    fn category_objects() {
        assert_eq!(
            texts("{\n \"Four\": [\"b\", \"a\"],\n \"Easy\": [\"c\"]\n}\n"),
            ["b", "a", "c"]
        );
        let e = read(b"{\n \"Four\": 3\n}").unwrap_err();
        assert!(
            e.to_string().contains("JSON object of puzzle arrays"),
            "{e}"
        );
        assert!(e.to_string().contains("line 2"), "{e}");
        let got = entries("{\n \"Four\": [\"b\", 7]\n}");
        assert_eq!(
            got[1].2.as_deref(),
            Some("element 2 of category \"Four\" (line 2, column 16) is not a puzzle string (nor an object with a \"puzzle\" string)")
        );
    }

    #[test]
    fn one_line_category_objects() {
        // What `jq -c` writes: the whole object on one line, keys in their order.
        let input = "{\"Hard\":[\"b\",\"a\"],\"Easy\":[\"c\"],\"None\":[]}\n";
        let reader = from_reader(input.as_bytes(), "x", None).unwrap();
        assert_eq!(reader.shape(), Shape::JsonLines);
        let got: Vec<Entry> = reader.map(Result::unwrap).collect();
        let got_texts: Vec<&str> = got.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(got_texts, ["b", "a", "c"]);
        assert_eq!(got.iter().map(|e| e.index).collect::<Vec<_>>(), [1, 2, 3]);
        // Several of them, and ordinary lines between.
        assert_eq!(
            texts("{\"A\":[\"a\"]}\n\"b\"\n{\"B\":[\"c\",\"d\"]}\n{\"puzzle\":\"e\"}\n"),
            ["a", "b", "c", "d", "e"]
        );
        // An element that cannot be decoded is one entry in error, not the line.
        let got = entries("{\"A\":[\"a\", 1e400, \"b\"]}\n");
        assert_eq!(got.len(), 3);
        assert!(got[1].2.as_deref().unwrap().contains("number out of range"));
        assert_eq!(got[2].1, "b");
        let got = entries("{\"A\":[\"a\", 5]}\n");
        assert_eq!(
            got[1].2.as_deref(),
            Some("element 2 of category \"A\" (line 1, column 12) is not a puzzle string (nor an object with a \"puzzle\" string)")
        );
    }

    #[test]
    fn ndjson_and_lines() {
        let got = entries("\"a\"\n\n{\"puzzle\": \"b\", \"x\": 1}\n  {oops\n{\"id\": 7}\n");
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], (1, "a".into(), None));
        assert_eq!(got[1], (2, "b".into(), None));
        assert_eq!(got[2].1, "{oops");
        assert_eq!(
            got[2].2.as_deref(),
            Some("line 4 is not valid JSON: key must be a string (line 4, column 4)")
        );
        assert_eq!(
            got[3].2.as_deref(),
            Some("line 5 is an object without a \"puzzle\" string")
        );

        let got = entries("\u{feff}4:abc\r\n\n  5:def  \n");
        assert_eq!(
            got,
            vec![(1, "4:abc".into(), None), (2, "5:def".into(), None)]
        );
        assert!(entries("").is_empty());
        assert!(entries(" \n\t\n").is_empty());
        // Lines count from the start, blank lines before the first one included.
        let got = entries("\n\n\"a\"\n{x\n");
        assert!(got[1].2.as_deref().unwrap().starts_with("line 4 "));
    }

    #[test]
    fn bad_utf8() {
        let got = read(b"4:abc\n4:\xFFx\n5:def\n").unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[1].problem,
            Some(EntryError::NotUtf8 {
                item: Item::Line(2)
            })
        );
        assert_eq!(got[2].text, "5:def");
        let e = read(b"[\"a\",\n\"\xFF\"]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the test input is not valid UTF-8 (line 2, column 2, byte offset 7)"
        );
    }

    fn utf16(text: &str, big: bool) -> Vec<u8> {
        let mut bytes = if big {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in text.encode_utf16() {
            bytes.extend(if big {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        bytes
    }

    #[test]
    fn utf16_is_decoded() {
        let text = "3:_a_aa_aa,s1m3a6m6\n4:abc\n";
        for big in [false, true] {
            let got: Vec<String> = read(&utf16(text, big))
                .unwrap()
                .into_iter()
                .map(|e| e.text)
                .collect();
            assert_eq!(got, ["3:_a_aa_aa,s1m3a6m6", "4:abc"]);
            assert_eq!(decode_text(utf16(text, big), "x").unwrap(), text);
        }
        let mut no_bom = utf16(text, false);
        no_bom.drain(..2);
        let e = read(&no_bom).unwrap_err();
        assert!(matches!(e, BatchError::Utf16WithoutBom { .. }), "{e}");
        let mut broken = utf16("ab", false);
        broken.extend([0x00, 0xDC]);
        let e = read(&broken).unwrap_err();
        assert!(
            e.to_string().contains("not valid UTF-16 (byte offset 6)"),
            "{e}"
        );
    }

    #[test]
    fn decode_text_drops_the_bom_and_says_where_utf8_breaks() {
        assert_eq!(
            decode_text(b"\xEF\xBB\xBF4:ab".to_vec(), "x").unwrap(),
            "4:ab"
        );
        let e = decode_text(b"4:\nab\xC3".to_vec(), "file p.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "file p.txt is not valid UTF-8 (line 2, column 3, byte offset 5)"
        );
    }

    #[test]
    fn bytes_add_up_to_the_input() {
        for input in [
            "\u{feff} \n4:abc\r\n\n  5:def  \n",
            "\"a\"\n{\"A\":[\"b\",\"c\"]}\n\n",
            "[\"a\", \"b\"]\n",
            "{\n\"A\": [\"a\", \"b\"]\n}",
        ] {
            let total: u64 = read(input.as_bytes())
                .unwrap()
                .iter()
                .map(|e| e.bytes)
                .sum();
            assert!(total <= input.len() as u64, "{input:?}");
            assert!(total + 3 >= input.len() as u64, "{input:?}: {total}");
        }
    }

    #[test]
    fn files_that_cannot_be_read() {
        let dir = std::env::temp_dir();
        assert!(matches!(
            open(dir.join("no-such-kenken-batch.json")).err(),
            Some(BatchError::NotFound { .. })
        ));
        let e = open(&dir).err().unwrap();
        assert!(matches!(e, BatchError::IsADirectory { .. }), "{e}");
    }

    #[test]
    fn entry_puzzle() {
        let got = read(b"4:abc\n").unwrap();
        assert_eq!(got[0].puzzle(), Some("4:abc"));
        let got = read(b"[1]").unwrap();
        assert_eq!(got[0].puzzle(), None);
    }
}
